/**
 * SQLite (better-sqlite3, through ../sqlite-client.ts): where it differs.
 *
 * - Text compares with memcmp by default (BINARY collation): bytewise order
 *   of UTF-8, which is code point order.
 * - 32766 bound variables a statement, and knex writes a multi-row insert as
 *   `SELECT … UNION ALL SELECT …`, under the 500-term compound SELECT limit.
 * - One writer at a time; better-sqlite3 is synchronous, so a lock wait
 *   sleeps on this thread unless the busy timeout is 0 (../no-wait.ts).
 * - Lists of values are bound as one JSON text and read with `json_each`,
 *   so a statement has one shape however many there are.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import type { Knex } from 'knex';
import { isSqliteBusy, SQLITE_WAIT_MS } from '../sqlite-client';
import type { Dialect, PublicationLock, RunBudgetedArrays, RunSql, RunSqlArrays, SchemaShape } from './types';
import { toInt, Utf8Text, VARIABLES_PER_STATEMENT, type JsonRowColumn } from './values';

interface SqliteStatement {
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): unknown;
  raw(on: boolean): SqliteStatement;
}
interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  function(name: string, options: { deterministic: boolean }, fn: (...args: unknown[]) => unknown): unknown;
  pragma(source: string, options?: { simple: boolean }): unknown;
}
/** What of knex's client is used here. */
interface PoolClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(conn: unknown): Promise<unknown> | unknown;
}

const prepared = new WeakMap<object, Map<string, SqliteStatement>>();
const preparedArrays = new WeakMap<object, Map<string, SqliteStatement>>();

/** The statement prepared once per connection and SQL text, kept in `cacheOf`; those kept in `preparedArrays` are in raw mode (rows as arrays). */
function statementOf(conn: SqliteConnection & object, sql: string, cacheOf = prepared): SqliteStatement {
  let cache = cacheOf.get(conn);
  if (!cache) cacheOf.set(conn, (cache = new Map()));
  let stmt = cache.get(sql);
  if (!stmt) {
    stmt = conn.prepare(sql);
    if (cacheOf === preparedArrays) stmt.raw(true);
    cache.set(sql, stmt);
  }
  return stmt;
}

/** better-sqlite3 binds numbers, strings, bigints, buffers and null; booleans become 1/0. */
function sqliteValue(v: unknown): unknown {
  return typeof v === 'boolean' ? (v ? 1 : 0) : v instanceof Utf8Text ? v.bytes : v;
}

/**
 * The page being read under a budget. better-sqlite3 runs a statement to its
 * end synchronously, on this thread, so at most one page is read at a time
 * and the function below sees only its rows, in the order the scan makes
 * them (an ordered index range, no sort: ../../store/list-sql.ts).
 */
let page: { budget: number; bytes: number; decided: unknown[]; fits: boolean } | undefined;

/** The SQL function that decides, a row at a time, whether a page's rows still fit its budget. */
const FITS_FUNCTION = 'oai_page_fits';
const withFits = new WeakSet<object>();

function withFitsFunction(conn: SqliteConnection & object): void {
  if (withFits.has(conn)) return;
  // Asked once per column that depends on it: a row is counted when its pk is first seen (a list has an item once).
  conn.function(FITS_FUNCTION, { deterministic: false }, (pk: unknown, size: unknown) => {
    if (page === undefined) throw new Error(`${FITS_FUNCTION} outside a page read under a budget`);
    const n = page.decided.length;
    if (n > 0 && pk === page.decided[n - 1]) return page.fits ? 1 : 0;
    page.decided.push(pk);
    page.bytes += Number(size);
    // Once one row is past the budget the page ends before it, whatever fits after.
    page.fits = page.fits && (n === 0 || page.bytes <= page.budget);
    return page.fits ? 1 : 0;
  });
  withFits.add(conn);
}

/** Runs `fn` on a connection taken from knex's pool (a transaction's own, inside one), given back after. */
async function onConnection<T>(knex: Knex, fn: (conn: SqliteConnection & object) => T): Promise<T> {
  const client = knex.client as unknown as PoolClient;
  const conn = (await client.acquireConnection()) as SqliteConnection & object;
  try {
    return fn(conn);
  } finally {
    await client.releaseConnection(conn);
  }
}

