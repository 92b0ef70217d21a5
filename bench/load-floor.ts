/**
 * The floor of a load: the least work the database itself must do to hold
 * the records the benchmark loaded. Every row the write path wrote (items,
 * the identifier registry, records, set memberships, about containers, record
 * fields) is copied from the loaded store into a fresh store of the same
 * schema, with the driver alone (better-sqlite3 for SQLite, pg for
 * PostgreSQL), a batch of 1,000 items at a time, all in one transaction, as
 * `oai-steward load` writes: no parsing, no crosswalk, no rule, no hash, no
 * governance read. Only the inserts and the commit are timed (reading the
 * source is not). No loader on this schema and database can go above this
 * rate; the load's ratio to it says how much the write path adds.
 *
 * The SQL is written here on purpose, apart from server/db/: it measures the
 * database, not the project's store.
 */
import Database from 'better-sqlite3';
import { databaseKind, sqliteFilename } from '../server/db/connection';

/** The part of pg's Client used here (pg ships no types, and @types/pg is not installed). */
interface PgClient {
  connect(): Promise<void>;
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; fields: { name: string }[] }>;
  end(): Promise<void>;
}

/** What the copy took. */
export interface LoadFloorFigures {
  readonly items: number;
  /** Rows inserted, all tables. */
  readonly rows: number;
  /** Seconds spent in the inserts and the commit. */
  readonly seconds: number;
}

/** The tables a load writes, and how the rows of one batch of items are found in each. */
const TABLES: readonly { readonly name: string; readonly batch: string }[] = [
  { name: 'items', batch: 'SELECT * FROM items WHERE pk > ? AND pk <= ? ORDER BY pk' },
  { name: 'identifiers', batch: 'SELECT g.* FROM identifiers g JOIN items i ON i.internal_id = g.internal_id WHERE i.pk > ? AND i.pk <= ?' },
  { name: 'records', batch: 'SELECT * FROM records WHERE item_pk > ? AND item_pk <= ?' },
  { name: 'item_sets', batch: 'SELECT * FROM item_sets WHERE item_pk > ? AND item_pk <= ?' },
  { name: 'item_about', batch: 'SELECT * FROM item_about WHERE item_pk > ? AND item_pk <= ?' },
  { name: 'record_fields', batch: 'SELECT * FROM record_fields WHERE item_pk > ? AND item_pk <= ?' },
];

const BATCH = 1000;

/** One side of the copy: reads a batch from the source, inserts rows into the target. */
interface Copier {
  maxPk(): Promise<number>;
  read(table: (typeof TABLES)[number], lo: number, hi: number): Promise<{ columns: string[]; rows: unknown[][] }>;
  insert(table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void>;
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Copies the store at `sourceUrl` (just loaded; a SQLite file or a
 * PostgreSQL URL) into the empty, migrated store at `targetUrl` and returns
 * the rate of the inserts and the commit.
 *
 * @example const f = await measureLoadFloor('sqlite:/tmp/a.sqlite', 'sqlite:/tmp/b.sqlite'); f.items / f.seconds
 */
export async function measureLoadFloor(sourceUrl: string, targetUrl: string): Promise<LoadFloorFigures> {
  const copier =
    databaseKind(sourceUrl) === 'sqlite' ? sqliteCopier(sqliteFilename(sourceUrl), sqliteFilename(targetUrl)) : await pgCopier(sourceUrl, targetUrl);
  let spent = 0n;
  const timed = async (f: () => Promise<void>): Promise<void> => {
    const started = process.hrtime.bigint();
    await f();
    spent += process.hrtime.bigint() - started;
  };
  let rows = 0;
  let items = 0;
  try {
    const max = await copier.maxPk();
    await timed(() => copier.exec('BEGIN'));
    for (let lo = 0; lo < max; lo += BATCH) {
      const batch: { table: string; columns: string[]; rows: unknown[][] }[] = [];
      for (const t of TABLES) batch.push({ table: t.name, ...(await copier.read(t, lo, lo + BATCH)) });
      await timed(async () => {
        for (const b of batch) await copier.insert(b.table, b.columns, b.rows);
      });
      rows += batch.reduce((n, b) => n + b.rows.length, 0);
      items += batch[0]?.rows.length ?? 0;
    }
    await timed(() => copier.exec('COMMIT'));
    return { items, rows, seconds: Number(spent) / 1e9 };
  } finally {
    await copier.close();
  }
}

/** SQLite: one prepared single-row INSERT run per row (better-sqlite3's fastest way), the pragmas the store uses. */
function sqliteCopier(sourceFile: string, targetFile: string): Copier {
  const source = new Database(sourceFile, { readonly: true });
  const target = new Database(targetFile);
  for (const p of ['journal_mode = WAL', 'synchronous = NORMAL', 'foreign_keys = ON']) target.pragma(p);
  const inserts = new Map<string, Database.Statement>();
  return {
    maxPk: async () => Number(source.prepare('SELECT coalesce(max(pk), 0) FROM items').pluck().get()),
    read: async (t, lo, hi) => {
      const stmt = source.prepare(t.batch).raw(true);
      return { columns: stmt.columns().map((c) => c.name), rows: stmt.all(lo, hi) as unknown[][] };
    },
    insert: async (table, columns, rows) => {
      if (rows.length === 0) return;
      const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
      let stmt = inserts.get(sql);
      if (!stmt) inserts.set(sql, (stmt = target.prepare(sql)));
      for (const r of rows) stmt.run(r);
    },
    exec: async (sql) => void target.exec(sql),
    close: async () => {
      source.close();
      target.close();
    },
  };
}

/** PostgreSQL: multi-row INSERTs of a whole batch per table, under the 65,535 bound-variable limit. */
async function pgCopier(sourceUrl: string, targetUrl: string): Promise<Copier> {
  const { Client } = require('pg') as { Client: new (o: { connectionString: string }) => PgClient };
  const source = new Client({ connectionString: sourceUrl });
  const target = new Client({ connectionString: targetUrl });
  await source.connect();
  await target.connect();
  return {
    maxPk: async () => Number(((await source.query('SELECT coalesce(max(pk), 0) AS m FROM items')).rows[0] as { m: string }).m),
    read: async (t, lo, hi) => {
      let n = 0;
      const r = await source.query(
        t.batch.replace(/\?/g, () => `$${++n}`),
        [lo, hi],
      );
      const columns = r.fields.map((f) => f.name);
      return { columns, rows: (r.rows as Record<string, unknown>[]).map((row) => columns.map((c) => row[c])) };
    },
    insert: async (table, columns, rows) => {
      const per = Math.max(1, Math.floor(60000 / columns.length));
      for (let i = 0; i < rows.length; i += per) {
        const part = rows.slice(i, i + per);
        const values = part.map((_, k) => `(${columns.map((__, j) => `$${k * columns.length + j + 1}`).join(', ')})`).join(', ');
        await target.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values}`, part.flat());
      }
    },
    exec: async (sql) => void (await target.query(sql)),
    close: async () => {
      await source.end();
      await target.end();
    },
  };
}
