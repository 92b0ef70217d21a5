/**
 * `npm run soak -- --minutes N`: mixed harvester
 * and GetRecord traffic against a running server for N minutes, then a
 * report: requests, errors by kind, p50/p99 latency per interval, and the
 * server's RSS per interval. "Ten minutes with zero errors and flat memory is
 * the bar."
 *
 *   npm run soak -- [--minutes N] [--url http://host:port/oai] [--records R]
 *                   [--harvesters H] [--getrecord G] [--intervals K] [--gzip]
 *                   [--hostile [--slow S] [--aggressive A]] [--out FILE]
 *
 * Without `--url` it makes its own repository: R generated records (default
 * 20,000) in a fresh SQLite file (or, when DATABASE_URL is `postgres://…`,
 * in that database, which must be empty), starts `oai-steward serve` on it as
 * a child process and stops it at the end; with `--url` it drives that server
 * and reports RSS only when `--pid` names its process.
 *
 * Traffic: H harvesters (default 4) each loop over full list harvests, one
 * request at a time as a harvester does, picking ListRecords or
 * ListIdentifiers, optionally a set and a `from`; they honour 503 with
 * Retry-After. G GetRecord clients (default 8) ask for random identifiers
 * learnt from a first ListIdentifiers harvest, plus one unknown identifier in
 * fifty (an idDoesNotExist answer is a correct answer, not an error). Every
 * answer is checked: HTTP 200, a complete OAI-PMH document, no unexpected
 * OAI error code, and every harvest ends with the count `completeListSize`
 * announced.
 *
 * With `--hostile` the run has two halves: the first with the well-behaved
 * clients alone, the second with bad clients added (bench/bad-clients.ts: S
 * slow clients dripping POST bodies, default 32, and one aggressive harvester
 * with A requests open at once that ignores Retry-After, default 32); the
 * report says whether the well-behaved clients' p99 latency in the second
 * half stayed within twice the first (`kept_latency`). The server's limits
 * are its configuration's (set OAI_CLIENT_MAX_IN_FLIGHT, OAI_CLIENT_RATE … in
 * the environment for the server the soak starts); they are reported.
 *
 * The last line printed is one JSON object with every figure; `--out FILE`
 * also writes it to FILE (bench/results/ keeps runs worth keeping).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { freePort } from '../harness/free-port';
import { SERVER_NODE_FLAGS } from '../server/node-flags';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { openProvider } from '../server/provider';
import { PROJECT_ROOT } from '../server/paths';
import { loadRecords } from './generate';
import type { BadClientFigures } from './bad-clients';
import { getRecordClient, harvest, harvester, sleep } from './soak-client';

interface Options {
  minutes: number;
  url: string | undefined;
  pid: number | undefined;
  records: number;
  harvesters: number;
  getrecord: number;
  intervals: number;
  gzip: boolean;
  hostile: boolean;
  slow: number;
  aggressive: number;
  out: string | undefined;
}

function parseArgs(argv: readonly string[]): Options {
  const o: Options = {
    minutes: 10,
    url: undefined,
    pid: undefined,
    records: 20_000,
    harvesters: 4,
    getrecord: 8,
    intervals: 10,
    gzip: false,
    hostile: false,
    slow: 32,
    aggressive: 32,
    out: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = (): string => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${a} needs a value`);
      return x;
    };
    if (a === '--minutes') o.minutes = Number(v());
    else if (a === '--url') o.url = v();
    else if (a === '--pid') o.pid = Number(v());
    else if (a === '--records') o.records = Number(v());
    else if (a === '--harvesters') o.harvesters = Number(v());
    else if (a === '--getrecord') o.getrecord = Number(v());
    else if (a === '--intervals') o.intervals = Number(v());
    else if (a === '--gzip') o.gzip = true;
    else if (a === '--hostile') o.hostile = true;
    else if (a === '--slow') o.slow = Number(v());
    else if (a === '--aggressive') o.aggressive = Number(v());
    else if (a === '--out') o.out = v();
    else throw new Error(`unknown option ${a}`);
  }
  if (!(o.minutes > 0)) throw new Error('--minutes must be positive');
  return o;
}

// ------------------------------------------------------------------ figures

/** Figures of one interval of the run. */
interface Interval {
  readonly start: number;
  requests: number;
  errors: Map<string, number>;
  latencies: number[];
  rssMb: number[];
}

