/**
 * Driver errors translated at the boundary: which failures mean "the store
 * cannot be reached right now" (answered 503 with Retry-After) rather than a
 * bug (500).
 */

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN', 'SQLITE_BUSY', 'SQLITE_LOCKED']);

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
    if (NETWORK_CODES.has(code) || /^08/.test(code) || /^57P0/.test(code) || code === '53300') return true;
    if (o.name === 'KnexTimeoutError') return true;
    if (typeof o.message === 'string' && /Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(o.message))
      return true;
    e = o.cause;
  }
  return false;
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
