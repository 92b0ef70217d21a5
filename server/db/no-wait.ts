/**
 * Writes that never wait for SQLite's write lock on this thread.
 *
 * better-sqlite3 is synchronous: a statement that needs the write lock while
 * another connection holds it sleeps in SQLite's busy handler for up to the
 * connection's busy timeout (./connection.ts), and the whole event loop
 * sleeps with it: no request is answered, no timer fires. A process's own
 * bookkeeping (a holder's heartbeat, a harvest lock's renewal) must never do
 * that, so {@link writeNow} runs it with the busy timeout at 0: a busy store
 * answers SQLITE_BUSY at once (./errors.ts `isBusy`), and the caller tries
 * again later on a timer ({@link busyBackoff}, {@link whenFree}), the event
 * loop running meanwhile. On PostgreSQL a lock wait is a wait on the
 * network, which never holds the event loop: the work runs as it is.
 */
import type { Knex } from 'knex';
import { dialectOf } from './dialect';
import { isBusy } from './errors';

/**
 * Runs `work` in a transaction that does not wait for SQLite's write lock:
 * while another connection holds it, the first write of `work` fails at once
 * with SQLITE_BUSY (nothing is written) instead of sleeping on this thread.
 * Give it the store's knex, not a transaction. On PostgreSQL it is a plain
 * transaction.
 *
 * @example await writeNow(knex, (trx) => trx('store_holders').where({ id }).update({ heartbeat: now }));
 */
export async function writeNow<T>(knex: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return dialectOf(knex).writeNow(knex, work);
}

/**
 * The waits between tries of a write that found the store busy: from 10 ms,
 * doubling, to at most 250 ms. SQLite's own busy handler tries as often (it
 * sleeps 1 to 100 ms between tries) but sleeps on this thread; these waits
 * are timers. A try that fails costs a few microseconds, so a write gets in
 * within 250 ms of the store being free.
 */
export const BUSY_BACKOFF = { firstMs: 10, maxMs: 250 } as const;

/**
 * How long to wait before the next try of a write that has found the store
 * busy `tries` times in a row ({@link BUSY_BACKOFF}).
 *
 * @example busyBackoff(0) // 10; busyBackoff(2) // 40; busyBackoff(20) // 250
 */
export function busyBackoff(tries: number): number {
  return Math.min(BUSY_BACKOFF.maxMs, BUSY_BACKOFF.firstMs * 2 ** Math.min(tries, 30));
}

/**
 * `attempt`, tried again after {@link busyBackoff} each time it finds the
 * store busy, until the waits add up to `deadlineMs`; then its last busy
 * error is thrown. Any other error is thrown at once. Between tries the
 * event loop runs (the waits are timers, `sleep` in tests).
 *
 * @example await whenFree(() => writeNow(knex, (trx) => trx('harvest_locks').where({ source }).delete()), { deadlineMs: 10_000 });
 */
export async function whenFree<T>(
  attempt: () => Promise<T>,
  options: { readonly deadlineMs: number; readonly sleep?: (ms: number) => Promise<void> },
): Promise<T> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let waited = 0;
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (err) {
      const wait = busyBackoff(tries);
      if (!isBusy(err) || waited + wait > options.deadlineMs) throw err;
      waited += wait;
      await sleep(wait);
    }
  }
}

/** A write repeated on a timer ({@link repeatWrite}). */
export interface RepeatedWrite {
  /**
   * Writes now rather than at the next turn: resolves once written (tried
   * again on timers while the store is busy), once a try fails for another
   * reason (the next turn tries again), or once stopped. Never rejects.
   */
  now(): Promise<void>;
  /** Stops repeating; resolves once no try is under way. */
  stop(): Promise<void>;
}

/**
 * Repeats `work` every `everyMs` until stopped, one try at a time, each by
 * {@link writeNow}: written, the next comes `everyMs` later; the store busy,
 * it is tried again after {@link busyBackoff}; any other failure waits for
 * the next turn. Nothing here throws (a process's bookkeeping never fails
 * it), and its timers do not keep the process alive.
 *
 * @example const beat = repeatWrite(knex, 15_000, (trx) => trx('store_holders').where({ id }).update({ heartbeat: now() })); … await beat.stop();
 */
export function repeatWrite(knex: Knex, everyMs: number, work: (trx: Knex.Transaction) => Promise<unknown>): RepeatedWrite {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let busyTries = 0;
  let under: Promise<void> | null = null;
  const waiting: (() => void)[] = [];
  const settle = (): void => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  const later = (ms: number): void => {
    timer = setTimeout(go, ms);
    timer.unref();
  };
  function go(): void {
    clearTimeout(timer);
    timer = undefined;
    if (stopped || under !== null) return;
    under = writeNow(knex, work)
      .then(
        () => false,
        (err: unknown) => isBusy(err),
      )
      .then((busy) => {
        under = null;
        busyTries = busy ? busyTries + 1 : 0;
        if (!busy) settle();
        if (!stopped) later(busy ? busyBackoff(busyTries - 1) : everyMs);
      });
  }
  later(everyMs);
  return {
    now() {
      if (stopped) return Promise.resolve();
      const written = new Promise<void>((resolve) => waiting.push(resolve));
      // A try under way answers this call too: it writes the same thing.
      if (under === null) go();
      return written;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await under;
      settle();
    },
  };
}
