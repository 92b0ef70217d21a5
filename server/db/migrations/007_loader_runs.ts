/**
 * `loader_runs`: what each run of the loader did, kept in the store so that
 * whichever process asks (a server's `/metrics`, `oai-steward stats`) sees
 * the last run, whichever process ran it. One row per run that reached its
 * end (committed, refused, or a dry run); the newest were kept (the loader
 * pruned the rest). Migration 018 folds the table into `runs` and drops it.
 *
 * - `finished`: when the run ended, milliseconds since the Unix epoch;
 * - `records`: records written (inserted, updated or turned into tombstones);
 * - `refusals`: records refused;
 * - `read`: records read, refused ones included;
 * - `duration_ms`: from the start of the run to its end;
 * - `outcome`: `committed`, `refused` (nothing written) or `dry-run`; later
 *   also `interrupted` (stopped by a signal, nothing written).
 */
import type { Knex } from 'knex';

/** Creates the table. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('loader_runs', (t) => {
    t.increments('id');
    t.bigInteger('finished').notNullable();
    t.integer('records').notNullable();
    t.integer('refusals').notNullable();
    t.integer('read').notNullable();
    t.bigInteger('duration_ms').notNullable();
    t.text('outcome').notNullable();
  });
}

/** Drops it. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('loader_runs');
}
