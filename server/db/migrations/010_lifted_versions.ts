/**
 * What the write pipeline keeps so that a record's model and its versions
 * can be reasoned about later.
 *
 * - `record_fields.lifted_from`: the metadataPrefix (or, for XML the
 *   repository reads but does not serve, its namespace) a record's model was
 *   lifted from; NULL when the record gave its model. `rebuild-formats`
 *   lifts such a model again, so a corrected reader reaches stored items.
 * - `items.source_datestamp`: for a record harvested from another
 *   repository, its datestamp there (seconds), from the last version
 *   written; NULL otherwise. A version older than it is superseded in every
 *   later write, so an older harvest file never brings a record back
 *   (time never goes back).
 */
import type { Knex } from 'knex';

/** Adds the two columns. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('record_fields', (t) => {
    t.text('lifted_from').nullable();
  });
  await knex.schema.alterTable('items', (t) => {
    t.bigInteger('source_datestamp').nullable();
  });
}

/** Removes them (native DROP COLUMN: knex's SQLite emulation copies the table, which foreign keys onto it refuse). */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE items DROP COLUMN source_datestamp');
  await knex.raw('ALTER TABLE record_fields DROP COLUMN lifted_from');
}
