/**
 * Opening the database a store lives in: the one place outside the store's
 * own files that makes a connection. What it hands out is a connection for
 * a store (server/provider.ts `createStore`) and the operations on the whole
 * database the commands need (holding it, its schema, its pool); no caller
 * ever queries it.
 */
import type { Knex } from 'knex';
import type { MigrationStatus } from '../../lib/store';
import { createKnex } from '../db/connection';
import { migrate, migrationStatus } from '../db/migrations';
import { clearHoldersBefore, hasHolders, holdStore, type HolderKind, type StoreHold } from './holders';

/** A connection to a store's database, for a store to be made on (server/store/knex-store.ts). */
export type StoreConnection = Knex;

/** An opened database. */
export interface OpenedDatabase {
  /** What a store is made on. */
  readonly connection: StoreConnection;
  close(): Promise<void>;
}

/**
 * Opens the database at `url` and brings its schema up to date; with
 * `hold`, registers the process as a holder of the store (./holders.ts)
 * until `close`. Nothing stays open when it fails.
 *
 * @example const db = await openDatabase('sqlite:./data/oai.db', { hold: 'server' }); … await db.close();
 */
export async function openDatabase(url: string, options: { hold?: HolderKind } = {}): Promise<OpenedDatabase> {
  const knex = createKnex(url);
  let hold: StoreHold | undefined;
  try {
    await migrate(knex);
    if (options.hold !== undefined) hold = await holdStore(knex, options.hold);
  } catch (err) {
    await knex.destroy();
    throw err;
  }
  return {
    connection: knex,
    async close() {
      // A row that cannot be deleted (the store already gone) stops holding the store once its heartbeat is stale.
      await hold?.release().catch(() => undefined);
      await knex.destroy();
    },
  };
}

/** A database opened as it is, for a look (`doctor`): nothing is created or migrated. */
export interface ExistingDatabase extends OpenedDatabase {
  migrations(): Promise<MigrationStatus>;
}

/**
 * Opens the database at `url` without creating or migrating anything, on a
 * small pool; throws (nothing left open) when it does not answer.
 *
 * @example const db = await openExistingDatabase(config.databaseUrl); try { … } finally { await db.close(); }
 */
export async function openExistingDatabase(url: string): Promise<ExistingDatabase> {
  const knex = createKnex(url, { pool: { min: 0, max: 2 } });
  try {
    await knex.raw('SELECT 1');
  } catch (err) {
    await knex.destroy();
    throw err;
  }
  return { connection: knex, migrations: () => migrationStatus(knex), close: () => knex.destroy() };
}

/**
 * Holds the SQLite store in `file` for a restore, when it has a holders
 * table to hold it by (a store predating it has no holder to wait for);
 * throws ./holders.ts `StoreInUseError` while a server, load or harvest
 * holds it. `close` lets go (the copy may have replaced the row already).
 *
 * @example const held = await holdSqliteForRestore('/var/lib/oai/oai.db'); try { … } finally { await held.close(); }
 */
export async function holdSqliteForRestore(file: string): Promise<{ readonly hold: StoreHold | undefined; close(): Promise<void> }> {
  const knex = createKnex(`sqlite:${file}`);
  try {
    const hold = (await hasHolders(knex)) ? await holdStore(knex, 'restore') : undefined;
    return {
      hold,
      async close() {
        // The copy replaced the table this row was in: there is nothing left to delete.
        await hold?.release().catch(() => undefined);
        await knex.destroy();
      },
    };
  } catch (err) {
    await knex.destroy();
    throw err;
  }
}

/**
 * Brings a restored SQLite store's schema up to date and forgets the
 * holders the backup carried (they held the store when it was taken, before
 * `before`, not now).
 *
 * @example await settleRestoredSqlite('/var/lib/oai/oai.db', restoreStarted);
 */
export async function settleRestoredSqlite(file: string, before: number): Promise<void> {
  // The store keeps WAL mode (readers beside a writer), whatever the copy's header says.
  const knex = createKnex(`sqlite:${file}`);
  try {
    await migrate(knex);
    await clearHoldersBefore(knex, before);
  } finally {
    await knex.destroy();
  }
}

/**
 * Opens a read replica (a PostgreSQL hot standby) as it is: never migrated,
 * since a standby is read-only and follows its primary's schema.
 *
 * @example const replica = openReplica(config.readReplica); … await replica.close();
 */
export function openReplica(url: string): OpenedDatabase {
  const knex = createKnex(url);
  return { connection: knex, close: () => knex.destroy() };
}
