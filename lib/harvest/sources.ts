/**
 * The sources a hub harvests, as the configuration file's `sources:`
 * declares them (docs/harvesting.md), and when each runs next. Pure: the
 * configuration reader (server/config-file.ts) turns a problem into a
 * ConfigError naming the line.
 */

import { escapeText } from '../xml/chars';
import { DC_NS, OAI_DC_NS, OAI_DC_SCHEMA, XSI_NS } from '../xml/namespaces';

/** When a source is harvested inside `serve`. */
export type Schedule =
  /** Every `seconds`, counted from the last run (its last request, as the store records it). */
  | { readonly kind: 'every'; readonly seconds: number; readonly text: string }
  /** Once a day at `minute` minutes after midnight UTC. */
  | { readonly kind: 'daily'; readonly minute: number; readonly text: string };

/** How gently a source is asked. */
export interface Politeness {
  /** Milliseconds between two requests to the source. Default 0. */
  readonly delayMs: number;
  /** Milliseconds one request may take, headers and body. Default 60 s. */
  readonly timeoutMs: number;
  /** Attempts after the first for one request (connection errors, 5xx, 503/429, a page that is not XML). Default 5. */
  readonly retries: number;
}

/** One source. */
export interface SourceConfig {
  /** Its name in the hub: a word of letters, digits, `.`, `_`, `-`; part of every internal id and set it brings. */
  readonly name: string;
  readonly baseUrl: string;
  /** metadataPrefixes harvested, in order. Default `oai_dc`. */
  readonly prefixes: readonly string[];
  /** setSpecs harvested; none: the whole repository. */
  readonly sets: readonly string[];
  readonly schedule?: Schedule;
  readonly politeness: Politeness;
  /**
   * The source's id in a registry of repositories (`opendoar:1234`,
   * `re3data:r3d100010468`, `doaj:…`, `dris:…`, `ror:…`), as the OpenAIRE
   * Guidelines (4.0, use of OAI-PMH, compatibility of aggregators) ask an
   * aggregator to name the repositories it harvests.
   */
  readonly repositoryId?: string;
  /** What one answer, one record and one run may take; absent ones are {@link DEFAULT_HARVEST_LIMITS}. */
  readonly limits?: Partial<HarvestLimits>;
}

/** What a source may cost this side: the caps of one answer and one record, and the bounds of one run. */
export interface HarvestLimits {
  /** The most bytes one answer may take, as sent and once gzip or deflate is inflated. */
  readonly pageBytes: number;
  /** The most bytes one record's metadata (or one about container, or a header's text) may take; a larger record is refused alone. */
  readonly recordBytes: number;
  /** Pages one run reads, over all its lists; at the bound the run stops where the next one resumes. */
  readonly pages: number;
  /** Records one run reads, over all its lists. */
  readonly records: number;
  /** Seconds one run may take, the waits a Retry-After asks for and a slow answer's body included. */
  readonly seconds: number;
  /** Sets one run declares from the source's ListSets; the list is read a page at a time, so this bounds the rows it adds, not only memory. */
  readonly sets: number;
}

/**
 * The limits of a source that names none:
 *
 * - a page of 64 MiB, some times the largest pages real providers send (a
 *   page of 5,000 records is about 17 MB), far below what a small gzip bomb
 *   inflates to;
 * - a record of 8 MiB, the loader's own largest record (a long MODS or MARC
 *   record is about 100 KB);
 * - 100,000 pages, 10,000,000 records and 24 hours a run: a full harvest of
 *   the largest repositories (tens of millions of records at 100 to 1,000 a
 *   page) takes several runs, each resuming where the last stopped, while a
 *   source that answers a new token for ever stops within a day;
 * - 100,000 sets a run: the sets of a repository are a few thousand at most
 *   (an institutional repository's collections, a journal platform's
 *   journals), and a ListSets naming new sets for ever stops there.
 */
export const DEFAULT_HARVEST_LIMITS: HarvestLimits = Object.freeze({
  pageBytes: 64 * 1024 * 1024,
  recordBytes: 8 * 1024 * 1024,
  pages: 100_000,
  records: 10_000_000,
  seconds: 24 * 3600,
  sets: 100_000,
});

/** A source's limits, each one it leaves out the default. */
export function limitsOf(source: Pick<SourceConfig, 'limits'>): HarvestLimits {
  return { ...DEFAULT_HARVEST_LIMITS, ...source.limits };
}

export const DEFAULT_POLITENESS: Politeness = { delayMs: 0, timeoutMs: 60_000, retries: 5 };

