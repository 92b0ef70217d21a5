/**
 * The records without a log hash, indexed: a partial index of
 * `records (item_pk) WHERE log_hash IS NULL`.
 *
 * Before a publication takes its lock, the log gives every record of the
 * items it publishes that has no log hash one (server/db/log/append.ts
 * `fillLogHashes`). The write pipeline stores every live record's hash
 * with the record (021), so that question almost always finds nothing; the
 * primary key answered it by reading every record of the publication's
 * items (on PostgreSQL a second of a 10,000-record load). Only the rows the
 * question is about are in this index: records written before 021, and a
 * tombstone's. Both databases use a partial index for a query whose WHERE
 * implies its condition (SQLite, "Partial Indexes" section 3; PostgreSQL 15,
 * section 11.8).
 */
import type { Knex } from 'knex';

/** Makes the index. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX records_unlogged ON records (item_pk) WHERE log_hash IS NULL');
}

/** Drops it. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX records_unlogged');
}
