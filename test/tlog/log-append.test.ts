/**
 * The publication log as the write path appends it: one entry per item a
 * publication published, in the same transaction, in identifier order within
 * a publication, nothing for what did not change; and the entries an upgrade
 * gives a store that had no log.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { formatDatestamp } from '../../lib/oai/dates';
import { decodeEntry, type LogEntry } from '../../lib/tlog/entry';
import { leafHash, rootOf } from '../../lib/tlog/merkle';
import { tilesOf } from '../../lib/tlog/tiles';
import { servedRecordHash } from '../../lib/tlog/verify';
import { readHead, readTile } from '../../server/db/log/tables';
import * as publicationLog from '../../server/db/migrations/019_publication_log';
import { migrate } from '../../server/db/migrations';
import { forEachDatabase, TEST_NAMESPACE } from '../helpers/db';
import { dc, item, ManualClock } from '../helpers/store-fixtures';

const T0 = 1_700_000_000;
const id = (internalId: string): string => `oai:${TEST_NAMESPACE}:${internalId}`;
const MARC = '<record xmlns="http://www.loc.gov/MARC21/slim"><leader>00000nam a2200000 a 4500</leader></record>';

/** Every leaf of the log, in order: its item and entry. */
async function leaves(knex: Knex): Promise<{ pk: number; bytes: Buffer; entry: LogEntry }[]> {
  const rows = (await knex('log_leaves').select('idx', 'item_pk', 'entry').orderBy('idx')) as { idx: unknown; item_pk: unknown; entry: Buffer }[];
  rows.forEach((r, i) => expect(Number(r.idx)).to.equal(i));
  return rows.map((r) => ({ pk: Number(r.item_pk), bytes: Buffer.from(r.entry), entry: decodeEntry(r.entry) }));
}

/** The log's head agrees with its leaves, and its tiles are exactly the tree's, each holding the leaves' hashes. */
async function expectConsistent(knex: Knex): Promise<void> {
  const all = await leaves(knex);
  const hashes = all.map((l) => leafHash(l.bytes));
  const head = await readHead(knex);
  expect(head.size).to.equal(all.length);
  expect(head.root.equals(rootOf(hashes))).to.equal(true);
  const stored = (await knex('log_tiles').select('level', 'n')) as { level: unknown; n: unknown }[];
  expect(stored.map((t) => `${Number(t.level)}/${Number(t.n)}`).sort()).to.deep.equal(
    tilesOf(all.length)
      .map((t) => `${t.level}/${t.n}`)
      .sort(),
  );
  const level0 = Buffer.concat(
    await Promise.all(
      tilesOf(all.length)
        .filter((t) => t.level === 0)
        .map(async (t) => (await readTile(knex, 0, t.n)) as Buffer),
    ),
  );
  expect(level0.equals(Buffer.concat(hashes))).to.equal(true);
}

const summary = (l: { entry: LogEntry }): string => `${l.entry.status} ${l.entry.identifier}`;

