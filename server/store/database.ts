/**
 * Opening the database a store lives in: the one place outside the store's
 * own files that makes a connection. What it hands out is a connection for
 * a store (server/provider.ts `createStore`) and the operations on the whole
 * database the commands need (holding it, its schema, its pool); no caller
 * ever queries it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import type { MigrationStatus } from '../../lib/store';
import { createKnex, databaseKind, sqliteFilename, type DriverLog } from '../db/connection';
import { LATEST_MIGRATION, migrate, migrationStatus } from '../db/migrations';
import { checkpointLog } from '../db/dialect';
import { storedRecordPage, type StoredRecordRow } from '../db/record-digests';
import { inspectLog, type LogInspection } from '../db/log/inspect';
import {
  expectedShape,
  itemCount,
  itemsWithoutOaiDc,
  publishedPage,
  schemaDrift,
  schemaShape,
  type PublishedRow,
  type SchemaDrift,
  type WithoutOaiDc,
} from './inspect';
import { clearHoldersBefore, hasHolders, holdStore, reportLockWaits, type HolderKind, type StoreHold } from './holders';

/** A connection to a store's database, for a store to be made on (server/store/knex-store.ts). */
export type StoreConnection = Knex;

/** An opened database. */
export interface OpenedDatabase {
  /** What a store is made on. */
  readonly connection: StoreConnection;
  /** Empties SQLite's write-ahead log into the file (../db/dialect/ `checkpointLog`); nothing on PostgreSQL. */
  checkpoint(): Promise<void>;
  close(): Promise<void>;
}

/** Why a store was not opened: a command is refused with exit status 2 and this line (server/cli.ts). */
export type StoreRefusal = 'missing' | 'newer' | 'older';

/**
 * A store a command must not touch: none where the configuration points
 * (`missing`: only serve, migrate, seed, load and harvest create one), one migrated
 * by a newer oai-steward (`newer`: this code would misread it), or one
 * older than this code, for a command that does not migrate (`older`).
 * Nothing was created or changed, and nothing is left open.
 */
export class StoreRefusedError extends Error {
  constructor(
    readonly refusal: StoreRefusal,
    message: string,
    /** The store's newest migration and this code's, when a schema was read. */
    readonly schema?: { readonly store: string; readonly code: string },
  ) {
    super(message);
    this.name = 'StoreRefusedError';
  }
}

/** How a command opens its store. */
export interface OpenOptions {
  /** Registers the process as a holder of the store (./holders.ts) until `close`. */
  readonly hold?: HolderKind;
  /**
   * Whether the command may create the store and bring an older schema up to
   * date (serve, migrate, seed, load). Default true. Without it a missing
   * store or an older schema is refused, changing nothing.
   */
  readonly create?: boolean;
  /** Where knex's warnings go (./../db/connection.ts `DriverLog`). */
  readonly log?: DriverLog;
}

/** Where this process tells its waits for SQLite's write lock, when the opener names no place. */
let lockWaitSink: ((line: string) => void) | undefined;

/**
 * Makes `sink` the place every store this process opens tells its waits
 * for SQLite's write lock: the command line's standard error, where its
 * operator looks, rather than a server's log.
 *
 * @example sayLockWaitsTo((line) => process.stderr.write(`oai-steward: ${line}\n`))
 */
export function sayLockWaitsTo(sink: (line: string) => void): void {
  lockWaitSink = sink;
}

