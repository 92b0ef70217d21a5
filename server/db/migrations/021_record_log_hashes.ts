/**
 * Each record's hash as the publication log records it, kept with the record.
 *
 * - `records.log_hash`: SHA-256 (hex) of the exclusive C14N of the record's
 *   metadata as served (lib/tlog/verify.ts `servedRecordHash`), written with
 *   the record by the write pipeline (server/store/apply.ts), of the XML a
 *   format written on demand will be served as too. A publication's log
 *   entries are then made from these, without reading its records back or
 *   canonicalizing them at the end of a write, while it holds the store.
 *   NULL for a record written before this migration and for a deleted one:
 *   the log reads and hashes the XML of such a row when it needs it.
 *
 * `oai-steward log verify` never trusts the column: it hashes what is
 * served.
 */
import type { Knex } from 'knex';

/** Adds the column. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('records', (t) => {
    t.text('log_hash').nullable();
  });
}

/** Removes it (native DROP COLUMN: knex's SQLite emulation copies the table, which foreign keys onto it refuse). */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE records DROP COLUMN log_hash');
}
