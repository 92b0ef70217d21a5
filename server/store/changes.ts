/**
 * The two writes besides a batch of items, through the same read → decide →
 * apply as ./write.ts: deleting items (lib/store.ts `deleteItems`) and
 * giving items new direct sets (`setMemberships`). The state is read once
 * (./state.ts), the decision is pure (lib/pipeline/), and ./apply.ts applies
 * the plan; a refusal throws `RefusedError` and writes nothing.
 */
import type { Knex } from 'knex';
import { RefusedError, type WriteResult } from '../../lib/store';
import { decideDeletes } from '../../lib/pipeline/tombstones';
import { applyTombstones } from './apply';
import { readDeleteState } from './state';

/**
 * Turns items into tombstones stamped `stamp` (the write's, ../db/publication.ts);
 * an unknown or repeated id, or one outside the caller's id space, refuses the whole call.
 *
 * @example await writeDeletes(trx, ['report 12'], stamp, ['oai_dc']) // [{ internalId: 'report 12', identifier: '…', outcome: 'deleted' }]
 */
export async function writeDeletes(
  trx: Knex,
  internalIds: readonly string[],
  stamp: number,
  tombstonePrefixes: readonly string[],
  harvestedFrom?: string,
): Promise<WriteResult[]> {
  const plan = decideDeletes(internalIds, await readDeleteState(trx, internalIds), {
    stamp,
    tombstonePrefixes,
    ...(harvestedFrom !== undefined && { harvestedFrom }),
  });
  if (plan.refusals.length > 0) throw new RefusedError(plan.refusals);
  await applyTombstones(trx, plan.planned);
  return plan.planned.map((p) => ({ internalId: p.item.internalId, identifier: p.item.identifier, outcome: p.outcome }));
}
