/**
 * Wiring: configuration → database → store → protocol context → app. The
 * one place that knows how the pieces fit; `serve`, the CLI and the tests
 * all open a provider through it.
 */
import pino from 'pino';
import type { Logger } from 'pino';
import { describeRepository } from '../lib/oai/descriptions';
import { dumpsDescription } from '../lib/dump/description';
import { DUMPS_PATH } from './http/dumps';
import type { FormatRegistry } from '../lib/formats/registry';
import type { IdPolicy } from '../lib/ids/policy';
import { parsePoi, POI_PREFIX } from '../lib/ids/poi';
import { toRequestArgument } from '../lib/ids/oai-identifier';
import type { ProviderContext } from '../lib/oai';
import type { ReadStore, RepositoryStore } from '../lib/store';
import { createApp } from './app';
import { formatsOf, policyOf, readerConfigOf, type ReaderConfig } from './conversion';
import type { PoiResolver } from './http/poi';
import type { Config } from './config';
import { createMetrics, type Metrics } from './http/metrics';
import { lastLoad } from './runs';
import { loadDemo } from './demo';
import { markDemo } from './demo-guard';
import { KnexStore } from './store/knex-store';
import { openDatabase, openReplica, type OpenedDatabase, type StoreConnection } from './store/database';
import { PagePrefetch } from './http/prefetch';
import type { HolderKind } from './store/holders';
import type { Replication } from './store/replication';
import { createXsdChecks } from './xsd/format-checks';
import { addCatalogs } from './xsd/libxml';
import { logDescription } from '../lib/tlog/description';
import type { PublicationLogStore } from '../lib/tlog/store';
import { logPathOf } from './http/log';
import { ephemeralLogKey, loadOrCreateLogKey, type LogKey } from './log-key';
import { publicationLogOf } from './store/publication-log';

/** An opened repository: its store, its protocol context, and how to close it. */
export interface Provider {
  readonly config: Config;
  /** The store: every table is reached through it (lib/store/admin.ts `RepositoryStore`). */
  readonly store: RepositoryStore;
  readonly policy: IdPolicy;
  readonly formats: FormatRegistry;
  /**
   * The part of the configuration `formats` is built from alone
   * (./conversion.ts), so another thread can build the same; undefined when
   * the format registry was given in code rather than by the configuration.
   */
  readonly readerConfig: ReaderConfig | undefined;
  readonly logger: Logger;
  /** Calls `listener` after every write through `store` (or a transaction of it) has committed. */
  onWrite(listener: () => void): void;
  /** Builds the protocol context (reads the token secret from the store when not configured). */
  context(): Promise<ProviderContext>;
  /**
   * Empties SQLite's write-ahead log into the store's file (nothing on
   * PostgreSQL): what an interrupted command does before it closes, so no
   * large log of rolled-back pages is left beside the store.
   */
  checkpoint(): Promise<void>;
  /** The publication log, as its endpoints and `doctor` read it. */
  readonly publicationLog: PublicationLogStore;
  /** The log's signing key: read from `logKeyFile`, made there (named `<namespace>/log`) when absent. */
  logKey(): LogKey;
  close(): Promise<void>;
}

/**
 * Opens the store named by the configuration and migrates it; with `hold`,
 * registers the process as a holder of the store until `close`
 * (./store/holders.ts: a restore is refused meanwhile). With `create:
 * false` (every command but serve, migrate, seed, load and harvest) a missing store
 * or an older schema is refused instead (./store/database.ts
 * `StoreRefusedError`); a store a newer oai-steward migrated always is.
 * Nothing stays open when it fails: the database is closed on every path.
 */
