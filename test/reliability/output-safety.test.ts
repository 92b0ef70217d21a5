/**
 * Whatever the stored data holds, nothing but
 * well-formed XML 1.0 leaves the server. Rows are written DIRECTLY into the
 * database with knex, behind the write path's back: metadata with every C0
 * control, U+FFFE, U+FFFF, lone surrogates, `]]>`, text that closes the
 * envelope, declarations, undeclared prefixes; identifiers, set names and set
 * descriptions likewise. Every answer must be XSD-valid, and a record whose
 * metadata is corrupt is answered with its header alone (lib/oai/render.ts).
 * Plus the guard itself (checkFragment) against libxml2, and the write path
 * refusing what the guard refuses.
 * The guard itself is tested in test/xml/fragment.test.ts and
 * test/xml/plain-fragment.test.ts.
 */
import { expect } from 'chai';
import { replaceNonXmlChars } from '../../lib/xml/chars';
import { RefusedError } from '../../lib/store';
import { checkOai, forEachProvider, request, resumption, texts } from '../helpers/server';
import { dc, item } from '../helpers/store-fixtures';
import { forEachDatabase } from '../helpers/db';
import { CORRUPT_METADATA, NASTY_IDENTIFIER, NASTY_TEXT, OAI_DC_OPEN } from '../helpers/corrupt-xml';

