/**
 * `oai-steward harvest` and `oai-steward sources`: harvest one provider
 * given by its base URL, or the sources of the configuration file, once
 * (for cron: exit status 0 when every source was harvested to its end
 * without refusals, 1 otherwise, 2 a usage error); and show each source's
 * state. server/cli.ts opens the provider and dispatches here.
 */
import { countsText } from '../../lib/outcome-counts';
import type { Config } from '../config';
import type { Provider } from '../provider';
import { type CliIo } from '../loader/cli';
import { refusalReport } from '../loader/refusal-report';
import { DEFAULT_POLITENESS, isHttpUrl, nextRun, SOURCE_NAME, type SourceConfig } from '../../lib/harvest/sources';
import { formatDatestamp } from '../../lib/oai/dates';
import { harvestSource } from './harvest';
import { HarvestStoreFailure, type HarvestOptions, type HarvestSummary } from './harvest-types';
import { InterruptedError, interruptedStatus, watchInterrupts } from '../interrupt';
import type { HarvestState, ListState, StoredRun } from '../../lib/store';
import { DeadlineError, RECORD_DEADLINE_MS, withDeadline } from '../runs';
import { shownJson, shownText } from '../../lib/shown-text';

export const HARVEST_USAGE = `usage: oai-steward harvest BASE_URL [options]
       oai-steward harvest [NAME…] [options]

  Harvests an OAI-PMH repository into this one: BASE_URL once, or the
  sources the configuration file declares (sources:, docs/harvesting.md),
  all of them or those NAMEd. Each page is one transaction; an interrupted
  run resumes from its last committed page; later runs are incremental.

  --prefix P         a metadataPrefix to harvest (repeatable; default oai_dc)
  --set S            a setSpec to harvest (repeatable; default the whole repository)
  --name N           the source's name for BASE_URL (default its host name)
  --from D           ask from D (YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ) instead of the last run's
  --until D          ask until D
  --delete-missing   a full harvest; the source's items it no longer has become tombstones
  --json             print the summaries as JSON on stdout

Exit status: 0 harvested, 1 records refused or a source failed, 2 usage error.
`;

export const SOURCES_USAGE = `usage: oai-steward sources [NAME] [--json]

  Each harvested or configured source: its lists (prefix and set), the last
  successful harvest and the from it asked, records and refusals, the last
  error, when a scheduled source runs next, and how its last run ended.
  With NAME, that source with its latest runs: each run's outcome, counts,
  warnings and refused records (page, identifier, field, reason).

Exit status: 0 shown, 1 the store did not answer, 2 usage error or no such source.
`;

/** How long \`sources\` waits for the store before it says so (milliseconds): it never hangs. */
export const SOURCES_DEADLINE_MS = 30_000;

interface HarvestArgs {
  positional: string[];
  prefixes: string[];
  sets: string[];
  name?: string;
  from?: string;
  until?: string;
  deleteMissing: boolean;
  json: boolean;
}

function parseArgs(args: readonly string[]): HarvestArgs | string {
  const out: HarvestArgs = { positional: [], prefixes: [], sets: [], deleteMissing: false, json: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string | null => inline ?? (i + 1 < args.length ? (args[++i] as string) : null);
    if (flag === '--delete-missing') out.deleteMissing = true;
    else if (flag === '--json') out.json = true;
    else if (['--prefix', '--set', '--name', '--from', '--until'].includes(flag)) {
      const v = value();
      if (v === null || v === '') return `${flag} needs a value`;
      if (flag === '--prefix') out.prefixes.push(v);
      else if (flag === '--set') out.sets.push(v);
      else out[flag.slice(2) as 'name' | 'from' | 'until'] = v;
    } else if (a.startsWith('--')) return `unknown option ${a}`;
    else out.positional.push(a);
  }
  return out;
}

/** A source name from a base URL's host (`archive.example.org`, `127.0.0.1-8080`). */
export function nameFromUrl(url: string): string {
  const u = new URL(url);
  return `${u.hostname}${u.port === '' ? '' : `-${u.port}`}`.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 64);
}

/**
 * The sources the store has harvested by their URL, as they were last
 * harvested: per source, the base URL of its list harvested last and the
 * prefixes and sets of its lists from that URL. Lists harvested before the
 * store kept their URL (migration 014_harvest_base_url) name none.
 *
 * @example storedSources(await store.harvestStates()) // [{ name: 'physics', baseUrl: 'https://…/oai', prefixes: ['oai_dc'], sets: [], politeness }]
 */
