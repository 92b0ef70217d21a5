/**
 * One harvest per source at a time across every process sharing the store
 * (lib/store/bookkeeping.ts `HarvestLocks`). PostgreSQL: a session advisory lock, held
 * on a connection of its own for the length of the run (released when the
 * process dies with it; server/db/dialect/postgres.ts). SQLite: a row in
 * `harvest_locks` with an expiry the holder keeps pushing forward, so a lock
 * left by a killed process lapses (at once when that process was on this
 * host: its pid no longer exists). On SQLite taking, renewing and releasing a
 * lock never wait for the write lock on the thread (../db/no-wait.ts): `serve`
 * holds its scheduled sources' locks, and its requests are not held up while
 * a harvest writes a page. Neither touches the tables readers read:
 * serving is never blocked by a harvest's lock. The advisory lock is keyed by
 * the store's schema and the source: advisory locks are database-wide, and
 * two stores in one database must not hold each other's sources.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import type { Knex } from 'knex';
import type { HarvestLock } from '../../lib/store';
import { dialectOf } from '../db/dialect';
import { repeatWrite, whenFree, writeNow } from '../db/no-wait';

/**
 * How long a SQLite lock row lives without being renewed (seconds): four
 * renewals. Renewals held back by another process's writes lose the lock
 * only if the store stays busy for most of that: a renewal that finds the
 * store busy is tried again every 250 ms at most (../db/no-wait.ts
 * `BUSY_BACKOFF`), so it lands in the first gap between the other process's
 * transactions; and while the store is busy nobody else can take the lock
 * either (taking it is a write).
 */
const LOCK_TTL = 120;

/** How often a held lock is renewed (milliseconds): four times in its lifetime. */
const RENEW_MS = (LOCK_TTL * 1000) / 4;

/** How long taking or releasing a lock tries while the store is busy, before it fails (milliseconds). */
const BUSY_DEADLINE_MS = 30_000;

/**
 * Whether a lock row's holder may still be running: a process of another
 * host is given the benefit of the doubt until the row expires; one of this
 * host that no longer exists (killed) is not.
 */
function alive(holder: string): boolean {
  const [host, pid] = holder.split(' ');
  if (host !== os.hostname() || pid === undefined || !/^\d+$/.test(pid)) return true;
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** The advisory lock key of a source in a schema: 64 bits of a digest of both, as PostgreSQL's signed bigint. */
function advisoryKey(schema: string, source: string): string {
  return crypto
    .createHash('sha256')
    .update(`oai-steward harvest ${JSON.stringify([schema, source])}`)
    .digest()
    .readBigInt64BE(0)
    .toString();
}

/**
 * Takes the source's lock, or answers null when another harvest holds it.
 *
 * @example const lock = await acquireHarvestLock(knex, 'arxiv'); if (lock) try { … } finally { await lock.release(); }
 */
export async function acquireHarvestLock(knex: Knex, source: string, now: () => number = () => Math.floor(Date.now() / 1000)): Promise<HarvestLock | null> {
  const { sessionLock } = dialectOf(knex);
  if (sessionLock) {
    // Every connection of the pool has the store's search_path: its schema is the store's.
    const s = (await knex.raw('SELECT current_schema() AS schema')) as { rows: { schema: string | null }[] };
    return sessionLock(knex, advisoryKey(s.rows[0]?.schema ?? '', source));
  }
  const holder = `${os.hostname()} ${process.pid} ${crypto.randomBytes(6).toString('hex')}`;
  const got = await whenFree(
    () =>
      writeNow(knex, async (trx) => {
        await trx('harvest_locks').where({ source }).andWhere('expires', '<', now()).delete();
        const row = (await trx('harvest_locks').where({ source }).first('holder')) as { holder: string } | undefined;
        if (row && !alive(row.holder)) await trx('harvest_locks').where({ source, holder: row.holder }).delete();
        const inserted = (await trx('harvest_locks')
          .insert({ source, holder, expires: now() + LOCK_TTL })
          .onConflict('source')
          .ignore()
          .returning('source')) as unknown[];
        return inserted.length > 0;
      }),
    { deadlineMs: BUSY_DEADLINE_MS },
  );
  if (!got) return null;
  // Renewed on timers that never wait for the store: a busy store is tried again within 250 ms.
  const renewal = repeatWrite(knex, RENEW_MS, (trx) =>
    trx('harvest_locks')
      .where({ source, holder })
      .update({ expires: now() + LOCK_TTL }),
  );
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await renewal.stop();
      await whenFree(() => writeNow(knex, (trx) => trx('harvest_locks').where({ source, holder }).delete()), { deadlineMs: BUSY_DEADLINE_MS });
    },
  };
}
