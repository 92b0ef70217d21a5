/**
 * The one way tests get a running oai-steward, built the way production
 * builds it (server/provider.ts `openProvider`):
 *
 * - {@link forEachProvider}: per test database (test/helpers/db.ts), a
 *   provider opened on a throwaway database and seeded with the demo
 *   repository through the store's write gate, served in-process on a
 *   random port with clocks the tests move;
 * - {@link startTestServer}: the whole `serve` command on a free port over a
 *   fresh SQLite file, for tests of the process as an operator runs it.
 *
 * Plus the requests a harvester sends and the checks every answer passes
 * (HTTP 200, text/xml, valid against the OAI-PMH XSDs).
 */
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { createApp } from '../../server/app';
import type { AppOptions } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { PagePrefetch } from '../../server/http/prefetch';
import { openProvider, pagePrefetch, poiResolver, seedIfEmpty } from '../../server/provider';
import { startServer } from '../../server/serve';
import type { RunningServer } from '../../server/serve';
import type { RepositoryStore } from '../../lib/store';
import type { FormatRegistry } from '../../lib/formats/registry';
import type { ProviderContext } from '../../lib/oai';
import { freePort } from '../../harness/free-port';
import { httpRequest } from '../../harness/http-request';
import { databaseKinds, openThrowawayDatabase, type DatabaseKind, type ThrowawayDatabase } from './db';
import { DEMO_NAMESPACE } from './demo-records';
import { assertValid } from './xsd';

/** The base URL the in-process providers answer for (what Identify advertises). */
export const BASE_URL = 'http://localhost/oai';

/** A running test repository. */
export interface TestProvider {
  readonly port: number;
  readonly knex: Knex;
  readonly store: RepositoryStore;
  readonly ctx: ProviderContext;
  /** How records of the project's format become items here (the configured formats' crosswalks). */
  readonly formats: FormatRegistry;
  /** The next-page prefetcher the app uses (server/http/prefetch.ts), as production wires it; absent when configured off. */
  readonly prefetch: PagePrefetch | undefined;
  /** The clock the app answers with (seconds); tests may move it. */
  now: number;
  /** The clock the store stamps writes with (seconds); tests may move it. */
  writeNow: number;
  close(): Promise<void>;
}

