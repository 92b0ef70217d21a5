/**
 * The loader's commands of `oai-steward`: `load FILE…`,
 * `delete ID…` and `stats`. Each takes its arguments and the process's
 * streams, and returns the exit status: 0 done, 1 refused or failed, 2 a
 * usage error. server/cli.ts opens the provider and dispatches here.
 */
import { countsText } from '../../lib/outcome-counts';
import fs from 'node:fs';
import readline from 'node:readline';
import v8 from 'node:v8';
import { RefusedError, type RunOutcome, type RunReport, type RunReports } from '../../lib/store';
import { NO_COUNTS, RunLog, runRefusal, WarningTally } from '../../lib/run-report';
import { shownText } from '../../lib/shown-text';
import { storeFailure } from '../db/errors';
import { lastLoad, recordRunQuietly } from '../runs';
import { formatRefusal, refusalReport } from './refusal-report';
import type { Provider } from '../provider';
import { openInput, type ByteCounter, type Input } from './input';
import { runLoad } from './load';
import { DEFAULT_BATCH_SIZE, type LoadSummary } from './load-types';
import { startProgress } from './progress';
import { formatStats } from './stats';
import { internalIdFor } from './xml-record';
import { interruptedStatus, watchInterrupts } from '../interrupt';
import { isDiskFull, isUnavailable } from '../db/errors';

/** The process's streams, injectable for tests. */
export interface CliIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}

export const LOAD_USAGE = `usage: oai-steward load [options] FILE…

  FILE is NDJSON or a JSON array of records (docs/record-format.md), a saved
  OAI-PMH ListRecords, GetRecord or ListSets response, a folder of oai_dc
  files (one record per file, the internal id is the file name without .xml,
  percent-decoded), or - for standard input. The whole load is one
  transaction: it commits completely or not at all.

  --dry-run                 validate and count, then roll back: nothing is written
  --partial                 commit the valid records; list the refused ones
  --delete-missing          turn live items absent from the input into tombstones (a full export)
  --keep-datestamps         a migration of this repository's own records: records new to the store
                            keep their datestamps (never another repository's; docs/loading.md)
  --sets FILE               declare sets first, from a JSON array [{"spec","name","description"}]
  --refusals FILE           write every refusal to FILE, one JSON object a line (stderr shows the first 500)
  --batch-size N            records per write (default ${DEFAULT_BATCH_SIZE})
  --progress-interval S     seconds between progress lines when stderr is not a terminal (default 5)
  --json                    print the summary as JSON on stdout

Exit status: 0 loaded, 1 records refused or the load failed, 2 usage error.
`;

export const DELETE_USAGE = `usage: oai-steward delete [--identifier] [ID…]

  Turns items into tombstones (deleted records; their identifiers are never
  reused). IDs are internal ids, or oai-identifiers with --identifier; with
  no ID they are read one per line from standard input. All or nothing: an
  unknown id refuses the whole command.
`;

export const STATS_USAGE = `usage: oai-steward stats [--json]

  Items, deleted items, items per set and per format, earliest and latest datestamp,
  and the loader's last run on this store (records written, refused, duration, when).
`;

export { formatRefusal };

/**
 * What the process holds, for `OAI_STEWARD_REPORT_MEMORY=1` (the loader's
 * memory test): the JavaScript heap in use after a full garbage collection
 * when node runs with `--expose-gc` (so it counts what is reachable, not
 * garbage awaiting collection), less compiled code, and the peak resident
 * set size so far.
 */
function memoryLine(): string {
  const gc = (globalThis as { gc?: () => void }).gc;
  // Twice: objects freed by the first collection's finalizers go in the second.
  gc?.();
  gc?.();
  // Compiled code is left out: V8 optimises more functions in a longer run, and that
  // code is not data the loader keeps (v8.getHeapSpaceStatistics names the spaces).
  let heap = 0;
  for (const space of v8.getHeapSpaceStatistics()) {
    if (!space.space_name.startsWith('code')) heap += space.space_used_size;
  }
  return `memory: heapUsed ${heap} bytes, peak rss ${process.resourceUsage().maxRSS * 1024} bytes`;
}

interface LoadArgs {
  files: string[];
  dryRun: boolean;
  partial: boolean;
  deleteMissing: boolean;
  keepDatestamps: boolean;
  json: boolean;
  setsFile?: string;
  /** Where every refusal is written, one JSON object a line. */
  refusalsFile?: string;
  batchSize?: number;
  progressInterval: number;
}

