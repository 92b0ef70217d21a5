/**
 * What a load and a harvest keep while they run, and the report of runs:
 * ids seen and staged versions, list and page checkpoints, harvest locks.
 *
 * Nothing here knows about knex or SQL: `server/store/` implements it
 * (./index.ts). Datestamps are integers: seconds since the Unix epoch, UTC.
 */
import type { AboutInput, ItemInput } from './write';

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
  /** Two versions from OAI-PMH responses, one with a header datestamp that cannot be read: which is newer cannot be told. */
  | { readonly kind: 'unordered'; readonly other: string }
  | { readonly kind: 'repeat' };

/** A staged version that won, or an id whose versions conflict. */
export type StagedWinner =
  { readonly item: ItemInput } | { readonly conflict: { readonly internalId: string; readonly source: string; readonly other: string } };

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

/** One list a harvest keeps state for: a source, a metadataPrefix, a set ('' for the whole repository). */
export interface ListKey {
  readonly source: string;
  readonly prefix: string;
  /** '' for the whole repository. */
  readonly set: string;
}

/**
 * What the store keeps of one harvested list (migration 006_harvest_state):
 * the last run harvested to its end and the checkpoint of a run under way.
 */
export interface ListState extends ListKey {
  /** The base URL the list was last harvested from (migration 014_harvest_base_url); null before it. */
  readonly baseUrl: string | null;
  readonly lastResponseDate: string | null;
  readonly lastFrom: string | null;
  /** Seconds. */
  readonly lastSuccess: number | null;
  readonly runResponseDate: string | null;
  /** The resumptionToken of the next page of a list under way. */
  readonly token: string | null;
  readonly checkpointFrom: string | null;
  readonly checkpointUntil: string | null;
  /** The list under way records its ids for `--delete-missing`. */
  readonly runMarksSeen: boolean;
  readonly runPages: number;
  readonly runRecords: number;
  readonly runRefused: number;
  readonly records: number;
  readonly refused: number;
  readonly lastError: string | null;
  readonly lastErrorAt: number | null;
  readonly lastAttempt: number | null;
  /** The base URL the list was harvested from until this call named another (its token and clock were dropped). */
  readonly movedFrom?: string;
}

/** What a committed page changes in its list's state. */
export interface PageCheckpoint {
  /** The next page's token, or null when this page ended the list. */
  readonly token: string | null;
  readonly from: string | null;
  readonly until: string | null;
  /** The responseDate of the run's first page. */
  readonly runResponseDate: string | null;
  /** This is the run's first page: the run's counts start again. */
  readonly first: boolean;
  /** The run records its ids for `--delete-missing` (kept with the checkpoint). */
  readonly marksSeen: boolean;
  readonly records: number;
  readonly refused: number;
  /** The store's clock, seconds. */
  readonly now: number;
}

/** The harvest state of every source, read and written outside a page's transaction (server/harvest/). */
export interface HarvestState {
  /** The lists of one source (or of every source), in (source, prefix, set) order. */
  harvestStates(source?: string): Promise<ListState[]>;
  /** One list's state, made when missing; `baseUrl`, when given, is recorded as the URL it is harvested from. */
  harvestList(key: ListKey, baseUrl?: string): Promise<ListState>;
  /** Records why a list stopped; the checkpoint stays. */
  recordHarvestError(key: ListKey, message: string, now: number): Promise<void>;
  /** Forgets a list's checkpoint (the list starts again from its `from`). */
  dropCheckpoint(key: ListKey): Promise<void>;
  /** Forgets the ids seen by a source's earlier `--delete-missing` run. */
  clearSeen(source: string): Promise<void>;
  /**
   * Live items of the source (internal id `NAME:…`) its `--delete-missing`
   * run never harvested, up to `limit`, after `after` (internal id order).
   */
  unseenItems(source: string, after: string, limit: number): Promise<string[]>;
  /**
   * Local items (loaded, not harvested; live or deleted) whose internal id is
   * in the id space `space:`, up to `limit`, in internal id order: what a
   * source of that name would take from the loader (lib/pipeline/governance.ts
   * rule 6).
   */
  localItemsInSpace(space: string, limit: number): Promise<string[]>;
}

/**
 * What a store's transaction offers a harvest besides the write side: a
 * page's checkpoint and seen ids are written in the page's own transaction,
 * so the page and the promise to go on after it commit together.
 */
