/**
 * Operator metrics at `GET /metrics`: the text parses as the Prometheus
 * exposition format (0.0.4), and the counters move by exactly what the
 * requests sent between two scrapes did: verbs, HTTP statuses and OAI error
 * codes, records and bytes served, refused resumption tokens by reason,
 * load-shed 503s; plus the database pool, the loader's last run however it
 * ended, and OAI_METRICS=false turning the endpoint off.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import pino from 'pino';
import { createApp } from '../../../server/app';
import { createMetrics } from '../../../server/http/metrics';
import type { ReadStore, RunReport } from '../../../lib/store';
import { NO_COUNTS } from '../../../lib/run-report';
import { lastLoad } from '../../../server/runs';
import { toRequestArgument } from '../../../lib/ids/oai-identifier';
import { checkOai, forEachProvider, request, resumption } from '../../helpers/server';
import { demoRecords } from '../../helpers/demo-records';
import { startTestServer } from '../../helpers/server';

/** One sample line: `name{labels} value`. */
interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"`;
const SAMPLE_RE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*)?,?\\})? (\\S+)(?: -?\\d+)?$`);
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/**
 * Parses the Prometheus text exposition format strictly enough to catch a
 * broken exposition: every line is a HELP, a TYPE or a sample; each TYPE
 * comes once and before its samples; every sample belongs to a declared
 * family (histograms through _bucket/_sum/_count); values are numbers.
 */
function parseExposition(text: string): Sample[] {
  expect(text.endsWith('\n'), 'the exposition ends with a newline').to.equal(true);
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string];
      expect(name, line).to.match(new RegExp(`^${NAME}$`));
      if (kind === 'TYPE') {
        expect(types.has(name), `TYPE of ${name} given twice`).to.equal(false);
        expect(TYPES.has(rest), line).to.equal(true);
        types.set(name, rest);
      }
      continue;
    }
    expect(line.startsWith('#'), `an unknown comment line: ${line}`).to.equal(false);
    const m = SAMPLE_RE.exec(line);
    expect(m, `not a sample line: ${line}`).to.not.equal(null);
    const [, name, labelText, rawValue] = m as unknown as [string, string, string | undefined, string];
    const value = rawValue === '+Inf' ? Infinity : rawValue === '-Inf' ? -Infinity : Number(rawValue);
    expect(Number.isNaN(value) && rawValue !== 'NaN', `not a number: ${line}`).to.equal(false);
    const family = types.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
    expect(types.has(family), `sample before (or without) its TYPE: ${line}`).to.equal(true);
    const labels: Record<string, string> = {};
    for (const l of (labelText ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1] as string] = l[2] as string;
    samples.push({ name, labels, value });
  }
  return samples;
}

/** The value of the one sample with this name whose labels include `labels`, or 0 when there is none. */
function valueOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  expect(found.length, `${name} ${JSON.stringify(labels)} matches more than one sample`).to.be.at.most(1);
  return found[0]?.value ?? 0;
}

async function scrape(port: number): Promise<Sample[]> {
  const a = await request(port, { path: '/metrics' });
  expect(a.status).to.equal(200);
  expect(String(a.headers['content-type'])).to.match(/^text\/plain; version=0\.0\.4; charset=utf-8$/);
  return parseExposition(a.body);
}

describe('operator metrics at GET /metrics', function () {
  this.timeout(60_000);
  forEachProvider({ pageSize: 100 }, (get) => {
    let server: http.Server | undefined;
    let port = 0;
    let slow = false;
    let now = Math.floor(Date.now() / 1000);

    before(async () => {
      const store = get().ctx.store;
      // Reads take 200 ms while `slow` is set, so concurrent requests pile up past the limit.
      const slowable = new Proxy(store, {
        get(target, prop, receiver) {
          const v = Reflect.get(target, prop, receiver) as unknown;
          if (typeof v !== 'function') return v;
          return async (...args: unknown[]) => {
            if (slow) await new Promise((r) => setTimeout(r, 200));
            return (v as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      }) as ReadStore;
      const app = createApp({
        ctx: { ...get().ctx, store: slowable },
        logger: pino({ level: 'silent' }),
        compressionLevel: 1,
        maxInFlight: 2,
        retryAfter: 5,
        now: () => now,
        metrics: createMetrics({ pool: () => get().store.poolUse(), loaderRun: () => lastLoad(get().store) }),
      });
      server = http.createServer(app);
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    after(async () => {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    });

    it('serves an exposition that parses, with every documented metric family declared', async () => {
      const a = await request(port, { path: '/metrics' });
      for (const family of [
        'oai_requests_total',
        'oai_errors_total',
        'oai_request_duration_seconds',
        'oai_records_served_total',
        'oai_response_bytes_total',
        'oai_load_shed_total',
        'oai_token_rejections_total',
        'oai_requests_in_flight',
        'oai_db_pool_connections',
        'oai_loader_last_run_records',
        'oai_loader_last_run_refusals',
        'oai_loader_last_run_duration_seconds',
        'oai_loader_last_run_finished_timestamp_seconds',
      ]) {
        expect(a.body, family).to.contain(`# TYPE ${family} `);
      }
      parseExposition(a.body);
    });

    it('counts requests by verb, status and error code, records and bytes served, and the latency of each', async () => {
      const before = await scrape(port);
      const live = demoRecords().find((d) => !d.deleted);
      if (!live) throw new Error('the demo repository has no live record');
      const answers = [
        await request(port, { query: 'verb=Identify' }),
        await request(port, { query: 'verb=ListRecords&metadataPrefix=oai_dc' }),
        await request(port, { query: 'verb=ListIdentifiers&metadataPrefix=oai_dc' }),
        await request(port, { query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${toRequestArgument(live.identifier)}` }),
        await request(port, { query: 'verb=GetRecord&metadataPrefix=oai_dc&identifier=oai%3Ademo.oai-steward.org%3Anone' }),
        await request(port, { query: 'verb=Frobnicate' }),
        await request(port, { query: 'verb=ListRecords&metadataPrefix=oai_dc&bogus=1' }),
      ];
      for (const a of answers) checkOai(a);
      const identityBytes = answers.reduce((n, a) => n + Buffer.byteLength(a.body), 0);
      const after = await scrape(port);
      const delta = (name: string, labels: Record<string, string> = {}): number => valueOf(after, name, labels) - valueOf(before, name, labels);

      expect(delta('oai_requests_total', { verb: 'Identify', status: '200', error: 'none' })).to.equal(1);
      expect(delta('oai_requests_total', { verb: 'ListRecords', status: '200', error: 'none' })).to.equal(1);
      expect(delta('oai_requests_total', { verb: 'GetRecord', status: '200', error: 'none' })).to.equal(1);
      expect(delta('oai_requests_total', { verb: 'GetRecord', status: '200', error: 'idDoesNotExist' })).to.equal(1);
      expect(delta('oai_requests_total', { verb: 'none', status: '200', error: 'badVerb' })).to.equal(1);
      expect(delta('oai_requests_total', { verb: 'ListRecords', status: '200', error: 'badArgument' })).to.equal(1);
      expect(delta('oai_errors_total', { verb: 'GetRecord', code: 'idDoesNotExist' })).to.equal(1);
      expect(delta('oai_errors_total', { verb: 'none', code: 'badVerb' })).to.equal(1);
      // A page of 100 records, a page of 100 headers, and one GetRecord.
      expect(delta('oai_records_served_total', { verb: 'ListRecords' })).to.equal(100);
      expect(delta('oai_records_served_total', { verb: 'ListIdentifiers' })).to.equal(100);
      expect(delta('oai_records_served_total', { verb: 'GetRecord' })).to.equal(1);
      expect(delta('oai_response_bytes_total', { coding: 'identity' })).to.equal(identityBytes);
      expect(delta('oai_request_duration_seconds_count', { verb: 'ListRecords' })).to.equal(2);
      expect(delta('oai_request_duration_seconds_bucket', { verb: 'GetRecord', le: '+Inf' })).to.equal(2);
      expect(delta('oai_request_duration_seconds_sum', { verb: 'Identify' })).to.be.above(0);
      // The scrapes themselves are not OAI-PMH requests.
      expect(valueOf(after, 'oai_requests_total', { verb: 'none', status: '200', error: 'none' })).to.equal(0);
    });

    it('counts bytes as sent when the answer is compressed', async () => {
      const before = await scrape(port);
      const a = await request(port, { query: 'verb=Identify', headers: { 'Accept-Encoding': 'gzip' } });
      checkOai(a);
      expect(a.headers['content-encoding']).to.equal('gzip');
      const after = await scrape(port);
      expect(valueOf(after, 'oai_response_bytes_total', { coding: 'gzip' }) - valueOf(before, 'oai_response_bytes_total', { coding: 'gzip' })).to.equal(
        Number(a.headers['content-length']),
      );
    });

    it('counts refused resumption tokens by reason', async () => {
      const first = checkOai(await request(port, { query: 'verb=ListRecords&metadataPrefix=oai_dc' }));
      const token = resumption(first)?.token;
      if (!token) throw new Error('the first page has no resumptionToken');
      const [version, payload, mac] = token.split('.') as [string, string, string];
      const forged = `${version}.${payload}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
      const before = await scrape(port);
      const ask = async (query: string): Promise<void> => {
        expect(checkOai(await request(port, { query }))).to.contain('<error code="badResumptionToken">');
      };
      await ask(`verb=ListRecords&resumptionToken=${encodeURIComponent(forged)}`);
      await ask('verb=ListRecords&resumptionToken=not-a-token');
      await ask('verb=ListIdentifiers&resumptionToken=not.a.token');
      await ask(`verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token)}`);
      const saved = now;
      now += get().ctx.tokenLifetime + 60;
      try {
        await ask(`verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`);
      } finally {
        now = saved;
      }
      const after = await scrape(port);
      const delta = (reason: string): number =>
        valueOf(after, 'oai_token_rejections_total', { reason }) - valueOf(before, 'oai_token_rejections_total', { reason });
      expect(delta('signature')).to.equal(1);
      expect(delta('malformed')).to.equal(2);
      expect(delta('verb')).to.equal(1);
      expect(delta('expired')).to.equal(1);
      expect(delta('stale')).to.equal(0);
      expect(
        valueOf(after, 'oai_errors_total', { verb: 'ListRecords', code: 'badResumptionToken' }) -
          valueOf(before, 'oai_errors_total', { verb: 'ListRecords', code: 'badResumptionToken' }),
      ).to.equal(3);
    });

    it('counts load-shed 503s, shows the requests in flight, and the pool in use meanwhile', async () => {
      const before = await scrape(port);
      slow = true;
      let during: Sample[] = [];
      try {
        const pending = Array.from({ length: 8 }, () => request(port, { query: 'verb=Identify', headers: { Connection: 'close' } }));
        await new Promise((r) => setTimeout(r, 100));
        // Scraping is not subject to the limit: the operator sees the overload while it happens.
        during = await scrape(port);
        const answers = await Promise.all(pending);
        const shed = answers.filter((a) => a.status === 503).length;
        expect(shed, 'requests past the limit of 2 were shed').to.be.at.least(1);
        for (const a of answers) if (a.status !== 503) checkOai(a);
        const after = await scrape(port);
        expect(valueOf(after, 'oai_load_shed_total') - valueOf(before, 'oai_load_shed_total')).to.equal(shed);
        expect(
          valueOf(after, 'oai_requests_total', { verb: 'none', status: '503', error: 'none' }) -
            valueOf(before, 'oai_requests_total', { verb: 'none', status: '503', error: 'none' }),
        ).to.equal(shed);
        expect(
          valueOf(after, 'oai_requests_total', { verb: 'Identify', status: '200', error: 'none' }) -
            valueOf(before, 'oai_requests_total', { verb: 'Identify', status: '200', error: 'none' }),
        ).to.equal(8 - shed);
      } finally {
        slow = false;
      }
      expect(valueOf(during, 'oai_requests_in_flight')).to.equal(2);
      expect(valueOf(during, 'oai_db_pool_connections', { state: 'max' })).to.be.at.least(1);
      const after = await scrape(port);
      expect(valueOf(after, 'oai_requests_in_flight')).to.equal(0);
      expect(valueOf(after, 'oai_db_pool_connections', { state: 'pending' })).to.equal(0);
    });

    /** A load's report as the loader records it, ended at `ended` (seconds). */
    const load = (ended: number, more: Partial<RunReport>): RunReport => ({
      kind: 'load',
      source: null,
      started: ended - 3,
      ended,
      outcome: 'completed',
      counts: NO_COUNTS,
      warnings: [],
      warningsOmitted: 0,
      error: null,
      refusals: [],
      refusalsOmitted: 0,
      ...more,
    });

    it("shows the loader's last run kept in the store", async () => {
      const ended = Math.floor(Date.now() / 1000);
      await get().store.recordRun(load(ended - 60, { counts: { ...NO_COUNTS, records: 1, inserted: 1 }, written: 1, seconds: 1 }));
      await get().store.recordRun(load(ended, { counts: { ...NO_COUNTS, records: 1239, inserted: 1234, refused: 5 }, written: 1234, seconds: 2.5 }));
      const after = await scrape(port);
      expect(valueOf(after, 'oai_loader_last_run_records')).to.equal(1234);
      expect(valueOf(after, 'oai_loader_last_run_refusals')).to.equal(5);
      expect(valueOf(after, 'oai_loader_last_run_duration_seconds')).to.equal(2.5);
      expect(valueOf(after, 'oai_loader_last_run_finished_timestamp_seconds')).to.equal(ended);
    });

    it("shows a failed load's figures, not those of the load that completed before it", async () => {
      const ended = Math.floor(Date.now() / 1000) + 10;
      await get().store.recordRun(load(ended - 30, { counts: { ...NO_COUNTS, records: 50, inserted: 50 }, written: 50, seconds: 4 }));
      await get().store.recordRun(
        load(ended, {
          outcome: 'failed',
          error: 'the database connection was lost',
          counts: { ...NO_COUNTS, records: 20, refused: 2 },
          written: 0,
          seconds: 0.75,
        }),
      );
      const after = await scrape(port);
      expect(valueOf(after, 'oai_loader_last_run_records')).to.equal(0);
      expect(valueOf(after, 'oai_loader_last_run_refusals')).to.equal(2);
      expect(valueOf(after, 'oai_loader_last_run_duration_seconds')).to.equal(0.75);
      expect(valueOf(after, 'oai_loader_last_run_finished_timestamp_seconds')).to.equal(ended);
    });
  });
});

describe('operator metrics in oai-steward serve', function () {
  this.timeout(60_000);

  it('serves /metrics by default, with the SQLite pool of a few connections', async () => {
    const server = await startTestServer();
    try {
      checkOai(await request(server.port, { query: 'verb=Identify' }));
      const samples = await scrape(server.port);
      expect(valueOf(samples, 'oai_db_pool_connections', { state: 'max' })).to.equal(4);
      expect(valueOf(samples, 'oai_requests_total', { verb: 'Identify', status: '200', error: 'none' })).to.equal(1);
    } finally {
      await server.stop();
    }
  });

  it('answers /metrics with 404 when OAI_METRICS=false', async () => {
    const server = await startTestServer({ OAI_METRICS: 'false' });
    try {
      expect((await request(server.port, { path: '/metrics' })).status).to.equal(404);
      checkOai(await request(server.port, { query: 'verb=Identify' }));
    } finally {
      await server.stop();
    }
  });
});
