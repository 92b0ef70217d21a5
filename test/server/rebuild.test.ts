/**
 * `oai-steward rebuild-formats`: the crosswalks run again over the stored
 * record fields, and exactly the items whose output changed get a new
 * datestamp. The change here is a configuration one: oai_datacite's
 * datacentreSymbol, which only the items that have oai_datacite carry.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { jsonToItem } from '../../lib/pipeline/json-record';
import { loadConfig } from '../../server/config';
import { openProvider, seedIfEmpty, type Provider } from '../../server/provider';
import { rebuildFormats, rebuildSets } from '../../server/rebuild';
import { forEachThrowawayDatabase, type ThrowawayDatabase } from '../helpers/db';
import { DEMO_NAMESPACE } from '../helpers/demo-records';
import { cli } from '../loader/helpers';
import { handleRequest } from '../../lib/oai';
import { renderResponse } from '../../lib/oai/render';
import { formatDatestamp } from '../../lib/oai/dates';
import { createIdPolicy } from '../../lib/ids/policy';
import { HUB_NAMESPACE, harvestOnce, source } from '../harvest/hub';
import { startFakeProvider, type FakeProvider } from '../harvest/provider';

const T0 = 1_800_000_000;
const T1 = T0 + 86_400;

/** A provider on the database with every built-in format and this data centre symbol. */
async function providerWith(db: ThrowawayDatabase, symbol: string, now: number): Promise<Provider> {
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
  return openProvider(loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', OAI_NAMESPACE: DEMO_NAMESPACE, OAI_CONFIG: file }), { clock: () => now });
}

/** internal id → [datestamp, oai_datacite XML or null]. */
async function state(db: ThrowawayDatabase): Promise<Map<string, [number, string | null]>> {
  const rows = (await db
    .knex()('items as i')
    .leftJoin('records as r', function () {
      this.on('r.item_pk', '=', 'i.pk').andOn('r.prefix', '=', db.knex().raw('?', ['oai_datacite']));
    })
    .select('i.internal_id', 'i.datestamp', 'r.xml')) as { internal_id: string; datestamp: unknown; xml: string | null }[];
  return new Map(rows.map((r) => [r.internal_id, [Number(r.datestamp), r.xml]]));
}

forEachThrowawayDatabase(
  (db) => {
    it('re-stamps exactly the items whose crosswalked output changed, and a second run changes nothing', async () => {
      const first = await providerWith(db(), 'FIRST.SYMBOL', T0);
      try {
        expect(await seedIfEmpty(first)).to.equal(285);
      } finally {
        await first.close();
      }
      const before = await state(db());
      const affected = [...before].filter(([, [, xml]]) => xml !== null).map(([id]) => id);
      expect(affected.length).to.be.greaterThan(50);
      expect(affected.length).to.be.lessThan(before.size - 50);

      const second = await providerWith(db(), 'SECOND.SYMBOL', T1);
      try {
        const summary = await rebuildFormats(second.store, second.formats, { batchSize: 40, listLimit: 1000 });
        expect(summary.items).to.equal(275);
        expect([...summary.restampedIds].sort()).to.deep.equal([...affected].sort());
        expect(summary.restamped).to.equal(affected.length);
      } finally {
        await second.close();
      }
      const after = await state(db());
      for (const [id, [datestamp, xml]] of after) {
        const [was, wasXml] = before.get(id) as [number, string | null];
        if (affected.includes(id)) {
          expect(datestamp, id).to.equal(T1);
          expect(xml, id).to.contain('<datacentreSymbol>SECOND.SYMBOL</datacentreSymbol>');
        } else {
          expect(datestamp, id).to.equal(was);
          expect(xml, id).to.equal(wasXml);
        }
      }

      // The command as an operator runs it, with the same configuration: nothing left to change.
      const run = await cli(db(), ['rebuild-formats', '--json', '--config', path.join(db().dir, 'config-SECOND.SYMBOL.yaml')]);
      expect(run.code, run.stderr).to.equal(0);
      expect(JSON.parse(run.stdout)).to.deep.include({ items: 275, restamped: 0 });
      expect(await state(db())).to.deep.equal(after);
    });

    it('keeps XML a record gave for a format while re-deriving the others', async () => {
      const p = await providerWith(db(), 'ONE.SYMBOL', T0);
      const mods = '<mods xmlns="http://www.loc.gov/mods/v3" version="3.7"><titleInfo><title>Given, not crosswalked</title></titleInfo></mods>';
      try {
        const r = jsonToItem({ id: 'given-1', dc: { title: 'Crosswalked' }, metadata: { mods } }, p.formats, 'test');
        if (!('item' in r)) throw new Error(JSON.stringify(r.refusals));
        await p.store.writeItems([r.item]);
      } finally {
        await p.close();
      }
      const again = await providerWith(db(), 'TWO.SYMBOL', T1);
      try {
        expect((await rebuildFormats(again.store, again.formats)).restamped).to.equal(0);
        expect((await again.store.getRecord('oai:demo.oai-steward.org:given-1', 'mods'))?.metadata).to.equal(mods);
        expect((await again.store.getRecord('oai:demo.oai-steward.org:given-1', 'marc21'))?.metadata).to.contain('Crosswalked');
      } finally {
        await again.close();
      }
    });
  },
  { timeout: 180_000 },
);

forEachThrowawayDatabase((db) => {
  it("keeps an item's about containers when its formats are derived again, so an unchanged item keeps its datestamp", async () => {
    const rights =
      '<rights xmlns="http://www.openarchives.org/OAI/2.0/rights/"><rightsReference ref="https://creativecommons.org/licenses/by/4.0/"></rightsReference></rights>';
    const p = await providerWith(db(), 'SAME.SYMBOL', T0);
    try {
      const converted = jsonToItem({ id: 'with-about', dc: { title: ['T'] }, about: [rights] }, p.formats, 'test');
      if (!('item' in converted)) throw new Error(JSON.stringify(converted.refusals));
      await p.store.writeItems([converted.item]);
    } finally {
      await p.close();
    }
    const again = await providerWith(db(), 'SAME.SYMBOL', T1);
    try {
      const summary = await rebuildFormats(again.store, again.formats);
      expect(summary.restamped).to.equal(0);
      const record = await again.store.getRecord(`oai:${DEMO_NAMESPACE}:with-about`, 'oai_dc');
      expect(record?.about).to.deep.equal([rights]);
      expect(record?.datestamp).to.equal(T0);
    } finally {
      await again.close();
    }
  });
});

/** A provider on the database offering these formats, its clock at `now`. */
async function providerOffering(db: ThrowawayDatabase, prefixes: readonly string[], now: number): Promise<Provider> {
  const file = path.join(db.dir, `config-${prefixes.join('-')}.yaml`);
  fs.writeFileSync(file, ['formats:', ...prefixes.map((p) => `  - prefix: ${p}`), ''].join('\n'));
  return openProvider(loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', OAI_NAMESPACE: DEMO_NAMESPACE, OAI_CONFIG: file }), { clock: () => now });
}

forEachThrowawayDatabase(
  (db) => {
    it('stamps only the records a rebuild adds: an oai_dc harvest from before finds nothing, a marc21 one exactly the items that got marc21', async () => {
      const first = await providerOffering(db(), ['oai_dc'], T0);
      try {
        await seedIfEmpty(first);
      } finally {
        await first.close();
      }
      const dcBefore = (await db().knex()('records').where('prefix', 'oai_dc').select('item_pk', 'datestamp', 'xml')) as {
        item_pk: unknown;
        datestamp: unknown;
        xml: string | null;
      }[];
      const second = await providerOffering(db(), ['oai_dc', 'marc21'], T1);
      try {
        const summary = await rebuildFormats(second.store, second.formats);
        expect(summary.restamped).to.be.greaterThan(200);
        const dcAfter = (await db().knex()('records').where('prefix', 'oai_dc').select('item_pk', 'datestamp', 'xml')) as typeof dcBefore;
        const byPk = (rows: typeof dcBefore): Map<string, [number, string | null]> =>
          new Map(rows.map((r) => [String(r.item_pk), [Number(r.datestamp), r.xml]]));
        expect(byPk(dcAfter)).to.deep.equal(byPk(dcBefore));
        // The protocol's view: an incremental oai_dc harvest since before the rebuild has nothing to harvest ...
        const ctx = await second.context();
        const dc = renderResponse(
          await handleRequest(
            ctx,
            [
              ['verb', 'ListIdentifiers'],
              ['metadataPrefix', 'oai_dc'],
              ['from', formatDatestamp(T1)],
            ],
            T1 + 60,
          ),
        );
        expect(dc).to.contain('<error code="noRecordsMatch">');
        // ... and a marc21 one finds exactly the items that got marc21, each stamped with the rebuild's time.
        const gotMarc = (await db().knex()('records').where('prefix', 'marc21').select('item_pk')) as { item_pk: unknown }[];
        expect(gotMarc.length).to.be.greaterThan(200);
        const marc = await second.store.listHeaders({ metadataPrefix: 'marc21', from: T1, until: T1 + 60, limit: 10_000 });
        expect(marc.map((h) => String(h.pk)).sort()).to.deep.equal(gotMarc.map((r) => String(r.item_pk)).sort());
        expect(new Set(marc.map((h) => h.datestamp))).to.deep.equal(new Set([T1]));
        // A set's list agrees: the records of one set since before the rebuild are its marc21 records only.
        const [set] = await second.store.listSets(null, 1);
        if (set) {
          const inSet = await second.store.listHeaders({ metadataPrefix: 'oai_dc', set: set.spec, from: T1, until: T1 + 60, limit: 10_000 });
          expect(inSet).to.deep.equal([]);
          expect(
            (await second.store.listHeaders({ metadataPrefix: 'marc21', set: set.spec, from: T1, until: T1 + 60, limit: 10_000 })).length,
          ).to.be.greaterThan(0);
        }
      } finally {
        await second.close();
      }
    });
  },
  { timeout: 180_000 },
);

/** A hub on the database under this configuration (written to `name`.yaml), its clock at `now`. */
async function hubWith(db: ThrowawayDatabase, name: string, config: readonly string[], now: number): Promise<Provider> {
  const file = path.join(db.dir, `${name}.yaml`);
  fs.writeFileSync(file, [...config, ''].join('\n'));
  return openProvider(loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', OAI_NAMESPACE: HUB_NAMESPACE, OAI_SEED_DEMO: 'false', OAI_CONFIG: file }), {
    clock: () => now,
  });
}

const DC_ONLY = ['formats:', '  - prefix: oai_dc'];
const DC_AND_MARC = [...DC_ONLY, '  - prefix: marc21'];
const PHYSICS_RULE = ['sets:', '  - spec: physics', '    name: Physics', '    rule:', '      subject: { scheme: ddc, value: "53*" }'];

/** Every item as stored: its header, origin, source datestamp, provenance, and each record's datestamp and XML. */
async function hubState(db: ThrowawayDatabase): Promise<Map<string, Record<string, unknown>>> {
  const k = db.knex();
  const items = (await k('items').select('pk', 'internal_id', 'datestamp', 'deleted', 'direct_sets', 'origin', 'source_datestamp')) as {
    pk: unknown;
    internal_id: string;
    datestamp: unknown;
    deleted: unknown;
    direct_sets: string | null;
    origin: string | null;
    source_datestamp: unknown;
  }[];
  const records = (await k('records').select('item_pk', 'prefix', 'datestamp', 'xml').orderBy(['item_pk', 'prefix'])) as {
    item_pk: unknown;
    prefix: string;
    datestamp: unknown;
    xml: string | null;
  }[];
  const about = (await k('item_about').select('item_pk', 'xml').orderBy(['item_pk', 'position'])) as { item_pk: unknown; xml: string }[];
  return new Map(
    items.map((i) => [
      i.internal_id,
      {
        datestamp: Number(i.datestamp),
        deleted: i.deleted === true || i.deleted === 1,
        sets: i.direct_sets ?? '',
        origin: i.origin,
        sourceDatestamp: i.source_datestamp === null ? null : Number(i.source_datestamp),
        records: Object.fromEntries(records.filter((r) => String(r.item_pk) === String(i.pk)).map((r) => [r.prefix, [Number(r.datestamp), r.xml]])),
        about: about.filter((a) => String(a.item_pk) === String(i.pk)).map((a) => a.xml),
      },
    ]),
  );
}

const P1 = 'plain:oai:bad.example.org:p1';
const P2 = 'plain:oai:bad.example.org:p2';
const P3 = 'plain:oai:bad.example.org:p3';
const P4 = 'plain:oai:bad.example.org:p4';

describe('rebuilds reach harvested items', function () {
  this.timeout(180_000);

  forEachThrowawayDatabase((db) => {
    let src: FakeProvider | undefined;
    afterEach(async () => {
      await src?.close();
      src = undefined;
    });

    /**
     * A hub offering oai_dc at T0: items harvested from the source `plain` by the harvester (in its id
     * space, with their origin, source datestamp and provenance; three live, one deleted), their oai_dc
     * carrying DDC subjects a rule can take some in by, beside two local items.
     */
    async function hub(): Promise<void> {
      src = await startFakeProvider({ granularity: 'second', pageSize: 10 });
      src.records.push(
        { id: 'p1', datestamp: '2020-01-01T00:00:00Z', title: 'Harvested physics', subjects: ['ddc:530'] },
        { id: 'p2', datestamp: '2020-01-02T00:00:00Z', title: 'Harvested computing', subjects: ['ddc:004'] },
        { id: 'p3', datestamp: '2020-01-03T00:00:00Z', title: 'Harvested optics', subjects: ['ddc:535'] },
        { id: 'p4', datestamp: '2020-01-04T00:00:00Z', title: 'Withdrawn', deleted: true },
      );
      const h = await hubWith(db(), 'before', DC_ONLY, T0);
      try {
        const { summary, refusals } = await harvestOnce(h, source('plain', src.baseUrl));
        expect(refusals).to.deep.equal([]);
        expect([summary.inserted, summary.deleted]).to.deep.equal([3, 1]);
        for (const json of [
          { id: 'local-1', dc: { title: ['Local computing'], subject: ['ddc:004'] } },
          { id: 'local-2', dc: { title: ['Local history'], subject: ['ddc:900'] } },
        ]) {
          const r = jsonToItem(json, h.formats, 'test');
          if (!('item' in r)) throw new Error(JSON.stringify(r.refusals));
          await h.store.writeItems([r.item]);
        }
      } finally {
        await h.close();
      }
    }

    it('puts harvested items into a set rule added to the configuration, re-stamping only those, and a second run changes nothing', async () => {
      await hub();
      const before = await hubState(db());
      expect(before.get(P1)).to.deep.include({ origin: 'plain', sourceDatestamp: Date.UTC(2020, 0, 1) / 1000, datestamp: T0 });
      expect((before.get(P1)?.about as string[])[0]).to.contain('<originDescription');

      const after = await hubWith(db(), 'after', [...DC_ONLY, ...PHYSICS_RULE], T1);
      try {
        const summary = await rebuildSets(after.store, after.formats);
        expect(summary.items).to.equal(5);
        expect([...summary.restampedIds].sort()).to.deep.equal([P1, P3]);
      } finally {
        await after.close();
      }
      const rebuilt = await hubState(db());
      for (const [id, was] of before) {
        const now = rebuilt.get(id) as Record<string, unknown>;
        // Where it came from never moves: origin, source datestamp, provenance, the oai_dc it gave as harvested.
        expect([now.origin, now.sourceDatestamp, now.about, now.deleted], id).to.deep.equal([was.origin, was.sourceDatestamp, was.about, was.deleted]);
        if (id === P1 || id === P3) {
          expect(now.datestamp, id).to.equal(T1);
          expect((now.sets as string).split('\u001f').sort(), id).to.deep.equal([...(was.sets as string).split('\u001f'), 'physics'].sort());
          expect((now.records as Record<string, [number, string]>).oai_dc?.[1], id).to.equal((was.records as Record<string, [number, string]>).oai_dc?.[1]);
        } else {
          expect(now, id).to.deep.equal(was);
        }
      }

      const run = await cli(db(), ['rebuild-sets', '--json', '--config', path.join(db().dir, 'after.yaml')], {
        env: { OAI_NAMESPACE: HUB_NAMESPACE, OAI_SEED_DEMO: 'false' },
      });
      expect(run.code, run.stderr).to.equal(0);
      expect(JSON.parse(run.stdout)).to.deep.include({ items: 5, restamped: 0 });
      expect(await hubState(db())).to.deep.equal(rebuilt);
    });

    it('writes a format added to the configuration for harvested items, stamping only the records it adds, and a second run changes nothing', async () => {
      await hub();
      const before = await hubState(db());

      const after = await hubWith(db(), 'after', DC_AND_MARC, T1);
      try {
        const summary = await rebuildFormats(after.store, after.formats);
        expect([...summary.restampedIds].sort()).to.deep.equal([P1, P2, P3, 'local-1', 'local-2'].sort());
        expect((await after.store.getRecord(createIdPolicy({ namespace: HUB_NAMESPACE }).map(P1).identifier, 'marc21'))?.metadata).to.contain(
          'Harvested physics',
        );
      } finally {
        await after.close();
      }
      const rebuilt = await hubState(db());
      for (const [id, was] of before) {
        const now = rebuilt.get(id) as Record<string, unknown>;
        if (was.deleted === true) {
          // A tombstone is left as it is.
          expect(now, id).to.deep.equal(was);
          continue;
        }
        expect([now.origin, now.sourceDatestamp, now.about, now.sets], id).to.deep.equal([was.origin, was.sourceDatestamp, was.about, was.sets]);
        const records = now.records as Record<string, [number, string]>;
        // The oai_dc record, given as harvested or written, keeps its bytes and its datestamp; marc21 is new.
        expect(records.oai_dc, id).to.deep.equal((was.records as Record<string, unknown>).oai_dc);
        expect(records.marc21?.[0], id).to.equal(T1);
        expect(now.datestamp, id).to.equal(T1);
      }
      expect(rebuilt.get(P4)?.origin).to.equal('plain');

      const run = await cli(db(), ['rebuild-formats', '--json', '--config', path.join(db().dir, 'after.yaml')], {
        env: { OAI_NAMESPACE: HUB_NAMESPACE, OAI_SEED_DEMO: 'false' },
      });
      expect(run.code, run.stderr).to.equal(0);
      expect(JSON.parse(run.stdout)).to.deep.include({ items: 5, restamped: 0 });
      expect(await hubState(db())).to.deep.equal(rebuilt);
    });
  });
});
