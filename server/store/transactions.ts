/**
 * The store's transactions: one that fails with what its body threw, and a
 * write's outermost one, published at its end (../db/publication.ts).
 */
import type { Knex } from 'knex';
import { newPublication, publish, type Publication, type PublicationLock } from '../db/publication';
import type { WriteUnwritten } from '../db/log/append';

/**
 * `knex.transaction(fn)`, failing with what `fn` threw when the rollback
 * that follows fails too: nothing was committed either way, and the
 * rollback's error would hide why. SQLite rolls a transaction back by itself
 * on a full disk or an I/O error (SQLite, "Response To Errors Within A
 * Transaction"), so knex's ROLLBACK (or ROLLBACK TO SAVEPOINT) finds
 * nothing to roll back; a PostgreSQL connection the server terminated
 * cannot even send it.
 */
export async function transact<T>(knex: Knex, fn: (trx: Knex.Transaction) => Promise<T>, config?: Knex.TransactionConfig): Promise<T> {
  let thrown: unknown;
  try {
    return await knex.transaction(async (trx) => {
      try {
        return await fn(trx);
      } catch (err) {
        thrown = err;
        throw err;
      }
    }, config);
  } catch (err) {
    if (thrown !== undefined && err !== thrown && err instanceof Error && /^ROLLBACK\b/.test(err.message)) throw thrown;
    throw err;
  }
}

/**
 * A write's outermost transaction: `fn` writes with the publication's
 * placeholder for a datestamp, and the transaction's last statements publish
 * it (../db/publication.ts), the publication lock released once the
 * transaction has ended. `writeUnwritten` writes the records the store keeps
 * without XML, for the publication log's entries.
 */
export async function publishing<T>(
  knex: Knex,
  clock: () => number,
  fn: (trx: Knex.Transaction, pub: Publication) => Promise<T>,
  writeUnwritten?: WriteUnwritten,
): Promise<T> {
  const pub = newPublication();
  let lock: PublicationLock | undefined;
  try {
    return await transact(knex, async (trx) => {
      const out = await fn(trx, pub);
      lock = await publish(trx, pub, clock, writeUnwritten);
      return out;
    });
  } finally {
    lock?.release();
  }
}
