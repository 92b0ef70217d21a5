/**
 * Configuration: read once at start-up into a frozen, typed object. Every key
 * is documented in ./config-keys.ts and in docs/configuration.md, with its default (a test,
 * test/docs/configuration.test.ts, holds {@link CONFIG_KEYS} and that page together).
 *
 * Two sources, one precedence: an environment variable wins over the
 * repository configuration file (YAML, named by `OAI_CONFIG` or `--config`),
 * which wins over the default. A value that cannot be used stops start-up
 * with a {@link ConfigError} naming the variable, or the file, the line and
 * the key; nothing is served half-configured.
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { BUILT_IN_FORMATS, type FormatDeclaration } from '../lib/formats/registry';
import { DEFAULT_LIFT_ORDER } from '../lib/pipeline/lift';
import type { IdentifyDescriptions } from '../lib/oai/descriptions';
import type { SetDefinitions } from '../lib/sets/rules';
import type { SourceConfig } from '../lib/harvest/sources';
import { BUILTIN_FORMATS, ConfigError, readConfigFile, type Raw } from './config-file';
import { CONFIG_KEYS, PROXY_NAMES, type KeyName, type KeySpec, bool, databaseUrl, defaultLogKeyFile, fail, folder, int, list, str } from './config-keys';

export { BUILTIN_FORMATS, ConfigError };

/** A metadata format the repository offers, as the configuration declares it (lib/formats/registry.ts). */
export type FormatConfig = FormatDeclaration;

