/**
 * The reads of one consistent snapshot (lib/store/admin.ts `SnapshotReads`), for
 * a bulk dump (server/dump/write.ts): the read side, the scan and the
 * departures, bound to the snapshot's transaction (../db/snapshot.ts).
 */
import type { Knex } from 'knex';
import type { SnapshotReads } from '../../lib/store';
import { toInt } from '../db/dialect';
import { inSnapshot } from '../db/snapshot';
import type { OnDemand } from './on-demand';
import { KnexReadStore } from './read';
import { scanItems, storedDepartures } from './scan';

/**
 * Runs `fn` with the reads of one snapshot of the store; `onDemand` writes
 * the formats the store keeps as models only.
 *
 * @example await snapshotOf(knex, onDemand, (reads) => reads.listSets(null, 100))
 */
export async function snapshotOf<T>(knex: Knex, onDemand: OnDemand | undefined, fn: (reads: SnapshotReads) => Promise<T>): Promise<T> {
  return inSnapshot(knex, (trx) => {
    const store = new KnexReadStore(trx, onDemand);
    return fn({
      listRecords: (q) => store.listRecords(q),
      listSets: (after, limit) => store.listSets(after, limit),
      scanItems: (afterPk, limit, options) => scanItems(trx, afterPk, limit, onDemand, options),
      departures: (pks) => storedDepartures(trx, pks),
      async datestampRange(since) {
        const [range] = (await trx('items').where('datestamp', '>=', since).select(trx.raw('min(datestamp) AS earliest, max(datestamp) AS latest'))) as {
          earliest: unknown;
          latest: unknown;
        }[];
        const earliest = range?.earliest === null || range?.earliest === undefined ? null : toInt(range.earliest);
        const latest = range?.latest === null || range?.latest === undefined ? null : toInt(range.latest);
        return { earliest, latest };
      },
    });
  });
}
