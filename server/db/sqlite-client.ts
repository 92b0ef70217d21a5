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
 */
import type { Knex } from 'knex';

/** The longest a writer waits for another to release the file: an hour, longer than any load this store is sized for. */
export const SQLITE_WAIT_MS = 60 * 60 * 1000;

/** The longest single pause between two tries. */
const MAX_PAUSE_MS = 50;

interface BetterSqliteConnection {
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
    const deadline = Date.now() + SQLITE_WAIT_MS;
    for (let pause = 1; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
      try {
        return await super._query(connection, obj);
      } catch (err) {
        if (!isSqliteBusy(err) || connection.inTransaction || Date.now() >= deadline) throw err;
        // A caller that set the busy timeout to 0 asked not to wait at all (./no-wait.ts): it tries again itself.
        if (Number(connection.pragma('busy_timeout', { simple: true })) === 0) throw err;
        await new Promise<void>((resolve) => setTimeout(resolve, pause));
      }
    }
  }
}

/** The client class to hand knex as `client` for a SQLite file (a knex Client by inheritance, which its types cannot see). */
export const SqliteClient = ImmediateClient as unknown as typeof Knex.Client;
