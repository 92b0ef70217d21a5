/**
 * A source harvested in several metadataPrefixes: each list brings the
 * record's XML in its own prefix. What the item gave in the other prefixes
 * is kept by the write decision itself (lib/pipeline/decide.ts
 * `withStoredGiven`, the one merge of given formats), which lifts the model
 * from the richest of them (lib/pipeline/lift.ts `LIFT_ORDER`), whatever the
 * order of the lists, so harvesting them all again changes nothing.
 *
 * What is left here is the about containers: the store keeps one set an
 * item, not one a format. The provenance container is the one the first
 * prefix's list wrote (it names that prefix's namespace); a later list keeps
 * what the store holds rather than write its own, which would change the
 * item on every list.
 */
import type { HarvestBookkeeping, ItemInput } from '../../lib/store';

/**
 * The items of a later prefix's list with the about containers the store
 * holds for them in place of their own; deleted items, and items the store
 * holds no about containers for, are left as they are.
 *
 * @example await withStoredAbout(tx, items)
 */
export async function withStoredAbout(tx: Pick<HarvestBookkeeping, 'storedAbout'>, items: readonly ItemInput[]): Promise<ItemInput[]> {
  const live = items.filter((i) => i.deleted !== true && i.readFrom === undefined);
  if (live.length === 0) return [...items];
  const stored = await tx.storedAbout(live.map((x) => x.internalId));
  return items.map((item) => {
    const kept = item.deleted === true ? undefined : stored.get(item.internalId);
    return kept ? { ...item, about: [...kept] } : item;
  });
}
