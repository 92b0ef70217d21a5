/**
 * Where each set comes from, and the sets taken out of the repository.
 *
 * - `sets.origin`: who declared the set: `configuration` (a static set of
 *   the configuration's `sets`), `rule` (a set by rule, a preset, or a
 *   member of a family such as `ddc:530`), or `input` (a load: a ListSets
 *   response, a `--sets` file, or a setSpec harvested records name). Sets
 *   declared before this migration are `input` until the configuration
 *   claims its own on the next write. Configured names always win: an input
 *   never renames a set the configuration declares (server/store/sets.ts).
 * - `sets.renamed`: when a repository manager renamed the set
 *   (`oai-steward sets rename`); an input no longer renames it. NULL: never.
 * - `retired_sets`: sets taken out of the repository (`oai-steward sets
 *   retire`, or a configured set no longer configured when `rebuild-sets`
 *   runs), with the name and origin they had and when. Their members left
 *   them first (departures in `item_sets`, which stay, so a harvest of the
 *   set still reports them deleted); ListSets no longer shows them, since
 *   the row left `sets`.
 */
import type { Knex } from 'knex';
import { binaryTextColumn } from '../dialect';

/** Adds the columns and the table. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sets', (t) => {
    t.text('origin').notNullable().defaultTo('input');
    t.bigInteger('renamed').nullable();
  });
  await knex.schema.createTable('retired_sets', (t) => {
    binaryTextColumn(knex, t, 'spec').primary();
    t.text('name').notNullable();
    t.text('origin').notNullable();
    t.bigInteger('retired').notNullable();
  });
}

/**
 * Removes them. Native DROP COLUMN on both databases: knex's SQLite
 * emulation copies the table.
 */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('retired_sets');
  await knex.raw('ALTER TABLE sets DROP COLUMN renamed');
  await knex.raw('ALTER TABLE sets DROP COLUMN origin');
}
