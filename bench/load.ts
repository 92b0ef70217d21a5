/**
 * The load step of the benchmark. The same N generated records
 * (bench/generate.ts) are loaded three ways, each into a fresh store:
 *
 * - directly, in this process, through the project's write path
 *   (`jsonToItem` and the store's `writeItems`), a batch at a time;
 * - as an NDJSON export through `oai-steward load` in its own process, as an
 *   operator runs it: timed from spawn to exit, with the process's peak RSS;
 *   with `--base-records M`, M records the same way, to compare the rate and
 *   the peak with;
 * - the load floor (bench/load-floor.ts): the rows the direct load wrote,
 *   copied into another fresh store with the driver alone;
 * - the publication log's cost (bench/log-cost.ts): a sample of the records
 *   loaded into a store with the log and one without.
 *
 * The direct load's store is the one the rest of the run serves (the one
 * `oai-steward load` wrote with `--skip-direct-load`). Generation streams:
 * records are made a batch (or a line) at a time, so memory does not grow
 * with N.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { createKnex, databaseKind } from '../server/db/connection';
import { migrate } from '../server/db/migrations';
import { SERVER_NODE_FLAGS } from '../server/node-flags';
import { PROJECT_ROOT } from '../server/paths';
import { openProvider } from '../server/provider';
import type { KnexStore } from '../server/store/knex-store';
import { ratio, round, type LoadFigures } from './figures';
import { loadRecords } from './generate';
import { measureLoadFloor } from './load-floor';
import { writeBenchNdjson } from './ndjson';
import { LOG_SAMPLE, type BenchOptions } from './options';
import { measureLogCost, type LogCost } from './log-cost';
import { progress } from './progress';
import { entry, preload } from './serve';
import { freshStore, settleDisk, type FreshStore } from './stores';

const log = (s: string): void => void process.stderr.write(`${s}\n`);

/** What the load step leaves: its figures, and the loaded store the rest of the run serves (the caller drops it). */
export interface LoadOutcome {
  readonly figures: LoadFigures;
  readonly store: FreshStore;
}

/** A load through `oai-steward load`: how long it took from spawn to exit, its peak RSS, the input's size. */
interface CliLoad {
  readonly seconds: number;
  readonly peakRssMb: number | null;
  readonly ndjsonBytes: number;
}

/**
 * Writes `records` generated records as NDJSON in `dir` and loads them with
 * `oai-steward load` into the store at `url`, in its own process with the
 * run's configuration; the file is removed afterwards.
 */
