/**
 * The publication clock: `publication.last`, the datestamp of the newest
 * publication (the moment a write's changes became visible, server/db/publication.ts).
 * Every write is stamped at publication with the later of the store's clock
 * and this, under the store's publication lock, so datestamps follow the order
 * in which writes became visible even when two writers' clocks disagree
 * (OAI-PMH 2.0 section 3.3: a harvest `from` a datestamp must see every change
 * made visible after it). It starts at the newest datestamp the store holds.
 */
import type { Knex } from 'knex';

/** Creates the one-row table and starts it at the newest datestamp stored. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('publication', (t) => {
    t.integer('id').primary();
    t.bigInteger('last').notNullable();
  });
  await knex.raw(
    'INSERT INTO publication (id, last) SELECT 1, COALESCE(MAX(d), 0) FROM (SELECT MAX(datestamp) AS d FROM items UNION ALL SELECT MAX(datestamp) AS d FROM records) m',
  );
}

/** Drops it. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('publication');
}
