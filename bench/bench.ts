/**
 * `npm run bench`: loads N synthetic records into a fresh store
 * through the project's write path, starts the real server as a child process
 * (`oai-steward serve`, or K of them behind one port), and measures it over
 * HTTP with a harvester in another process. Beside each harvest it measures,
 * in the same run, the limits that figure lives between: the replay ceiling
 * (bench/replay.ts: the same harvester against a server that only replays
 * captured pages) and the floor (bench/floor.ts: the bare keyset scan and
 * page assembly in-process), and prints each figure as a ratio to both. It
 * also harvests once with metrics off, to show what metrics cost, and with
 * `--harvesters N` runs N harvests at once (against K processes and, when
 * K > 1, against one). Prints a table and, last, one JSON line with every
 * figure, so runs can be compared.
 *
 *   npm run bench -- [--records N] [--processes K] [--harvesters N] [--formats] [--duration S]
 *                    [--connections C] [--repeats R] [--batch B] [--gzip] [--keep] [--skip-getrecord] [--skip-cli-load] [--profile DIR]
 *
 * SQLite (a file in a temporary folder) by default; PostgreSQL when
 * DATABASE_URL is `postgres://…`: a fresh database is created beside the one
 * named (or, without the right to create one, the named database's tables are
 * dropped and recreated) and dropped afterwards unless `--keep`.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { freePort } from '../harness/free-port';
import { SERVER_NODE_FLAGS } from '../server/node-flags';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { createKnex, databaseKind, sqliteFilename } from '../server/db/connection';
import { down } from '../server/db/migrations/001_initial';
import { migrate } from '../server/db/migrations';
import { openProvider } from '../server/provider';
import { PROJECT_ROOT } from '../server/paths';
import { loadRecords } from './generate';
import { writeBenchNdjson } from './ndjson';
import { measureFloor } from './floor';
import { measureLoadFloor } from './load-floor';
import { PEER_PAGING, peerUnavailable, startPeer } from './peer';
import { processesRatioBound } from './scaling';
import type { ClientTask, ConcurrentResult, GetRecordResult, HarvestResult } from './harvest-client';
import { progress } from './progress';

/** The command-line options, with their defaults. */
export interface BenchOptions {
  records: number;
  processes: number;
  harvesters: number;
  formats: boolean;
  duration: number;
  connections: number;
  repeats: number;
  batch: number;
  gzip: boolean;
  keep: boolean;
  skipGetRecord: boolean;
  skipCliLoad: boolean;
  profile: string | undefined;
  /** The folder holding pyoai's `oaipmh` package, for the peer (bench/peer.ts). */
  pyoai: string | undefined;
}

const USAGE = `usage: npm run bench -- [options]
  --records N        records to generate (default 100000)
  --processes K      server processes behind one port (default 1)
  --harvesters N     also run N ListRecords harvests at once (default 1: none); with --processes K > 1,
                     against one process too, for the ratio
  --formats          offer and load every built-in metadata format (default: oai_dc only)
  --duration S       seconds of GetRecord load (default 10)
  --connections C    GetRecord connections (default 32)
  --repeats R        repeats per timed page (default 7)
  --batch B          records per writeItems batch while loading (default 2000)
  --gzip             harvest with Accept-Encoding: gzip (default identity)
  --keep             keep the generated database
  --skip-getrecord   skip the GetRecord load
  --skip-cli-load    skip the second load, of the same records as NDJSON through oai-steward load
  --profile DIR      run the server under node --cpu-prof, writing profiles to DIR
  --pyoai DIR        also harvest the same store served by pyoai (DIR holds its oaipmh package; or PYOAI_PATH)
DATABASE_URL=postgres://… runs on PostgreSQL (a fresh database), else SQLite in a temporary folder.
`;

