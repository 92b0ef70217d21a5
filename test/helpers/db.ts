/**
 * The one way tests get a throwaway store: SQLite always, PostgreSQL when
 * TEST_DATABASE_URL is set. A throwaway database is a
 * temporary SQLite file, or a PostgreSQL schema named in the URL's
 * `search_path` and dropped afterwards; either way it has a URL, so the test
 * process, a CLI child process or a server can all open it. When
 * TEST_DATABASE_URL is set but PostgreSQL cannot be reached, the block fails
 * loudly; it never skips.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Knex } from 'knex';
import { createKnex, sqliteFilename } from '../../server/db/connection';
import { migrate, migrationSource, migrationStatus } from '../../server/db/migrations';
import { KnexStore } from '../../server/store/knex-store';
import { type KnexStoreOptions } from '../../server/store/knex-store-options';
import { createIdPolicy } from '../../lib/ids/policy';

/** The namespace-identifier the test stores publish under. */
export const TEST_NAMESPACE = 'test.example.org';

/** The kinds of database this environment tests. */
export type DatabaseKind = 'sqlite' | 'postgres';

/** A throwaway database, empty (not migrated) when opened. */
export interface ThrowawayDatabase {
  readonly name: DatabaseKind;
  /** DATABASE_URL for this database, for other processes and for openProvider. */
  readonly url: string;
  /** A temporary folder of its own, for input files and the like. */
  readonly dir: string;
  /** A knex on it, opened on first use and closed with the database. */
  knex(): Knex;
  /** Closes the knex, drops the database and removes the folder. */
  close(): Promise<void>;
}

/** The kinds of database the suite runs against here: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function databaseKinds(): readonly DatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

/**
 * Opens an empty throwaway database of a kind.
 *
 * @example const db = await openThrowawayDatabase('sqlite'); try { … db.url … } finally { await db.close(); }
 */
