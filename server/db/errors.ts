/**
 * Driver errors translated at the boundary: which failures mean "the store
 * cannot be reached right now" (answered 503 with Retry-After) rather than a
 * bug (500).
 */

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);

/**
 * SQLite's codes for a database another connection holds: better-sqlite3
 * turns on extended result codes, so besides SQLITE_BUSY and SQLITE_LOCKED a
 * busy store also says SQLITE_BUSY_SNAPSHOT (a WAL read transaction that
 * would write after another connection committed: it fails at once, never
 * waiting in the busy handler), SQLITE_BUSY_RECOVERY, SQLITE_LOCKED_SHAREDCACHE
 * and the like (SQLite, "Result and Error Codes", section 6).
 */
const SQLITE_BUSY_CODE = /^SQLITE_(?:BUSY|LOCKED)(?:_[A-Z]+)?$/;

/** The code of one error of a chain, or '' when it has none. */
function codeOf(e: object): string {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' ? code : '';
}

/**
 * Whether an error says SQLite's database was held by another connection
 * (SQLITE_BUSY or SQLITE_LOCKED, with any extended code): a write tried
 * again later may go through. Never true on PostgreSQL, whose lock waits
 * are waits, not errors.
 *
 * @example isBusy(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY_SNAPSHOT' })) // true
 */
export function isBusy(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if (SQLITE_BUSY_CODE.test(codeOf(e))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Whether an error says the database is unavailable: a refused or cut
 * connection, a PostgreSQL shutdown or connection-class SQLSTATE (08xxx,
 * 57P0x), a pool timeout, or a busy SQLite file.
 */
export function isUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    if (typeof e !== 'object') return false;
    const o = e as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
    const code = typeof o.code === 'string' ? o.code : '';
    if (NETWORK_CODES.has(code) || SQLITE_BUSY_CODE.test(code) || /^08/.test(code) || /^57P0/.test(code) || code === '53300') return true;
    if (o.name === 'KnexTimeoutError' || o.name === 'StoreBehindError') return true;
    if (typeof o.message === 'string' && /Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(o.message))
      return true;
    e = o.cause;
  }
  return false;
}

/** SQLite's and PostgreSQL's words for a full disk: SQLITE_FULL, SQLSTATE 53100 (disk_full), and the system's ENOSPC. */
const FULL_CODES = new Set(['SQLITE_FULL', '53100', 'ENOSPC']);

/**
 * What a database failure was, in a few words for an operator, or null
 * when the error is not the database's (a bug, a refusal): the disk is
 * full, or the connection to the database was lost or could not be made.
 *
 * @example storeFailure(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })) // 'the database's disk is full (database or disk is full)'
 */
export function storeFailure(err: unknown): string | null {
  // knex puts the statement before the driver's message ("insert into … - terminating connection …"): the statement says nothing to an operator.
  const first = err instanceof Error ? (err.message.split('\n')[0]?.trim() ?? '') : String(err);
  const message =
    /^(?:select|insert|update|delete|with|begin|commit|rollback|savepoint|release)\b/i.test(first) && first.includes(' - ')
      ? first.slice(first.lastIndexOf(' - ') + 3)
      : first;
  const said = message === '' ? '' : ` (${message.length > 200 ? `${message.slice(0, 199)}…` : message})`;
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const o = e as { code?: unknown; cause?: unknown };
    if (typeof o.code === 'string' && FULL_CODES.has(o.code)) return `the database's disk is full${said}`;
    if (typeof o.code === 'string' && SQLITE_BUSY_CODE.test(o.code)) return `the database stayed locked by another process${said}`;
    e = o.cause;
  }
  if (isUnavailable(err)) return `the connection to the database was lost or could not be made${said}`;
  return null;
}

/**
 * Whether an error says the disk the database writes to is full: SQLite's
 * SQLITE_FULL ("database or disk is full"), PostgreSQL's disk_full
 * (SQLSTATE 53100), or the system's ENOSPC.
 */
export function isDiskFull(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    if (typeof e !== 'object') return false;
    const o = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (o.code === 'SQLITE_FULL' || o.code === '53100' || o.code === 'ENOSPC') return true;
    if (typeof o.message === 'string' && /database or disk is full|No space left on device/i.test(o.message)) return true;
    e = o.cause;
  }
  return false;
}
