/**
 * `items.direct_sets`, the copy of an item's direct sets that every header
 * is read from, never drifts from `item_sets`, the table set-filtered lists,
 * departures and ancestors are read from: after any sequence of writes,
 * membership changes and deletions (random, on every database), and when
 * migration 004 fills it in a store written before it existed.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { Knex } from 'knex';
import { SET_SEPARATOR, directSetsColumn } from '../../../server/db/dialect';
import { migrationSource } from '../../../server/db/migrations';
import { forEachDatabase } from '../../helpers/db';
import { ManualClock, item } from '../../helpers/store-fixtures';

const SPECS = ['a', 'a:b', 'a:b:c', 'b', 'c'] as const;
const IDS = ['one', 'two', 'three', 'four'] as const;

/** Every item whose `direct_sets` differs from what `item_sets` says, with both values. */
async function drift(knex: Knex): Promise<{ pk: number; column: string | null; derived: string | null }[]> {
  const rows = (await knex.raw(`SELECT pk, direct_sets AS "column", ${directSetsColumn(knex, 'items.pk')} AS derived FROM items ORDER BY pk`)) as
    { pk: number; column: string | null; derived: string | null }[] | { rows: { pk: number; column: string | null; derived: string | null }[] };
  const list = Array.isArray(rows) ? rows : rows.rows;
  return list.filter((r) => r.column !== r.derived);
}

type Op =
  { kind: 'write'; id: string; sets: string[]; deleted: boolean } | { kind: 'memberships'; id: string; sets: string[] } | { kind: 'delete'; id: string };

const setsArb = fc.subarray([...SPECS]);
const idArb = fc.constantFrom(...IDS);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), id: idArb, sets: setsArb, deleted: fc.boolean() }),
  fc.record({ kind: fc.constant('memberships' as const), id: idArb, sets: setsArb }),
  fc.record({ kind: fc.constant('delete' as const), id: idArb }),
);

forEachDatabase((db) => {
  it('keeps direct_sets equal to the direct, live rows of item_sets through random writes, membership changes and deletions', async function () {
    this.timeout(120_000);
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), async (ops) => {
        const knex = db.knex();
        for (const t of ['record_fields', 'item_about', 'records', 'item_sets', 'log_leaves', 'log_tiles', 'log_head', 'items', 'identifiers', 'sets'])
          await knex(t).delete();
        // One second per step, so every change gets a datestamp of its own.
        const clock = new ManualClock();
        const store = db.store({ clock: clock.read });
        await store.putSets(SPECS.map((spec) => ({ spec, name: `Set ${spec}` })));
        const known = new Set<string>();
        for (const op of ops) {
          clock.tick();
          if (op.kind === 'write') {
            await store.writeItems([item(op.id, { sets: op.sets, ...(op.deleted ? { deleted: true, metadata: {} } : {}) })]);
            known.add(op.id);
          } else if (!known.has(op.id)) {
            continue;
          } else if (op.kind === 'memberships') {
            await store.setMemberships([{ internalId: op.id, sets: op.sets }]);
          } else {
            await store.deleteItems([op.id]);
          }
          expect(await drift(knex), JSON.stringify(op)).to.deep.equal([]);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('reads the sets of headers from direct_sets, in binary order, joined by U+001F', async () => {
    const store = db.store();
    await store.putSets(SPECS.map((spec) => ({ spec, name: `Set ${spec}` })));
    await store.writeItems([item('one', { sets: ['c', 'a:b', 'a'] }), item('two')]);
    const rows = (await db.knex()('items').select('internal_id', 'direct_sets').orderBy('internal_id')) as {
      internal_id: string;
      direct_sets: string | null;
    }[];
    expect(rows).to.deep.equal([
      { internal_id: 'one', direct_sets: ['a', 'a:b', 'c'].join(SET_SEPARATOR) },
      { internal_id: 'two', direct_sets: null },
    ]);
    const header = await store.getHeader(`oai:test.example.org:one`);
    expect(header?.sets).to.deep.equal(['a', 'a:b', 'c']);
  });

  it('fills direct_sets from item_sets when migration 004 runs on a store written before it', async () => {
    const knex = db.knex();
    const store = db.store();
    await store.putSets(SPECS.map((spec) => ({ spec, name: `Set ${spec}` })));
    await store.writeItems([item('one', { sets: ['b', 'a:b:c'] }), item('two', { sets: ['c'] }), item('three')]);
    await store.setMemberships([{ internalId: 'two', sets: ['a'] }]);
    const written = (await knex('items').select('pk', 'direct_sets').orderBy('pk')) as unknown[];
    await knex.migrate.down({ migrationSource, name: '004_direct_sets' });
    expect(await knex.schema.hasColumn('items', 'direct_sets')).to.equal(false);
    await knex.migrate.latest({ migrationSource });
    expect(await knex('items').select('pk', 'direct_sets').orderBy('pk')).to.deep.equal(written);
    expect(await drift(knex)).to.deep.equal([]);
  });
});
