/**
 * Every figure one benchmark run measures, by step, each documented where it
 * is declared: the `figures` of a results file (bench/results/*.json) are
 * exactly these keys. A figure a run does not measure is null, never a
 * guess.
 */
import type { CoresUsed } from './procfs';

/** The load step (bench/load.ts). */
export interface LoadFigures {
  /** Formats the repository offers (every built-in one by default; `--formats` narrows it) and the formats the store holds records in. */
  formats_offered: string[];
  formats_loaded: string[];
  /** The direct load: generated records through the write path in-process, `--batch` a transaction; null with --skip-direct-load. */
  load_seconds: number | null;
  load_rps: number | null;
  /** PostgreSQL: VACUUM ANALYZE after the load (not in any load rate). */
  load_analyze_seconds: number;
  /** The same records as NDJSON through `oai-steward load` (spawn to exit); null with --skip-cli-load. */
  load_cli_seconds: number | null;
  load_cli_rps: number | null;
  /** CLI load time / direct load time. */
  load_cli_of_direct: number | null;
  /** Peak RSS of the `oai-steward load` process (getrusage maxrss at exit, all its threads). */
  load_cli_peak_rss_mb: number | null;
  /** Bytes of the NDJSON the CLI loaded. */
  ndjson_bytes: number | null;
  /** `--base-records M`: M records through `oai-steward load` the same way, to compare with. */
  base_records: number | null;
  base_load_cli_rps: number | null;
  base_load_cli_peak_rss_mb: number | null;
  /** Load rate at N / at M (linear in N: ≥ 0.8), and peak RSS at N / at M (flat in N: near 1). */
  load_cli_rps_of_base: number | null;
  load_cli_rss_of_base: number | null;
  /** The load floor (bench/load-floor.ts): the same rows copied into a fresh store with the driver alone, inserts and commit timed. */
  floor_load_rps: number | null;
  load_of_floor: number | null;
  load_cli_of_floor: number | null;
  /** Average bytes of oai_dc XML of a live record (direct load only). */
  oai_dc_avg_bytes: number | null;
  /**
   * The publication log's cost (bench/log-cost.ts): the first `log_sample_records` records (at most
   * 20,000) loaded as the direct load loads them, `--batch` a publication, into a fresh store and
   * into one without the log's tables, in turn, twice, each time the least of its two; null with --skip-log-cost. `log_publication_ms`: the
   * difference of the two times over the `log_publications`, what the log adds to one publication;
   * `load_with_log_of_without`: load time with the log / without it.
   */
  log_sample_records: number | null;
  log_publications: number | null;
  log_publication_ms: number | null;
  load_with_log_of_without: number | null;
}

/** One format's ListRecords harvest beside its replay ceiling. */
export interface FormatHarvest {
  items: number;
  pages: number;
  rps: number;
  bytes_per_s: number;
  ceiling_rps: number;
  of_ceiling: number | null;
}

