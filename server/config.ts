/**
 * Configuration, read from the environment once into a frozen, typed object.
 * Every key is documented here and in README.md, with its default.
 */
import path from 'node:path';

export interface Config {
  /** PORT: the TCP port to listen on. Default 3000. */
  readonly port: number;
  /** HOST: the address to listen on. Default all interfaces. */
  readonly host: string | undefined;
  /**
   * DATABASE_URL: where the store lives. A file path or `sqlite:PATH` selects
   * SQLite (default `./data/oai-steward.sqlite`); `postgres://…` selects PostgreSQL.
   */
  readonly databaseUrl: string;
  /** OAI_BASE_URL: the baseURL Identify advertises and `request` echoes. Default `http://localhost:$PORT/oai`. */
  readonly baseUrl: string;
  /** OAI_REPOSITORY_NAME: Identify's repositoryName. */
  readonly repositoryName: string;
  /** OAI_ADMIN_EMAILS: comma-separated adminEmail values. */
  readonly adminEmails: readonly string[];
  /** OAI_NAMESPACE: the namespace-identifier of every oai-identifier (a domain name you control). */
  readonly namespace: string;
  /** OAI_ID_POLICY: how internal ids become local-identifiers: `auto` (Fedora PIDs as they are, others escaped), `opaque`, `fedora-pid`. */
  readonly idPolicy: 'auto' | 'opaque' | 'fedora-pid';
  /** OAI_POI_IN_DC: add each record's POI as a dc:identifier in oai_dc (`true`/`false`). Default true. */
  readonly poiInDublinCore: boolean;
  /** OAI_PAGE_SIZE: items (or sets) per list page. Default 100. */
  readonly pageSize: number;
  /**
   * OAI_TOKEN_SECRET: the HMAC key of resumption tokens. Default: a random key
   * made once and kept in the store, so every process on one store shares it.
   */
  readonly tokenSecret: string | undefined;
  /** OAI_TOKEN_LIFETIME: seconds a resumption token stays valid after it was issued. Default 172800 (48 hours). */
  readonly tokenLifetime: number;
  /** OAI_COMPRESSION: content codings offered besides identity, comma-separated (`gzip,deflate`; empty for none). */
  readonly compression: readonly ('gzip' | 'deflate')[];
  /** OAI_COMPRESSION_LEVEL: zlib level 1-9. Default 4 (most of the gain of 9 at a fraction of the CPU). */
  readonly compressionLevel: number;
  /** OAI_MAX_IN_FLIGHT: requests served at once before the rest get 503 with Retry-After. Default 64. */
  readonly maxInFlight: number;
  /** OAI_RETRY_AFTER: seconds a harvester is asked to wait on 503. Default 10. */
  readonly retryAfter: number;
  /** OAI_SEED_DEMO: load the demo repository from seeds/ when the store is empty (`true`/`false`). Default true. */
  readonly seedDemo: boolean;
  /** OAI_METRICS: serve operator metrics at `GET /metrics` in the Prometheus text format (`true`/`false`). Default true. */
  readonly metrics: boolean;
  /** LOG_LEVEL: pino level (`info`, `warn`, `silent`, …). Default info. */
  readonly logLevel: string;
}

/** Thrown for a configuration value that cannot be used; the message names the key. */
export class ConfigError extends Error {}

/**
 * Reads the configuration from an environment (default `process.env`).
 * Example: `loadConfig({ PORT: '8080' }).baseUrl` is `http://localhost:8080/oai`.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const namespace = str(env, 'OAI_NAMESPACE', 'demo.oai-steward.org');
  // OAI identifier format 2.1: namespace-identifier = domainname-word "." domainname, words start with a letter.
  if (!/^[A-Za-z][A-Za-z0-9-]*(\.[A-Za-z][A-Za-z0-9-]*)+$/.test(namespace)) {
    throw new ConfigError(`OAI_NAMESPACE ${JSON.stringify(namespace)} is not a domain name whose words start with a letter`);
  }
  const adminEmails = list(env, 'OAI_ADMIN_EMAILS', ['admin@example.org']);
  for (const e of adminEmails) {
    if (!/^\S+@(\S+\.)+\S+$/.test(e)) throw new ConfigError(`OAI_ADMIN_EMAILS: ${JSON.stringify(e)} is not an e-mail address`);
  }
  if (adminEmails.length === 0) throw new ConfigError('OAI_ADMIN_EMAILS must name at least one address (OAI-PMH 4.2)');
  const compression = list(env, 'OAI_COMPRESSION', ['gzip', 'deflate']);
  for (const c of compression) if (c !== 'gzip' && c !== 'deflate') throw new ConfigError(`OAI_COMPRESSION: unknown coding ${JSON.stringify(c)}`);
  const idPolicy = str(env, 'OAI_ID_POLICY', 'auto');
  if (idPolicy !== 'auto' && idPolicy !== 'opaque' && idPolicy !== 'fedora-pid') {
    throw new ConfigError('OAI_ID_POLICY must be auto, opaque or fedora-pid');
  }
  const config: Config = {
    port,
    host: env.HOST || undefined,
    databaseUrl: str(env, 'DATABASE_URL', path.join(cwd, 'data', 'oai-steward.sqlite')),
    baseUrl: str(env, 'OAI_BASE_URL', `http://localhost:${port}/oai`),
    repositoryName: str(env, 'OAI_REPOSITORY_NAME', 'oai-steward demo repository'),
    adminEmails,
    namespace,
    idPolicy,
    poiInDublinCore: bool(env, 'OAI_POI_IN_DC', true),
    pageSize: int(env, 'OAI_PAGE_SIZE', 100, 1, 10000),
    tokenSecret: env.OAI_TOKEN_SECRET || undefined,
    tokenLifetime: int(env, 'OAI_TOKEN_LIFETIME', 172800, 60, 365 * 86400),
    compression: compression as Config['compression'],
    compressionLevel: int(env, 'OAI_COMPRESSION_LEVEL', 4, 1, 9),
    maxInFlight: int(env, 'OAI_MAX_IN_FLIGHT', 64, 1, 100000),
    retryAfter: int(env, 'OAI_RETRY_AFTER', 10, 1, 3600),
    seedDemo: bool(env, 'OAI_SEED_DEMO', true),
    metrics: bool(env, 'OAI_METRICS', true),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
  };
  return Object.freeze(config);
}

function str(env: NodeJS.ProcessEnv, key: string, fallback: string): string {
  const v = env[key];
  return v === undefined || v === '' ? fallback : v;
}

function list(env: NodeJS.ProcessEnv, key: string, fallback: string[]): string[] {
  const v = env[key];
  if (v === undefined) return fallback;
  return v.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function int(env: NodeJS.ProcessEnv, key: string, fallback: number, min: number, max: number): number {
  const v = env[key];
  if (v === undefined || v === '') return fallback;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new ConfigError(`${key} must be an integer from ${min} to ${max}, not ${JSON.stringify(v)}`);
  return Number(v);
}

function bool(env: NodeJS.ProcessEnv, key: string, fallback: boolean): boolean {
  const v = env[key];
  if (v === undefined || v === '') return fallback;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new ConfigError(`${key} must be true or false, not ${JSON.stringify(v)}`);
}