/** A source name: it starts every internal id the source brings (`NAME:`), so it holds no colon. */
export const SOURCE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const SOURCE_KEYS = new Set(['name', 'baseUrl', 'prefixes', 'sets', 'schedule', 'politeness', 'repositoryId', 'limits']);

/**
 * A registry's id of a repository: the OpenAIRE Guidelines' registries
 * (OpenDOAR, re3data, DOAJ, DRIS; the number without leading zeros) and ROR
 * for an institution's repository.
 */
const REPOSITORY_ID: readonly (readonly [string, RegExp, string])[] = [
  ['opendoar', /^[1-9]\d{0,9}$/, 'a number without leading zeros'],
  ['dris', /^[1-9]\d{0,9}$/, 'a number without leading zeros'],
  ['re3data', /^r3d1\d{8}$/, '"r3d" and nine digits'],
  ['doaj', /^[A-Za-z0-9][A-Za-z0-9-]{3,63}$/, "the journal's DOAJ id"],
  ['ror', /^0[a-hj-km-np-tv-z0-9]{6}\d{2}$/, 'nine characters, as in https://ror.org/03yrm5c26'],
];

/**
 * Why a repository id is not one a registry gives, or null when it is.
 *
 * @example repositoryIdProblem('opendoar:0123') // 'the opendoar id must be a number without leading zeros'
 */
export function repositoryIdProblem(id: string): string | null {
  const colon = id.indexOf(':');
  const scheme = colon < 0 ? '' : id.slice(0, colon);
  const rule = REPOSITORY_ID.find(([s]) => s === scheme);
  if (!rule) return `must be a registry's id: ${REPOSITORY_ID.map(([s]) => `${s}:…`).join(', ')}`;
  return rule[1].test(id.slice(colon + 1)) ? null : `the ${scheme} id must be ${rule[2]}`;
}

/**
 * The description of a source's own set (`source:NAME`): a Dublin Core
 * record naming the repository, its registry id and its base URL, as a set
 * description may (OAI-PMH 2.0 section 4.6, setDescription). The registry id
 * is carried here and not in each record's provenance: provenance.xsd closes
 * `originDescriptionType` to four elements, so the `repositoryId` element
 * the OpenAIRE Guidelines propose there would make every record invalid.
 *
 * @example sourceSetDescription({ name: 'uu', baseUrl: 'https://x.example/oai', repositoryId: 'opendoar:1234' }, 'Utrecht')
 */
export function sourceSetDescription(source: Pick<SourceConfig, 'name' | 'baseUrl' | 'repositoryId'>, repositoryName: string): string {
  const dc = (el: string, v: string): string => `<dc:${el}>${escapeText(v)}</dc:${el}>`;
  return (
    `<oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}" xmlns:dc="${DC_NS}" xmlns:xsi="${XSI_NS}" xsi:schemaLocation="${OAI_DC_NS} ${OAI_DC_SCHEMA}">` +
    dc('title', repositoryName) +
    dc('description', `Records harvested by OAI-PMH from ${source.baseUrl} (source ${source.name} of this repository).`) +
    (source.repositoryId === undefined ? '' : dc('identifier', source.repositoryId)) +
    dc('identifier', source.baseUrl) +
    dc('type', 'Collection') +
    `</oai_dc:dc>`
  );
}
const POLITENESS_KEYS = new Set(['delay', 'timeout', 'retries']);
const LIMITS_KEYS = ['page', 'record', 'pages', 'records', 'sets', 'time'];

/**
 * Reads a size: a number of bytes, or a number with a unit (`64MB`,
 * `512 KiB`; K, M and G count by 1024, as the loader's limits do). Null when
 * it is neither.
 *
 * @example parseBytes('64MB') // 67108864
 */
