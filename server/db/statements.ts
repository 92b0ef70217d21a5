/**
 * Prepared statements for the read hot path. The knex query builder costs
 * more than the query itself on SQLite (measured: 0.26 ms per GetRecord
 * lookup through the builder, 0.008 ms with a statement prepared once), so the
 * store writes its read queries as SQL once and runs them here, each
 * database its own way (./dialect/):
 *
 * - SQLite: a better-sqlite3 statement prepared once per connection and SQL
 *   text, run on a connection taken from knex's pool (so a read never slips
 *   into another caller's open transaction);
 * - PostgreSQL: a named prepared statement on a pooled pg client (pg keeps
 *   the parsed statement per connection), `?` placeholders numbered `$n`;
 * - inside a knex transaction, on the transaction's connection (a
 *   transaction's client hands out its own connection, and its release is a
 *   no-op).
 */
import type { Knex } from 'knex';
import { dialectOf, type RunSql, type RunSqlArrays } from './dialect';

export type { RunSql, RunSqlArrays } from './dialect';

/**
 * Makes the statement runner for a knex instance or transaction.
 *
 * @example await statementRunner(knex)('SELECT pk FROM items WHERE identifier = ?', ['oai:x.org:1'])
 */
export function statementRunner(knex: Knex): RunSql {
  return dialectOf(knex).statementRunner(knex);
}

/**
 * Like {@link statementRunner}, but each row comes as an array of its
 * columns (better-sqlite3's raw mode, pg's `rowMode: 'array'`): no object
 * with named properties is built per row. For the list pages, where that
 * was a fifth of the statement's cost on SQLite (measured in-process on
 * 100,000 records, all pages, best of 7: 1.07 s as objects, 0.86 s as arrays).
 *
 * @example const [[pk]] = await arrayRunner(knex)<[number]>('SELECT pk FROM items WHERE identifier = ?', ['oai:x.org:1']);
 */
export function arrayRunner(knex: Knex): RunSqlArrays {
  return dialectOf(knex).arrayRunner(knex);
}

/**
 * Inserts many rows into one table: on SQLite one prepared single-row INSERT
 * run per row, on PostgreSQL multi-row INSERTs of as many rows as the
 * bound-variable limit allows. `onConflictIgnore` names the conflict target
 * of rows to skip.
 */
export async function insertRows(
  db: Knex,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  onConflictIgnore?: string,
): Promise<void> {
  if (rows.length === 0) return;
  await dialectOf(db).insertRows(db, table, columns, rows, onConflictIgnore);
}
