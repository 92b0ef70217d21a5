/**
 * The about containers the store holds for items, by internal id
 * (lib/store/bookkeeping.ts `HarvestBookkeeping.storedAbout`): a harvest of a source in
 * several metadataPrefixes reads them in each later list's page transaction
 * (server/harvest/merge.ts). The formats an item was given are kept by the
 * write decision itself (lib/pipeline/decide.ts `withStoredGiven`).
 */
import type { Knex } from 'knex';
import type { AboutInput } from '../../lib/store';

/** Internal ids read per query. */
const PER_QUERY = 400;

/**
 * The about containers of these items, in order; items with none are absent.
 *
 * @example (await aboutByInternalId(trx, ['src:1'])).get('src:1')?.[0]?.xml
 */
export async function aboutByInternalId(knex: Knex, internalIds: readonly string[]): Promise<Map<string, AboutInput[]>> {
  const about = new Map<string, AboutInput[]>();
  for (let i = 0; i < internalIds.length; i += PER_QUERY) {
    const abouts = (await knex('items as i')
      .join('item_about as a', 'a.item_pk', 'i.pk')
      .whereIn('i.internal_id', internalIds.slice(i, i + PER_QUERY))
      .orderBy(['i.internal_id', 'a.position'])
      .select('i.internal_id', 'a.xml', 'a.compare_as')) as { internal_id: string; xml: string; compare_as: string | null }[];
    for (const a of abouts) {
      const list = about.get(a.internal_id) ?? [];
      list.push({ xml: a.xml, ...(a.compare_as !== null && { compareAs: a.compare_as }) });
      about.set(a.internal_id, list);
    }
  }
  return about;
}