export async function openProvider(
  config: Config,
  options: { logger?: Logger; clock?: () => number; formats?: FormatRegistry; hold?: HolderKind; create?: boolean } = {},
): Promise<Provider> {
  const logger = options.logger ?? pino({ level: config.logLevel });
  const db = await openDatabase(config.databaseUrl, {
    log: logger,
    ...(options.hold !== undefined && { hold: options.hold }),
    ...(options.create !== undefined && { create: options.create }),
  });
  try {
    return providerOn(config, db, logger, options);
  } catch (err) {
    await db.close();
    throw err;
  }
}

/** The provider over an opened database (what openProvider builds once the store is open). */
function providerOn(config: Config, db: OpenedDatabase, logger: Logger, options: { clock?: () => number; formats?: FormatRegistry }): Provider {
  // The formats the configuration names (built-in ones with their options, declared ones with their
  // local XSD), built as the loader's reading thread builds them (./conversion.ts).
  const readerConfig = options.formats ? undefined : readerConfigOf(config);
  const formats = options.formats ?? formatsOf(readerConfigOf(config));
  const policy = policyOf(readerConfigOf(config));
  addCatalogs(formats.all().flatMap((f) => (f.localSchema?.catalog !== undefined ? [f.localSchema.catalog] : [])));
  const store = createStore(config, db.connection, formats, options.clock, config.tokenPositions ? { primary: db.connection } : undefined);
  // A read replica: list and GetRecord requests read it, following the primary (./store/replication.ts);
  // never migrated (a standby is read-only: it follows the primary's schema).
  const replica = config.readReplica !== undefined ? openReplica(config.readReplica) : undefined;
  const reads = replica ? createStore(config, replica.connection, formats, options.clock, { primary: db.connection }) : store;
  let key: LogKey | undefined;
  const logKey = (): LogKey =>
    (key ??= config.logKeyFile === undefined ? ephemeralLogKey(`${config.namespace}/log`) : loadOrCreateLogKey(config.logKeyFile, `${config.namespace}/log`));
  return {
    config,
    store,
    policy,
    formats,
    readerConfig,
    logger,
    onWrite: (listener) => store.onCommit(listener),
    async context() {
      return {
        store: reads,
        formats,
        repository: {
          name: config.repositoryName,
          baseURL: config.baseUrl,
          adminEmails: config.adminEmails,
          namespace: config.namespace,
          compression: config.compression,
          createdAt: await store.createdAt(),
          descriptions: [
            ...describeRepository(config.identify).map(([, xml]) => xml),
            ...(config.dumpDir !== undefined ? [dumpsDescription(new URL(DUMPS_PATH, config.baseUrl).href)] : []),
            logDescription({ url: logUrlOf(config.baseUrl), origin: logKey().name, verifierKey: logKey().verifier }),
          ],
        },
        pageSize: config.pageSize,
        pageBytes: config.pageBytes,
        tokenSecret: config.tokenSecret ?? (await store.tokenSecret()),
        tokenLifetime: config.tokenLifetime,
      };
    },
    checkpoint: () => db.checkpoint(),
    publicationLog: publicationLogOf(db.connection),
    logKey,
    async close() {
      await replica?.close();
      await db.close();
    },
  };
}

/** The publication log's URL for an OAI-PMH base URL: `https://x.org/oai` → `https://x.org/oai/log/`. */
export function logUrlOf(baseUrl: string): string {
  const u = new URL(baseUrl);
  return new URL(logPathOf(u.pathname || '/'), u).href;
}

/**
 * The store a configuration describes, on a migrated database: its id
 * policy, its formats and their checks, and the choices the write pipeline
 * makes for it (sets by rule, rights containers, the oai_dc profile).
 *
 * @example const store = createStore(config, db.connection, registryFromDeclarations(config.formats));
 */
