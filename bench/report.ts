/**
 * The report step of the benchmark: the figures of a run as a table, each
 * harvest beside its limits, then every target with its measured value,
 * its ratio to the target and whether it is met.
 */
import type { BenchFigures } from './figures';
import { ratio } from './figures';
import type { CoresUsed } from './procfs';
import type { Machine } from './results';
import type { TargetResult } from './targets';

const n = (x: number | null | undefined): string => (x === null || x === undefined ? '–' : x.toLocaleString('en'));

/** Bytes as MB or GB, to three figures. Example: `bytes(1_234_567_890)` is `1.23 GB`. */
function bytes(b: number): string {
  return b >= 1e9 ? `${(b / 1e9).toFixed(2)} GB` : `${(b / 1e6).toFixed(1)} MB`;
}

function coresText(c: CoresUsed | null, cpus: number): string {
  return c === null ? '' : `cores busy: client ${c.client}, server ${c.servers}, rest of machine ${c.other} (of ${cpus})`;
}

type Row = [string, string, string];

/** Aligns rows of three columns under a heading. */
function columns(head: string, rows: readonly Row[]): string {
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  return [head, ...rows.map(([a, b, c]) => `  ${a.padEnd(w0)}  ${b.padStart(w1)}  ${c}`.trimEnd())].join('\n');
}

function loadRows(f: BenchFigures): Row[] {
  const offered = `formats ${f.formats_loaded.join(', ')} (the repository offers ${f.formats_offered.join(', ')})`;
  return [
    [
      'load',
      f.load_rps === null ? 'skipped' : `${n(f.load_rps)} records/s`,
      f.load_rps === null ? offered : `${n(f.records)} records in ${f.load_seconds} s, oai_dc ≈ ${n(f.oai_dc_avg_bytes)} B; ${offered}`,
    ],
    [
      'load (CLI)',
      f.load_cli_rps === null ? 'skipped' : `${n(f.load_cli_rps)} records/s`,
      f.load_cli_rps === null
        ? ''
        : `the same records as NDJSON (${bytes(f.ndjson_bytes ?? 0)}) through \`oai-steward load\` in ${n(f.load_cli_seconds)} s; time ${n(f.load_cli_of_direct)}× the direct load`,
    ],
    ['  loader peak RSS', f.load_cli_peak_rss_mb === null ? 'not measured' : `${f.load_cli_peak_rss_mb} MB`, 'the oai-steward load process, every thread'],
    ...(f.base_records === null
      ? []
      : ([
          [
            `  at ${n(f.base_records)} records`,
            `${n(f.base_load_cli_rps)} records/s`,
            `peak RSS ${f.base_load_cli_peak_rss_mb} MB; at ${n(f.records)} / at ${n(f.base_records)}: rate ${n(f.load_cli_rps_of_base)}, peak RSS ${n(f.load_cli_rss_of_base)}`,
          ],
        ] as Row[])),
    [
      '  load floor',
      f.floor_load_rps === null ? 'not measured' : `${n(f.floor_load_rps)} records/s`,
      `the same rows inserted with the driver alone, one transaction; load ${n(f.load_of_floor)} of it, CLI ${n(f.load_cli_of_floor)}`,
    ],
    [
      '  publication log',
      f.log_publication_ms === null ? 'not measured' : `${n(f.log_publication_ms)} ms a publication`,
      f.log_publication_ms === null
        ? ''
        : `what the log adds to one: ${n(f.log_sample_records)} records in ${n(f.log_publications)} publication${f.log_publications === 1 ? '' : 's'}, loaded with the log and without; time ${n(f.load_with_log_of_without)}×`,
    ],
  ];
}

