/**
 * The benchmark's command line: every option with its default, parsed once
 * into a frozen value. `--dry-run` prints what a run with these options would
 * do and exits, so a 5,000,000-record command line can be checked without
 * running it.
 */
import path from 'node:path';
import { PROJECT_ROOT } from '../server/paths';

/** The built-in metadata formats, in the order the registry offers them: `--formats all`. */
export const ALL_FORMATS: readonly string[] = ['oai_dc', 'oai_openaire', 'datacite', 'oai_datacite', 'marc21', 'mods'];

/** The records a large run compares its load rate and the loader's memory with, by default. */
export const DEFAULT_BASE_RECORDS = 100_000;

/** The command-line options, with their defaults. */
export interface BenchOptions {
  /** Records to generate (default 100,000). */
  readonly records: number;
  /** Server processes behind one port (default 1). */
  readonly processes: number;
  /** N ListRecords harvests at once (default 1: none). */
  readonly harvesters: number;
  /** The formats the repository offers: every built-in one (default, as the default configuration) or the listed prefixes. */
  readonly formats: readonly string[];
  /** How the store keeps the formats it writes (the `writtenFormats` setting): `stored` (default, as the default configuration) or `on-demand`. */
  readonly writtenFormats: 'stored' | 'on-demand';
  /** With `on-demand`, the written formats stored all the same (the `storedFormats` setting; default oai_dc). */
  readonly storedFormats: readonly string[];
  /** Seconds of GetRecord load (default 10). */
  readonly duration: number;
  /** GetRecord connections (default 32). */
  readonly connections: number;
  /** Repeats per timed page (default 7). */
  readonly repeats: number;
  /** Records per writeItems batch of the direct load (default 2000). */
  readonly batch: number;
  /** Harvest with Accept-Encoding: gzip (default identity). */
  readonly gzip: boolean;
  /** Keep the generated databases. */
  readonly keep: boolean;
  readonly skipGetRecord: boolean;
  /** Skip the load through `oai-steward load` (and with it the loader's memory and the load targets). */
  readonly skipCliLoad: boolean;
  /** Skip the direct load: the store `oai-steward load` wrote is the one served. */
  readonly skipDirectLoad: boolean;
  /** Skip the load floor (it writes the whole store a second time). */
  readonly skipLoadFloor: boolean;
  /** Skip the publication log's cost (bench/log-cost.ts: a sample loaded twice more). */
  readonly skipLogCost: boolean;
  /** Skip VACUUM and with it the bytes a record takes on disk. */
  readonly skipVacuum: boolean;
  /** Skip the harvest step (`oai-steward harvest` of the served store, bench/harvest.ts). */
  readonly skipHarvest: boolean;
  /**
   * Also load this many records through `oai-steward load`, to compare the
   * load rate and the loader's peak RSS with (0: none). Default
   * {@link DEFAULT_BASE_RECORDS} when `records` is larger, else 0.
   */
  readonly baseRecords: number;
  /** Also measure harvests on a primary against a primary and a read replica (bench/replica.ts; PostgreSQL only). */
  readonly replica: boolean;
  /** Pages each list harvest reads before it stops (0: every page, the default). */
  readonly harvestPages: number;
  /** Run the server under node --cpu-prof, writing profiles here. */
  readonly profile: string | undefined;
  /** The folder holding pyoai's `oaipmh` package, for the peer (bench/peer.ts). */
  readonly pyoai: string | undefined;
  /** Where the run's JSON goes (default bench/results). */
  readonly results: string;
  /** Added to the results file's name. */
  readonly label: string | undefined;
  readonly dryRun: boolean;
}

/** Records the publication log's cost is measured on at most (bench/log-cost.ts): enough publications of the default batch to average over, few enough to be a small part of a run. */
export const LOG_SAMPLE = 20_000;

