/**
 * What a harvest of one source needs and says: its dependencies and options,
 * the events of its pages, its summary, and the two ways it ends early
 * (./harvest.ts runs it).
 */
import type { FormatRegistry } from '../../lib/formats/registry';
import type { Refusal } from '../../lib/model/refusal';
import {
  type HarvestBookkeeping,
  type HarvestLocks,
  type HarvestState,
  type SetAdministration,
  type SummaryCounts,
  type TransactionalStore,
  type RunReports,
  type WriteTransaction,
} from '../../lib/store';
import { type ClientOptions } from './client';

/** What a harvest needs of an opened provider. */
export interface HarvestDeps {
  /** The store: its harvest state and locks, and transactions that keep a page's checkpoint with its items. */
  readonly store: TransactionalStore<WriteTransaction & HarvestBookkeeping> &
    HarvestState &
    HarvestLocks &
    RunReports &
    Pick<SetAdministration, 'retireGoneSourceSets'>;
  readonly formats: FormatRegistry;
  /** The harvesting repository, named in the User-Agent. */
  readonly repository: { readonly name: string; readonly baseUrl: string };
  /** The store's clock, seconds. */
  readonly now?: () => number;
}

/** How to harvest. */
export interface HarvestOptions {
  /** Ask `from` this instead of the incremental `from`. */
  readonly from?: string;
  readonly until?: string;
  /** A full harvest; the source's items it never sees become tombstones. */
  readonly deleteMissing?: boolean;
  /** Client settings for tests (tiny backoffs, a recording sleep). */
  readonly client?: Partial<Pick<ClientOptions, 'backoffBaseMs' | 'backoffMaxMs' | 'retryAfterCapMs' | 'sleep' | 'random' | 'maxPageBytes'>>;
  readonly onRefusal?: (r: Refusal) => void;
  /**
   * A warning, its source text shown escaped and bounded (lib/shown-text.ts).
   * Warnings of one kind past the first few are not passed on but counted,
   * and said in one line as the run ends (lib/run-report.ts `WarningTally`);
   * `kind` is given by the run, a caller reads only `message`.
   */
  readonly onWarning?: (message: string, kind?: string) => void;
  /** After every committed page. */
  readonly onPage?: (p: PageEvent) => void;
  readonly onRetry?: (source: string, reason: string, waitMs: number) => void;
  /**
   * Checked once the source's lock is held: false ends the run at once
   * (`skipped`), e.g. when another process harvested the source while this
   * one waited for its turn.
   */
  readonly stillDue?: () => Promise<boolean>;
  /** Called between pages; a test (or a stopping server) stops a run there by throwing. */
  readonly betweenPages?: () => void | Promise<void>;
  /** Milliseconds on a clock that only goes forward: what the run's time bound (`limits.time`) is measured on. Tests pass one they move. */
  readonly clock?: () => number;
}

/** A committed page, for progress and metrics. */
export interface PageEvent {
  readonly source: string;
  readonly prefix: string;
  readonly set: string;
  readonly page: number;
  readonly records: number;
  readonly refused: number;
  readonly completeListSize?: number;
  /** Records of the list so far in this run. */
  readonly listRecords: number;
}

/** What one source's harvest did. */
export interface HarvestSummary extends SummaryCounts {
  readonly source: string;
  /** Whether every list was harvested to its end. */
  completed: boolean;
  /** Another process was harvesting the source: nothing was done. */
  locked: boolean;
  /** The source was no longer due once its lock was held: nothing was done. */
  skipped?: boolean;
  pages: number;
  records: number;
  refused: number;
  retries: number;
  /** Lists resumed from a checkpoint, and lists restarted after badResumptionToken. */
  resumed: number;
  restarted: number;
  /** Why the run stopped, when it did. */
  error?: string;
  lists: { prefix: string; set: string; from: string | null; records: number; completed: boolean }[];
}

/**
 * Thrown (by a `betweenPages` hook, say) to stop a run that is asked to
 * stop: the run is reported `interrupted`, and the error goes on to the
 * caller.
 */
export class HarvestInterrupted extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HarvestInterrupted';
  }
}

/**
 * A run the database ended (a connection lost, a full disk): its message is
 * the one line a person reads, saying what happened, that nothing after the
 * last committed page was written, and to run again.
 */
export class HarvestStoreFailure extends Error {
  constructor(
    readonly source: string,
    readonly what: string,
    options?: { cause?: unknown },
  ) {
    super(`${source}: ${what}; nothing after the last committed page was written; run the harvest again to resume`, options);
    this.name = 'HarvestStoreFailure';
  }
}
