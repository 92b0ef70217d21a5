/**
 * Publication: the moment a write's changes become visible to readers, and
 * the datestamp they get. A harvester that asks `from` the responseDate of
 * its last harvest (OAI-PMH 2.0 section 3.3, and the harvesting guidelines)
 * must find every change that became visible after that harvest read the
 * store, so a datestamp must never be earlier than the moment its record
 * became visible. A write is therefore stamped when it is published, not
 * when it is written:
 *
 * 1. while a transaction writes, every datestamp it gives is a placeholder
 *    of its own ({@link newPublication}), far above any real time, so every
 *    "never earlier than the datestamp published" rule still holds;
 * 2. at its end, under the store's publication lock ({@link publish}),
 *    it reads the store's time T, the later of the clock and the last
 *    publication's time, puts T where it put the placeholder ({@link publish}),
 *    and commits; the lock is released once the commit is visible;
 * 3. a reader that starts a list reads the clock R first, then waits until no
 *    publication holds the lock ({@link settle}), then reads.
 *
 * A publication that took the lock before the reader's wait ended is
 * committed before the reader reads, so it is seen; one that took it after
 * read the clock after R, so its T is at least R and a harvest `from` R finds
 * it. Publications are serialized, so commit order is stamp order. The lock
 * is held only for the restamp and the commit, never for the work before.
 *
 * - PostgreSQL: a transaction-level advisory lock (PostgreSQL 15, section
 *   9.27.10), exclusive for a publication and shared for a reader's wait, keyed
 *   by the schema so stores sharing a database never wait on each other;
 *   released by the commit itself, after the commit is visible.
 * - SQLite: the lock of a second, empty database file beside the store
 *   (`<file>-publish`), taken with `BEGIN IMMEDIATE` on a connection of its own:
 *   the store's own write lock is held for the whole of a write, so readers
 *   cannot wait on it. `:memory:` has one connection, whose pool already
 *   keeps every read out of an open write.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { dialectOf, firstRow, toInt, type PublicationLock } from './dialect';
import { prepareAppend, type WriteUnwritten } from './log/append';

/** Placeholders lie in [LOW, LOW + SPAN): far above any real time, still a valid JavaScript date when multiplied by 1000. */
const PLACEHOLDER_LOW = 4_000_000_000_000;
const PLACEHOLDER_SPAN = 4_000_000_000_000;

/** One write's publication: the placeholder its datestamps carry until it is published. */
export interface Publication {
  readonly placeholder: number;
}

/**
 * A new publication, with a placeholder no other write in flight uses.
 *
 * @example const pub = newPublication(); // write with pub.placeholder, then publish(trx, pub, clock())
 */
export function newPublication(): Publication {
  return { placeholder: PLACEHOLDER_LOW + crypto.randomInt(PLACEHOLDER_SPAN) };
}

export type { PublicationLock } from './dialect';

const NOTHING_TO_RELEASE: PublicationLock = { release: () => undefined };

/**
 * Takes the publication lock for a write's transaction `trx` (what
 * {@link publish} does); it is released once the transaction has committed or
 * rolled back (PostgreSQL's by the commit itself).
 */
async function publicationLock(trx: Knex): Promise<PublicationLock> {
  return dialectOf(trx).publicationLock(trx);
}

/**
 * Waits until no publication holds the lock: every write that began
 * publishing before this call is then visible to a read started after it.
 * A reader reads the clock before it waits (see the module's comment).
 *
 * @example const at = clock(); await settle(knex); // then read, and answer with `at`
 */
export async function settle(knex: Knex): Promise<void> {
  await dialectOf(knex).settle(knex);
}

/**
 * Publishes the writes of `trx` made under `pub`, as the transaction's last
 * statements: when it stamped anything, takes the publication lock
 * ({@link publicationLock}), then reads the time of publication, the later of
 * `clock()` and the last publication's, so datestamps never go back, and puts
 * it wherever the transaction gave the placeholder (datestamps and
 * departures). Before the restamp it appends the publication's events to
 * the publication log (./log/append.ts; `writeUnwritten` writes the records
 * kept without XML), read and hashed before the lock is taken. Returns the
 * lock, to release once the transaction has ended.
 *
 * @example const lock = await publish(trx, pub, clock); … commit …; lock.release();
 */
export async function publish(trx: Knex, pub: Publication, clock: () => number, writeUnwritten?: WriteUnwritten): Promise<PublicationLock> {
  const p = pub.placeholder;
  const n = toInt(firstRow((await trx.raw('SELECT count(*) AS n FROM items WHERE datestamp = ?', [p])) as unknown)?.n ?? 0);
  // What the publication log records of it, read and hashed before the lock (./log/append.ts).
  const logged = await prepareAppend(trx, p, writeUnwritten);
  if (n === 0 && logged.empty) return NOTHING_TO_RELEASE;
  const lock = await publicationLock(trx);
  try {
    // The clock is read holding the lock: a reader that waited for it read its own clock before.
    const last = toInt(firstRow((await trx.raw('SELECT last FROM publication WHERE id = 1')) as unknown)?.last ?? 0);
    const at = Math.max(clock(), last);
    await logged.append(at);
    // Only an item stamped by this write has records, memberships or departures stamped by it (lib/pipeline/decide.ts).
    const mine = 'item_pk IN (SELECT pk FROM items WHERE datestamp = ?)';
    await trx.raw(`UPDATE records SET datestamp = ? WHERE datestamp = ? AND ${mine}`, [at, p, p]);
    await trx.raw(`UPDATE item_sets SET departed = ? WHERE departed = ? AND ${mine}`, [at, p, p]);
    await trx.raw(`UPDATE item_sets SET datestamp = ? WHERE datestamp = ? AND ${mine}`, [at, p, p]);
    await trx.raw('UPDATE items SET datestamp = ? WHERE datestamp = ?', [at, p]);
    // Only a time something was stamped with is the last publication's: a write that stamped nothing (items that
    // kept their datestamps, logged all the same) must not move later writes' datestamps on.
    if (n > 0) await trx.raw('UPDATE publication SET last = ? WHERE id = 1', [at]);
    return lock;
  } catch (err) {
    lock.release();
    throw err;
  }
}
