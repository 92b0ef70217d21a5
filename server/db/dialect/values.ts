/**
 * What both databases share once their values are read: how a row's
 * booleans and integers are read, how lists are cut to the statement limits,
 * how set specs and about containers are joined in one column.
 *
 * - Booleans: SQLite returns 0/1, PostgreSQL true/false.
 * - Integers: pg returns `bigint` and `count(*)` as strings, SQLite as numbers.
 */

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

/** Splits a list into chunks of at most `size`. */
export function chunk<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** The largest number of values one `IN (…)` list may carry (bound variables). */
export const MAX_IN_LIST = 10000;

/** Bound variables one multi-row INSERT may use: under SQLite's 32766 and PostgreSQL's 65535. */
export const VARIABLES_PER_STATEMENT = 30000;

/**
 * Text given as its UTF-8 bytes, for a text column: what a staged write read
 * back (../../store/staging.ts), bound as it is rather than made a string
 * and encoded again. SQLite stores it as TEXT (`CAST(? AS TEXT)` keeps the
 * bytes of a UTF-8 database); PostgreSQL is given the string.
 */
export class Utf8Text {
  constructor(readonly bytes: Buffer) {}

  toString(): string {
    return this.bytes.toString('utf8');
  }
}

/** Joins set specs in an aggregated column: U+001F cannot occur in a setSpec (OAI-PMH 2.7). */
export const SET_SEPARATOR = '\u001f';

/**
 * `items.direct_sets` for a list of direct set specs already unique and in
 * binary order: joined by {@link SET_SEPARATOR}, null for none (what a
 * dialect's `directSetsColumn` gives for the same rows).
 *
 * @example directSetsValue(['a', 'a:b']) // 'a\u001fa:b'
 */
export function directSetsValue(sets: readonly string[]): string | null {
  return sets.length === 0 ? null : sets.join(SET_SEPARATOR);
}

/** A column of a dialect's `jsonRowsSql`: its name, and whether it holds integers or text. */
export type JsonRowColumn = readonly [name: string, type: 'int' | 'text'];

/** The one parameter of a dialect's `jsonRowsSql`: the same JSON text on both databases. */
export function jsonRowsParam(rows: readonly (readonly (number | string)[])[]): string {
  return JSON.stringify(rows);
}

/** The first row of a raw result, on either driver. */
export function firstRow(result: unknown): Record<string, unknown> | undefined {
  return rowsOf<Record<string, unknown>>(result)[0];
}

/** The rows of a raw result, on either driver (better-sqlite3 gives an array, pg a result with `rows`). */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])) as T[];
}
