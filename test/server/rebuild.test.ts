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
import { rebuildFormats } from '../../server/rebuild';
import { forEachThrowawayDatabase, type ThrowawayDatabase } from '../helpers/db';
import { DEMO_NAMESPACE } from '../helpers/demo-records';
import { cli } from '../loader/helpers';
import { handleRequest } from '../../lib/oai';
import { renderResponse } from '../../lib/oai/render';
import { formatDatestamp } from '../../lib/oai/dates';

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
