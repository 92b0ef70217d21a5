/**
 * Who holds the store: a row in `store_holders` (migration 011) for every
 * `serve`, `load` and `harvest` process while it runs, and for a `restore`
 * while it replaces the store. A restore is refused while anything else
 * holds the store (a server would go on answering from what it read and
 * prepared before, a loader would write into a store that is being
 * replaced); a server, load or harvest is refused while a restore holds it.
 *
 * The same table on SQLite and PostgreSQL, rather than advisory locks on
 * PostgreSQL: a row says who holds the store (kind, pid, host, since), which
 * is what the operator needs to read, and one mechanism is tested once.
 *
 * Registering inserts the holder's row first and only then reads the others,
 * each statement committed on its own: of two processes registering at once,
 * at least one sees the other, so a restore and a server can never both go
 * on (at worst both are refused, and the operator tries again).
 *
 * A holder refreshes its `heartbeat` every {@link HEARTBEAT_SECONDS} and
 * deletes its row on a clean stop. A row left behind by a process that died
 * does not hold the store: on this host, when its pid no longer exists
 * (whatever its heartbeat: a load in one long SQLite transaction holds the
 * file's write lock, so its own beats wait until it commits, and it must
 * still hold the store); on another host, once its heartbeat is older than
 * {@link STALE_SECONDS} at two looks {@link STALE_RECHECK_MS} apart.
 *
 * A heartbeat is bookkeeping: it never waits for SQLite's write lock on the
 * thread (../db/no-wait.ts), so a server whose store a harvest or a load is
 * writing goes on answering; a beat that finds the store busy is tried again
 * on a timer until it is written, and never throws.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import type { Knex } from 'knex';
import { repeatWrite, whenFree, writeNow } from '../db/no-wait';
import { watchLockWaits, type LockWait } from '../db/sqlite-client';

/** What holds the store. */
export type HolderKind = 'server' | 'load' | 'harvest' | 'restore';

/** One row of `store_holders`. */
export interface StoreHolder {
  readonly id: string;
  readonly kind: HolderKind;
  readonly pid: number;
  readonly host: string;
  /** When it registered, ISO 8601 UTC. */
  readonly startedAt: string;
  /** When it last said it is alive, seconds since the Unix epoch. */
  readonly heartbeat: number;
}

/** A hold on the store; `release` deletes its row and is safe to call twice. */
export interface StoreHold {
  readonly holder: StoreHolder;
  /**
   * Beats now rather than at the next beat: resolves once the heartbeat is
   * written (tried again on timers while the store is busy), once a try fails
   * for another reason (the next regular beat tries again), or once the hold
   * is released. Never rejects.
   */
  beat(): Promise<void>;
  release(): Promise<void>;
}

/** How often a holder refreshes its heartbeat (seconds). */
export const HEARTBEAT_SECONDS = 15;

/**
 * How old a heartbeat may be before its row no longer holds the store
 * (seconds): eight heartbeats, so a busy process or a slow database does not
 * lose its hold, and a process killed on another host frees the store within
 * two minutes.
 *
 * Beats skipped while another writer holds a SQLite store for longer than
 * that do not lose a hold either. While the writer holds the store nobody
 * else can write, so no row can be deleted and no restore can register (a
 * registration is a write): a row is only ever judged once the store is
 * free again. Then the holder's beat, tried again every 250 ms at most while
 * the store was busy (../db/no-wait.ts `BUSY_BACKOFF`), is written
 * within a fraction of a second; so a row of another host that looks stale
 * is looked at again {@link STALE_RECHECK_MS} later, and holds the store if
 * its heartbeat moved meanwhile ({@link liveHolders}).
 */
export const STALE_SECONDS = 8 * HEARTBEAT_SECONDS;

/**
 * How long after a first look a row that looks stale is looked at again
 * (milliseconds): twenty times the longest wait between tries of a busy
 * beat (../db/no-wait.ts `BUSY_BACKOFF`), so a holder whose beats a long
 * write held back has beaten by then.
 */
export const STALE_RECHECK_MS = 5000;

/** How long releasing a hold tries to delete its row while the store is busy (milliseconds). */
const RELEASE_DEADLINE_MS = 10_000;

/** Refused: something else holds the store. The message is one line for the operator. */
export class StoreInUseError extends Error {
  constructor(
    message: string,
    readonly holders: readonly StoreHolder[],
  ) {
    super(message);
  }
}

/** What a holder's liveness is judged against. */
export interface HolderWorld {
  /** This host's name (`os.hostname()`). */
  readonly host: string;
  /** Now, seconds since the Unix epoch. */
  readonly now: number;
  /** Whether a process of this host exists. */
  pidAlive(pid: number): boolean;
}

