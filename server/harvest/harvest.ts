/**
 * One harvest of one source: Identify, the source's sets, then
 * ListRecords per metadataPrefix and set, page by page. Every page is one
 * transaction through the write pipeline (`WriteStore.writeItems`), with
 * the list's checkpoint (lib/store/bookkeeping.ts `HarvestBookkeeping`) in the same transaction,
 * so an interrupted run resumes after its last committed page and a page
 * is never half-written.
 *
 * - The first run of a list is a full harvest; later runs ask `from` the
 *   responseDate of the last complete run's first page, less one granule of
 *   the source's granularity (lib/harvest/timing.ts).
 * - `badResumptionToken` (tokens expire) restarts the list from the
 *   checkpoint's `from`; what was written is written again unchanged.
 * - A record that cannot be stored is refused alone (named by source, page
 *   and identifier) and the harvest goes on; a page that is not well-formed
 *   XML is asked for again, then the run stops, nothing of it written.
 * - Deleted records become tombstones; with `deleteMissing` (a full run),
 *   the source's items the run never saw become tombstones at its end.
 * - The next page is asked for as soon as a page's token is read and is
 *   read while that page is written; requests still go one at a time.
 * - A run reads at most the source's `limits` (lib/harvest/sources.ts) of
 *   pages, records and time, checked before each page is asked for and
 *   again before it is used: at a bound it stops, naming it, where the next
 *   run resumes, so a source answering a new token for ever ends too. The
 *   time also ends what is under way: a wait (a Retry-After) that would
 *   outlast it is not begun, and a request still going (a body dripping a
 *   byte at a time) is aborted at it. A ListSets is declared a page at a
 *   time, at most `limits.sets` sets, so its memory is one page.
 * - Every run is reported in the store as it ends (lib/store/
 *   `RunReports`): its outcome, counts, warnings and refused records; a run
 *   the database ends (a connection lost, a full disk) is reported when the
 *   store still takes it, and ends with {@link HarvestStoreFailure}, one line.
 */
import { InterruptedError } from '../interrupt';
import { type SourceConfig } from '../../lib/harvest/sources';
import { type RunCounts, type RunOutcome } from '../../lib/store';
import { NO_COUNTS, RunLog, runRefusal, WarningTally } from '../../lib/run-report';
import { shownText } from '../../lib/shown-text';
import { storeFailure } from '../db/errors';
import { RECORD_DEADLINE_MS, recordRunQuietly, withDeadline } from '../runs';
import { HarvestError } from './client';
import { HarvestDeps, HarvestInterrupted, HarvestOptions, HarvestStoreFailure, HarvestSummary } from './harvest-types';
import { SourceRun } from './source-run';

export { HarvestError };

/**
 * Harvests one source once (under its lock) and reports the run in the
 * store. Never throws for the source's faults: they end the run with
 * `error` in the summary and in the state. Throws
 * {@link HarvestStoreFailure} when the database ended the run (the lock
 * released or gone with its session), and what a hook threw.
 *
 * @example const s = await harvestSource(deps, { name: 'arxiv', baseUrl, prefixes: ['oai_dc'], sets: [], politeness });
 */
export async function harvestSource(deps: HarvestDeps, source: SourceConfig, given: HarvestOptions = {}): Promise<HarvestSummary> {
  const summary: HarvestSummary = {
    source: source.name,
    completed: false,
    locked: false,
    ...NO_COUNTS,
    revived: 0,
    formatAdded: 0,
    resumed: 0,
    restarted: 0,
    lists: [],
  };
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));
  const started = now();
  const log = new RunLog();
  const tally = new WarningTally();
  const warn = (m: string): void => {
    const shown = shownText(m);
    log.warning(shown);
    given.onWarning?.(shown);
  };
  let page: () => number | null = () => null;
  const options: HarvestOptions = {
    ...given,
    onWarning: (m, kind) => {
      if (tally.shows(kind ?? m, m)) warn(m);
    },
    onRefusal: (r) => {
      log.refusal(runRefusal(r, source.name, page()));
      given.onRefusal?.(r);
    },
  };
  const lock = await deps.store.acquireHarvestLock(source.name).catch((err: unknown) => {
    const failed = storeFailure(err);
    throw failed === null ? err : new HarvestStoreFailure(source.name, failed, { cause: err });
  });
  if (!lock) {
    summary.locked = true;
    return summary;
  }
  let outcome: RunOutcome = 'completed';
  let failure: unknown;
  let failed: string | null = null;
  try {
    if (options.stillDue && !(await options.stillDue())) {
      summary.skipped = true;
      return summary;
    }
    const run = new SourceRun(deps, source, options, summary);
    page = () => run.page;
    await run.run();
  } catch (err) {
    if (err instanceof HarvestError) {
      summary.error = shownText(err.message);
      outcome = 'stopped';
    } else {
      failure = err;
      failed = storeFailure(err);
      outcome = err instanceof HarvestInterrupted || err instanceof InterruptedError ? 'interrupted' : 'failed';
      summary.error = failed ?? (err instanceof Error ? err.message : String(err));
    }
  } finally {
    // After a database failure the lock went with its session (PostgreSQL) or lapses with this
    // process (SQLite): a release that fails then has nothing to add to why the run ended.
    try {
      await withDeadline(lock.release(), RECORD_DEADLINE_MS, 'the store');
    } catch (err) {
      if (failure === undefined && !summary.skipped) {
        failed = storeFailure(err);
        if (failed === null) failure = err;
      }
    }
  }
  for (const line of tally.more()) warn(line);
  if (!summary.skipped) {
    const report = log.report({
      kind: 'harvest',
      source: source.name,
      started,
      ended: now(),
      outcome,
      counts: pick(summary),
      error: summary.error ?? null,
    });
    const unrecorded = await recordRunQuietly(deps.store, report);
    // After a database failure the one line says everything; another about the report would hide it.
    if (unrecorded !== null && failed === null) given.onWarning?.(`${source.name}: ${unrecorded}`);
  }
  if (failed !== null && outcome === 'failed') throw new HarvestStoreFailure(source.name, failed, { cause: failure });
  if (failure !== undefined) throw failure;
  return summary;
}

/** The counts of a summary a run's report keeps. */
function pick(s: HarvestSummary): RunCounts {
  const { pages, records, inserted, updated, revived, formatAdded, unchanged, deleted, superseded, refused, retries } = s;
  // A run's report counts every update as one: its counts are stored as they always were.
  return { pages, records, inserted, updated: updated + revived + formatAdded, unchanged, deleted, superseded, refused, retries };
}
