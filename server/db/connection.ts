/**
 * Opening the database: one knex instance from a `DATABASE_URL`-like string.
 *
 * `postgres://…` / `postgresql://…` select PostgreSQL (pg); anything else is
 * SQLite through better-sqlite3: `sqlite:<path>`, `sqlite://<path>`, a plain
 * file path, or `:memory:`. SQLite connections are tuned on creation (WAL,
 * foreign keys, a busy timeout) so that a reading server and a writing loader
 * can share one file.
 */
import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pino from 'pino';
import { SqliteClient } from './sqlite-client';

/** Options beyond the URL. */
export interface ConnectionOptions {
  /**
   * PostgreSQL only: the schema search path (e.g. a throwaway schema per test
   * run). Tables, including knex's migration bookkeeping, live in its first entry.
   */
  readonly searchPath?: string | readonly string[];
  /** Pool bounds; SQLite always uses a single connection. */
  readonly pool?: { readonly min?: number; readonly max?: number };
  /** Where knex's own warnings go (default: JSON lines on standard error). */
  readonly log?: DriverLog;
}

/** Which driver a URL selects. */
export type DatabaseKind = 'sqlite' | 'postgres';

/**
 * Tells which database a `DATABASE_URL`-like string selects, without opening
 * anything: `postgres://` and `postgresql://` are PostgreSQL, everything else
 * is a SQLite file (or `:memory:`).
 *
 * @example databaseKind('postgres://postgres@127.0.0.1/test') // 'postgres'
 */
export function databaseKind(url: string): DatabaseKind {
  return /^postgres(?:ql)?:\/\//i.test(url) ? 'postgres' : 'sqlite';
}

/**
 * The SQLite file a URL names: strips a `sqlite:` / `sqlite://` scheme and
 * keeps `:memory:` as is.
 *
 * @example sqliteFilename('sqlite:./data/oai.db') // './data/oai.db'
 */
export function sqliteFilename(url: string): string {
  const m = /^sqlite:(?:\/\/)?(.*)$/i.exec(url);
  const file = m ? (m[1] ?? '') : url;
  if (file === '') throw new Error(`no SQLite file name in ${JSON.stringify(url)}`);
  return file;
}

/**
 * Where knex and the drivers say what goes wrong beside a query (a
 * connection lost, a pool error): a pino logger's methods, so the log stays
 * one JSON object a line whatever they say (server/provider.ts hands its own).
 */
export interface DriverLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Without a logger of the caller's: JSON lines on standard error, written at once (a command may end right after). */
const STDERR_LOG: DriverLog = pino({ level: 'warn' }, pino.destination({ dest: 2, sync: true }));

/**
 * knex's `log` option over a {@link DriverLog}: one line each, the first line of
 * the message (during a database outage knex would otherwise print a stack trace
 * for every failed connection attempt; the requests themselves are answered 503
 * and logged by the app).
 */
function knexLog(log: DriverLog): NonNullable<Knex.Config['log']> {
  const first = (message: unknown): string => (message instanceof Error ? message.message : String(message)).split('\n')[0] ?? '';
  return {
    // A pooled connection the database closed is dropped and replaced by the pool; whoever used it
    // meets its own error and says so (a harvest's one line, a request's 503), so this adds nothing.
    warn: (m: unknown) => {
      if (!first(m).startsWith('Connection Error:')) log.warn({ source: 'knex' }, first(m));
    },
    error: (m: unknown) => log.error({ source: 'knex' }, first(m)),
    deprecate: (method: unknown, alternative: unknown) => log.warn({ source: 'knex' }, `${String(method)} is deprecated: use ${String(alternative)}`),
    debug: () => undefined,
  };
}

// SQLite pragmas applied to every new connection. page_size takes effect only
// on a new, empty database (before WAL is set; an existing file keeps its own):
// a stored record is 1–3 KB of XML, and 16 KiB pages waste less space around
// rows that size than the default 4 KiB (measured on the bench's 20,000 records
// with six formats, after VACUUM: 351 MB against 453 MB). WAL lets readers run
// while a loader writes; NORMAL is durable enough under WAL; foreign keys are
// off by default in SQLite and must be turned on per connection. A writer
// that finds the file locked waits in ./sqlite-client.ts, yielding to the event
// loop; busy_timeout only smooths a lock held for a moment (it blocks the
// process while it waits, so it stays short).
const SQLITE_PRAGMAS = ['page_size = 16384', 'journal_mode = WAL', 'synchronous = NORMAL', 'foreign_keys = ON', 'busy_timeout = 20'];

/**
 * Connections to one SQLite file in one process: several, so a writer
 * waiting for another process's write lock (./sqlite-client.ts) holds one
 * connection while reads go on over the others; `:memory:` must stay one
 * database, so one.
 */
const SQLITE_FILE_CONNECTIONS = 4;

/**
 * Creates a knex instance for the database a URL names. For a SQLite file the
 * parent directory is created if missing. The caller owns the instance and
 * must `destroy()` it.
 *
 * @example
 * const knex = createKnex(process.env.DATABASE_URL ?? 'sqlite:./data/oai.db');
 * await migrate(knex);
 */
export function createKnex(url: string, options: ConnectionOptions = {}): Knex {
  if (databaseKind(url) === 'sqlite') {
    const filename = sqliteFilename(url);
    if (filename !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
  }
  return knexFactory(connectionConfig(url, options));
}

/**
 * The knex configuration for a database URL (also what knexfile.ts hands
 * the knex CLI), without opening anything.
 */
export function connectionConfig(url: string, options: ConnectionOptions = {}): Knex.Config {
  if (databaseKind(url) === 'postgres') {
    const config: Knex.Config = {
      log: knexLog(options.log ?? STDERR_LOG),
      client: 'pg',
      connection: url,
      pool: { min: options.pool?.min ?? 0, max: options.pool?.max ?? 10 },
    };
    if (options.searchPath !== undefined) {
      config.searchPath = typeof options.searchPath === 'string' ? [options.searchPath] : [...options.searchPath];
    }
    return config;
  }
  const filename = sqliteFilename(url);
  return {
    log: knexLog(options.log ?? STDERR_LOG),
    client: SqliteClient,
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: filename === ':memory:' ? 1 : SQLITE_FILE_CONNECTIONS,
      afterCreate(conn: { pragma(s: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
        try {
          for (const p of SQLITE_PRAGMAS) conn.pragma(p);
          done(null, conn);
        } catch (err) {
          done(err as Error, conn);
        }
      },
    },
  };
}