export function storedSources(states: readonly ListState[]): SourceConfig[] {
  const out: SourceConfig[] = [];
  for (const name of [...new Set(states.map((s) => s.source))]) {
    const lists = states.filter((s) => s.source === name && s.baseUrl !== null);
    const last = lists.reduce<ListState | undefined>((m, l) => (m === undefined || (l.lastAttempt ?? 0) > (m.lastAttempt ?? 0) ? l : m), undefined);
    if (last?.baseUrl == null || !isHttpUrl(last.baseUrl)) continue;
    const same = lists.filter((l) => l.baseUrl === last.baseUrl);
    out.push({
      name,
      baseUrl: last.baseUrl,
      prefixes: [...new Set(same.map((l) => l.prefix))],
      sets: [...new Set(same.map((l) => l.set))].filter((s) => s !== ''),
      politeness: DEFAULT_POLITENESS,
    });
  }
  return out;
}

/** The sources a command line names: one ad-hoc source, or configured ones, or ones the store has harvested before. */
function sourcesOf(a: HarvestArgs, config: Config, stored: readonly SourceConfig[]): SourceConfig[] | string {
  const first = a.positional[0];
  if (first !== undefined && /^https?:/i.test(first)) {
    if (a.positional.length > 1) return 'give one BASE_URL (configured sources are named without it)';
    if (!isHttpUrl(first)) return `${JSON.stringify(first)} is not a base URL (http or https, no query)`;
    const name = a.name ?? nameFromUrl(first);
    if (!SOURCE_NAME.test(name)) return `--name ${JSON.stringify(name)} must be a word of letters, digits, ".", "_" or "-"`;
    const configured = config.sources.find((s) => s.name === name);
    if (configured && configured.baseUrl !== first)
      return `the configuration's source ${name} has another baseUrl (${configured.baseUrl}); choose another --name`;
    return [
      {
        name,
        baseUrl: first,
        prefixes: a.prefixes.length > 0 ? a.prefixes : ['oai_dc'],
        sets: a.sets,
        politeness: configured?.politeness ?? DEFAULT_POLITENESS,
        ...(configured?.limits && { limits: configured.limits }),
      },
    ];
  }
  if (a.name !== undefined) return '--name is for a BASE_URL';
  if (a.positional.length === 0 && config.sources.length === 0) return 'no BASE_URL given and the configuration declares no sources';
  // A configured source wins over one of the same name the store harvested by its URL.
  const known = [...config.sources, ...stored.filter((s) => !config.sources.some((c) => c.name === s.name))];
  const unknown = a.positional.filter((n) => !known.some((s) => s.name === n));
  if (unknown.length > 0)
    return `no source named ${unknown.map((n) => JSON.stringify(n)).join(', ')} in the configuration or harvested before by its URL (known: ${known.map((s) => s.name).join(', ') || 'none'})`;
  const chosen = a.positional.length === 0 ? config.sources : known.filter((s) => a.positional.includes(s.name));
  return chosen.map((s) => ({ ...s, ...(a.prefixes.length > 0 && { prefixes: a.prefixes }), ...(a.sets.length > 0 && { sets: a.sets }) }));
}

const isUrl = (arg: string | undefined): boolean => arg !== undefined && /^https?:/i.test(arg);

/**
 * Why a source named on the command line (`--name`, or its host) may not
 * take its name, or null. A source's name is the id space of its records
 * (`NAME:…`), which once it is harvested only its harvests write
 * (lib/pipeline/governance.ts rule 6): a name local items already have ids
 * under (Fedora's `demo:1`) would leave them unloadable for good. A source
 * harvested before or configured under the name has it already.
 */
async function spaceTaken(store: HarvestState, source: SourceConfig, config: Config): Promise<string | null> {
  const name = source.name;
  if (config.sources.some((s) => s.name === name) || (await store.harvestStates(name)).length > 0) return null;
  const local = await store.localItemsInSpace(name, 4);
  if (local.length === 0) return null;
  const shown = `${local
    .slice(0, 3)
    .map((id) => shownText(JSON.stringify(id), 200))
    .join(', ')}${local.length > 3 ? ', …' : ''}`;
  return (
    `--name ${name}: local items have ids in the id space ${name}: (${shown}); a source named ${name} would own that space, ` +
    'and those items could never be loaded again; give the source another --name'
  );
}

