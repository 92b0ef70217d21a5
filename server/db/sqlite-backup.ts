/**
 * SQLite's online backup API (better-sqlite3's `db.backup()`), for
 * `oai-steward backup` and `restore` (server/ops/backup.ts): the driver's
 * calls live here, what they mean to an operator there.
 *
 * The whole file is copied in one step of the backup API (one read
 * transaction): the store runs in WAL mode, so the read sees the last
 * commit, is never blocked, and no commit can fall in the middle of it.
 */
import Database from 'better-sqlite3';
import { migrationSource } from './migrations';

/** A backup or restore that cannot be done, with a message for the operator. */
export class BackupError extends Error {}

/** Copies every page of `source` into `target` in one step of the backup API (a single read transaction). */
async function copyAll(source: Database.Database, target: string): Promise<void> {
  // The first transfer only starts the backup; the callback then asks for every page at once.
  await source.backup(target, { progress: () => 0x7fffffff });
}

function itemsIn(db: Database.Database): number {
  return (db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n;
}

/**
 * Copies the store in `store` to `partial` with the backup API (busy
 * writers waited for up to 5 s); throws the driver's error when it fails.
 *
 * @example await copySqliteStore('/var/lib/oai/oai.db', '/backups/oai.sqlite.partial-12');
 */
export async function copySqliteStore(store: string, partial: string): Promise<void> {
  const source = new Database(store, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await copyAll(source, partial);
  } finally {
    source.close();
  }
}

/**
 * Makes a copy a self-contained file (not in WAL mode) and counts its items.
 *
 * @example sealSqliteCopy('/backups/oai.sqlite.partial-12') // 1200
 */
export function sealSqliteCopy(file: string): number {
  const copy = new Database(file, { fileMustExist: true });
  try {
    // The copy is a file of its own: not in WAL mode, so it is one self-contained file.
    copy.pragma('journal_mode = DELETE');
    return itemsIn(copy);
  } finally {
    copy.close();
  }
}

/** A backup file opened read-only and checked (an intact oai-steward store); the caller closes it. */
export interface CheckedBackup {
  /** Items in the backup (tombstones included). */
  items(): number;
  /** The migrations the backup has that this version does not know (it was made by a newer version). */
  unknownMigrations(): Promise<string[]>;
  /** Copies the backup into the store's file `target` with the backup API, in one write transaction. */
  copyInto(target: string): Promise<void>;
  close(): void;
}

/**
 * Opens `file` read-only after checking that it is an intact oai-steward
 * store; a {@link BackupError} says why not.
 *
 * @example const backup = openCheckedBackup('/backups/oai.sqlite'); try { … } finally { backup.close(); }
 */
export function openCheckedBackup(file: string): CheckedBackup {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new BackupError(`restore: cannot open ${file}: ${(err as Error).message}`);
  }
  try {
    let check: string;
    try {
      check = String(db.pragma('quick_check', { simple: true }));
    } catch (err) {
      throw new BackupError(`restore: ${file} is not a SQLite database: ${(err as Error).message}`);
    }
    if (check !== 'ok') throw new BackupError(`restore: ${file} is damaged (SQLite quick_check: ${check}); nothing was changed`);
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
    for (const t of ['knex_migrations', 'items', 'settings']) {
      if (!tables.has(t)) throw new BackupError(`restore: ${file} is not an oai-steward store (no table ${t}); nothing was changed`);
    }
  } catch (err) {
    db.close();
    throw err;
  }
  const opened = db;
  return {
    items: () => itemsIn(opened),
    async unknownMigrations() {
      const known = new Set((await migrationSource.getMigrations([])).map((m) => migrationSource.getMigrationName(m)));
      const applied = (opened.prepare('SELECT name FROM knex_migrations').all() as { name: string }[]).map((r) => r.name);
      return applied.filter((n) => !known.has(n));
    },
    copyInto: (target) => copyAll(opened, target),
    close: () => opened.close(),
  };
}
