/**
 * The item_sets rows an item's direct sets come to, with the departures of
 * the sets it left: decided from the rows the store read, for a write
 * (./decide.ts) and for a membership change (./memberships.ts) alike.
 */
import type { SetDeparture } from '../store';
import { withAncestors } from '../model/header';

/** A row of item_sets: spec, item_pk, direct, datestamp, departed. */
export type SetRow = [string, number, boolean, number, number | null];

/** What item_sets holds about one item in one set: when it left (null: it is in). */
export interface MembershipRow {
  readonly spec: string;
  readonly departed: number | null;
}

/**
 * The item_sets rows of an item after a change at `datestamp`: a live row
 * for every set it is in (its direct sets and their ancestors, OAI-PMH 2.0
 * section 2.7.2); for every set it was ever in and is not in now, a departed
 * row, keeping the time of the first departure since it last left (a
 * rejoined set is live again). Every row carries the item's datestamp, the
 * keyset of a set harvest.
 *
 * @example membership(7, ['a:c'], [{ spec: 'a', departed: null }, { spec: 'a:b', departed: null }], 500)
 * // [['a', 7, false, 500, null], ['a:c', 7, true, 500, null], ['a:b', 7, false, 500, 500]]
 */
export function membership(pk: number, direct: readonly string[], old: readonly MembershipRow[], datestamp: number): SetRow[] {
  const directSet = new Set(direct);
  const now = new Set(direct.flatMap(withAncestors));
  const rows: SetRow[] = [...now].map((spec) => [spec, pk, directSet.has(spec), datestamp, null]);
  for (const o of old) if (!now.has(o.spec)) rows.push([o.spec, pk, false, datestamp, o.departed ?? datestamp]);
  return rows;
}

/**
 * The rows an item had, with the departures its input gives (lib/store/
 * `ItemInput.departures`) from sets it has no row of: a copy of a repository
 * keeps the departures the repository recorded.
 *
 * @example withGivenDepartures([], [{ spec: 'a', at: 100 }]) // [{ spec: 'a', departed: 100 }]
 */
export function withGivenDepartures(old: readonly MembershipRow[], given: readonly SetDeparture[] | undefined): readonly MembershipRow[] {
  if (!given || given.length === 0) return old;
  const known = new Set(old.map((o) => o.spec));
  return [...old, ...given.filter((d) => !known.has(d.spec)).map((d) => ({ spec: d.spec, departed: d.at }))];
}
