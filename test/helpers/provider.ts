/**
 * A real OAI-PMH server over a real store, per database, for protocol tests:
 * the demo repository loaded through the write path, an Express app on a
 * random port, and helpers to send GET/POST requests and validate answers.
 */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import pino from 'pino';
import { createApp } from '../../server/app';
import type { AppOptions } from '../../server/app';
import { migrate } from '../../server/db/migrations';
import { KnexStore } from '../../server/store/knex-store';
import { createIdPolicy } from '../../lib/ids/policy';
import { poiFromOaiIdentifier } from '../../lib/ids/poi';
import { createFormatRegistry } from '../../lib/formats/registry';
import type { FormatRegistry } from '../../lib/formats/registry';
import { loadDemo } from '../../server/demo';
import { poiResolver } from '../../server/provider';
import type { ProviderContext } from '../../lib/oai';
import { testTargets } from './db';
import { assertValid } from './xsd';
import { httpRequest } from '../../bench/http-request';

export const DEMO_NAMESPACE = 'demo.oai-steward.org';
export const BASE_URL = 'http://localhost/oai';

/** A running test repository. */
export interface TestProvider {
  readonly port: number;
  readonly knex: Knex;
  readonly store: KnexStore;
  readonly ctx: ProviderContext;
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
  /** The formats offered (default: oai_dc only). */
  readonly formats?: FormatRegistry;
  readonly app?: Partial<AppOptions>;
}

/** The identifiers the demo repository publishes, mapped the way the write path maps them. */
export function demoIdentifiers(): { identifier: string; internalId: string; deleted: boolean; sets: string[]; datestamp: string }[] {
  const policy = createIdPolicy({ namespace: DEMO_NAMESPACE, mode: 'auto' });
  return fs
    .readFileSync(path.join(__dirname, '..', '..', 'seeds', 'demo', 'records.ndjson'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { id: string; deleted?: boolean; sets?: string[]; datestamp: string })
    .map((r) => ({ identifier: policy.map(r.id).identifier, internalId: r.id, deleted: r.deleted === true, sets: r.sets ?? [], datestamp: r.datestamp }));
}

/**
 * Calls `body` once per test database inside a `describe`, with a provider
 * that is opened (and seeded with the demo repository) before the block's
 * tests and closed after them.
 */
export function forEachProvider(options: TestProviderOptions, body: (get: () => TestProvider) => void): void {
  for (const target of testTargets()) {
    describe(`on ${target.name}`, function () {
      this.timeout(60_000);
      let provider: TestProvider | undefined;
      before(async () => {
        provider = await openTestProvider(target, options);
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

async function openTestProvider(target: ReturnType<typeof testTargets>[number], options: TestProviderOptions): Promise<TestProvider> {
  const db = await target.open();
  await migrate(db.knex);
  const policy = createIdPolicy({ namespace: DEMO_NAMESPACE, mode: 'auto' });
  const clocks = { now: Math.floor(Date.now() / 1000), writeNow: Math.floor(Date.now() / 1000) };
  const store = new KnexStore({ knex: db.knex, policy, namespace: DEMO_NAMESPACE, clock: () => clocks.writeNow });
  const formats = options.formats ?? createFormatRegistry();
  if (options.seed !== false) {
    await loadDemo(store, { formats, extraIdentifiers: (id) => [poiFromOaiIdentifier(policy.map(id).identifier)] });
  }
  const ctx: ProviderContext = {
    store,
    formats,
    repository: { name: 'Test repository', baseURL: BASE_URL, adminEmails: ['admin@example.org'], namespace: DEMO_NAMESPACE, compression: ['gzip', 'deflate'] },
    pageSize: options.pageSize ?? 100,
    tokenSecret: 'test-secret',
    tokenLifetime: options.tokenLifetime ?? 172800,
  };
  const app = createApp({
    ctx,
    logger: pino({ level: 'silent' }),
    compressionLevel: 4,
    maxInFlight: 64,
    retryAfter: 10,
    now: () => clocks.now,
    poi: poiResolver(store, BASE_URL),
    ...options.app,
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const provider: TestProvider = {
    port,
    knex: db.knex,
    store,
    ctx,
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
      await db.close();
    },
  };
  return provider;
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
    dec ? String.fromCodePoint(Number(dec)) : ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[name] ?? '',
  );
}
