/**
 * Operator metrics in the Prometheus text exposition format, served at
 * `GET /metrics` (prom-client). Each app gets its own registry, so several
 * apps in one process (the tests) never share counters. The loader's last
 * run is read from the store's report of runs at scrape time, because the
 * loader usually runs in another process (`oai-steward load`).
 *
 * Every metric is documented in docs/operations.md ("Metrics"). What is counted here
 * is read off what the app already knows about a request (its status, the
 * `Content-Length` it sent, the response value the protocol core returned),
 * so the OAI path pays a few map lookups per request and nothing per record.
 */
import type { Request, RequestHandler, Response } from 'express';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { decodeToken, VERBS } from '../../lib/oai';
import type { OaiResponse } from '../../lib/oai';
import type { PoolUse, ReplicaLag, RunTotal } from '../../lib/store';
import type { LoadFigures } from '../../lib/run-report';

export type { PoolUse };

/**
 * What the OAI handler leaves on `res.locals.oai` for the metrics: the
 * response value and the arguments as asked (for the verb of a badArgument
 * answer, which carries no request attributes, and the resumptionToken).
 */
export interface OaiOutcome {
  readonly response: OaiResponse;
  readonly pairs: readonly (readonly [string, string])[] | undefined;
}

/** The metrics of one app: its registry, the request observer and the scrape handler. */
export interface Metrics {
  readonly registry: Registry;
  /**
   * Middleware, mounted before load shedding: times and counts each request
   * to the OAI path when it finishes, and counts every load-shed 503
   * (the shedding middleware marks them with `res.locals.shed`).
   */
  observe(options: {
    /** The endpoint (`/oai`) and its companions: `/oai/xml` answers OAI-PMH too, `/oai/form` redirects. */
    readonly paths: { readonly oai: string; readonly xml: string; readonly form: string };
    readonly tokenSecret: string;
    readonly inFlight: () => number;
    /** Clients the per-client limiter tracks right now. */
    readonly clients: () => number;
  }): RequestHandler;
  /** Counts a request refused or lost before it did any work (server/http/admission.ts). */
  readonly refused: (reason: 'body-timeout' | 'body-too-large' | 'client-abort' | 'shed') => void;
  /** Counts a request answered 429 by the per-client limits (server/http/clients.ts). */
  readonly limited: (reason: 'concurrency' | 'rate' | 'pipelined') => void;
  /** Counts a request answered 503 because the read replica had not replayed what it needed (lib/store/read.ts `StoreBehindError`). */
  readonly behind: () => void;
  /** `GET /metrics`: the registry in the Prometheus text format, version 0.0.4. */
  readonly scrape: RequestHandler;
}

/** Seconds: from a fast GetRecord (about a millisecond) to a slow page on a loaded database. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

const VERB_SET: ReadonlySet<string> = new Set(VERBS);

/**
 * Makes the metrics of one app. `pool` reads the database pool's use at
 * scrape time (the store's `poolUse`); without it the pool gauges are absent.
 *
 * @example
 * const metrics = createMetrics({ pool: () => provider.store.poolUse() });
 * const app = createApp({ ...options, metrics });
 */
