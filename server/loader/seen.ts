/**
 * The loader's bookkeeping inside its one transaction: the internal ids a
 * load has seen (to refuse an id given twice and for `--delete-missing`) and
 * the versions of harvested records staged until every input is read (the
 * newest of each wins). The knex store keeps them in a temporary table of
 * the load's transaction (server/db/seen-ids.ts).
 */
import type { ItemInput } from '../../lib/store';

/**
 * The internal ids one load has seen, kept by the store for the length of
 * one transaction (not in the JavaScript heap, so memory stays flat however
 * long the input is).
 */
export interface SeenIds {
  /**
   * Records the ids of one batch (distinct, in input order) and returns
   * those already recorded by an earlier batch; those are not recorded again.
   */
  add(ids: readonly string[]): Promise<Set<string>>;
  /**
   * Keeps versions of records that may appear more than once in a load
   * (incremental harvest files): per internal id, the version with the newest
   * datestamp wins. Returns, index for index, what became of each version.
   * An id recorded by `add` is a `repeat`.
   */
  stage(versions: readonly StagedVersion[]): Promise<readonly StageOutcome[]>;
  /** The winning staged versions in the order they were first seen, in pages of `pageSize`; conflicted ids are given as such. */
  staged(pageSize: number): AsyncGenerator<StagedWinner[]>;
  /**
   * Live items whose internal id was never recorded, in pages of `pageSize`
   * (memory holds one page). Safe to delete the items of a page before
   * asking for the next.
   */
  missing(pageSize: number): AsyncGenerator<string[]>;
  /** Forgets them all (before commit: nothing of it outlives the load). */
  drop(): Promise<void>;
}

/** One version of a record offered to {@link SeenIds.stage}. */
export interface StagedVersion {
  readonly item: ItemInput;
  /** The record's datestamp in the input, seconds; null when it has none (then a second version cannot be ordered). */
  readonly datestamp: number | null;
  /** A digest of what the version disseminates, to tell "the same version again" from "a different one". */
  readonly fingerprint: string;
  /** Where it was read, for messages. */
  readonly source: string;
}

/**
 * What became of a staged version: `kept` (first seen, or newer than the one
 * kept: `replaced` then names the source it supersedes), `older` (an equal or
 * newer one is kept: superseded at once), `same` (the same datestamp and
 * content as the one kept), `conflict` (the same datestamp, other content:
 * `other` names the kept one's source), `repeat` (the id was given by an
 * input whose records cannot be ordered).
 */
export type StageOutcome =
  | { readonly kind: 'kept'; readonly replaced?: string }
  /** Another format of the record kept: joined to it, so the record is written once with both. */
  | { readonly kind: 'joined' }
  | { readonly kind: 'older' | 'same' }
  | { readonly kind: 'conflict'; readonly other: string }
  | { readonly kind: 'repeat' };

/** A staged version that won, or an id whose versions conflict. */
export type StagedWinner = { readonly item: ItemInput } | { readonly conflict: { readonly internalId: string; readonly source: string; readonly other: string } };

/** What a store's transaction offers a load besides the write side. */
export interface LoadBookkeeping {
  /** Starts recording ids seen in this transaction (a leftover record of an earlier load is dropped). */
  seenIds(): Promise<SeenIds>;
  /**
   * Brings the planner's statistics of the tables a load looks items up in up
   * to date with what this transaction wrote (PostgreSQL: ANALYZE, which
   * counts the transaction's own rows; SQLite's plans do not depend on them).
   */
  refreshStatistics(): Promise<void>;
}
