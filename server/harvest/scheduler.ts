/**
 * Scheduled harvests inside `serve`: every source of the configuration
 * with a `schedule` is harvested when it is due (lib/harvest/sources.ts
 * `nextRun`, counted from the source's last attempt in the store, so every
 * process sharing the store agrees). A run takes the source's lock
 * (lib/store.ts `HarvestLocks`) and checks again that the source is still due, so processes
 * sharing one store harvest each source once. A source that is down only
 * records its error: serving and /healthz never depend on it.
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from '../config';
import { nextRun, type SourceConfig } from '../../lib/harvest/sources';
import { HarvestInterrupted, harvestSource, type HarvestDeps, type HarvestOptions, type HarvestSummary } from './harvest';
import { createHarvestMetrics, type HarvestMetrics } from './metrics';

/** A running scheduler. */
export interface HarvestScheduler {
  /** Adds the `oai_harvest_*` metrics to an app's registry. */
  register(registry: Registry): void;
  /** Runs the due sources now (what each tick does); resolves when their runs end. */
  tick(): Promise<void>;
  /** Stops scheduling; runs under way stop after their current page (they resume on the next run). */
  stop(): Promise<void>;
}

/** What the scheduler needs of an opened provider. */
export interface SchedulerDeps extends Omit<HarvestDeps, 'repository'> {
  readonly config: Pick<Config, 'sources' | 'repositoryName' | 'baseUrl'>;
  readonly logger: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/** Thrown between pages when the scheduler stops: the run is reported interrupted. */
class Stopping extends HarvestInterrupted {}

/** When the source last ran (the latest attempt of any of its lists), seconds; null: never. */
async function lastRun(store: HarvestDeps['store'], source: string): Promise<number | null> {
  const states = await store.harvestStates(source);
  return states.reduce<number | null>((m, s) => (s.lastAttempt !== null && (m === null || s.lastAttempt > m) ? s.lastAttempt : m), null);
}

/**
 * Starts the scheduler: a tick at once and every `tickMs` (default 30 s).
 *
 * @example const scheduler = startHarvestScheduler({ store, formats, config, logger }); … await scheduler.stop();
 */
export function startHarvestScheduler(
  deps: SchedulerDeps,
  options: { tickMs?: number; harvest?: Partial<HarvestOptions>; autoStart?: boolean } = {},
): HarvestScheduler {
  const scheduled = deps.config.sources.filter((s): s is SourceConfig & { schedule: NonNullable<SourceConfig['schedule']> } => s.schedule !== undefined);
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));
  const metrics: HarvestMetrics = createHarvestMetrics(deps.store);
  const running = new Map<string, Promise<void>>();
  let stopped = false;

  const runOne = async (source: (typeof scheduled)[number]): Promise<void> => {
    const due = async (): Promise<boolean> => now() >= nextRun(source.schedule, await lastRun(deps.store, source.name));
    if (!(await due())) return;
    let summary: HarvestSummary;
    try {
      summary = await harvestSource({ ...deps, repository: { name: deps.config.repositoryName, baseUrl: deps.config.baseUrl } }, source, {
        ...options.harvest,
        stillDue: due,
        onPage: (e) => metrics.page(e),
        onRetry: (name) => metrics.retry(name),
        onWarning: (m) => deps.logger.warn({ source: source.name }, m),
        betweenPages: async () => {
          if (stopped) throw new Stopping('the server is stopping');
          await options.harvest?.betweenPages?.();
        },
      });
    } catch (err) {
      if (err instanceof Stopping) return;
      deps.logger.error({ source: source.name, err }, 'scheduled harvest failed');
      return;
    }
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
      await Promise.all(running.values());
    },
  };
}
