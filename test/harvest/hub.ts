/**
 * The hub the harvester's tests harvest into: a provider opened the way
 * production opens one (server/provider.ts) on a throwaway database, and
 * what a test needs to run one harvest with tiny waits.
 */
import type { Knex } from 'knex';
import { loadConfig } from '../../server/config';
import { openProvider, type Provider } from '../../server/provider';
import { harvestSource } from '../../server/harvest/harvest';
import { type HarvestOptions, type HarvestSummary } from '../../server/harvest/harvest-types';
import type { SourceConfig } from '../../lib/harvest/sources';
import type { Refusal } from '../../lib/model/refusal';
import type { ThrowawayDatabase } from '../helpers/db';

export const HUB_NAMESPACE = 'hub.example.org';

/** A hub: the provider, and a knex of its throwaway database for the tests to look into its tables. */
export type Hub = Provider & { readonly knex: Knex };

export async function openHub(db: ThrowawayDatabase, env: NodeJS.ProcessEnv = {}): Promise<Hub> {
  const p = await openProvider(
    loadConfig({
      DATABASE_URL: db.url,
      LOG_LEVEL: 'silent',
      OAI_NAMESPACE: HUB_NAMESPACE,
      OAI_SEED_DEMO: 'false',
      OAI_REPOSITORY_NAME: 'Test hub',
      OAI_BASE_URL: 'http://hub.example.org/oai',
      ...env,
    }),
  );
  return Object.assign(p, { knex: db.knex() });
}

/** A source with test politeness: short timeouts, few retries. */
export function source(name: string, baseUrl: string, more: Partial<SourceConfig> = {}): SourceConfig {
  return { name, baseUrl, prefixes: ['oai_dc'], sets: [], politeness: { delayMs: 0, timeoutMs: 2000, retries: 3 }, ...more };
}

/** One harvest with waits recorded instead of slept, and refusals and warnings collected. */
export async function harvestOnce(
  hub: Provider,
  src: SourceConfig,
  options: HarvestOptions = {},
): Promise<{ summary: HarvestSummary; waits: number[]; refusals: Refusal[]; warnings: string[] }> {
  const waits: number[] = [];
  const refusals: Refusal[] = [];
  const warnings: string[] = [];
  const summary = await harvestSource(
    { store: hub.store, formats: hub.formats, repository: { name: 'Test hub', baseUrl: 'http://hub.example.org/oai' } },
    src,
    {
      client: {
        backoffBaseMs: 1,
        backoffMaxMs: 4,
        sleep: async (ms) => {
          waits.push(ms);
        },
      },
      onRefusal: (r) => refusals.push(r),
      onWarning: (w) => warnings.push(w),
      ...options,
    },
  );
  return { summary, waits, refusals, warnings };
}

/** The hub's items as (internal id, deleted, direct sets), sorted: what two harvests are compared by. */
export async function itemsOf(hub: Hub): Promise<{ id: string; deleted: boolean; hash: string; sets: string }[]> {
  const rows = (await hub.knex('items').select('internal_id', 'deleted', 'content_hash', 'direct_sets').orderBy('internal_id')) as {
    internal_id: string;
    deleted: unknown;
    content_hash: string;
    direct_sets: string | null;
  }[];
  return rows.map((r) => ({ id: r.internal_id, deleted: r.deleted === true || r.deleted === 1, hash: r.content_hash, sets: r.direct_sets ?? '' }));
}
