/**
 * PostgreSQL (pg): where it differs.
 *
 * - Text compares by the database's locale unless a column is declared
 *   `COLLATE "C"`, which compares UTF-8 bytes (= code points).
 * - 65535 bound variables a statement; lists of values are bound as one
 *   array (`= ANY(?::int[])`), so a statement has one shape however many.
 * - Many writers at once; a lock wait is a wait on the network, which never
 *   holds the event loop. Advisory locks (PostgreSQL documentation, 9.27.10)
 *   serialize publication and keep one harvest of a source at a time.
 * - Autovacuum cannot see into a long transaction: a load refreshes the
 *   planner's statistics itself.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Dialect, PublicationLock, RunSql, RunSqlArrays, SchemaShape } from './types';
import { Utf8Text, VARIABLES_PER_STATEMENT, type JsonRowColumn } from './values';

interface PgConnection {
  query(q: { name: string; text: string; values: unknown[]; rowMode?: 'array' }): Promise<{ rows: unknown[] }>;
}
/** What of knex's client is used here. */
interface PoolClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(conn: unknown): Promise<unknown> | unknown;
}

/** The first key of the publication's advisory lock (the second is the schema's hash). */
const PG_LOCK_CLASS = 0x6f616970; // "oaip" in ASCII

const pgNames = new Map<string, { name: string; text: string }>();

/** A named prepared statement for SQL with `?` placeholders, numbered `$n` (pg keeps the parsed statement per connection). */
function pgStatement(sql: string): { name: string; text: string } {
  let q = pgNames.get(sql);
  if (!q) {
    let n = 0;
    // Our read SQL has no `?` inside literals, so every `?` is a placeholder.
    const text = sql.replace(/\?/g, () => `$${++n}`);
    q = { name: `oai_${crypto.createHash('sha1').update(text).digest('hex').slice(0, 16)}`, text };
    pgNames.set(sql, q);
  }
  return q;
}

/** Runs `sql` as a named prepared statement on a connection taken from knex's pool (a transaction's own, inside one). */
async function query(knex: Knex, sql: string, params: readonly unknown[], rowMode?: 'array'): Promise<unknown[]> {
  const client = knex.client as unknown as PoolClient;
  const q = pgStatement(sql);
  const conn = (await client.acquireConnection()) as PgConnection;
  try {
    return (await conn.query({ name: q.name, text: q.text, values: params as unknown[], ...(rowMode ? { rowMode } : {}) })).rows;
  } finally {
    await client.releaseConnection(conn);
  }
}

const NOTHING_TO_RELEASE: PublicationLock = { release: () => undefined };

/** knex's own tables: their shape is knex's business. */
const KNEX_TABLES = new Set(['knex_migrations', 'knex_migrations_lock']);