function parseLoadArgs(args: readonly string[]): LoadArgs | string {
  const out: LoadArgs = { files: [], dryRun: false, partial: false, deleteMissing: false, keepDatestamps: false, json: false, progressInterval: 5 };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string | null => inline ?? (i + 1 < args.length ? (args[++i] as string) : null);
    switch (flag) {
      case '--dry-run':
        out.dryRun = true;
        break;
      case '--partial':
        out.partial = true;
        break;
      case '--delete-missing':
        out.deleteMissing = true;
        break;
      case '--keep-datestamps':
        out.keepDatestamps = true;
        break;
      case '--json':
        out.json = true;
        break;
      case '--refusals': {
        const v = inline ?? args[++i];
        if (v === undefined || v === '') return '--refusals needs a file name';
        out.refusalsFile = v;
        break;
      }
      case '--sets': {
        const v = value();
        if (v === null) return '--sets needs a file';
        out.setsFile = v;
        break;
      }
      case '--batch-size':
      case '--progress-interval': {
        const v = value();
        if (v === null || !/^\d+$/.test(v) || Number(v) < (flag === '--batch-size' ? 1 : 0)) return `${flag} needs a whole number`;
        if (flag === '--batch-size') out.batchSize = Number(v);
        else out.progressInterval = Number(v);
        break;
      }
      case '--':
        out.files.push(...args.slice(i + 1));
        i = args.length;
        break;
      default:
        if (a.startsWith('--')) return `unknown option ${a}`;
        out.files.push(a);
    }
  }
  if (out.files.length === 0) return 'no input given (a FILE, a folder, or - for standard input)';
  if (out.files.filter((f) => f === '-').length > 1) return 'standard input (-) can be read only once';
  return out;
}

/**
 * `oai-steward load`: opens the inputs, loads them, prints refusals on
 * stderr as they are found and the summary on stdout.
 *
 * @example await runLoadCommand(['--partial', 'records.ndjson'], openProvider, io) // 0, 1 or 2
 */
