/**
 * `store_holders`: the processes that hold the store open (a server, a load,
 * a harvest) and a restore replacing it, one row each, so that a restore is
 * refused while anything serves or writes the store, and nothing starts while
 * a restore runs (server/store/holders.ts).
 *
 * - `id`: the holder's own random key;
 * - `kind`: `server`, `load`, `harvest` or `restore`;
 * - `pid` and `host`: the process, so a row left by a killed process of this
 *   host is recognised at once;
 * - `started_at`: when it registered, ISO 8601 UTC, for the operator's message;
 * - `heartbeat`: when it last said it is alive, seconds since the Unix epoch;
 *   a row not refreshed for a while (a process killed on another host) no
 *   longer holds the store.
 */
import type { Knex } from 'knex';

/** Creates the table. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('store_holders', (t) => {
    t.string('id', 32).primary();
    t.string('kind', 16).notNullable();
    t.integer('pid').notNullable();
    t.text('host').notNullable();
    t.text('started_at').notNullable();
    t.bigInteger('heartbeat').notNullable();
  });
}

/** Drops it. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('store_holders');
}
