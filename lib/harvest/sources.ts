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
}

export const DEFAULT_POLITENESS: Politeness = { delayMs: 0, timeoutMs: 60_000, retries: 5 };

/** A source name: it starts every internal id the source brings (`NAME:`), so it holds no colon. */
export const SOURCE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const SOURCE_KEYS = new Set(['name', 'baseUrl', 'prefixes', 'sets', 'schedule', 'politeness', 'repositoryId']);

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
    out.push({ name, baseUrl, prefixes, sets, ...(schedule && { schedule }), politeness, ...(typeof repositoryId === 'string' && { repositoryId }) });
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