export function createMetrics(
  options: {
    readonly pool?: () => PoolUse | undefined;
    /** The last load recorded in the store, however it ended (server/runs.ts `lastLoad`), whichever process ran it. */
    readonly loaderRun?: () => Promise<LoadFigures | null>;
    /** Runs ever recorded in the store (lib/store/bookkeeping.ts `RunReports.runTotals`), whichever process ran them. */
    readonly runTotals?: () => Promise<readonly RunTotal[]>;
    /** How far the read replica this process reads stands behind its primary (lib/store/read.ts `ReadStore.replicaLag`); none on a primary. */
    readonly replicaLag?: () => Promise<ReplicaLag>;
  } = {},
): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> =>
    new Counter({ name, help, labelNames, registers });
  const requests = counter(
    'oai_requests_total',
    'Requests to the OAI-PMH endpoint, by verb (none when absent or not a verb), HTTP status and first OAI-PMH error code (none when the answer has no error).',
    ['verb', 'status', 'error'],
  );
  const errors = counter('oai_errors_total', 'OAI-PMH error elements answered, by verb and error code (one request can carry several).', ['verb', 'code']);
  const latency = new Histogram({
    name: 'oai_request_duration_seconds',
    help: 'Time from receiving an OAI-PMH request to the last byte of its answer handed to the socket, by verb.',
    labelNames: ['verb'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const items = counter(
    'oai_records_served_total',
    'Records (GetRecord, ListRecords) and headers (ListIdentifiers) served, by verb; deleted records included.',
    ['verb'],
  );
  const bytes = counter('oai_response_bytes_total', 'Bytes of OAI-PMH response bodies sent, as sent (after compression), by content coding.', ['coding']);
  const shed = counter('oai_load_shed_total', 'Requests refused with 503 and Retry-After because OAI_MAX_IN_FLIGHT requests were already in flight.');
  const behind = counter(
    'oai_replica_behind_total',
    'Requests answered 503 with Retry-After because the read replica had not yet replayed what they needed (a list page, or an item the primary may hold); load shedding counts apart, in oai_load_shed_total.',
  );
  const tokens = counter(
    'oai_token_rejections_total',
    'Resumption tokens refused with badResumptionToken, by reason: malformed, signature, expired, verb (a token of another verb), stale (well signed but naming a format or position that no longer exists).',
    ['reason'],
  );
  const refusals = counter(
    'oai_requests_refused_total',
    'Requests refused or lost before doing any work, by reason: body-timeout (408, the body did not arrive in time), body-too-large (413), client-abort (the client hung up mid-request).',
    ['reason'],
  );
  const limited = counter(
    'oai_client_limited_total',
    'Requests answered 429 with Retry-After by the per-client limits, by reason: concurrency (OAI_CLIENT_MAX_IN_FLIGHT), rate (OAI_CLIENT_RATE) or pipelined (more than 64 requests waiting on one connection).',
    ['reason'],
  );
  const http = counter(
    'oai_http_requests_total',
    'Every request the server answered, by route (oai, oai-xml, form, healthz, metrics, poi, resourcesync, other) and HTTP status.',
    ['route', 'status'],
  );
  let inFlight: (() => number) | undefined;
  let clients: (() => number) | undefined;
  new Gauge({
    name: 'oai_clients_tracked',
    help: 'Clients the per-client limits track right now (a request open, or a rate bucket not yet refilled).',
    registers,
    collect() {
      this.set(clients ? clients() : 0);
    },
  });
  new Gauge({
    name: 'oai_requests_in_flight',
    help: 'Requests being served right now (any path), the figure OAI_MAX_IN_FLIGHT limits.',
    registers,
    collect() {
      this.set(inFlight ? inFlight() : 0);
    },
  });
  if (options.pool) {
    const read = options.pool;
    new Gauge({
      name: 'oai_db_pool_connections',
      help: 'Database pool connections by state: used (lent to a query), free (idle, open), pending (requests waiting for one), max (the pool size).',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const use = read();
        if (!use) return;
        this.set({ state: 'used' }, use.used);
        this.set({ state: 'free' }, use.free);
        this.set({ state: 'pending' }, use.pending);
        this.set({ state: 'max' }, use.max);
      },
    });
  }
  if (options.loaderRun) {
    // One read of the store per scrape feeds the four gauges.
    const lastRun = oncePerScrape(options.loaderRun);
    const loaderGauge = (name: string, help: string, pick: (r: LoadFigures) => number): void => {
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          // A store that cannot be read leaves the gauge as it was: the rest of the scrape is still served.
          const run = await lastRun().catch(() => undefined);
          if (run !== undefined) this.set(run ? pick(run) : 0);
        },
      });
    };
    loaderGauge(
      'oai_loader_last_run_records',
      'Records written by the last load run on this store, however it ended and whichever process ran it (0 when none ran or it committed nothing).',
      (r) => r.records,
    );
    loaderGauge('oai_loader_last_run_refusals', 'Records refused by the last load run on this store.', (r) => r.refusals);
    loaderGauge('oai_loader_last_run_duration_seconds', 'Duration of the last load run on this store.', (r) => r.seconds);
    loaderGauge(
      'oai_loader_last_run_finished_timestamp_seconds',
      'When the last load run on this store finished (Unix time; 0 when none ran).',
      (r) => r.finished / 1000,
    );
  }

  if (options.runTotals) {
    // One read of the store per scrape feeds both counters, as for the loader's gauges.
    const totals = oncePerScrape(options.runTotals);
    const runCounter = (name: string, help: string, pick: (t: RunTotal) => number): void => {
      new Counter({
        name,
        help,
        labelNames: ['kind', 'source', 'outcome'] as const,
        registers,
        async collect() {
          // A store that cannot be read leaves the counter as it was: the rest of the scrape is still served.
          const all = await totals().catch(() => undefined);
          if (all === undefined) return;
          this.reset();
          for (const t of all) this.inc({ kind: t.kind, source: t.source ?? '', outcome: t.outcome }, pick(t));
        },
      });
    };
    runCounter(
      'oai_runs_total',
      'Runs recorded in the store (harvests of a source, loads), whichever process ran them, by kind, source (empty for a load) and outcome (completed, stopped, interrupted, failed).',
      (t) => t.runs,
    );
    runCounter('oai_run_refused_records_total', 'Records refused by those runs, by kind, source and outcome of the run.', (t) => t.refused);
  }

  if (options.replicaLag) {
    // One look at the replica and its primary per scrape feeds the three gauges; what cannot be known is NaN, never a stale figure.
    const lag = oncePerScrape(options.replicaLag);
    const replicaGauge = (name: string, help: string, pick: (l: ReplicaLag | undefined) => number | null): void => {
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          this.set(pick(await lag().catch(() => undefined)) ?? NaN);
        },
      });
    };
    replicaGauge(
      'oai_replica_lag_seconds',
      'How far the read replica this process reads stands behind its primary, in seconds: 0 when it has replayed all the primary has written, else the time since the last transaction it replayed was committed (NaN when unknown).',
      (l) => (l?.primary === 'reachable' ? l.seconds : null),
    );
    replicaGauge(
      'oai_replica_lag_bytes',
      'WAL bytes the primary has written that the read replica has not yet replayed (NaN when unknown, e.g. the primary does not answer).',
      (l) => (l?.primary === 'reachable' ? l.bytes : null),
    );
    replicaGauge('oai_replica_primary_up', 'Whether the primary of the read replica answered this process at the scrape (1) or not (0).', (l) =>
      l === undefined ? null : l.primary === 'reachable' ? 1 : 0,
    );
  }

  return {
    registry,
    behind() {
      behind.inc();
    },
    refused(reason) {
      if (reason === 'shed') shed.inc();
      else refusals.inc({ reason });
    },
    limited(reason) {
      limited.inc({ reason });
    },
    observe({ paths, tokenSecret, inFlight: count, clients: tracked }) {
      inFlight = count;
      clients = tracked;
      const routeOf = (path: string): string => {
        if (path === paths.oai) return 'oai';
        if (path === paths.xml) return 'oai-xml';
        if (path === paths.form) return 'form';
        if (path === '/healthz' || path === '/metrics') return path.slice(1);
        if (path.startsWith('/poi/')) return 'poi';
        if (path.startsWith('/resourcesync') || path.startsWith('/.well-known/resourcesync') || path.startsWith('/sitemap') || path === '/robots.txt')
          return 'resourcesync';
        return 'other';
      };
      const oaiSet = new Set([paths.oai, paths.xml]);
      return (req: Request, res: Response, next) => {
        const started = performance.now();
        res.on('finish', () => {
          // A bounded label: the route class, never the path a client wrote.
          http.inc({ route: routeOf(req.path), status: String(res.statusCode) });
          if (!oaiSet.has(req.path)) return;
          const outcome = res.locals.oai as OaiOutcome | undefined;
          const verb = verbOf(outcome);
          const body = outcome?.response.body;
          const firstError = body?.kind === 'errors' ? (body.errors[0]?.code ?? 'none') : 'none';
          requests.inc({ verb, status: String(res.statusCode), error: firstError });
          latency.observe({ verb }, (performance.now() - started) / 1000);
          const length = Number(res.getHeader('content-length'));
          if (outcome && Number.isFinite(length)) bytes.inc({ coding: String(res.getHeader('content-encoding') ?? 'identity') }, length);
          if (!body) return;
          if (body.kind === 'ListRecords') items.inc({ verb }, body.records.length);
          else if (body.kind === 'ListIdentifiers') items.inc({ verb }, body.headers.length);
          else if (body.kind === 'GetRecord') items.inc({ verb }, 1);
          else if (body.kind === 'errors') {
            for (const e of body.errors) {
              errors.inc({ verb, code: e.code });
              if (e.code === 'badResumptionToken' && outcome) tokens.inc({ reason: tokenReason(outcome, verb, tokenSecret) });
            }
          }
        });
        next();
      };
    },
    async scrape(_req, res, next) {
      try {
        const text = await registry.metrics();
        res.type(registry.contentType).set('Cache-Control', 'no-store').send(text);
      } catch (err) {
        next(err);
      }
    },
  };
}