export interface HarvestBookkeeping {
  /** Records a page in its list's state. */
  checkpoint(key: ListKey, c: PageCheckpoint): Promise<void>;
  /** Records the internal ids a `--delete-missing` run has harvested. */
  markSeen(source: string, ids: readonly string[]): Promise<void>;
  /**
   * The about containers the store holds for these items, in order, by
   * internal id (items with none are absent): a later prefix's list of a
   * source keeps them (server/harvest/merge.ts).
   */
  storedAbout(internalIds: readonly string[]): Promise<ReadonlyMap<string, readonly AboutInput[]>>;
  /** As {@link LoadBookkeeping.refreshStatistics}: a harvest grows the tables page by page. */
  refreshStatistics(): Promise<void>;
}

/** A harvest lock held; `release` is safe to call twice. */
export interface HarvestLock {
  release(): Promise<void>;
}

/** One harvest per source at a time across every process sharing the store. */
export interface HarvestLocks {
  /** Takes the source's lock, or answers null when another harvest holds it; `now` is the clock (seconds) a lock's expiry is counted in. */
  acquireHarvestLock(source: string, now?: () => number): Promise<HarvestLock | null>;
}

/** What a run is a run of: a harvest of one source, or a load. */
export type RunKind = 'harvest' | 'load';

/**
 * How a run ended: `completed` to its end; `stopped` by the source's fault
 * or by refused records (a harvest resumes after its last committed page);
 * `interrupted` by a stop asked for (a signal, a stopping server); `failed`
 * on the database (connection lost, disk full) or a bug.
 */
export type RunOutcome = 'completed' | 'stopped' | 'interrupted' | 'failed';

/** What a run counted. */
export interface RunCounts {
  readonly pages: number;
  /** Records read, refused ones included. */
  readonly records: number;
  readonly inserted: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly deleted: number;
  readonly superseded: number;
  /** Records refused. */
  readonly refused: number;
  /** Requests asked again. */
  readonly retries: number;
}

/** One refused record of a run. */
export interface RunRefusal {
  /** The list page it was on (a harvest); null for a load. */
  readonly page: number | null;
  /** The source's identifier of the record (a harvest) or its internal id (a load); '' when it had none. */
  readonly identifier: string;
  readonly field: string;
  readonly reason: string;
}

/** A run's report, as recorded at its end. */
export interface RunReport {
  readonly kind: RunKind;
  /** The harvested source; null for a load. */
  readonly source: string | null;
  /** Seconds since the Unix epoch. */
  readonly started: number;
  readonly ended: number;
  readonly outcome: RunOutcome;
  readonly counts: RunCounts;
  /** The run's first warnings; `warningsOmitted` more were said and not kept. */
  readonly warnings: readonly string[];
  readonly warningsOmitted: number;
  /** Why it did not complete; null when it did. */
  readonly error: string | null;
  /** The first refused records; `refusalsOmitted` more were refused and not kept. */
  readonly refusals: readonly RunRefusal[];
  readonly refusalsOmitted: number;
  /**
   * Records the run committed (inserted, updated or turned into tombstones):
   * 0 when it committed nothing (refused, interrupted, failed, a dry run, whose
   * counts say what it would have written). A load says it; a harvest does not.
   */
  readonly written?: number;
  /** How long the run took, in seconds to the millisecond (`started` and `ended` are whole seconds). A load says it; a harvest does not. */
  readonly seconds?: number;
}

/** A run as the store keeps it. */
export interface StoredRun extends RunReport {
  readonly id: number;
}

/** Runs and refused records ever recorded for one kind, source and outcome (pruning never lowers them). */
export interface RunTotal {
  readonly kind: RunKind;
  readonly source: string | null;
  readonly outcome: RunOutcome;
  readonly runs: number;
  readonly refused: number;
}

/**
 * The report of every run, kept in the store (bounded: the latest runs of
 * each kind and source, the first refusals and warnings of each run).
 */
export interface RunReports {
  /** Records a run as it ends; older runs of its kind and source are pruned. Returns its id. */
  recordRun(run: RunReport): Promise<number>;
  /** The latest runs, newest first, of a kind and source (null: the loads), with their refusals. */
  latestRuns(kind: RunKind, source: string | null, limit?: number): Promise<StoredRun[]>;
  /** The latest run that did not complete, of a kind and source, with its first refusals; null when none is kept. */
  lastFailure(kind: RunKind, source: string | null): Promise<StoredRun | null>;
  /** Runs and refused records ever recorded, per kind, source and outcome. */
  runTotals(): Promise<RunTotal[]>;
}
