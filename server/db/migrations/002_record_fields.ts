/**
 * The record fields of each item (lib/model/record.ts `RecordFields`), kept
 * beside its metadata so the crosswalks can be run again over them
 * (`oai-steward rebuild-formats`) and read by other parts of the server.
 *
 * - `record_fields`: one row per live item written from the project's record
 *   format; `fields` is the parsed, normalized record as JSON, `derived` a
 *   JSON array of the metadataPrefixes a built-in crosswalk made (the other
 *   formats' XML was given by the record and is kept as it is). Items loaded
 *   as XML only and tombstones have no row. A table of its own rather than a
 *   column of `items`, so list scans over `items` never carry the JSON.
 */
import type { Knex } from 'knex';

/** Creates the record_fields table. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('record_fields', (t) => {
    t.integer('item_pk').primary().references('pk').inTable('items');
    t.text('fields').notNullable();
    t.text('derived').notNullable().defaultTo('[]');
  });
}

/** Drops it. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('record_fields');
}
