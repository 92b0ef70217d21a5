/**
 * Scheduled harvests inside `serve`: every source of the configuration
 * with a `schedule` is harvested when it is due (lib/harvest/sources.ts
 * `nextRun`, counted from the source's last attempt in the store, so every
 * process sharing the store agrees). The scheduler takes the source's lock
 * (lib/store/bookkeeping.ts `HarvestLocks`) and checks again that the source is still
 * due, so processes sharing one store harvest each source once; then the run
 * itself goes to a child process (./child.ts) with a heap of its own, so a
 * hostile source never holds up a request to this server. This thread keeps
 * the lock, the metrics (the child reports each page and retry) and the log.
 * A source that is down only records its error, and a child that dies (out of
 * memory, killed) is logged in one line naming the source and recorded as the
 * source's error: serving and /healthz never depend on either.
 *
 * Each source is scheduled on its own: its own timer, its own run, lock and
 * report, and its own error handling, so one source that throws, hangs or
 * fails every run never stops, delays or fails another's. What they share is
 * the store, so nothing of a source's schedule writes to it that need not:
 * a run's process opens the store without migrating it (./child.ts), and the
 * lock is taken, renewed and released without waiting for SQLite's write
 * lock on this thread (../store/harvest-locks.ts).
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from '../config';
import { nextCheckMs, nextRun, type SourceConfig } from '../../lib/harvest/sources';
import type { HarvestDeps } from './harvest-types';
import { harvestInChild, type ChildHarvest, type ChildOutcome } from './child';
import { RECORD_DEADLINE_MS, recordRunQuietly, withDeadline } from '../runs';
import { isBusy } from '../db/errors';
import { NO_COUNTS } from '../../lib/run-report';
import { shownText } from '../../lib/shown-text';
import { createHarvestMetrics, type HarvestMetrics } from './metrics';

/** A running scheduler. */
export interface HarvestScheduler {
  /** Adds the `oai_harvest_*` metrics to an app's registry. */
  register(registry: Registry): void;
  /** Runs the due sources now (what each tick does); resolves when their runs end. */
  tick(): Promise<void>;
  /** Stops scheduling; runs under way stop after their current page (they resume on the next run), and their processes end. */
  stop(): Promise<void>;
}

/** What the scheduler needs of an opened provider. */
export interface SchedulerDeps {
  /** This process's store: when each source last ran, its lock, and the error of a run whose process died. */
  readonly store: Pick<HarvestDeps['store'], 'harvestStates' | 'acquireHarvestLock' | 'recordHarvestError' | 'recordRun'>;
  /** The whole configuration: each run's process opens the store from it. */
  readonly config: Config;
  readonly logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** The store's clock, seconds. */
  readonly now?: () => number;
}

/** When the source last ran (the latest attempt of any of its lists), seconds; null: never. */
async function lastRun(store: SchedulerDeps['store'], source: string): Promise<number | null> {
  const states = await store.harvestStates(source);
  return states.reduce<number | null>((m, s) => (s.lastAttempt !== null && (m === null || s.lastAttempt > m) ? s.lastAttempt : m), null);
}

/** A scheduled source: a source with a schedule. */
type Scheduled = SourceConfig & { schedule: NonNullable<SourceConfig['schedule']> };

/** How one source's run began and what it committed, for a report the parent writes. */
interface RunSoFar {
  readonly started: number;
  pages: number;
  records: number;
  /** The list under way, named by the child's last page: where a run whose process died stopped. */
  under?: { prefix: string; set: string };
}

/**
 * Starts the scheduler: each scheduled source checked at once and then
 * when it is next due, at most `tickMs` (default 30 s) after its last check
 * ended, on a timer of its own;
 * each run's process gets a heap of the configuration's `harvestMemory`.
 *
 * @example const scheduler = startHarvestScheduler({ store, config, logger }); … await scheduler.stop();
 */
