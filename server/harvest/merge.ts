/**
 * A source harvested in several metadataPrefixes: each list brings the
 * record's XML in its own prefix, and an item written with one prefix's XML
 * alone would drop the XML another list gave (the pipeline keeps what an
 * item gives and writes the other formats from its model). So a page's
 * items carry, besides their own prefix's XML, what the store holds as given
 * (not written by the pipeline) in the source's other prefixes
 * (lib/store.ts `HarvestBookkeeping.storedGiven`). The model is then lifted
 * from the richest of them (lib/pipeline/lift.ts `LIFT_ORDER`), whatever the
 * order of the lists, and harvesting them all again changes nothing.
 *
 * The store keeps one set of about containers an item, not one a format:
 * the provenance container is the one the first prefix's list wrote (it
 * names that prefix's namespace); a later list keeps what the store holds
 * rather than write its own, which would change the item on every list.
 */
import type { HarvestBookkeeping, ItemInput } from '../../lib/store';

/**
 * The items with the XML the store holds as given for them in `others`
 * (prefixes of the same source other than the page's), added where the item
 * does not give that prefix itself, and with `keepAbout` the about
 * containers the store holds for them; deleted items are left as they are.
 *
 * @example await withOtherPrefixes(tx, items, ['oai_openaire'], true)
 */
export async function withOtherPrefixes(
  tx: Pick<HarvestBookkeeping, 'storedGiven'>,
  items: readonly ItemInput[],
  others: readonly string[],
  keepAbout: boolean,
): Promise<ItemInput[]> {
  const live = items.filter((i) => i.deleted !== true && i.readFrom === undefined);
  if (others.length === 0 || live.length === 0) return [...items];
  const stored = await tx.storedGiven(
    live.map((x) => x.internalId),
    others,
    keepAbout,
  );
  return items.map((item) => {
    if (item.deleted === true) return item;
    const extra = stored.metadata.get(item.internalId);
    const kept = stored.about.get(item.internalId);
    return { ...item, ...(extra && { metadata: { ...extra, ...item.metadata } }), ...(kept && { about: [...kept] }) };
  });
}
