/**
 * The performance targets the benchmark checks, each with the figure that
 * measures it (bench/figures.ts) and its bound. A run measures a target or
 * says which option would measure it; it never fills one in from another
 * run or a guess. "Flat" memory has no number of its own in the targets: the
 * benchmark reads it as at most 1.2 × the peak of the smaller run.
 */
import type { BenchFigures } from './figures';
import { ALL_FORMATS, allFormats, type BenchOptions } from './options';

/** met / not met against the bound; `reported` for a figure with no bound; `not measured` with the option that would measure it. */
export type TargetStatus = 'met' | 'not met' | 'reported' | 'not measured';

/** One target as a run found it. */
export interface TargetResult {
  readonly name: string;
  /** The bound, e.g. `≥ 10,000 records/s`; `reported` for a figure with no bound. */
  readonly target: string;
  readonly measured: number | null;
  readonly unit: string;
  /** measured / bound (≥ 1 meets an "at least", ≤ 1 an "at most"); null when not measured or unbounded. */
  readonly ratio: number | null;
  readonly status: TargetStatus;
  /** What the figure is, or, when not measured, the option that would measure it. */
  readonly note: string;
}

type Reading = { readonly value: number; readonly note?: string } | { readonly missing: string };

interface Target {
  readonly name: string;
  readonly unit: string;
  /** `>=`, `<=` or `<` a value; absent: reported only. */
  readonly bound?: { readonly op: '>=' | '<=' | '<'; readonly value: number };
  read(f: BenchFigures, o: BenchOptions): Reading;
}

const SQLITE = 'run without DATABASE_URL (SQLite)';
const POSTGRES = 'run with DATABASE_URL=postgres://… (a fresh database is made beside it)';
const SIX = 'run with --formats all (the default)';

/** The first reason a run cannot measure a figure, or null when it can. */
function needs(f: BenchFigures, o: BenchOptions, what: { database?: 'sqlite' | 'postgresql'; six?: boolean }): string | null {
  if (what.database === 'sqlite' && f.database !== 'sqlite') return SQLITE;
  if (what.database === 'postgresql' && f.database !== 'postgresql') return POSTGRES;
  if (what.six && !allFormats(o.formats)) return SIX;
  return null;
}

const value = (x: number | null, missing: string, note?: string): Reading =>
  x === null ? { missing } : note === undefined ? { value: x } : { value: x, note };

