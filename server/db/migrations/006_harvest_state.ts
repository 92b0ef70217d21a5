/**
 * What the harvester (server/harvest/) keeps between runs, so that any
 * process on the store continues where the last one stopped.
 *
 * - `harvest_state`: one row per source, metadataPrefix and set ('' for
 *   the whole repository). `last_response_date` is the responseDate of the
 *   first page of the last list harvested to its end (an incremental run asks
 *   `from` it, less one granule); `run_response_date`, `token` and
 *   `checkpoint_from`/`checkpoint_until` are the checkpoint of a list under
 *   way, written in the transaction of the page they follow, so an
 *   interrupted run resumes after its last committed page;
 *   `run_marks_seen` says the list under way records its ids in
 *   `harvest_seen` (a `--delete-missing` run), so only such a run is resumed
 *   by another `--delete-missing` run; the counts are those of the last run,
 *   and of every run.
 * - `harvest_seen`: the internal ids a full run with `--delete-missing` has
 *   harvested so far (across its pages' transactions); the items of the
 *   source it never saw become tombstones when the run ends.
 * - `harvest_locks`: on SQLite, the lock row of a source being harvested,
 *   with its expiry (PostgreSQL uses an advisory lock instead); one harvest
 *   per source at a time across the processes sharing the store.
 */
import type { Knex } from 'knex';
import { binaryTextColumn } from '../dialect';

/** Creates the three tables. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('harvest_state', (t) => {
    binaryTextColumn(knex, t, 'source').notNullable();
    binaryTextColumn(knex, t, 'prefix').notNullable();
    binaryTextColumn(knex, t, 'set_spec').notNullable();
    t.text('last_response_date').nullable();
    t.text('last_from').nullable();
    t.bigInteger('last_success').nullable();
    t.text('run_response_date').nullable();
    t.text('token').nullable();
    t.text('checkpoint_from').nullable();
    t.text('checkpoint_until').nullable();
    t.boolean('run_marks_seen').notNullable().defaultTo(false);
    t.integer('run_pages').notNullable().defaultTo(0);
    t.integer('run_records').notNullable().defaultTo(0);
    t.integer('run_refused').notNullable().defaultTo(0);
    t.bigInteger('records').notNullable().defaultTo(0);
    t.bigInteger('refused').notNullable().defaultTo(0);
    t.text('last_error').nullable();
    t.bigInteger('last_error_at').nullable();
    t.bigInteger('last_attempt').nullable();
    t.primary(['source', 'prefix', 'set_spec']);
  });
  await knex.schema.createTable('harvest_seen', (t) => {
    binaryTextColumn(knex, t, 'source').notNullable();
    binaryTextColumn(knex, t, 'internal_id').notNullable();
    t.primary(['source', 'internal_id']);
  });
  await knex.schema.createTable('harvest_locks', (t) => {
    binaryTextColumn(knex, t, 'source').primary();
    t.text('holder').notNullable();
    t.bigInteger('expires').notNullable();
  });
}

/** Drops them. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('harvest_locks');
  await knex.schema.dropTableIfExists('harvest_seen');
  await knex.schema.dropTableIfExists('harvest_state');
}
