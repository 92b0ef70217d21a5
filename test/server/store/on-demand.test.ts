/**
 * `writtenFormats: on-demand` (server/store/on-demand.ts): a store that keeps
 * models and given XML, and writes the other formats when asked, serves
 * exactly what a store that keeps every format serves, with the same content
 * hashes and datestamps; and it serves nothing under another formats
 * configuration until `rebuild-formats` has re-stamped what changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../../server/config';
import type { Knex } from 'knex';
import { openProvider, seedIfEmpty, type Provider } from '../../../server/provider';
import { rebuildFormats } from '../../../server/rebuild';
import { writeDump } from '../../../server/dump/write';
import { startServer } from '../../../server/serve';
import { WrittenFormatsChanged } from '../../../server/store/on-demand';
import type { ItemRecord } from '../../../lib/store';
import { jsonToItem } from '../../../lib/pipeline/json-record';
import { forEachThrowawayDatabase, openThrowawayDatabase, type ThrowawayDatabase } from '../../helpers/db';
import { DEMO_NAMESPACE } from '../../helpers/demo-records';

const T0 = 1_800_000_000;
const T1 = T0 + 86_400;
const PREFIXES = ['oai_dc', 'oai_openaire', 'datacite', 'oai_datacite', 'marc21', 'mods'];

/** A provider with every built-in format, this data centre symbol and this way of keeping written formats. */
/** A provider, and a knex of its throwaway database for the tests to look into its tables. */
type Opened = Provider & { readonly knex: Knex };

async function providerWith(
  db: ThrowawayDatabase,
  symbol: string,
  mode: 'stored' | 'on-demand',
  now: number,
  storedFormats?: readonly string[],
): Promise<Opened> {
  const file = configFile(db, symbol);
  const env = {
    DATABASE_URL: db.url,
    LOG_LEVEL: 'silent',
    OAI_NAMESPACE: DEMO_NAMESPACE,
    OAI_CONFIG: file,
    OAI_WRITTEN_FORMATS: mode,
    ...(storedFormats && { OAI_STORED_FORMATS: storedFormats.join(',') }),
  };
  return Object.assign(await openProvider(loadConfig(env), { clock: () => now }), { knex: db.knex() });
}

function configFile(db: ThrowawayDatabase, symbol: string): string {
  const file = path.join(db.dir, `config-${symbol}.yaml`);
  fs.writeFileSync(
    file,
    [
      'formats:',
      '  - prefix: oai_dc',
      '  - prefix: oai_openaire',
      '  - prefix: datacite',
      '  - prefix: oai_datacite',
      '    options:',
      `      datacentreSymbol: ${symbol}`,
      '  - prefix: marc21',
      '  - prefix: mods',
      '',
    ].join('\n'),
  );
  return file;
}

/** Every record of a format, page by page, as the store reads them for ListRecords. */
async function harvest(p: Provider, prefix: string): Promise<ItemRecord[]> {
  const out: ItemRecord[] = [];
  for (let after: { datestamp: number; pk: number } | undefined; ;) {
    const page = await p.store.listRecords({ metadataPrefix: prefix, until: T1 + 10, limit: 37, ...(after && { after }) });
    out.push(...page);
    const last = page[page.length - 1];
    if (!last || page.length < 37) return out;
    after = { datestamp: last.datestamp, pk: last.pk };
  }
}

/** Everything a harvester, a ResourceSync destination, a dump or a check can read of the store, and its hashes. */
async function everything(p: Opened): Promise<unknown> {
  const lists: Record<string, unknown> = {};
  const sync: Record<string, unknown> = {};
  for (const prefix of PREFIXES) {
    lists[prefix] = (await harvest(p, prefix)).map((r) => [r.identifier, r.datestamp, r.deleted, r.metadata]);
    sync[prefix] = (await p.store.syncResources({ metadataPrefix: prefix }, { afterPk: 0, throughPk: 1e9, limit: 10_000, withXml: true })).map((r) => [
      r.identifier,
      r.contentHash,
      r.xml,
    ]);
  }
  const scanned = (await p.store.scanItems(0, 10_000)).map((s) => [s.internalId, s.datestamp, s.metadata]);
  const hashes = await p.knex('items').select('internal_id', 'datestamp', 'content_hash').orderBy('pk');
  return { lists, sync, scanned, hashes };
}