/** An HTTP answer, decoded. */
export interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** Options of a test provider. */
export interface TestProviderOptions {
  readonly pageSize?: number;
  readonly tokenLifetime?: number;
  readonly seed?: boolean;
  /** The formats offered (default: the configured ones). */
  readonly formats?: FormatRegistry;
  readonly app?: Partial<AppOptions>;
  /** Serve this database (e.g. one a CLI test loaded) instead of a fresh one; it is left open on close. */
  readonly database?: ThrowawayDatabase;
  /** More configuration variables (server/config.ts), e.g. `{ OAI_RIGHTS_IN_ABOUT: 'true' }`. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Calls `body` once per test database inside a `describe`, with a provider
 * that is opened (and seeded with the demo repository) before the block's
 * tests and closed after them.
 *
 * @example forEachProvider({ pageSize: 10 }, (get) => { it('answers', async () => oaiGet(get().port, 'verb=Identify')); });
 */
export function forEachProvider(options: TestProviderOptions, body: (get: () => TestProvider) => void): void {
  for (const kind of databaseKinds()) {
    describe(`on ${kind}`, function () {
      this.timeout(60_000);
      let provider: TestProvider | undefined;
      before(async () => {
        provider = await openTestProvider(kind, options);
      });
      after(async () => {
        await provider?.close();
      });
      body(() => {
        if (!provider) throw new Error('provider not open');
        return provider;
      });
    });
  }
}

/**
 * Opens and serves one test provider (what {@link forEachProvider} does per
 * database); with `options.database`, on that database.
 *
 * @example const p = await openTestProvider('sqlite', { seed: false, database: db() }); try { … } finally { await p.close(); }
 */
export async function openTestProvider(kind: DatabaseKind, options: TestProviderOptions): Promise<TestProvider> {
  const db = options.database ?? (await openThrowawayDatabase(kind));
  const clocks = { now: Math.floor(Date.now() / 1000), writeNow: Math.floor(Date.now() / 1000) };
  const config = loadConfig({
    DATABASE_URL: db.url,
    LOG_LEVEL: 'silent',
    OAI_BASE_URL: BASE_URL,
    OAI_NAMESPACE: DEMO_NAMESPACE,
    OAI_REPOSITORY_NAME: 'Test repository',
    OAI_ADMIN_EMAILS: 'admin@example.org',
    OAI_COMPRESSION: 'gzip,deflate',
    OAI_TOKEN_SECRET: 'test-secret',
    OAI_PAGE_SIZE: String(options.pageSize ?? 100),
    OAI_TOKEN_LIFETIME: String(options.tokenLifetime ?? 172800),
    // A PostgreSQL store has no folder of its own for its key: the test's (a SQLite store keeps it beside its file).
    ...(kind === 'postgres' && { OAI_LOG_KEY_FILE: path.join(db.dir, 'log.key') }),
    ...options.env,
  });
  const p = await openProvider(config, { clock: () => clocks.writeNow, ...(options.formats && { formats: options.formats }) });
  if (options.seed !== false) await seedIfEmpty(p);
  const ctx = await p.context();
  const prefetch = pagePrefetch(p);
  const app = createApp({
    ctx,
    logger: p.logger,
    compressionLevel: config.compressionLevel,
    maxInFlight: config.maxInFlight,
    retryAfter: config.retryAfter,
    now: () => clocks.now,
    poi: poiResolver(p.store, BASE_URL),
    recordFields: p.store,
    runs: p.store,
    log: { store: p.publicationLog, key: p.logKey() },
    ...(prefetch && { prefetch }),
    ...options.app,
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    knex: db.knex(),
    store: p.store,
    ctx,
    formats: p.formats,
    prefetch,
    get now() {
      return clocks.now;
    },
    set now(v: number) {
      clocks.now = v;
    },
    get writeNow() {
      return clocks.writeNow;
    },
    set writeNow(v: number) {
      clocks.writeNow = v;
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await p.close();
      if (!options.database) await db.close();
    },
  };
}

/** A server started by {@link startTestServer}. */
export interface TestServer {
  /** The OAI-PMH base URL, e.g. `http://localhost:41234/oai` (what Identify advertises). */
  readonly baseUrl: string;
  /** The origin, e.g. `http://localhost:41234`, for `/healthz` and `/oai2.xsl`. */
  readonly origin: string;
  readonly port: number;
  /** The running server: its provider (store, knex, config) and `http.Server`, for tests that look inside. */
  readonly running: RunningServer;
  /** Stops the server (in-flight responses finish, the store closes) and deletes the database. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts a server on a free port with a fresh SQLite store holding the demo
 * repository. `env` adds to or overrides the configuration (keys as in
 * server/config.ts, e.g. `{ OAI_PAGE_SIZE: '50' }`); `DATABASE_URL`, `PORT`
 * and `OAI_BASE_URL` are chosen here unless given.
 *
 * @example
 * const server = await startTestServer();
 * const res = await fetch(`${server.baseUrl}?verb=Identify`);
 * await server.stop();
 */
export async function startTestServer(env: NodeJS.ProcessEnv = {}): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-server-'));
  // A port picked and freed can be taken by someone else before we listen: try a few.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const config = loadConfig({
      DATABASE_URL: `sqlite:${path.join(dir, 'store.sqlite')}`,
      PORT: String(port),
      OAI_BASE_URL: `http://localhost:${port}/oai`,
      LOG_LEVEL: 'silent',
      OAI_SEED_DEMO: 'true',
      // Every test request comes from 127.0.0.1, standing for many clients: no per-client limit unless a test sets one.
      OAI_CLIENT_MAX_IN_FLIGHT: '0',
      ...env,
    });
    let running: RunningServer;
    try {
      running = await startServer(config);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 5) continue;
      fs.rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    let stopped: Promise<void> | undefined;
    return {
      baseUrl: config.baseUrl,
      origin: new URL(config.baseUrl).origin,
      port: running.port,
      running,
      stop() {
        stopped ??= running.stop().finally(() => fs.rmSync(dir, { recursive: true, force: true }));
        return stopped;
      },
    };
  }
}

