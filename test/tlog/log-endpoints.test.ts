/**
 * The publication log as a harvester meets it: named in Identify (valid
 * against its schema), a signed checkpoint, tiles and entry bundles under
 * `<baseURL>/log/`; every served record in every format matches its
 * identifier's latest entry, its hash recomputed with libxml2's exclusive
 * C14N; and an edit made in the database behind the write path is found.
 */
import { expect } from 'chai';
import { openNote, parseCheckpoint, parseVerifierKey } from '../../lib/tlog/note';
import { decodeBundle, tileIndexPath, tilePath, tilesOf } from '../../lib/tlog/tiles';
import { historyOf } from '../../lib/tlog/verify';
import { SERVED_SCOPE } from '../../lib/xml/exc-c14n';
import { verifyLog } from '../../server/ops/log-verify';
import { forEachProvider, oaiGet, request, texts } from '../helpers/server';
import { xmllintExcC14nMany } from '../helpers/xmllint';
import crypto from 'node:crypto';

forEachProvider({ pageSize: 40 }, (get) => {
  const local = (): { baseUrl: string; logUrl: string } => ({
    baseUrl: `http://127.0.0.1:${get().port}/oai`,
    logUrl: `http://127.0.0.1:${get().port}/oai/log/`,
  });

  describe('the publication log served', function () {
    it('is named in Identify, with its URL, origin and verifier key, in a description valid against its schema', async () => {
      const xml = await oaiGet(get().port, 'verb=Identify');
      expect(texts(xml, 'url')).to.deep.equal(['http://localhost/oai/log/']);
      const [origin] = texts(xml, 'origin');
      expect(origin).to.equal('demo.oai-steward.org/log');
      expect(parseVerifierKey(texts(xml, 'verifierKey')[0] as string).name).to.equal(origin);
    });

    it('serves a checkpoint signed by the key Identify names, never cached, of every entry', async () => {
      const a = await request(get().port, { path: '/oai/log/checkpoint' });
      expect(a.status).to.equal(200);
      expect(a.headers['content-type']).to.equal('text/plain; charset=utf-8');
      expect(a.headers['cache-control']).to.equal('no-cache');
      const key = parseVerifierKey(texts(await oaiGet(get().port, 'verb=Identify'), 'verifierKey')[0] as string);
      const c = parseCheckpoint(openNote(a.body, key));
      const leaves = Number(((await get().knex('log_leaves').count('* as n')) as { n: unknown }[])[0]?.n);
      expect(c.size).to.equal(leaves).and.to.be.above(0);
    });

    it('serves partial tiles and bundles of the widths the log has had, immutable, and nothing past them', async () => {
      const size = parseCheckpoint(
        openNote(
          (await request(get().port, { path: '/oai/log/checkpoint' })).body,
          parseVerifierKey(texts(await oaiGet(get().port, 'verb=Identify'), 'verifierKey')[0] as string),
        ),
      ).size;
      const n = tileIndexPath(Math.floor(size / 256));
      const width = size % 256;
      expect(width).to.be.above(1);
      const tile = await request(get().port, { path: `/oai/log/tile/0/${n}.p/${width}` });
      expect(tile.status).to.equal(200);
      expect(tile.headers['content-type']).to.equal('application/octet-stream');
      expect(tile.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
      expect(await bytes(`/oai/log/tile/0/${n}.p/${width}`)).to.have.length(32 * width);
      expect(await bytes(`/oai/log/tile/0/${n}.p/1`)).to.have.length(32);
      expect(decodeBundle(await bytes(`/oai/log/tile/entries/${n}.p/1`))).to.have.length(1);
      const past = [
        `/oai/log/tile/0/${n}.p/${width + 1}`,
        `/oai/log/tile/0/${n}`,
        '/oai/log/tile/0/0000',
        '/oai/log/tile/2/000.p/1',
        `/oai/log/tile/entries/${n}.p/${width + 1}`,
      ];
      for (const path of past) {
        expect((await request(get().port, { path })).status, path).to.equal(404);
      }
    });

    it('matches every record served in every format, its hash recomputed by libxml2', async () => {
      const total = await size();
      const bundle: Buffer[] = [];
      for (const t of tilesOf(total).filter((x) => x.level === 0))
        bundle.push(...decodeBundle(await bytes(`/oai/log/${tilePath({ ...t, level: 'entries' })}`)));
      const history = historyOf(bundle);
      if ('problem' in history) throw new Error(history.problem);
      const formats = texts(await oaiGet(get().port, 'verb=ListMetadataFormats'), 'metadataPrefix');
      expect(formats.length).to.be.above(1);
      let checked = 0;
      for (const prefix of formats) {
        let query = `verb=ListRecords&metadataPrefix=${prefix}`;
        for (;;) {
          const xml = await oaiGet(get().port, query);
          const records = [
            ...xml.matchAll(/<record><header>[\s\S]*?<identifier>([^<]*)<\/identifier>[\s\S]*?<metadata>([\s\S]*?)<\/metadata>(?=<about>|<\/record>\n)/g),
          ];
          const canonical = xmllintExcC14nMany(
            records.map((r) => r[2] as string),
            SERVED_SCOPE,
          );
          records.forEach((r, i) => {
            const hash = crypto
              .createHash('sha256')
              .update(canonical[i] as string, 'utf8')
              .digest('hex');
            const line = history.latest
              .get((r[1] as string).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'))
              ?.entry.records.find((x) => x.prefix === prefix);
            expect(line?.hash, `${r[1]} ${prefix}`).to.equal(hash);
            checked++;
          });
          const token = /<resumptionToken[^>]*>([^<]+)</.exec(xml)?.[1];
          if (token === undefined) break;
          query = `verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
        }
      }
      expect(checked).to.be.above(formats.length);
    });

    it('passes log verify: checkpoint, tiles, entries, history and every record', async () => {
      const v = await verifyLog(local().baseUrl, { logUrl: local().logUrl });
      expect(v.problem, v.problem ?? '').to.equal(null);
      expect(v.records).to.be.above(0);
    });

    it('is found out by log verify after an edit made in the database behind the write path', async () => {
      const before = await verifyLog(local().baseUrl, { logUrl: local().logUrl, harvest: false });
      const [row] = (await get().knex('records').whereNotNull('xml').where('prefix', 'oai_dc').orderBy('item_pk').limit(1).select('item_pk', 'xml')) as {
        item_pk: number;
        xml: string;
      }[];
      await get()
        .knex('records')
        .where({ item_pk: row?.item_pk, prefix: 'oai_dc' })
        .update({ xml: (row?.xml as string).replace('</dc:title>', ' (edited)</dc:title>') });
      const after = await verifyLog(local().baseUrl, { logUrl: local().logUrl, ...(before.checkpoint && { previous: before.checkpoint }) });
      expect(after.problem).to.match(/\(oai_dc\): the metadata served is not the metadata its latest entry, \d+ hashed/);
    });
  });

  async function bytes(path: string): Promise<Buffer> {
    const res = await fetch(`http://127.0.0.1:${get().port}${path}`);
    expect(res.status, path).to.equal(200);
    return Buffer.from(await res.arrayBuffer());
  }

  async function size(): Promise<number> {
    const key = parseVerifierKey(texts(await oaiGet(get().port, 'verb=Identify'), 'verifierKey')[0] as string);
    return parseCheckpoint(openNote((await request(get().port, { path: '/oai/log/checkpoint' })).body, key)).size;
  }
});
