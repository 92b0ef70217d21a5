/**
 * Set membership: the item_sets rows an item's direct sets come to (with
 * the departures of the sets it left), and the decision of a call that
 * gives items new direct sets and nothing else (lib/store/
 * `setMemberships`), from the state read once, with no database and no
 * clock. The store reads the state (server/store/state.ts
 * `readMembershipState`), calls {@link decideMemberships}, and applies the
 * plan (server/store/apply.ts `applyMemberships`).
 */
import type { AboutInput, MembershipChange } from '../store';
import type { Refusal } from '../model/refusal';
import { isValidSetSpec } from '../model/header';
import { contentHash, recordHash, uniqueSorted } from './content-hash';
import { datestampOf, type StoredItem } from './decide';
import { membership, type MembershipRow, type SetRow } from './set-rows';

export { membership, withGivenDepartures, type MembershipRow, type SetRow } from './set-rows';

/** A stored item as a membership change needs it. */
export type StoredMember = Pick<StoredItem, 'pk' | 'internalId' | 'identifier' | 'datestamp' | 'deleted' | 'contentHash' | 'sets'>;

/** What an item's content hash covers besides its sets, as stored: metadata by prefix, about containers, record fields (JSON). */
export interface StoredContent {
  readonly records: ReadonlyMap<string, string | null>;
  readonly about: readonly AboutInput[];
  readonly fields?: string;
}

/** What a membership change meets in the store. */
export interface MembershipState {
  /** The stored items of the changes' ids, with their direct sets. */
  readonly items: ReadonlyMap<string, StoredMember>;
  /** The declared sets among those the changes name. */
  readonly declared: ReadonlySet<string>;
  /** Of each item a change moves ({@link moves}): what its hash covers besides its sets. */
  readonly content: ReadonlyMap<string, StoredContent>;
  /** Of each item a change moves: its item_sets rows, departed ones included. */
  readonly rows: ReadonlyMap<string, readonly MembershipRow[]>;
}

/** What a membership change does to one item: `updated` (its direct sets change) or `unchanged`. */
export interface PlannedMembership {
  readonly item: StoredMember;
  readonly outcome: 'updated' | 'unchanged';
  /** Its direct sets after the call. */
  readonly sets: readonly string[];
  /** Its datestamp and content hash after the call (the stored ones when unchanged). */
  readonly datestamp: number;
  readonly hash: string;
  /** For an updated item: each record's new digest, and its item_sets rows (none when unchanged). */
  readonly recordHashes: ReadonlyMap<string, string>;
  readonly setRows: readonly SetRow[];
}

/** A membership change decided: every refusal in input order, or (when there is none) one plan a change, in order. */
export interface MembershipPlan {
  readonly refusals: readonly Refusal[];
  readonly planned: readonly PlannedMembership[];
}

/**
 * Whether a change moves a stored item: its direct sets differ from the
 * stored ones. The store reads the content of these items only.
 *
 * @example moves({ internalId: 'a', sets: ['b', 'a'] }, { sets: ['a', 'b'] }) // false
 */
export function moves(change: MembershipChange, stored: Pick<StoredMember, 'sets'>): boolean {
  const sets = uniqueSorted(change.sets);
  return sets.length !== stored.sets.length || sets.some((s, i) => s !== stored.sets[i]);
}

/**
 * Decides a membership change: an unknown or repeated id, an invalid
 * setSpec or an undeclared set refuses the whole call. Otherwise an item
 * whose direct sets change is stamped `stamp` (never earlier than a
 * datestamp already published, {@link datestampOf}); its content hash and
 * every record's digest are taken again (sets are in every record's
 * header), and the sets it leaves get a departure ({@link membership}). An
 * item whose sets stay is unchanged.
 *
 * @example decideMemberships([{ internalId: 'report 12', sets: ['physics'] }], state, { stamp }).planned[0]?.outcome // 'updated'
 */
export function decideMemberships(changes: readonly MembershipChange[], state: MembershipState, options: { readonly stamp: number }): MembershipPlan {
  const refusals: Refusal[] = [];
  const seen = new Set<string>();
  for (const c of changes) {
    const refuse = (field: string, reason: string): void => {
      refusals.push({ internalId: c.internalId, field, reason });
    };
    if (!state.items.has(c.internalId)) refuse('id', 'no item has this internal id');
    else if (seen.has(c.internalId)) refuse('id', 'the same internal id appears twice in one batch');
    seen.add(c.internalId);
    for (const spec of c.sets) {
      if (!isValidSetSpec(spec)) refuse('sets', `${JSON.stringify(spec)} is not a valid setSpec`);
      else if (!state.declared.has(spec)) refuse('sets', `the set ${JSON.stringify(spec)} is not declared`);
    }
  }
  if (refusals.length > 0) return { refusals, planned: [] };
  const planned = changes.map((change): PlannedMembership => {
    const item = state.items.get(change.internalId) as StoredMember;
    const sets = uniqueSorted(change.sets);
    if (!moves(change, item))
      return { item, outcome: 'unchanged', sets, datestamp: item.datestamp, hash: item.contentHash, recordHashes: new Map(), setRows: [] };
    const content = state.content.get(item.internalId) ?? { records: new Map<string, string | null>(), about: [] };
    const { deleted } = item;
    const datestamp = datestampOf('updated', item, {}, options.stamp);
    const recordHashes = new Map(
      [...content.records].map(([prefix, xml]) => [prefix, recordHash(deleted, sets, prefix, deleted ? null : xml, deleted ? [] : content.about)]),
    );
    return {
      item,
      outcome: 'updated',
      sets,
      datestamp,
      hash: contentHash(deleted, sets, content.records, content.about, content.fields),
      recordHashes,
      setRows: membership(item.pk, sets, state.rows.get(item.internalId) ?? [], datestamp),
    };
  });
  return { refusals: [], planned };
}
