/**
 * Partial mode, written once for the loader (`load --partial`) and the
 * harvester (each page): a batch is written, and when the store refuses some
 * of its records, they are left out and the rest written again, until a
 * write passes or nothing is left. It asks only the store's write door
 * (lib/store.ts `WriteStore.writeItems`), whose one transaction writes all
 * of a batch or none of it.
 */
import { RefusedError, type ItemInput, type WriteResult, type WriteStore } from '../store';
import type { Refusal } from '../model/refusal';

/** What a batch written in partial mode came to. */
export interface PartialWrite {
  /** What the last, passing write did to each item it wrote (none when nothing was written). */
  readonly results: readonly WriteResult[];
  /** The items that last write was given: the batch less every record refused. */
  readonly written: readonly ItemInput[];
  /** Every refusal of every pass, in the order the store gave them. */
  readonly refusals: readonly Refusal[];
  /** How many items of the batch were refused (an item refused for several reasons counts once). */
  readonly refusedItems: number;
}

/**
 * Writes `items`, leaving out the records the store refuses and writing the
 * rest again; with `partial` false, the first refusal ends it with nothing
 * written (a load that commits all or nothing). The rest must be written
 * again, not kept: the store writes a batch whole or not at all, so a
 * record that passed was refused only in company, with its batch, and
 * passes on the next pass. And the rest is judged again as a batch, not
 * taken as passed: leaving records out changes what the rules over a batch
 * see (lib/pipeline/governance.ts, rule 2, one identifier per batch), so the
 * store decides again. Each pass leaves out at least one record, so it ends.
 *
 * @example const out = await writeLeavingOutRefused(tx, items); for (const r of out.refusals) report(r);
 */
export async function writeLeavingOutRefused(store: Pick<WriteStore, 'writeItems'>, items: readonly ItemInput[], partial = true): Promise<PartialWrite> {
  const refusals: Refusal[] = [];
  let refusedItems = 0;
  let pending = items;
  while (pending.length > 0) {
    try {
      return { results: await store.writeItems(pending), written: pending, refusals, refusedItems };
    } catch (err) {
      if (!(err instanceof RefusedError)) throw err;
      refusals.push(...err.refusals);
      const refused = new Set(err.refusals.map((r) => r.internalId));
      const left = pending.filter((i) => !refused.has(i.internalId));
      refusedItems += pending.length - left.length;
      // A refusal naming no record of the batch would leave it as it was: stop rather than loop.
      if (!partial || left.length === pending.length) return { results: [], written: [], refusals, refusedItems };
      pending = left;
    }
  }
  return { results: [], written: [], refusals, refusedItems };
}