export async function runLoadCommand(args: readonly string[], open: () => Promise<Provider>, io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(LOAD_USAGE);
    return 0;
  }
  const parsed = parseLoadArgs(args);
  if (typeof parsed === 'string') {
    io.stderr.write(`oai-steward load: ${parsed}\n\n${LOAD_USAGE}`);
    return 2;
  }
  const counter: ByteCounter = { bytesRead: 0 };
  const inputs: Input[] = [];
  for (const f of parsed.files) {
    try {
      inputs.push(await openInput(f, io.stdin, counter));
    } catch (err) {
      io.stderr.write(`oai-steward load: cannot read ${f}: ${(err as Error).message}\n`);
      return 2;
    }
  }
  const sizes = inputs.map((i) => i.size);
  const totalBytes = sizes.every((s): s is number => s !== null) ? sizes.reduce((a, b) => a + b, 0) : null;
  let everyOne: number | undefined;
  if (parsed.refusalsFile !== undefined) {
    try {
      everyOne = fs.openSync(parsed.refusalsFile, 'w');
    } catch (err) {
      io.stderr.write(
        `oai-steward load: cannot write the refusals file ${shownText(parsed.refusalsFile)}: ${shownText(err instanceof Error ? err.message : String(err))}\n`,
      );
      return 2;
    }
  }
  const p = await open();
  let summary: LoadSummary;
  // The run's report in the store (lib/store/bookkeeping.ts `RunReports`), the one record of a load, however it ends: its
  // refused records and warnings, bounded; `/metrics`, `stats` and `doctor` read the last one back.
  const log = new RunLog();
  const startedAt = Math.floor(Date.now() / 1000);
  const started = performance.now();
  const seconds = (): number => (performance.now() - started) / 1000;
  // SIGINT/SIGTERM stop the load after the batch being written; it rolls back (../interrupt.ts).
  const interrupt = watchInterrupts();
  const bar = startProgress({ stream: io.stderr, totalBytes, interval: parsed.progressInterval });
  let read = 0;
  const progress = {
    update: (records: number, bytes: number) => {
      read = records;
      bar.update(records, bytes);
    },
    finish: () => bar.finish(),
  };
  // Refusals of one cause (a format the configuration does not declare) are named once, then counted.
  // Past 500 lines they are counted, not shown: `--refusals FILE` keeps every one.
  const refusals = refusalReport((line) => io.stderr.write(`${line}\n`), {
    everyOne: everyOne === undefined ? 'name a file with --refusals FILE to keep every one' : `every one is in ${shownText(parsed.refusalsFile ?? '')}`,
  });
  // Warnings of one kind (set descriptions dropped) are shown a few times, then counted in one line.
  const tally = new WarningTally();
  const warn = (m: string): void => {
    const shown = shownText(m);
    log.warning(shown);
    io.stderr.write(`warning: ${shown}\n`);
  };
  try {
    summary = await runLoad(p, inputs, {
      dryRun: parsed.dryRun,
      partial: parsed.partial,
      deleteMissing: parsed.deleteMissing,
      keepDatestamps: parsed.keepDatestamps,
      batchSize: parsed.batchSize ?? DEFAULT_BATCH_SIZE,
      ...(parsed.setsFile !== undefined && { setsFile: parsed.setsFile }),
      counter,
      progress,
      interrupt,
      onRefusal: (r) => {
        log.refusal(runRefusal(r, null, null));
        refusals.refuse(r);
        if (everyOne !== undefined)
          fs.writeSync(everyOne, `${JSON.stringify({ source: r.source ?? null, internalId: r.internalId, field: r.field, reason: r.reason })}\n`);
      },
      onWarning: (m, kind) => {
        if (tally.shows(kind ?? m, m)) warn(m);
      },
      ...(process.env.OAI_STEWARD_REPORT_MEMORY === '1' && { probe: () => io.stderr.write(`${memoryLine()}\n`) }),
    }).catch(async (err: unknown) => {
      const why = storeFailure(err) ?? (err instanceof Error ? err.message : String(err));
      await recordLoadRun(p.store, log, { started: startedAt, seconds: seconds(), read, outcome: 'failed', error: why });
      throw err;
    });
    for (const line of tally.more()) warn(line);
    const unrecorded = await recordLoadRun(p.store, log, {
      started: startedAt,
      seconds: seconds(),
      summary,
      ...(summary.interrupted === true && { outcome: 'interrupted' as const, error: 'stopped by a signal; nothing was written' }),
    });
    if (unrecorded !== null) io.stderr.write(`warning: ${unrecorded}\n`);
    if (summary.interrupted) await p.checkpoint();
  } catch (err) {
    // The database went away or its disk filled: one line saying what became of the load, no stack.
    const lost = isUnavailable(err) ? 'the database connection was lost' : isDiskFull(err) ? "the database's disk is full" : undefined;
    if (lost === undefined) throw err;
    io.stderr.write(
      `oai-steward load: stopped after ${read} records read: ${lost} (${firstLine(err)}); nothing was committed, the store is as it was before the load ` +
        `(a load is one transaction); ${isDiskFull(err) ? 'free space where the database writes, then run' : 'once the database answers, run'} the same command again\n`,
    );
    return 1;
  } finally {
    interrupt.dispose();
    refusals.finish();
    if (everyOne !== undefined) fs.closeSync(everyOne);
    await p.close().catch(() => undefined);
  }
  const signal = interrupt.received();
  if (summary.interrupted && signal !== undefined) {
    io.stderr.write(
      `oai-steward load: interrupted by ${signal} after ${read} records read: nothing was committed, the store is as it was before the load ` +
        '(a load is one transaction, rolled back after the batch being written); run the same command again to load\n',
    );
    return interruptedStatus(signal);
  }
  const ok = summary.refused === 0;
  if (parsed.json) {
    io.stdout.write(`${JSON.stringify(summary)}\n`);
  } else {
    const counts = countsText(summary);
    const what = summary.dryRun
      ? 'dry run: nothing was written'
      : summary.committed
        ? 'committed'
        : 'nothing was written: refused records roll the whole load back (fix them, or use --partial)';
    io.stdout.write(`${counts} (${summary.records} records${summary.sets > 0 ? `, ${summary.sets} sets` : ''}); ${what}\n`);
  }
  return ok ? 0 : 1;
}

/** A load run as it ended, for its report: see {@link recordLoadRun}. */
export interface LoadRunEnd {
  /** When it started, seconds since the Unix epoch. */
  readonly started: number;
  /** How long it took, in seconds. */
  readonly seconds: number;
  readonly outcome?: RunOutcome;
  /** Its summary, when it returned one; a load that failed has none. */
  readonly summary?: LoadSummary;
  /** Without a summary: records read before it failed. */
  readonly read?: number;
  readonly error?: string;
}

/**
 * Records a load run's report in the store (lib/store/bookkeeping.ts `RunReports`)
 * with what `log` gathered: its outcome is the summary's (`completed`, or
 * `stopped` when refused records rolled it back) unless given (`failed`,
 * or `interrupted` for a load a signal stopped). Never throws and never
 * waits long on a store that is gone; answers why the report was not
 * recorded, or null.
 *
 * @example await recordLoadRun(p.store, log, { started, seconds: 1.5, outcome: 'interrupted', error: 'stopped by SIGINT; nothing was written' });
 */