/** The line a harvest prints for one source. */
export function summaryLine(s: HarvestSummary): string {
  if (s.locked) return `${s.source}: another process is harvesting it; nothing done`;
  const counts = countsText(s);
  const extra = [
    `${s.records} records`,
    `${s.pages} pages`,
    ...(s.retries > 0 ? [`${s.retries} retries`] : []),
    ...(s.resumed > 0 ? [`${s.resumed} lists resumed`] : []),
    ...(s.restarted > 0 ? [`${s.restarted} lists restarted`] : []),
  ];
  const end = s.completed ? 'complete' : `stopped: ${shownText(s.error ?? 'unknown')}`;
  return `${s.source}: ${counts} (${extra.join(', ')}); ${end}`;
}

/**
 * `oai-steward harvest`.
 *
 * @example await runHarvestCommand(['http://127.0.0.1:8080/oai', '--prefix', 'oai_dc'], config, openProvider, io)
 */
export async function runHarvestCommand(
  args: readonly string[],
  config: Config,
  open: () => Promise<Provider>,
  io: CliIo,
  extra: Partial<HarvestOptions> = {},
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(HARVEST_USAGE);
    return 0;
  }
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    io.stderr.write(`oai-steward harvest: ${parsed}\n\n${HARVEST_USAGE}`);
    return 2;
  }
  // The store is asked only when a name is not configured (it may be a source harvested before by its URL).
  const first = parsed.positional[0];
  const asksStore = first !== undefined && !isUrl(first) && parsed.positional.some((n) => !config.sources.some((s) => s.name === n));
  let p: Provider | undefined = asksStore ? await open() : undefined;
  let sources: SourceConfig[] | string;
  try {
    sources = sourcesOf(parsed, config, p ? storedSources(await p.store.harvestStates()) : []);
  } catch (err) {
    await p?.close();
    throw err;
  }
  if (typeof sources === 'string') {
    await p?.close();
    io.stderr.write(`oai-steward harvest: ${sources}\n\n${HARVEST_USAGE}`);
    return 2;
  }
  p ??= await open();
  const taken = isUrl(first) ? await spaceTaken(p.store, sources[0] as SourceConfig, config) : null;
  if (taken !== null) {
    await p.close();
    io.stderr.write(`oai-steward harvest: ${taken}\n`);
    return 2;
  }
  const summaries: HarvestSummary[] = [];
  const bar = terminalBar(io.stderr);
  let failure: HarvestStoreFailure | undefined;
  // SIGINT/SIGTERM stop the run between pages: every page is committed with its list's checkpoint (../interrupt.ts).
  const interrupt = watchInterrupts();
  const committed = { pages: 0, records: 0 };
  // Past 500 lines refusals are counted, not shown (../loader/refusal-report.ts); each run keeps its first thousand.
  const refusals = refusalReport((line) => bar.around(() => io.stderr.write(`${line}\n`)), {
    everyOne: "each source's run keeps its first thousand: oai-steward sources NAME",
  });
  try {
    for (const source of sources) {
      const summary = await harvestSource(
        { store: p.store, formats: p.formats, repository: { name: config.repositoryName, baseUrl: config.baseUrl } },
        source,
        {
          ...(parsed.from !== undefined && { from: parsed.from }),
          ...(parsed.until !== undefined && { until: parsed.until }),
          deleteMissing: parsed.deleteMissing,
          onRefusal: (r) => refusals.refuse(r),
          onWarning: (m) => bar.around(() => io.stderr.write(`warning: ${shownText(m)}\n`)),
          onPage: (e) => {
            committed.pages++;
            committed.records += e.records;
            bar.draw(
              `${e.source} ${e.prefix}${e.set === '' ? '' : ` ${shownText(e.set)}`}: page ${e.page}, ${e.listRecords}${e.completeListSize !== undefined ? ` of ${e.completeListSize}` : ''} records`,
            );
          },
          betweenPages: () => interrupt.check(),
          ...extra,
        },
      ).catch((err: unknown) => {
        // The database ended the run: the sources after it would meet the same database.
        if (!(err instanceof HarvestStoreFailure)) throw err;
        failure = err;
        return undefined;
      });
      bar.clear();
      if (summary === undefined) break;
      summaries.push(summary);
    }
  } catch (err) {
    if (!(err instanceof InterruptedError)) throw err;
    bar.clear();
    await p.checkpoint();
    io.stderr.write(
      `oai-steward harvest: interrupted by ${err.signal} after ${committed.pages} pages (${committed.records} records) committed in this run, ` +
        "each with its list's checkpoint; the page being fetched was not written: run the same command again to resume where it stopped\n",
    );
    return interruptedStatus(err.signal);
  } finally {
    interrupt.dispose();
    refusals.finish();
    bar.clear();
    // A store that failed may not answer its closing either: never wait on it for long.
    await (failure ? withDeadline(p.close(), RECORD_DEADLINE_MS, 'the store').catch(() => undefined) : p.close());
  }
  if (parsed.json) io.stdout.write(`${shownJson(summaries)}\n`);
  else for (const s of summaries) io.stdout.write(`${summaryLine(s)}\n`);
  if (failure) {
    io.stderr.write(`oai-steward harvest: ${failure.message}\n`);
    return 1;
  }
  return summaries.every((s) => s.completed && s.refused === 0) ? 0 : 1;
}

