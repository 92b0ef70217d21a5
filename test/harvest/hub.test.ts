/**
 * A hub harvesting a second oai-steward (served in-process on 127.0.0.1,
 * seeded with the demo repository) as a well-behaved source: a full harvest
 * brings every record, tombstone and set; an incremental one sees exactly
 * the source's changes (new, changed, deleted, departed from a set); a
 * harvest killed between pages resumes and ends with the same store as an
 * uninterrupted one; the hub then serves every format XSD-valid, with the
 * provenance of each record (the real clients harvest it in test/interop/hub.test.ts).
 */
import { expect } from 'chai';
import { forEachThrowawayDatabase, openThrowawayDatabase } from '../helpers/db';
import { oaiGet, openTestProvider, request, type TestProvider } from '../helpers/server';
import { createIdPolicy } from '../../lib/ids/policy';
import { expectValidHtml } from '../helpers/html-valid';
import { HUB_NAMESPACE, harvestOnce, itemsOf, openHub, source, type Hub } from './hub';

/** The source's items as the hub should hold them: `demo:` + identifier, deleted, sets under `source:demo`. */
async function expectedFrom(src: TestProvider): Promise<{ id: string; deleted: boolean; sets: string }[]> {
  const rows = (await src.knex('items').select('identifier', 'deleted', 'direct_sets').orderBy('identifier')) as {
    identifier: string;
    deleted: unknown;
    direct_sets: string | null;
  }[];
  return rows.map((r) => ({
    id: `demo:${r.identifier}`,
    deleted: r.deleted === true || r.deleted === 1,
    sets: [
      'source:demo',
      ...(r.direct_sets ?? '')
        .split('\u001f')
        .filter((s) => s !== '')
        .map((s) => `source:demo:${s}`),
    ]
      .sort()
      .join('\u001f'),
  }));
}

