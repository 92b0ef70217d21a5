/**
 * What a load needs and says: its dependencies, its options, its summary
 * (./load.ts runs it).
 */
import type { FormatRegistry } from '../../lib/formats/registry';
import type { IdPolicy } from '../../lib/ids/policy';
import { type LoadBookkeeping, type SummaryCounts, type TransactionalStore, type WriteTransaction } from '../../lib/store';
import { type Refusal } from '../../lib/model/refusal';
import type { ByteCounter } from './input';
import type { Progress } from './progress';
import type { ReaderConfig } from '../conversion';

/**
 * Records a batch, by default. The loader holds two batches (one read and
 * crosswalked while the other is written), so its memory follows this; its
 * CPU time does not. On 20,000 records of six formats, SQLite: peak RSS
 * 241 MB at 100 records a batch, 273–298 at 250, 345 at 500, 416–429 at
 * 1000 and 711 at 4000, in the same CPU time within the machine's noise
 * (16.1–17.3 s). PostgreSQL pays round trips a batch; its batches' reads
 * stay cheap as the tables grow because the load refreshes the planner's
 * statistics (`refreshStatistics`). On 100,000 records there: 66.6 s and
 * 282 MB at 100 a batch against 58.4 s and 492 MB at 1000
 * (bench/results/2026-11-25T2150Z-experiment-postgresql-statistics.json).
 */
export const DEFAULT_BATCH_SIZE = 100;

/** What the loader needs of an opened provider (server/provider.ts). */
export interface LoadDeps {
  /** The store, whose transactions keep the load's bookkeeping (lib/store/bookkeeping.ts `LoadBookkeeping`). */
  readonly store: TransactionalStore<WriteTransaction & LoadBookkeeping>;
  readonly policy: Pick<IdPolicy, 'namespace' | 'unmap'>;
  readonly formats: FormatRegistry;
  /**
   * The configuration `formats` and `policy` were built from
   * (server/provider.ts `readerConfig`): when given, files of JSON records
   * are read and parsed on a thread of their own (./read-worker.ts) while
   * this one writes.
   */
  readonly readerConfig?: ReaderConfig | undefined;
}

/** How to load. */
export interface LoadOptions {
  readonly dryRun?: boolean;
  readonly partial?: boolean;
  readonly deleteMissing?: boolean;
  /**
   * A migration of this repository's own records (`--keep-datestamps`): a
   * record new to the store keeps the datestamp it gives (a JSON record's, a
   * dump line's, the header datestamp of a saved response of this
   * repository), so its harvesters harvest nothing again. Never a record of
   * another repository's response, never a future datestamp, never an item
   * the store holds (lib/pipeline/decide.ts `datestampOf`).
   */
  readonly keepDatestamps?: boolean;
  /** A JSON file of set declarations (`[{"spec", "name", "description"?}]`, as seeds/demo/sets.json). */
  readonly setsFile?: string;
  /** Records per writeItems call. Default {@link DEFAULT_BATCH_SIZE}. */
  readonly batchSize?: number;
  /** The largest record read (./limits.ts); by default the configuration's `maxRecordBytes`. */
  readonly maxRecordBytes?: number;
  /** Called for every refusal as it is found (they are not kept in memory). */
  readonly onRefusal?: (r: Refusal) => void;
  /**
   * Called with a warning a person should read (e.g. a skipped
   * --delete-missing); `kind`, when given, names what repeats (a set
   * description dropped), so a caller can count warnings of a kind rather
   * than show each (lib/run-report.ts `WarningTally`).
   */
  readonly onWarning?: (message: string, kind?: string) => void;
  readonly progress?: Progress;
  /** Bytes read so far, shared with the inputs (for progress). */
  readonly counter?: ByteCounter;
  /**
   * Called once every input is read and written, before the commit, while
   * everything the load holds is still reachable: the moment to measure what
   * a load keeps in memory (cli.ts, `OAI_STEWARD_REPORT_MEMORY`).
   */
  readonly probe?: () => void;
  /**
   * Asked at each safe point (after a batch is written): throws
   * ../interrupt.ts `InterruptedError` once the command was asked to stop, and
   * the load rolls back (`interrupted` in its summary).
   */
  readonly interrupt?: { checkpoint(): Promise<void> };
}

/** What a load did (or, for a dry run or a failed load, would have done). */
export interface LoadSummary extends SummaryCounts {
  /** Records read, refused ones included. */
  records: number;
  /**
   * Versions of a record replaced by a newer one read in the same load
   * (incremental harvest files), or read after a newer or identical one:
   * not written.
   */
  superseded: number;
  /** Records refused (each may have several refusals), plus inputs that could not be read to the end. */
  refused: number;
  /** Sets declared or updated. */
  sets: number;
  /** Whether the transaction was committed. */
  committed: boolean;
  dryRun: boolean;
  /**
   * Present when a signal stopped the load: it was rolled back after the batch
   * being written, nothing committed: the run's report says `interrupted`
   * (cli.ts `runLoadCommand`).
   */
  interrupted?: true;
}