/** The store's file, or null for a store in memory (which has no other connection to lock out). */
function sqliteFile(knex: Knex): string | null {
  const connection = (knex.client as { config?: { connection?: { filename?: string } } }).config?.connection;
  const file = connection?.filename;
  return file === undefined || file === ':memory:' ? null : file;
}

const NOTHING_TO_RELEASE: PublicationLock = { release: () => undefined };

/** Takes the publication lock: the write lock of `<file>-publish`, on a connection opened for it, waiting without blocking. */
async function fileLock(file: string): Promise<PublicationLock> {
  const db = new Database(`${file}-publish`, { timeout: 0 });
  const deadline = Date.now() + SQLITE_WAIT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, 20)) {
    try {
      db.exec('BEGIN IMMEDIATE');
      break;
    } catch (err) {
      if (!isSqliteBusy(err) || Date.now() >= deadline) {
        db.close();
        throw err;
      }
      await new Promise<void>((resolve) => setTimeout(resolve, pause));
    }
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      try {
        db.exec('ROLLBACK');
      } finally {
        db.close();
      }
    },
  };
}

/** knex's own tables: their shape is knex's business. */
const KNEX_TABLES = new Set(['knex_migrations', 'knex_migrations_lock']);

async function schemaShape(knex: Knex): Promise<SchemaShape> {
  const tables = new Map<string, string[]>();
  const indexes = new Map<string, string>();
  const names = (await knex.raw(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)) as { name: string }[];
  for (const { name } of names) {
    if (KNEX_TABLES.has(name)) continue;
    const cols = (await knex.raw(`SELECT name FROM pragma_table_info(?)`, [name])) as { name: string }[];
    tables.set(
      name,
      cols.map((c) => c.name),
    );
    const list = (await knex.raw(`SELECT name, "unique" AS u FROM pragma_index_list(?)`, [name])) as { name: string; u: number }[];
    for (const i of list) {
      // SQLite names the indexes of a primary key and of UNIQUE constraints itself, after the table: compare them by what they cover.
      const info = (await knex.raw(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`, [i.name])) as { name: string }[];
      const key = i.name.startsWith('sqlite_autoindex_') ? `${name}(${info.map((c) => c.name).join(',')})` : i.name;
      indexes.set(key, `${name} ${toInt(i.u) === 1 ? 'unique ' : ''}(${info.map((c) => c.name).join(', ')})`);
    }
  }
  return { tables, indexes };
}

export const sqlite: Dialect = {
  name: 'sqlite',
  types: { text: 'TEXT', binaryText: 'TEXT', bigint: 'INTEGER' },
  tempSchema: 'temp',
  binaryTextColumn: (table, name) => table.text(name),
  rowsPerInsert: (columns) => Math.min(450, Math.max(1, Math.floor(VARIABLES_PER_STATEMENT / Math.max(1, columns)))),
  inListSql: (column) => `${column} IN (SELECT value FROM json_each(?))`,
  inListParam: (values) => JSON.stringify(values),
  valuesSql: () => 'SELECT value FROM json_each(?)',
  tempIndexSql: (name, column) => `CREATE INDEX temp.${name}_${column} ON ${name} (${column})`,
  // group_concat(… ORDER BY …) is SQLite 3.44's.
  directSetsColumn: (itemPk) => `(SELECT group_concat(spec, char(31) ORDER BY spec) FROM item_sets WHERE item_pk = ${itemPk} AND direct AND departed IS NULL)`,
  aboutColumn: (itemPk) => `(SELECT group_concat(xml, char(31) ORDER BY position) FROM item_about WHERE item_pk = ${itemPk})`,
  jsonRowsSql(columns: readonly JsonRowColumn[]) {
    const cols = columns.map(([name], i) => `json_extract(value, '$[${i}]') AS ${name}`);
    return `(SELECT ${cols.join(', ')} FROM json_each(?))`;
  },
  async checkpointLog(knex) {
    // After an interrupted load the log can hold hundreds of megabytes of pages written and rolled back,
    // which the next process would otherwise read through.
    await knex.raw('PRAGMA wal_checkpoint(TRUNCATE)');
  },
  // SQLite plans these lookups by their indexes without statistics.
  refreshStatistics: async () => undefined,
  async smallTempCache(knex) {
    // SQLite gives the temporary database a page cache as large as the main one's (16 MB in better-sqlite3's
    // build); 2 MiB (a negative cache_size is in KiB) is enough for appending ids and keeps a load of millions
    // of records a few megabytes smaller.
    const before = ((await knex.raw('PRAGMA temp.cache_size')) as { cache_size: number }[])[0]?.cache_size;
    await knex.raw('PRAGMA temp.cache_size = -2048');
    return async () => {
      if (typeof before === 'number') await knex.raw(`PRAGMA temp.cache_size = ${before}`);
    };
  },
  statementRunner(knex): RunSql {
    return async <T>(sql: string, params: readonly unknown[]) => onConnection(knex, (conn) => statementOf(conn, sql).all(...params.map(sqliteValue)) as T[]);
  },
  arrayRunner(knex): RunSqlArrays {
    return async <T extends readonly unknown[]>(sql: string, params: readonly unknown[]) =>
      onConnection(knex, (conn) => statementOf(conn, sql, preparedArrays).all(...params.map(sqliteValue)) as T[]);
  },
  budgeted: {
    fitsSql: (itemPk, size) => `${FITS_FUNCTION}(${itemPk}, ${size})`,
    runner(knex): RunBudgetedArrays {
      return async <T extends readonly unknown[]>(sql: string, params: readonly unknown[], budget: number) =>
        onConnection(knex, (conn) => {
          withFitsFunction(conn);
          const decided: unknown[] = [];
          page = { budget, bytes: 0, decided, fits: true };
          try {
            const rows = statementOf(conn, sql, preparedArrays).all(...params.map(sqliteValue)) as T[];
            // Decided in the order the rows are sent, as an ordered scan makes them; a plan that sorted would not be.
            return rows.length === decided.length && rows.every((r, i) => r[0] === decided[i]) ? rows : null;
          } finally {
            page = undefined;
          }
        });
    },
  },
  async insertRows(db, table, columns, rows, onConflictIgnore) {
    // One prepared single-row INSERT run per row: inside the caller's transaction the fastest way SQLite has
    // (knex's multi-row form is a `UNION ALL` compiled anew each time).
    if (rows.length === 0) return;
    // A column given text as UTF-8 bytes is cast, so SQLite stores TEXT, not a BLOB (./values.ts `Utf8Text`).
    const bytes = columns.map((_, j) => rows.some((r) => r[j] instanceof Utf8Text));
    const sql =
      `INSERT${onConflictIgnore ? ' OR IGNORE' : ''} INTO ${table} (${columns.join(', ')}) ` +
      `VALUES (${columns.map((_, j) => (bytes[j] ? 'CAST(? AS TEXT)' : '?')).join(', ')})`;
    await onConnection(db, (conn) => {
      const stmt = statementOf(conn, sql);
      for (const r of rows) stmt.run(...r.map(sqliteValue));
    });
  },
  async publicationLock(trx) {
    const file = sqliteFile(trx);
    return file === null ? NOTHING_TO_RELEASE : fileLock(file);
  },
  async settle(knex) {
    const file = sqliteFile(knex);
    if (file !== null) (await fileLock(file)).release();
  },
  stagingFolder(knex) {
    const file = sqliteFile(knex);
    return file === null ? null : path.dirname(path.resolve(file));
  },
  async writeNow(knex, work) {
    // The connection is taken from the pool for the whole transaction, so the busy timeout is 0 for this work
    // only, and given back as it was (whatever ../connection.ts or a caller set) before any other query of this
    // process runs on it.
    const client = knex.client as PoolClient;
    const conn = (await client.acquireConnection()) as SqliteConnection;
    const waits = Number(conn.pragma('busy_timeout', { simple: true }));
    try {
      conn.pragma('busy_timeout = 0');
      return await knex.transaction(work, { connection: conn });
    } finally {
      conn.pragma(`busy_timeout = ${Number.isInteger(waits) && waits >= 0 ? waits : 0}`);
      await client.releaseConnection(conn);
    }
  },
  inSnapshot(knex, fn) {
    return knex.transaction(
      async (trx) => {
        // The first read fixes the snapshot.
        await trx.raw('SELECT count(*) AS n FROM items');
        return fn(trx);
      },
      // A deferred transaction (../sqlite-client.ts), which holds no writer off while the snapshot is read.
      { readOnly: true },
    );
  },
  schemaShape,
  scratchStore: async () => ({ url: ':memory:', options: {}, drop: async () => undefined }),
};