/** Parses argv; throws with the usage text on anything unknown. */
export function parseArgs(argv: readonly string[]): BenchOptions {
  const o: BenchOptions = { records: 100_000, processes: 1, harvesters: 1, formats: false, duration: 10, connections: 32, repeats: 7, batch: 2000, gzip: false, keep: false, skipGetRecord: false, skipCliLoad: false, profile: undefined, pyoai: process.env.PYOAI_PATH || undefined };
  const num = (i: number, name: string, min: number): number => {
    const v = Number(argv[i + 1]);
    if (!Number.isInteger(v) || v < min) throw new Error(`${name} needs an integer ≥ ${min}\n\n${USAGE}`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    switch (a) {
      case '--records': o.records = num(i++, a, 1); break;
      case '--processes': o.processes = num(i++, a, 1); break;
      case '--harvesters': o.harvesters = num(i++, a, 1); break;
      case '--formats': o.formats = true; break;
      case '--duration': o.duration = num(i++, a, 1); break;
      case '--connections': o.connections = num(i++, a, 1); break;
      case '--repeats': o.repeats = num(i++, a, 1); break;
      case '--batch': o.batch = num(i++, a, 1); break;
      case '--gzip': o.gzip = true; break;
      case '--keep': o.keep = true; break;
      case '--skip-getrecord': o.skipGetRecord = true; break;
      case '--skip-cli-load': o.skipCliLoad = true; break;
      case '--profile': {
        const dir = argv[++i];
        if (!dir) throw new Error(`--profile needs a directory\n\n${USAGE}`);
        o.profile = path.resolve(dir);
        break;
      }
      case '--pyoai': {
        const dir = argv[++i];
        if (!dir) throw new Error(`--pyoai needs a directory\n\n${USAGE}`);
        o.pyoai = path.resolve(dir);
        break;
      }
      case '--help': case '-h': process.stdout.write(USAGE); process.exit(0);
      default: throw new Error(`unknown option ${JSON.stringify(a)}\n\n${USAGE}`);
    }
  }
  return o;
}

const log = (s: string): void => void process.stderr.write(`${s}\n`);

/** Running from dist/ (compiled) or from the TypeScript sources (tests, via tsx)? */
const FROM_SOURCE = __filename.endsWith('.ts');

/** The node arguments that run one of the project's entry points, compiled or from source. */
function entry(relative: string): string[] {
  return FROM_SOURCE
    ? ['--require', 'tsx/cjs', path.join(PROJECT_ROOT, `${relative}.ts`)]
    : [path.join(PROJECT_ROOT, 'dist', `${relative}.js`)];
}

// ------------------------------------------------------------------ the store

interface FreshStore {
  readonly url: string;
  readonly label: string;
  drop(): Promise<void>;
}

async function freshStore(keep: boolean): Promise<FreshStore> {
  const given = process.env.DATABASE_URL;
  if (given && databaseKind(given) === 'postgres') {
    const name = `oai_bench_${crypto.randomBytes(4).toString('hex')}`;
    const admin = createKnex(given, { pool: { min: 0, max: 1 } });
    try {
      await admin.raw('CREATE DATABASE ??', [name]);
      const u = new URL(given);
      u.pathname = `/${name}`;
      const url = u.toString();
      return {
        url,
        label: `postgresql (${name})`,
        async drop() {
          if (keep) return log(`kept database ${url}`);
          const a = createKnex(given, { pool: { min: 0, max: 1 } });
          try {
            await a.raw('DROP DATABASE IF EXISTS ??', [name]);
          } finally {
            await a.destroy();
          }
        },
      };
    } catch (err) {
      // No right to create a database: empty the named one instead.
      log(`cannot create a database (${(err as Error).message}); dropping and recreating the tables of ${given}`);
      await down(admin);
      await admin.schema.dropTableIfExists('knex_migrations');
      await admin.schema.dropTableIfExists('knex_migrations_lock');
      return { url: given, label: 'postgresql', async drop() {} };
    } finally {
      await admin.destroy();
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-bench-'));
  const file = path.join(dir, 'bench.sqlite');
  return {
    url: `sqlite:${file}`,
    label: 'sqlite',
    async drop() {
      if (keep) return log(`kept database ${file}`);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- the CLI load

/**
 * Loads the same generated records a second time, as an NDJSON export
 * (bench/ndjson.ts) through `oai-steward load` in its own process, into a
 * fresh store with the same configuration: the rate an operator sees,
 * process start, reading and parsing included. Timed from spawn to exit.
 */
async function measureCliLoad(env: NodeJS.ProcessEnv, records: number, dir: string, keep: boolean): Promise<{ seconds: number }> {
  const file = path.join(dir, 'records.ndjson');
  const setsFile = path.join(dir, 'records.sets.json');
  await writeBenchNdjson(file, setsFile, records);
  const store = await freshStore(keep);
  try {
    settleDisk();
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, ...entry('server/cli'), 'load', '--json', '--sets', setsFile, file], {
      env: { ...env, DATABASE_URL: store.url },
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: PROJECT_ROOT,
      maxBuffer: 1 << 20,
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const summary = JSON.parse(String(r.stdout).trim().split('\n').pop() ?? '{}') as { records?: number; refused?: number; committed?: boolean };
    if (r.status !== 0 || summary.committed !== true || summary.records !== records) {
      throw new Error(`oai-steward load of the benchmark's NDJSON failed (exit ${String(r.status)}): ${String(r.stdout)}`);
    }
    return { seconds };
  } finally {
    fs.rmSync(file, { force: true });
    await store.drop();
  }
}

/**
 * Measures the load floor (bench/load-floor.ts) of the store at `sourceUrl`
 * into a fresh, migrated store of the same kind, dropped afterwards; null
 * when no second store can be made.
 */
async function measureLoadFloorInto(sourceUrl: string, keep: boolean): Promise<{ items: number; seconds: number } | null> {
  const target = await freshStore(keep);
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

/**
 * Writes out the dirty pages of the page cache before a timed load (and
 * before the harvests), so a measurement does not pay for the writeback of
 * the load before it (or of the NDJSON file just written): measured on 100,000 records, the load floor ran at
 * 24,839 records/s right after a load and at 35,136 after `sync`.
 */
function settleDisk(): void {
  spawnSync('sync', { stdio: 'ignore' });
}

// ----------------------------------------------------------------- the server

/** A server the benchmark started: the provider's, or the replay. */
interface BenchServer {
  readonly baseUrl: string;
  readonly pid: number;
  stop(): Promise<void>;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000).unref())]);
}

/** Starts `oai-steward serve` as `npm start` runs it (or K of them under bench/cluster.ts) and waits until it answers. */
async function startProvider(env: NodeJS.ProcessEnv, processes: number, profile: string | undefined): Promise<BenchServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}/oai`;
  const serverEnv = { ...env, PORT: String(port), OAI_BASE_URL: baseUrl, WORKERS: String(processes) };
  const prof = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const flags = [...SERVER_NODE_FLAGS, ...prof];
  const args = processes > 1 ? [...flags, ...entry('bench/cluster')] : [...flags, ...entry('server/cli'), 'serve'];
  const child = spawn(process.execPath, args, { env: serverEnv, stdio: ['ignore', 'inherit', 'inherit'], cwd: PROJECT_ROOT });
  try {
    await waitHealthy(`http://127.0.0.1:${port}/healthz`, child, 120);
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return { baseUrl, pid: child.pid as number, stop: () => stopChild(child) };
}

/** Starts bench/replay.ts on the pages captured in `dir`. */
async function startReplay(dir: string): Promise<BenchServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...entry('bench/replay'), dir, String(port)], { stdio: ['ignore', 'pipe', 'inherit'], cwd: PROJECT_ROOT });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the replay server exited with ${code}`)));
  });
  return { baseUrl: `http://127.0.0.1:${port}/oai`, pid: child.pid as number, stop: () => stopChild(child) };
}


