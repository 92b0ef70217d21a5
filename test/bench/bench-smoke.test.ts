/**
 * A smoke run of the benchmark: the real script, as a child
 * process, on 1,000 records with two server processes and two harvesters at
 * once, so that it cannot rot. It asserts that the run completes, that the
 * table shows every figure with its ratio to the replay ceiling and the floor,
 * and that its last line is the JSON of every figure; it asserts no timing,
 * because timings belong to the benchmark, not to the suite.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(__dirname, '..', '..');

/** Runs bench/bench.ts from source (tsx), as `npm run bench` runs its compiled form. */
function runBench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', path.join(ROOT, 'bench', 'bench.ts'), ...args], {
      cwd: ROOT,
      // The smoke run is SQLite unless the suite is pointed at PostgreSQL explicitly.
      // No pyoai peer in the smoke run: the suite never depends on fetched code.
      env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', PYOAI_PATH: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const NUMBER_FIELDS = [
  'load_rps', 'load_cli_rps', 'load_cli_of_direct', 'floor_load_rps', 'load_of_floor', 'load_cli_of_floor', 'listrecords_rps', 'listrecords_bytes_per_s', 'listidentifiers_rps', 'listidentifiers_bytes_per_s',
  'page_ms_first', 'page_ms_middle', 'page_ms_last', 'page_ratio', 'getrecord_rps', 'getrecord_p50_ms', 'getrecord_p99_ms',
  'server_peak_rss_mb', 'ceiling_listrecords_rps', 'ceiling_listidentifiers_rps', 'floor_listrecords_rps', 'floor_listidentifiers_rps',
  'listrecords_of_ceiling', 'listrecords_of_floor', 'listidentifiers_of_ceiling', 'listidentifiers_of_floor',
  'metrics_listrecords_rps', 'nometrics_listrecords_rps', 'nometrics_listidentifiers_rps', 'metrics_listrecords_ratio', 'metrics_listidentifiers_ratio',
  'concurrent_rps', 'concurrent_1process_rps', 'concurrent_processes_ratio',
  'noprefetch_listrecords_rps', 'noprefetch_listidentifiers_rps', 'prefetch_listrecords_ratio', 'prefetch_listidentifiers_ratio', 'noprefetch_cpu_seconds',
] as const;