export async function openThrowawayDatabase(kind: DatabaseKind): Promise<ThrowawayDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-test-'));
  let url = `sqlite:${path.join(dir, 'store.sqlite')}`;
  let drop = async (): Promise<void> => {};
  if (kind === 'postgres') {
    const base = process.env.TEST_DATABASE_URL as string;
    const schema = `oai_test_${crypto.randomBytes(6).toString('hex')}`;
    const admin = createKnex(base, { pool: { min: 0, max: 1 } });
    try {
      await admin.raw('CREATE SCHEMA ??', [schema]);
    } catch (err) {
      await admin.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error(`TEST_DATABASE_URL is set but PostgreSQL is unreachable (${base}): ${(err as Error).message}`, { cause: err });
    }
    url = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    drop = async () => {
      try {
        await admin.raw('DROP SCHEMA ?? CASCADE', [schema]);
      } finally {
        await admin.destroy();
      }
    };
  }
  let knex: Knex | undefined;
  return {
    name: kind,
    url,
    dir,
    knex() {
      knex ??= createKnex(url, { pool: { min: 0, max: 4 } });
      return knex;
    },
    async close() {
      await knex?.destroy();
      knex = undefined;
      await drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Migrates a database through every migration listed before `name`, one at
 * a time, and no further: the schema of the release before the one that
 * brings `name`, for an upgrade test to write into as that release wrote.
 *
 * @example await migrateToBefore(knex, '017_record_hashes'); // …write as the previous release did…; await migrate(knex);
 */
export async function migrateToBefore(knex: Knex, name: string): Promise<void> {
  const names = (await migrationSource.getMigrations([])).map((m) => migrationSource.getMigrationName(m));
  const before = names[names.indexOf(name) - 1];
  if (!names.includes(name) || before === undefined) throw new Error(`no migration is listed before ${name}`);
  while (!(await migrationStatus(knex)).applied.includes(before)) await knex.migrate.up({ migrationSource });
}

/**
 * Defines `describe('on <database>')` per database; each test gets a fresh,
 * empty throwaway database (for a CLI or a server to migrate), closed after it.
 *
 * @example forEachThrowawayDatabase((db) => { it('loads', async () => { spawnCli(db().url, …); }); });
 */
export function forEachThrowawayDatabase(
  body: (db: () => ThrowawayDatabase, kind: DatabaseKind) => void,
  options: { migrated?: boolean; migratedBefore?: string; timeout?: number } = {},
): void {
  for (const kind of databaseKinds()) {
    describe(`on ${kind}`, function () {
      if (options.timeout !== undefined) this.timeout(options.timeout);
      let current: ThrowawayDatabase | undefined;
      beforeEach(async function () {
        current = await openThrowawayDatabase(kind);
        if (options.migratedBefore !== undefined) await migrateToBefore(current.knex(), options.migratedBefore);
        else if (options.migrated) await migrate(current.knex());
      });
      afterEach(async function () {
        await current?.close();
        current = undefined;
      });
      body(() => {
        if (!current) throw new Error('no database outside a test');
        return current;
      }, kind);
    });
  }
}

/** What a test inside {@link forEachDatabase} can reach. */
export interface TestDatabase {
  /** `sqlite` or `postgres`. */
  readonly name: string;
  /** The fresh database of the running test, migrated to the latest schema (or as {@link forEachDatabase} was told). */
  knex(): Knex;
  /**
   * A store on it with the real id policy (`auto` mode, {@link TEST_NAMESPACE});
   * override any option, e.g. the clock or the format checks.
   */
  store(options?: Partial<Omit<KnexStoreOptions, 'knex'>>): KnexStore;
}

/**
 * Defines `describe('on <database>')` for each database and calls `body`
 * inside it; each test gets a fresh, migrated database and a store on it
 * (with `migratedBefore`, a store as the release before that migration made
 * it, to upgrade).
 *
 * @example
 * forEachDatabase((db) => {
 *   it('stores an item', async () => { await db.store().writeItems([...]); });
 * });
 */
export function forEachDatabase(body: (db: TestDatabase) => void, schema: { migratedBefore?: string } = {}): void {
  forEachThrowawayDatabase(
    (current, kind) => {
      body({
        name: kind,
        knex: () => current().knex(),
        store: (options = {}) => new KnexStore({ knex: current().knex(), policy: createIdPolicy({ namespace: TEST_NAMESPACE, mode: 'auto' }), ...options }),
      });
    },
    { migrated: true, ...schema },
  );
}

/** Writes held back by {@link holdWrites} until `release`. */
export interface HeldWrites {
  /** Whether the writes are still held (false once let go, by `release` or at the bound). */
  held(): boolean;
  /** Lets the writes go (the holding transaction ends, writing nothing) and closes its connection. */
  release(): Promise<void>;
}

/**
 * What runs the SQLite hold on a thread of its own: the write lock taken by
 * BEGIN IMMEDIATE, then held until the test thread sets `flags[1]` or
 * `boundMs` passes (Atomics.wait, on that thread only); `flags[0]` says 1
 * while held, 2 once let go.
 */
const SQLITE_HOLDER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const flags = new Int32Array(workerData.flags);
const db = new Database(workerData.file);
db.exec('BEGIN IMMEDIATE');
Atomics.store(flags, 0, 1);
parentPort.postMessage('held');
Atomics.wait(flags, 1, 0, workerData.boundMs);
db.exec('ROLLBACK');
db.close();
Atomics.store(flags, 0, 2);
`;

/**
 * Holds writes to `tables` from another connection, in an open transaction,
 * as a long write of another process would: on SQLite the database's write
 * lock (one for the whole file, whatever the tables), taken on a thread of
 * its own, so it is let go when `release` says or after `boundMs` (default
 * 30 s) whatever this thread does, even if this thread is stuck in SQLite's
 * busy handler; on PostgreSQL an EXCLUSIVE lock on each table (reads go on,
 * writes wait), from this thread (a lock wait there never holds it).
 *
 * @example const held = await holdWrites(db(), ['store_holders']); try { … } finally { await held.release(); }
 */
export async function holdWrites(db: ThrowawayDatabase, tables: readonly string[], options: { boundMs?: number } = {}): Promise<HeldWrites> {
  if (db.name === 'sqlite') {
    const flags = new Int32Array(new SharedArrayBuffer(8));
    const worker = new Worker(SQLITE_HOLDER, {
      eval: true,
      workerData: { driver: require.resolve('better-sqlite3'), file: sqliteFilename(db.url), flags: flags.buffer, boundMs: options.boundMs ?? 30_000 },
    });
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
    return {
      held: () => Atomics.load(flags, 0) === 1,
      async release() {
        Atomics.store(flags, 1, 1);
        Atomics.notify(flags, 1);
        await exited;
      },
    };
  }
  const other = createKnex(db.url, { pool: { min: 0, max: 1 } });
  const trx = await other.transaction();
  try {
    for (const t of tables) await trx.raw('LOCK TABLE ?? IN EXCLUSIVE MODE', [t]);
  } catch (err) {
    await trx.rollback().catch(() => undefined);
    await other.destroy();
    throw err;
  }
  let released = false;
  return {
    held: () => !released,
    async release() {
      if (released) return;
      released = true;
      try {
        await trx.rollback();
      } finally {
        await other.destroy();
      }
    },
  };
}
