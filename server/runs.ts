/**
 * Recording a run's report (lib/store/bookkeeping.ts `RunReports`) as a run ends, by
 * every kind of run (server/harvest/harvest.ts, the loader's command): a
 * run that ends because the database failed still tries to say so, but
 * never waits on that database for long, and never lets the attempt hide
 * why the run ended. And reading the last load back, for `/metrics`,
 * `stats` and `doctor`.
 */
import type { RunReports, RunReport } from '../lib/store';
import { loadFigures, type LoadFigures } from '../lib/run-report';

/** How long recording a run may take when the database may be gone (milliseconds). */
export const RECORD_DEADLINE_MS = 10_000;

/** Thrown by {@link withDeadline} when the work did not finish in time. */
export class DeadlineError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms / 1000} s`);
    this.name = 'DeadlineError';
  }
}

/**
 * `work`, or a {@link DeadlineError} after `ms`: what a command that must
 * never hang waits for a database with. The work itself goes on (its
 * connection is closed with the store).
 *
 * @example await withDeadline(store.harvestStates(), 30_000, 'the store')
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(what, ms)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Records a run's report, or says why it could not be (a database that is
 * gone, a full disk); never throws, never waits longer than `ms`.
 *
 * @example const failed = await recordRunQuietly(p.store, report); if (failed !== null) io.stderr.write(`warning: ${failed}\n`);
 */
export async function recordRunQuietly(store: Pick<RunReports, 'recordRun'>, report: RunReport, ms: number = RECORD_DEADLINE_MS): Promise<string | null> {
  try {
    await withDeadline(store.recordRun(report), ms, 'the store');
    return null;
  } catch (err) {
    return `the run's report was not recorded: ${(err as Error).message.split('\n')[0] ?? ''}`;
  }
}

/**
 * The figures of the last load recorded on the store, whichever process ran
 * it and however it ended; null when none is recorded.
 *
 * @example const last = await lastLoad(p.store); // { finished, records, refusals, read, seconds, outcome, error } | null
 */
export async function lastLoad(store: Pick<RunReports, 'latestRuns'>): Promise<LoadFigures | null> {
  const [run] = await store.latestRuns('load', null, 1);
  return run === undefined ? null : loadFigures(run);
}
