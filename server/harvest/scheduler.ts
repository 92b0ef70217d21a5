/**
 * Scheduled harvests inside `serve`: every source of the configuration
 * with a `schedule` is harvested when it is due (lib/harvest/sources.ts
 * `nextRun`, counted from the source's last attempt in the store, so every
 * process sharing the store agrees). The scheduler takes the source's lock
 * (lib/store.ts `HarvestLocks`) and checks again that the source is still
 * due, so processes sharing one store harvest each source once; then the run
 * itself goes to a child process (./child.ts) with a heap of its own, so a
 * hostile source never holds up a request to this server. This thread keeps
 * the lock, the metrics (the child reports each page and retry) and the log.
 * A source that is down only records its error, and a child that dies (out of
 * memory, killed) is logged in one line naming the source and recorded as the
 * source's error: serving and /healthz never depend on either.
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from '../config';
import { nextRun, type SourceConfig } from '../../lib/harvest/sources';
import type { HarvestDeps } from './harvest';
import { harvestInChild, type ChildHarvest, type ChildOutcome } from './child';
import { recordRunQuietly } from '../runs';
import { NO_COUNTS } from '../../lib/run-report';
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

/**
 * Starts the scheduler: a tick at once and every `tickMs` (default 30 s);
 * each run's process gets a heap of the configuration's `harvestMemory`.
 *
 * @example const scheduler = startHarvestScheduler({ store, config, logger }); … await scheduler.stop();
 */
export function startHarvestScheduler(deps: SchedulerDeps, options: { tickMs?: number; autoStart?: boolean } = {}): HarvestScheduler {
  const scheduled = deps.config.sources.filter((s): s is SourceConfig & { schedule: NonNullable<SourceConfig['schedule']> } => s.schedule !== undefined);
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));
  const metrics: HarvestMetrics = createHarvestMetrics(deps.store);
  const running = new Map<string, Promise<void>>();
  const children = new Set<ChildHarvest>();
  let stopped = false;

  const runOne = async (source: (typeof scheduled)[number]): Promise<void> => {
    const due = async (): Promise<boolean> => now() >= nextRun(source.schedule, await lastRun(deps.store, source.name));
    if (!(await due())) return;
    // The lock is this process's, not the child's: a child that dies cannot leave it behind.
    const lock = await deps.store.acquireHarvestLock(source.name, now);
    if (!lock) return;
    try {
      if (stopped || !(await due())) return;
      // The list under way, named by the child's last page: where a run whose process died stopped.
      let under: { prefix: string; set: string } | undefined;
      // What the child committed, for the report of a run whose process died (the child reports the others).
      const done = { started: now(), pages: 0, records: 0 };
      const child = harvestInChild(deps.config, source, {
        memoryMb: deps.config.harvestMemory,
        hooks: {
          onPage: (e) => {
            under = { prefix: e.prefix, set: e.set };
            done.pages++;
            done.records += e.records;
            metrics.page(e);
          },
          onRetry: (name) => metrics.retry(name),
          onWarning: (m) => deps.logger.warn({ source: source.name }, m),
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
      await report(source, outcome, under, done);
    } finally {
      await lock.release();
    }
  };

  /** Logs how a run ended; a run whose process died is also recorded as its list's error (and attempt), so it waits for its schedule. */
  const report = async (
    source: SourceConfig,
    outcome: ChildOutcome,
    under: { prefix: string; set: string } | undefined,
    done: { started: number; pages: number; records: number },
  ): Promise<void> => {
    if (outcome.kind === 'stopped') return;
    if (outcome.kind === 'failed') {
      deps.logger.error({ source: source.name, error: outcome.message }, 'scheduled harvest failed');
      return;
    }
    if (outcome.kind === 'died') {
      const message = `${source.name}: the scheduled harvest stopped: ${outcome.message}; nothing after the last committed page was written, and the next run resumes there`;
      deps.logger.error({ source: source.name }, message);
      const lists = under
        ? [under]
        : source.prefixes.flatMap((prefix) => (source.sets.length === 0 ? [{ prefix, set: '' }] : source.sets.map((set) => ({ prefix, set }))));
      for (const l of lists) await deps.store.recordHarvestError({ source: source.name, ...l }, message, now());
      const unrecorded = await recordRunQuietly(deps.store, {
        kind: 'harvest',
        source: source.name,
        started: done.started,
        ended: now(),
        outcome: 'failed',
        counts: { ...NO_COUNTS, pages: done.pages, records: done.records },
        warnings: [],
        warningsOmitted: 0,
        error: message,
        refusals: [],
        refusalsOmitted: 0,
      });
      if (unrecorded !== null) deps.logger.warn({ source: source.name }, unrecorded);
      return;
    }
    const summary = outcome.summary;
    if (summary.locked || summary.skipped) return;
    if (summary.error !== undefined) deps.logger.warn({ source: source.name, error: summary.error, records: summary.records }, 'scheduled harvest stopped');
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

  const tick = async (): Promise<void> => {
    if (stopped) return;
    const started: Promise<void>[] = [];
    for (const source of scheduled) {
      if (running.has(source.name)) continue;
      const run = runOne(source)
        .catch((err: unknown) => deps.logger.error({ source: source.name, err }, 'scheduled harvest failed'))
        .finally(() => running.delete(source.name));
      running.set(source.name, run);
      started.push(run);
    }
    await Promise.all(started);
  };

  let timer: NodeJS.Timeout | undefined;
  if (scheduled.length > 0 && options.autoStart !== false) {
    void tick();
    timer = setInterval(() => void tick(), options.tickMs ?? 30_000);
    timer.unref();
  }
  return {
    register(registry) {
      if (deps.config.sources.length > 0) metrics.register(registry);
    },
    tick,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      for (const child of children) child.stop();
      await Promise.all(running.values());
    },
  };
}
