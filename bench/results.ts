/**
 * The record of one benchmark run, as data: `bench/results/<date>-<commit>-<label>.json`
 * holds when it ran, on which commit (and whether the working tree had
 * changes), on what machine and database, with which options, every figure
 * (bench/figures.ts) and every target with its measured value
 * (bench/targets.ts). Runs are compared by reading these files, not prose.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../server/paths';
import type { BenchFigures } from './figures';
import { allFormats, type BenchOptions } from './options';
import type { TargetResult } from './targets';

/** The machine a run measured. */
export interface Machine {
  readonly cpu_model: string;
  readonly cores: number;
  readonly memory_gb: number;
  readonly os: string;
  readonly node: string;
  readonly database: { readonly kind: 'sqlite' | 'postgresql'; readonly version: string };
  /** 1-minute load average when the run began and when it ended: on a shared machine, how much else ran. */
  readonly load_average: { readonly start: number; readonly end: number };
}

/** One results file. */
export interface RunRecord {
  readonly kind: 'bench run';
  readonly date: string;
  readonly commit: string | null;
  readonly dirty: boolean | null;
  readonly machine: Machine;
  readonly options: RecordedOptions;
  readonly seconds: number;
  readonly figures: BenchFigures;
  readonly targets: readonly TargetResult[];
}

/** The options as a results file keeps them: no path of this machine in it. */
export type RecordedOptions = Omit<BenchOptions, 'results' | 'profile' | 'pyoai' | 'dryRun'> & { results: string; profile: boolean; pyoai: boolean };

/**
 * The options of a run, for its results file: the results folder relative
 * to the project (or `elsewhere`), and whether a profile folder or pyoai was
 * given rather than where they are.
 *
 * @example recordedOptions(parseArgs([])).results // 'bench/results'
 */
export function recordedOptions(o: BenchOptions): RecordedOptions {
  const { results, profile, pyoai, dryRun: _dryRun, ...rest } = o;
  const inside = path.relative(PROJECT_ROOT, results);
  return {
    ...rest,
    results: inside.startsWith('..') || path.isAbsolute(inside) ? 'elsewhere' : inside,
    profile: profile !== undefined,
    pyoai: pyoai !== undefined,
  };
}

function git(args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** The commit checked out (git rev-parse HEAD) and whether tracked files differ from it; nulls outside a git checkout. */
export function commitOf(): { commit: string | null; dirty: boolean | null } {
  const status = git(['status', '--porcelain', '--untracked-files=no']);
  return { commit: git(['rev-parse', 'HEAD']), dirty: status === null ? null : status !== '' };
}

/** The operating system's name and version (/etc/os-release where there is one) and the kernel. */
function osName(): string {
  let pretty = '';
  try {
    pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(fs.readFileSync('/etc/os-release', 'utf8'))?.[1] ?? '';
  } catch {
    // not Linux
  }
  return `${pretty ? `${pretty}, ` : ''}${os.type()} ${os.release()} ${os.arch()}`;
}

/**
 * Describes this machine. `loadStart` is the 1-minute load average read when the run began.
 *
 * @example machine({ kind: 'sqlite', version: '3.50.4' }, os.loadavg()[0])
 */
export function machine(database: Machine['database'], loadStart: number): Machine {
  const cpus = os.cpus();
  return {
    cpu_model: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memory_gb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: osName(),
    node: process.version,
    database,
    load_average: { start: Math.round(loadStart * 100) / 100, end: Math.round((os.loadavg()[0] ?? 0) * 100) / 100 },
  };
}

/** `100k`, `1m`, `5m`, `1000`: a record count in a file name. */
function size(n: number): string {
  if (n % 1_000_000 === 0) return `${n / 1_000_000}m`;
  if (n % 1000 === 0 && n >= 10_000) return `${n / 1000}k`;
  return String(n);
}

/**
 * The label of a run in its file name: database, size, formats, then what
 * sets it apart. Example: `sqlite-100k-6formats`, `postgresql-1m-oai_dc-2p-4h-sampled`.
 */
export function runLabel(o: BenchOptions, database: string): string {
  const parts = [database, size(o.records), allFormats(o.formats) ? '6formats' : o.formats.join('+')];
  if (o.writtenFormats === 'on-demand') parts.push('on-demand');
  if (o.writtenFormats === 'on-demand' && o.storedFormats.join(',') !== 'oai_dc')
    parts.push(`stored-${o.storedFormats.length > 0 ? o.storedFormats.join('+') : 'none'}`);
  if (o.processes > 1) parts.push(`${o.processes}p`);
  if (o.harvesters > 1) parts.push(`${o.harvesters}h`);
  if (o.replica) parts.push('replica');
  if (o.gzip) parts.push('gzip');
  if (o.harvestPages > 0) parts.push('sampled');
  if (o.label) parts.push(o.label);
  return parts.join('-');
}

/**
 * Writes the run to `dir` as `<date>-<commit>-<label>.json` (date and time
 * in UTC to the minute, the commit's first 7 digits) and returns the path.
 */
export function writeRun(dir: string, run: RunRecord, label: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const stamp = run.date.slice(0, 16).replace(':', '');
  const file = path.join(dir, `${stamp}Z-${(run.commit ?? 'nocommit').slice(0, 7)}-${label}.json`);
  fs.writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`);
  return file;
}
