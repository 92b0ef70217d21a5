/**
 * The publication log (server/db/log/): an append-only Merkle tree of every
 * publication event (lib/tlog/), its leaves, tiles and head, made empty.
 *
 * A store that held items before it had a log gets its first entries right
 * after migrating (server/db/log/backfill.ts, called by server/provider.ts):
 * one per item as it is served now, records written on demand included,
 * which a migration cannot write: it has no formats configuration.
 */
import type { Knex } from 'knex';

/** Creates the tables. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('log_leaves', (t) => {
    t.bigInteger('idx').primary();
    t.integer('item_pk').notNullable().references('pk').inTable('items');
    t.binary('entry').notNullable();
    t.index(['item_pk', 'idx'], 'log_leaves_item_pk_idx');
  });
  await knex.schema.createTable('log_tiles', (t) => {
    t.integer('level').notNullable();
    t.bigInteger('n').notNullable();
    t.binary('hashes').notNullable();
    t.primary(['level', 'n']);
  });
  // The largest checkpoint any server of this store signed: none is ever signed inconsistent with it.
  await knex.schema.createTable('log_signed', (t) => {
    t.integer('id').primary();
    t.bigInteger('size').notNullable();
    t.binary('root').notNullable();
  });
  await knex.schema.createTable('log_head', (t) => {
    t.integer('id').primary();
    t.bigInteger('size').notNullable();
    t.binary('root').notNullable();
    t.bigInteger('items').notNullable().defaultTo(0);
  });
}

/** Drops them. */
export async function down(knex: Knex): Promise<void> {
  for (const table of ['log_signed', 'log_head', 'log_tiles', 'log_leaves']) await knex.schema.dropTableIfExists(table);
}