export function createStore(config: Config, connection: StoreConnection, formats: FormatRegistry, clock?: () => number, replication?: Replication): KnexStore {
  return new KnexStore({
    knex: connection,
    policy: policyOf(readerConfigOf(config)),
    formats,
    formatChecks: createXsdChecks(formats),
    rightsInAbout: config.rightsInAbout,
    tombstonePrefixes: formats.all().map((f) => f.prefix),
    setRules: config.sets,
    oaiDcProfile: config.oaiDcProfile,
    poiInDublinCore: config.poiInDublinCore,
    writtenFormats: config.writtenFormats,
    storedFormats: config.storedFormats,
    sources: config.sources.map((s) => s.name),
    liftOrder: config.liftOrder,
    ...(replication && { replication }),
    ...(clock && { clock }),
  });
}

/**
 * Loads the demo repository when the store holds no item yet (or always,
 * with `force`), and remembers the namespace it was published under
 * (./demo-guard.ts). Returns how many items were loaded (0 when it was not empty).
 */
export async function seedIfEmpty(p: Provider, options: { force?: boolean } = {}): Promise<number> {
  if (!options.force && (await p.store.earliestDatestamp()) !== null) return 0;
  const n = await loadDemo(p.store, p.formats);
  await markDemo(p.store, p.config.namespace);
  return n;
}

/**
 * Resolves `GET /poi/{namespace}/{local}`: 303 to the record's
 * GetRecord, 404 for an unknown item, 410 for a deleted one.
 */
export function poiResolver(store: ReadStore, baseUrl: string): PoiResolver {
  return async (namespace, local) => {
    const poi = `${POI_PREFIX}${namespace}/${local}`;
    const parsed = parsePoi(poi);
    if (!parsed.ok) return { status: 404 };
    const header = await store.getHeader(`oai:${namespace}:${local}`);
    if (!header) return { status: 404 };
    if (header.deleted) return { status: 410 };
    return {
      status: 303,
      location: `${baseUrl}?verb=GetRecord&metadataPrefix=oai_dc&identifier=${toRequestArgument(header.identifier)}`,
      identifier: header.identifier,
    };
  };
}

/**
 * The next-page prefetcher of an opened provider when its configuration asks
 * for one, cleared by every write the provider's store makes: a prepared page
 * never outlives a write of this process (server/http/prefetch.ts).
 *
 * @example createApp({ ctx, logger, …, ...(prefetch && { prefetch }) }) // with const prefetch = pagePrefetch(p)
 */
export function pagePrefetch(p: Provider): PagePrefetch | undefined {
  if (!p.config.prefetch) return undefined;
  const prefetch = new PagePrefetch();
  p.onWrite(() => prefetch.invalidate());
  return prefetch;
}

/** Makes the Express app of an opened provider. */
export async function providerApp(p: Provider, options: { readonly onMetrics?: (m: Metrics) => void } = {}) {
  const ctx = await p.context();
  const prefetch = pagePrefetch(p);
  const metrics = p.config.metrics
    ? createMetrics({
        pool: () => p.store.poolUse(),
        loaderRun: () => lastLoad(p.store),
        runTotals: () => p.store.runTotals(),
        ...(ctx.store.replicaLag && { replicaLag: ctx.store.replicaLag }),
      })
    : undefined;
  if (metrics) options.onMetrics?.(metrics);
  return createApp({
    ctx,
    logger: p.logger,
    compressionLevel: p.config.compressionLevel,
    maxInFlight: p.config.maxInFlight,
    retryAfter: p.config.retryAfter,
    replicaMaxLag: p.config.replicaMaxLag,
    bodyTimeoutMs: p.config.bodyTimeout * 1000,
    clients: {
      maxInFlight: p.config.clientMaxInFlight,
      ratePerMinute: p.config.clientRate,
      burst: p.config.clientBurst,
    },
    poi: poiResolver(p.store, p.config.baseUrl),
    recordFields: p.store,
    runs: p.store,
    ...(p.config.dumpDir !== undefined && { dumpDir: p.config.dumpDir }),
    log: { store: p.publicationLog, key: p.logKey() },
    trustProxy: p.config.trustProxy,
    ...(metrics && { metrics }),
    ...(prefetch && { prefetch }),
  });
}
