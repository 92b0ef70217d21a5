/**
 * The base URL each harvested list was last harvested from
 * (`harvest_state.base_url`), so that a source first harvested by its URL
 * (`oai-steward harvest URL --name NAME`) is harvested again by its name
 * alone, with the URL, prefixes and sets it was harvested with. NULL for
 * lists harvested before this migration: such a source still needs its URL
 * (or its configuration) once more.
 */
import type { Knex } from 'knex';

/** Adds the column. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('harvest_state', (t) => {
    t.text('base_url').nullable();
  });
}

/** Drops it. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('harvest_state', (t) => {
    t.dropColumn('base_url');
  });
}
