/**
 * A smoke run of the benchmark (issue 5): the real script, as a child
 * process, on 1,000 records, so that it cannot rot. It asserts that the run
 * completes and that its last line is the JSON of every figure; it asserts
 * no timing, because timings belong to the benchmark, not to the suite.
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
      env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn' },
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
  'load_rps', 'listrecords_rps', 'listrecords_bytes_per_s', 'listidentifiers_rps', 'listidentifiers_bytes_per_s',
  'page_ms_first', 'page_ms_middle', 'page_ms_last', 'page_ratio', 'getrecord_rps', 'getrecord_p50_ms', 'getrecord_p99_ms',
  'server_peak_rss_mb',
] as const;

describe('npm run bench (smoke run, 1,000 records)', function () {
  this.timeout(180_000);
  let run: { code: number | null; stdout: string; stderr: string };
  let figures: Record<string, unknown>;

  before(async function () {
    run = await runBench(['--records', '1000', '--processes', '1', '--duration', '1', '--repeats', '2']);
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
    expect(figures.processes).to.equal(1);
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
