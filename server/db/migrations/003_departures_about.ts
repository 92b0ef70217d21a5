/**
 * Set departures and `about` containers.
 *
 * - `item_sets.departed`: NULL while the item is in the set; the datestamp
 *   of the change that took it out otherwise. A row is never removed once
 *   written, so a selective harvest of a set the item has left still finds
 *   it and reports it with `status="deleted"` (OAI-PMH 2.0 section 2.5.1,
 *   deletedRecord persistent, applied per set): a harvester's copy of the set
 *   drops it. Its `datestamp` stays the item's, like every row's, so the
 *   keyset `(spec, datestamp, item_pk)` of a set harvest is unchanged.
 * - `item_about`: the `about` containers of an item (OAI-PMH 2.0 section
 *   2.5: provenance, rights, …), in order, each the serialized content of one
 *   container (one root element), and what the content hash compares of it.
 */
import type { Knex } from 'knex';

/** Adds the departure column and the about table. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('item_sets', (t) => {
    t.bigInteger('departed').nullable();
  });
  await knex.schema.createTable('item_about', (t) => {
    t.integer('item_pk').notNullable().references('pk').inTable('items');
    t.integer('position').notNullable();
    t.text('xml').notNullable();
    // What decides whether the container changed, when less than the XML (lib/store/ AboutInput); NULL: the XML.
    t.text('compare_as').nullable();
    t.primary(['item_pk', 'position']);
  });
}

/** Removes what `up` added. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('item_about');
  await knex.schema.alterTable('item_sets', (t) => {
    t.dropColumn('departed');
  });
}
