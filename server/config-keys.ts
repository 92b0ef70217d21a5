/**
 * The configuration's keys (`CONFIG_KEYS`: each key's environment variable,
 * file key and meaning) and how a raw value is read: text, integers in
 * bounds, booleans, lists, folders and the database URL, each refused with a
 * message naming the key and where it was set (./config.ts reads them all).
 */
import path from 'node:path';
import { ConfigError, type Raw } from './config-file';

/** One configuration key: its name in the file and, unless it is file-only, its environment variable. */
export interface KeySpec {
  readonly env?: string;
}

/**
 * Every key of the configuration: its name in the file, and its environment
 * variable unless it is file-only. The one list: the file's known keys come
 * from it, and docs/configuration.md has a row for each.
 *
 * @example CONFIG_KEYS.pageSize.env // 'OAI_PAGE_SIZE'
 */
export const CONFIG_KEYS = {
  port: { env: 'PORT' },
  host: { env: 'HOST' },
  database: { env: 'DATABASE_URL' },
  readReplica: { env: 'OAI_READ_REPLICA' },
  tokenPositions: { env: 'OAI_TOKEN_POSITIONS' },
  replicaMaxLag: { env: 'OAI_REPLICA_MAX_LAG' },
  baseUrl: { env: 'OAI_BASE_URL' },
  repositoryName: { env: 'OAI_REPOSITORY_NAME' },
  adminEmails: { env: 'OAI_ADMIN_EMAILS' },
  namespace: { env: 'OAI_NAMESPACE' },
  idPolicy: { env: 'OAI_ID_POLICY' },
  poiInDublinCore: { env: 'OAI_POI_IN_DC' },
  rightsInAbout: { env: 'OAI_RIGHTS_IN_ABOUT' },
  pageSize: { env: 'OAI_PAGE_SIZE' },
  pageBytes: { env: 'OAI_PAGE_BYTES' },
  tokenSecret: { env: 'OAI_TOKEN_SECRET' },
  tokenLifetime: { env: 'OAI_TOKEN_LIFETIME' },
  compression: { env: 'OAI_COMPRESSION' },
  compressionLevel: { env: 'OAI_COMPRESSION_LEVEL' },
  maxInFlight: { env: 'OAI_MAX_IN_FLIGHT' },
  retryAfter: { env: 'OAI_RETRY_AFTER' },
  bodyTimeout: { env: 'OAI_BODY_TIMEOUT' },
  clientMaxInFlight: { env: 'OAI_CLIENT_MAX_IN_FLIGHT' },
  clientRate: { env: 'OAI_CLIENT_RATE' },
  clientBurst: { env: 'OAI_CLIENT_BURST' },
  maxRecordBytes: { env: 'OAI_MAX_RECORD_BYTES' },
  harvestMemory: { env: 'OAI_HARVEST_MEMORY' },
  seedDemo: { env: 'OAI_SEED_DEMO' },
  metrics: { env: 'OAI_METRICS' },
  prefetch: { env: 'OAI_PREFETCH' },
  trustProxy: { env: 'OAI_TRUST_PROXY' },
  logLevel: { env: 'LOG_LEVEL' },
  dumpDir: { env: 'OAI_DUMP_DIR' },
  logKeyFile: { env: 'OAI_LOG_KEY_FILE' },
  oaiDcProfile: { env: 'OAI_DC_PROFILE' },
  writtenFormats: { env: 'OAI_WRITTEN_FORMATS' },
  storedFormats: { env: 'OAI_STORED_FORMATS' },
  liftOrder: { env: 'OAI_LIFT_ORDER' },
  formats: {},
  identify: {},
  sets: {},
  sources: {},
} as const satisfies Record<string, KeySpec>;

export type KeyName = keyof typeof CONFIG_KEYS;

/** The named address ranges Express's `trust proxy` knows (proxy-addr). */
export const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

export function fail(raw: Raw, problem: string): never {
  throw new ConfigError(`${raw.label} ${problem}, not ${JSON.stringify(raw.value)}`);
}

export function str(raw: Raw | undefined, fallback: string, check?: (v: string) => string | null): string {
  if (raw === undefined) return fallback;
  if (typeof raw.value !== 'string') fail(raw, 'must be a string');
  const problem = check?.(raw.value) ?? null;
  if (problem !== null) fail(raw, problem);
  return raw.value;
}

export function int(raw: Raw | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const v = raw.value;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) fail(raw, `must be an integer from ${min} to ${max}`);
  return n;
}

export function bool(raw: Raw | undefined, fallback: boolean): boolean {
  if (raw === undefined) return fallback;
  const v = raw.value;
  if (v === true || v === 'true' || v === '1') return true;
  if (v === false || v === 'false' || v === '0') return false;
  return fail(raw, 'must be true or false');
}

/** A list: comma-separated in the environment, a YAML sequence of strings in the file. */
export function list(raw: Raw | undefined, fallback: string[], check: (v: string) => string | null): { value: string[]; label: string } {
  if (raw === undefined) return { value: fallback, label: 'the default' };
  const v = raw.value;
  let items: string[];
  if (typeof v === 'string')
    items = v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) items = (v as string[]).map((s) => s.trim());
  else fail(raw, 'must be a list of strings');
  for (const item of items) {
    const problem = check(item);
    if (problem !== null) throw new ConfigError(`${raw.label}: ${JSON.stringify(item)} ${problem}`);
  }
  return { value: items, label: raw.label };
}

/** A database URL; a relative SQLite path is resolved against where it was written (the file's folder, or the working directory). */
/** A folder, absolute (relative to the file that names it, or to the working directory); undefined when unset or empty. */
/** Where the publication log's key is kept when `logKeyFile` is not set (see {@link Config.logKeyFile}). */
export function defaultLogKeyFile(url: string, cwd: string): string | undefined {
  if (/^postgres(ql)?:\/\//i.test(url)) return path.join(cwd, 'data', 'oai-steward-log.key');
  const file = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : url;
  return file === ':memory:' ? undefined : `${path.resolve(cwd, file)}-log.key`;
}

export function folder(raw: Raw | undefined): string | undefined {
  const v = str(raw, '');
  return raw === undefined || v === '' ? undefined : path.resolve(raw.base, v);
}

export function databaseUrl(raw: Raw): string {
  const v = str(raw, '');
  if (v === '') fail(raw, 'must not be empty');
  if (/^postgres(ql)?:\/\//.test(v)) return v;
  const file = v.startsWith('sqlite:') ? v.slice('sqlite:'.length) : v;
  if (file === ':memory:') return v;
  return `sqlite:${path.resolve(raw.base, file)}`;
}