describe('output safety', function () {
  this.timeout(120_000);

  describe('the write path', () => {
    forEachDatabase((db) => {
      it('refuses metadata that is not one well-formed element, naming the record and the format', async () => {
        for (const c of CORRUPT_METADATA.filter((m) => !/U\+|empty/.test(m.name))) {
          let error: unknown;
          try {
            await db.store().writeItems([item('ok'), item('bad one', { metadata: { oai_dc: c.xml } })]);
          } catch (err) {
            error = err;
          }
          expect(error, c.name).to.be.instanceOf(RefusedError);
          expect(
            (error as RefusedError).refusals.map((r) => [r.internalId, r.field]),
            c.name,
          ).to.deep.include(['bad one', 'metadata.oai_dc']);
        }
        expect(await db.store().count({ metadataPrefix: 'oai_dc', until: 2 ** 31 })).to.equal(0);
      });

      it('refuses a set description that is not one well-formed element', async () => {
        let error: unknown;
        try {
          await db.store().putSets([{ spec: 'a', name: 'A', descriptions: ['<x></setDescription>'] }]);
        } catch (err) {
          error = err;
        }
        expect(String(error)).to.match(/description is not one well-formed XML element/);
      });
    });
  });

  describe('corrupt rows written straight into the database', () => {
    forEachProvider({ pageSize: 7 }, (get) => {
      const inserted: { identifier: string; name: string; corrupt: boolean }[] = [];

      before(async () => {
        const { knex } = get();
        const sqlite = (knex.client as { dialect?: string }).dialect !== 'postgresql';
        const rows: { internalId: string; identifier: string; name: string; xml: string; corrupt: boolean }[] = CORRUPT_METADATA.map((c, i) => ({
          internalId: `corrupt-${i}`,
          identifier: `oai:demo.oai-steward.org:corrupt-${i}`,
          name: c.name,
          xml: c.xml,
          // Lone surrogates cannot be stored as text (both drivers write UTF-8, turning them into U+FFFD): those rows arrive sound.
          corrupt: !/[\uD800-\uDFFF]/.test(c.xml),
        }))
          // PostgreSQL text cannot hold NUL at all: that row exists only on SQLite.
          .filter((r) => sqlite || !r.xml.includes('\u0000'));
        rows.push({
          internalId: 'nasty-id',
          identifier: `oai:demo.oai-steward.org:${NASTY_IDENTIFIER}`,
          name: 'an identifier with forbidden characters',
          xml: dc('fine'),
          corrupt: false,
        });
        if (!sqlite) for (const r of rows) r.identifier = r.identifier.replace(/\u0000/g, '');
        await knex.transaction(async (trx) => {
          await trx('sets').insert({
            spec: 'corrupt',
            name: NASTY_TEXT.replace(sqlite ? /(?!)/ : /\u0000/g, ''),
            descriptions: JSON.stringify(['<x></setDescription></set>', `${OAI_DC_OPEN}<dc:title>\u0001</dc:title></oai_dc:dc>`, dc('a fine description')]),
          });
          for (const r of rows) {
            const [pk] = (await trx('items').insert(
              {
                internal_id: r.internalId,
                identifier: r.identifier,
                datestamp: get().now - 60,
                deleted: false,
                content_hash: 'x',
                created: 0,
                direct_sets: 'corrupt',
              },
              ['pk'],
            )) as ({ pk: number } | number)[];
            const itemPk = typeof pk === 'object' ? pk.pk : (pk as number);
            await trx('records').insert({ item_pk: itemPk, prefix: 'oai_dc', xml: r.xml, datestamp: get().now - 60 });
            await trx('item_sets').insert({ spec: 'corrupt', item_pk: itemPk, direct: true, datestamp: get().now - 60 });
            inserted.push({ identifier: r.identifier, name: r.name, corrupt: r.corrupt });
          }
          if (sqlite) {
            // Bytes that are not UTF-8 at all (a CESU-8 surrogate, a lone continuation byte), as only a raw write can store them.
            const [pk] = (await trx('items').insert(
              {
                internal_id: 'raw-bytes',
                identifier: 'oai:demo.oai-steward.org:raw-bytes',
                datestamp: get().now - 60,
                deleted: false,
                content_hash: 'x',
                created: 0,
                direct_sets: 'corrupt',
              },
              ['pk'],
            )) as ({ pk: number } | number)[];
            const itemPk = typeof pk === 'object' ? pk.pk : (pk as number);
            await trx.raw(`INSERT INTO records (item_pk, prefix, xml, datestamp) VALUES (?, 'oai_dc', CAST(? || X'EDA080' || X'80' || ? AS TEXT), ?)`, [
              itemPk,
              `${OAI_DC_OPEN}<dc:title>`,
              '</dc:title></oai_dc:dc>',
              get().now - 60,
            ]);
            await trx('item_sets').insert({ spec: 'corrupt', item_pk: itemPk, direct: true, datestamp: get().now - 60 });
            inserted.push({ identifier: 'oai:demo.oai-steward.org:raw-bytes', name: 'bytes that are not UTF-8', corrupt: false });
          }
        });
      });

      it('answers GetRecord for every corrupt record with a valid document: the header, and metadata only when it is sound', async () => {
        for (const r of inserted) {
          const xml = checkOai(
            await request(get().port, { query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(replaceNonXmlChars(r.identifier))}` }),
          );
          if (r.corrupt) expect(xml, r.name).to.contain('<record><header>').and.not.to.contain('<metadata>');
        }
      });

      for (const verb of ['ListRecords', 'ListIdentifiers']) {
        for (const scope of ['', '&set=corrupt']) {
          it(`harvests ${verb}${scope} to the end through the corrupt rows with valid documents only`, async () => {
            let query = `verb=${verb}&metadataPrefix=oai_dc${scope}`;
            const seen: string[] = [];
            for (;;) {
              const xml = checkOai(await request(get().port, { query }));
              seen.push(...texts(xml, 'identifier'));
              const t = resumption(xml);
              if (!t || t.token === '') break;
              query = `verb=${verb}&resumptionToken=${encodeURIComponent(t.token)}`;
            }
            // Every inserted row is listed once (identifiers reach the wire with forbidden characters replaced).
            expect(seen.filter((id) => id.includes('corrupt-') || id.includes('raw-bytes') || id.includes('\uFFFD'))).to.have.length(inserted.length);
          });
        }
      }

      it('lists the set with the forbidden characters in its name, leaving out only its corrupt descriptions', async () => {
        const xml = checkOai(await request(get().port, { query: 'verb=ListSets' }));
        const all: string[] = [xml];
        let t = resumption(xml);
        while (t && t.token !== '') {
          const next = checkOai(await request(get().port, { query: `verb=ListSets&resumptionToken=${encodeURIComponent(t.token)}` }));
          all.push(next);
          t = resumption(next);
        }
        const set = /<set><setSpec>corrupt<\/setSpec>.*?<\/set>/s.exec(all.join(''))?.[0] ?? '';
        expect(set).to.contain('a fine description');
        expect(set.match(/<setDescription>/g)).to.have.length(1);
      });
    });
  });
});