export function recordLoadRun(store: Pick<RunReports, 'recordRun'>, log: RunLog, run: LoadRunEnd): Promise<string | null> {
  return recordRunQuietly(store, loadRunReport(log, run));
}

/**
 * A load run's report: see {@link recordLoadRun}. It says what the load
 * committed (`written`: nothing unless its transaction committed) and how
 * long it took; a load that failed counts the records it read and refused
 * before it did.
 *
 * @example loadRunReport(log, { started, seconds: 2.5, summary }).written // 3
 */
export function loadRunReport(log: RunLog, run: LoadRunEnd): RunReport {
  const s = run.summary;
  const rolledBack = s !== undefined && !s.committed && !s.dryRun;
  if (s?.dryRun === true) log.warning('a dry run: nothing was written');
  return log.report({
    kind: 'load',
    source: null,
    started: run.started,
    ended: Math.floor(Date.now() / 1000),
    outcome: run.outcome ?? (rolledBack ? 'stopped' : 'completed'),
    counts:
      s === undefined
        ? { ...NO_COUNTS, records: run.read ?? 0, refused: log.refusals.length + log.refusalsOmitted }
        : {
            ...NO_COUNTS,
            records: s.records,
            inserted: s.inserted,
            // A run's report counts every update as one.
            updated: s.updated + s.revived + s.formatAdded,
            unchanged: s.unchanged,
            deleted: s.deleted,
            superseded: s.superseded,
            refused: s.refused,
          },
    error: run.error ?? (rolledBack ? 'refused records roll the whole load back; nothing was written' : null),
    written: s?.committed === true ? s.inserted + s.updated + s.revived + s.formatAdded + s.deleted : 0,
    seconds: run.seconds,
  });
}

/** An error's first line (a driver's message may go on with a stack or the statement). */
function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}

/**
 * `oai-steward delete`: turns items into tombstones, all or nothing.
 *
 * @example await runDeleteCommand(['report 12'], openProvider, io) // 0
 */
export async function runDeleteCommand(args: readonly string[], open: () => Promise<Provider>, io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(DELETE_USAGE);
    return 0;
  }
  const byIdentifier = args.includes('--identifier');
  const unknown = args.find((a) => a.startsWith('--') && a !== '--identifier' && a !== '--');
  if (unknown) {
    io.stderr.write(`oai-steward delete: unknown option ${unknown}\n\n${DELETE_USAGE}`);
    return 2;
  }
  let ids = args.filter((a) => a !== '--identifier' && a !== '--');
  if (ids.length === 0) {
    ids = [];
    for await (const line of readline.createInterface({ input: io.stdin, crlfDelay: Infinity })) if (line.trim() !== '') ids.push(line.trim());
    if (ids.length === 0) {
      io.stderr.write(`oai-steward delete: no id given\n\n${DELETE_USAGE}`);
      return 2;
    }
  }
  const p = await open();
  try {
    if (byIdentifier) {
      const mapped: string[] = [];
      for (const i of ids) {
        const r = internalIdFor(p.policy, i);
        if ('error' in r) {
          io.stderr.write(`refused: ${i}: ${r.error}\n`);
          return 1;
        }
        mapped.push(r.id);
      }
      ids = mapped;
    }
    const results = await p.store.deleteItems(ids);
    for (const r of results) {
      io.stdout.write(`${r.outcome === 'deleted' ? 'deleted' : 'already deleted'}: ${JSON.stringify(r.internalId)} (${r.identifier})\n`);
    }
    return 0;
  } catch (err) {
    if (!(err instanceof RefusedError)) throw err;
    for (const r of err.refusals) io.stderr.write(`refused: ${formatRefusal(r)}\n`);
    io.stderr.write('nothing was deleted\n');
    return 1;
  } finally {
    await p.close();
  }
}

/**
 * `oai-steward stats`: the store's statistics as text, or JSON with `--json`.
 *
 * @example await runStatsCommand(['--json'], openProvider, io) // 0
 */
export async function runStatsCommand(args: readonly string[], open: () => Promise<Provider>, io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(STATS_USAGE);
    return 0;
  }
  const bad = args.find((a) => a !== '--json');
  if (bad) {
    io.stderr.write(`oai-steward stats: unknown argument ${bad}\n\n${STATS_USAGE}`);
    return 2;
  }
  const p = await open();
  try {
    const s = await p.store.stats();
    const last = await lastLoad(p.store);
    io.stdout.write(args.includes('--json') ? `${JSON.stringify({ ...s, lastLoad: last }, null, 2)}\n` : formatStats(s, last));
    return 0;
  } finally {
    await p.close();
  }
}
