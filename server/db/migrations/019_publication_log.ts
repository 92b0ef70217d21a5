/**
 * The publication log (server/db/log/): an append-only Merkle tree of every
 * publication event (lib/tlog/), its leaves, tiles and head.
 *
 * A store that held items before it had a log gets one `new` leaf per item,
 * as it is served now, and a tombstone a `new` leaf of its header and then
 * a `deleted` one: items in the order of their datestamps, then of their
 * keys, so the log begins where the store's history as served begins. A
 * record kept without XML (a format written on demand) is left out of these
 * entries: a migration has no formats configuration to write it with; the
 * item's next publication lists it.
 */
import type { Knex } from 'knex';
import { entriesOf, appendEntries, snapshots } from '../log/append';
import { toInt } from '../dialect';

/** Items read and appended at a time. */
const PAGE = 500;

/** Creates the tables and appends the items the store holds. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('log_leaves', (t) => {
    t.bigInteger('idx').primary();
    t.integer('item_pk').notNullable().references('pk').inTable('items');
    t.binary('entry').notNullable();
    t.index(['item_pk', 'idx'], 'log_leaves_item_pk_idx');
  });
  await knex.schema.createTable('log_tiles', (t) => {
    t.integer('level').notNullable();
    t.bigInteger('n').notNullable();
    t.binary('hashes').notNullable();
    t.primary(['level', 'n']);
  });
  // The largest checkpoint any server of this store signed: none is ever signed inconsistent with it.
  await knex.schema.createTable('log_signed', (t) => {
    t.integer('id').primary();
    t.bigInteger('size').notNullable();
    t.binary('root').notNullable();
  });
  await knex.schema.createTable('log_head', (t) => {
    t.integer('id').primary();
    t.bigInteger('size').notNullable();
    t.binary('root').notNullable();
    t.bigInteger('items').notNullable().defaultTo(0);
  });
  let after: { datestamp: number; pk: number } | null = null;
  for (;;) {
    const q = knex('items')
      .select('pk', 'datestamp')
      .orderBy([{ column: 'datestamp' }, { column: 'pk' }])
      .limit(PAGE);
    if (after !== null) {
      const a: { datestamp: number; pk: number } = after;
      q.where((w) => w.where('datestamp', '>', a.datestamp).orWhere((x) => x.where('datestamp', a.datestamp).andWhere('pk', '>', a.pk)));
    }
    const rows = ((await q) as { pk: unknown; datestamp: unknown }[]).map((r) => ({ pk: toInt(r.pk), datestamp: toInt(r.datestamp) }));
    if (rows.length === 0) break;
    const byPk = new Map(
      (
        await snapshots(
          knex,
          rows.map((r) => r.pk),
          -1,
          -1,
        )
      ).map((s) => [s.pk, s]),
    );
    await appendEntries(
      knex,
      entriesOf(
        rows.map((r) => byPk.get(r.pk)).filter((s) => s !== undefined),
        new Set(),
      ),
    );
    after = rows[rows.length - 1] as { datestamp: number; pk: number };
  }
}

/** Drops them. */
export async function down(knex: Knex): Promise<void> {
  for (const table of ['log_signed', 'log_head', 'log_tiles', 'log_leaves']) await knex.schema.dropTableIfExists(table);
}