/**
 * Whether a row still holds the store: of this host, while its process
 * exists; of another host, while its heartbeat is recent.
 *
 * @example holdsStore(row, { host: 'h', now: 1_800_000_000, pidAlive: () => false }) // false for a row of host h
 */
export function holdsStore(holder: StoreHolder, world: HolderWorld): boolean {
  if (holder.host === world.host) return world.pidAlive(holder.pid);
  return world.now - holder.heartbeat <= STALE_SECONDS;
}

/**
 * One holder as the operator reads it.
 *
 * @example describeHolder(h) // 'a server (pid 1234 on host h, since 2026-11-27T15:00:00Z)'
 */
export function describeHolder(holder: StoreHolder): string {
  return `a ${holder.kind} (pid ${holder.pid} on host ${holder.host}, since ${holder.startedAt})`;
}

/** Whether `pid` names a process of this host (one we may not signal exists too). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

const epochSeconds = (): number => Math.floor(Date.now() / 1000);

interface HolderRow {
  id: string;
  kind: string;
  pid: number | string;
  host: string;
  started_at: string;
  heartbeat: number | string;
}

function fromRow(r: HolderRow): StoreHolder {
  return { id: r.id, kind: r.kind as HolderKind, pid: Number(r.pid), host: r.host, startedAt: r.started_at, heartbeat: Number(r.heartbeat) };
}

/** How the holders are judged: the clock, and the wait between two looks at a row that looks stale. */
export interface HolderJudging {
  /** Now, seconds since the Unix epoch. */
  readonly now?: () => number;
  /** Waits between the two looks (default: {@link STALE_RECHECK_MS} on a timer; tests pass their own). */
  readonly recheck?: () => Promise<void>;
}

const waitToRecheck = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, STALE_RECHECK_MS));

/** Every row of `store_holders`, oldest first, whether or not it still holds the store. */
async function readHolders(knex: Knex): Promise<StoreHolder[]> {
  return ((await knex('store_holders').select('*').orderBy(['started_at', 'id'])) as HolderRow[]).map(fromRow);
}

/**
 * The holders of the store now, oldest first; rows that no longer hold it
 * are deleted on the way: of a dead process of this host at once, stale ones
 * of another host when they look stale at two looks apart (a beat held back
 * by a long write of another process lands in between; see
 * {@link STALE_SECONDS}).
 *
 * @example (await liveHolders(knex)).map(describeHolder)
 */
export async function liveHolders(knex: Knex, judging: HolderJudging = {}): Promise<StoreHolder[]> {
  const now = judging.now ?? epochSeconds;
  let rows = await readHolders(knex);
  const world = (): HolderWorld => ({ host: os.hostname(), now: now(), pidAlive });
  const first = world();
  let gone = rows.filter((h) => !holdsStore(h, first));
  if (gone.some((h) => h.host !== first.host)) {
    await (judging.recheck ?? waitToRecheck)();
    const before = new Map(gone.map((h) => [h.id, h.heartbeat]));
    rows = await readHolders(knex);
    const second = world();
    // Gone: what still does not hold the store and has not beaten since the first look.
    gone = rows.filter((h) => !holdsStore(h, second) && (h.host === second.host || before.get(h.id) === h.heartbeat));
  }
  // Each deleted only as it was read: a row that beat meanwhile stays.
  for (const h of gone) await knex('store_holders').where({ id: h.id, heartbeat: h.heartbeat }).delete();
  const deleted = new Set(gone.map((h) => h.id));
  return rows.filter((h) => !deleted.has(h.id));
}

/** Whether the store has the table at all (one made before migration 011 has no holder to know of). */
export async function hasHolders(knex: Knex): Promise<boolean> {
  return knex.schema.hasTable('store_holders');
}

/** The holders that stand in the way of one of `kind`: for a restore, every other; for the rest, a restore. */
function conflicting(kind: HolderKind, others: readonly StoreHolder[]): StoreHolder[] {
  return kind === 'restore' ? [...others] : others.filter((h) => h.kind === 'restore');
}

/** The operator's line for a refusal. */
function refusal(kind: HolderKind, blockers: readonly StoreHolder[]): string {
  const who = blockers.map(describeHolder).join(' and ');
  return kind === 'restore'
    ? `the store is in use by ${who}; stop ${blockers.length === 1 ? 'it' : 'them'} first`
    : `the store is being replaced by ${who}; start again when it has finished`;
}

/**
 * Registers this process as a holder of the store of `kind`, or throws
 * {@link StoreInUseError} (having registered nothing) when that conflicts
 * with a live holder: a restore with anything, anything with a restore. The
 * hold refreshes its heartbeat until released, never waiting for SQLite's
 * write lock on the thread.
 *
 * @example const hold = await holdStore(knex, 'server'); try { … } finally { await hold.release(); }
 */