/** Sends a raw request and returns the decoded answer (gzip/deflate undone). */
export function request(
  port: number,
  options: { method?: string; path?: string; query?: string; body?: string | Buffer; headers?: http.OutgoingHttpHeaders },
): Promise<Answer> {
  const p = options.path ?? '/oai';
  return httpRequest({
    port,
    path: options.query !== undefined ? `${p}?${options.query}` : p,
    ...(options.method !== undefined && { method: options.method }),
    ...(options.headers !== undefined && { headers: options.headers }),
    ...(options.body !== undefined && { body: options.body }),
  });
}

/** GET with a query string; asserts HTTP 200, text/xml and XSD validity, and returns the body. */
export async function oaiGet(port: number, query: string): Promise<string> {
  const a = await request(port, { query });
  return checkOai(a);
}

/** POST a form body; same checks as {@link oaiGet}. */
export async function oaiPost(port: number, body: string): Promise<string> {
  const a = await request(port, { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
  return checkOai(a);
}

/** Asserts an OAI-PMH answer: 200, text/xml; charset=UTF-8, XSD-valid. */
export function checkOai(a: Answer): string {
  if (a.status !== 200) throw new Error(`HTTP ${a.status}: ${a.body.slice(0, 300)}`);
  if (!/^text\/xml; charset=utf-8$/i.test(String(a.headers['content-type']))) throw new Error(`Content-Type ${a.headers['content-type']}`);
  assertValid(a.body);
  return a.body;
}

/** Every match of a simple element's text. */
export function texts(xml: string, element: string): string[] {
  const re = new RegExp(`<${element}(?: [^>]*)?>([^<]*)</${element}>`, 'g');
  return [...xml.matchAll(re)].map((m) => unescapeXml(m[1] as string));
}

/** The error codes of a response. */
export function errorCodes(xml: string): string[] {
  return [...xml.matchAll(/<error code="([^"]+)"/g)].map((m) => m[1] as string);
}

/** The resumptionToken element's attributes and text, or null. */
export function resumption(xml: string): { token: string; cursor?: number; completeListSize?: number; expirationDate?: string } | null {
  const m = /<resumptionToken([^>]*)>([^<]*)<\/resumptionToken>|<resumptionToken([^>]*)\/>/.exec(xml);
  if (!m) return null;
  const attrs = m[1] ?? m[3] ?? '';
  const attr = (n: string): string | undefined => new RegExp(`${n}="([^"]*)"`).exec(attrs)?.[1];
  const cursor = attr('cursor');
  const size = attr('completeListSize');
  const exp = attr('expirationDate');
  return {
    token: unescapeXml(m[2] ?? ''),
    ...(cursor !== undefined && { cursor: Number(cursor) }),
    ...(size !== undefined && { completeListSize: Number(size) }),
    ...(exp !== undefined && { expirationDate: exp }),
  };
}

/** The request element's attributes. */
export function requestAttributes(xml: string): Record<string, string> {
  const m = /<request([^>]*)>/.exec(xml);
  const out: Record<string, string> = {};
  for (const a of (m?.[1] ?? '').matchAll(/ (\w+)="([^"]*)"/g)) out[a[1] as string] = unescapeXml(a[2] as string);
  return out;
}

export function unescapeXml(s: string): string {
  return s.replace(/&(lt|gt|quot|apos|amp|#(\d+));/g, (_m, name: string, dec?: string) =>
    dec ? String.fromCodePoint(Number(dec)) : (({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[name] ?? ''),
  );
}
