/**
 * The harvester's metrics (`oai_harvest_*`, docs/operations.md): what this
 * process's scheduled harvests did, per source, and the last success of each
 * source as the store records it (so it is the same in every process).
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { PageEvent } from './harvest-types';
import type { HarvestState } from '../../lib/store';

/** Counts the pages and retries of scheduled harvests; `register` adds the metrics to a registry. */
export interface HarvestMetrics {
  page(e: PageEvent): void;
  retry(source: string): void;
  register(registry: Registry): void;
}

/**
 * The metrics over one store: counts of this process's pages and retries,
 * and each source's last success read from the store at scrape time.
 *
 * @example const metrics = createHarvestMetrics(p.store); metrics.register(registry);
 */
export function createHarvestMetrics(store: Pick<HarvestState, 'harvestStates'>): HarvestMetrics {
  const counts = new Map<string, { records: number; refusals: number; pages: number; retries: number }>();
  const of = (source: string): { records: number; refusals: number; pages: number; retries: number } => {
    let c = counts.get(source);
    if (!c) counts.set(source, (c = { records: 0, refusals: 0, pages: 0, retries: 0 }));
    return c;
  };
  return {
    page(e) {
      const c = of(e.source);
      c.pages++;
      c.records += e.records;
      c.refusals += e.refused;
    },
    retry(source) {
      of(source).retries++;
    },
    register(registry) {
      const counter = (name: string, help: string, pick: (c: { records: number; refusals: number; pages: number; retries: number }) => number): void => {
        new Counter({
          name,
          help,
          labelNames: ['source'] as const,
          registers: [registry],
          collect() {
            this.reset();
            for (const [source, c] of counts) this.inc({ source }, pick(c));
          },
        });
      };
      counter(
        'oai_harvest_records_total',
        'Records read from each source by the scheduled harvests of this process (refused ones included).',
        (c) => c.records,
      );
      counter('oai_harvest_refusals_total', 'Records of each source refused by the scheduled harvests of this process.', (c) => c.refusals);
      counter('oai_harvest_pages_total', 'List pages of each source committed by the scheduled harvests of this process.', (c) => c.pages);
      counter(
        'oai_harvest_retries_total',
        'Requests to each source asked again (connection errors, 5xx, 503/429, pages that are not XML) by this process.',
        (c) => c.retries,
      );
      new Gauge({
        name: 'oai_harvest_last_success_timestamp_seconds',
        help: 'When each source was last harvested to the end of a list, as the store records it (Unix time; 0 when never).',
        labelNames: ['source'] as const,
        registers: [registry],
        async collect() {
          const last = new Map<string, number>();
          for (const s of await store.harvestStates()) last.set(s.source, Math.max(last.get(s.source) ?? 0, s.lastSuccess ?? 0));
          for (const [source, t] of last) this.set({ source }, t);
        },
      });
    },
  };
}