export const USAGE = `usage: npm run bench -- [options]
  --records N          records to generate (default 100000; 1000000 and 5000000 are the large runs)
  --processes K        server processes behind one port (default 1)
  --harvesters N       also run N ListRecords harvests at once (default 1: none); with --processes K > 1,
                       against one process too, for the ratio
  --formats all|LIST   the formats the repository offers and the load writes: all six built-in ones
                       (default, as the default configuration) or a comma-separated list, e.g. oai_dc
  --written-formats stored|on-demand
                       how the store keeps the formats it writes (the writtenFormats setting; default stored)
  --stored-formats none|LIST
                       with --written-formats on-demand, the written formats stored all the same
                       (the storedFormats setting; default oai_dc)
  --duration S         seconds of GetRecord load (default 10)
  --connections C      GetRecord connections (default 32)
  --repeats R          repeats per timed page (default 7)
  --batch B            records per writeItems batch of the direct load (default 2000)
  --gzip               harvest with Accept-Encoding: gzip (default identity)
  --keep               keep the generated databases
  --skip-getrecord     skip the GetRecord load
  --skip-cli-load      skip the load of the same records as NDJSON through oai-steward load
  --skip-direct-load   skip the direct load; serve the store oai-steward load wrote
  --skip-load-floor    skip the load floor (it writes the whole store again)
  --skip-log-cost      skip the publication log's cost (up to ${LOG_SAMPLE.toLocaleString('en')} records loaded with and without the log)
  --skip-vacuum        skip VACUUM, and with it the bytes a record takes on disk
  --skip-harvest       skip the harvest step (oai-steward harvest of the served store into a fresh one)
  --base-records M     also load M records through oai-steward load and compare the load rate and the
                       loader's peak RSS (default ${DEFAULT_BASE_RECORDS} when --records is larger, else none; 0: none)
  --harvest-pages P    stop each list harvest after P pages (default: every page); the middle and last
                       pages are then reached with tokens built from the store
  --replica            PostgreSQL: also start a primary and a hot standby, load the records there, and
                       measure N harvests at once (--harvesters, else 4) against the primary's process
                       and against it and a process reading the standby (bench/replica.ts)
  --profile DIR        run the server under node --cpu-prof, writing profiles to DIR
  --pyoai DIR          also harvest the same store served by pyoai (DIR holds its oaipmh package; or PYOAI_PATH)
  --results DIR        where the run's JSON is written (default bench/results)
  --label TEXT         added to the results file's name
  --dry-run            print what the run would do, and exit
DATABASE_URL=postgres://… runs on PostgreSQL (a fresh database beside the one named), else SQLite in a temporary folder.
`;

/**
 * Parses argv; throws with the usage text on anything unknown or out of range.
 *
 * @example parseArgs(['--records', '1000000', '--harvest-pages', '2000']).baseRecords // 100000
 */