forEachDatabase((db) => {
  describe('the publication log appended by the write path', function () {
    it('appends exactly the new, changed and deleted items of each publication, none of the unchanged', async function () {
      const clock = new ManualClock(T0);
      const store = db.store({ clock: clock.read });
      await store.putSets([
        { spec: 's', name: 'S' },
        { spec: 't', name: 'T' },
      ]);
      await store.writeItems([item('c', { sets: ['t', 's'] }), item('a'), item('b', { metadata: { oai_dc: dc('B'), marc21: MARC } })]);
      const first = await leaves(db.knex());
      expect(first.map(summary)).to.deep.equal([`new ${id('a')}`, `new ${id('b')}`, `new ${id('c')}`]);
      expect(first[2]?.entry.sets).to.deep.equal(['s', 't']);
      expect(first[1]?.entry.records.map((r) => r.prefix)).to.deep.equal(['marc21', 'oai_dc']);
      expect(first[1]?.entry.records[0]?.hash).to.equal(servedRecordHash(MARC));
      expect(first[0]?.entry.datestamp).to.equal(formatDatestamp(T0));

      clock.tick(60);
      await store.writeItems([item('c', { sets: ['t', 's'] }), item('a'), item('b', { metadata: { oai_dc: dc('B'), marc21: MARC } })]);
      expect(await leaves(db.knex()), 'an unchanged reload').to.have.length(3);

      clock.tick(60);
      await store.writeItems([item('a'), item('b', { metadata: { oai_dc: dc('B2'), marc21: MARC } })]);
      await store.deleteItems(['c']);
      await store.setMemberships([{ internalId: 'a', sets: ['s'] }]);
      const after = await leaves(db.knex());
      expect(after.slice(3).map(summary)).to.deep.equal([`changed ${id('b')}`, `deleted ${id('c')}`, `changed ${id('a')}`]);
      const changedB = after[3]?.entry;
      expect(changedB?.datestamp).to.equal(formatDatestamp(T0 + 120));
      // The marc21 record did not change: it keeps its datestamp, the entry says so.
      expect(changedB?.records.map((r) => `${r.prefix} ${r.datestamp}`)).to.deep.equal([
        `marc21 ${formatDatestamp(T0)}`,
        `oai_dc ${formatDatestamp(T0 + 120)}`,
      ]);
      expect(after[4]?.entry.records).to.deep.equal([]);
      expect(after[5]?.entry.sets).to.deep.equal(['s']);

      clock.tick(60);
      await store.writeItems([item('c')]);
      expect((await leaves(db.knex())).slice(6).map(summary)).to.deep.equal([`changed ${id('c')}`]);
      await expectConsistent(db.knex());
    });

    it('appends nothing when a write is rolled back', async function () {
      const store = db.store();
      await store.writeItems([item('a')]);
      await store
        .transaction(async (tx) => {
          await tx.writeItems([item('b')]);
          throw new Error('stop');
        })
        .catch(() => undefined);
      expect((await leaves(db.knex())).map(summary)).to.deep.equal([`new ${id('a')}`]);
    });

    it('gives a tombstone that is its identifier’s first entry a new entry first', async function () {
      const store = db.store();
      await store.writeItems([{ internalId: 'gone', deleted: true, metadata: {} }]);
      expect((await leaves(db.knex())).map(summary)).to.deep.equal([`new ${id('gone')}`, `deleted ${id('gone')}`]);
    });

    it('appends a publication larger than the part it appends at a time in its identifiers’ byte order, as one tree', async function () {
      const store = db.store();
      // 5,100 items (the part is 5,000) written in reverse; ids whose UTF-16 order is not their UTF-8 byte order (U+FF5E against U+1F600).
      const ids = Array.from({ length: 5100 }, (_, i) => `i${String(i).padStart(4, '0')}${i % 2 === 0 ? '\uff5e' : '\u{1f600}'}`);
      await store.writeItems([...ids].reverse().map((i) => item(i)));
      const all = await leaves(db.knex());
      expect(all).to.have.length(5100);
      const identifiers = all.map((l) => l.entry.identifier);
      expect(identifiers).to.deep.equal([...identifiers].sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))));
      expect(new Set(identifiers).size).to.equal(5100);
      await expectConsistent(db.knex());
    });

    it('grows its tiles across several hundred publications as the tree they stand for', async function () {
      const store = db.store();
      for (let i = 0; i < 300; i += 7) await store.writeItems(Array.from({ length: 7 }, (_, j) => item(`i${String(i + j).padStart(4, '0')}`)));
      await expectConsistent(db.knex());
      expect((await readHead(db.knex())).size).to.equal(301);
    });

    it('is made, on upgrade, after migrating, of one new entry per item and new then deleted per tombstone, in datestamp order, and a second migration adds nothing', async function () {
      const clock = new ManualClock(T0);
      const store = db.store({ clock: clock.read });
      await store.writeItems([item('z'), item('y')]);
      clock.tick(10);
      await store.writeItems([item('x', { metadata: { oai_dc: dc('X'), marc21: MARC } })]);
      clock.tick(10);
      await store.deleteItems(['z']);
      const knex = db.knex();
      const before = await leaves(knex);
      await publicationLog.down(knex);
      await publicationLog.up(knex);
      expect(await leaves(knex), 'the migration makes the log empty').to.deep.equal([]);
      expect(await store.backfillLog()).to.equal(4);
      const upgraded = await leaves(knex);
      expect(upgraded.map(summary)).to.deep.equal([`new ${id('y')}`, `new ${id('x')}`, `new ${id('z')}`, `deleted ${id('z')}`]);
      // The entry of a live item is the one its last publication wrote.
      const x = (es: typeof before): Buffer | undefined => es.filter((l) => l.entry.identifier === id('x')).pop()?.bytes;
      expect(x(upgraded)?.equals(x(before) as Buffer)).to.equal(true);
      await expectConsistent(knex);
      await migrate(knex);
      expect(await store.backfillLog(), 'a second migration').to.equal(0);
      await store.writeItems([item('y'), item('x', { metadata: { oai_dc: dc('X'), marc21: MARC } })]);
      expect(await leaves(knex)).to.have.length(4);
    });
  });
});
