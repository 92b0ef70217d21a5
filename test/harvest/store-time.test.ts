/**
 * A hub's datestamps are the hub's time (OAI-PMH 2.0 sections 2.7.1 and
 * 4.6): a downstream harvester asking `from` the time before the hub took in
 * a source finds every record of it, the source's datestamp stays in the
 * provenance, and harvesting a second metadataPrefix of a source keeps the
 * first as it was harvested.
 */
import { expect } from 'chai';
import { forEachThrowawayDatabase } from '../helpers/db';
import { oaiGet, openTestProvider, texts, unescapeXml, type TestProvider } from '../helpers/server';
import { formatDatestamp } from '../../lib/oai/dates';
import { HUB_NAMESPACE, harvestOnce, openHub, source, type Hub } from './hub';

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** The hub's records of one format: item pk → XML (null for a tombstone). */
async function recordsOf(hub: Hub, prefix: string): Promise<Map<number, string | null>> {
  const rows = (await hub.knex('records').where('prefix', prefix).select('item_pk', 'xml')) as { item_pk: unknown; xml: string | null }[];
  return new Map(rows.map((r) => [Number(r.item_pk), r.xml]));
}

/** The hub's record datestamps of one format: item pk → seconds. */
async function datestampsOf(hub: Hub, prefix: string): Promise<Map<number, number>> {
  const rows = (await hub.knex('records').where('prefix', prefix).select('item_pk', 'datestamp')) as { item_pk: unknown; datestamp: unknown }[];
  return new Map(rows.map((r) => [Number(r.item_pk), Number(r.datestamp)]));
}

describe("a hub's datestamps are its own time", function () {
  this.timeout(180_000);

  forEachThrowawayDatabase((db, kind) => {
    let src: TestProvider | undefined;
    let hub: Hub | undefined;
    afterEach(async () => {
      await hub?.close();
      await src?.close();
      hub = undefined;
      src = undefined;
    });

    it("publishes what it harvested with the time it harvested it, the source's datestamp in the provenance", async () => {
      src = await openTestProvider(kind, { pageSize: 50 });
      src.now = nowSeconds() - 600;
      const sourceStamps = (await src.knex('items').select('identifier', 'datestamp')) as { identifier: string; datestamp: unknown }[];
      const oldest = Math.min(...sourceStamps.map((r) => Number(r.datestamp)));
      hub = await openHub(db());
      const before = nowSeconds();
      const { summary } = await harvestOnce(hub, source('demo', `http://127.0.0.1:${src.port}/oai`));
      expect(summary.inserted + summary.deleted).to.equal(sourceStamps.length);
      // The source's records are older than the harvest (the demo repository has years of history) ...
      expect(oldest).to.be.below(before - 86_400);
      // ... and the hub publishes every one of them with its own time.
      const stamps = (await hub.knex('items').select('datestamp')) as { datestamp: unknown }[];
      for (const s of stamps) expect(Number(s.datestamp)).to.be.at.least(before);
      const served = await openTestProvider(kind, { database: db(), seed: false, pageSize: 1000, env: { OAI_NAMESPACE: HUB_NAMESPACE } });
      try {
        const page = await oaiGet(served.port, `verb=ListRecords&metadataPrefix=oai_dc&from=${formatDatestamp(before)}`);
        expect(texts(page, 'identifier').filter((i) => i.startsWith(`oai:${HUB_NAMESPACE}:`))).to.have.length(sourceStamps.length);
        // Each live record's provenance names the datestamp its source published.
        const byIdentifier = new Map(sourceStamps.map((r) => [r.identifier, formatDatestamp(Number(r.datestamp))]));
        const origins = [
          ...page.matchAll(/<originDescription[^>]*>\s*<baseURL>[^<]*<\/baseURL>\s*<identifier>([^<]*)<\/identifier>\s*<datestamp>([^<]*)<\/datestamp>/g),
        ];
        expect(origins.length).to.be.greaterThan(0);
        for (const [, identifier, datestamp] of origins) expect(datestamp, identifier).to.equal(byIdentifier.get(unescapeXml(identifier as string)));
      } finally {
        await served.close();
      }
    });

    it("keeps the harvested oai_dc byte for byte when it harvests the source's MODS too", async () => {
      src = await openTestProvider(kind, { pageSize: 50 });
      src.now = nowSeconds() - 600;
      hub = await openHub(db());
      const url = `http://127.0.0.1:${src.port}/oai`;
      await harvestOnce(hub, source('demo', url));
      const dcBefore = await recordsOf(hub, 'oai_dc');
      const dcStamps = await datestampsOf(hub, 'oai_dc');
      // The hub's clock moves on before the second list, so a record it stamped again would show.
      const harvested = Math.max(...dcStamps.values());
      while (nowSeconds() <= harvested) await new Promise((r) => setTimeout(r, 50));
      const { summary } = await harvestOnce(hub, source('demo', url, { prefixes: ['oai_dc', 'mods'] }));
      expect(summary.refused).to.equal(0);
      expect(await recordsOf(hub, 'oai_dc')).to.deep.equal(dcBefore);
      // The oai_dc records did not change, so a harvester of the hub's oai_dc has nothing new to harvest.
      expect(await datestampsOf(hub, 'oai_dc')).to.deep.equal(dcStamps);
      // The MODS records of live items are new, and stamped with the second list's time (a tombstone has
      // been listed under every format since it was harvested, and keeps its datestamp).
      const modsXml = await recordsOf(hub, 'mods');
      const modsStamps = [...(await datestampsOf(hub, 'mods'))].filter(([pk]) => modsXml.get(pk) !== null).map(([, d]) => d);
      expect(Math.min(...modsStamps)).to.be.above(harvested);
      // Every live item now holds the MODS its source gave, as given.
      const mods = await recordsOf(hub, 'mods');
      const sourceMods = (await src.knex('records').where('prefix', 'mods').whereNotNull('xml').count({ n: '*' })) as { n: unknown }[];
      expect([...mods.values()].filter((x) => x !== null)).to.have.length(Number(sourceMods[0]?.n));
      const given = (await hub.knex('record_fields').select('derived', 'lifted_from')) as { derived: string; lifted_from: string | null }[];
      for (const g of given) {
        expect(JSON.parse(g.derived)).to.not.include('oai_dc');
        expect(JSON.parse(g.derived)).to.not.include('mods');
      }
    });
  });
});
