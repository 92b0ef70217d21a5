/**
 * The targets of the benchmark (bench/targets.ts) against figures made up
 * for each case: each bound is read the way it is written (at least, at
 * most, under), the ratio is measured / bound, and a figure a run could not
 * measure is "not measured" with the option that would measure it, never a
 * number taken from elsewhere.
 */
import { expect } from 'chai';
import type { BenchFigures } from '../../bench/figures';
import { ALL_FORMATS, parseArgs } from '../../bench/options';
import { checkTargets, type TargetResult } from '../../bench/targets';

const harvest = { items: 100_000, pages: 1000, rps: 60_000, bytes_per_s: 9e7, ceiling_rps: 120_000, of_ceiling: 0.5 };

/** A run's figures: a SQLite run of 100,000 records in six formats, every figure present unless a case changes it. */
function figures(changes: Partial<BenchFigures> = {}): BenchFigures {
  return {
    records: 100_000,
    database: 'sqlite',
    processes: 1,
    formats_offered: [...ALL_FORMATS],
    formats_loaded: [...ALL_FORMATS],
    load_seconds: 30,
    load_rps: 3333,
    load_analyze_seconds: 0,
    load_cli_seconds: 10,
    load_cli_rps: 6_000,
    load_cli_of_direct: 0.33,
    load_cli_peak_rss_mb: 300,
    ndjson_bytes: 1.6e8,
    base_records: null,
    base_load_cli_rps: null,
    base_load_cli_peak_rss_mb: null,
    load_cli_rps_of_base: null,
    load_cli_rss_of_base: null,
    floor_load_rps: 30_000,
    load_of_floor: 0.11,
    load_cli_of_floor: 0.33,
    oai_dc_avg_bytes: 1300,
    log_sample_records: 20_000,
    log_publications: 10,
    log_publication_ms: 40,
    load_with_log_of_without: 1.1,
    harvest_pages: null,
    listrecords_items: 100_000,
    listrecords_pages: 1000,
    listrecords_seconds: 1.67,
    listrecords_rps: 60_000,
    listrecords_bytes_per_s: 9e7,
    listidentifiers_seconds: 0.7,
    listidentifiers_rps: 140_000,
    listidentifiers_bytes_per_s: 3e7,
    ceiling_listrecords_rps: 120_000,
    ceiling_listidentifiers_rps: 400_000,
    floor_listrecords_rps: 150_000,
    floor_listidentifiers_rps: 500_000,
    listrecords_of_ceiling: 0.5,
    listrecords_of_floor: 0.4,
    listidentifiers_of_ceiling: 0.35,
    listidentifiers_of_floor: 0.28,
    listrecords_formats: Object.fromEntries(ALL_FORMATS.map((p) => [p, harvest])),
    minimal_listrecords_formats: Object.fromEntries(ALL_FORMATS.map((p) => [p, harvest])),
    peer_listrecords_rps: null,
    peer_listidentifiers_rps: null,
    listrecords_of_peer: null,
    listidentifiers_of_peer: null,
    ceiling_listrecords_of_peer: null,
    ceiling_listidentifiers_of_peer: null,
    peer_paging: null,
    peer_note: 'not measured: pass --pyoai DIR',
    metrics_listrecords_rps: 60_000,
    metrics_listidentifiers_rps: 140_000,
    nometrics_listrecords_rps: 60_000,
    nometrics_listidentifiers_rps: 140_000,
    metrics_listrecords_ratio: 1,
    metrics_listidentifiers_ratio: 1,
    noprefetch_listrecords_rps: 50_000,
    noprefetch_listidentifiers_rps: 120_000,
    prefetch_listrecords_ratio: 1.2,
    prefetch_listidentifiers_ratio: 1.17,
    noprefetch_cpu_seconds: 3,
    metrics_cpu_seconds: 3,
    nometrics_cpu_seconds: 3,
    metrics_cpu_ratio: 1,
    harvesters: 1,
    concurrent_rps: null,
    concurrent_1process_rps: null,
    concurrent_processes_ratio: null,
    concurrent_processes_bound: null,
    concurrent_cores: null,
    concurrent_1process_cores: null,
    replica_harvesters: null,
    replica_primary_rps: null,
    replica_both_rps: null,
    replica_of_primary: null,
    replica_pair_ratios: null,
    page_ms_first: 10,
    page_ms_middle: 1.5,
    page_ms_last: 12,
    page_ratio: 1.2,
    page_tokens: 'harvest',
    served_by: 0,
    getrecord_rps: 8000,
    getrecord_p50_ms: 3,
    getrecord_p99_ms: 9,
    getrecord_errors: 0,
    server_peak_rss_mb: 199.9,
    server_total_rss_mb: 199.9,
    encoding: 'identity',
    harvest_records: 100_000,
    harvest_seconds: 16,
    harvest_rps: 5000,
    harvest_list_pages: 1000,
    harvest_peak_rss_mb: 150,
    harvest_of_provider: 0.1,
    harvest_of_load: 0.63,
    store_bytes: 1e9,
    store_vacuumed_bytes: 409_600_000,
    vacuum_seconds: 20,
    bytes_per_record: 4096,
    ...changes,
  };
}