async function liveRowsWithoutXml(p: Opened): Promise<number> {
  const [row] = (await p.knex('records as r').join('items as i', 'i.pk', 'r.item_pk').where('i.deleted', false).whereNull('r.xml').count({ n: '*' })) as {
    n: unknown;
  }[];
  return Number(row?.n);
}

forEachThrowawayDatabase(
  (db, kind) => {
    it('serves byte for byte what a store keeping every format serves, with the same hashes, and keeps only models and given XML', async () => {
      const other = await openThrowawayDatabase(kind);
      const onDemand = await providerWith(db(), 'A.B', 'on-demand', T0);
      const stored = await providerWith(other, 'A.B', 'stored', T0);
      try {
        expect(await seedIfEmpty(onDemand)).to.equal(285);
        expect(await seedIfEmpty(stored)).to.equal(285);
        // A record giving one format as XML (kept as given, the others written from its model), and one
        // giving only DataCite XML (its model lifted from it, oai_dc filled from the lifted typed fields).
        const mods = '<mods xmlns="http://www.loc.gov/mods/v3" version="3.7"><titleInfo><title>Given, not crosswalked</title></titleInfo></mods>';
        const datacite = fs
          .readFileSync(path.join(__dirname, '../../fixtures/readers/datacite/datacite_journal_article.xml'), 'utf8')
          .replace(/^<\?xml[^>]*>\s*/, '');
        for (const p of [onDemand, stored]) {
          const given = jsonToItem({ id: 'given-1', dc: { title: 'Crosswalked' }, metadata: { mods } }, p.formats, 'test');
          if (!('item' in given)) throw new Error(JSON.stringify(given.refusals));
          const items = [given.item, { internalId: 'lifted-1', metadata: { datacite } }];
          await p.store.writeItems(items);
        }
        expect((await onDemand.knex('record_fields').whereNotNull('lifted_from').count({ n: '*' }))[0]).to.deep.equal({ n: kind === 'postgres' ? '1' : 1 });
        expect(await liveRowsWithoutXml(stored)).to.equal(0);
        // Every format the pipeline wrote but oai_dc (which every harvester asks for) is a row without XML; what a record gave is kept.
        const written = (await onDemand.knex('record_fields').select('derived')).reduce(
          (n: number, r: { derived: string }) => n + (JSON.parse(r.derived) as string[]).filter((p) => p !== 'oai_dc').length,
          0,
        );
        expect(written).to.be.greaterThan(1000);
        expect(await liveRowsWithoutXml(onDemand)).to.equal(written);
        const dcWithout = await onDemand
          .knex('records as r')
          .join('items as i', 'i.pk', 'r.item_pk')
          .where({ 'i.deleted': false, 'r.prefix': 'oai_dc' })
          .whereNull('r.xml')
          .count({ n: '*' });
        expect(Number((dcWithout[0] as { n: unknown }).n)).to.equal(0);
        const given = (await onDemand
          .knex('records as r')
          .join('items as i', 'i.pk', 'r.item_pk')
          .where('i.deleted', false)
          .whereNotNull('r.xml')
          .count({ n: '*' })) as { n: unknown }[];
        expect(Number(given[0]?.n)).to.be.greaterThan(0);

        expect(await everything(onDemand)).to.deep.equal(await everything(stored));
        // What a rebuild scans: only what each record gave, in either store; the formats the pipeline wrote are left out.
        const givenScan = async (p: Opened): Promise<Map<string, unknown>> =>
          new Map((await p.store.scanItems(0, 10_000, { givenOnly: true })).map((s) => [s.internalId, s.metadata]));
        const givenOnDemand = await givenScan(onDemand);
        expect(givenOnDemand).to.deep.equal(await givenScan(stored));
        expect(givenOnDemand.get('given-1')).to.deep.equal({ mods });
        expect(givenOnDemand.get('lifted-1')).to.deep.equal({ datacite });
        for (const s of await stored.store.scanItems(0, 10_000)) {
          expect(Object.keys(givenOnDemand.get(s.internalId) as object).sort(), s.internalId).to.deep.equal(
            Object.keys(s.metadata)
              .filter((p) => !(s.written ?? []).includes(p))
              .sort(),
          );
        }
        const id = ((await onDemand.store.listHeaders({ metadataPrefix: 'mods', until: T1, limit: 1 }))[0] as ItemRecord).identifier;
        for (const prefix of PREFIXES) {
          const { written, ...record } = (await onDemand.store.getRecord(id, prefix)) as ItemRecord;
          expect(record, `${id} ${prefix}`).to.deep.equal(await stored.store.getRecord(id, prefix));
          // Written here by a writer, so the renderer need not check it as it checks stored bytes; oai_dc (and a given mods) is stored.
          expect(written, `${id} ${prefix}`).to.equal(prefix === 'oai_dc' || (prefix === 'mods' && id.endsWith('given-1')) ? undefined : true);
        }

        // A membership change recomputes the hash from the formats as written; a deletion leaves a tombstone in every format.
        const some = (await onDemand.knex('record_fields as f').join('items as i', 'i.pk', 'f.item_pk').select('i.internal_id').orderBy('i.pk').limit(3)) as {
          internal_id: string;
        }[];
        const [moved, gone] = some.map((r) => r.internal_id) as [string, string];
        await onDemand.store.putSets([{ spec: 'extra', name: 'Extra' }]);
        await stored.store.putSets([{ spec: 'extra', name: 'Extra' }]);
        for (const p of [onDemand, stored]) {
          expect((await p.store.setMemberships([{ internalId: moved, sets: ['extra'] }]))[0]?.outcome).to.equal('updated');
          expect((await p.store.deleteItems([gone]))[0]?.outcome).to.equal('deleted');
        }
        expect(await everything(onDemand)).to.deep.equal(await everything(stored));
        const tomb = (await harvest(onDemand, 'marc21')).find((r) => r.internalId === gone);
        expect(tomb).to.include({ deleted: true, metadata: null });
      } finally {
        await onDemand.close();
        await stored.close();
        await other.close();
      }
    });

    it('stores exactly the written formats storedFormats names, none when it is empty, and serves the same either way', async () => {
      const other = await openThrowawayDatabase(kind);
      const stored = await providerWith(other, 'A.B', 'stored', T0);
      try {
        await seedIfEmpty(stored);
        const reference = await everything(stored);
        for (const kept of [[], ['marc21', 'mods']]) {
          const fresh = await openThrowawayDatabase(kind);
          const p = await providerWith(fresh, 'A.B', 'on-demand', T0, kept);
          try {
            await seedIfEmpty(p);
            const rows = (await p
              .knex('records as r')
              .join('items as i', 'i.pk', 'r.item_pk')
              .join('record_fields as f', 'f.item_pk', 'i.pk')
              .where('i.deleted', false)
              .select('r.prefix', 'r.xml', 'f.derived')) as { prefix: string; xml: string | null; derived: string }[];
            expect(rows.length).to.be.greaterThan(1000);
            for (const r of rows) {
              const leftToWrite = (JSON.parse(r.derived) as string[]).includes(r.prefix) && !kept.includes(r.prefix);
              expect(r.xml === null, `${r.prefix} kept ${kept.join(',')}`).to.equal(leftToWrite);
            }
            expect(await everything(p), `kept ${kept.join(',')}`).to.deep.equal(reference);
          } finally {
            await p.close();
            await fresh.close();
          }
        }
      } finally {
        await stored.close();
        await other.close();
      }
    });

    it('refuses to serve, load or dump under another formats configuration until rebuild-formats re-stamps what changed', async () => {
      const first = await providerWith(db(), 'FIRST.SYMBOL', 'on-demand', T0);
      let id: string;
      try {
        expect(await seedIfEmpty(first)).to.equal(285);
        await first.store.checkWrittenFormats();
        id = ((await first.store.listHeaders({ metadataPrefix: 'oai_datacite', until: T1, limit: 1 }))[0] as ItemRecord).identifier;
        expect((await first.store.getRecord(id, 'oai_datacite'))?.metadata).to.contain('<datacentreSymbol>FIRST.SYMBOL</datacentreSymbol>');
      } finally {
        await first.close();
      }
      const before = new Map(
        ((await db().knex()('items').select('internal_id', 'datestamp')) as { internal_id: string; datestamp: unknown }[]).map((r) => [
          r.internal_id,
          Number(r.datestamp),
        ]),
      );

      const second = await providerWith(db(), 'SECOND.SYMBOL', 'on-demand', T1);
      try {
        await expectChanged(second.store.checkWrittenFormats());
        await expectChanged(second.store.getRecord(id, 'oai_datacite'));
        // oai_dc is stored as written under the configuration its hash stands for, so it is still served.
        expect((await second.store.getRecord(id, 'oai_dc'))?.metadata).to.match(/^<oai_dc:dc /);
        await expectChanged(second.store.getRecord(id, 'marc21'));
        await expectChanged(second.store.listRecords({ metadataPrefix: 'mods', until: T1, limit: 10 }));
        await expectChanged(second.store.scanItems(0, 50));
        // A scan of what the records gave writes nothing, so it reads under any configuration: what rebuild-formats walks.
        expect(await second.store.scanItems(0, 50, { givenOnly: true })).to.have.length(50);
        await expectChanged(second.store.writeItems([{ internalId: 'late arrival', metadata: {}, fields: { dc: { title: ['Late'] } } }]));
        await expectChanged(writeDump(second.store, { dir: path.join(db().dir, 'dumps'), baseURL: 'http://127.0.0.1/oai', prefixes: ['mods'], now: () => T1 }));
        // Headers need no format written.
        expect(await second.store.listHeaders({ metadataPrefix: 'mods', until: T1, limit: 10 })).to.have.length(10);
      } finally {
        await second.close();
      }
      const config = loadConfig({
        DATABASE_URL: db().url,
        LOG_LEVEL: 'silent',
        OAI_NAMESPACE: DEMO_NAMESPACE,
        OAI_CONFIG: configFile(db(), 'SECOND.SYMBOL'),
        OAI_WRITTEN_FORMATS: 'on-demand',
        PORT: '0',
        HOST: '127.0.0.1',
        OAI_SEED_DEMO: 'false',
      });
      let refused: unknown;
      try {
        const running = await startServer(config);
        await running.stop();
      } catch (err) {
        refused = err;
      }
      expect(refused).to.be.instanceOf(WrittenFormatsChanged);
      expect((refused as Error).message).to.contain('oai-steward rebuild-formats');

      const rebuilt = await providerWith(db(), 'SECOND.SYMBOL', 'on-demand', T1);
      try {
        const summary = await rebuildFormats(rebuilt.store, rebuilt.formats, { listLimit: 1000 });
        await rebuilt.store.checkWrittenFormats();
        expect((await rebuilt.store.getRecord(id, 'oai_datacite'))?.metadata).to.contain('<datacentreSymbol>SECOND.SYMBOL</datacentreSymbol>');
        const after = (await rebuilt.knex('items').select('internal_id', 'datestamp')) as { internal_id: string; datestamp: unknown }[];
        const restamped = after.filter((r) => Number(r.datestamp) !== before.get(r.internal_id)).map((r) => r.internal_id);
        expect(restamped.sort()).to.deep.equal([...summary.restampedIds].sort());
        expect(restamped.length).to.be.greaterThan(50);
        expect(restamped.length).to.be.lessThan(before.size - 50);
        // What it now serves is what a store written under this configuration from the start serves.
        const fresh = await openThrowawayDatabase(kind);
        const reference = await providerWith(fresh, 'SECOND.SYMBOL', 'stored', T0);
        try {
          await seedIfEmpty(reference);
          for (const prefix of PREFIXES) {
            const byId = (list: ItemRecord[]): unknown[] =>
              list.map((r) => [r.identifier, r.metadata]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
            expect(byId(await harvest(rebuilt, prefix)), prefix).to.deep.equal(byId(await harvest(reference, prefix)));
          }
        } finally {
          await reference.close();
          await fresh.close();
        }
      } finally {
        await rebuilt.close();
      }
    });
  },
  { timeout: 60_000 },
);

async function expectChanged(p: Promise<unknown>): Promise<void> {
  let thrown: unknown;
  try {
    await p;
  } catch (err) {
    thrown = err;
  }
  expect(thrown).to.be.instanceOf(WrittenFormatsChanged);
}
