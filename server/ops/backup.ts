/**
 * `oai-steward backup FILE` and `restore FILE` for a SQLite store, through
 * SQLite's online backup API (../db/sqlite-backup.ts, better-sqlite3's `db.backup()`).
 *
 * A backup is one consistent state of the store, taken while servers read
 * it and a loader writes it: the store runs in WAL mode, so the backup's read
 * transaction sees the last commit and is never blocked, and the whole file
 * is copied in one step of the backup API (one read transaction), so no
 * commit can fall in the middle of it. A load is one transaction: a backup
 * taken during it holds the store from before the load. The copy is written
 * beside FILE and renamed onto it once complete, so FILE is never half written.
 *
 * A restore checks the backup first (an oai-steward store, intact, of a
 * schema this version knows), then registers itself as the store's holder,
 * refused while a server, a load or a harvest holds the store
 * (../store/holders.ts: a server would go on answering from what it had
 * read, showing a deleted record as live), then copies the backup into the
 * store's file with the same API, in one write transaction, then brings its
 * schema up to date. The token secret travels with the store (`settings`),
 * so a harvest's resumption tokens continue after a restore.
 *
 * The publication log's signing key (../log-key.ts) travels beside the copy,
 * `<FILE>.log-key` (mode 0600), and a restore brings it back, keeping the
 * key it replaces as `<key file>.before-restore`: the restored log goes on
 * signing with the key its harvesters know.
 *
 * PostgreSQL has its own tools (pg_dump, pg_restore; docs/operations.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { databaseKind, sqliteFilename } from '../db/connection';
import { BackupError, copySqliteStore, openCheckedBackup, sealSqliteCopy } from '../db/sqlite-backup';
import { holdSqliteForRestore, settleRestoredSqlite, StoreRefusedError } from '../store/database';
import { StoreInUseError, type StoreHold } from '../store/holders';

export { BackupError };

/** Where the PostgreSQL procedure is documented. */
export const POSTGRES_BACKUP_DOCS = 'docs/operations.md#backup-and-restore';

/** What a backup or restore copied. */
export interface BackupSummary {
  /** The file written (the backup) or read (the restore), absolute. */
  readonly file: string;
  /** The store's file, absolute. */
  readonly store: string;
  readonly bytes: number;
  /** Items in the copy (tombstones included). */
  readonly items: number;
}

/** What a backup's copy of the publication log's key is called: the backup's name and this. */
export const KEY_SUFFIX = '.log-key';

/** Copies a key file, readable by its owner only, written whole or not at all. */
function copyKey(from: string, to: string): void {
  const partial = `${to}.partial-${process.pid}`;
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.writeFileSync(partial, fs.readFileSync(from), { mode: 0o600 });
  fs.renameSync(partial, to);
}

/** The store's SQLite file, or a {@link BackupError} saying why there is none to copy. */
function storeFile(databaseUrl: string, what: 'backup' | 'restore'): string {
  if (databaseKind(databaseUrl) === 'postgres') {
    throw new BackupError(
      `${what} copies a SQLite store; this store is PostgreSQL. Use pg_dump and pg_restore, as ${POSTGRES_BACKUP_DOCS} shows:\n` +
        `  pg_dump --format=custom --file=oai-steward.dump "$DATABASE_URL"\n` +
        `  pg_restore --no-owner --dbname="$NEW_DATABASE_URL" oai-steward.dump`,
    );
  }
  const file = sqliteFilename(databaseUrl);
  if (file === ':memory:') throw new BackupError(`${what}: an in-memory store has no file`);
  return path.resolve(file);
}

/**
 * Writes a consistent copy of the SQLite store to `file`.
 *
 * @example await backupStore(config.databaseUrl, '/var/backups/oai-steward-2026-11-25.sqlite');
 */