function target(results: TargetResult[], name: string): TargetResult {
  const t = results.find((r) => r.name === name);
  if (!t) throw new Error(`no target ${JSON.stringify(name)}`);
  return t;
}

const SQLITE_LOAD = 'oai-steward load, six formats, SQLite';
const defaults = parseArgs([], {});

const cases: readonly {
  name: string;
  f: Partial<BenchFigures>;
  argv?: string[];
  target: string;
  status: TargetResult['status'];
  ratio?: number | null;
  note?: RegExp;
}[] = [
  { name: '6,000 records/s meets "at least 6,000", ratio 1', f: {}, target: SQLITE_LOAD, status: 'met', ratio: 1 },
  { name: '5,400 records/s does not, ratio 0.9', f: { load_cli_rps: 5400 }, target: SQLITE_LOAD, status: 'not met', ratio: 0.9 },
  {
    name: 'a PostgreSQL load of 5,000 records/s meets "at least 5,000"',
    f: { database: 'postgresql', load_cli_rps: 5000 },
    target: 'oai-steward load, six formats, PostgreSQL',
    status: 'met',
    ratio: 1,
  },
  {
    name: 'a PostgreSQL load is not measured by a SQLite run, which says how to run one',
    f: {},
    target: 'oai-steward load, six formats, PostgreSQL',
    status: 'not measured',
    ratio: null,
    note: /DATABASE_URL=postgres/,
  },
  {
    name: 'a SQLite load is not measured by a PostgreSQL run',
    f: { database: 'postgresql' },
    target: SQLITE_LOAD,
    status: 'not measured',
    note: /without DATABASE_URL/,
  },
  {
    name: 'an oai_dc-only run measures no six-format load',
    f: {},
    argv: ['--formats', 'oai_dc'],
    target: SQLITE_LOAD,
    status: 'not measured',
    note: /--formats all/,
  },
  {
    name: 'a skipped CLI load is not measured, naming the option',
    f: { load_cli_rps: null },
    target: SQLITE_LOAD,
    status: 'not measured',
    note: /--skip-cli-load/,
  },
  {
    name: 'a load floor exactly 3× the load meets "within 3×"',
    f: { floor_load_rps: 18_000 },
    target: 'load floor / oai-steward load, six formats',
    status: 'met',
    ratio: 1,
  },
  {
    name: 'a load floor 3.1× the load does not',
    f: { floor_load_rps: 18_600 },
    target: 'load floor / oai-steward load, six formats',
    status: 'not met',
    ratio: 1.03,
  },
  {
    name: 'a skipped load floor is not measured',
    f: { floor_load_rps: null },
    target: 'load floor / oai-steward load, six formats',
    status: 'not measured',
    note: /--skip-load-floor/,
  },
  { name: 'a loader peak of 300 MB meets "at most 300 MB"', f: {}, target: 'oai-steward load peak RSS, six formats', status: 'met', ratio: 1 },
  {
    name: 'flat loader memory needs a base run',
    f: {},
    target: 'oai-steward load peak RSS at N / at a smaller run (flat)',
    status: 'not measured',
    note: /--base-records/,
  },
  {
    name: 'a loader peak 1.3× the base run is not flat',
    f: { base_records: 100_000, load_cli_rss_of_base: 1.3 },
    target: 'oai-steward load peak RSS at N / at a smaller run (flat)',
    status: 'not met',
  },
  { name: '4,096 bytes a record meets "at most 4 KB"', f: {}, target: 'bytes on disk a record after VACUUM, six formats', status: 'met', ratio: 1 },
  {
    name: 'no VACUUM, no bytes a record',
    f: { bytes_per_record: null },
    target: 'bytes on disk a record after VACUUM, six formats',
    status: 'not measured',
    note: /--skip-vacuum/,
  },
  { name: 'half the replay ceiling in mods meets "at least 0.5"', f: {}, target: 'ListRecords mods of the replay ceiling', status: 'met', ratio: 1 },
  {
    name: 'the minimal client at 0.4 of the ceiling in mods meets its "at least 0.4"',
    f: { minimal_listrecords_formats: { oai_dc: harvest, mods: { ...harvest, rps: 48_000, of_ceiling: 0.4 } } },
    target: 'ListRecords mods of the replay ceiling, minimal client',
    status: 'met',
    ratio: 1,
  },
  {
    name: 'the minimal client at 0.4 of the ceiling in oai_dc misses its "at least 0.5"',
    f: { minimal_listrecords_formats: { oai_dc: { ...harvest, rps: 48_000, of_ceiling: 0.4 } } },
    target: 'ListRecords oai_dc of the replay ceiling, minimal client',
    status: 'not met',
  },
  {
    name: 'a format not offered is not measured',
    f: { listrecords_formats: { oai_dc: harvest } },
    argv: ['--formats', 'oai_dc'],
    target: 'ListRecords mods of the replay ceiling',
    status: 'not measured',
    note: /--formats all/,
  },
  {
    name: 'the PostgreSQL ceiling target reads the PostgreSQL run',
    f: { database: 'postgresql', listrecords_of_ceiling: 0.36 },
    target: 'PostgreSQL ListRecords of the replay ceiling',
    status: 'not met',
    ratio: 0.72,
  },
  {
    name: 'a linear load needs a larger run against a base',
    f: {},
    target: 'oai-steward load rate at N / at a smaller run (linear)',
    status: 'not measured',
    note: /--records 1000000 or 5000000/,
  },
  {
    name: 'a rate at N of 0.8 of the base rate is linear enough',
    f: { load_cli_rps_of_base: 0.8, base_records: 100_000 },
    target: 'oai-steward load rate at N / at a smaller run (linear)',
    status: 'met',
    ratio: 1,
  },
  { name: 'a last page 1.2× the first meets "within 1.2×"', f: {}, target: 'last page / first page of a harvest', status: 'met', ratio: 1 },
  { name: 'a server peak under 200 MB meets "under 200 MB"', f: {}, target: 'server peak RSS', status: 'met' },
  { name: 'a server peak of exactly 200 MB does not', f: { server_peak_rss_mb: 200 }, target: 'server peak RSS', status: 'not met', ratio: 1 },
  { name: 'the store size is reported, with no bound and no ratio', f: {}, target: 'store size', status: 'reported', ratio: null },
  {
    name: "the publication log's cost is reported, with no bound, in ms a publication",
    f: {},
    target: 'what the publication log adds to a publication',
    status: 'reported',
    ratio: null,
    note: /20,000 records in 10 publications; load time with the log \/ without 1\.1×/,
  },
  {
    name: "a skipped publication log's cost is not measured, naming the option",
    f: { log_publication_ms: null },
    target: 'what the publication log adds to a publication',
    status: 'not measured',
    note: /--skip-log-cost/,
  },
  {
    name: 'harvest-and-load at 5,000 records/s meets "at least 4,000"',
    f: {},
    target: 'harvest-and-load from a local provider, every format',
    status: 'met',
    ratio: 1.25,
  },
  {
    name: 'harvest-and-load at 3,600 records/s does not, ratio 0.9',
    f: { harvest_rps: 3600 },
    target: 'harvest-and-load from a local provider, every format',
    status: 'not met',
    ratio: 0.9,
  },
  {
    name: 'harvest-and-load skipped is not measured',
    f: { harvest_rps: null },
    target: 'harvest-and-load from a local provider, every format',
    status: 'not measured',
    note: /--skip-harvest/,
  },
  {
    name: 'harvest-and-load is measured on PostgreSQL too',
    f: { database: 'postgresql' },
    target: 'harvest-and-load from a local provider, every format',
    status: 'met',
    ratio: 1.25,
  },
];

describe('the benchmark targets', () => {
  for (const c of cases) {
    it(c.name, () => {
      const t = target(checkTargets(figures(c.f), c.argv ? parseArgs(c.argv, {}) : defaults), c.target);
      expect(t.status).to.equal(c.status);
      if (c.ratio !== undefined) expect(t.ratio).to.equal(c.ratio);
      if (c.note) expect(t.note).to.match(c.note);
      if (c.status === 'not measured') expect(t.measured).to.equal(null);
    });
  }
});