/** A one-line bar on a terminal, nothing elsewhere (a log stays clean). */
function terminalBar(stream: CliIo['stderr']): { draw(line: string): void; clear(): void; around(write: () => void): void } {
  const tty = stream.isTTY === true;
  let shown = '';
  const clear = (): void => {
    if (tty && shown !== '') stream.write('\r\x1b[K');
    shown = '';
  };
  return {
    draw(line) {
      if (!tty) return;
      shown = line.slice(0, Math.max(10, (stream.columns ?? 80) - 1));
      stream.write(`\r\x1b[K${shown}`);
    },
    clear,
    around(write) {
      const was = shown;
      clear();
      write();
      if (tty && was !== '') {
        shown = was;
        stream.write(was);
      }
    },
  };
}

/** One source's state, as `sources` shows it. */
export interface SourceReport {
  readonly name: string;
  readonly baseUrl: string | null;
  readonly schedule: string | null;
  /** Seconds; null when it never ran or is not scheduled. */
  readonly nextRun: number | null;
  readonly lists: readonly ListState[];
  /** Its latest run, with its warnings and refused records; null when none is recorded. */
  readonly lastRun: StoredRun | null;
  /** With `sources NAME`: its latest runs, newest first. */
  readonly runs?: readonly StoredRun[];
}

/** Every configured source, and every source the store has state of; with `only`, that one source and its latest runs. */
export async function sourceReports(config: Pick<Config, 'sources'>, p: Pick<Provider, 'store'>, now: number, only?: string): Promise<SourceReport[]> {
  const states = await p.store.harvestStates();
  const names = [...new Set([...config.sources.map((s) => s.name), ...states.map((s) => s.source)])].filter((n) => only === undefined || n === only);
  const stored = storedSources(states);
  const out: SourceReport[] = [];
  for (const name of names) {
    const c = config.sources.find((s) => s.name === name);
    const lists = states.filter((s) => s.source === name);
    const lastRun = lists.reduce<number | null>((m, l) => (l.lastAttempt !== null && (m === null || l.lastAttempt > m) ? l.lastAttempt : m), null);
    const next = c?.schedule ? Math.max(now, nextRun(c.schedule, lastRun)) : null;
    const runs = await p.store.latestRuns('harvest', name, only === undefined ? 1 : undefined);
    out.push({
      name,
      baseUrl: c?.baseUrl ?? stored.find((s) => s.name === name)?.baseUrl ?? null,
      schedule: c?.schedule?.text ?? null,
      nextRun: next,
      lists,
      lastRun: runs[0] ?? null,
      ...(only !== undefined && { runs }),
    });
  }
  return out;
}

/** A run in a line: when, how it ended, what it counted. */
export function runLine(r: StoredRun): string {
  const c = r.counts;
  const counts = `${c.pages} pages, ${c.records} records: inserted ${c.inserted}, updated ${c.updated}, unchanged ${c.unchanged}, deleted ${c.deleted}${c.superseded > 0 ? `, superseded ${c.superseded}` : ''}, refused ${c.refused}${c.retries > 0 ? `, ${c.retries} retries` : ''}`;
  return `${formatDatestamp(r.started)} to ${formatDatestamp(r.ended)}: ${r.outcome}${r.error !== null ? ` (${shownText(r.error)})` : ''}; ${counts}`;
}