/**
 * A read of the store made once per scrape however many metrics it feeds:
 * the first metric to collect reads, the others of the same scrape reuse it.
 */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let reading: Promise<T> | undefined;
  return () => {
    reading ??= read().finally(() => setImmediate(() => (reading = undefined)));
    return reading;
  };
}

/** The verb asked for, when it is one; `none` otherwise (a bounded label: never client text). */
function verbOf(outcome: OaiOutcome | undefined): string {
  if (!outcome) return 'none';
  const verb = outcome.response.requestArgs?.verb ?? outcome.pairs?.find(([k]) => k === 'verb')?.[1];
  return verb !== undefined && VERB_SET.has(verb) ? verb : 'none';
}

/**
 * Why a resumption token was refused. The protocol core answers only
 * badResumptionToken (OAI-PMH 3.6); the reason is found again by checking the
 * token the same way, with the same secret and the response's own clock.
 */
function tokenReason(outcome: OaiOutcome, verb: string, secret: string): string {
  const token = outcome.pairs?.find(([k]) => k === 'resumptionToken')?.[1];
  if (token === undefined || (verb !== 'ListRecords' && verb !== 'ListIdentifiers' && verb !== 'ListSets')) return 'malformed';
  const decoded = decodeToken(token, verb, secret, outcome.response.responseDate);
  return decoded.ok ? 'stale' : decoded.problem;
}