export interface Config {
  /** The configuration file read (absolute path), if any. */
  readonly configFile: string | undefined;
  /** PORT / `port`: the TCP port to listen on. Default 3000. */
  readonly port: number;
  /** HOST / `host`: the address to listen on. Default all interfaces. */
  readonly host: string | undefined;
  /**
   * DATABASE_URL / `database`: where the store lives. A file path or `sqlite:PATH` selects
   * SQLite (default `./data/oai-steward.sqlite`); `postgres://…` selects PostgreSQL.
   * A relative path in the file is relative to the file.
   */
  readonly databaseUrl: string;
  /**
   * OAI_READ_REPLICA / `readReplica`: a PostgreSQL hot standby of `database` this process
   * answers list and GetRecord requests from; writes, the scheduler and everything else
   * use `database`. Default none.
   */
  readonly readReplica: string | undefined;
  /**
   * OAI_TOKEN_POSITIONS / `tokenPositions`: resumption tokens carry where their page's reads
   * stood in the primary's history, so a process on a replica never answers a page older than
   * the one before (PostgreSQL only). Default: on with `readReplica`; set it on every process
   * of a deployment that has replicas.
   */
  readonly tokenPositions: boolean;
  /**
   * OAI_REPLICA_MAX_LAG / `replicaMaxLag`: seconds the read replica (`readReplica`) may lag its
   * primary before /healthz answers 503 (server/http/health.ts). Default 10 (1–86400).
   */
  readonly replicaMaxLag: number;
  /**
   * Where `databaseUrl` came from, for a person told that no store is there: the variable
   * (`DATABASE_URL`), the file's key (`FILE:LINE: database`), or the default in the working directory.
   */
  readonly databaseFrom: string;
  /** OAI_BASE_URL / `baseUrl`: the baseURL Identify advertises and `request` echoes. Default `http://localhost:$PORT/oai`. */
  readonly baseUrl: string;
  /** OAI_REPOSITORY_NAME / `repositoryName`: Identify's repositoryName. */
  readonly repositoryName: string;
  /** OAI_ADMIN_EMAILS / `adminEmails`: adminEmail values (comma-separated in the environment, a list in the file). */
  readonly adminEmails: readonly string[];
  /** OAI_NAMESPACE / `namespace`: the namespace-identifier of every oai-identifier (a domain name you control). */
  readonly namespace: string;
  /** OAI_ID_POLICY / `idPolicy`: how internal ids become local-identifiers: `auto` (Fedora PIDs as they are, others escaped), `opaque`, `fedora-pid`. */
  readonly idPolicy: 'auto' | 'opaque' | 'fedora-pid';
  /** OAI_POI_IN_DC / `poiInDublinCore`: add each record's POI as a dc:identifier in oai_dc (`true`/`false`). Default true. */
  readonly poiInDublinCore: boolean;
  /**
   * OAI_RIGHTS_IN_ABOUT / `rightsInAbout`: give every record whose metadata states a licence
   * (OpenAIRE licenseCondition, DataCite rightsURI, a dc:rights URL) a `rights` about
   * container referring to it (OAI-PMH rights guidelines, rightsReference), unless the
   * record brings its own. Applied as records are written (`true`/`false`). Default false.
   */
  readonly rightsInAbout: boolean;
  /** OAI_PAGE_SIZE / `pageSize`: items (or sets) per list page. Default 100. */
  readonly pageSize: number;
  /**
   * OAI_PAGE_BYTES / `pageBytes`: bytes of stored metadata and about containers a ListRecords page
   * holds at most; the page ends early with a resumption token, and a record larger than this is
   * served alone. Bounds what one request (and a prepared next page) holds in memory. Default 8388608 (8 MiB).
   */
  readonly pageBytes: number;
  /**
   * OAI_TOKEN_SECRET / `tokenSecret`: the HMAC key of resumption tokens. Default: a random key
   * made once and kept in the store, so every process on one store shares it.
   */
  readonly tokenSecret: string | undefined;
  /** OAI_TOKEN_LIFETIME / `tokenLifetime`: seconds a resumption token stays valid after it was issued. Default 172800 (48 hours). */
  readonly tokenLifetime: number;
  /** OAI_COMPRESSION / `compression`: content codings offered besides identity (`gzip,deflate`; empty for none). */
  readonly compression: readonly ('gzip' | 'deflate')[];
  /** OAI_COMPRESSION_LEVEL / `compressionLevel`: zlib level 1-9. Default 4 (most of the gain of 9 at a fraction of the CPU). */
  readonly compressionLevel: number;
  /** OAI_MAX_IN_FLIGHT / `maxInFlight`: requests served at once before the rest get 503 with Retry-After. Default 64. */
  readonly maxInFlight: number;
  /** OAI_RETRY_AFTER / `retryAfter`: seconds a harvester is asked to wait on 503. Default 10. */
  readonly retryAfter: number;
  /** OAI_BODY_TIMEOUT / `bodyTimeout`: seconds a client has to send its request body once its head arrived; past it, 408 and the connection closed. Default 10. */
  readonly bodyTimeout: number;
  /** OAI_CLIENT_MAX_IN_FLIGHT / `clientMaxInFlight`: requests one client may have open at once; beyond it, 429 with Retry-After (0: no limit). Default 4: a
   * harvest is sequential by design (each page needs the token of the one before), so 4 leaves room for a
   * few harvesters behind one address. */
  readonly clientMaxInFlight: number;
  /** OAI_CLIENT_RATE / `clientRate`: requests a minute one client may make, sustained; beyond it, 429 with Retry-After (0: no limit). Default 0. */
  readonly clientRate: number;
  /** OAI_CLIENT_BURST / `clientBurst`: requests one client may make at once above `clientRate`. Default 20. */
  readonly clientBurst: number;
  /**
   * OAI_MAX_RECORD_BYTES / `maxRecordBytes`: the largest record the loader reads (an NDJSON line, a JSON
   * array element, the metadata of an XML record), in bytes; a larger one is refused naming file, line and
   * record. Default 8388608 (8 MiB).
   */
  readonly maxRecordBytes: number;
  /**
   * OAI_HARVEST_MEMORY / `harvestMemory`: the heap (MiB) of the process a scheduled harvest runs in
   * (`serve` harvests each source in a child process: server/harvest/child.ts); past it that process
   * dies, the run stops where the next one resumes, and serving goes on. From 64 to 65536. Default 512.
   */
  readonly harvestMemory: number;
  /**
   * OAI_SEED_DEMO / `seedDemo`: load the demo repository from seeds/ when the store is empty (`true`/`false`).
   * Default: true only when no `namespace` is configured, so a repository that names its own namespace
   * never publishes the demo under it unless this says `true` explicitly.
   */
  readonly seedDemo: boolean;
  /** OAI_METRICS / `metrics`: serve operator metrics at `GET /metrics` in the Prometheus text format (`true`/`false`). Default true. */
  readonly metrics: boolean;
  /**
   * OAI_PREFETCH / `prefetch`: after a ListRecords or ListIdentifiers page that continues, prepare the next
   * page while the harvester reads this one, and serve it if its token arrives within 2 s (`true`/`false`).
   * The page then shows the store as it was up to 2 s before the request (server/http/prefetch.ts says
   * exactly what that can change). Default true.
   */
  readonly prefetch: boolean;
  /**
   * OAI_DUMP_DIR / `dumpDir`: a folder of bulk dumps (`oai-steward dump`) served at `/dumps/`, with
   * Range and ETag, and named in Identify. A relative path in the file is relative to the file.
   * Default: none (nothing served).
   */
  readonly dumpDir: string | undefined;
  /**
   * OAI_LOG_KEY_FILE / `logKeyFile`: the publication log's signing key (server/log-key.ts), made with the
   * log by the first command that migrates the store and finds none, mode 0600. A relative path in the file is relative to the file. Default:
   * `<store file>-log.key` beside a SQLite store; `data/oai-steward-log.key` for PostgreSQL; none (a key
   * for the life of the process) for `:memory:`.
   */
  readonly logKeyFile: string | undefined;
  /**
   * OAI_TRUST_PROXY / `trustProxy`: the reverse proxies whose `X-Forwarded-For` (and `-Proto`, `-Host`)
   * are believed: `loopback`, `uniquelocal`, addresses or CIDR ranges, comma-separated (Express's
   * `trust proxy`). The request log then names the client the proxy saw rather than the proxy.
   * Advertised URLs never come from these headers: they are built from `baseUrl`. Default none.
   */
  readonly trustProxy: readonly string[];
  /** LOG_LEVEL / `logLevel`: pino level (`info`, `warn`, `silent`, …). Default info. */
  readonly logLevel: string;
  /**
   * `formats` (file only): the metadata formats offered, in the order
   * ListMetadataFormats lists them. Default: every built-in format but rioxx and qdc, which are offered when listed. `oai_dc`
   * is always offered (OAI-PMH 2.0 section 3.4), listed or not.
   */
  readonly formats: readonly FormatConfig[];
  /**
   * `identify` (file only): the description containers Identify carries
   * besides `oai-identifier` (eprints, friends, branding, rightsManifest),
   * each checked against its published XSD when the configuration is read.
   */
  readonly identify: IdentifyDescriptions;
  /**
   * `sets` (file only): sets declared beside those the records name. A
   * static set (`spec`, `name`), a set by rule (`spec`, `name`, `rule`: a
   * predicate over the record fields, lib/sets/rules.ts) or a ready-made one
   * (`preset: openaire | openaire_data | driver | open_access | ddc`).
   * Membership of rule sets is computed at load; `oai-steward rebuild-sets`
   * recomputes it after a rule changes. Default: none.
   */
  readonly sets: SetDefinitions;
  /**
   * OAI_DC_PROFILE / `oaiDcProfile`: `plain` (Dublin Core as the record gives
   * it) or `openaire3` (DRIVER 2.0 / OpenAIRE Literature Guidelines 3.0:
   * oai_dc also carries the info:eu-repo terms for type, access rights,
   * embargo end and version, derived from the record fields). Default plain.
   */
  readonly oaiDcProfile: 'plain' | 'openaire3';
  /**
   * OAI_WRITTEN_FORMATS / `writtenFormats`: `stored` keeps every format as
   * the pipeline wrote it; `on-demand` keeps an item's model and the XML it
   * gave, and writes its other formats when they are asked for
   * (server/store/on-demand.ts): a smaller store and a faster load, for a
   * writer's work per record served. Default stored.
   */
  readonly writtenFormats: 'stored' | 'on-demand';
  /**
   * OAI_STORED_FORMATS / `storedFormats`: with `writtenFormats: on-demand`,
   * the formats stored all the same, so serving them is reading them: the
   * formats most harvesters ask for. Empty (`OAI_STORED_FORMATS=`): none, the
   * smallest store. Each must be a configured format. Default oai_dc.
   */
  readonly storedFormats: readonly string[];
  /**
   * OAI_LIFT_ORDER / `liftOrder`: which format a record's model is read from
   * when it was given in several (lib/pipeline/lift.ts): the first of these
   * it was given in; formats left out come after, in the order of `formats`.
   * Each must be a configured format with a reader. Default datacite,
   * oai_datacite, oai_openaire, mods, marc21, oai_dc: the richest first.
   */
  readonly liftOrder: readonly string[];
  /**
   * `sources` (file only): the OAI-PMH repositories this one harvests
   * (`name`, `baseUrl`, `prefixes`, `sets`, `schedule`, `politeness`;
   * lib/harvest/sources.ts, docs/harvesting.md). Default: none.
   */
  readonly sources: readonly SourceConfig[];
}