export async function backupStore(databaseUrl: string, file: string, logKeyFile?: string): Promise<BackupSummary> {
  const store = storeFile(databaseUrl, 'backup');
  const target = path.resolve(file);
  if (target === store) throw new BackupError(`backup: ${file} is the store itself; name another file`);
  // A missing store is a command run without its configuration, more often than not: refused as every command refuses it (exit status 2).
  if (!fs.existsSync(store)) throw new StoreRefusedError('missing', `no store at ${store} (no such file)`);
  if (!fs.existsSync(path.dirname(target))) throw new BackupError(`backup: the folder ${path.dirname(target)} does not exist`);
  const partial = `${target}.partial-${process.pid}`;
  fs.rmSync(partial, { force: true });
  try {
    await copySqliteStore(store, partial);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw new BackupError(`backup: copying ${store} failed: ${(err as Error).message}`);
  }
  const items = sealSqliteCopy(partial);
  if (logKeyFile !== undefined && fs.existsSync(logKeyFile)) copyKey(logKeyFile, `${target}${KEY_SUFFIX}`);
  fs.renameSync(partial, target);
  return { file: target, store, bytes: fs.statSync(target).size, items };
}

/**
 * Holds the existing store at `store` for a restore, or refuses (a
 * {@link BackupError} naming the holders) while a server, load or harvest
 * holds it. A store that does not exist yet, or predates the holders table,
 * has no holder to wait for.
 */
async function holdForRestore(store: string): Promise<{ hold: StoreHold | undefined; close(): Promise<void> }> {
  if (!fs.existsSync(store)) return { hold: undefined, close: async () => undefined };
  try {
    return await holdSqliteForRestore(store);
  } catch (err) {
    if (err instanceof StoreInUseError) throw new BackupError(`restore: ${err.message}; nothing was changed`);
    throw err;
  }
}

/**
 * Replaces the SQLite store by the backup `file` (checked first), then
 * brings its schema up to date. Refused, changing nothing, while a server, a
 * load or a harvest holds the store (../store/holders.ts); and while the
 * restore runs, none of them can start.
 *
 * @example await restoreStore(config.databaseUrl, '/var/backups/oai-steward-2026-11-25.sqlite');
 */
export async function restoreStore(databaseUrl: string, file: string, logKeyFile?: string): Promise<BackupSummary> {
  const restoreStarted = Math.floor(Date.now() / 1000);
  const store = storeFile(databaseUrl, 'restore');
  const source = path.resolve(file);
  if (source === store) throw new BackupError(`restore: ${file} is the store itself`);
  if (!fs.existsSync(source)) throw new BackupError(`restore: ${file} does not exist`);
  const backup = openCheckedBackup(source);
  let items: number;
  try {
    const newer = await backup.unknownMigrations();
    if (newer.length > 0) {
      throw new BackupError(`restore: ${file} was made by a newer oai-steward (schema ${newer.join(', ')}); restore it with that version; nothing was changed`);
    }
    items = backup.items();
    fs.mkdirSync(path.dirname(store), { recursive: true });
    const held = await holdForRestore(store);
    try {
      await backup.copyInto(store);
    } catch (err) {
      throw new BackupError(`restore: copying into ${store} failed (${(err as Error).message}); stop the servers and loads on this store and try again`);
    } finally {
      await held.close();
    }
  } finally {
    backup.close();
  }
  // The holders the backup carried held the store when it was taken, not now.
  await settleRestoredSqlite(store, restoreStarted);
  const key = `${source}${KEY_SUFFIX}`;
  if (logKeyFile !== undefined && fs.existsSync(key)) {
    const same = fs.existsSync(logKeyFile) && fs.readFileSync(logKeyFile).equals(fs.readFileSync(key));
    if (!same) {
      if (fs.existsSync(logKeyFile)) fs.renameSync(logKeyFile, `${logKeyFile}.before-restore`);
      copyKey(key, logKeyFile);
    }
  }
  return { file: source, store, bytes: fs.statSync(source).size, items };
}
