/**
 * What the store holds as given for items (lib/store.ts `StoredGiven`): the
 * XML each item gave in some formats, not what the pipeline wrote from its
 * model (`record_fields.derived`), and its about containers. A harvest of a
 * source in several metadataPrefixes reads them in each page's transaction
 * (server/harvest/merge.ts).
 */
import type { Knex } from 'knex';
import type { AboutInput, StoredGiven } from '../../lib/store';

/** Internal ids read per query. */
const PER_QUERY = 400;

/**
 * The XML the items gave in any of `prefixes` and, with `withAbout`, their
 * about containers in order; items with none are absent from the maps.
 *
 * @example (await storedGiven(trx, ['src:1'], ['oai_openaire'], true)).metadata.get('src:1')?.oai_openaire
 */
export async function storedGiven(knex: Knex, internalIds: readonly string[], prefixes: readonly string[], withAbout: boolean): Promise<StoredGiven> {
  const metadata = new Map<string, Record<string, string>>();
  const about = new Map<string, AboutInput[]>();
  if (prefixes.length === 0) return { metadata, about };
  for (let i = 0; i < internalIds.length; i += PER_QUERY) {
    const ids = internalIds.slice(i, i + PER_QUERY);
    const rows = (await knex('items as i')
      .join('records as r', 'r.item_pk', 'i.pk')
      .leftJoin('record_fields as f', 'f.item_pk', 'i.pk')
      .whereIn('i.internal_id', ids)
      .whereIn('r.prefix', [...prefixes])
      .whereNotNull('r.xml')
      .select('i.internal_id', 'r.prefix', 'r.xml', 'f.derived')) as { internal_id: string; prefix: string; xml: string; derived: string | null }[];
    for (const r of rows) {
      const derived = JSON.parse(r.derived ?? '[]') as string[];
      if (derived.includes(r.prefix)) continue;
      const m = metadata.get(r.internal_id) ?? {};
      m[r.prefix] = r.xml;
      metadata.set(r.internal_id, m);
    }
    if (!withAbout) continue;
    const abouts = (await knex('items as i')
      .join('item_about as a', 'a.item_pk', 'i.pk')
      .whereIn('i.internal_id', ids)
      .orderBy(['i.internal_id', 'a.position'])
      .select('i.internal_id', 'a.xml', 'a.compare_as')) as { internal_id: string; xml: string; compare_as: string | null }[];
    for (const a of abouts) {
      const list = about.get(a.internal_id) ?? [];
      list.push({ xml: a.xml, ...(a.compare_as !== null && { compareAs: a.compare_as }) });
      about.set(a.internal_id, list);
    }
  }
  return { metadata, about };
}