export class Figures {
  readonly intervals: Interval[] = [];
  readonly errors = new Map<string, number>();
  readonly examples = new Map<string, string>();
  requests = 0;
  harvests = 0;
  retriesRefused = 0;
  constructor(
    private readonly t0: number,
    private readonly length: number,
    private readonly count: number,
  ) {}

  private current(): Interval {
    // Requests still finishing after the end count in the last interval.
    const k = Math.min(this.count - 1, Math.floor((Date.now() - this.t0) / this.length));
    while (this.intervals.length <= k) {
      this.intervals.push({ start: this.intervals.length * this.length, requests: 0, errors: new Map(), latencies: [], rssMb: [] });
    }
    return this.intervals[k] as Interval;
  }

  request(ms: number): void {
    this.requests++;
    const i = this.current();
    i.requests++;
    i.latencies.push(ms);
  }

  error(kind: string, example: string): void {
    this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
    if (!this.examples.has(kind)) this.examples.set(kind, example.slice(0, 300));
    const i = this.current();
    i.errors.set(kind, (i.errors.get(kind) ?? 0) + 1);
  }

  rss(mb: number): void {
    this.current().rssMb.push(mb);
  }
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

// ------------------------------------------------------------------ traffic

// ------------------------------------------------------------------ the server

function rssMb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The built CLI when it exists (npm run soak builds first), else the TypeScript source through tsx. */
function cliCommand(): string[] {
  const built = path.join(PROJECT_ROOT, 'dist', 'server', 'cli.js');
  return fs.existsSync(built) ? [built] : ['--require', 'tsx/cjs', path.join(PROJECT_ROOT, 'server', 'cli.ts')];
}

async function startOwnServer(o: Options): Promise<{ url: string; child: ChildProcess; cleanup: () => void }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-soak-'));
  const databaseUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : `sqlite:${path.join(tmp, 'soak.sqlite')}`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/oai`;
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    OAI_BASE_URL: url,
    OAI_SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    OAI_NAMESPACE: 'soak.example.org',
  };
  const provider = await openProvider(loadConfig(env));
  try {
    if ((await provider.store.earliestDatestamp()) === null) {
      process.stderr.write(`generating ${o.records} records …\n`);
      await loadRecords(provider.store, provider.formats, o.records);
    }
  } finally {
    await provider.close();
  }
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...cliCommand(), 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'], cwd: PROJECT_ROOT });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {
      // not yet listening
    }
    if (Date.now() > deadline) throw new Error('the server did not start within 60 s');
    await sleep(100);
  }
  return {
    url,
    child,
    cleanup: () => {
      child.kill('SIGTERM');
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

// ------------------------------------------------------------------ main

/** What one stretch of well-behaved traffic measured. */
interface Phase {
  readonly f: Figures;
  readonly seconds: number;
  readonly rows: { from_s: number; requests: number; errors: number; p50_ms: number; p99_ms: number; rss_mb: number | null }[];
  /** p99 latency over the whole stretch (ms). */
  readonly p99: number;
}

/** Runs the well-behaved clients for `minutes`, sampling the server's RSS. */
async function runPhase(o: Options, base: string, ids: readonly string[], pid: number | undefined, minutes: number): Promise<Phase> {
  const t0 = Date.now();
  const durationMs = minutes * 60_000;
  const f = new Figures(t0, durationMs / o.intervals, o.intervals);
  const stop = (): boolean => Date.now() - t0 >= durationMs;
  const sampler = setInterval(() => {
    const mb = pid !== undefined ? rssMb(pid) : undefined;
    if (mb !== undefined) f.rss(mb);
  }, 1000);
  const progress = setInterval(() => {
    process.stderr.write(
      `  ${((Date.now() - t0) / 60_000).toFixed(1)} min: ${f.requests} requests, ${[...f.errors.values()].reduce((a, b) => a + b, 0)} errors\n`,
    );
  }, 30_000);
  await Promise.all([
    ...Array.from({ length: o.harvesters }, (_, i) => harvester(f, base, o.gzip, stop, i)),
    ...Array.from({ length: o.getrecord }, (_, i) => getRecordClient(f, base, ids, o.gzip, stop, o.harvesters + i)),
  ]);
  clearInterval(sampler);
  clearInterval(progress);
  const rows = f.intervals.map((i) => {
    const sorted = [...i.latencies].sort((a, b) => a - b);
    const rss = i.rssMb;
    return {
      from_s: Math.round(i.start / 1000),
      requests: i.requests,
      errors: [...i.errors.values()].reduce((a, b) => a + b, 0),
      p50_ms: Math.round(percentile(sorted, 50) * 10) / 10,
      p99_ms: Math.round(percentile(sorted, 99) * 10) / 10,
      rss_mb: rss.length ? Math.round(Math.max(...rss)) : null,
    };
  });
  const all = f.intervals.flatMap((i) => i.latencies).sort((a, b) => a - b);
  return { f, seconds: (Date.now() - t0) / 1000, rows, p99: Math.round(percentile(all, 99) * 10) / 10 };
}

/** Prints a phase's table and summary; returns its figures as JSON. */
function report(o: Options, name: string, p: Phase): Record<string, unknown> {
  const out = process.stdout;
  out.write(
    `\n${name}\n${'from (s)'.padStart(9)} ${'requests'.padStart(9)} ${'errors'.padStart(7)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'RSS MB'.padStart(7)}\n`,
  );
  for (const r of p.rows) {
    out.write(
      `${String(r.from_s).padStart(9)} ${String(r.requests).padStart(9)} ${String(r.errors).padStart(7)} ${String(r.p50_ms).padStart(8)} ${String(r.p99_ms).padStart(8)} ${String(r.rss_mb ?? '-').padStart(7)}\n`,
    );
  }
  const f = p.f;
  const errorCount = [...f.errors.values()].reduce((a, b) => a + b, 0);
  out.write(
    `${f.requests} requests in ${p.seconds.toFixed(0)} s (${Math.round(f.requests / p.seconds)}/s), ${f.harvests} complete harvests, ${errorCount} errors, ${f.retriesRefused} answers 503 or 429 (waited out and retried), p99 ${p.p99} ms\n`,
  );
  for (const [kind, n] of f.errors) out.write(`  ${kind}: ${n} (e.g. ${f.examples.get(kind)})\n`);
  const rssSeries = p.rows.map((r) => r.rss_mb).filter((x): x is number => x !== null);
  return {
    minutes: p.seconds / 60,
    requests: f.requests,
    rps: Math.round(f.requests / p.seconds),
    harvests: f.harvests,
    errors: Object.fromEntries(f.errors),
    retried_503_429: f.retriesRefused,
    p99_ms: p.p99,
    intervals: p.rows,
    rss_first_mb: rssSeries[0] ?? null,
    rss_last_mb: rssSeries[rssSeries.length - 1] ?? null,
    rss_max_mb: rssSeries.length ? Math.max(...rssSeries) : null,
  };
}

/** The bad clients in a process of their own, so their work never delays the measuring one. */
function startBadClientProcess(base: string, o: Options): { stop(): Promise<BadClientFigures> } {
  const built = path.join(PROJECT_ROOT, 'dist', 'bench', 'bad-clients.js');
  const script = fs.existsSync(built) ? [built] : ['--require', 'tsx/cjs', path.join(PROJECT_ROOT, 'bench', 'bad-clients.ts')];
  const child = spawn(process.execPath, [...script, base, String(o.slow), String(o.aggressive)], { stdio: ['ignore', 'pipe', 'inherit'], cwd: PROJECT_ROOT });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  const done = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return {
    async stop() {
      child.kill('SIGTERM');
      await done;
      return JSON.parse(out.trim().split('\n').pop() ?? '{}') as BadClientFigures;
    },
  };
}

/** The server settings a hostile run depends on, as the environment gives them to the soak's own server. */
function limitsInForce(): Record<string, string> {
  const keys = ['OAI_MAX_IN_FLIGHT', 'OAI_BODY_TIMEOUT', 'OAI_CLIENT_MAX_IN_FLIGHT', 'OAI_CLIENT_RATE', 'OAI_CLIENT_BURST'];
  return Object.fromEntries(keys.map((k) => [k, process.env[k] ?? 'default']));
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const own = o.url === undefined ? await startOwnServer(o) : undefined;
  const base = o.url ?? (own as { url: string }).url;
  const pid = own?.child.pid ?? o.pid;
  try {
    process.stderr.write(
      `soak: ${o.minutes} min against ${base} (${o.harvesters} harvesters, ${o.getrecord} GetRecord clients${o.hostile ? `; the second half with ${o.slow} slow clients and an aggressive harvester of ${o.aggressive}` : ''})\n`,
    );
    const ids: string[] = [];
    const warm = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const f0 = new Figures(Date.now(), 60_000, 1);
    await harvest(f0, warm, base, 'verb=ListIdentifiers&metadataPrefix=oai_dc', o.gzip, () => false, ids);
    warm.destroy();
    if (ids.length === 0) throw new Error('the repository lists no identifiers');

    let result: Record<string, unknown>;
    let errorCount: number;
    if (!o.hostile) {
      const p = await runPhase(o, base, ids, pid, o.minutes);
      result = report(o, 'well-behaved clients', p);
      errorCount = [...p.f.errors.values()].reduce((a, b) => a + b, 0);
    } else {
      const calm = await runPhase(o, base, ids, pid, o.minutes / 2);
      const bad = startBadClientProcess(base, o);
      let stormy: Phase;
      let badFigures: BadClientFigures;
      try {
        stormy = await runPhase(o, base, ids, pid, o.minutes / 2);
      } finally {
        badFigures = await bad.stop();
      }
      const ratio = calm.p99 > 0 ? Math.round((stormy.p99 / calm.p99) * 100) / 100 : null;
      const kept = ratio !== null && ratio <= 2;
      result = {
        mode: 'hostile',
        server_limits: limitsInForce(),
        without_bad_clients: report(o, 'well-behaved clients alone', calm),
        with_bad_clients: report(o, `well-behaved clients with ${o.slow} slow clients and an aggressive harvester of ${o.aggressive}`, stormy),
        bad_clients: badFigures,
        p99_ratio: ratio,
        kept_latency: kept,
      };
      process.stdout.write(
        `\nwell-behaved p99: ${calm.p99} ms alone, ${stormy.p99} ms with bad clients (×${ratio}): ${kept ? 'kept within 2×' : 'NOT within 2×'}\n`,
      );
      errorCount = [calm, stormy].reduce((n, p) => n + [...p.f.errors.values()].reduce((a, b) => a + b, 0), 0) + (kept ? 0 : 1);
    }
    const line = JSON.stringify(result);
    process.stdout.write(`${line}\n`);
    if (o.out !== undefined) fs.writeFileSync(o.out, `${JSON.stringify(result, null, 2)}\n`);
    process.exitCode = errorCount === 0 ? 0 : 1;
  } finally {
    own?.cleanup();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`soak: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