export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const o = {
    records: 100_000,
    processes: 1,
    harvesters: 1,
    formats: ALL_FORMATS,
    writtenFormats: 'stored' as 'stored' | 'on-demand',
    storedFormats: undefined as readonly string[] | undefined,
    duration: 10,
    connections: 32,
    repeats: 7,
    batch: 2000,
    gzip: false,
    keep: false,
    skipGetRecord: false,
    skipCliLoad: false,
    skipDirectLoad: false,
    skipLoadFloor: false,
    skipLogCost: false,
    skipVacuum: false,
    skipHarvest: false,
    baseRecords: undefined as number | undefined,
    harvestPages: 0,
    replica: false,
    profile: undefined as string | undefined,
    pyoai: env.PYOAI_PATH || undefined,
    results: path.join(PROJECT_ROOT, 'bench', 'results'),
    label: undefined as string | undefined,
    dryRun: false,
  };
  const fail = (why: string): never => {
    throw new Error(`${why}\n\n${USAGE}`);
  };
  const value = (i: number, name: string): string => argv[i + 1] ?? fail(`${name} needs a value`);
  const num = (i: number, name: string, min: number): number => {
    const v = Number(value(i, name));
    return Number.isSafeInteger(v) && v >= min ? v : fail(`${name} needs an integer ≥ ${min}`);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    switch (a) {
      case '--records':
        o.records = num(i++, a, 1);
        break;
      case '--processes':
        o.processes = num(i++, a, 1);
        break;
      case '--harvesters':
        o.harvesters = num(i++, a, 1);
        break;
      case '--formats': {
        // A bare --formats (the option's older form, when it was not the default) means all.
        const next = argv[i + 1];
        if (next === undefined || next.startsWith('--')) o.formats = ALL_FORMATS;
        else o.formats = parseFormats(argv[++i] as string, fail);
        break;
      }
      case '--written-formats': {
        const v = value(i++, a);
        o.writtenFormats = v === 'stored' || v === 'on-demand' ? v : fail('--written-formats is stored or on-demand');
        break;
      }
      case '--stored-formats': {
        const v = value(i++, a);
        o.storedFormats =
          v === 'none'
            ? []
            : v
                .split(',')
                .map((p) => p.trim())
                .filter((p) => p !== '');
        break;
      }
      case '--duration':
        o.duration = num(i++, a, 1);
        break;
      case '--connections':
        o.connections = num(i++, a, 1);
        break;
      case '--repeats':
        o.repeats = num(i++, a, 1);
        break;
      case '--batch':
        o.batch = num(i++, a, 1);
        break;
      case '--gzip':
        o.gzip = true;
        break;
      case '--keep':
        o.keep = true;
        break;
      case '--skip-getrecord':
        o.skipGetRecord = true;
        break;
      case '--skip-cli-load':
        o.skipCliLoad = true;
        break;
      case '--skip-direct-load':
        o.skipDirectLoad = true;
        break;
      case '--skip-load-floor':
        o.skipLoadFloor = true;
        break;
      case '--skip-log-cost':
        o.skipLogCost = true;
        break;
      case '--skip-vacuum':
        o.skipVacuum = true;
        break;
      case '--skip-harvest':
        o.skipHarvest = true;
        break;
      case '--base-records':
        o.baseRecords = num(i++, a, 0);
        break;
      case '--harvest-pages':
        o.harvestPages = num(i++, a, 2);
        break;
      case '--replica':
        o.replica = true;
        break;
      case '--profile':
        o.profile = path.resolve(value(i++, a));
        break;
      case '--pyoai':
        o.pyoai = path.resolve(value(i++, a));
        break;
      case '--results':
        o.results = path.resolve(value(i++, a));
        break;
      case '--label':
        o.label = value(i++, a);
        break;
      case '--dry-run':
        o.dryRun = true;
        break;
      case '--help':
      case '-h':
        process.stdout.write(USAGE);
        return process.exit(0);
      default:
        fail(`unknown option ${JSON.stringify(a)}`);
    }
  }
  if (o.replica && !/^postgres(ql)?:/.test(env.DATABASE_URL ?? '')) fail('--replica needs PostgreSQL: run with DATABASE_URL=postgres://…');
  if (o.skipCliLoad && o.skipDirectLoad) fail('--skip-cli-load and --skip-direct-load leave nothing to serve');
  const baseRecords = o.baseRecords ?? (o.records > DEFAULT_BASE_RECORDS ? DEFAULT_BASE_RECORDS : 0);
  if (baseRecords >= o.records) fail(`--base-records (${baseRecords}) must be smaller than --records (${o.records})`);
  if (baseRecords > 0 && o.skipCliLoad) fail('--base-records compares loads through oai-steward load: it cannot go with --skip-cli-load');
  const storedFormats = o.storedFormats ?? ['oai_dc'];
  if (o.storedFormats !== undefined && o.writtenFormats !== 'on-demand')
    fail('--stored-formats goes with --written-formats on-demand: a store keeping every format stores them all');
  const notOffered = storedFormats.filter((p) => !o.formats.includes(p));
  if (notOffered.length > 0) fail(`--stored-formats: ${notOffered.join(', ')} is not among the formats offered (${o.formats.join(', ')})`);
  if (o.label !== undefined && !/^[A-Za-z0-9_.-]+$/.test(o.label)) fail('--label takes letters, digits, _ . and - only (it is part of a file name)');
  return Object.freeze({ ...o, baseRecords, storedFormats });
}