async function waitHealthy(url: string, child: ChildProcess, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it was ready`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not answer ${url} within ${seconds} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The server process and, for a cluster, its workers (children of the primary). */
function serverPids(root: number): number[] {
  const pids = [root];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      // Field 4 (ppid) comes after the parenthesized command name.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === root) pids.push(Number(d));
    } catch {
      // the process went away
    }
  }
  return pids;
}

/** A field of /proc/<pid>/status in MB (VmRSS, VmHWM), or 0 when unreadable (not Linux, process gone). */
function procMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples the server processes' RSS while a phase runs; VmHWM (the kernel's peak) wins where available. */
function rssSampler(root: number): { stop(): { peakMb: number; totalMb: number; pids: number } } {
  const peak = new Map<number, number>();
  // The processes are found once (the cluster has forked its workers by the time the server answers):
  // scanning all of /proc four times a second took CPU from the server being measured.
  const pids = serverPids(root);
  const sample = (field: 'VmRSS' | 'VmHWM'): void => {
    for (const pid of pids) peak.set(pid, Math.max(peak.get(pid) ?? 0, procMb(pid, field)));
  };
  sample('VmRSS');
  const timer = setInterval(() => sample('VmRSS'), 250);
  return {
    stop() {
      clearInterval(timer);
      sample('VmHWM');
      const values = [...peak.values()];
      return { peakMb: Math.max(0, ...values), totalMb: values.reduce((a, b) => a + b, 0), pids: values.length };
    },
  };
}

/** Cores busy on average over a phase. */
interface CoresUsed {
  readonly client: number;
  readonly servers: number;
  /** Everything else on the machine (other programs, the kernel's own threads). */
  readonly other: number;
}

function coresText(c: CoresUsed | null): string {
  return c === null ? '' : `cores busy: client ${c.client}, server ${c.servers}, rest of machine ${c.other} (of ${os.cpus().length})`;
}

/** CPU seconds the whole machine has been busy so far (every state of /proc/stat's `cpu` line but idle and iowait); 0 where unreadable. */
function machineBusySeconds(): number {
  try {
    const f = (fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
    return (total - (f[3] ?? 0) - (f[4] ?? 0)) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system) the processes have used so far, from /proc/<pid>/stat at Linux's USER_HZ of 100; 0 where unreadable. */
function cpuSeconds(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields 14 and 15 (utime, stime), counted after the parenthesized command name (field 2).
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // not Linux, or the process went away
    }
  }
  return ticks / 100;
}

// ----------------------------------------------------------------- the client

async function runClient<T>(task: ClientTask, tmp: string): Promise<T> {
  const file = path.join(tmp, `task-${task.task}.json`);
  fs.writeFileSync(file, JSON.stringify(task));
  const child = spawn(process.execPath, [...entry('bench/harvest-client'), file], { stdio: ['ignore', 'pipe', 'inherit'], cwd: PROJECT_ROOT });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`the harvest client failed (exit ${code})`);
  const last = out.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as T;
}

// -------------------------------------------------------------------- figures

/** The ratio of a figure to a limit, to two places (null when either is missing). */
function ratio(x: number | null, limit: number | null): number | null {
  return x === null || limit === null || limit === 0 ? null : Math.round((x / limit) * 100) / 100;
}

/** Every figure of one run: the JSON line. */
export interface BenchFigures {
  records: number;
  database: string;
  processes: number;
  /** Formats the repository offers (oai_dc, or every built-in one with `--formats`) and the formats the load wrote. */
  formats_offered: string[];
  formats_loaded: string[];
  load_seconds: number;
  load_rps: number;
  /** PostgreSQL: VACUUM ANALYZE after the load (not in load_rps). */
  load_analyze_seconds: number;
  /** The same records as NDJSON through `oai-steward load` (spawn to exit); null with --skip-cli-load. */
  load_cli_seconds: number | null;
  load_cli_rps: number | null;
  /** CLI load time / direct load time (target ≤ 1.5). */
  load_cli_of_direct: number | null;
  /** The load floor (bench/load-floor.ts): the same rows copied into a fresh store with the driver alone, inserts and commit timed. */
  floor_load_rps: number | null;
  load_of_floor: number | null;
  load_cli_of_floor: number | null;
  oai_dc_avg_bytes: number;
  listrecords_items: number;
  listrecords_pages: number;
  listrecords_seconds: number;
  listrecords_rps: number;
  listrecords_bytes_per_s: number;
  listidentifiers_seconds: number;
  listidentifiers_rps: number;
  listidentifiers_bytes_per_s: number;
  /** The replay ceiling (identity coding): the same harvester against bench/replay.ts. */
  ceiling_listrecords_rps: number;
  ceiling_listidentifiers_rps: number;
  /** The floor: bare keyset scan and page assembly in-process (bench/floor.ts). */
  floor_listrecords_rps: number;
  floor_listidentifiers_rps: number;
  listrecords_of_ceiling: number | null;
  listrecords_of_floor: number | null;
  listidentifiers_of_ceiling: number | null;
  listidentifiers_of_floor: number | null;
  /** The pyoai peer (bench/peer.ts) over the same store, and oai-steward's harvests as ratios to it; null with the note saying why when not measured. */
  peer_listrecords_rps: number | null;
  peer_listidentifiers_rps: number | null;
  listrecords_of_peer: number | null;
  listidentifiers_of_peer: number | null;
  /** The replay ceiling as a ratio to the peer: the most any server could show against it with this client. */
  ceiling_listrecords_of_peer: number | null;
  ceiling_listidentifiers_of_peer: number | null;
  /** How the peer paged: keyset (remembering where pages ended) or offset. */
  peer_paging: string | null;
  peer_note: string | null;
  /** The list harvests with OAI_METRICS=true and =false (best of two each, alternately), and the with/without ratio. */
  metrics_listrecords_rps: number;
  metrics_listidentifiers_rps: number;
  nometrics_listrecords_rps: number;
  nometrics_listidentifiers_rps: number;
  metrics_listrecords_ratio: number | null;
  /** The list harvests with the next-page prefetch off (metrics on), best of 2, and with/without ratios against the metrics-on runs. */
  noprefetch_listrecords_rps: number;
  noprefetch_listidentifiers_rps: number;
  prefetch_listrecords_ratio: number | null;
  prefetch_listidentifiers_ratio: number | null;
  noprefetch_cpu_seconds: number;
  metrics_listidentifiers_ratio: number | null;
  /** Server CPU seconds (user + system, all its processes) of both list harvests, least of two, with and without metrics (0 off Linux). */
  metrics_cpu_seconds: number;
  nometrics_cpu_seconds: number;
  metrics_cpu_ratio: number | null;
  /** `--harvesters N`: N ListRecords harvests at once, aggregate records/s, against K processes and (K > 1) one. */
  harvesters: number;
  concurrent_rps: number | null;
  concurrent_1process_rps: number | null;
  concurrent_processes_ratio: number | null;
  /** The most K processes can give over one on this machine, from the one-process run's core use (bench/scaling.ts). */
  concurrent_processes_bound: number | null;
  /** Cores busy on average during the N harvests at once: the client, the server process(es), the rest of the machine. */
  concurrent_cores: CoresUsed | null;
  concurrent_1process_cores: CoresUsed | null;
  page_ms_first: number;
  page_ms_middle: number;
  page_ms_last: number;
  page_ratio: number;
  served_by: number;
  getrecord_rps: number | null;
  getrecord_p50_ms: number | null;
  getrecord_p99_ms: number | null;
  getrecord_errors: number | null;
  server_peak_rss_mb: number;
  server_total_rss_mb: number;
  encoding: string;
  node: string;
  commit: string | null;
  dirty: boolean | null;
  cpus: number;
  date: string;
}

function git(args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

const round = (x: number, digits = 1): number => Math.round(x * 10 ** digits) / 10 ** digits;

function table(f: BenchFigures): string {
  const n = (x: number | null): string => (x === null ? '–' : x.toLocaleString('en'));
  const limits = (c: number | null, fl: number | null): string => `${n(c)} of ceiling, ${n(fl)} of floor`;
  const rows: [string, string, string][] = [
    ['load', `${f.load_rps.toLocaleString('en')} records/s`, `${f.records.toLocaleString('en')} records in ${f.load_seconds} s, oai_dc ≈ ${f.oai_dc_avg_bytes} B; formats ${f.formats_loaded.join(', ')} (the repository offers ${f.formats_offered.join(', ')}${f.formats_offered.length === 1 ? ' only; --formats offers every built-in one' : ''})`],
    ['load (CLI)', f.load_cli_rps === null ? 'skipped' : `${f.load_cli_rps.toLocaleString('en')} records/s`, f.load_cli_rps === null ? '' : `the same records as NDJSON through \`oai-steward load\` in ${n(f.load_cli_seconds)} s; time ${n(f.load_cli_of_direct)}× the direct load`],
    ['  load floor', f.floor_load_rps === null ? 'not measured' : `${f.floor_load_rps.toLocaleString('en')} records/s`, `the same rows inserted with the driver alone, one transaction; load ${n(f.load_of_floor)} of it, CLI ${n(f.load_cli_of_floor)}`],
    ['ListRecords harvest', `${f.listrecords_rps.toLocaleString('en')} records/s`, `${limits(f.listrecords_of_ceiling, f.listrecords_of_floor)}; ${f.listrecords_pages} pages, ${(f.listrecords_bytes_per_s / 1e6).toFixed(1)} MB/s (${f.encoding})`],
    ['  replay ceiling', `${f.ceiling_listrecords_rps.toLocaleString('en')} records/s`, 'same harvester, a node:http server replaying captured pages (identity)'],
    ['  floor', `${f.floor_listrecords_rps.toLocaleString('en')} records/s`, 'bare keyset scan + page assembly in-process, no HTTP'],
    ['  without metrics', `${f.nometrics_listrecords_rps.toLocaleString('en')} records/s`, `with/without ${n(f.metrics_listrecords_ratio)} (${f.metrics_listrecords_rps.toLocaleString('en')} with; best of 2 each, fresh servers)`],
    ['  without prefetch', `${f.noprefetch_listrecords_rps.toLocaleString('en')} records/s`, `with/without ${n(f.prefetch_listrecords_ratio)} (metrics on; best of 2 each, fresh servers)`],
    ['  pyoai peer', f.peer_listrecords_rps === null ? 'n/a' : `${f.peer_listrecords_rps.toLocaleString('en')} records/s`, f.peer_note ?? `oai-steward / pyoai: ${n(f.listrecords_of_peer)} (target ≥ 4; replay ceiling / pyoai ${n(f.ceiling_listrecords_of_peer)}); ${f.peer_paging} paging`],
    ['ListIdentifiers harvest', `${f.listidentifiers_rps.toLocaleString('en')} ids/s`, `${limits(f.listidentifiers_of_ceiling, f.listidentifiers_of_floor)}; ${(f.listidentifiers_bytes_per_s / 1e6).toFixed(1)} MB/s`],
    ['  replay ceiling', `${f.ceiling_listidentifiers_rps.toLocaleString('en')} ids/s`, ''],
    ['  floor', `${f.floor_listidentifiers_rps.toLocaleString('en')} ids/s`, ''],
    ['  without metrics', `${f.nometrics_listidentifiers_rps.toLocaleString('en')} ids/s`, `with/without ${n(f.metrics_listidentifiers_ratio)} (${f.metrics_listidentifiers_rps.toLocaleString('en')} with)`],
    ['  without prefetch', `${f.noprefetch_listidentifiers_rps.toLocaleString('en')} ids/s`, `with/without ${n(f.prefetch_listidentifiers_ratio)}`],
    ['  pyoai peer', f.peer_listidentifiers_rps === null ? 'n/a' : `${f.peer_listidentifiers_rps.toLocaleString('en')} ids/s`, f.peer_note ?? `oai-steward / pyoai: ${n(f.listidentifiers_of_peer)} (target ≥ 6; replay ceiling / pyoai ${n(f.ceiling_listidentifiers_of_peer)})`],
    ['prefetch cost, server CPU', `${f.metrics_cpu_seconds} / ${f.noprefetch_cpu_seconds} s`, `with/without ${n(ratio(f.metrics_cpu_seconds, f.noprefetch_cpu_seconds))} (both list harvests, least of 2 each)`],
    ['metrics cost, server CPU', `${f.metrics_cpu_seconds} / ${f.nometrics_cpu_seconds} s`, `with/without ${n(f.metrics_cpu_ratio)} (both list harvests, least of 2 each)`],
    ...(f.concurrent_rps === null
      ? []
      : ([
          [`${f.harvesters} harvesters at once`, `${f.concurrent_rps.toLocaleString('en')} records/s`, `aggregate of ${f.harvesters} full ListRecords harvests at once, ${f.processes} process(es); ${coresText(f.concurrent_cores)}`],
          ...(f.concurrent_1process_rps === null
            ? []
            : [[`  on 1 process`, `${f.concurrent_1process_rps.toLocaleString('en')} records/s`, `${f.processes} processes / 1: ${n(f.concurrent_processes_ratio)} (at most ${n(f.concurrent_processes_bound)} on this machine); ${coresText(f.concurrent_1process_cores)}`]]),
        ] as [string, string, string][])),
    ['page time first/middle/last', `${f.page_ms_first} / ${f.page_ms_middle} / ${f.page_ms_last} ms`, `last/first ${f.page_ratio}`],
    ['GetRecord', f.getrecord_rps === null ? 'skipped' : `${f.getrecord_rps.toLocaleString('en')} req/s`, f.getrecord_rps === null ? '' : `p50 ${f.getrecord_p50_ms} ms, p99 ${f.getrecord_p99_ms} ms, errors ${f.getrecord_errors}`],
    ['server peak RSS', `${f.server_peak_rss_mb} MB`, f.processes > 1 ? `per process; all ${f.server_total_rss_mb} MB; pages served by ${f.served_by} processes` : ''],
  ];
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  const head = `oai-steward bench: ${f.records.toLocaleString('en')} records, ${f.database}, ${f.processes} process(es), node ${f.node}, ${f.cpus} CPUs, ${f.commit ?? 'no commit'}${f.dirty ? ' (dirty)' : ''}, ${f.date}`;
  return [head, ...rows.map(([a, b, c]) => `  ${a.padEnd(w0)}  ${b.padStart(w1)}  ${c}`)].join('\n');
}

