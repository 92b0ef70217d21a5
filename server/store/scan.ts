/**
 * The scan of every item a page at a time (lib/store.ts `ItemScan`), with
 * each item's direct sets and the stored metadata of every format: what
 * `oai-steward check` and `oai-steward rebuild-sets` walk. Keyset on `pk`,
 * so page 1,000 costs what page 1 does and memory holds one page.
 */
import type { Knex } from 'knex';
import type { ScannedItem } from '../../lib/store';
import { chunk, MAX_IN_LIST, toBool, toInt } from '../db/dialect';
import { directSets } from './read';

/**
 * Up to `limit` items after `afterPk`, in `pk` order, with their sets and metadata.
 *
 * @example for (let page = await scanItems(knex, 0, 500); page.length > 0; page = await scanItems(knex, page[page.length - 1].pk, 500)) …
 */
export async function scanItems(knex: Knex, afterPk: number, limit: number): Promise<ScannedItem[]> {
  const rows = (await knex('items')
    .select('pk', 'internal_id', 'identifier', 'datestamp', 'deleted')
    .where('pk', '>', afterPk)
    .orderBy('pk')
    .limit(limit)) as { pk: unknown; internal_id: string; identifier: string; datestamp: unknown; deleted: unknown }[];
  const pks = rows.map((r) => toInt(r.pk));
  const sets = await directSets(knex, pks);
  const metadata = new Map<number, Record<string, string | null>>();
  for (const part of chunk(pks, MAX_IN_LIST)) {
    if (part.length === 0) continue;
    const records = (await knex('records').select('item_pk', 'prefix', 'xml').whereIn('item_pk', part)) as { item_pk: unknown; prefix: string; xml: string | null }[];
    for (const r of records) {
      const pk = toInt(r.item_pk);
      const m = metadata.get(pk) ?? {};
      m[r.prefix] = r.xml;
      metadata.set(pk, m);
    }
  }
  return rows.map((r) => {
    const pk = toInt(r.pk);
    return {
      pk,
      internalId: r.internal_id,
      identifier: r.identifier,
      datestamp: toInt(r.datestamp),
      deleted: toBool(r.deleted),
      sets: sets.get(pk) ?? [],
      metadata: metadata.get(pk) ?? {},
    };
  });
}