/** How the configuration is found besides the environment. */
export interface ConfigSource {
  /** The configuration file (`--config`); wins over `OAI_CONFIG`. Relative to `cwd`. */
  readonly file?: string;
}

/**
 * Reads the configuration from an environment (default `process.env`) and,
 * when `OAI_CONFIG` or `source.file` names one, a YAML file.
 *
 * @example loadConfig({ PORT: '8080' }).baseUrl // 'http://localhost:8080/oai'
 * @example loadConfig({}, process.cwd(), { file: 'oai-steward.yaml' })
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd(), source: ConfigSource = {}): Config {
  const named = source.file ?? (env.OAI_CONFIG === '' ? undefined : env.OAI_CONFIG);
  const file = named === undefined ? undefined : readConfigFile(path.resolve(cwd, named), Object.keys(CONFIG_KEYS));
  const get = (key: KeyName): Raw | undefined => {
    const spec: KeySpec = CONFIG_KEYS[key];
    const fromEnv = spec.env === undefined ? undefined : env[spec.env];
    // An empty variable means "unset", except for a list, where it means "none" (OAI_COMPRESSION=, OAI_STORED_FORMATS=).
    if (spec.env !== undefined && fromEnv !== undefined && (fromEnv !== '' || key === 'compression' || key === 'storedFormats'))
      return { value: fromEnv, label: spec.env, base: cwd };
    return file?.values.get(key);
  };

  const port = int(get('port'), 3000, 0, 65535);
  const namespace = str(get('namespace'), 'demo.oai-steward.org', (v) =>
    // OAI identifier format 2.1: namespace-identifier = domainname-word "." domainname, words start with a letter.
    /^[A-Za-z][A-Za-z0-9-]*(\.[A-Za-z][A-Za-z0-9-]*)+$/.test(v) ? null : 'is not a domain name whose words start with a letter',
  );
  const adminEmails = list(get('adminEmails'), ['admin@example.org'], (v) => (/^\S+@(\S+\.)+\S+$/.test(v) ? null : 'is not an e-mail address'));
  if (adminEmails.value.length === 0) throw new ConfigError(`${adminEmails.label} must name at least one address (OAI-PMH 4.2)`);
  const compression = list(get('compression'), ['gzip', 'deflate'], (v) =>
    v === 'gzip' || v === 'deflate' ? null : 'is not a content coding (gzip or deflate)',
  );
  const idPolicy = str(get('idPolicy'), 'auto', (v) => (v === 'auto' || v === 'opaque' || v === 'fedora-pid' ? null : 'must be auto, opaque or fedora-pid'));
  const database = get('database');
  const formats = file?.formats ?? defaultFormats();
  const storedFormats = list(get('storedFormats'), ['oai_dc'], (v) => (formats.some((f) => f.prefix === v) ? null : 'is not a configured format'));
  // Only a built-in format has a reader: a declared one stays opaque.
  const readable = new Set(
    formats.flatMap((f) => (f.kind === 'builtin' && BUILT_IN_FORMATS.find((b) => b.prefix === f.prefix)?.read !== undefined ? [f.prefix] : [])),
  );
  const liftOrder = list(
    get('liftOrder'),
    DEFAULT_LIFT_ORDER.filter((p) => readable.has(p)),
    (v) => (readable.has(v) ? null : 'is not a configured format with a reader (a declared format is never read into the model)'),
  );
  const namespaceGiven = get('namespace') !== undefined;
  const databaseFinal = database === undefined ? path.join(cwd, 'data', 'oai-steward.sqlite') : databaseUrl(database);
  const postgres = /^postgres(ql)?:\/\//i.test(databaseFinal);
  const replicaRaw = get('readReplica');
  const readReplica = str(replicaRaw, '', (v) =>
    !/^postgres(ql)?:\/\//i.test(v) ? 'must be a postgres:// URL' : !postgres ? 'needs a PostgreSQL database (a replica of it)' : null,
  );
  const tokenPositionsRaw = get('tokenPositions');
  const tokenPositions = bool(tokenPositionsRaw, readReplica !== '');
  if (tokenPositions && !postgres && tokenPositionsRaw !== undefined) fail(tokenPositionsRaw, 'needs a PostgreSQL database (positions are WAL positions)');
  const config: Config = {
    configFile: file?.path,
    port,
    host: str(get('host'), '') || undefined,
    databaseUrl: databaseFinal,
    readReplica: readReplica || undefined,
    tokenPositions,
    replicaMaxLag: int(get('replicaMaxLag'), 10, 1, 86400),
    databaseFrom:
      database === undefined
        ? `the default (data/oai-steward.sqlite in the working directory ${cwd}: no --config FILE, OAI_CONFIG or DATABASE_URL names another)`
        : database.label,
    baseUrl: str(get('baseUrl'), `http://localhost:${port}/oai`, baseUrlProblem),
    repositoryName: str(get('repositoryName'), 'oai-steward demo repository'),
    adminEmails: adminEmails.value,
    namespace,
    idPolicy: idPolicy as Config['idPolicy'],
    poiInDublinCore: bool(get('poiInDublinCore'), true),
    rightsInAbout: bool(get('rightsInAbout'), false),
    pageSize: int(get('pageSize'), 100, 1, 10000),
    pageBytes: int(get('pageBytes'), 8 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    tokenSecret: str(get('tokenSecret'), '') || undefined,
    tokenLifetime: int(get('tokenLifetime'), 172800, 60, 365 * 86400),
    compression: compression.value as Config['compression'],
    compressionLevel: int(get('compressionLevel'), 4, 1, 9),
    maxInFlight: int(get('maxInFlight'), 64, 1, 100000),
    retryAfter: int(get('retryAfter'), 10, 1, 3600),
    bodyTimeout: int(get('bodyTimeout'), 10, 1, 50),
    clientMaxInFlight: int(get('clientMaxInFlight'), 4, 0, 100000),
    clientRate: int(get('clientRate'), 0, 0, 1_000_000),
    clientBurst: int(get('clientBurst'), 20, 1, 100000),
    maxRecordBytes: int(get('maxRecordBytes'), 8 * 1024 * 1024, 1024, 256 * 1024 * 1024),
    harvestMemory: int(get('harvestMemory'), 512, 64, 65536),
    seedDemo: bool(get('seedDemo'), !namespaceGiven),
    metrics: bool(get('metrics'), true),
    prefetch: bool(get('prefetch'), true),
    trustProxy: list(get('trustProxy'), [], (v) =>
      PROXY_NAMES.has(v) || isIP(v.split('/')[0] as string) !== 0 ? null : 'is not loopback, linklocal, uniquelocal, an IP address or a CIDR range',
    ).value,
    logLevel: str(get('logLevel'), 'info', (v) => (LOG_LEVELS.includes(v) ? null : `must be one of ${LOG_LEVELS.join(', ')}`)),
    dumpDir: folder(get('dumpDir')),
    logKeyFile: folder(get('logKeyFile')) ?? defaultLogKeyFile(databaseFinal, cwd),
    formats,
    identify: file?.identify ?? {},
    sets: file?.sets ?? { all: [], computed: [] },
    sources: file?.sources ?? [],
    oaiDcProfile: str(get('oaiDcProfile'), 'plain', (v) =>
      v === 'plain' || v === 'openaire3' ? null : 'must be plain or openaire3',
    ) as Config['oaiDcProfile'],
    writtenFormats: str(get('writtenFormats'), 'stored', (v) =>
      v === 'stored' || v === 'on-demand' ? null : 'must be stored or on-demand',
    ) as Config['writtenFormats'],
    storedFormats: storedFormats.value,
    liftOrder: liftOrder.value,
  };
  return Object.freeze(config);
}

/** pino's levels, and `silent`. */
const LOG_LEVELS: readonly string[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A path of RFC 3986 segments (pchar), each non-empty: what is served literally at the endpoint. */
const PLAIN_PATH = /^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*\/?$/;

/**
 * Why a base URL cannot be the endpoint, or null: it must be an http(s) URL
 * (OAI-PMH 3.1: harvesters issue HTTP requests to it) without user name,
 * query or fragment (arguments are appended to it), whose path is written
 * as the server will see it (no `..`, no empty segment, nothing the URL
 * parser would rewrite).
 */
function baseUrlProblem(v: string): string | null {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return 'is not a URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must be an http:// or https:// URL';
  if (u.username !== '' || u.password !== '') return 'must not carry a user name or password';
  if (v.includes('?') || v.includes('#')) return 'must have no query or fragment (OAI-PMH 3.1.1: the arguments are appended to it)';
  const written = /^[A-Za-z]+:\/\/[^/]*(\/.*)?$/.exec(v)?.[1] ?? '/';
  if (!PLAIN_PATH.test(written) || written !== u.pathname)
    return `must have a plain path (segments of letters, digits and -._~!$&'()*+,;=:@%; no "..", no empty segment)`;
  return null;
}

/** Every built-in format but those offered only when listed (`optIn`: rioxx, qdc), with its default options, oai_dc first. */
function defaultFormats(): FormatConfig[] {
  const optIn = new Set(BUILT_IN_FORMATS.filter((f) => f.optIn === true).map((f) => f.prefix));
  return Object.entries(BUILTIN_FORMATS)
    .filter(([prefix]) => !optIn.has(prefix))
    .map(([prefix, options]) => ({ prefix, kind: 'builtin', options: { ...options } }));
}

/**
 * Takes `--config FILE` (or `--config=FILE`) out of the arguments, wherever
 * it stands, so every command reads the same configuration.
 */
export function splitConfigFlag(argv: readonly string[]): { file: string | undefined; rest: string[] } {
  const rest: string[] = [];
  let file: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--config') {
      const next = argv[i + 1];
      if (next === undefined) throw new ConfigError('--config needs a file name');
      file = next;
      i++;
    } else if (a.startsWith('--config=')) {
      file = a.slice('--config='.length);
    } else {
      rest.push(a);
    }
  }
  return { file, rest };
}

// ------------------------------------------------------------------ keys
