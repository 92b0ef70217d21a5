/**
 * A source harvested in several metadataPrefixes: each list brings the
 * record's XML in its own prefix, and an item written with one prefix's XML
 * alone would drop the XML another list gave (the pipeline keeps what an
 * item gives and writes the other formats from its model). So a page's
 * items carry, besides their own prefix's XML, what the store holds as given
 * (not written by the pipeline: `record_fields.derived`) in the source's
 * other prefixes. The model is then lifted from the richest of them
 * (lib/pipeline/lift.ts `LIFT_ORDER`), whatever the order of the lists, and
 * harvesting them all again changes nothing.
 *
 * The store keeps one set of about containers an item, not one a format:
 * the provenance container is the one the first prefix's list wrote (it
 * names that prefix's namespace); a later list keeps what the store holds
 * rather than write its own, which would change the item on every list.
 */
import type { Knex } from 'knex';
import type { AboutInput, ItemInput } from '../../lib/store';

/**
 * The items with the XML the store holds as given for them in `others`
 * (prefixes of the same source other than the page's), added where the item
 * does not give that prefix itself, and with `keepAbout` the about
 * containers the store holds for them; deleted items are left as they are.
 *
 * @example await withOtherPrefixes(trx, items, ['oai_openaire'], true)
 */
export async function withOtherPrefixes(knex: Knex, items: readonly ItemInput[], others: readonly string[], keepAbout: boolean): Promise<ItemInput[]> {
  const live = items.filter((i) => i.deleted !== true && i.readFrom === undefined);
  if (others.length === 0 || live.length === 0) return [...items];
  const given = new Map<string, Record<string, string>>();
  const about = new Map<string, AboutInput[]>();
  for (let i = 0; i < live.length; i += 400) {
    const ids = live.slice(i, i + 400).map((x) => x.internalId);
    const rows = (await knex('items as i')
      .join('records as r', 'r.item_pk', 'i.pk')
      .leftJoin('record_fields as f', 'f.item_pk', 'i.pk')
      .whereIn('i.internal_id', ids)
      .whereIn('r.prefix', [...others])
      .whereNotNull('r.xml')
      .select('i.internal_id', 'r.prefix', 'r.xml', 'f.derived')) as { internal_id: string; prefix: string; xml: string; derived: string | null }[];
    for (const r of rows) {
      const derived = JSON.parse(r.derived ?? '[]') as string[];
      if (derived.includes(r.prefix)) continue;
      const m = given.get(r.internal_id) ?? {};
      m[r.prefix] = r.xml;
      given.set(r.internal_id, m);
    }
    if (!keepAbout) continue;
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
  return items.map((item) => {
    if (item.deleted === true) return item;
    const extra = given.get(item.internalId);
    const kept = about.get(item.internalId);
    return { ...item, ...(extra && { metadata: { ...extra, ...item.metadata } }), ...(kept && { about: kept }) };
  });
}