function harvestRows(f: BenchFigures): Row[] {
  const limits = (c: number | null, fl: number | null): string => `${n(c)} of ceiling, ${n(fl)} of floor`;
  const sampled = f.harvest_pages === null ? '' : `, the first ${n(f.harvest_pages)} pages`;
  const rows: Row[] = [
    [
      'ListRecords harvest',
      `${n(f.listrecords_rps)} records/s`,
      `${limits(f.listrecords_of_ceiling, f.listrecords_of_floor)}; ${n(f.listrecords_pages)} pages${sampled}, ${(f.listrecords_bytes_per_s / 1e6).toFixed(1)} MB/s (${f.encoding})`,
    ],
    ['  replay ceiling', `${n(f.ceiling_listrecords_rps)} records/s`, 'same harvester, a node:http server replaying captured pages (identity)'],
    ['  floor', `${n(f.floor_listrecords_rps)} records/s`, 'bare keyset scan + page assembly in-process, no HTTP, every page'],
    [
      '  without metrics',
      `${n(f.nometrics_listrecords_rps)} records/s`,
      `with/without ${n(f.metrics_listrecords_ratio)} (${n(f.metrics_listrecords_rps)} with; best of 2 each, fresh servers)`,
    ],
    [
      '  without prefetch',
      `${n(f.noprefetch_listrecords_rps)} records/s`,
      `with/without ${n(f.prefetch_listrecords_ratio)} (metrics on; best of 2 each, fresh servers)`,
    ],
    [
      '  pyoai peer',
      f.peer_listrecords_rps === null ? 'n/a' : `${n(f.peer_listrecords_rps)} records/s`,
      f.peer_note ?? `oai-steward / pyoai: ${n(f.listrecords_of_peer)} (replay ceiling / pyoai ${n(f.ceiling_listrecords_of_peer)}); ${f.peer_paging} paging`,
    ],
  ];
  for (const [prefix, h] of Object.entries(f.minimal_listrecords_formats)) {
    rows.push([
      `  ${prefix}, minimal client`,
      `${n(h.rps)} records/s`,
      `${n(h.of_ceiling)} of its ceiling (${n(h.ceiling_rps)}) read the same way, counting records in the bytes`,
    ]);
  }
  for (const [prefix, h] of Object.entries(f.listrecords_formats)) {
    if (prefix === 'oai_dc') continue;
    rows.push([
      `  in ${prefix}`,
      `${n(h.rps)} records/s`,
      `${n(h.of_ceiling)} of its ceiling (${n(h.ceiling_rps)}); ${n(h.items)} items, ${(h.bytes_per_s / 1e6).toFixed(1)} MB/s`,
    ]);
  }
  rows.push(
    [
      'ListIdentifiers harvest',
      `${n(f.listidentifiers_rps)} ids/s`,
      `${limits(f.listidentifiers_of_ceiling, f.listidentifiers_of_floor)}; ${(f.listidentifiers_bytes_per_s / 1e6).toFixed(1)} MB/s`,
    ],
    ['  replay ceiling', `${n(f.ceiling_listidentifiers_rps)} ids/s`, ''],
    ['  floor', `${n(f.floor_listidentifiers_rps)} ids/s`, ''],
    [
      '  without metrics',
      `${n(f.nometrics_listidentifiers_rps)} ids/s`,
      `with/without ${n(f.metrics_listidentifiers_ratio)} (${n(f.metrics_listidentifiers_rps)} with)`,
    ],
    ['  without prefetch', `${n(f.noprefetch_listidentifiers_rps)} ids/s`, `with/without ${n(f.prefetch_listidentifiers_ratio)}`],
    [
      '  pyoai peer',
      f.peer_listidentifiers_rps === null ? 'n/a' : `${n(f.peer_listidentifiers_rps)} ids/s`,
      f.peer_note ?? `oai-steward / pyoai: ${n(f.listidentifiers_of_peer)} (replay ceiling / pyoai ${n(f.ceiling_listidentifiers_of_peer)})`,
    ],
    [
      'prefetch cost, server CPU',
      `${f.metrics_cpu_seconds} / ${f.noprefetch_cpu_seconds} s`,
      `with/without ${n(ratio(f.metrics_cpu_seconds, f.noprefetch_cpu_seconds))} (both list harvests, least of 2 each)`,
    ],
    [
      'metrics cost, server CPU',
      `${f.metrics_cpu_seconds} / ${f.nometrics_cpu_seconds} s`,
      `with/without ${n(f.metrics_cpu_ratio)} (both list harvests, least of 2 each)`,
    ],
    [
      'oai-steward harvest',
      f.harvest_rps === null ? 'skipped' : `${n(f.harvest_rps)} records/s`,
      f.harvest_rps === null
        ? ''
        : `${n(f.harvest_records)} records, ${n(f.harvest_list_pages)} pages in ${n(f.harvest_seconds)} s into a fresh store; ${n(f.harvest_of_provider)} of the provider's ListRecords, ${n(f.harvest_of_load)} of oai-steward load; peak RSS ${n(f.harvest_peak_rss_mb)} MB`,
    ],
  );
  return rows;
}

