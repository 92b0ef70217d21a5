/**
 * One harvest in a process of its own, so that a test can read what it
 * cost in memory: the peak resident set size (`process.resourceUsage()
 * .maxRSS`) before and after the harvest. A first harvest of a small list
 * warms the process up (modules, libxml2, the database's connections), so
 * the difference is the harvest under test alone. Its input is the JSON
 * in HARVEST_CHILD; its output one JSON line on standard output.
 */
import { loadConfig } from '../../server/config';
import { openProvider } from '../../server/provider';
import { harvestSource } from '../../server/harvest/harvest';
import type { SourceConfig } from '../../lib/harvest/sources';

export interface ChildInput {
  readonly databaseUrl: string;
  /** Harvested first, to warm the process up. */
  readonly warmUp: SourceConfig;
  readonly source: SourceConfig;
}

export interface ChildOutput {
  readonly error?: string;
  readonly pages: number;
  readonly completed: boolean;
  readonly inserted: number;
  /** Peak resident set size before and after the harvest, kilobytes. */
  readonly beforeKb: number;
  readonly afterKb: number;
}

async function main(): Promise<void> {
  const input = JSON.parse(process.env.HARVEST_CHILD ?? '') as ChildInput;
  const hub = await openProvider(
    loadConfig({
      DATABASE_URL: input.databaseUrl,
      LOG_LEVEL: 'silent',
      OAI_NAMESPACE: 'hub.example.org',
      OAI_SEED_DEMO: 'false',
      OAI_REPOSITORY_NAME: 'Test hub',
      OAI_BASE_URL: 'http://hub.example.org/oai',
    }),
  );
  try {
    const deps = { store: hub.store, formats: hub.formats, repository: { name: 'Test hub', baseUrl: 'http://hub.example.org/oai' } };
    const options = { client: { backoffBaseMs: 1, backoffMaxMs: 4, sleep: async (): Promise<void> => {} } };
    await harvestSource(deps, input.warmUp, options);
    const beforeKb = process.resourceUsage().maxRSS;
    const s = await harvestSource(deps, input.source, options);
    const afterKb = process.resourceUsage().maxRSS;
    const out: ChildOutput = {
      ...(s.error !== undefined && { error: s.error }),
      pages: s.pages,
      completed: s.completed,
      inserted: s.inserted,
      beforeKb,
      afterKb,
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    await hub.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