export function parseBytes(v: unknown): number | null {
  if (typeof v === 'number') return Number.isInteger(v) && v > 0 ? v : null;
  if (typeof v !== 'string') return null;
  const m = /^(\d+)\s*(|B|K|KB|KiB|M|MB|MiB|G|GB|GiB)$/i.exec(v.trim());
  if (!m) return null;
  const unit = (m[2] as string).toUpperCase().charAt(0);
  const n = Number(m[1]) * (unit === 'K' ? 1024 : unit === 'M' ? 1024 ** 2 : unit === 'G' ? 1024 ** 3 : 1);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/**
 * Reads a duration: seconds, or a number with a unit (`90s`, `30m`, `6h`,
 * `1d`). Null when it is neither.
 *
 * @example parseDuration('6h') // 21600
 */
export function parseDuration(v: unknown): number | null {
  if (typeof v === 'number') return Number.isInteger(v) && v > 0 ? v : null;
  if (typeof v !== 'string') return null;
  const m = /^(\d+)\s*(s|m|h|d)$/.exec(v.trim());
  if (!m) return null;
  const n = Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[m[2] as 's' | 'm' | 'h' | 'd'];
  return n > 0 ? n : null;
}

/** Reads a source's `limits` mapping; a string is the problem, with the key at fault. */
function parseLimits(v: unknown): Partial<HarvestLimits> | string {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return `.limits must be a mapping (${LIMITS_KEYS.join(', ')})`;
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!LIMITS_KEYS.includes(k)) return `.limits.${k}: unknown key (known: ${LIMITS_KEYS.join(', ')})`;
  const out: { -readonly [K in keyof HarvestLimits]?: HarvestLimits[K] } = {};
  if (o.page !== undefined) {
    const n = parseBytes(o.page);
    if (n === null) return '.limits.page must be a size in bytes (e.g. 64MB, 500KB or 1048576)';
    out.pageBytes = n;
  }
  if (o.record !== undefined) {
    const n = parseBytes(o.record);
    if (n === null) return '.limits.record must be a size in bytes (e.g. 8MB)';
    out.recordBytes = n;
  }
  for (const k of ['pages', 'records', 'sets'] as const) {
    const n = o[k];
    if (n === undefined) continue;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) return `.limits.${k} must be a whole number of at least 1`;
    out[k] = n;
  }
  if (o.time !== undefined) {
    const n = parseDuration(o.time);
    if (n === null) return '.limits.time must be a duration (90s, 30m, 6h, 1d) or seconds';
    out.seconds = n;
  }
  const page = out.pageBytes ?? DEFAULT_HARVEST_LIMITS.pageBytes;
  const record = out.recordBytes ?? DEFAULT_HARVEST_LIMITS.recordBytes;
  if (record > page) return `.limits.record (${record} bytes) must not be larger than .limits.page (${page} bytes): a record is read within a page`;
  return out;
}

/**
 * Reads a schedule: an interval (`90s`, `30m`, `6h`, `1d`) or a daily time
 * in UTC (`daily 02:30`). Null when it is neither.
 *
 * @example parseSchedule('6h') // { kind: 'every', seconds: 21600, text: '6h' }
 */