function cliLoad(database: 'sqlite' | 'postgresql', floor: number): Target {
  return {
    name: `oai-steward load, six formats, ${database === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
    unit: 'records/s',
    bound: { op: '>=', value: floor },
    read: (f, o) => {
      const why = needs(f, o, { database, six: true });
      return why ? { missing: why } : value(f.load_cli_rps, 'run without --skip-cli-load', `${f.records.toLocaleString('en')} records, spawn to exit`);
    },
  };
}

/** The targets, in the order they are printed. */
const TARGETS: readonly Target[] = [
  cliLoad('sqlite', 6_000),
  cliLoad('postgresql', 5_000),
  {
    name: 'load floor / oai-steward load, six formats',
    unit: '×',
    bound: { op: '<=', value: 3 },
    read: (f, o) => {
      const why =
        needs(f, o, { six: true }) ??
        (f.load_cli_rps === null ? 'run without --skip-cli-load' : f.floor_load_rps === null ? 'run without --skip-load-floor' : null);
      if (why) return { missing: why };
      const floor = f.floor_load_rps as number;
      const cli = f.load_cli_rps as number;
      return { value: Math.round((floor / cli) * 100) / 100, note: `${floor.toLocaleString('en')} / ${cli.toLocaleString('en')} records/s, ${f.database}` };
    },
  },
  {
    name: 'oai-steward load peak RSS, six formats',
    unit: 'MB',
    bound: { op: '<=', value: 300 },
    read: (f, o) =>
      needs(f, o, { six: true }) ? { missing: SIX } : value(f.load_cli_peak_rss_mb, 'run without --skip-cli-load', `${f.records.toLocaleString('en')} records`),
  },
  {
    name: 'oai-steward load peak RSS at N / at a smaller run (flat)',
    unit: '×',
    bound: { op: '<=', value: 1.2 },
    read: (f, o) =>
      needs(f, o, { six: true })
        ? { missing: SIX }
        : value(
            f.load_cli_rss_of_base,
            'run with --base-records M, M smaller than --records',
            `${f.load_cli_peak_rss_mb} MB at ${f.records.toLocaleString('en')} / ${f.base_load_cli_peak_rss_mb} MB at ${f.base_records?.toLocaleString('en')}`,
          ),
  },
  {
    name: 'bytes on disk a record after VACUUM, six formats',
    unit: 'B',
    bound: { op: '<=', value: 4096 },
    read: (f, o) =>
      needs(f, o, { six: true })
        ? { missing: SIX }
        : value(f.bytes_per_record, 'run without --skip-vacuum', `${f.database}, ${f.database === 'sqlite' ? 'VACUUM' : 'VACUUM FULL'}`),
  },
  ...ALL_FORMATS.map((prefix): Target => ({
    name: `ListRecords ${prefix} of the replay ceiling`,
    unit: '×',
    bound: { op: '>=', value: 0.5 },
    read: (f, o) => {
      const h = f.listrecords_formats[prefix];
      if (!h) return { missing: o.formats.includes(prefix) ? 'the store holds no record in this format' : SIX };
      return value(h.of_ceiling, 'no ceiling', `${h.rps.toLocaleString('en')} / ${h.ceiling_rps.toLocaleString('en')} records/s, ${f.database}`);
    },
  })),
  // The server's own share: both rates measured with the minimal client, so the client's parsing lowers neither.
  ...ALL_FORMATS.map((prefix): Target => ({
    name: `ListRecords ${prefix} of the replay ceiling, minimal client`,
    unit: '×',
    bound: { op: '>=', value: prefix === 'oai_dc' ? 0.5 : 0.4 },
    read: (f, o) => {
      const h = f.minimal_listrecords_formats[prefix];
      if (!h) return { missing: o.formats.includes(prefix) ? 'the store holds no record in this format' : SIX };
      return value(h.of_ceiling, 'no ceiling', `${h.rps.toLocaleString('en')} / ${h.ceiling_rps.toLocaleString('en')} records/s, ${f.database}`);
    },
  })),
  {
    name: 'PostgreSQL ListRecords of the replay ceiling',
    unit: '×',
    bound: { op: '>=', value: 0.5 },
    read: (f, o) =>
      needs(f, o, { database: 'postgresql' })
        ? { missing: POSTGRES }
        : value(f.listrecords_of_ceiling, 'no ceiling', `oai_dc, ${f.records.toLocaleString('en')} records`),
  },
  {
    name: 'oai-steward load rate at N / at a smaller run (linear)',
    unit: '×',
    bound: { op: '>=', value: 0.8 },
    read: (f) =>
      value(
        f.load_cli_rps_of_base,
        'run with --records 1000000 or 5000000 (compared with --base-records 100000, the default there)',
        `${f.load_cli_rps} records/s at ${f.records.toLocaleString('en')} / ${f.base_load_cli_rps} at ${f.base_records?.toLocaleString('en')}`,
      ),
  },
  {
    name: 'last page / first page of a harvest',
    unit: '×',
    bound: { op: '<=', value: 1.2 },
    read: (f) => ({
      value: f.page_ratio,
      note: `${f.page_ms_last} / ${f.page_ms_first} ms, the last page asked for with ${f.page_tokens === 'built' ? 'a token built from the store' : "the harvest's own token"}`,
    }),
  },
  {
    name: 'server peak RSS',
    unit: 'MB',
    bound: { op: '<', value: 200 },
    read: (f) => ({ value: f.server_peak_rss_mb, note: f.processes > 1 ? 'per process' : 'over the harvests' }),
  },
  {
    name: 'ListRecords on a primary and a read replica / on the primary',
    unit: '×',
    read: (f) =>
      value(
        f.replica_of_primary,
        'run with --replica (PostgreSQL)',
        `${f.replica_harvesters} harvests at once: ${f.replica_both_rps?.toLocaleString('en')} / ${f.replica_primary_rps?.toLocaleString('en')} records/s, median of pairs`,
      ),
  },
  {
    name: 'what the publication log adds to a publication',
    unit: 'ms',
    read: (f) =>
      value(
        f.log_publication_ms,
        'run without --skip-log-cost (and with the right to create a database, on PostgreSQL)',
        `${(f.log_sample_records ?? 0).toLocaleString('en')} records in ${f.log_publications ?? 0} publications; load time with the log / without ${f.load_with_log_of_without ?? '—'}×, ${f.database}`,
      ),
  },
  {
    name: 'store size',
    unit: 'bytes',
    read: (f) => ({ value: f.store_bytes, note: `${Math.round(f.store_bytes / f.records).toLocaleString('en')} B a record as loaded, ${f.database}` }),
  },
  {
    name: 'harvest-and-load from a local provider, every format',
    unit: 'records/s',
    bound: { op: '>=', value: 4_000 },
    read: (f, o) => {
      const why = needs(f, o, { six: true });
      const note = `${(f.harvest_records ?? 0).toLocaleString('en')} records harvested, spawn to exit; ${f.harvest_of_provider ?? '—'} × the provider's ListRecords, ${f.harvest_of_load ?? '—'} × oai-steward load; peak RSS ${f.harvest_peak_rss_mb ?? '—'} MB`;
      return why ? { missing: why } : value(f.harvest_rps, 'run without --skip-harvest', note);
    },
  },
];

function boundText(t: Target): string {
  if (!t.bound) return 'reported';
  const op = t.bound.op === '>=' ? '≥' : t.bound.op === '<=' ? '≤' : '<';
  return `${op} ${t.bound.value.toLocaleString('en')}${t.unit === '×' ? '×' : ` ${t.unit}`}`;
}

/**
 * Every target as this run found it.
 *
 * @example checkTargets(figures, options).filter((t) => t.status === 'not met')
 */
export function checkTargets(f: BenchFigures, o: BenchOptions): TargetResult[] {
  return TARGETS.map((t) => {
    const r = t.read(f, o);
    const base = { name: t.name, target: boundText(t), unit: t.unit };
    if ('missing' in r) return { ...base, measured: null, ratio: null, status: 'not measured', note: r.missing };
    const note = r.note ?? '';
    if (!t.bound) return { ...base, measured: r.value, ratio: null, status: 'reported', note };
    const ratio = t.bound.value === 0 ? null : Math.round((r.value / t.bound.value) * 100) / 100;
    const met = t.bound.op === '>=' ? r.value >= t.bound.value : t.bound.op === '<=' ? r.value <= t.bound.value : r.value < t.bound.value;
    return { ...base, measured: r.value, ratio, status: met ? 'met' : 'not met', note };
  });
}
