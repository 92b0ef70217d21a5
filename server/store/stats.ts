/**
 * The store's statistics (lib/store/write.ts `StoreStats`): items, deleted items,
 * items per set and per format, and the earliest and latest datestamps.
 * Counts per set include the items of its descendant sets, as a harvest of
 * that set would return them (OAI-PMH 2.0 section 2.7.2).
 */
import type { Knex } from 'knex';
import { formatDatestamp } from '../../lib/oai/dates';
import type { StoreStats } from '../../lib/store';
import { toInt } from '../db/dialect';

/**
 * Reads the statistics with a handful of aggregate queries (no row is
 * read one by one).
 *
 * @example const s = await storeStats(knex); s.items // 285
 */
export async function storeStats(knex: Knex): Promise<StoreStats> {
  const totals = (await knex('items')
    .select(
      knex.raw('count(*) as n'),
      knex.raw('sum(case when deleted then 1 else 0 end) as d'),
      knex.raw('min(datestamp) as lo'),
      knex.raw('max(datestamp) as hi'),
    )
    .first()) as { n: unknown; d: unknown; lo: unknown; hi: unknown } | undefined;
  const items = toInt(totals?.n ?? 0);
  const deleted = totals?.d === null || totals?.d === undefined ? 0 : toInt(totals.d);
  const setRows = (await knex('sets as s')
    .leftJoin('item_sets as x', 'x.spec', 's.spec')
    .leftJoin('items as i', 'i.pk', 'x.item_pk')
    // An item that left a set is counted there as deleted, as a harvest of the set reports it.
    .select('s.spec', 's.name', knex.raw('count(i.pk) as n'), knex.raw('sum(case when i.deleted or x.departed is not null then 1 else 0 end) as d'))
    .groupBy('s.spec', 's.name')
    .orderBy('s.spec')) as { spec: string; name: string; n: unknown; d: unknown }[];
  const formatRows = (await knex('records as r')
    .join('items as i', 'i.pk', 'r.item_pk')
    .select('r.prefix', knex.raw('count(*) as n'), knex.raw('sum(case when i.deleted then 1 else 0 end) as d'))
    .groupBy('r.prefix')
    .orderBy('r.prefix')) as { prefix: string; n: unknown; d: unknown }[];
  const num = (v: unknown): number => (v === null || v === undefined ? 0 : toInt(v));
  return {
    items,
    deleted,
    live: items - deleted,
    sets: Object.fromEntries(setRows.map((r) => [r.spec, { name: r.name, items: num(r.n), deleted: num(r.d) }])),
    formats: Object.fromEntries(formatRows.map((r) => [r.prefix, { items: num(r.n), deleted: num(r.d) }])),
    earliestDatestamp: totals?.lo === null || totals?.lo === undefined ? null : formatDatestamp(toInt(totals.lo)),
    latestDatestamp: totals?.hi === null || totals?.hi === undefined ? null : formatDatestamp(toInt(totals.hi)),
  };
}