export function parseSchedule(text: string): Schedule | null {
  const t = text.trim();
  const every = /^(\d+)\s*(s|m|h|d)$/.exec(t);
  if (every) {
    const seconds = Number(every[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[every[2] as 's' | 'm' | 'h' | 'd'];
    return seconds >= 1 ? { kind: 'every', seconds, text: t } : null;
  }
  const daily = /^daily\s+([01]\d|2[0-3]):([0-5]\d)$/.exec(t);
  if (daily) return { kind: 'daily', minute: Number(daily[1]) * 60 + Number(daily[2]), text: t };
  return null;
}

/**
 * When a scheduled source runs next (seconds): at once when it never ran;
 * an interval after its last run (`lastRun`: its last request); the first daily time after
 * its last run.
 *
 * @example nextRun({ kind: 'every', seconds: 3600, text: '1h' }, 1000) // 4600
 */
export function nextRun(schedule: Schedule, lastRun: number | null): number {
  if (lastRun === null) return 0;
  if (schedule.kind === 'every') return lastRun + schedule.seconds;
  const day = lastRun - (lastRun % 86400);
  const today = day + schedule.minute * 60;
  return today > lastRun ? today : today + 86400;
}

/** The shortest wait between two checks of one source, so a check that finds it not yet due (its clock a second behind) never spins. */
export const MIN_CHECK_MS = 1000;

/**
 * How long a scheduler waits before it checks a source again (milliseconds):
 * until the source is due ({@link nextRun}), so a `30s` schedule runs 30
 * seconds after its last run rather than at the first periodic check after
 * that (which, for a source last harvested 27 s before `serve` started,
 * came 57 s after it); never longer than `tickMs`, so a run another process
 * made is seen, and never shorter than {@link MIN_CHECK_MS} (or `tickMs`,
 * when that is shorter). `now` is in
 * whole seconds, at or before the real time, so the wait never ends before
 * the source is due.
 *
 * @example nextCheckMs({ kind: 'every', seconds: 30, text: '30s' }, 1000, 1027, 30_000) // 3000
 */
export function nextCheckMs(schedule: Schedule, lastRun: number | null, now: number, tickMs: number): number {
  const wait = (nextRun(schedule, lastRun) - now) * 1000;
  return Math.max(Math.min(MIN_CHECK_MS, tickMs), Math.min(tickMs, wait));
}

/**
 * Reads the `sources` section (a YAML list already turned into plain
 * values). Returns the sources, or the first problem with its path
 * (`sources[1].baseUrl: …`).
 */
export function parseSources(value: unknown): { sources: SourceConfig[] } | { error: string; index?: number } {
  if (!Array.isArray(value)) return { error: 'sources must be a list of sources (each "- name: …")' };
  const out: SourceConfig[] = [];
  const names = new Set<string>();
  for (let i = 0; i < value.length; i++) {
    const where = `sources[${i}]`;
    const bad = (msg: string): { error: string; index: number } => ({ error: `${where}${msg}`, index: i });
    const o = value[i] as Record<string, unknown> | null;
    if (o === null || typeof o !== 'object' || Array.isArray(o)) return bad(' must be a mapping with at least name and baseUrl');
    for (const k of Object.keys(o)) if (!SOURCE_KEYS.has(k)) return bad(`.${k}: unknown key (known: ${[...SOURCE_KEYS].join(', ')})`);
    const name = o.name;
    if (typeof name !== 'string' || !SOURCE_NAME.test(name))
      return bad('.name must be a word of letters, digits, ".", "_" or "-" (at most 64), e.g. "physics-archive"');
    if (names.has(name)) return bad(`.name ${JSON.stringify(name)} is given twice`);
    names.add(name);
    const baseUrl = o.baseUrl;
    if (typeof baseUrl !== 'string' || !isHttpUrl(baseUrl)) return bad('.baseUrl must be an http or https URL without a query');
    const prefixes = stringList(o.prefixes, ['oai_dc']);
    if (prefixes === null || prefixes.length === 0) return bad('.prefixes must be a non-empty list of metadataPrefixes');
    const sets = stringList(o.sets, []);
    if (sets === null) return bad('.sets must be a list of setSpecs');
    let schedule: Schedule | undefined;
    if (o.schedule !== undefined) {
      schedule = typeof o.schedule === 'string' ? (parseSchedule(o.schedule) ?? undefined) : undefined;
      if (!schedule) return bad('.schedule must be an interval (90s, 30m, 6h, 1d) or a daily time in UTC ("daily 02:30")');
    }
    let politeness = DEFAULT_POLITENESS;
    if (o.politeness !== undefined) {
      const p = o.politeness as Record<string, unknown> | null;
      if (p === null || typeof p !== 'object' || Array.isArray(p)) return bad('.politeness must be a mapping (delay, timeout, retries)');
      for (const k of Object.keys(p)) if (!POLITENESS_KEYS.has(k)) return bad(`.politeness.${k}: unknown key (known: delay, timeout, retries)`);
      const num = (v: unknown, min: number, max: number): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? v : null);
      const delay = p.delay === undefined ? DEFAULT_POLITENESS.delayMs / 1000 : num(p.delay, 0, 3600);
      const timeout = p.timeout === undefined ? DEFAULT_POLITENESS.timeoutMs / 1000 : num(p.timeout, 1, 3600);
      const retries = p.retries === undefined ? DEFAULT_POLITENESS.retries : num(p.retries, 0, 100);
      if (delay === null) return bad('.politeness.delay must be seconds from 0 to 3600');
      if (timeout === null) return bad('.politeness.timeout must be seconds from 1 to 3600');
      if (retries === null || !Number.isInteger(retries)) return bad('.politeness.retries must be an integer from 0 to 100');
      politeness = { delayMs: Math.round(delay * 1000), timeoutMs: Math.round(timeout * 1000), retries };
    }
    const repositoryId = o.repositoryId;
    if (repositoryId !== undefined) {
      const problem = typeof repositoryId === 'string' ? repositoryIdProblem(repositoryId) : 'must be a string';
      if (problem !== null) return bad(`.repositoryId ${problem}`);
    }
    let limits: Partial<HarvestLimits> | undefined;
    if (o.limits !== undefined) {
      const l = parseLimits(o.limits);
      if (typeof l === 'string') return bad(l);
      limits = l;
    }
    out.push({
      name,
      baseUrl,
      prefixes,
      sets,
      ...(schedule && { schedule }),
      politeness,
      ...(limits && { limits }),
      ...(typeof repositoryId === 'string' && { repositoryId }),
    });
  }
  return { sources: out };
}

/** An http(s) URL without query or fragment (OAI-PMH 2.0 section 3.1.1: the baseURL). */
export function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.search === '' && u.hash === '';
  } catch {
    return false;
  }
}

function stringList(v: unknown, fallback: string[]): string[] | null {
  if (v === undefined) return fallback;
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string' && x.trim() !== '')) return (v as string[]).map((x) => x.trim());
  return null;
}