/** A run as `sources NAME` shows it: its line, its warnings, its refused records. */
function runLines(r: StoredRun, indent: string): string[] {
  const out = [`${indent}${runLine(r)}`];
  for (const w of r.warnings) out.push(`${indent}  warning: ${shownText(w)}`);
  if (r.warningsOmitted > 0) out.push(`${indent}  … and ${r.warningsOmitted} more warnings`);
  for (const x of r.refusals)
    out.push(
      `${indent}  refused: ${x.page !== null ? `page ${x.page}, ` : ''}${x.identifier !== '' ? `${shownText(x.identifier)}, ` : ''}field ${shownText(x.field)}: ${shownText(x.reason)}`,
    );
  if (r.refusalsOmitted > 0) out.push(`${indent}  … and ${r.refusalsOmitted} more refused records`);
  return out;
}

/**
 * `oai-steward sources`: never waits on the store longer than
 * `deadlineMs` (a store that does not answer is said in one line, exit status 1).
 */
export async function runSourcesCommand(
  args: readonly string[],
  config: Config,
  open: () => Promise<Provider>,
  io: CliIo,
  options: { readonly deadlineMs?: number } = {},
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(SOURCES_USAGE);
    return 0;
  }
  const unknown = args.find((a) => a.startsWith('-') && a !== '--json');
  const names = args.filter((a) => !a.startsWith('-'));
  if (unknown !== undefined || names.length > 1) {
    io.stderr.write(`oai-steward sources: ${unknown !== undefined ? `unknown argument ${unknown}` : 'name one source'}\n\n${SOURCES_USAGE}`);
    return 2;
  }
  const only = names[0];
  let reports: SourceReport[];
  const read = async (): Promise<SourceReport[]> => {
    const p = await open();
    try {
      return await sourceReports(config, p, Math.floor(Date.now() / 1000), only);
    } finally {
      await p.close();
    }
  };
  try {
    reports = await withDeadline(read(), options.deadlineMs ?? SOURCES_DEADLINE_MS, 'the store');
  } catch (err) {
    if (!(err instanceof DeadlineError)) throw err;
    io.stderr.write(`oai-steward sources: ${err.message}; nothing shown (is another process holding it, or its disk full?)\n`);
    return 1;
  }
  if (only !== undefined && reports.length === 0) {
    io.stderr.write(`oai-steward sources: no source named ${JSON.stringify(only)} in the configuration or the store\n`);
    return 2;
  }
  if (args.includes('--json')) {
    io.stdout.write(`${shownJson(only !== undefined ? reports[0] : reports)}\n`);
    return 0;
  }
  if (reports.length === 0) io.stdout.write('no sources: none is configured and none was harvested\n');
  const at = (s: number | null): string => (s === null ? 'never' : formatDatestamp(s));
  for (const r of reports) {
    io.stdout.write(
      `${r.name}${r.baseUrl !== null ? ` ${r.baseUrl}` : ''}${r.schedule !== null ? `, schedule ${r.schedule}, next run ${at(r.nextRun)}` : ''}\n`,
    );
    if (r.lists.length === 0) io.stdout.write('  not harvested yet\n');
    for (const l of r.lists) {
      const state =
        l.token !== null
          ? `interrupted after page ${l.runPages} (resumes there)`
          : `last success ${at(l.lastSuccess)}, from ${shownText(l.lastFrom ?? 'the beginning')}`;
      io.stdout.write(
        `  ${shownText(l.prefix)}${l.set === '' ? '' : ` set ${shownText(l.set)}`}: ${state}; ${l.records} records, ${l.refused} refused${l.lastError !== null ? `; last error ${at(l.lastErrorAt)}: ${shownText(l.lastError)}` : ''}\n`,
      );
    }
    if (r.runs !== undefined) {
      io.stdout.write(r.runs.length === 0 ? '  no run recorded\n' : '  runs, newest first:\n');
      for (const run of r.runs) io.stdout.write(`${runLines(run, '    ').join('\n')}\n`);
    } else if (r.lastRun !== null) {
      io.stdout.write(`  last run ${runLine(r.lastRun)}\n`);
    }
  }
  return 0;
}
