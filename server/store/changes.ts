/**
 * The two writes besides a batch of items, through the same read → decide →
 * apply as ./write.ts: deleting items (lib/store/write.ts `deleteItems`) and
 * giving items new direct sets (`setMemberships`). The state is read once
 * (./state.ts), the decision is pure (lib/pipeline/), and ./apply.ts applies
 * the plan; a refusal throws `RefusedError` and writes nothing.
 */
import type { Knex } from 'knex';
import { RefusedError, type MembershipChange, type WriteResult } from '../../lib/store';
import { decideDeletes } from '../../lib/pipeline/tombstones';
import { decideMemberships } from '../../lib/pipeline/memberships';
import { applyMemberships, applyTombstones } from './apply';
import type { OnDemand } from './on-demand';
import { readDeleteState, readMembershipState } from './state';

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

/**
 * Gives existing items new direct sets and nothing else: the whole call is
 * refused when an id is unknown or repeated, or a set is invalid or
 * undeclared. An item whose sets change is stamped `stamp` (the write's,
 * ../db/publication.ts), its content hash taken again from what it stores,
 * and the sets it leaves get a departure.
 *
 * @example await writeMemberships(trx, [{ internalId: 'report 12', sets: ['physics'] }], stamp)
 */
export async function writeMemberships(trx: Knex, changes: readonly MembershipChange[], stamp: number, onDemand?: OnDemand): Promise<WriteResult[]> {
  const plan = decideMemberships(changes, await readMembershipState(trx, changes, onDemand), { stamp });
  if (plan.refusals.length > 0) throw new RefusedError(plan.refusals);
  await applyMemberships(trx, plan.planned);
  return plan.planned.map((p) => ({ internalId: p.item.internalId, identifier: p.item.identifier, outcome: p.outcome }));
}
