/**
 * A record's log hash is taken by the write path, from the XML in hand, and
 * kept with the record (`records.log_hash`, migration 021): a publication
 * makes its entries from those, reading no record back; a check of the log
 * against the store (`doctor`) never trusts them, and hashes what is served.
 * A format written on demand gets the hash of the XML it is served as.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { decodeEntry, type LogEntry } from '../../lib/tlog/entry';
import { servedRecordHash } from '../../lib/tlog/verify';
import { inspectLog } from '../../server/db/log/inspect';
import { loadConfig } from '../../server/config';
import { openProvider } from '../../server/provider';
import type { ItemRecord } from '../../lib/store';
import { forEachDatabase, forEachThrowawayDatabase } from '../helpers/db';
import { DEMO_NAMESPACE } from '../helpers/demo-records';
import { jsonToItem } from '../../lib/pipeline/json-record';
import { dc, item } from '../helpers/store-fixtures';

const MARC = '<record xmlns="http://www.loc.gov/MARC21/slim"><leader>00000nam a2200000 a 4500</leader></record>';

async function latestEntry(knex: Knex, pk: number): Promise<LogEntry> {
  const [row] = (await knex('log_leaves').where('item_pk', pk).orderBy('idx', 'desc').limit(1).select('entry')) as { entry: Buffer }[];
  return decodeEntry(row?.entry as Buffer);
}

forEachDatabase((db) => {
  describe('log hashes kept with the records', function () {
    it('stores the hash of each live record as served, and none for a tombstone', async function () {
      const store = db.store();
      await store.writeItems([item('a', { metadata: { oai_dc: dc('A'), marc21: MARC } }), item('b')]);
      await store.deleteItems(['b']);
      const rows = (await db.knex()('records as r').join('items as i', 'i.pk', 'r.item_pk').select('i.internal_id', 'r.prefix', 'r.xml', 'r.log_hash')) as {
        internal_id: string;
        prefix: string;
        xml: string | null;
        log_hash: string | null;
      }[];
      const live = rows.filter((r) => r.internal_id === 'a');
      expect(live.map((r) => r.prefix).sort()).to.deep.equal(['marc21', 'oai_dc']);
      for (const r of live) expect(r.log_hash, r.prefix).to.equal(servedRecordHash(r.xml as string));
      expect(rows.filter((r) => r.internal_id === 'b').map((r) => r.log_hash)).to.deep.equal([null]);
    });

    it('makes a publication’s entry from the stored hashes, which doctor’s check of the log does not trust', async function () {
      const store = db.store();
      await store.putSets([{ spec: 's', name: 'S' }]);
      await store.writeItems([item('a', { metadata: { oai_dc: dc('A'), marc21: MARC } })]);
      const [row] = (await db.knex()('items').where('internal_id', 'a').select('pk')) as { pk: number }[];
      const pk = Number(row?.pk);
      expect((await inspectLog(db.knex())).problem).to.equal(null);
      // A hash changed behind the write path: the next publication of the item carries it, as it read no XML ...
      const planted = 'f'.repeat(64);
      await db.knex()('records').where({ item_pk: pk, prefix: 'marc21' }).update({ log_hash: planted });
      await store.setMemberships([{ internalId: 'a', sets: ['s'] }]);
      const entry = await latestEntry(db.knex(), pk);
      expect(entry.status).to.equal('changed');
      expect(entry.records.find((r) => r.prefix === 'marc21')?.hash).to.equal(planted);
      // ... and the check of the log hashes what is served, so it names the item.
      expect((await inspectLog(db.knex())).problem).to.match(
        /^oai:test\.example\.org:a disagrees with its latest entry, \d+: its marc21 record is not the one the entry hashed$/,
      );
    });

    it('hashes a row written before the column from its XML', async function () {
      const store = db.store();
      await store.putSets([{ spec: 's', name: 'S' }]);
      await store.writeItems([item('a', { metadata: { oai_dc: dc('A'), marc21: MARC } })]);
      const [row] = (await db.knex()('items').where('internal_id', 'a').select('pk')) as { pk: number }[];
      await db.knex()('records').where({ item_pk: row?.pk }).update({ log_hash: null });
      await store.setMemberships([{ internalId: 'a', sets: ['s'] }]);
      const entry = await latestEntry(db.knex(), Number(row?.pk));
      expect(entry.records.find((r) => r.prefix === 'marc21')?.hash).to.equal(servedRecordHash(MARC));
      expect((await inspectLog(db.knex())).problem).to.equal(null);
    });
  });
});

forEachThrowawayDatabase((db) => {
  it('gives a format written on demand the hash of the XML it is served as', async function () {
    const file = path.join(db().dir, 'config.yaml');
    fs.writeFileSync(file, ['formats:', '  - prefix: oai_dc', '  - prefix: mods', '  - prefix: marc21', ''].join('\n'));
    const p = await openProvider(
      loadConfig({ DATABASE_URL: db().url, LOG_LEVEL: 'silent', OAI_NAMESPACE: DEMO_NAMESPACE, OAI_CONFIG: file, OAI_WRITTEN_FORMATS: 'on-demand' }),
    );
    try {
      const items = [1, 2, 3].map((n) => {
        const made = jsonToItem(
          { id: `r${n}`, dc: { title: `Record ${n}` }, creators: [{ name: 'Doe, Jane' }], publicationYear: '2024', resourceType: { general: 'Dataset' } },
          p.formats,
          'test',
        );
        if (!('item' in made)) throw new Error(JSON.stringify(made.refusals));
        return made.item;
      });
      await p.store.writeItems(items);
      const rows = (await db().knex()('records as r').join('items as i', 'i.pk', 'r.item_pk').select('i.identifier', 'r.prefix', 'r.xml', 'r.log_hash')) as {
        identifier: string;
        prefix: string;
        xml: string | null;
        log_hash: string | null;
      }[];
      const onDemand = rows.filter((r) => r.xml === null);
      expect(onDemand.length, 'records kept without XML').to.be.greaterThan(0);
      for (const r of rows) {
        const served = ((await p.store.getRecord(r.identifier, r.prefix)) as ItemRecord | null)?.metadata;
        expect(r.log_hash, `${r.identifier} ${r.prefix}`).to.equal(servedRecordHash(served as string));
      }
    } finally {
      await p.close();
    }
  });
});