/** The serve and measure steps (bench/measure.ts). */
export interface ServeFigures {
  /** `--harvest-pages P`: each list harvest stopped after P pages (null: every page). */
  harvest_pages: number | null;
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
  /** The floor: bare keyset scan and page assembly in-process (bench/floor.ts), every page. */
  floor_listrecords_rps: number;
  floor_listidentifiers_rps: number;
  listrecords_of_ceiling: number | null;
  listrecords_of_floor: number | null;
  listidentifiers_of_ceiling: number | null;
  listidentifiers_of_floor: number | null;
  /** ListRecords in each format the store holds, each against its own replay ceiling (oai_dc: the harvest above). */
  listrecords_formats: Record<string, FormatHarvest>;
  /**
   * ListRecords in each format with the minimal client (bench/harvest-client.ts `count`: counts
   * `<record>` in the bytes, never parses), against the server and against the replay of its pages:
   * the share of the ceiling that is the server's own, not the client's.
   */
  minimal_listrecords_formats: Record<string, FormatHarvest>;
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
  metrics_listidentifiers_ratio: number | null;
  /** The list harvests with the next-page prefetch off (metrics on), best of 2, and with/without ratios against the metrics-on runs. */
  noprefetch_listrecords_rps: number;
  noprefetch_listidentifiers_rps: number;
  prefetch_listrecords_ratio: number | null;
  prefetch_listidentifiers_ratio: number | null;
  noprefetch_cpu_seconds: number;
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
  /** Median ms of the first, middle and last ListRecords page (oai_dc), and last / first. */
  page_ms_first: number;
  page_ms_middle: number;
  page_ms_last: number;
  page_ratio: number;
  /** Where the middle and last pages' tokens came from: the harvest itself, or built from the store (bench/deep-token.ts) when the harvest was sampled. */
  page_tokens: 'harvest' | 'built';
  /** Distinct processes that served pages (X-Served-By). */
  served_by: number;
  getrecord_rps: number | null;
  getrecord_p50_ms: number | null;
  getrecord_p99_ms: number | null;
  getrecord_errors: number | null;
  /** Peak RSS of the server over the harvests (the largest process, and all together). */
  server_peak_rss_mb: number;
  server_total_rss_mb: number;
  encoding: string;
}

/** The harvest step (bench/harvest.ts): `oai-steward harvest` of the served store into a fresh one; null with --skip-harvest. */
export interface HarvestFigures {
  harvest_records: number | null;
  /** Spawn to exit, Identify and ListSets included. */
  harvest_seconds: number | null;
  harvest_rps: number | null;
  harvest_list_pages: number | null;
  /** Peak RSS of the `oai-steward harvest` process. */
  harvest_peak_rss_mb: number | null;
  /** harvest_rps / the provider's own oai_dc ListRecords rate (listrecords_rps), and / `oai-steward load` (load_cli_rps). */
  harvest_of_provider: number | null;
  harvest_of_load: number | null;
}

/** The disk step: what the served store takes on disk. */
export interface DiskFigures {
  /** Bytes on disk after the run's loads and harvests (SQLite: the file, its WAL and shm; PostgreSQL: every table of the schema with indexes and TOAST). */
  store_bytes: number;
  /** The same after SQLite VACUUM or PostgreSQL VACUUM FULL; null with --skip-vacuum. */
  store_vacuumed_bytes: number | null;
  vacuum_seconds: number | null;
  /** store_vacuumed_bytes / records. */
  bytes_per_record: number | null;
}

/**
 * The replica step (bench/replica.ts, `--replica`, PostgreSQL): N ListRecords harvests at once
 * against one server process on a primary, and against that process and one reading a hot
 * standby of it (`readReplica`), the harvests spread over both; null without `--replica`.
 */
export interface ReplicaFigures {
  /** N, the harvests at once (`--harvesters`, or 4). */
  replica_harvesters: number | null;
  /** Aggregate records/s against the primary's process alone, and against both; the median of the pairs. */
  replica_primary_rps: number | null;
  replica_both_rps: number | null;
  /** Both / the primary's alone: the median of the pairs' ratios (each pair run one after the other). */
  replica_of_primary: number | null;
  replica_pair_ratios: number[] | null;
}

/** Every figure of one run. */
export type BenchFigures = { records: number; database: 'sqlite' | 'postgresql'; processes: number } & LoadFigures &
  ServeFigures &
  ReplicaFigures &
  HarvestFigures &
  DiskFigures;

/** The median of a non-empty list (of an even count, the mean of the middle two). @example median([3, 1, 2]) // 2 */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/**
 * The ratio of a figure to a limit, to two places (null when either is missing).
 *
 * @example ratio(69005, 121288) // 0.57
 */
export function ratio(x: number | null, limit: number | null): number | null {
  return x === null || limit === null || limit === 0 ? null : Math.round((x / limit) * 100) / 100;
}

/** Rounds to `digits` places. Example: `round(1.2345, 2)` is 1.23. */
export const round = (x: number, digits = 1): number => Math.round(x * 10 ** digits) / 10 ** digits;
