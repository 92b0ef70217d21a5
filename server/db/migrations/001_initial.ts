/**
 * The initial schema.
 *
 * - `items`: one row per item ever written, never deleted (a deletion is a
 *   tombstone: `deleted = true`). `pk` is AUTOINCREMENT on SQLite so that no
 *   key is ever reused; `(datestamp, pk)` is the keyset every list scans.
 * - `item_sets`: an item's direct sets and all their ancestors (`direct`
 *   false), so that harvesting `a` is one index range `spec = 'a'`
 *   (OAI-PMH 2.0 section 2.7.2, set hierarchy); it repeats the item's
 *   datestamp so that range comes out in list order.
 * - `records`: the serialized metadata per format; a tombstone keeps its rows
 *   with `xml` NULL so that lists filtered by metadataPrefix still show it
 *   (OAI-PMH 2.0 section 2.5.1, deletedRecord persistent).
 * - `sets`: what ListSets shows; `descriptions` is a JSON array of XML strings.
 * - `identifiers`: the registry of every identifier ever published; never
 *   deleted, so an identifier is never handed to another item.
 * - `settings`: small key/value state (e.g. the resumption-token secret).
 * - `pdi_serials` / `pdi_versions`: urn:pdi minting state (daily serials per
 *   series, versions that never go back).
 */
import type { Knex } from 'knex';
import { binaryTextColumn } from '../dialect';

/** Creates every table and index. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('items', (t) => {
    t.increments('pk');
    binaryTextColumn(knex, t, 'internal_id').notNullable().unique();
    binaryTextColumn(knex, t, 'identifier').notNullable().unique();
    t.bigInteger('datestamp').notNullable();
    t.boolean('deleted').notNullable().defaultTo(false);
    t.text('content_hash').notNullable();
    t.bigInteger('created').notNullable();
    t.index(['datestamp', 'pk'], 'items_datestamp_pk');
  });
  await knex.schema.createTable('item_sets', (t) => {
    binaryTextColumn(knex, t, 'spec').notNullable();
    t.integer('item_pk').notNullable().references('pk').inTable('items');
    t.boolean('direct').notNullable();
    // A copy of items.datestamp, so a set-filtered list is one ordered range
    // scan of (spec, datestamp, item_pk), however small the set.
    t.bigInteger('datestamp').notNullable();
    t.primary(['spec', 'item_pk']);
    t.index(['spec', 'datestamp', 'item_pk'], 'item_sets_spec_datestamp');
    t.index(['item_pk'], 'item_sets_item_pk');
  });
  await knex.schema.createTable('records', (t) => {
    t.integer('item_pk').notNullable().references('pk').inTable('items');
    binaryTextColumn(knex, t, 'prefix').notNullable();
    t.text('xml').nullable();
    t.primary(['item_pk', 'prefix']);
  });
  await knex.schema.createTable('sets', (t) => {
    binaryTextColumn(knex, t, 'spec').primary();
    t.text('name').notNullable();
    t.text('descriptions').notNullable().defaultTo('[]');
  });
  await knex.schema.createTable('identifiers', (t) => {
    binaryTextColumn(knex, t, 'identifier').primary();
    binaryTextColumn(knex, t, 'internal_id').notNullable();
    t.text('scheme').notNullable();
    t.bigInteger('first_published').notNullable();
    t.index(['internal_id'], 'identifiers_internal_id');
  });
  await knex.schema.createTable('settings', (t) => {
    t.text('key').primary();
    t.text('value').notNullable();
  });
  await knex.schema.createTable('pdi_serials', (t) => {
    binaryTextColumn(knex, t, 'series').notNullable();
    t.text('date').notNullable();
    t.integer('last_serial').notNullable();
    t.primary(['series', 'date']);
  });
  await knex.schema.createTable('pdi_versions', (t) => {
    binaryTextColumn(knex, t, 'document').primary();
    t.integer('last_version').notNullable();
  });
}

/** Drops everything `up` created. */
export async function down(knex: Knex): Promise<void> {
  for (const table of ['pdi_versions', 'pdi_serials', 'settings', 'identifiers', 'sets', 'records', 'item_sets', 'items']) {
    await knex.schema.dropTableIfExists(table);
  }
}