function parseFormats(list: string, fail: (why: string) => never): readonly string[] {
  if (list === 'all') return ALL_FORMATS;
  const prefixes = list
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const unknown = prefixes.filter((p) => !ALL_FORMATS.includes(p));
  if (unknown.length > 0) fail(`--formats: ${unknown.join(', ')} is not a built-in format (${ALL_FORMATS.join(', ')})`);
  if (!prefixes.includes('oai_dc')) fail('--formats must include oai_dc: every repository offers it (OAI-PMH 3.4) and the harvests use it');
  return [...new Set(prefixes)];
}

/** Whether a run offers every built-in format, as the default configuration does. */
export function allFormats(formats: readonly string[]): boolean {
  return ALL_FORMATS.every((p) => formats.includes(p));
}

/**
 * What a run with these options will do, one step a line: `--dry-run` prints it.
 *
 * @example describePlan(parseArgs(['--records', '5000000']), 'sqlite')
 */
export function describePlan(o: BenchOptions, database: 'sqlite' | 'postgresql'): string {
  const n = (x: number): string => x.toLocaleString('en');
  const formats = allFormats(o.formats) ? `all six formats (${o.formats.join(', ')})` : o.formats.join(', ');
  const lines = [
    `records ${n(o.records)} on ${database}, offering ${formats}, ${o.writtenFormats === 'on-demand' ? `the written ones written on demand (writtenFormats: on-demand) but ${o.storedFormats.length > 0 ? o.storedFormats.join(', ') : 'none'} (storedFormats)` : 'every format stored'}`,
    o.skipDirectLoad ? 'direct load: skipped' : `direct load: generated records through the write path, ${n(o.batch)} a batch (streamed)`,
    o.skipCliLoad ? 'oai-steward load: skipped' : `oai-steward load: the same records as NDJSON (written streaming), timed with its peak RSS`,
    o.baseRecords > 0
      ? `base: ${n(o.baseRecords)} records through oai-steward load, to compare the rate and peak RSS with`
      : 'base: none (the load rate and loader memory at N are not compared with a smaller run)',
    o.skipLoadFloor ? 'load floor: skipped' : 'load floor: the same rows copied with the driver alone',
    o.skipLogCost
      ? 'publication log cost: skipped'
      : `publication log cost: ${n(Math.min(o.records, LOG_SAMPLE))} records loaded into a store without the log and one with it, twice, ${n(o.batch)} a publication`,
    o.harvestPages > 0
      ? `harvests: the first ${n(o.harvestPages)} pages of each list; middle and last pages reached with tokens built from the store`
      : 'harvests: every page of each list',
    `serving: ${o.processes} process(es)${o.harvesters > 1 ? `, ${o.harvesters} harvesters at once` : ''}, GetRecord ${o.skipGetRecord ? 'skipped' : `${o.connections} connections for ${o.duration} s`}`,
    o.replica
      ? `replica: a primary and a hot standby started for the run, the records loaded on the primary; ${o.harvesters > 1 ? o.harvesters : 4} harvests at once against its process, then against it and one reading the standby, 3 pairs`
      : 'replica: not measured (no --replica)',
    o.skipHarvest ? 'harvest: skipped' : 'harvest: oai-steward harvest of the served store (oai_dc) into a fresh store offering the same formats',
    o.skipVacuum ? 'disk: size as loaded only (no VACUUM)' : `disk: size as loaded, then after ${database === 'sqlite' ? 'VACUUM' : 'VACUUM FULL'}`,
    `pyoai peer: ${o.pyoai ?? 'not measured (no --pyoai)'}`,
    `results: ${o.results}`,
  ];
  return lines.map((l) => `  ${l}`).join('\n');
}