describe('npm run bench (smoke run, 1,000 records)', function () {
  this.timeout(180_000);
  let run: { code: number | null; stdout: string; stderr: string };
  let figures: Record<string, unknown>;

  before(async function () {
    run = await runBench(['--records', '1000', '--processes', '2', '--harvesters', '2', '--formats', '--duration', '1', '--repeats', '2']);
    const last = run.stdout.trim().split('\n').pop() ?? '';
    try {
      figures = JSON.parse(last) as Record<string, unknown>;
    } catch {
      figures = {};
    }
  });

  it('exits with status 0', function () {
    expect(run.code, run.stderr).to.equal(0);
  });

  it('prints a readable table before the JSON line', function () {
    expect(run.stdout).to.match(/ListRecords harvest/);
    expect(run.stdout).to.match(/GetRecord/);
  });

  it('harvests every generated record with both list verbs', function () {
    expect(figures.records).to.equal(1000);
    expect(figures.listrecords_items).to.equal(1000);
    expect(figures.database).to.equal('sqlite');
    expect(figures.processes).to.equal(2);
    expect(figures.harvesters).to.equal(2);
  });

  it('shows each harvest with its ratio to the replay ceiling and to the floor', function () {
    expect(run.stdout).to.match(/ListRecords harvest +[\d,]+ records\/s +\d+(\.\d+)? of ceiling, \d+(\.\d+)? of floor/);
    expect(run.stdout).to.match(/ListIdentifiers harvest +[\d,]+ ids\/s +\d+(\.\d+)? of ceiling, \d+(\.\d+)? of floor/);
    expect(run.stdout).to.match(/replay ceiling/);
    expect(run.stdout).to.match(/without metrics .*with\/without \d/);
  });

  it('loads the same records through oai-steward load and prints its time as a ratio to the direct load', function () {
    expect(run.stdout).to.match(/load \(CLI\) +[\d,]+ records\/s +the same records as NDJSON .* time \d+(\.\d+)?× the direct load/);
    // Both times are rounded to 10 ms in the JSON line, so the ratio is compared loosely.
    const expected = (figures.load_cli_seconds as number) / (figures.load_seconds as number);
    expect(figures.load_cli_of_direct).to.be.closeTo(expected, 0.02 * expected + 0.01);
  });

  it('prints the load floor with the ratio of both loads to it', function () {
    expect(run.stdout).to.match(/ {2}load floor +[\d,]+ records\/s +the same rows inserted with the driver alone, one transaction; load \d+(\.\d+)? of it, CLI \d+(\.\d+)?/);
  });

  it('computes each ratio from the figures it relates', function () {
    const close = (ratio: unknown, x: unknown, limit: unknown): void => {
      expect(ratio).to.be.closeTo((x as number) / (limit as number), 0.006);
    };
    close(figures.listrecords_of_ceiling, figures.listrecords_rps, figures.ceiling_listrecords_rps);
    close(figures.listrecords_of_floor, figures.listrecords_rps, figures.floor_listrecords_rps);
    close(figures.listidentifiers_of_floor, figures.listidentifiers_rps, figures.floor_listidentifiers_rps);
    close(figures.load_of_floor, figures.load_rps, figures.floor_load_rps);
    close(figures.load_cli_of_floor, figures.load_cli_rps, figures.floor_load_rps);
    close(figures.concurrent_processes_ratio, figures.concurrent_rps, figures.concurrent_1process_rps);
  });

  it('reports the server CPU of the harvests with and without metrics, and their ratio', function () {
    // CPU time comes from /proc in 10 ms ticks: it may be 0 on a very fast machine, so the ratio may be null.
    expect(figures.metrics_cpu_seconds).to.be.a('number').and.at.least(0);
    expect(figures.nometrics_cpu_seconds).to.be.a('number').and.at.least(0);
    if (figures.metrics_cpu_ratio !== null) {
      expect(figures.metrics_cpu_ratio).to.be.closeTo((figures.metrics_cpu_seconds as number) / (figures.nometrics_cpu_seconds as number), 0.006);
    }
    expect(run.stdout).to.match(/metrics cost, server CPU/);
  });

  it('runs two harvesters at once on two processes and on one, and prints the ratio', function () {
    expect(run.stdout).to.match(/2 harvesters at once +[\d,]+ records\/s/);
    expect(run.stdout).to.match(/on 1 process +[\d,]+ records\/s +2 processes \/ 1: \d[\d.]* \(at most [\d.]+ on this machine\)/);
    expect(figures.concurrent_processes_bound).to.be.a('number').and.at.least(0);
  });

  it('says where the cores went during the harvests at once: client, servers, the rest of the machine', function () {
    for (const key of ['concurrent_cores', 'concurrent_1process_cores']) {
      const c = figures[key] as { client: number; servers: number; other: number };
      for (const part of [c.client, c.servers, c.other]) expect(part, key).to.be.a('number').and.at.least(0);
      expect(c.client + c.servers, key).to.be.greaterThan(0);
    }
    expect(run.stdout).to.match(/cores busy: client [\d.]+, server [\d.]+, rest of machine [\d.]+ \(of \d+\)/);
  });

  it('says which formats it loaded and that there is no pyoai figure rather than inventing one', function () {
    // --formats: every built-in format offered, and the generated records carry what each needs.
    expect(figures.formats_offered).to.have.members(['oai_dc', 'oai_openaire', 'datacite', 'oai_datacite', 'marc21', 'mods']);
    expect(figures.formats_loaded).to.have.members(figures.formats_offered as string[]);
    expect(figures.peer_listrecords_rps).to.equal(null);
    expect(figures.listrecords_of_peer).to.equal(null);
    expect(figures.peer_note).to.match(/^not measured: pass --pyoai DIR/);
    expect(run.stdout).to.match(/pyoai peer +n\/a +not measured: pass --pyoai DIR/);
  });

  it('writes each progress line with a newline when its output is not a terminal', function () {
    expect(run.stderr).to.not.contain('\r');
    expect(run.stderr).to.match(/^  loaded 1000$/m);
    expect(run.stderr).to.match(/^  ListRecords: 1000 items, 10 pages$/m);
  });

  for (const field of NUMBER_FIELDS) {
    it(`reports ${field} as a number in the last JSON line`, function () {
      // Latency percentiles may round to 0 ms on a fast machine; everything else is positive.
      if (field.endsWith('_ms')) expect(figures[field], field).to.be.a('number').and.to.be.at.least(0);
      else expect(figures[field], field).to.be.a('number').and.to.be.above(0);
    });
  }

  it('answers every GetRecord request without an error', function () {
    expect(figures.getrecord_errors).to.equal(0);
  });

  it('says which node version and date the figures are from', function () {
    expect(figures.node).to.equal(process.version);
    expect(Date.parse(String(figures.date))).to.be.a('number').and.not.NaN;
  });
});
