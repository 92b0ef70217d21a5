/**
 * PostgreSQL session advisory locks (PostgreSQL documentation, 9.27.10
 * "Advisory Lock Functions"): a lock held on a connection of its own, taken
 * out of the pool for as long as the lock is held, and released when the
 * process dies with the connection. SQLite has no such thing; the store
 * keeps a row with an expiry there instead (server/store/harvest-locks.ts).
 */
import type { Knex } from 'knex';

/** An advisory lock held on its own connection; `release` unlocks and gives the connection back, once. */
export interface AdvisoryLock {
  release(): Promise<void>;
}

/**
 * Takes the session advisory lock `key` (a signed 64-bit integer, as a
 * decimal string) without waiting, or answers null when another session
 * holds it.
 *
 * @example const lock = await tryAdvisoryLock(knex, '-4242'); if (lock) try { … } finally { await lock.release(); }
 */
export async function tryAdvisoryLock(knex: Knex, key: string): Promise<AdvisoryLock | null> {
  const client = knex.client as { acquireConnection(): Promise<unknown>; releaseConnection(c: unknown): Promise<void> };
  const conn = await client.acquireConnection();
  let held = false;
  try {
    const r = (await knex.raw('SELECT pg_try_advisory_lock(?::bigint) AS ok', [key]).connection(conn)) as { rows: { ok: boolean }[] };
    held = r.rows[0]?.ok === true;
  } finally {
    if (!held) await client.releaseConnection(conn);
  }
  if (!held) return null;
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      try {
        await knex.raw('SELECT pg_advisory_unlock(?::bigint)', [key]).connection(conn);
      } finally {
        await client.releaseConnection(conn);
      }
    },
  };
}