/** A database URL as a person may read it: the SQLite file, or the PostgreSQL URL without its password. */
export function describeStore(url: string): string {
  return databaseKind(url) === 'sqlite' ? path.resolve(sqliteFilename(url)) : url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

/**
 * Refuses, before knex migrates anything, a schema this code must not
 * touch: one with migrations it does not know, and, unless `create`, none
 * at all or one with migrations pending.
 */
async function refuseSkew(knex: Knex, url: string, create: boolean): Promise<void> {
  const status = await migrationStatus(knex);
  const where = describeStore(url);
  const storeSchema = status.applied[status.applied.length - 1] ?? '-';
  const schema = { store: storeSchema, code: LATEST_MIGRATION };
  if (status.unknown.length > 0) {
    throw new StoreRefusedError(
      'newer',
      `the store at ${where} has schema ${storeSchema}, newer than this oai-steward's ${LATEST_MIGRATION} (it does not know ${status.unknown.join(', ')}): ` +
        'upgrade to the version that migrated it, or restore a backup taken before that upgrade (oai-steward restore FILE); nothing was changed',
      schema,
    );
  }
  if (create) return;
  if (!status.tracked) throw new StoreRefusedError('missing', `no oai-steward store in ${where} (the database holds no oai-steward tables)`);
  if (status.pending.length > 0) {
    throw new StoreRefusedError(
      'older',
      `the store at ${where} has schema ${storeSchema}, older than this oai-steward's ${LATEST_MIGRATION} (${status.pending.length} migration(s) pending): ` +
        'run oai-steward migrate first (serve and load migrate on start); nothing was changed',
      schema,
    );
  }
}

/**
 * Opens the database at `url` and brings its schema up to date; with
 * `hold`, registers the process as a holder of the store (./holders.ts)
 * until `close`. Refuses ({@link StoreRefusedError}) a store a newer
 * oai-steward migrated, and, without `create`, a missing or older one.
 * Nothing stays open when it fails.
 *
 * @example const db = await openDatabase('sqlite:./data/oai.db', { hold: 'server' }); … await db.close();
 */
export async function openDatabase(url: string, options: OpenOptions = {}): Promise<OpenedDatabase> {
  const create = options.create ?? true;
  if (!create && databaseKind(url) === 'sqlite') {
    // Opening a SQLite file makes it (and createKnex its folder): look first.
    const file = sqliteFilename(url);
    if (file !== ':memory:' && !fs.existsSync(file)) throw new StoreRefusedError('missing', `no store at ${describeStore(url)} (no such file)`);
  }
  const knex = createKnex(url, options.log ? { log: options.log } : {});
  const log = options.log;
  const say = lockWaitSink ?? (log && ((line: string) => log.warn({ source: 'store' }, line)));
  // Before the first write (migrating takes the lock too), so every wait of this store is told.
  const stopTelling = say && databaseKind(url) === 'sqlite' ? reportLockWaits(knex, say) : undefined;
  let hold: StoreHold | undefined;
  try {
    await refuseSkew(knex, url, create);
    if (create) await migrate(knex);
    if (options.hold !== undefined) hold = await holdStore(knex, options.hold);
  } catch (err) {
    stopTelling?.();
    await knex.destroy();
    throw err;
  }
  return {
    connection: knex,
    checkpoint: () => checkpointLog(knex),
    async close() {
      // A row that cannot be deleted (the store already gone) stops holding the store once its heartbeat is stale.
      await hold?.release().catch(() => undefined);
      stopTelling?.();
      await knex.destroy();
    },
  };
}

/** What `doctor` reads of a store to find damage (./inspect.ts). */
export interface StoreInspection {
  /** How the schema differs from the one the migrations make on a new store. */
  schemaDrift(): Promise<SchemaDrift>;
  /** A page of stored records after `(pk, prefix)`; with `every`, a sample (../db/record-digests.ts `storedRecordPage`). */
  records(after: { pk: number; prefix: string } | null, limit: number, every?: number): Promise<StoredRecordRow[]>;
  itemCount(): Promise<number>;
  /** A page of the identifiers items were published under. */
  published(after: string | null, limit: number): Promise<PublishedRow[]>;
  /** The live items without oai_dc, counted, the first `limit` named. */
  withoutOaiDc(limit: number): Promise<WithoutOaiDc>;
  /** The publication log checked against itself and the store (../db/log/inspect.ts). */
  publicationLog(): Promise<LogInspection>;
}

/** A database opened as it is, for a look (`doctor`): nothing is created or migrated. */
export interface ExistingDatabase extends OpenedDatabase {
  migrations(): Promise<MigrationStatus>;
  readonly inspection: StoreInspection;
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
  return {
    connection: knex,
    migrations: () => migrationStatus(knex),
    inspection: {
      schemaDrift: async () => schemaDrift(await expectedShape(knex, url), await schemaShape(knex)),
      records: (after, limit, every) => storedRecordPage(knex, after, limit, every === undefined ? {} : { every }),
      itemCount: () => itemCount(knex),
      published: (after, limit) => publishedPage(knex, after, limit),
      withoutOaiDc: (limit) => itemsWithoutOaiDc(knex, limit),
      publicationLog: () => inspectLog(knex),
    },
    checkpoint: () => checkpointLog(knex),
    close: () => knex.destroy(),
  };
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
    await refuseSkew(knex, `sqlite:${file}`, true);
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
  // A PostgreSQL standby has no write-ahead log of its own to checkpoint from here.
  return { connection: knex, checkpoint: async () => undefined, close: () => knex.destroy() };
}
