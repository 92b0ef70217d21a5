/**
 * Per-record datestamps: a record (an item in one format) has its own
 * datestamp, the moment its bytes, its deleted status, its sets or its about
 * containers last changed in this store (OAI-PMH 2.0 section 2.7.1: the
 * datestamp is of the record, not of the item), so adding a format to an
 * item, or a writer change that alters one format, stamps only the records
 * that changed and an incremental harvest of the others finds nothing new.
 *
 * - `records.datestamp`: the record's datestamp, seconds; `items.datestamp`
 *   stays the latest change of anything of the item, never earlier than any
 *   of its records' (the order a set's list is scanned in).
 * - `records.hash`: a digest of everything the record disseminates (its
 *   metadata, header sets, deleted status and about containers:
 *   lib/pipeline/content-hash.ts `recordHash`), which tells the write path
 *   whether it changed; NULL for rows written before this migration (the
 *   write path then compares the stored XML itself).
 * - `records_prefix_datestamp`: (prefix, datestamp, item_pk), the keyset a
 *   list of one format scans, as `items (datestamp, pk)` was.
 *
 * Every record starts with its item's datestamp, so what harvesters see does
 * not change.
 */
import type { Knex } from 'knex';

/** Adds the columns, fills the datestamps in from the items, and indexes them. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('records', (t) => {
    t.bigInteger('datestamp').nullable();
    t.text('hash').nullable();
  });
  await knex.raw('UPDATE records SET datestamp = (SELECT i.datestamp FROM items i WHERE i.pk = records.item_pk)');
  await knex.schema.alterTable('records', (t) => {
    t.index(['prefix', 'datestamp', 'item_pk'], 'records_prefix_datestamp');
  });
}

/** Removes them (native DROP COLUMN: knex's SQLite emulation copies the table, which foreign keys onto it refuse). */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX records_prefix_datestamp');
  await knex.raw('ALTER TABLE records DROP COLUMN hash');
  await knex.raw('ALTER TABLE records DROP COLUMN datestamp');
}
