/**
 * The harvest step of `npm run bench`: the store the run loaded is served by
 * `oai-steward serve`, and `oai-steward harvest` (a process of its own, as
 * cron runs it) harvests it in full, oai_dc, into a fresh store of the same
 * kind that offers every format the run offers: each harvested record is
 * lifted into the model and written in every format the model allows, a
 * transaction a page. Reported: records/s, the harvester's peak RSS, and the
 * ratios to the provider's own ListRecords rate (the measure step's oai_dc
 * harvest: what fetching alone costs) and to `oai-steward load` of the same
 * records (what writing alone costs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { SERVER_NODE_FLAGS } from '../server/node-flags';
import { PROJECT_ROOT } from '../server/paths';
import { ratio, round, type HarvestFigures, type LoadFigures, type ServeFigures } from './figures';
import type { BenchOptions } from './options';
import { entry, preload, startProvider } from './serve';
import { freshStore, settleDisk } from './stores';

const log = (s: string): void => void process.stderr.write(`${s}\n`);

/** What `oai-steward harvest --json` prints for one source (server/harvest/harvest-types.ts `HarvestSummary`). */
interface Summary {
  readonly records: number;
  readonly inserted: number;
  readonly deleted: number;
  readonly refused: number;
  readonly pages: number;
  readonly completed: boolean;
  readonly error?: string;
}

/** Runs the harvest step against the loaded store at `storeUrl`. */
export async function runHarvestStep(
  o: BenchOptions,
  env: NodeJS.ProcessEnv,
  storeUrl: string,
  load: LoadFigures,
  serve: ServeFigures,
  tmp: string,
): Promise<HarvestFigures> {
  if (o.skipHarvest) {
    return {
      harvest_records: null,
      harvest_seconds: null,
      harvest_rps: null,
      harvest_list_pages: null,
      harvest_peak_rss_mb: null,
      harvest_of_provider: null,
      harvest_of_load: null,
    };
  }
  log(`harvest: oai-steward harvest of the served store (oai_dc) into a fresh store offering ${load.formats_offered.join(', ')} …`);
  const server = await startProvider({ ...env, DATABASE_URL: storeUrl }, 1, undefined);
  const hub = await freshStore(process.env.DATABASE_URL, o.keep);
  const rssFile = path.join(tmp, 'harvest.peak-rss');
  try {
    // A harvest makes no store of its own: the hub's is made first, outside the timing, as an operator would.
    const migrated = spawnSync(process.execPath, [...entry('server/cli'), 'migrate'], {
      env: { ...env, DATABASE_URL: hub.url },
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
    });
    if (migrated.status !== 0) throw new Error(`oai-steward migrate of the hub's store failed (exit ${String(migrated.status)}): ${migrated.stderr.trim()}`);
    // One transaction a page: the provider's page size decides the batch (the default, 100).
    settleDisk();
    const started = process.hrtime.bigint();
    const child = spawn(
      process.execPath,
      [...SERVER_NODE_FLAGS, ...preload('bench/peak-rss'), ...entry('server/cli'), 'harvest', server.baseUrl, '--name', 'bench', '--json'],
      {
        env: { ...env, DATABASE_URL: hub.url, OAI_BENCH_PEAK_RSS: rssFile },
        stdio: ['ignore', 'pipe', 'inherit'],
        cwd: PROJECT_ROOT,
      },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const [summary] = JSON.parse(out.trim().split('\n').pop() || '[]') as Summary[];
    if (code !== 0 || !summary || !summary.completed || summary.refused > 0) {
      throw new Error(`oai-steward harvest of the benchmark's store failed (exit ${String(code)}): ${out.trim()}`);
    }
    const rps = Math.round(summary.records / seconds);
    const peak = fs.existsSync(rssFile) ? Number(fs.readFileSync(rssFile, 'utf8')) : NaN;
    log(
      `  ${summary.records} records in ${seconds.toFixed(1)} s: ${rps} records/s (provider's ListRecords ${serve.listrecords_rps}/s, oai-steward load ${load.load_cli_rps ?? '—'}/s)`,
    );
    return {
      harvest_records: summary.records,
      harvest_seconds: round(seconds, 2),
      harvest_rps: rps,
      harvest_list_pages: summary.pages,
      harvest_peak_rss_mb: Number.isFinite(peak) ? round(peak / 2 ** 20) : null,
      harvest_of_provider: ratio(rps, serve.listrecords_rps),
      harvest_of_load: ratio(rps, load.load_cli_rps),
    };
  } finally {
    fs.rmSync(rssFile, { force: true });
    await server.stop();
    await hub.drop();
  }
}
