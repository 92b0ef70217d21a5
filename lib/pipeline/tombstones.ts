/**
 * The deletion decision (lib/store/write.ts `WriteStore.deleteItems`): which ids
 * a call may delete, and what each tombstone becomes, from the stored items
 * read once, with no database and no clock. The store reads the items
 * (server/store/state.ts `readDeleteState`), calls {@link decideDeletes},
 * and applies the plan (server/store/apply.ts `applyTombstones`).
 */
import type { Refusal } from '../model/refusal';
import type { StoredItem } from './decide';
import { contentHash, recordHash, uniqueSorted } from './content-hash';

/** A stored item as a deletion needs it: its header, its direct sets, and the formats it has a record in. */
export type StoredHead = Pick<StoredItem, 'pk' | 'internalId' | 'identifier' | 'datestamp' | 'deleted' | 'contentHash' | 'origin' | 'sets'> & {
  /** The formats it has a record in (a tombstone's too). */
  readonly prefixes: readonly string[];
};

/** What a deletion meets in the store: the stored items of its ids. */
export interface DeleteState {
  readonly items: ReadonlyMap<string, StoredHead>;
}

/** What the deletion decision needs besides the ids and the state. */
export interface DeleteDecisionOptions {
  /** The datestamp a change gets: the write's placeholder until it is published (server/db/publication.ts). */
  readonly stamp: number;
  /** The formats every tombstone is listed under (besides those it had): the formats offered. */
  readonly tombstonePrefixes: readonly string[];
  /** The harvested source whose harvest deletes (`harvest --delete-missing`); absent for any other caller. */
  readonly harvestedFrom?: string;
}

/** What a deletion does to one item: `deleted` (a live item becomes a tombstone) or `unchanged` (a tombstone already). */
export interface PlannedTombstone {
  readonly item: StoredHead;
  readonly outcome: 'deleted' | 'unchanged';
  /** The item's datestamp after the call (the stored one when unchanged). */
  readonly datestamp: number;
  /** Its content hash after the call. */
  readonly hash: string;
  /** The formats it gets a header-only record in, having none (a deleted one's other records lose their XML). */
  readonly addPrefixes: readonly string[];
  /** prefix → the digest (`recordHash`) of each of its records after the call, a header only; empty when unchanged. */
  readonly recordHashes: ReadonlyMap<string, string>;
}

/** A deletion decided: every refusal in input order, or (when there is none) one tombstone a given id, in order. */
export interface DeletePlan {
  readonly refusals: readonly Refusal[];
  readonly planned: readonly PlannedTombstone[];
}

/**
 * Decides a deletion: an unknown or repeated id refuses the whole call, as
 * does an id outside the caller's id space (only a source's harvests delete
 * its records, and they delete only those: lib/pipeline/governance.ts, rule
 * 6). Otherwise each live item becomes a tombstone stamped `stamp`, never
 * earlier than a datestamp already published, listed in the formats it had
 * and every format of `tombstonePrefixes` (OAI-PMH 2.0 section 2.5.1); a
 * tombstone already is unchanged.
 *
 * @example decideDeletes(['report 12'], state, { stamp, tombstonePrefixes: ['oai_dc'] }).planned[0]?.outcome // 'deleted'
 */
export function decideDeletes(internalIds: readonly string[], state: DeleteState, options: DeleteDecisionOptions): DeletePlan {
  const refusals: Refusal[] = [];
  const seen = new Set<string>();
  const { harvestedFrom } = options;
  for (const id of internalIds) {
    const item = state.items.get(id);
    const refuse = (reason: string): void => {
      refusals.push({ internalId: id, field: 'id', reason });
    };
    if (!item) refuse('no item has this internal id, so there is nothing to delete');
    else if (seen.has(id)) refuse('the same internal id appears twice in one batch');
    else if (harvestedFrom === undefined && item.origin)
      refuse(`is an item harvested from ${JSON.stringify(item.origin)}, whose records only its harvests delete (harvest --delete-missing)`);
    else if (harvestedFrom !== undefined && (item.origin ?? null) !== harvestedFrom)
      refuse(`is not an item harvested from ${JSON.stringify(harvestedFrom)}; its harvest deletes only its own records`);
    seen.add(id);
  }
  if (refusals.length > 0) return { refusals, planned: [] };
  const items = internalIds.map((id) => state.items.get(id) as StoredHead);
  const live = items.filter((i) => !i.deleted);
  // One time for the whole call (every row of a set harvest's keyset moves together), never earlier than a datestamp published.
  const at = Math.max(options.stamp, ...live.map((i) => i.datestamp));
  const planned = items.map((item): PlannedTombstone => {
    if (item.deleted) return { item, outcome: 'unchanged', datestamp: item.datestamp, hash: item.contentHash, addPrefixes: [], recordHashes: new Map() };
    const had = new Set(item.prefixes);
    const sets = uniqueSorted(item.sets);
    return {
      item,
      outcome: 'deleted',
      datestamp: at,
      hash: contentHash(true, item.sets, new Map()),
      addPrefixes: uniqueSorted(options.tombstonePrefixes).filter((p) => !had.has(p)),
      recordHashes: new Map(uniqueSorted([...item.prefixes, ...options.tombstonePrefixes]).map((prefix) => [prefix, recordHash(true, sets, prefix, null, [])])),
    };
  });
  return { refusals: [], planned };
}
