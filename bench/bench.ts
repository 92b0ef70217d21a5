/**
 * `npm run bench`: loads N synthetic records into a fresh store, serves it
 * with the real server and measures it over HTTP, then writes the run to
 * bench/results/ as JSON and prints every figure and every target. The steps,
 * one module each:
 *
 * - load (bench/load.ts): the records through the write path, through
 *   `oai-steward load` (with its peak RSS), and the load floor;
 * - serve and measure (bench/serve.ts, bench/measure.ts): harvests in every
 *   format beside the floor and the replay ceiling, GetRecord, harvests at
 *   once, what metrics and the prefetch cost, the pyoai peer;
 * - harvest (bench/harvest.ts): `oai-steward harvest` of the served store into a fresh one;
 * - disk: the store's size as loaded and after VACUUM;
 * - report (bench/results.ts, bench/targets.ts, bench/report.ts).
 *
 *   npm run bench -- [options]        (bench/options.ts lists them; --help prints them)
 *
 * SQLite (a file in a temporary folder) by default; PostgreSQL when
 * DATABASE_URL is `postgres://…`: a fresh database is created beside the one
 * named (or, without the right to create one, the named database's tables are
 * dropped and recreated) and dropped afterwards unless `--keep`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { databaseKind } from '../server/db/connection';
import { round, type BenchFigures, type DiskFigures } from './figures';
import { runLoadStep } from './load';
import { runMeasureStep } from './measure';
import { runHarvestStep } from './harvest';
import { allFormats, describePlan, parseArgs, type BenchOptions } from './options';
import { figuresTable, targetsTable } from './report';
import { commitOf, machine, recordedOptions, runLabel, writeRun, type RunRecord } from './results';
import { NO_REPLICA, runReplicaStep } from './replica';
import { databaseVersion, storeBytes, vacuumStore } from './stores';
import { checkTargets } from './targets';

const log = (s: string): void => void process.stderr.write(`${s}\n`);

/** The configuration file of the run: the formats the repository offers (an empty file is the default configuration: all six). */
function configFile(o: BenchOptions, tmp: string): string {
  const file = path.join(tmp, 'oai-steward.yaml');
  fs.writeFileSync(file, allFormats(o.formats) ? '' : `formats:\n${o.formats.map((p) => `  - prefix: ${p}\n`).join('')}`);
  return file;
}

/** The disk step: what the store takes as loaded, and after VACUUM unless skipped. */
async function measureDisk(o: BenchOptions, url: string): Promise<DiskFigures> {
  const before = await storeBytes(url);
  if (o.skipVacuum) return { store_bytes: before, store_vacuumed_bytes: null, vacuum_seconds: null, bytes_per_record: null };
  log(`disk: ${(before / 1e6).toFixed(1)} MB as loaded; VACUUM …`);
  const seconds = await vacuumStore(url);
  const after = await storeBytes(url);
  log(`  ${(after / 1e6).toFixed(1)} MB after VACUUM (${seconds.toFixed(1)} s)`);
  return { store_bytes: before, store_vacuumed_bytes: after, vacuum_seconds: round(seconds, 1), bytes_per_record: Math.round(after / o.records) };
}

/**
 * Runs the whole benchmark and returns the run's record (not yet written).
 *
 * @example const run = await runBench(parseArgs(['--records', '1000']));
 */
export async function runBench(o: BenchOptions): Promise<RunRecord> {
  const started = process.hrtime.bigint();
  const loadStart = os.loadavg()[0] ?? 0;
  const date = new Date().toISOString();
  // Read now: the tree may change while a long run goes on.
  const commit = commitOf();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-bench-run-'));
  // Every connection of the benchmark comes from this one address, standing for many clients: no per-client limit.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OAI_CONFIG: configFile(o, tmp),
    OAI_SEED_DEMO: 'false',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    OAI_CLIENT_MAX_IN_FLIGHT: process.env.OAI_CLIENT_MAX_IN_FLIGHT ?? '0',
    OAI_WRITTEN_FORMATS: o.writtenFormats,
    OAI_STORED_FORMATS: o.storedFormats.join(','),
  };
  try {
    const { store, figures: load } = await runLoadStep(o, env, tmp);
    try {
      const serve = await runMeasureStep(o, env, store.url, load.formats_loaded, tmp);
      const replica = o.replica ? await runReplicaStep(o, env, tmp) : NO_REPLICA;
      const harvest = await runHarvestStep(o, env, store.url, load, serve, tmp);
      const disk = await measureDisk(o, store.url);
      const database = databaseKind(store.url) === 'postgres' ? 'postgresql' : 'sqlite';
      const figures: BenchFigures = { records: o.records, database, processes: o.processes, ...load, ...serve, ...replica, ...harvest, ...disk };
      return {
        kind: 'bench run',
        date,
        ...commit,
        machine: machine(await databaseVersion(store.url), loadStart),
        options: recordedOptions(o),
        seconds: Math.round(Number(process.hrtime.bigint() - started) / 1e9),
        figures,
        targets: checkTargets(figures, o),
      };
    } finally {
      await store.drop();
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) {
  (async () => {
    const o = parseArgs(process.argv.slice(2));
    const database = process.env.DATABASE_URL && databaseKind(process.env.DATABASE_URL) === 'postgres' ? 'postgresql' : 'sqlite';
    if (o.dryRun) {
      process.stdout.write(`dry run: what npm run bench would do\n${describePlan(o, database)}\n  results file: …-${runLabel(o, database)}.json\n`);
      return;
    }
    log(describePlan(o, database));
    const run = await runBench(o);
    const file = writeRun(o.results, run, runLabel(o, run.figures.database));
    process.stdout.write(
      `\n${figuresTable(run.figures, run.machine, run, run.date)}\n\n${targetsTable(run.targets)}\n\nresults: ${file.startsWith(`${process.cwd()}${path.sep}`) ? path.relative(process.cwd(), file) : file}\n`,
    );
  })().catch((err: unknown) => {
    process.stderr.write(`bench: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
