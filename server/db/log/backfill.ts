/**
 * The log of a store that held items before it had one: an upgrade's first
 * entries. Migration 019 makes the log's tables, empty; this appends, in one
 * transaction under the publication lock (../publication.ts), one `new`
 * entry per item without a leaf, as it is served now, and for a tombstone a
 * `new` entry of its header and then a `deleted` one: items in the order of
 * their datestamps, then of their keys, so the log begins where the store's
 * history as served begins.
 *
 * It runs where the configuration is known (server/provider.ts, after
 * migrating), not in the migration, because a record kept without XML (a
 * format written on demand, server/store/on-demand.ts) must be written to be
 * hashed as served, and only the configured writers can write it. A store
 * whose items all have a leaf (any store that has its log) appends nothing:
 * one count of the items tells.
 */
import type { Knex } from 'knex';
import { toInt } from '../dialect';
import { holdPublicationLock } from '../publication';
import { appendEntries, entriesOf, snapshots, type WriteUnwritten } from './append';
import { loggedItems } from './tables';

/** Items read and appended at a time. */
const PAGE = 500;

/** Whether every item has a leaf: the log's head counts them. */
async function allLogged(db: Knex): Promise<boolean> {
  const total = toInt(((await db('items').count('* as n')) as { n: unknown }[])[0]?.n ?? 0);
  return total === (await loggedItems(db));
}

/** Up to {@link PAGE} items without a leaf after `after`, in (datestamp, pk) order. */
async function unloggedPage(db: Knex, after: { datestamp: number; pk: number } | null): Promise<{ pk: number; datestamp: number }[]> {
  const q = db('items as i')
    .whereNotExists(db('log_leaves as l').whereRaw('l.item_pk = i.pk').select(db.raw('1')))
    .select('i.pk', 'i.datestamp')
    .orderBy([{ column: 'i.datestamp' }, { column: 'i.pk' }])
    .limit(PAGE);
  if (after !== null) {
    const a = after;
    q.where((w) => w.where('i.datestamp', '>', a.datestamp).orWhere((x) => x.where('i.datestamp', a.datestamp).andWhere('i.pk', '>', a.pk)));
  }
  return ((await q) as { pk: unknown; datestamp: unknown }[]).map((r) => ({ pk: toInt(r.pk), datestamp: toInt(r.datestamp) }));
}

/**
 * Appends an entry for every item that has no leaf (see the module's
 * comment); `writeUnwritten` writes the records kept without XML, so each
 * entry lists every format the item is served in. Returns how many entries
 * were appended (0 when the store has its log).
 *
 * @example await backfillLog(knex, (trx, wanted) => writeOnDemand(trx, od, wanted)) // 0 once the log exists
 */
export async function backfillLog(knex: Knex, writeUnwritten?: WriteUnwritten): Promise<number> {
  if (!(await knex.schema.hasTable('log_head')) || (await allLogged(knex))) return 0;
  return holdPublicationLock(knex, async (trx) => {
    // Another process may have made the log while this one waited for the lock.
    if (await allLogged(trx)) return 0;
    let appended = 0;
    for (let after: { datestamp: number; pk: number } | null = null; ;) {
      const rows = await unloggedPage(trx, after);
      if (rows.length === 0) break;
      const byPk = new Map(
        (
          await snapshots(
            trx,
            rows.map((r) => r.pk),
            -1,
            -1,
            { ...(writeUnwritten && { writeUnwritten }), storedHashes: true },
          )
        ).map((s) => [s.pk, s]),
      );
      const entries = entriesOf(
        rows.flatMap((r) => byPk.get(r.pk) ?? []),
        new Set(),
      );
      await appendEntries(trx, entries);
      appended += entries.length;
      after = rows[rows.length - 1] as { datestamp: number; pk: number };
    }
    return appended;
  });
}
