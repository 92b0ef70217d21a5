/**
 * Smoke runs of the benchmark: the real script, as a child process, so that
 * it cannot rot. One on 1,000 records in every format with two server
 * processes and two harvesters at once; one sampled (each harvest stopped
 * after a few pages, the deep pages reached by built tokens) with a smaller
 * base load and the optional steps skipped. They assert that each run
 * completes, that the table shows every figure with its ratio to the replay
 * ceiling and the floor, that the results file holds the date, commit,
 * machine, options and every figure, and that every target is printed with
 * its value and ratio or with the option that would measure it; they assert
 * no timing, because timings belong to the benchmark, not to the suite.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
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

/** A run: its exit, its output, and the results file it named. */
interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  record: Record<string, unknown>;
  figures: Record<string, unknown>;
}

/** Runs the benchmark with its results written to a temporary folder (never into bench/results). */
async function benchRun(args: string[]): Promise<Run> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-bench-results-'));
  try {
    const r = await runBench([...args, '--results', dir]);
    const files = fs.readdirSync(dir);
    const named = /^results: (.*)$/m.exec(r.stdout)?.[1];
    let record: Record<string, unknown> = {};
    if (files.length === 1 && named === path.join(dir, files[0] as string)) record = JSON.parse(fs.readFileSync(named, 'utf8')) as Record<string, unknown>;
    return { ...r, record, figures: (record.figures ?? {}) as Record<string, unknown> };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

interface Target {
  name: string;
  target: string;
  measured: number | null;
  ratio: number | null;
  status: string;
  note: string;
}

/** The bound a target's text states, e.g. `≥ 6,000 records/s` → 6000. */
const boundOf = (t: Target): number => Number(/[\d,.]+/.exec(t.target)?.[0].replace(/,/g, ''));

const NUMBER_FIELDS = [
  'load_rps',
  'load_cli_rps',
  'load_cli_of_direct',
  'floor_load_rps',
  'load_of_floor',
  'load_cli_of_floor',
  'listrecords_rps',
  'listrecords_bytes_per_s',
  'listidentifiers_rps',
  'listidentifiers_bytes_per_s',
  'page_ms_first',
  'page_ms_middle',
  'page_ms_last',
  'page_ratio',
  'getrecord_rps',
  'getrecord_p50_ms',
  'getrecord_p99_ms',
  'server_peak_rss_mb',
  'ceiling_listrecords_rps',
  'ceiling_listidentifiers_rps',
  'floor_listrecords_rps',
  'floor_listidentifiers_rps',
  'listrecords_of_ceiling',
  'listrecords_of_floor',
  'listidentifiers_of_ceiling',
  'listidentifiers_of_floor',
  'metrics_listrecords_rps',
  'nometrics_listrecords_rps',
  'nometrics_listidentifiers_rps',
  'metrics_listrecords_ratio',
  'metrics_listidentifiers_ratio',
  'concurrent_rps',
  'concurrent_1process_rps',
  'concurrent_processes_ratio',
  'noprefetch_listrecords_rps',
  'noprefetch_listidentifiers_rps',
  'prefetch_listrecords_ratio',
  'prefetch_listidentifiers_ratio',
  'noprefetch_cpu_seconds',
  'load_cli_peak_rss_mb',
  'ndjson_bytes',
  'store_bytes',
  'store_vacuumed_bytes',
  'bytes_per_record',
  'harvest_rps',
  'harvest_seconds',
  'harvest_peak_rss_mb',
  'harvest_of_provider',
  'harvest_of_load',
] as const;

describe('npm run bench (smoke run, 1,000 records)', function () {
  // A bound for a loaded machine, ten times what the run takes on an idle one; the run is judged by its figures, never its time.
  this.timeout(300_000);
  let run: Run;
  let figures: Record<string, unknown>;
  let targets: Target[];

  before(async function () {
    run = await benchRun(['--records', '1000', '--processes', '2', '--harvesters', '2', '--formats', 'all', '--duration', '1', '--repeats', '2']);
    figures = run.figures;
    targets = (run.record.targets ?? []) as Target[];
  });

  it('exits with status 0', function () {
    expect(run.code, run.stderr).to.equal(0);
  });

  it('prints a readable table, then the targets, then where the results went', function () {
    expect(run.stdout).to.match(/ListRecords harvest[\s\S]*GetRecord[\s\S]*\nTargets \(ratio = measured \/ target\)\n[\s\S]*\nresults: \S+\.json\n$/);
  });

  it('writes one results file named by date, commit and label, with the date, commit, machine and options', function () {
    const r = run.record;
    expect(r.kind).to.equal('bench run');
    expect(Date.parse(String(r.date))).to.be.a('number').and.not.NaN;
    expect(r.commit).to.match(/^[0-9a-f]{40}$/);
    expect(r.dirty).to.be.a('boolean');
    const m = r.machine as {
      cpu_model: string;
      cores: number;
      memory_gb: number;
      os: string;
      node: string;
      database: { kind: string; version: string };
      load_average: { start: number; end: number };
    };
    expect(m.cores).to.equal(os.cpus().length);
    expect(m.cpu_model).to.be.a('string').and.not.equal('');
    expect(m.memory_gb).to.be.above(0);
    expect(m.os).to.contain(os.release());
    expect(m.node).to.equal(process.version);
    expect(m.database.kind).to.equal('sqlite');
    expect(m.database.version).to.match(/^3\.\d+\.\d+$/);
    expect(m.load_average.end).to.be.a('number').and.at.least(0);
    const options = r.options as { records: number; results: string; pyoai: boolean; dryRun?: boolean };
    expect(options.records).to.equal(1000);
    // No path of this machine in the file: the results folder, a temporary one here, is named relative to the project or not at all.
    expect(options.results).to.equal('elsewhere');
    expect(options.pyoai).to.equal(false);
    expect(options).to.not.have.property('dryRun');
    const named = /^results: .*\/(\d{4}-\d\d-\d\dT\d{4}Z)-([0-9a-f]{7})-(.*)\.json$/m.exec(run.stdout);
    expect(named?.[1]).to.equal(String(r.date).slice(0, 16).replace(':', '') + 'Z');
    expect(named?.[2]).to.equal(String(r.commit).slice(0, 7));
    expect(named?.[3]).to.equal('sqlite-1000-6formats-2p-2h');
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

  it('harvests the served store with oai-steward harvest, every record, and prints its ratios to the provider and the loader', function () {
    expect(figures.harvest_records).to.equal(1000);
    expect(run.stdout).to.match(
      /oai-steward harvest +[\d,]+ records\/s +1,000 records, \d+ pages in [\d.]+ s into a fresh store; \d+(\.\d+)? of the provider's ListRecords, \d+(\.\d+)? of oai-steward load/,
    );
  });

  it('loads the same records through oai-steward load and prints its time as a ratio to the direct load', function () {
    expect(run.stdout).to.match(/load \(CLI\) +[\d,]+ records\/s +the same records as NDJSON .* time \d+(\.\d+)?× the direct load/);
    // Both times are rounded to 10 ms in the JSON line, so the ratio is compared loosely.
    const expected = (figures.load_cli_seconds as number) / (figures.load_seconds as number);
    expect(figures.load_cli_of_direct).to.be.closeTo(expected, 0.02 * expected + 0.01);
  });

  it('prints the load floor with the ratio of both loads to it', function () {
    expect(run.stdout).to.match(
      / {2}load floor +[\d,]+ records\/s +the same rows inserted with the driver alone, one transaction; load \d+(\.\d+)? of it, CLI \d+(\.\d+)?/,
    );
  });

  it('prints what the publication log adds to a publication, from the records loaded with the log and without', function () {
    expect(figures.log_sample_records).to.equal(1000);
    expect(figures.log_publications).to.equal(1);
    expect(figures.log_publication_ms).to.be.a('number');
    expect(figures.load_with_log_of_without).to.be.a('number').and.above(0);
    expect(run.stdout).to.match(
      / {2}publication log +-?[\d,.]+ ms a publication +what the log adds to one: 1,000 records in 1 publication, loaded with the log and without; time \d+(\.\d+)?×/,
    );
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
    it(`reports ${field} as a number in the results file`, function () {
      // Latency percentiles may round to 0 ms on a fast machine; everything else is positive.
      if (field.endsWith('_ms')) expect(figures[field], field).to.be.a('number').and.to.be.at.least(0);
      else expect(figures[field], field).to.be.a('number').and.to.be.above(0);
    });
  }

  it('answers every GetRecord request without an error', function () {
    expect(figures.getrecord_errors).to.equal(0);
  });

  it('measures the peak RSS of oai-steward load, every thread', function () {
    // At least what a Node process holds at all; a figure in bytes would be a thousand times larger.
    expect(figures.load_cli_peak_rss_mb).to.be.within(20, 4000);
    expect(run.stdout).to.match(/loader peak RSS +[\d.]+ MB/);
  });

  it('harvests every format with the minimal client too, counting the records the parsing harvester counted, against the same replay', function () {
    const minimal = figures.minimal_listrecords_formats as Record<string, { items: number; rps: number; ceiling_rps: number; of_ceiling: number }>;
    const parsed = figures.listrecords_formats as Record<string, { items: number }>;
    expect(Object.keys(minimal)).to.have.members(figures.formats_loaded as string[]);
    for (const [prefix, h] of Object.entries(minimal)) {
      expect(h.items, prefix).to.equal(parsed[prefix]?.items);
      expect(h.of_ceiling, prefix).to.be.closeTo(h.rps / h.ceiling_rps, 0.006);
      expect(run.stdout).to.match(new RegExp(`  ${prefix}, minimal client +[\\d,]+ records/s +\\d+(\\.\\d+)? of its ceiling`));
    }
    expect(run.stdout).to.match(/ListRecords oai_dc of the replay ceiling, minimal client/);
  });

  it('harvests ListRecords in every format the store holds, each against its own replay ceiling', function () {
    const formats = figures.listrecords_formats as Record<string, { items: number; rps: number; ceiling_rps: number; of_ceiling: number }>;
    expect(Object.keys(formats)).to.have.members(figures.formats_loaded as string[]);
    expect(formats.oai_dc?.items).to.equal(1000);
    // One record in five has no DOI, so no DataCite record: fewer items, not none.
    expect(formats.datacite?.items).to.be.above(0).and.below(1000);
    for (const [prefix, h] of Object.entries(formats)) {
      expect(h.of_ceiling, prefix).to.be.closeTo(h.rps / h.ceiling_rps, 0.006);
      if (prefix !== 'oai_dc') expect(run.stdout).to.match(new RegExp(`  in ${prefix} +[\\d,]+ records/s +\\d+(\\.\\d+)? of its ceiling`));
    }
  });

  it('measures the store on disk as loaded and after VACUUM', function () {
    expect(figures.bytes_per_record).to.equal(Math.round((figures.store_vacuumed_bytes as number) / 1000));
    expect(run.stdout).to.match(/store on disk +[\d.]+ MB/);
    expect(run.stdout).to.match(/after VACUUM +[\d.]+ MB +[\d,]+ B a record/);
  });

  it('prints every target with its bound, measured value, ratio and status', function () {
    expect(targets.length).to.be.at.least(12);
    for (const t of targets) {
      expect(t.status, t.name).to.be.oneOf(['met', 'not met', 'reported', 'not measured']);
      expect(run.stdout, t.name).to.contain(`  ${t.name}  `);
      if (t.status === 'met' || t.status === 'not met') {
        expect(t.ratio, t.name).to.be.closeTo((t.measured as number) / boundOf(t), 0.006);
        expect(t.status === 'met', t.name).to.equal(
          t.target.startsWith('≥')
            ? (t.measured as number) >= boundOf(t)
            : t.target.startsWith('<')
              ? (t.measured as number) < boundOf(t)
              : (t.measured as number) <= boundOf(t),
        );
      }
    }
    const by = (name: string): Target => targets.find((t) => t.name === name) as Target;
    expect(by('oai-steward load, six formats, SQLite').measured).to.equal(figures.load_cli_rps);
    expect(by('oai-steward load peak RSS, six formats').measured).to.equal(figures.load_cli_peak_rss_mb);
    expect(by('bytes on disk a record after VACUUM, six formats').measured).to.equal(figures.bytes_per_record);
    expect(by('ListRecords mods of the replay ceiling').measured).to.equal(
      (figures.listrecords_formats as Record<string, { of_ceiling: number }>).mods?.of_ceiling,
    );
    expect(by('server peak RSS').measured).to.equal(figures.server_peak_rss_mb);
    expect(by('store size').status).to.equal('reported');
  });

  it('says which option would measure each target this run does not, rather than inventing a figure', function () {
    const missing = targets.filter((t) => t.status === 'not measured');
    expect(missing.map((t) => t.name)).to.have.members([
      'oai-steward load, six formats, PostgreSQL',
      'PostgreSQL ListRecords of the replay ceiling',
      'oai-steward load peak RSS at N / at a smaller run (flat)',
      'oai-steward load rate at N / at a smaller run (linear)',
      'ListRecords on a primary and a read replica / on the primary',
    ]);
    // Measured now: the harvest step runs in every run unless skipped.
    expect(targets.find((t) => t.name === 'harvest-and-load from a local provider, every format')?.measured).to.equal(figures.harvest_rps);
    for (const t of missing) {
      expect(t.measured, t.name).to.equal(null);
      const line = run.stdout.split('\n').find((l) => l.startsWith(`  ${t.name}  `));
      expect(line, t.name).to.match(/ not measured +not measured  /);
      expect(line?.endsWith(`not measured  ${t.note}`), t.name).to.equal(true);
    }
    expect(targets.find((t) => t.name.startsWith('oai-steward load, six formats, PostgreSQL'))?.note).to.match(/DATABASE_URL=postgres/);
    expect(targets.find((t) => t.name.includes('(flat)'))?.note).to.match(/--base-records/);
  });
});

describe('npm run bench (smoke run, sampled, 600 records, two formats, optional steps skipped)', function () {
  this.timeout(180_000);
  let run: Run;
  let figures: Record<string, unknown>;
  let targets: Target[];

  before(async function () {
    run = await benchRun([
      '--records',
      '600',
      '--formats',
      'oai_dc,datacite',
      '--harvest-pages',
      '3',
      '--base-records',
      '300',
      '--skip-getrecord',
      '--skip-load-floor',
      '--skip-log-cost',
      '--skip-vacuum',
      '--skip-harvest',
      '--repeats',
      '2',
      '--label',
      'smoke',
    ]);
    figures = run.figures;
    targets = (run.record.targets ?? []) as Target[];
  });

  it('exits with status 0', function () {
    expect(run.code, run.stderr).to.equal(0);
  });

  it('stops each list after the pages asked for, and replays as many for the ceiling', function () {
    expect(figures.harvest_pages).to.equal(3);
    expect(figures.listrecords_pages).to.equal(3);
    expect(figures.listrecords_items).to.equal(300);
    const formats = figures.listrecords_formats as Record<string, { pages: number; of_ceiling: number }>;
    expect(Object.keys(formats)).to.have.members(['oai_dc', 'datacite']);
    expect(formats.datacite?.pages).to.equal(3);
    expect(run.stderr).to.match(/^ {2}ListRecords: 300 items, 3 pages \(stopped at 3\)$/m);
  });

  it('times the middle and last pages with tokens built from the store', function () {
    expect(figures.page_tokens).to.equal('built');
    expect(run.stderr).to.match(/^tokens built for page 4 and page 6 of 6$/m);
    expect(figures.page_ms_last).to.be.a('number').and.above(0);
    expect(run.stdout).to.match(/last\/first [\d.]+ \(middle and last asked for with tokens built from the store\)/);
  });

  it('loads the base records through oai-steward load and compares the rate and the peak RSS', function () {
    expect(figures.base_records).to.equal(300);
    expect(figures.load_cli_rps_of_base).to.be.closeTo((figures.load_cli_rps as number) / (figures.base_load_cli_rps as number), 0.006);
    expect(figures.load_cli_rss_of_base).to.be.closeTo((figures.load_cli_peak_rss_mb as number) / (figures.base_load_cli_peak_rss_mb as number), 0.006);
    expect(run.stdout).to.match(/ {2}at 300 records +[\d,]+ records\/s +peak RSS [\d.]+ MB; at 600 \/ at 300: rate [\d.]+, peak RSS [\d.]+/);
  });

  it('reports the skipped steps as not measured, and the formats offered in the file name', function () {
    expect(figures.harvest_rps).to.equal(null);
    expect(run.stdout).to.match(/^ {2}oai-steward harvest +skipped$/m);
    expect(figures.floor_load_rps).to.equal(null);
    expect(figures.log_publication_ms).to.equal(null);
    expect(run.stdout).to.match(/^ +publication log +not measured$/m);
    expect(figures.getrecord_rps).to.equal(null);
    expect(figures.store_vacuumed_bytes).to.equal(null);
    expect(figures.store_bytes).to.be.above(0);
    expect(run.stdout).to.match(/results: .*-sqlite-600-oai_dc\+datacite-sampled-smoke\.json$/m);
  });

  it('measures no target that needs all six formats, and names the option that would', function () {
    for (const name of [
      'oai-steward load, six formats, SQLite',
      'oai-steward load peak RSS, six formats',
      'bytes on disk a record after VACUUM, six formats',
      'ListRecords mods of the replay ceiling',
    ]) {
      const t = targets.find((x) => x.name === name);
      expect(t?.status, name).to.equal('not measured');
      expect(t?.note, name).to.match(/--formats all/);
    }
    expect(targets.find((t) => t.name === 'ListRecords datacite of the replay ceiling')?.status).to.be.oneOf(['met', 'not met']);
  });
});
