/**
 * The one place that knows SQLite and PostgreSQL differ (STYLE.md, habit 6).
 *
 * - Text order: set specs are listed in binary (code point) order, so `B`
 *   sorts before `a` (ListSets paging depends on it). SQLite compares TEXT with
 *   memcmp by default; PostgreSQL uses the database's locale unless a column
 *   is declared `COLLATE "C"`, which compares UTF-8 bytes (= code points).
 * - Booleans: SQLite returns 0/1, PostgreSQL true/false.
 * - Integers: pg returns `bigint` and `count(*)` as strings, SQLite as numbers.
 * - Bound variables per statement: SQLite allows 32766, PostgreSQL 65535.
 *
 * Datestamps are integer seconds in a `bigint` column on both, so they sort
 * and compare identically without any date function (lib/store.ts).
 */
import type { Knex } from 'knex';

/** Whether a knex instance (or transaction) talks to PostgreSQL. */
export function isPostgres(knex: Knex): boolean {
  // knex names the dialect on the client, shared by its transactions.
  return (knex.client as { dialect?: unknown }).dialect === 'postgresql';
}

/**
 * Adds a text column that compares and sorts bytewise on both databases:
 * `text COLLATE "C"` on PostgreSQL, plain `text` (BINARY collation) on SQLite.
 * Use it for every column that is ordered or range-compared as a string.
 */
export function binaryTextColumn(knex: Knex, table: Knex.CreateTableBuilder, name: string): Knex.ColumnBuilder {
  return isPostgres(knex) ? table.specificType(name, 'text COLLATE "C"') : table.text(name);
}

/** Reads a boolean column value (SQLite 0/1, PostgreSQL true/false). */
export function toBool(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 't' || v === 'true';
}

/** Reads an integer column or aggregate (pg returns bigint and count as strings). */
export function toInt(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : Number(String(v));
  if (!Number.isSafeInteger(n)) throw new Error(`not an integer from the database: ${String(v)}`);
  return n;
}

/**
 * How many rows of `columns` values one multi-row INSERT may carry: under
 * SQLite's 32766 and PostgreSQL's 65535 bound-variable limits, and on SQLite
 * under its 500-term compound SELECT limit too (knex writes a multi-row
 * insert there as `SELECT … UNION ALL SELECT …`).
 */
export function rowsPerInsert(knex: Knex, columns: number): number {
  const byVariables = Math.max(1, Math.floor(30000 / Math.max(1, columns)));
  return isPostgres(knex) ? byVariables : Math.min(450, byVariables);
}

/** Splits a list into chunks of at most `size`. */
export function chunk<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** The largest number of values one `IN (…)` list may carry (bound variables). */
export const MAX_IN_LIST = 10000;

/**
 * SQL that is true when `column` is one of the values bound to its single
 * `?`: SQLite reads them from a JSON array, PostgreSQL from an array, so
 * the statement has one shape however many values there are. Pair it with
 * {@link inListParam}.
 */
export function inListSql(knex: Knex, column: string, type: 'int' | 'text' = 'int'): string {
  return isPostgres(knex) ? `${column} = ANY(?::${type}[])` : `${column} IN (SELECT value FROM json_each(?))`;
}

/** The one parameter of {@link inListSql}. */
export function inListParam(knex: Knex, values: readonly (number | string)[]): unknown {
  return isPostgres(knex) ? values : JSON.stringify(values);
}

/** Joins set specs in an aggregated column: U+001F cannot occur in a setSpec (OAI-PMH 2.7). */
export const SET_SEPARATOR = '\u001f';

/**
 * `items.direct_sets` for a list of direct set specs already unique and in
 * binary order: joined by {@link SET_SEPARATOR}, null for none (what
 * {@link directSetsColumn} gives for the same rows).
 *
 * @example directSetsValue(['a', 'a:b']) // 'a\u001fa:b'
 */
export function directSetsValue(sets: readonly string[]): string | null {
  return sets.length === 0 ? null : sets.join(SET_SEPARATOR);
}

/**
 * A correlated subquery giving an item's direct set specs in binary order,
 * joined by {@link SET_SEPARATOR} (null when there is none): SQLite's
 * `group_concat(… ORDER BY …)` (3.44+), PostgreSQL's `string_agg`. The read
 * path reads `items.direct_sets` instead; this derives that column from
 * `item_sets` (the migration that added it, and the tests holding the two
 * equal).
 */
export function directSetsColumn(knex: Knex, itemPk: string): string {
  return isPostgres(knex)
    ? `(SELECT string_agg(spec, chr(31) ORDER BY spec) FROM item_sets WHERE item_pk = ${itemPk} AND direct AND departed IS NULL)`
    : `(SELECT group_concat(spec, char(31) ORDER BY spec) FROM item_sets WHERE item_pk = ${itemPk} AND direct AND departed IS NULL)`;
}

/**
 * A correlated subquery giving an item's about containers in order, joined
 * by {@link SET_SEPARATOR} (U+001F cannot occur in XML 1.0 either), null
 * when there is none.
 */
export function aboutColumn(knex: Knex, itemPk: string): string {
  return isPostgres(knex)
    ? `(SELECT string_agg(xml, chr(31) ORDER BY position) FROM item_about WHERE item_pk = ${itemPk})`
    : `(SELECT group_concat(xml, char(31) ORDER BY position) FROM item_about WHERE item_pk = ${itemPk})`;
}

/** A column of {@link jsonRowsSql}: its name, and whether it holds integers or text. */
export type JsonRowColumn = readonly [name: string, type: 'int' | 'text'];

/**
 * A table of rows, as SQL for a FROM clause, read from the single `?` it
 * binds: a JSON array of arrays ({@link jsonRowsParam}), each array's values
 * the named columns in order. One statement then carries a page of rows in
 * one shape however many there are (an `UPDATE … FROM` by key, say):
 * SQLite reads it with `json_each`, PostgreSQL with `json_array_elements`.
 *
 * @example `UPDATE records SET hash = v.hash FROM ${jsonRowsSql(knex, [['item_pk', 'int'], ['prefix', 'text'], ['hash', 'text']])} AS v WHERE …`
 */
export function jsonRowsSql(knex: Knex, columns: readonly JsonRowColumn[]): string {
  if (isPostgres(knex)) {
    const cols = columns.map(([name, type], i) => `${type === 'int' ? `(e->>${i})::bigint` : `e->>${i}`} AS ${name}`);
    return `(SELECT ${cols.join(', ')} FROM json_array_elements(?::json) AS e)`;
  }
  const cols = columns.map(([name], i) => `json_extract(value, '$[${i}]') AS ${name}`);
  return `(SELECT ${cols.join(', ')} FROM json_each(?))`;
}

/** The one parameter of {@link jsonRowsSql}: the same JSON text on both databases. */
export function jsonRowsParam(rows: readonly (readonly (number | string)[])[]): string {
  return JSON.stringify(rows);
}

/**
 * Moves SQLite's write-ahead log into the database file and empties it
 * (`PRAGMA wal_checkpoint(TRUNCATE)`): after an interrupted load the log can
 * hold hundreds of megabytes of pages the load wrote and rolled back, which
 * the next process would otherwise read through. PostgreSQL keeps its own
 * log: nothing to do there.
 */
export async function checkpointLog(knex: Knex): Promise<void> {
  if (isPostgres(knex)) return;
  await knex.raw('PRAGMA wal_checkpoint(TRUNCATE)');
}
