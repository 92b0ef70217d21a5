/**
 * Partial mode, decided once for the loader (`load --partial`) and the
 * harvester (each page): when the write decision refuses some records of a
 * batch, they are left out and the rest decided again, from the same state,
 * until a decision passes or nothing is left ({@link decideLeavingOut}, pure:
 * no database and no clock). The store reads the state once, runs it, and
 * applies the passing plan in the batch's one transaction (lib/store/
 * `WriteStore.writeItemsLeavingOut`).
 */
import { RefusedError, type ItemInput, type PartialWrite, type WriteStore } from '../store';
import type { Refusal } from '../model/refusal';

export type { PartialWrite };

/** A batch decided in partial mode: the plan that passed (null: nothing passed) and what was left out. */
export interface LeftOut<P> {
  readonly plan: P | null;
  /** The items the plan decides: the batch less every record refused. */
  readonly written: readonly ItemInput[];
  /** Every refusal of every pass, in the order the decision gave them. */
  readonly refusals: readonly Refusal[];
  /** How many items of the batch were refused (an item refused for several reasons counts once). */
  readonly refusedItems: number;
}

/**
 * Decides `items`, leaving out the records `decide` refuses and deciding the
 * rest again; with `partial` false, the first refusal ends it with no plan
 * (a load that commits all or nothing). The rest is decided again, not
 * taken as passed: leaving records out changes what the rules over a batch
 * see (./governance.ts, rule 2, one identifier per batch). Every pass
 * decides from the state the store read once for the whole batch, which
 * holds all a smaller batch can meet. Each pass leaves out at least one
 * record, so it ends.
 *
 * @example decideLeavingOut(items, (batch) => decideBatch(batch, state, options)).plan?.planned
 */
export function decideLeavingOut<P extends { readonly refusals: readonly Refusal[] }>(
  items: readonly ItemInput[],
  decide: (batch: readonly ItemInput[]) => P,
  partial = true,
): LeftOut<P> {
  const refusals: Refusal[] = [];
  let refusedItems = 0;
  let pending = items;
  while (pending.length > 0) {
    const plan = decide(pending);
    if (plan.refusals.length === 0) return { plan, written: pending, refusals, refusedItems };
    refusals.push(...plan.refusals);
    const refused = new Set(plan.refusals.map((r) => r.internalId));
    const left = pending.filter((i) => !refused.has(i.internalId));
    refusedItems += pending.length - left.length;
    // A refusal naming no record of the batch would leave it as it was: stop rather than loop.
    if (!partial || left.length === pending.length) return { plan: null, written: [], refusals, refusedItems };
    pending = left;
  }
  return { plan: null, written: [], refusals, refusedItems };
}

/**
 * Writes `items` through the store's door: in partial mode, leaving out the
 * records it refuses (`writeItemsLeavingOut`); otherwise all of them or, at
 * the first refusal, none, with the refusals reported rather than thrown.
 *
 * @example const out = await writeLeavingOutRefused(tx, items); for (const r of out.refusals) report(r);
 */
export async function writeLeavingOutRefused(
  store: Pick<WriteStore, 'writeItems' | 'writeItemsLeavingOut'>,
  items: readonly ItemInput[],
  partial = true,
): Promise<PartialWrite> {
  if (items.length === 0) return { results: [], written: [], refusals: [], refusedItems: 0 };
  if (partial) return store.writeItemsLeavingOut(items);
  try {
    return { results: await store.writeItems(items), written: items, refusals: [], refusedItems: 0 };
  } catch (err) {
    if (!(err instanceof RefusedError)) throw err;
    const refused = new Set(err.refusals.map((r) => r.internalId));
    return { results: [], written: [], refusals: err.refusals, refusedItems: items.filter((i) => refused.has(i.internalId)).length };
  }
}
