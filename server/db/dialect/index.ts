/**
 * The one place that knows SQLite and PostgreSQL differ (STYLE.md, habit 6):
 * a {@link Dialect} object per database (./sqlite.ts, ./postgres.ts), found
 * from a knex instance or transaction by {@link dialectOf}. Every other
 * module asks its dialect and never tests which database it talks to.
 *
 * Datestamps are integer seconds in a `bigint` column on both, so they sort
 * and compare identically without any date function (lib/store/).
 *
 * The functions below taking a knex first are the dialect's, kept as
 * functions for the SQL builders that call them in many places.
 */
import type { Knex } from 'knex';
import { postgres } from './postgres';
import { sqlite } from './sqlite';
import type { Dialect } from './types';
import type { JsonRowColumn } from './values';

export type { AdvisoryLock, Dialect, PublicationLock, RunBudgetedArrays, RunSql, RunSqlArrays, SchemaShape, ScratchStore } from './types';
export { chunk, directSetsValue, firstRow, jsonRowsParam, MAX_IN_LIST, rowsOf, SET_SEPARATOR, toBool, toInt, Utf8Text, type JsonRowColumn } from './values';

/**
 * The dialect of a knex instance or transaction.
 *
 * @example await dialectOf(knex).checkpointLog(knex)
 */
export function dialectOf(knex: Knex): Dialect {
  // knex names the dialect on the client, shared by its transactions.
  return (knex.client as { dialect?: unknown }).dialect === 'postgresql' ? postgres : sqlite;
}

/** {@link Dialect.binaryTextColumn}: use it for every column ordered or range-compared as a string. */
export function binaryTextColumn(knex: Knex, table: Knex.CreateTableBuilder, name: string): Knex.ColumnBuilder {
  return dialectOf(knex).binaryTextColumn(table, name);
}

/** {@link Dialect.rowsPerInsert}. */
export function rowsPerInsert(knex: Knex, columns: number): number {
  return dialectOf(knex).rowsPerInsert(columns);
}

/** {@link Dialect.inListSql}: pair it with {@link inListParam}. */
export function inListSql(knex: Knex, column: string, type: 'int' | 'text' = 'int'): string {
  return dialectOf(knex).inListSql(column, type);
}

/** {@link Dialect.inListParam}. */
export function inListParam(knex: Knex, values: readonly (number | string)[]): unknown {
  return dialectOf(knex).inListParam(values);
}

/**
 * {@link Dialect.directSetsColumn}: the read path reads `items.direct_sets`
 * instead; this derives that column from `item_sets` (the migration that
 * added it, and the tests holding the two equal).
 */
export function directSetsColumn(knex: Knex, itemPk: string): string {
  return dialectOf(knex).directSetsColumn(itemPk);
}

/** {@link Dialect.aboutColumn}. */
export function aboutColumn(knex: Knex, itemPk: string): string {
  return dialectOf(knex).aboutColumn(itemPk);
}

/**
 * {@link Dialect.jsonRowsSql}: one statement carries a page of rows in one
 * shape however many there are (an `UPDATE … FROM` by key, say).
 *
 * @example `UPDATE records SET hash = v.hash FROM ${jsonRowsSql(knex, [['item_pk', 'int'], ['prefix', 'text'], ['hash', 'text']])} AS v WHERE …`
 */
export function jsonRowsSql(knex: Knex, columns: readonly JsonRowColumn[]): string {
  return dialectOf(knex).jsonRowsSql(columns);
}

/** {@link Dialect.checkpointLog}. */
export async function checkpointLog(knex: Knex): Promise<void> {
  await dialectOf(knex).checkpointLog(knex);
}
