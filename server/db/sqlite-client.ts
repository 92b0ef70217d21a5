/**
 * knex's better-sqlite3 client with the two changes that let several
 * processes write one SQLite file without failing (SQLite documentation,
 * "Transaction" and "Write-Ahead Logging"):
 *
 * - a write transaction takes the write lock up front (`BEGIN IMMEDIATE`): a
 *   deferred transaction that reads first and writes later fails at its first
 *   write with SQLITE_BUSY ("database is locked") whenever another connection
 *   committed in between, and no busy timeout helps it, since its snapshot is
 *   already stale. A transaction knex is asked to make read-only stays deferred
 *   (a snapshot for reading must not hold writers off);
 * - a statement outside a transaction that finds the file locked (the
 *   `BEGIN IMMEDIATE` above, or a single write) waits for it by yielding to the
 *   event loop and trying again, instead of better-sqlite3's busy timeout, which
 *   blocks the whole process (a server would stop answering while it waits).
 *
 * Inside a transaction nothing waits: the write lock is already held. Nor
 * does a connection whose busy timeout a caller set to 0 (./no-wait.ts).
 *
 * A wait longer than a moment is told to whoever watches the knex instance
 * ({@link watchLockWaits}): a command that sits behind another process's long
 * write says so, rather than looking hung.
 */
import path from 'node:path';
import type { Knex } from 'knex';

/** The longest a writer waits for another to release the file: an hour, longer than any load this store is sized for. */
export const SQLITE_WAIT_MS = 60 * 60 * 1000;

/** The longest single pause between two tries. */
const MAX_PAUSE_MS = 50;

/** A wait is told once it has lasted this long (a commit of another process's page takes milliseconds), */
export const FIRST_NOTICE_MS = 2000;
/** and again every this long while it lasts. */
export const NOTICE_EVERY_MS = 60_000;

/** A statement waiting for another connection's write lock: how long so far, and whether it has it now. */
export interface LockWait {
  readonly waitedMs: number;
  readonly acquired: boolean;
}

type LockWaitWatcher = (wait: LockWait) => void;

/**
 * The watchers of waits, by the SQLite file waited for (better-sqlite3's `name` of a connection). Not by
 * knex's client: knex makes other clients, with copies of the configuration, for transactions and for
 * its migrator (knex 3, `makeTxClient`, `withUserParams`).
 */
const watchers = new Map<string, Set<LockWaitWatcher>>();

/**
 * Calls `watcher` when a statement of `knex` has waited {@link FIRST_NOTICE_MS}
 * for another connection's write lock, every {@link NOTICE_EVERY_MS} after, and
 * once more when it gets the lock after such a notice. Returns the function
 * that stops watching. A watcher that throws is ignored: telling must never
 * fail a write.
 *
 * @example const stop = watchLockWaits(knex, (w) => console.error(w.acquired ? 'going on' : `waiting ${w.waitedMs} ms`));
 */
export function watchLockWaits(knex: Knex, watcher: LockWaitWatcher): () => void {
  const filename = (knex.client as { config: { connection?: { filename?: unknown } } }).config.connection?.filename;
  if (typeof filename !== 'string') return () => undefined;
  const key = path.resolve(filename);
  const set = watchers.get(key) ?? new Set<LockWaitWatcher>();
  watchers.set(key, set);
  set.add(watcher);
  return () => {
    set.delete(watcher);
    if (set.size === 0 && watchers.get(key) === set) watchers.delete(key);
  };
}

function tell(connection: BetterSqliteConnection, wait: LockWait): void {
  for (const w of watchers.get(path.resolve(connection.name)) ?? []) {
    try {
      w(wait);
    } catch {
      // See watchLockWaits.
    }
  }
}

interface BetterSqliteConnection {
  /** The file the connection opened, as it was given. */
  readonly name: string;
  readonly inTransaction: boolean;
  pragma(source: string, options?: { simple: boolean }): unknown;
}

interface TransactionLike {
  readonly readOnly?: boolean;
  query(conn: unknown, sql: string): Promise<unknown>;
}

type ClientClass = new (config: Knex.Config) => {
  _query(connection: BetterSqliteConnection, obj: unknown): Promise<unknown>;
};
type TransactionClass = new (client: unknown, container: unknown, config: unknown, outerTx: unknown) => TransactionLike;

// knex exports its dialects' classes only by their paths inside the package; these
// two are what its own `client: 'better-sqlite3'` is made of (knex 3).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const BaseClient = require('knex/lib/dialects/better-sqlite3') as ClientClass;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const BaseTransaction = require('knex/lib/dialects/sqlite3/execution/sqlite-transaction') as TransactionClass;

/** Whether an error is SQLite's "the file is locked by another connection". */
export function isSqliteBusy(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code === 'SQLITE_LOCKED');
}

class ImmediateTransaction extends BaseTransaction {
  begin(conn: unknown): Promise<unknown> {
    return this.query(conn, this.readOnly === true ? 'BEGIN;' : 'BEGIN IMMEDIATE;');
  }
}

/**
 * knex's better-sqlite3 client, writing with the lock taken up front and
 * waiting for it without blocking.
 *
 * @example knex({ client: SqliteClient, connection: { filename: 'data/oai.db' }, useNullAsDefault: true })
 */
class ImmediateClient extends BaseClient {
  transaction(container: unknown, config: unknown, outerTx: unknown): TransactionLike {
    return new ImmediateTransaction(this, container, config, outerTx);
  }

  override async _query(connection: BetterSqliteConnection, obj: unknown): Promise<unknown> {
    const started = Date.now();
    const deadline = started + SQLITE_WAIT_MS;
    let noticeAt = started + FIRST_NOTICE_MS;
    let told = false;
    for (let pause = 1; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
      let result: unknown;
      try {
        result = await super._query(connection, obj);
      } catch (err) {
        if (!isSqliteBusy(err) || connection.inTransaction || Date.now() >= deadline) throw err;
        // A caller that set the busy timeout to 0 asked not to wait at all (./no-wait.ts): it tries again itself.
        if (Number(connection.pragma('busy_timeout', { simple: true })) === 0) throw err;
        const now = Date.now();
        if (now >= noticeAt) {
          tell(connection, { waitedMs: now - started, acquired: false });
          told = true;
          noticeAt = now + NOTICE_EVERY_MS;
        }
        await new Promise<void>((resolve) => setTimeout(resolve, pause));
        continue;
      }
      if (told) tell(connection, { waitedMs: Date.now() - started, acquired: true });
      return result;
    }
  }
}

/** The client class to hand knex as `client` for a SQLite file (a knex Client by inheritance, which its types cannot see). */
export const SqliteClient = ImmediateClient as unknown as typeof Knex.Client;
