/**
 * The stores the benchmark makes, measures and throws away: a fresh store of
 * the kind DATABASE_URL names (a SQLite file in a temporary folder, or a
 * fresh PostgreSQL database beside the one named), its size on disk as
 * loaded and after VACUUM, and the database's version.
 *
 * The SQL here is the database's own housekeeping (sizes, VACUUM, version),
 * written apart from server/db/ on purpose: it measures the store, it is not
 * part of it.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createKnex, databaseKind, sqliteFilename } from '../server/db/connection';
import { down } from '../server/db/migrations/001_initial';

const log = (s: string): void => void process.stderr.write(`${s}\n`);

/** A store made for one step of the run. */
export interface FreshStore {
  readonly url: string;
  readonly label: string;
  drop(): Promise<void>;
}

/**
 * Makes an empty store of the kind `given` (DATABASE_URL) names: SQLite in
 * a temporary folder when it is not a PostgreSQL URL; else a fresh database
 * beside the named one or, without the right to create one, the named
 * database with its tables dropped. `drop` removes it unless `keep`.
 */
export async function freshStore(given: string | undefined, keep: boolean): Promise<FreshStore> {
  if (given && databaseKind(given) === 'postgres') {
    const name = `oai_bench_${crypto.randomBytes(4).toString('hex')}`;
    const admin = createKnex(given, { pool: { min: 0, max: 1 } });
    try {
      await admin.raw('CREATE DATABASE ??', [name]);
      const u = new URL(given);
      u.pathname = `/${name}`;
      const url = u.toString();
      return {
        url,
        label: `postgresql (${name})`,
        async drop() {
          if (keep) return log(`kept database ${url}`);
          const a = createKnex(given, { pool: { min: 0, max: 1 } });
          try {
            await a.raw('DROP DATABASE IF EXISTS ??', [name]);
          } finally {
            await a.destroy();
          }
        },
      };
    } catch (err) {
      // No right to create a database: empty the named one instead.
      log(`cannot create a database (${(err as Error).message}); dropping and recreating the tables of ${given}`);
      await down(admin);
      await admin.schema.dropTableIfExists('knex_migrations');
      await admin.schema.dropTableIfExists('knex_migrations_lock');
      return { url: given, label: 'postgresql', async drop() {} };
    } finally {
      await admin.destroy();
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-bench-'));
  const file = path.join(dir, 'bench.sqlite');
  return {
    url: `sqlite:${file}`,
    label: 'sqlite',
    async drop() {
      if (keep) return log(`kept database ${file}`);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Writes out the dirty pages of the page cache before a timed step, so a
 * measurement does not pay for the writeback of the step before it (or of
 * the NDJSON file just written): measured on 100,000 records, the load floor
 * ran at 24,839 records/s right after a load and at 35,136 after `sync`.
 */
export function settleDisk(): void {
  spawnSync('sync', { stdio: 'ignore' });
}

/** The part of pg's Client used here (pg ships no types, and @types/pg is not installed). */
interface PgClient {
  connect(): Promise<void>;
  query(text: string): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

async function withPg<T>(url: string, f: (c: PgClient) => Promise<T>): Promise<T> {
  const { Client } = require('pg') as { Client: new (o: { connectionString: string }) => PgClient };
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await f(client);
  } finally {
    await client.end();
  }
}

/** Every table of the store's schema, with its indexes and TOAST: what the store holds on disk. */
const PG_SIZE_SQL =
  "SELECT coalesce(sum(pg_total_relation_size(format('%I.%I', schemaname, tablename)::regclass)), 0)::bigint AS bytes FROM pg_tables WHERE schemaname = current_schema()";

function sqliteFiles(url: string): string[] {
  const file = sqliteFilename(url);
  return [file, `${file}-wal`, `${file}-shm`];
}

/**
 * Bytes the store takes on disk now: the SQLite file with its WAL and
 * shared-memory files, or every table of the PostgreSQL schema with its
 * indexes and TOAST (`pg_total_relation_size`).
 */
export async function storeBytes(url: string): Promise<number> {
  if (databaseKind(url) === 'sqlite') {
    return sqliteFiles(url).reduce((n, f) => n + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
  }
  return withPg(url, async (c) => Number((await c.query(PG_SIZE_SQL)).rows[0]?.bytes ?? 0));
}

/**
 * Compacts the store as an operator would after a load, and returns the
 * seconds it took: SQLite `VACUUM` and a checkpoint that truncates the WAL;
 * PostgreSQL `VACUUM FULL` of each of the store's tables (rewritten
 * without dead space) and `ANALYZE`. Nothing may be connected to the store meanwhile.
 */
export async function vacuumStore(url: string): Promise<number> {
  const started = process.hrtime.bigint();
  if (databaseKind(url) === 'sqlite') {
    const db = new Database(sqliteFilename(url));
    try {
      db.exec('VACUUM');
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
  } else {
    // Table by table, the store's own: a database shared with others is not locked as a whole.
    await withPg(url, async (c) => {
      const tables = (await c.query("SELECT format('%I.%I', schemaname, tablename) AS t FROM pg_tables WHERE schemaname = current_schema()")).rows;
      for (const { t } of tables) await c.query(`VACUUM FULL ${String(t)}`);
      for (const { t } of tables) await c.query(`ANALYZE ${String(t)}`);
    });
  }
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/**
 * The database's kind and version, for the run's machine record.
 *
 * @example await databaseVersion('sqlite:/tmp/a.sqlite') // { kind: 'sqlite', version: '3.50.4' }
 */
export async function databaseVersion(url: string): Promise<{ kind: 'sqlite' | 'postgresql'; version: string }> {
  if (databaseKind(url) === 'sqlite') {
    const db = new Database(':memory:');
    try {
      return { kind: 'sqlite', version: String(db.prepare('SELECT sqlite_version()').pluck().get()) };
    } finally {
      db.close();
    }
  }
  return { kind: 'postgresql', version: await withPg(url, async (c) => String((await c.query('SHOW server_version')).rows[0]?.server_version ?? '')) };
}