async function schemaShape(knex: Knex): Promise<SchemaShape> {
  const tables = new Map<string, string[]>();
  const indexes = new Map<string, string>();
  const cols = (await knex.raw(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, column_name`,
  )) as { rows: { table_name: string; column_name: string }[] };
  for (const r of cols.rows)
    if (!KNEX_TABLES.has(r.table_name)) (tables.get(r.table_name) ?? tables.set(r.table_name, []).get(r.table_name))?.push(r.column_name);
  const idx = (await knex.raw(`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()`)) as {
    rows: { tablename: string; indexname: string; indexdef: string }[];
  };
  for (const r of idx.rows) {
    if (KNEX_TABLES.has(r.tablename)) continue;
    // The definition names the schema (a throwaway one for the expected shape): only what follows ON … USING matters.
    indexes.set(r.indexname, `${r.tablename} ${r.indexdef.replace(/^.* USING /, '')}`);
  }
  return { tables, indexes };
}

/** Takes the session advisory lock `key` (a signed 64-bit integer, as a decimal string) on a connection of its own, without waiting. */
async function sessionLock(knex: Knex, key: string): Promise<{ release(): Promise<void> } | null> {
  const client = knex.client as { acquireConnection(): Promise<unknown>; releaseConnection(c: unknown): Promise<void> };
  const conn = await client.acquireConnection();
  let held = false;
  try {
    const r = (await knex.raw('SELECT pg_try_advisory_lock(?::bigint) AS ok', [key]).connection(conn)) as { rows: { ok: boolean }[] };
    held = r.rows[0]?.ok === true;
  } finally {
    if (!held) await client.releaseConnection(conn);
  }
  if (!held) return null;
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      try {
        await knex.raw('SELECT pg_advisory_unlock(?::bigint)', [key]).connection(conn);
      } finally {
        await client.releaseConnection(conn);
      }
    },
  };
}

export const postgres: Dialect = {
  name: 'postgres',
  types: { text: 'text', binaryText: 'text COLLATE "C"', bigint: 'bigint' },
  tempSchema: 'pg_temp',
  binaryTextColumn: (table, name) => table.specificType(name, 'text COLLATE "C"'),
  rowsPerInsert: (columns) => Math.max(1, Math.floor(VARIABLES_PER_STATEMENT / Math.max(1, columns))),
  inListSql: (column, type = 'int') => `${column} = ANY(?::${type}[])`,
  inListParam: (values) => values,
  valuesSql: () => 'SELECT unnest(?::text[])',
  tempIndexSql: (name, column) => `CREATE INDEX ON pg_temp.${name} (${column})`,
  directSetsColumn: (itemPk) => `(SELECT string_agg(spec, chr(31) ORDER BY spec) FROM item_sets WHERE item_pk = ${itemPk} AND direct AND departed IS NULL)`,
  aboutColumn: (itemPk) => `(SELECT string_agg(xml, chr(31) ORDER BY position) FROM item_about WHERE item_pk = ${itemPk})`,
  jsonRowsSql(columns: readonly JsonRowColumn[]) {
    const cols = columns.map(([name, type], i) => `${type === 'int' ? `(e->>${i})::bigint` : `e->>${i}`} AS ${name}`);
    return `(SELECT ${cols.join(', ')} FROM json_array_elements(?::json) AS e)`;
  },
  // PostgreSQL keeps its own log.
  checkpointLog: async () => undefined,
  async refreshStatistics(knex, tables) {
    await knex.raw(`ANALYZE ${tables.join(', ')}`);
  },
  // Temporary tables share the session's buffers.
  smallTempCache: async () => async () => undefined,
  statementRunner(knex): RunSql {
    return async <T>(sql: string, params: readonly unknown[]) => (await query(knex, sql, params)) as T[];
  },
  arrayRunner(knex): RunSqlArrays {
    return async <T extends readonly unknown[]>(sql: string, params: readonly unknown[]) => (await query(knex, sql, params, 'array')) as T[];
  },
  async insertRows(db, table, columns, rows, onConflictIgnore) {
    // Multi-row INSERTs of as many rows as the bound-variable limit allows.
    const per = postgres.rowsPerInsert(columns.length);
    for (let i = 0; i < rows.length; i += per) {
      const part = rows.slice(i, i + per).map((r) => Object.fromEntries(columns.map((c, j) => [c, r[j] instanceof Utf8Text ? String(r[j]) : r[j]])));
      const q = db(table).insert(part);
      await (onConflictIgnore ? q.onConflict(onConflictIgnore).ignore() : q);
    }
  },
  // Writers do not wait for each other's transactions here, only for rows both write: nothing to stage.
  stagingFolder: () => null,
  async publicationLock(trx) {
    // Held to the transaction's end: released by its commit or rollback.
    await trx.raw('SELECT pg_advisory_xact_lock(?, hashtext(current_schema()))', [PG_LOCK_CLASS]);
    return NOTHING_TO_RELEASE;
  },
  async settle(knex) {
    // One statement, its own transaction: the shared lock is taken (after any publication holding it) and let go.
    await knex.raw('SELECT pg_advisory_xact_lock_shared(?, hashtext(current_schema()))', [PG_LOCK_CLASS]);
  },
  writeNow: (knex, work) => knex.transaction(work),
  inSnapshot(knex, fn) {
    return knex.transaction(async (trx) => {
      await trx.raw('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      // The first read fixes the snapshot.
      await trx.raw('SELECT count(*) AS n FROM items');
      return fn(trx);
    });
  },
  sessionLock,
  schemaShape,
  async scratchStore(knex, url) {
    // A throwaway schema of the same database, dropped after: the only thing doctor writes, and it leaves nothing.
    const schema = `oai_steward_doctor_${crypto.randomBytes(6).toString('hex')}`;
    await knex.raw('CREATE SCHEMA ??', [schema]);
    return {
      url,
      options: { searchPath: schema, pool: { min: 0, max: 1 } },
      drop: async () => {
        await knex.raw('DROP SCHEMA ?? CASCADE', [schema]);
      },
    };
  },
};