// ----------------------------------------------------------------------- main

/** Runs the whole benchmark and returns its figures. */
export async function runBench(o: BenchOptions): Promise<BenchFigures> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-bench-run-'));
  const store = await freshStore(o.keep);
  let server: BenchServer | undefined;
  try {
    // 1. Load, through the same provider wiring (id policy, POI in oai_dc) the server uses.
    // Without --formats the repository offers oai_dc only (a configuration file that lists it);
    // with it, every built-in format (the default configuration), each derived at load.
    const config = path.join(tmp, 'oai-steward.yaml');
    fs.writeFileSync(config, o.formats ? '' : 'formats:\n  - prefix: oai_dc\n');
    const env = { ...process.env, OAI_CONFIG: config, DATABASE_URL: store.url, OAI_SEED_DEMO: 'false', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
    log(`loading ${o.records} records into ${store.label} …`);
    const provider = await openProvider(loadConfig(env));
    let load;
    let analyzeSeconds = 0;
    // --formats: every built-in format is offered; the write path writes each one a record has what it needs for.
    const formatsOffered = provider.formats.all().map((f) => f.prefix);
    if (o.formats) log(`--formats: every format the repository offers: ${formatsOffered.join(', ')}`);
    let formatsLoaded: string[];
    try {
      let shown = 0;
      const loaded = progress();
      settleDisk();
      load = await loadRecords(provider.store, provider.formats, o.records, {
        batch: o.batch,
        onProgress: (done) => {
          if (done - shown >= 50_000 || done === o.records) {
            shown = done;
            if (done === o.records) loaded.done(`  loaded ${done}`);
            else loaded.update(`  loaded ${done}`);
          }
        },
      });
      formatsLoaded = (await provider.knex('records').distinct('prefix').orderBy('prefix').pluck('prefix')) as string[];
      if (databaseKind(store.url) === 'postgres') {
        // Right after a bulk load PostgreSQL has no statistics: it then plans the
        // sets lookup of every page as a sequential scan of item_sets (45 ms a page
        // at 100,000 records) and counts without index-only scans. Autovacuum would
        // fix both within minutes; the benchmark measures that settled state.
        const t = process.hrtime.bigint();
        await provider.knex.raw('VACUUM ANALYZE');
        analyzeSeconds = Number(process.hrtime.bigint() - t) / 1e9;
        log(`  VACUUM ANALYZE: ${analyzeSeconds.toFixed(1)} s`);
      }
    } finally {
      await provider.close();
    }

    // 1b. The same records as an NDJSON export through the CLI, as an operator loads them.
    let cli: { seconds: number } | null = null;
    if (!o.skipCliLoad) {
      log('load (CLI): the same records as NDJSON through `oai-steward load` …');
      cli = await measureCliLoad(env, o.records, tmp, o.keep);
      log(`  ${Math.round(o.records / cli.seconds)} records/s`);
    }

    // 1c. The load's floor: the rows just written, inserted again with the driver alone.
    log('load floor: the same rows inserted with the driver alone …');
    const loadFloor = await measureLoadFloorInto(store.url, o.keep);
    log(loadFloor ? `  ${Math.round(loadFloor.items / loadFloor.seconds)} records/s` : '  not measured: no second database could be created');

    // 2. The floor, before any server runs, so it has the machine to itself (and the
    // writes of the loads behind it: the load floor alone writes the whole store again).
    settleDisk();
    log('floor: bare keyset scan and page assembly in-process …');
    const floor = await measureFloor(store.url, databaseKind(store.url) === 'sqlite' ? sqliteFilename(store.url) : undefined);

    const rps = (x: { items: number; seconds: number }): number => Math.round(x.items / x.seconds);

    // 3. The server, as `npm start` runs it (or K of them under bench/cluster.ts): harvests and page times, sampling its memory meanwhile.
    server = await startProvider(env, o.processes, o.profile);
    log(`server ready on ${server.baseUrl} (pid ${server.pid}, ${o.processes} process(es))`);
    const captured = fs.mkdtempSync(path.join(tmp, 'captured-'));
    const rss = rssSampler(server.pid);
    const h = await runClient<HarvestResult>({ task: 'harvest', baseUrl: server.baseUrl, repeats: o.repeats, gzip: o.gzip, spreadPages: 20, sample: 1000, capture: captured }, tmp);
    const mem = rss.stop();

    // 4. GetRecord under concurrency, then N harvests at once.
    let g: GetRecordResult | null = null;
    if (!o.skipGetRecord) {
      log(`GetRecord: ${o.connections} connections for ${o.duration} s …`);
      g = await runClient<GetRecordResult>({ task: 'getrecord', baseUrl: server.baseUrl, identifiers: h.identifiers, connections: o.connections, duration: o.duration }, tmp);
    }
    // Where the cores go while N harvests run at once: the client, the server process(es), and the rest of the machine.
    const cores: Record<string, CoresUsed> = {};
    const concurrent = async (baseUrl: string, processes: number, root: number): Promise<number> => {
      log(`${o.harvesters} ListRecords harvests at once against ${processes} process(es) …`);
      const pids = serverPids(root);
      const [serverBefore, machineBefore] = [cpuSeconds(pids), machineBusySeconds()];
      const c = await runClient<ConcurrentResult>({ task: 'concurrent', baseUrl, harvesters: o.harvesters, gzip: o.gzip }, tmp);
      const [servers, machine] = [cpuSeconds(pids) - serverBefore, machineBusySeconds() - machineBefore];
      if (c.items !== o.harvesters * h.listRecords.items) throw new Error(`${o.harvesters} harvests returned ${c.items} records, not ${o.harvesters} × ${h.listRecords.items}`);
      const per = (x: number): number => round(x / c.seconds, 2);
      cores[processes] = { client: per(c.clientCpuSeconds), servers: per(servers), other: per(Math.max(0, machine - servers - c.clientCpuSeconds)) };
      return Math.round(c.items / c.seconds);
    };
    const concurrentRps = o.harvesters > 1 ? await concurrent(server.baseUrl, o.processes, server.pid) : null;
    await server.stop();
    let concurrentOne: number | null = null;
    if (o.harvesters > 1 && o.processes > 1) {
      server = await startProvider(env, 1, undefined);
      try {
        concurrentOne = await concurrent(server.baseUrl, 1, server.pid);
      } finally {
        await server.stop();
      }
    }

    // 5. What metrics cost: the list harvests on a fresh server with metrics on
    // and off, alternately, twice each, the better of each pair counted (the
    // main harvest above is not comparable: it runs first, and under the RSS sampler).
    // Server CPU time is counted as well: on a shared machine it varies far less than the rates do.
    // The same for the next-page prefetch (server/http/prefetch.ts): on (with metrics on) against off.
    const listsOnly = async (metrics: boolean, prefetch = true): Promise<HarvestResult & { cpuSeconds: number }> => {
      server = await startProvider({ ...env, OAI_METRICS: String(metrics), OAI_PREFETCH: String(prefetch) }, o.processes, undefined);
      log(`list harvests with OAI_METRICS=${metrics} OAI_PREFETCH=${prefetch} …`);
      try {
        const pids = serverPids(server.pid);
        const before = cpuSeconds(pids);
        const r = await runClient<HarvestResult>({ task: 'harvest', baseUrl: server.baseUrl, repeats: 0, gzip: o.gzip, spreadPages: 0, sample: 0, listsOnly: true }, tmp);
        return { ...r, cpuSeconds: cpuSeconds(pids) - before };
      } finally {
        await server.stop();
      }
    };
    const on: (HarvestResult & { cpuSeconds: number })[] = [];
    const off: (HarvestResult & { cpuSeconds: number })[] = [];
    const noPrefetch: (HarvestResult & { cpuSeconds: number })[] = [];
    for (let round = 0; round < 2; round++) {
      on.push(await listsOnly(true));
      off.push(await listsOnly(false));
      noPrefetch.push(await listsOnly(true, false));
    }
    const best = (runs: HarvestResult[], list: 'listRecords' | 'listIdentifiers'): number => Math.max(...runs.map((r) => rps(r[list])));
    const leastCpu = (runs: { cpuSeconds: number }[]): number => round(Math.min(...runs.map((r) => r.cpuSeconds)), 2);

    // 6. The replay ceiling: the same harvester against a server that only replays the captured pages.
    server = await startReplay(captured);
    log('replay ceiling: the same harvests against captured pages …');
    let ceiling: HarvestResult;
    try {
      ceiling = await runClient<HarvestResult>({ task: 'harvest', baseUrl: server.baseUrl, repeats: 0, gzip: false, spreadPages: 0, sample: 0, listsOnly: true }, tmp);
    } finally {
      await server.stop();
    }
    for (const [name, a, b] of [['ListRecords', ceiling.listRecords, h.listRecords], ['ListIdentifiers', ceiling.listIdentifiers, h.listIdentifiers]] as const) {
      if (a.items !== b.items || a.pages !== b.pages) throw new Error(`the replay of ${name} served ${a.items} items in ${a.pages} pages, not ${b.items} in ${b.pages}`);
    }

    // 7. The pyoai peer: the same store served by pyoai, the same harvester, every item once.
    const database = databaseKind(store.url) === 'postgres' ? 'postgresql' : 'sqlite';
    const peerNote = peerUnavailable(o.pyoai, database);
    let peer: HarvestResult | null = null;
    if (peerNote === null) {
      const p = await startPeer(o.pyoai as string, sqliteFilename(store.url));
      log('pyoai peer: the same harvests against pyoai over the same store …');
      try {
        peer = await runClient<HarvestResult>({ task: 'harvest', baseUrl: p.baseUrl, repeats: 0, gzip: false, spreadPages: 0, sample: 0, listsOnly: true, expectItems: h.listRecords.items }, tmp);
      } finally {
        await p.stop();
      }
    }

    const lr = h.listRecords;
    const li = h.listIdentifiers;
    return {
      records: o.records,
      database,
      processes: o.processes,
      formats_offered: formatsOffered,
      formats_loaded: formatsLoaded,
      load_seconds: round(load.seconds, 2),
      load_rps: Math.round(load.records / load.seconds),
      load_analyze_seconds: round(analyzeSeconds, 2),
      load_cli_seconds: cli === null ? null : round(cli.seconds, 2),
      load_cli_rps: cli === null ? null : Math.round(o.records / cli.seconds),
      load_cli_of_direct: cli === null ? null : ratio(cli.seconds, load.seconds),
      floor_load_rps: loadFloor && rps(loadFloor),
      load_of_floor: loadFloor && ratio(Math.round(load.records / load.seconds), rps(loadFloor)),
      load_cli_of_floor: cli === null || loadFloor === null ? null : ratio(Math.round(o.records / cli.seconds), rps(loadFloor)),
      oai_dc_avg_bytes: Math.round(load.oaiDcBytes / Math.max(1, load.live)),
      listrecords_items: lr.items,
      listrecords_pages: lr.pages,
      listrecords_seconds: round(lr.seconds, 2),
      listrecords_rps: Math.round(lr.items / lr.seconds),
      listrecords_bytes_per_s: Math.round(lr.bytes / lr.seconds),
      listidentifiers_seconds: round(li.seconds, 2),
      listidentifiers_rps: Math.round(li.items / li.seconds),
      listidentifiers_bytes_per_s: Math.round(li.bytes / li.seconds),
      ceiling_listrecords_rps: rps(ceiling.listRecords),
      ceiling_listidentifiers_rps: rps(ceiling.listIdentifiers),
      floor_listrecords_rps: rps(floor.listRecords),
      floor_listidentifiers_rps: rps(floor.listIdentifiers),
      listrecords_of_ceiling: ratio(rps(lr), rps(ceiling.listRecords)),
      listrecords_of_floor: ratio(rps(lr), rps(floor.listRecords)),
      listidentifiers_of_ceiling: ratio(rps(li), rps(ceiling.listIdentifiers)),
      listidentifiers_of_floor: ratio(rps(li), rps(floor.listIdentifiers)),
      peer_listrecords_rps: peer && rps(peer.listRecords),
      peer_listidentifiers_rps: peer && rps(peer.listIdentifiers),
      listrecords_of_peer: peer && ratio(rps(lr), rps(peer.listRecords)),
      listidentifiers_of_peer: peer && ratio(rps(li), rps(peer.listIdentifiers)),
      ceiling_listrecords_of_peer: peer && ratio(rps(ceiling.listRecords), rps(peer.listRecords)),
      ceiling_listidentifiers_of_peer: peer && ratio(rps(ceiling.listIdentifiers), rps(peer.listIdentifiers)),
      peer_paging: peer && PEER_PAGING,
      peer_note: peerNote,
      metrics_listrecords_rps: best(on, 'listRecords'),
      metrics_listidentifiers_rps: best(on, 'listIdentifiers'),
      nometrics_listrecords_rps: best(off, 'listRecords'),
      nometrics_listidentifiers_rps: best(off, 'listIdentifiers'),
      metrics_listrecords_ratio: ratio(best(on, 'listRecords'), best(off, 'listRecords')),
      noprefetch_listrecords_rps: best(noPrefetch, 'listRecords'),
      noprefetch_listidentifiers_rps: best(noPrefetch, 'listIdentifiers'),
      prefetch_listrecords_ratio: ratio(best(on, 'listRecords'), best(noPrefetch, 'listRecords')),
      prefetch_listidentifiers_ratio: ratio(best(on, 'listIdentifiers'), best(noPrefetch, 'listIdentifiers')),
      noprefetch_cpu_seconds: leastCpu(noPrefetch),
      metrics_listidentifiers_ratio: ratio(best(on, 'listIdentifiers'), best(off, 'listIdentifiers')),
      metrics_cpu_seconds: leastCpu(on),
      nometrics_cpu_seconds: leastCpu(off),
      metrics_cpu_ratio: ratio(leastCpu(on), leastCpu(off)),
      harvesters: o.harvesters,
      concurrent_rps: concurrentRps,
      concurrent_1process_rps: concurrentOne,
      concurrent_processes_ratio: ratio(concurrentRps, concurrentOne),
      concurrent_processes_bound: cores[1] && o.processes > 1 ? processesRatioBound(os.cpus().length, cores[1], o.processes) : null,
      concurrent_cores: cores[o.processes] ?? null,
      concurrent_1process_cores: o.processes > 1 ? (cores[1] ?? null) : null,
      page_ms_first: round(h.pageMs.first, 2),
      page_ms_middle: round(h.pageMs.middle, 2),
      page_ms_last: round(h.pageMs.last, 2),
      page_ratio: round(h.pageMs.last / h.pageMs.first, 2),
      served_by: h.servedBy.length,
      getrecord_rps: g && Math.round(g.rps),
      getrecord_p50_ms: g && g.p50,
      getrecord_p99_ms: g && g.p99,
      getrecord_errors: g && g.errors + g.non2xx,
      server_peak_rss_mb: round(mem.peakMb),
      server_total_rss_mb: round(mem.totalMb),
      encoding: o.gzip ? 'gzip' : 'identity',
      node: process.version,
      commit: git(['rev-parse', '--short=12', 'HEAD']),
      dirty: ((s) => (s === null ? null : s !== ''))(git(['status', '--porcelain', '--untracked-files=no'])),
      cpus: os.cpus().length,
      date: new Date().toISOString(),
    };
  } finally {
    await server?.stop();
    await store.drop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) {
  (async () => {
    const figures = await runBench(parseArgs(process.argv.slice(2)));
    process.stdout.write(`\n${table(figures)}\n\n${JSON.stringify(figures)}\n`);
  })().catch((err: unknown) => {
    process.stderr.write(`bench: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