async function cliLoad(env: NodeJS.ProcessEnv, records: number, dir: string, url: string): Promise<CliLoad> {
  const file = path.join(dir, `records-${records}.ndjson`);
  const setsFile = path.join(dir, `records-${records}.sets.json`);
  const rssFile = path.join(dir, `load-${records}.peak-rss`);
  await writeBenchNdjson(file, setsFile, records);
  const ndjsonBytes = fs.statSync(file).size;
  try {
    settleDisk();
    const started = process.hrtime.bigint();
    const r = spawnSync(
      process.execPath,
      [...SERVER_NODE_FLAGS, ...preload('bench/peak-rss'), ...entry('server/cli'), 'load', '--json', '--sets', setsFile, file],
      {
        env: { ...env, DATABASE_URL: url, OAI_BENCH_PEAK_RSS: rssFile },
        stdio: ['ignore', 'pipe', 'inherit'],
        cwd: PROJECT_ROOT,
        maxBuffer: 1 << 20,
      },
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const summary = JSON.parse(String(r.stdout).trim().split('\n').pop() || '{}') as { records?: number; committed?: boolean };
    if (r.status !== 0 || summary.committed !== true || summary.records !== records) {
      throw new Error(`oai-steward load of the benchmark's NDJSON failed (exit ${String(r.status)}): ${String(r.stdout)}`);
    }
    const peak = fs.existsSync(rssFile) ? Number(fs.readFileSync(rssFile, 'utf8')) : NaN;
    return { seconds, peakRssMb: Number.isFinite(peak) ? round(peak / 2 ** 20) : null, ndjsonBytes };
  } finally {
    for (const f of [file, setsFile, rssFile]) fs.rmSync(f, { force: true });
  }
}

/**
 * Measures the load floor (bench/load-floor.ts) of the store at `sourceUrl`
 * into a fresh, migrated store of the same kind, dropped afterwards; null
 * when no second store can be made.
 */
async function loadFloorInto(sourceUrl: string, keep: boolean): Promise<{ items: number; seconds: number } | null> {
  const target = await freshStore(process.env.DATABASE_URL, keep);
  try {
    // Without the right to create a database, the "fresh" store is the loaded one, emptied: nothing to copy from.
    if (target.url === sourceUrl) return null;
    const knex = createKnex(target.url);
    try {
      await migrate(knex);
    } finally {
      await knex.destroy();
    }
    settleDisk();
    return await measureLoadFloor(sourceUrl, target.url);
  } finally {
    await target.drop();
  }
}

/** The direct load: N generated records through the write path in this process, with progress. */
export async function directLoad(o: BenchOptions, env: NodeJS.ProcessEnv, url: string): Promise<{ seconds: number; oaiDcBytes: number; live: number }> {
  log(`load: ${o.records} generated records through the write path …`);
  const provider = await openProvider(loadConfig({ ...env, DATABASE_URL: url }));
  try {
    let shown = 0;
    const loaded = progress();
    settleDisk();
    const load = await loadRecords(provider.store, provider.formats, o.records, {
      batch: o.batch,
      onProgress: (done) => {
        if (done - shown < 50_000 && done !== o.records) return;
        shown = done;
        if (done === o.records) loaded.done(`  loaded ${done}`);
        else loaded.update(`  loaded ${done}`);
      },
    });
    log(`  ${Math.round(o.records / load.seconds)} records/s`);
    return load;
  } finally {
    await provider.close();
  }
}

/**
 * The formats the store holds records in, of those offered, in the order
 * offered (one indexed probe each, rather than a scan of every record), and on PostgreSQL the
 * seconds of the VACUUM ANALYZE that settles it.
 */
export async function settleStore(env: NodeJS.ProcessEnv, url: string, offered: readonly string[]): Promise<{ loaded: string[]; analyzeSeconds: number }> {
  const provider = await openProvider(loadConfig({ ...env, DATABASE_URL: url }));
  try {
    const loaded: string[] = [];
    const knex = (provider.store as KnexStore).knex;
    for (const prefix of offered) if (await knex('records').where({ prefix }).first('item_pk')) loaded.push(prefix);
    let analyzeSeconds = 0;
    if (databaseKind(url) === 'postgres') {
      // Right after a bulk load PostgreSQL has no statistics: it then plans the
      // sets lookup of every page as a sequential scan of item_sets (45 ms a page
      // at 100,000 records) and counts without index-only scans. Autovacuum would
      // fix both within minutes; the benchmark measures that settled state.
      const t = process.hrtime.bigint();
      await knex.raw('VACUUM ANALYZE');
      analyzeSeconds = Number(process.hrtime.bigint() - t) / 1e9;
      log(`  VACUUM ANALYZE: ${analyzeSeconds.toFixed(1)} s`);
    }
    return { loaded, analyzeSeconds };
  } finally {
    await provider.close();
  }
}

/**
 * Runs the load step: the loads the options ask for, the load floor, and
 * the store left to serve.
 */
export async function runLoadStep(o: BenchOptions, env: NodeJS.ProcessEnv, tmp: string): Promise<LoadOutcome> {
  const given = process.env.DATABASE_URL;
  const offered = [...o.formats];
  log(`formats offered: ${offered.join(', ')}`);
  let served: FreshStore | undefined;
  try {
    let direct: { seconds: number; oaiDcBytes: number; live: number } | null = null;
    if (!o.skipDirectLoad) {
      served = await freshStore(given, o.keep);
      direct = await directLoad(o, env, served.url);
    }

    // The same records as an NDJSON export through the CLI, as an operator loads them.
    let cli: CliLoad | null = null;
    if (!o.skipCliLoad) {
      log(`load (CLI): the same records as NDJSON through \`oai-steward load\` …`);
      const target = await freshStore(given, o.keep);
      try {
        cli = await cliLoad(env, o.records, tmp, target.url);
      } finally {
        if (served) await target.drop();
        else served = target;
      }
      log(`  ${Math.round(o.records / cli.seconds)} records/s, peak RSS ${cli.peakRssMb ?? '?'} MB`);
    }
    if (!served) throw new Error('nothing was loaded');
    const { loaded, analyzeSeconds } = await settleStore(env, served.url, offered);

    let base: CliLoad | null = null;
    if (o.baseRecords > 0) {
      log(`load (CLI), base: ${o.baseRecords} records the same way, to compare with …`);
      const target = await freshStore(given, o.keep);
      try {
        base = await cliLoad(env, o.baseRecords, tmp, target.url);
      } finally {
        await target.drop();
      }
      log(`  ${Math.round(o.baseRecords / base.seconds)} records/s, peak RSS ${base.peakRssMb ?? '?'} MB`);
    }

    // The load's floor: the rows just written, inserted again with the driver alone.
    let floor: { items: number; seconds: number } | null = null;
    if (!o.skipLoadFloor) {
      log('load floor: the same rows inserted with the driver alone …');
      floor = await loadFloorInto(served.url, o.keep);
      log(floor ? `  ${Math.round(floor.items / floor.seconds)} records/s` : '  not measured: no second database could be created');
    }

    // What the publication log costs a publication (bench/log-cost.ts).
    let logCost: LogCost | null = null;
    if (!o.skipLogCost) {
      log(`publication log cost: ${Math.min(o.records, LOG_SAMPLE)} records loaded without the log and with it, twice …`);
      logCost = await measureLogCost(o, env, served.url);
      log(
        logCost
          ? `  ${logCost.withoutLogSeconds.toFixed(2)} s without, ${logCost.withLogSeconds.toFixed(2)} s with`
          : '  not measured: no second database could be created',
      );
    }

    const rate = (records: number, seconds: number | undefined): number | null => (seconds === undefined ? null : Math.round(records / seconds));
    const directRps = rate(o.records, direct?.seconds);
    const cliRps = rate(o.records, cli?.seconds);
    const baseRps = rate(o.baseRecords, base?.seconds);
    const floorRps = floor && Math.round(floor.items / floor.seconds);
    return {
      store: served,
      figures: {
        formats_offered: offered,
        formats_loaded: loaded,
        load_seconds: direct && round(direct.seconds, 2),
        load_rps: directRps,
        load_analyze_seconds: round(analyzeSeconds, 2),
        load_cli_seconds: cli && round(cli.seconds, 2),
        load_cli_rps: cliRps,
        load_cli_of_direct: cli && direct && ratio(cli.seconds, direct.seconds),
        load_cli_peak_rss_mb: cli?.peakRssMb ?? null,
        ndjson_bytes: cli?.ndjsonBytes ?? null,
        base_records: base && o.baseRecords,
        base_load_cli_rps: baseRps,
        base_load_cli_peak_rss_mb: base?.peakRssMb ?? null,
        load_cli_rps_of_base: ratio(cliRps, baseRps),
        load_cli_rss_of_base: ratio(cli?.peakRssMb ?? null, base?.peakRssMb ?? null),
        floor_load_rps: floorRps,
        load_of_floor: ratio(directRps, floorRps),
        load_cli_of_floor: ratio(cliRps, floorRps),
        oai_dc_avg_bytes: direct && Math.round(direct.oaiDcBytes / Math.max(1, direct.live)),
        log_sample_records: logCost && logCost.records,
        log_publications: logCost && logCost.publications,
        log_publication_ms: logCost && round(((logCost.withLogSeconds - logCost.withoutLogSeconds) * 1000) / logCost.publications, 1),
        load_with_log_of_without: logCost && ratio(logCost.withLogSeconds, logCost.withoutLogSeconds),
      },
    };
  } catch (err) {
    await served?.drop();
    throw err;
  }
}
