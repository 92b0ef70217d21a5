/**
 * One consistent snapshot of the store for a long read (a bulk dump): every
 * query inside sees the database as it was when the snapshot began, however
 * many writes commit meanwhile, and the snapshot itself writes nothing.
 *
 * - PostgreSQL: a `REPEATABLE READ, READ ONLY` transaction (PostgreSQL
 *   documentation, 13.2.2: all statements see a snapshot taken at the first
 *   statement of the transaction; `SET TRANSACTION` must come first).
 * - SQLite: a deferred transaction begun by a read (SQLite documentation,
 *   "Transaction": a read transaction starts at the first SELECT; in WAL
 *   mode, "Isolation In SQLite": it keeps seeing the database as of that
 *   moment while other connections write and commit).
 */
import type { Knex } from 'knex';
import { dialectOf } from './dialect';

/**
 * Runs `fn` inside a read-only snapshot of the store; `fn` gets the
 * transaction and the snapshot's first read has already run, so the
 * snapshot is fixed before `fn` looks at the clock.
 *
 * @example await inSnapshot(knex, async (trx) => trx('items').count())
 */
export async function inSnapshot<T>(knex: Knex, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return dialectOf(knex).inSnapshot(knex, fn);
}