export async function holdStore(knex: Knex, kind: HolderKind, options: HolderJudging = {}): Promise<StoreHold> {
  const now = options.now ?? epochSeconds;
  const started = now();
  const holder: StoreHolder = {
    id: crypto.randomBytes(12).toString('hex'),
    kind,
    pid: process.pid,
    host: os.hostname(),
    startedAt: new Date(started * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    heartbeat: started,
  };
  const row = { id: holder.id, kind, pid: holder.pid, host: holder.host, started_at: holder.startedAt };
  await knex('store_holders').insert({ ...row, heartbeat: started });
  const blockers = conflicting(
    kind,
    (await liveHolders(knex, options)).filter((h) => h.id !== holder.id),
  );
  if (blockers.length > 0) {
    await knex('store_holders').where({ id: holder.id }).delete();
    throw new StoreInUseError(refusal(kind, blockers), blockers);
  }
  // Beats on timers that never wait for the store (../db/no-wait.ts): a busy store is tried again within 250 ms.
  const heart = repeatWrite(knex, HEARTBEAT_SECONDS * 1000, async (trx) => {
    const t = now();
    const n = await trx('store_holders').where({ id: holder.id }).update({ heartbeat: t });
    // A row gone while we hold (taken for stale while this process could not beat) is put back.
    if (n === 0) await trx('store_holders').insert({ ...row, heartbeat: t });
  });
  let released = false;
  return {
    holder,
    beat: () => heart.now(),
    async release() {
      if (released) return;
      released = true;
      // No beat is under way once this resolves, so none puts the row back after it is deleted.
      await heart.stop();
      await whenFree(() => writeNow(knex, (trx) => trx('store_holders').where({ id: holder.id }).delete()), { deadlineMs: RELEASE_DEADLINE_MS });
    },
  };
}

/**
 * Deletes the rows whose heartbeat is older than `before` (seconds): after a
 * restore, the rows the backup carried are holders of the backup's time, not
 * of now.
 *
 * @example await clearHoldersBefore(knex, restoreStarted);
 */
export async function clearHoldersBefore(knex: Knex, before: number): Promise<void> {
  await knex('store_holders').where('heartbeat', '<', before).delete();
}

/**
 * Says, through `say`, that this process waits for SQLite's write lock and
 * who else holds the store (a load or harvest writing in one long
 * transaction, most often), then that it goes on: a command behind another's
 * long write tells the operator why it sits still, and that it has not
 * failed (it waits up to an hour, ../db/sqlite-client.ts). Who holds the lock
 * is not something SQLite tells; the holders are read without changing
 * anything (a read never waits for a writer in WAL mode). Returns the
 * function that stops telling.
 *
 * @example const stop = reportLockWaits(knex, (line) => process.stderr.write(`oai-steward: ${line}\n`));
 */
export function reportLockWaits(knex: Knex, say: (line: string) => void): () => void {
  // Lines in the order of the waits they tell of, though naming the holders takes a read.
  let told = Promise.resolve();
  return watchLockWaits(knex, (wait) => {
    told = told.then(async () => say(lockWaitLine(wait, wait.acquired ? [] : await otherHolders(knex)))).catch(() => undefined);
  });
}

/**
 * The line {@link reportLockWaits} says of a wait.
 *
 * @example lockWaitLine({ waitedMs: 2000, acquired: false }, []) // 'waiting for the store\'s write lock for 2 s …'
 */
export function lockWaitLine(wait: LockWait, holders: readonly StoreHolder[]): string {
  const seconds = Math.round(wait.waitedMs / 1000);
  if (wait.acquired) return `got the store's write lock after ${seconds} s; going on`;
  // SQLite does not say which connection holds its lock: the holders registered are who may.
  const who =
    holders.length === 0
      ? 'another connection is writing the store'
      : holders.length === 1
        ? `${describeHolder(holders[0] as StoreHolder)} holds the store and is most likely the writer`
        : `the store is held by ${holders.map(describeHolder).join(', ')}; one of them is most likely the writer`;
  return (
    `waiting for the store's write lock for ${seconds} s (SQLite lets one process write at a time): ${who}; ` +
    `this command goes on as soon as that write commits, and waits at most an hour`
  );
}

/** The processes other than this one that hold the store now, read without deleting stale rows (that would be a write). */
async function otherHolders(knex: Knex): Promise<StoreHolder[]> {
  try {
    const rows = await readHolders(knex);
    const world: HolderWorld = { host: os.hostname(), now: epochSeconds(), pidAlive };
    return rows.filter((h) => holdsStore(h, world) && !(h.host === world.host && h.pid === process.pid));
  } catch {
    // A store older than the holders table (migrate is what waits) has none to name.
    return [];
  }
}