export function startHarvestScheduler(deps: SchedulerDeps, options: { tickMs?: number; autoStart?: boolean } = {}): HarvestScheduler {
  const scheduled = deps.config.sources.filter((s): s is Scheduled => s.schedule !== undefined);
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));
  const metrics: HarvestMetrics = createHarvestMetrics(deps.store);
  const children = new Set<ChildHarvest>();
  const tickMs = options.tickMs ?? 30_000;
  const timed = scheduled.length > 0 && options.autoStart !== false;
  let stopped = false;

  /** Runs the source when it is due, under its lock; throws what went wrong before its run could report it. */
  const runOne = async (source: Scheduled): Promise<void> => {
    const due = async (): Promise<boolean> => now() >= nextRun(source.schedule, await lastRun(deps.store, source.name));
    if (!(await due())) return;
    // The lock is this process's, not the child's: a child that dies cannot leave it behind.
    const lock = await deps.store.acquireHarvestLock(source.name, now);
    if (!lock) return;
    try {
      if (stopped || !(await due())) return;
      // What the child committed, for the report of a run whose process died (the child reports the others).
      const run: RunSoFar = { started: now(), pages: 0, records: 0 };
      const child = harvestInChild(deps.config, source, {
        memoryMb: deps.config.harvestMemory,
        hooks: {
          onPage: (e) => {
            run.under = { prefix: e.prefix, set: e.set };
            run.pages++;
            run.records += e.records;
            metrics.page(e);
          },
          onRetry: (name) => metrics.retry(name),
          onWarning: (m) => deps.logger.warn({ source: source.name }, shownText(m)),
        },
      });
      children.add(child);
      if (stopped) child.stop();
      let outcome: ChildOutcome;
      try {
        outcome = await child.outcome;
      } finally {
        children.delete(child);
      }
      await report(source, outcome, run);
    } finally {
      await lock.release();
    }
  };

  /**
   * Logs how a run ended. A run that ended before it could report itself (its
   * process died, or could not begin) is recorded here: its report, and its
   * lists' error (and attempt), so it waits for its schedule.
   */
  const report = async (source: SourceConfig, outcome: ChildOutcome, run: RunSoFar): Promise<void> => {
    if (outcome.kind === 'stopped') return;
    if (outcome.kind === 'failed' && outcome.recorded) {
      deps.logger.error({ source: source.name, error: shownText(outcome.message) }, 'scheduled harvest failed');
      return;
    }
    if (outcome.kind === 'failed' || outcome.kind === 'died') {
      const message =
        outcome.kind === 'died'
          ? `${source.name}: the scheduled harvest stopped: ${outcome.message}; nothing after the last committed page was written, and the next run resumes there`
          : `${source.name}: the scheduled harvest could not begin: ${outcome.message}`;
      // One line naming the source, which says it all (docs/harvesting.md).
      deps.logger.error({ source: source.name }, shownText(message));
      await recordUnreported(source, shownText(message), run);
      return;
    }
    const summary = outcome.summary;
    if (summary.locked || summary.skipped) return;
    if (summary.error !== undefined)
      deps.logger.warn({ source: source.name, error: shownText(summary.error), records: summary.records }, 'scheduled harvest stopped');
    else
      deps.logger.info(
        {
          source: source.name,
          records: summary.records,
          inserted: summary.inserted,
          updated: summary.updated,
          deleted: summary.deleted,
          refused: summary.refused,
        },
        'scheduled harvest done',
      );
  };

  /** Records a run its process could not report: its lists' error and its report, each within a deadline, never throwing. */
  const recordUnreported = async (source: SourceConfig, message: string, run: RunSoFar): Promise<void> => {
    const lists = run.under
      ? [run.under]
      : source.prefixes.flatMap((prefix) => (source.sets.length === 0 ? [{ prefix, set: '' }] : source.sets.map((set) => ({ prefix, set }))));
    for (const l of lists) {
      await withDeadline(deps.store.recordHarvestError({ source: source.name, ...l }, message, now()), RECORD_DEADLINE_MS, 'the store').catch((err: unknown) =>
        deps.logger.warn({ source: source.name }, `${source.name}: the error was not recorded: ${(err as Error).message.split('\n')[0] ?? ''}`),
      );
    }
    const unrecorded = await recordRunQuietly(deps.store, {
      kind: 'harvest',
      source: source.name,
      started: run.started,
      ended: now(),
      outcome: 'failed',
      counts: { ...NO_COUNTS, pages: run.pages, records: run.records },
      warnings: [],
      warningsOmitted: 0,
      error: message,
      refusals: [],
      refusalsOmitted: 0,
    });
    if (unrecorded !== null) deps.logger.warn({ source: source.name }, unrecorded);
  };

  /** How long until the source is next due (lib/harvest/sources.ts `nextCheckMs`); a store that cannot say: tickMs. */
  const untilDue = async (source: Scheduled): Promise<number> => {
    try {
      return nextCheckMs(source.schedule, await lastRun(deps.store, source.name), now(), tickMs);
    } catch {
      return tickMs;
    }
  };

  /** One source's schedule: its own timer and run, whatever it throws caught and logged as its own. */
  const schedules = scheduled.map((source) => {
    let running: Promise<void> | null = null;
    let timer: NodeJS.Timeout | undefined;
    const check = (): Promise<void> | null => {
      if (stopped || running !== null) return null;
      clearTimeout(timer);
      running = runOne(source)
        .catch((err: unknown) => {
          // A store that stayed busy past the lock's deadline is no failure of the source: its next check tries again.
          if (isBusy(err)) deps.logger.warn({ source: source.name }, `${source.name}: the store stayed busy; the next check tries again`);
          else deps.logger.error({ source: source.name, err }, 'scheduled harvest failed');
        })
        // The next check when the source is next due (at most tickMs away), not a fixed tick after this one.
        .then(() => (timed && !stopped ? untilDue(source) : tickMs))
        .then((wait) => {
          running = null;
          if (timed && !stopped) {
            timer = setTimeout(() => void check(), wait);
            timer.unref();
          }
        });
      return running;
    };
    return {
      check,
      async stop(): Promise<void> {
        clearTimeout(timer);
        await running;
      },
    };
  });

  const tick = async (): Promise<void> => {
    await Promise.all(schedules.map((s) => s.check()));
  };

  if (timed) void tick();
  return {
    register(registry) {
      if (deps.config.sources.length > 0) metrics.register(registry);
    },
    tick,
    async stop() {
      stopped = true;
      for (const child of children) child.stop();
      await Promise.all(schedules.map((s) => s.stop()));
    },
  };
}
