/**
 * What a database dialect is asked for (./index.ts `dialectOf`): every
 * place SQLite and PostgreSQL differ, so that no other module tests which
 * one it talks to (STYLE.md, habit 6).
 */
import type { Knex } from 'knex';
import type { JsonRowColumn } from './values';

/** Runs read-only SQL with `?` placeholders and returns the rows. */
export type RunSql = <T>(sql: string, params: readonly unknown[]) => Promise<T[]>;

/** Runs read-only SQL with `?` placeholders and returns each row as an array of its columns, in SELECT order. */
export type RunSqlArrays = <T extends readonly unknown[]>(sql: string, params: readonly unknown[]) => Promise<T[]>;

/**
 * Runs a page query built with the dialect's `budgeted.fitsSql` under a
 * budget of `budget` bytes, whose rows begin with the item's pk: null when the
 * rows came out in another order than the scan decided them in (a plan that
 * sorts), so the caller reads the page another way.
 */
export type RunBudgetedArrays = <T extends readonly unknown[]>(sql: string, params: readonly unknown[], budget: number) => Promise<T[] | null>;

/** A held publication lock; `release` once the commit is visible. */
export interface PublicationLock {
  release(): void;
}

/** An advisory lock held on its own connection; `release` unlocks and gives the connection back, once. */
export interface AdvisoryLock {
  release(): Promise<void>;
}

/** Tables and their columns (sorted), indexes and what they cover: what doctor compares. */
export interface SchemaShape {
  readonly tables: Map<string, string[]>;
  readonly indexes: Map<string, string>;
}

/** A store of the same kind as another, made to be migrated and thrown away: where it is, and how to drop it. */
export interface ScratchStore {
  readonly url: string;
  readonly options: { readonly searchPath?: string; readonly pool?: { readonly min: number; readonly max: number } };
  drop(): Promise<void>;
}

export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** SQL types for the columns of a table made by hand (a temporary one): text, text compared bytewise, a 64-bit integer. */
  readonly types: { readonly text: string; readonly binaryText: string; readonly bigint: string };
  /** The schema of a connection's own temporary tables, so a name can never shadow or drop a real table. */
  readonly tempSchema: string;
  /**
   * Adds a text column that compares and sorts bytewise (set specs are listed
   * in code point order, so `B` before `a`; ListSets paging depends on it).
   */
  binaryTextColumn(table: Knex.CreateTableBuilder, name: string): Knex.ColumnBuilder;
  /** How many rows of `columns` values one multi-row INSERT may carry. */
  rowsPerInsert(columns: number): number;
  /** SQL true when `column` is one of the values bound to its single `?` ({@link Dialect.inListParam}). */
  inListSql(column: string, type?: 'int' | 'text'): string;
  /** The one parameter of {@link Dialect.inListSql} and {@link Dialect.valuesSql}. */
  inListParam(values: readonly (number | string)[]): unknown;
  /** A SELECT of the text values bound to its single `?` ({@link Dialect.inListParam}), one a row. */
  valuesSql(): string;
  /** SQL making an index on `column` of the temporary table `name` (unqualified). */
  tempIndexSql(name: string, column: string): string;
  /** A correlated subquery: an item's live direct set specs in binary order, joined by U+001F, null for none. */
  directSetsColumn(itemPk: string): string;
  /** A correlated subquery: an item's about containers in order, joined by U+001F, null for none. */
  aboutColumn(itemPk: string): string;
  /** A table of rows read from the single `?` it binds, a JSON array of arrays (./values.ts `jsonRowsParam`). */
  jsonRowsSql(columns: readonly JsonRowColumn[]): string;
  /** Moves a write-ahead log kept beside the store into it and empties it, where the database keeps one there. */
  checkpointLog(knex: Knex): Promise<void>;
  /** Brings the planner's statistics of `tables` up to date inside a long transaction, where the planner needs them. */
  refreshStatistics(knex: Knex, tables: readonly string[]): Promise<void>;
  /** Shrinks the page cache of temporary tables, where the database gives them one of their own; answers how to put it back. */
  smallTempCache(knex: Knex): Promise<() => Promise<void>>;
  /** The runner of prepared read statements whose rows are objects (`'objects'`) or arrays of columns (`'arrays'`). */
  statementRunner(knex: Knex): RunSql;
  arrayRunner(knex: Knex): RunSqlArrays;
  /**
   * Where rows are made one at a time as they are read (SQLite), a page of
   * records under a byte budget (../../store/read.ts) decided row by row in
   * the scan itself: `fitsSql` is true while the rows so far fit (the first
   * always does), so `CASE WHEN fits THEN r.xml END` never reads the metadata
   * of a row past the budget, and no sort or window is needed. Absent where
   * a query's rows are made before they are sent (PostgreSQL), which uses a
   * window over the page's sizes instead.
   */
  readonly budgeted?: {
    /** True while the page's rows, `itemPk` and the rows before it, fit; asked any number of times per row. */
    fitsSql(itemPk: string, size: string): string;
    runner(knex: Knex): RunBudgetedArrays;
  };
  /** Inserts many rows into one table, skipping those that conflict on `onConflictIgnore` when it is given. */
  insertRows(db: Knex, table: string, columns: readonly string[], rows: readonly (readonly unknown[])[], onConflictIgnore?: string): Promise<void>;
  /** Takes the store's publication lock for the write transaction `trx` (../publication.ts). */
  publicationLock(trx: Knex): Promise<PublicationLock>;
  /** Waits until no publication holds the lock (../publication.ts `settle`). */
  settle(knex: Knex): Promise<void>;
  /**
   * Where a long write stages what it decided before it takes the store's
   * write lock (../../store/staging.ts): the folder of a store with one
   * writer at a time (a SQLite file); null where writers do not wait for
   * each other's whole transactions (PostgreSQL) or there is no other
   * connection to let in (SQLite in memory).
   */
  stagingFolder(knex: Knex): string | null;
  /** Runs `work` in a transaction that never waits for a lock on this thread (../no-wait.ts). */
  writeNow<T>(knex: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
  /** Runs `fn` in a read-only transaction whose reads all see one snapshot (../snapshot.ts). */
  inSnapshot<T>(knex: Knex, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
  /** Takes a lock held by this session until released, or null when another holds it; absent where the database has none. */
  readonly sessionLock?: (knex: Knex, key: string) => Promise<AdvisoryLock | null>;
  /** The tables, columns and indexes of the schema `knex` reaches (knex's own tables left out). */
  schemaShape(knex: Knex): Promise<SchemaShape>;
  /** Makes an empty store of the same kind beside the one `knex` reaches. */
  scratchStore(knex: Knex, url: string): Promise<ScratchStore>;
}