async function held(hub: Hub): Promise<{ id: string; deleted: boolean; sets: string }[]> {
  return (await itemsOf(hub))
    .map((i) => ({ id: i.id, deleted: i.deleted, sets: i.sets.split('\u001f').sort().join('\u001f') }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

describe('a hub harvesting another oai-steward', function () {
  this.timeout(120_000);

  forEachThrowawayDatabase((db, kind) => {
    let src: TestProvider | undefined;
    let hub: Hub | undefined;
    afterEach(async () => {
      await hub?.close();
      await src?.close();
      hub = undefined;
      src = undefined;
    });

    it('harvests everything, then exactly the changes: new, changed, deleted, departed', async () => {
      src = await openTestProvider(kind, { pageSize: 37 });
      // The source's clocks run behind the hub's: a datestamp from the future is refused (and rightly so).
      const real = Math.floor(Date.now() / 1000);
      src.now = real - 600;
      hub = await openHub(db());
      const demo = source('demo', `http://127.0.0.1:${src.port}/oai`);
      const full = await harvestOnce(hub, demo);
      expect(full.summary.error).to.equal(undefined);
      expect(full.summary.refused).to.equal(0);
      expect(await held(hub)).to.deep.equal(await expectedFrom(src));
      const before = await itemsOf(hub);

      // Changes at the source, stamped after the first harvest's responseDate.
      src.writeNow = real - 300;
      const [changed, deleted, departed] = (await src
        .knex('items')
        .select('internal_id', 'direct_sets')
        .where({ deleted: false })
        .whereNotNull('direct_sets')
        .orderBy('pk')
        .limit(3)) as { internal_id: string; direct_sets: string }[];
      if (!changed || !deleted || !departed) throw new Error('the demo has too few records in sets');
      const fields = (await src.store.recordFields([changed.internal_id])).get(changed.internal_id);
      if (!fields) throw new Error('no model');
      await src.store.writeItems([
        {
          internalId: changed.internal_id,
          metadata: {},
          fields: { ...fields, dc: { ...fields.dc, title: ['A title changed at the source'] } },
          sets: changed.direct_sets.split('\u001f'),
        },
        { internalId: 'new at the source', metadata: {}, fields: { dc: { title: ['A new record'], type: ['Text'] } } },
      ]);
      await src.store.deleteItems([deleted.internal_id]);
      await src.store.setMemberships([{ internalId: departed.internal_id, sets: [] }]);
      src.now = real - 200;

      const incremental = await harvestOnce(hub, demo);
      expect(incremental.summary).to.include({ completed: true, inserted: 1, updated: 2, deleted: 1, refused: 0 });
      expect(await held(hub)).to.deep.equal(await expectedFrom(src));
      const after = await itemsOf(hub);
      const differ = after.filter((a) => JSON.stringify(a) !== JSON.stringify(before.find((b) => b.id === a.id))).map((a) => a.id);
      const identifierOf = async (id: string): Promise<string> =>
        `demo:${((await src?.knex('items').where({ internal_id: id }).first('identifier')) as { identifier: string }).identifier}`;
      expect(differ.sort()).to.deep.equal(
        (await Promise.all(['new at the source', changed.internal_id, deleted.internal_id, departed.internal_id].map(identifierOf))).sort(),
      );
    });

    it('keeps each prefix of a source as harvested, and a full harvest again changes nothing', async () => {
      src = await openTestProvider(kind, { pageSize: 50 });
      hub = await openHub(db());
      const two = source('demo', `http://127.0.0.1:${src.port}/oai`, { prefixes: ['oai_openaire', 'oai_dc'] });
      const first = await harvestOnce(hub, two);
      expect(first.summary).to.include({ completed: true, refused: 0 });
      const again = await harvestOnce(hub, two, { deleteMissing: true });
      expect(again.summary).to.include({ completed: true, inserted: 0, updated: 0, deleted: 0, refused: 0 });
      expect(again.summary.unchanged).to.be.above(0);
      // A record the source has in both: each served as the source serves it.
      const xmlOf = async (knex: Hub['knex'], id: string, prefix: string): Promise<string | undefined> =>
        (
          (await knex('records as r').join('items as i', 'i.pk', 'r.item_pk').where({ 'i.internal_id': id, 'r.prefix': prefix }).first('r.xml')) as
            { xml: string } | undefined
        )?.xml;
      const both = (await src
        .knex('records as r')
        .join('items as i', 'i.pk', 'r.item_pk')
        .where({ 'r.prefix': 'oai_openaire', 'i.deleted': false })
        .first('i.internal_id', 'i.identifier')) as { internal_id: string; identifier: string };
      for (const prefix of ['oai_dc', 'oai_openaire']) {
        const theirs = await xmlOf(src.knex, both.internal_id, prefix);
        expect(theirs, prefix).to.be.a('string');
        expect(await xmlOf(hub.knex, `demo:${both.identifier}`, prefix), prefix).to.equal(theirs);
      }
    });

    it('resumes a harvest killed between pages and ends with the store an uninterrupted one makes', async () => {
      src = await openTestProvider(kind, { pageSize: 23 });
      hub = await openHub(db());
      const other = await openThrowawayDatabase(kind);
      const straight = await openHub(other);
      try {
        const demo = source('demo', `http://127.0.0.1:${src.port}/oai`);
        await harvestOnce(straight, demo);
        let pages = 0;
        const killed = await harvestOnce(hub, demo, {
          betweenPages: () => {
            if (++pages === 4) throw new Error('killed');
          },
        }).catch((err: Error) => err);
        expect(killed).to.be.instanceOf(Error);
        expect((await itemsOf(hub)).length).to.equal(4 * 23);
        const resumed = await harvestOnce(hub, demo);
        expect(resumed.summary).to.include({ completed: true, resumed: 1 });
        const strip = (xs: Awaited<ReturnType<typeof itemsOf>>): string[] => xs.map((x) => JSON.stringify(x));
        expect(strip(await itemsOf(hub))).to.deep.equal(strip(await itemsOf(straight)));
      } finally {
        await straight.close();
        await other.close();
      }
    });

    it("serves the harvested records in every format, XSD-valid, with their provenance and the source's identifier", async () => {
      src = await openTestProvider(kind, { pageSize: 50 });
      const hubDb = db();
      hub = await openHub(hubDb);
      await harvestOnce(hub, source('demo', `http://127.0.0.1:${src.port}/oai`));
      await hub.close();
      hub = undefined;
      const served = await openTestProvider(kind, { database: hubDb, seed: false, pageSize: 100, env: { OAI_NAMESPACE: HUB_NAMESPACE } });
      try {
        // Every format the hub offers (a default configuration: the opt-in rioxx and qdc are not among them).
        const offered = served.ctx.formats.all().map((f) => f.prefix);
        expect(offered).to.have.length(7);
        for (const prefix of offered) {
          // oaiGet checks every answer against OAI-PMH.xsd and the format's own schema.
          const xml = await oaiGet(served.port, `verb=ListRecords&metadataPrefix=${prefix}`);
          expect(xml).to.match(/<record>/);
        }
        // The source is a set named after its repository; its sets are under it, with the names the source gives them.
        const sets = await oaiGet(served.port, 'verb=ListSets');
        expect(sets).to.match(/<setSpec>source:demo<\/setSpec>\s*<setName>Test repository<\/setName>/);
        expect(sets).to.match(/<setSpec>source:demo:history<\/setSpec>\s*<setName>History<\/setName>/);
        const page = await oaiGet(served.port, 'verb=ListRecords&metadataPrefix=oai_dc&set=source:demo');
        // The provenance names the URL the hub harvested, not the one the source's request element names (its own idea of its base URL).
        const harvested = `http://127.0.0.1:${src.port}/oai`;
        expect(page).to.include(`<baseURL>${harvested}</baseURL>`);
        expect(page).to.match(
          /<provenance [^>]*>\s*<originDescription harvestDate="[^"]+" altered="false">\s*<baseURL>[^<]+<\/baseURL>\s*<identifier>oai:demo\.oai-steward\.org:/,
        );
        expect(page).to.not.include('<baseURL>http://localhost/oai</baseURL>');
        // The source's own identifier stays findable: on the record page, and back from the hub's identifier.
        const hubId = /<identifier>(oai:hub\.example\.org:demo:oai:demo\.oai-steward\.org:[^<]+)<\/identifier>/.exec(page)?.[1] ?? '';
        const sourceId = (createIdPolicy({ namespace: HUB_NAMESPACE }).unmap(hubId) ?? '').replace(/^demo:/, '');
        expect(sourceId).to.match(/^oai:demo\.oai-steward\.org:/);
        const html = await request(served.port, {
          query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(hubId)}`,
          headers: { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
        });
        expect(html.headers['content-type']).to.match(/^text\/html/);
        await expectValidHtml(html.body, 'the record page of a harvested record');
        expect(html.body).to.include(
          `<dt>Harvested from</dt><dd><code class="harvested-id" dir="auto">${sourceId}</code> <span class="meta">at <a href="${harvested}" rel="nofollow">${harvested}</a></span></dd>`,
        );
        expect(createIdPolicy({ namespace: HUB_NAMESPACE }).map(`demo:${sourceId}`).identifier).to.equal(hubId);
      } finally {
        await served.close();
      }
    });
  });
});
