/**
 * An item's direct sets, kept on its row.
 *
 * Every header carries the item's setSpecs (OAI-PMH 2.0 section 2.5), so
 * every page of a list needs them for each of its items. Read from
 * `item_sets` they were a correlated aggregate per row, about a sixth of the
 * SQLite page statement and the largest cost left in it (measured on
 * 100,000 records: 1.17 s for all pages with the aggregate, 0.86 s without);
 * a column read with the row costs nothing extra. `item_sets` stays the
 * source of set-filtered lists, departures and ancestors.
 *
 * - `items.direct_sets`: the direct, not departed set specs in binary order,
 *   joined by U+001F (which a setSpec cannot hold); NULL when there is none.
 *   Written with every change of the item's memberships (server/store/apply.ts).
 */
import type { Knex } from 'knex';
import { directSetsColumn } from '../dialect';

/** Adds the column and fills it from item_sets. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('items', (t) => {
    t.text('direct_sets').nullable();
  });
  await knex.raw(`UPDATE items SET direct_sets = ${directSetsColumn(knex, 'items.pk')}`);
}

/**
 * Removes the column. Native DROP COLUMN on both databases: knex's SQLite
 * emulation copies the table, which the foreign keys onto `items` refuse.
 */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE items DROP COLUMN direct_sets');
}