function serveRows(f: BenchFigures, cpus: number): Row[] {
  const rows: Row[] = [];
  if (f.concurrent_rps !== null) {
    rows.push([
      `${f.harvesters} harvesters at once`,
      `${n(f.concurrent_rps)} records/s`,
      `aggregate of ${f.harvesters} ListRecords harvests at once, ${f.processes} process(es); ${coresText(f.concurrent_cores, cpus)}`,
    ]);
    if (f.concurrent_1process_rps !== null) {
      rows.push([
        '  on 1 process',
        `${n(f.concurrent_1process_rps)} records/s`,
        `${f.processes} processes / 1: ${n(f.concurrent_processes_ratio)} (at most ${n(f.concurrent_processes_bound)} on this machine); ${coresText(f.concurrent_1process_cores, cpus)}`,
      ]);
    }
  }
  if (f.replica_of_primary !== null) {
    rows.push([
      `${f.replica_harvesters} harvesters, primary + replica`,
      `${n(f.replica_both_rps)} records/s`,
      `against the primary's process alone ${n(f.replica_primary_rps)}; both / primary ${n(f.replica_of_primary)} (median of pairs ${(f.replica_pair_ratios ?? []).join(', ')}; a cluster started for the run)`,
    ]);
  }
  rows.push(
    [
      'page time first/middle/last',
      `${f.page_ms_first} / ${f.page_ms_middle} / ${f.page_ms_last} ms`,
      `last/first ${f.page_ratio}${f.page_tokens === 'built' ? ' (middle and last asked for with tokens built from the store)' : ''}`,
    ],
    [
      'GetRecord',
      f.getrecord_rps === null ? 'skipped' : `${n(f.getrecord_rps)} req/s`,
      f.getrecord_rps === null ? '' : `p50 ${f.getrecord_p50_ms} ms, p99 ${f.getrecord_p99_ms} ms, errors ${f.getrecord_errors}`,
    ],
    [
      'server peak RSS',
      `${f.server_peak_rss_mb} MB`,
      f.processes > 1 ? `per process; all ${f.server_total_rss_mb} MB; pages served by ${f.served_by} processes` : '',
    ],
    ['store on disk', bytes(f.store_bytes), `${n(Math.round(f.store_bytes / f.records))} B a record as loaded`],
    [
      '  after VACUUM',
      f.store_vacuumed_bytes === null ? 'not measured' : bytes(f.store_vacuumed_bytes),
      f.bytes_per_record === null ? '--skip-vacuum' : `${n(f.bytes_per_record)} B a record; VACUUM took ${f.vacuum_seconds} s`,
    ],
  );
  return rows;
}

/**
 * The figures of a run as a table, headed by what it ran on.
 *
 * @example process.stdout.write(`${figuresTable(f, machine, commit)}\n`)
 */
export function figuresTable(f: BenchFigures, m: Machine, commit: { commit: string | null; dirty: boolean | null }, date: string): string {
  const head =
    `oai-steward bench: ${n(f.records)} records, ${m.database.kind} ${m.database.version}, ${f.processes} process(es); ` +
    `node ${m.node}, ${m.cores} × ${m.cpu_model}, ${m.memory_gb} GB; ${commit.commit?.slice(0, 7) ?? 'no commit'}${commit.dirty ? ' (dirty)' : ''}, ${date}`;
  return columns(head, [...loadRows(f), ...harvestRows(f), ...serveRows(f, m.cores)]);
}

/** A measured target's value in its unit. */
function measuredText(t: TargetResult): string {
  if (t.measured === null) return 'not measured';
  if (t.unit === 'bytes') return bytes(t.measured);
  if (t.unit === '×') return `${t.measured}×`;
  return `${t.measured.toLocaleString('en')} ${t.unit}`;
}

/**
 * Every target: bound, measured value, ratio to the bound and status; the
 * note says what was measured or which option would measure it.
 */
export function targetsTable(targets: readonly TargetResult[]): string {
  type Cells = readonly [string, string, string, string, string, string];
  const header: Cells = ['target', 'bound', 'measured', 'ratio', 'status', ''];
  const rows: Cells[] = targets.map((t) => [t.name, t.target, measuredText(t), t.ratio === null ? '' : `${t.ratio}`, t.status, t.note]);
  const width = (i: 0 | 1 | 2 | 3 | 4): number => Math.max(...[header, ...rows].map((r) => r[i].length));
  const w = [width(0), width(1), width(2), width(3), width(4)] as const;
  const line = (r: Cells): string =>
    `  ${r[0].padEnd(w[0])}  ${r[1].padEnd(w[1])}  ${r[2].padStart(w[2])}  ${r[3].padStart(w[3])}  ${r[4].padEnd(w[4])}  ${r[5]}`.trimEnd();
  return ['Targets (ratio = measured / target)', line(header), ...rows.map(line)].join('\n');
}
