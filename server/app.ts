/**
 * The HTTP shell: Express routes that turn requests into calls of the
 * protocol core and its answers into HTTP responses. One writer sends every
 * OAI-PMH answer; protocol errors are HTTP 200, only infrastructure failures
 * are HTTP errors (OAI-PMH 3.1.2.2).
 */
import crypto from 'node:crypto';
import express from 'express';
import type { Request, Response, NextFunction } from 'express';
import type { Logger } from 'pino';
import { decodeForm, handleRequest, itemCount } from '../lib/oai';
import type { OaiResponse, ProviderContext } from '../lib/oai';
import { StoreBehindError, type RecordFieldsStore, type RunReports } from '../lib/store';
import { renderResponseBytes } from '../lib/oai/render';
import { chooseCoding, encodeBody } from './http/encoding';
import { prefersHtml } from './http/negotiate';
import { formRedirect, pagePaths, sendPage } from './http/pages';
import { poiRoute } from './http/poi';
import { syncRouter, type ResourceSyncOptions } from './http/resourcesync';
import { dumpsRouter } from './http/dumps';
import { logRouter, type LogEndpoints } from './http/log';
import { healthRoute, REPLICA_MAX_LAG } from './http/health';
import type { PoiResolver } from './http/poi';
import type { Metrics, OaiOutcome } from './http/metrics';
import { isUnavailable } from './db/errors';
import { createAdmission, isClientAbort } from './http/admission';
import { clientOf, createClientFairness, type ClientLimits } from './http/clients';
import { PagePrefetch } from './http/prefetch';
import type { PreparedPage } from './http/prefetch';
import { decodeToken } from '../lib/oai/token';
import { formatDatestamp } from '../lib/oai/dates';

/** What the app needs besides the protocol context. */
export interface AppOptions {
  readonly ctx: ProviderContext;
  readonly logger: Logger;
  readonly compressionLevel: number;
  /** Requests served at once before 503. */
  readonly maxInFlight: number;
  /** Seconds in Retry-After. */
  readonly retryAfter: number;
  /** Seconds a read replica may lag its primary before /healthz answers 503 (server/http/health.ts). Default server/http/health.ts `REPLICA_MAX_LAG`. */
  readonly replicaMaxLag?: number;
  /** Milliseconds a client has to send its request body after its head; past it, 408. Default {@link BODY_TIMEOUT_MS}. */
  readonly bodyTimeoutMs?: number;
  /** Per-client limits (server/http/clients.ts); none when absent. */
  readonly clients?: ClientLimits;
  /** Resolves a POI path to a record, for `GET /poi/{namespace}/{local}` (identifier governance, with Signposting). */
  readonly poi?: PoiResolver;
  /** The clock, in seconds. */
  readonly now?: () => number;
  /** Operator metrics, served at `GET /metrics` (server/http/metrics.ts); none when absent. */
  readonly metrics?: Metrics;
  /** Prepares a harvest's next page while the client reads this one (server/http/prefetch.ts); none when absent. */
  readonly prefetch?: PagePrefetch;
  /** Tuning of ResourceSync and the sitemap (server/http/resourcesync.ts); the defaults when absent. */
  readonly resourceSync?: ResourceSyncOptions;
  /**
   * Where items' record models are stored: the record page and the POI
   * resolver read an item's facts (cite-as, licences, files) from its model.
   * Without it, the model is lifted from the item's stored XML.
   */
  readonly recordFields?: RecordFieldsStore;
  /** The runs the store reports: the page of a harvested source's set shows its last failure. */
  readonly runs?: Pick<RunReports, 'lastFailure' | 'latestRuns'>;
  /** The folder of bulk dumps served at `/dumps/` (server/http/dumps.ts); nothing served when absent. */
  readonly dumpDir?: string;
  /** The publication log served at `<baseURL>/log/` (server/http/log.ts); nothing served when absent. */
  readonly log?: LogEndpoints;
  /**
   * The reverse proxies whose X-Forwarded-For is believed (Express's `trust proxy`), so the log names
   * the client rather than the proxy; none when absent. URLs are never built from forwarded headers.
   */
  readonly trustProxy?: readonly string[];
}

/** Largest POST body accepted (bytes); beyond it, 413. */
export const MAX_REQUEST_BYTES = 64 * 1024;
/**
 * Largest query string accepted (bytes); beyond it, 414 (use POST). Below
 * Node's 16 KiB limit on the request head, so 414 is what a long query gets;
 * a head over 16 KiB is refused by Node itself with 431 before the app runs.
 */
export const MAX_QUERY_BYTES = 8 * 1024;
/** Milliseconds a request body may take to arrive by default: well below serve.ts's 60 s request timeout. */
export const BODY_TIMEOUT_MS = 10_000;

/**
 * Builds the Express application. Routes: the OAI-PMH endpoint at the base
 * URL's path (GET and POST; a GET whose `Accept` prefers HTML gets a page,
 * server/http/negotiate.ts), beside it `{endpoint}/xml` (the same answer,
 * always XML, which every page links to) and `{endpoint}/form` (the pages'
 * request form), `/healthz`, the POI resolver, and ResourceSync with the
 * sitemap and robots.txt (server/http/resourcesync.ts). Nothing on the HTTP
 * side writes to the store.
 */
export function createApp(options: AppOptions): express.Express {
  const { ctx, logger } = options;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const oaiPath = new URL(ctx.repository.baseURL).pathname || '/';
  const companions = pagePaths(oaiPath);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', false);
  if (options.trustProxy && options.trustProxy.length > 0) app.set('trust proxy', [...options.trustProxy]);

  // One log line per request: the OAI handler logs its own with the verb and
  // arguments; everything else (404, 405, 413/414, 503, /healthz, …) here.
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      if (res.locals.oaiLogged) return;
      logger.info(
        { method: req.method, path: req.path.slice(0, 200), status: res.statusCode, client: req.ip, ms: Number(process.hrtime.bigint() - started) / 1e6 },
        'http request',
      );
    });
    next();
  });

  const metrics = options.metrics;
  const admission = createAdmission({
    logger,
    maxInFlight: options.maxInFlight,
    retryAfter: options.retryAfter,
    maxBodyBytes: MAX_REQUEST_BYTES,
    bodyTimeoutMs: options.bodyTimeoutMs ?? BODY_TIMEOUT_MS,
    clientOf,
    ...(metrics && { onRefused: metrics.refused }),
  });
  const fairness = options.clients && createClientFairness(options.clients, { ...(metrics && { onLimited: metrics.limited }) });
  if (metrics) {
    // Before load shedding, so an operator can still scrape an overloaded server.
    app.get('/metrics', metrics.scrape);
    app.use(
      metrics.observe({
        paths: { oai: oaiPath, ...companions },
        tokenSecret: ctx.tokenSecret,
        inFlight: admission.inFlight,
        clients: () => fairness?.tracked() ?? 0,
      }),
    );
  }
  // Never shed nor limited: a liveness check must not restart a process that is merely busy.
  app.get('/healthz', healthRoute({ store: ctx.store, maxLagSeconds: options.replicaMaxLag ?? REPLICA_MAX_LAG, retryAfter: options.retryAfter }));
  // Per client first (counting the body phase too), then the body, then a slot for the work only.
  if (fairness) app.use(fairness.limit);
  app.use(admission.readBody, admission.shed);

  // `negotiate`: whether this route may answer a page; {endpoint}/xml never does.
  const oai =
    (negotiate: boolean) =>
    async (req: Request, res: Response, next: NextFunction): Promise<void> => {
      const started = process.hrtime.bigint();
      try {
        const raw = rawArguments(req, res.locals.body as Buffer | undefined);
        if ('status' in raw) {
          res.status(raw.status).type('text/plain').send(raw.message);
          return;
        }
        const decoded = 'undecodable' in raw ? { ok: false as const, message: raw.undecodable } : decodeForm(raw.text);
        // HEAD answers the headers its GET would (RFC 9110 9.3.2), so it negotiates too.
        const html = negotiate && (req.method === 'GET' || req.method === 'HEAD') && prefersHtml(req.headers.accept);
        // The bare base URL in a browser is the home page (Identify's); to a harvester it stays badVerb (OAI-PMH 3.1.1).
        const args = !decoded.ok ? { undecodable: decoded.message } : html && decoded.pairs.length === 0 ? HOME_REQUEST : decoded.pairs;
        const prepared = !html && decoded.ok ? await takePrepared(decoded.pairs) : undefined;
        const response = prepared?.response ?? (await handleRequest(ctx, args, now()));
        // The next page's query goes to the database before this page is rendered (a prepared page's did when it was read).
        if (!prepared && !html && readNext(response)) await turn();
        // Marked before the answer is sent, so the generic 'finish' line is never written for it too.
        res.locals.oaiLogged = true;
        res.locals.oai = { response, pairs: decoded.ok ? decoded.pairs : undefined } satisfies OaiOutcome;
        // POST stays XML: a form-encoded POST is a harvester's request, and a page's links are all GETs.
        if (html) {
          await sendPage(req, res, response, {
            ctx,
            oaiPath,
            compressionLevel: options.compressionLevel,
            now: now(),
            ...(options.recordFields && { fields: options.recordFields }),
            ...(options.runs && { runs: options.runs }),
          });
        } else {
          await sendOai(req, res, prepared?.xml ?? renderXml(response, logger), negotiate, options.compressionLevel, ctx.repository.compression);
          prepareNext(response);
        }
        logRequest(logger, req, res, response, started, decoded.ok ? decoded.pairs : undefined);
      } catch (err) {
        next(err);
      }
    };
  const prefetch = options.prefetch;
  /** The page prepared for a continuing list request, its responseDate set to now; undefined when none is fresh. */
  const takePrepared = async (pairs: readonly (readonly [string, string])[]): Promise<PreparedPage | undefined> => {
    const key = prefetch && continuation(pairs);
    if (!key) return undefined;
    const page = await prefetch.take(PagePrefetch.key(key.verb, key.token));
    if (!page) return undefined;
    const at = now();
    // A token that expired since the page was prepared gets the ordinary answer (badResumptionToken).
    if (!decodeToken(key.token, key.verb, ctx.tokenSecret, at).ok) return undefined;
    page.xml.write(formatDatestamp(at), page.dateOffset, 'latin1');
    return { response: { ...page.response, responseDate: at }, xml: page.xml, dateOffset: page.dateOffset };
  };
  /** After a list page that continues, prepares the page its token names, from its rows read ahead when they were. */
  const prepareNext = (response: OaiResponse): void => {
    const next = nextRequest(response);
    if (!prefetch || !next) return;
    prefetch.prepare(next.key, async (readAhead) => {
      const page = (await readAhead) ?? (await handleRequest(ctx, next.pairs, now()));
      // The page after it is read while this one is rendered.
      if (readNext(page)) await turn();
      const xml = renderXml(page, logger);
      return { response: page, xml, dateOffset: xml.indexOf(RESPONSE_DATE) + RESPONSE_DATE.length };
    });
  };
  /** Issues the query of the page after a list page that continues (server/http/prefetch.ts, read-ahead); whether one was issued. */
  const readNext = (response: OaiResponse): boolean => {
    const next = nextRequest(response);
    return !!prefetch && !!next && prefetch.readAhead(next.key, () => handleRequest(ctx, next.pairs, now()));
  };

  // The paths are matched literally: never read as Express route patterns (`:name`, `*`, `(`).
  const endpoint = literalPath(oaiPath);
  app.get(endpoint, oai(true));
  app.post(endpoint, oai(true));
  // Only GET and POST exist here (OAI-PMH 3.1.1).
  app.all(endpoint, (req, res) => {
    res.status(405).set('Allow', 'GET, POST').type('text/plain').send('Method not allowed.\n');
  });

  app.get(literalPath(companions.xml), oai(false));
  app.get(literalPath(companions.form), formRedirect(oaiPath));

  if (options.poi) app.get(/^\/poi\/([^/]+)\/(.+)$/, poiRoute(ctx, options.poi, options.recordFields));
  app.use(syncRouter({ ctx, logger, now, compressionLevel: options.compressionLevel, ...(options.resourceSync && { options: options.resourceSync }) }));
  if (options.dumpDir !== undefined) app.use(dumpsRouter(options.dumpDir));
  if (options.log) app.use(logRouter(oaiPath, options.log, logger));

  if (oaiPath !== '/') app.get('/', (_req, res) => res.redirect(302, `${oaiPath}?verb=Identify`));

  app.use((_req: Request, res: Response) => {
    res.status(404).type('text/plain').send('Not found.\n');
  });
  // Infrastructure failures: 503 with Retry-After when the store is unreachable, else 500. No stack traces leave the server.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = httpStatusOf(err);
    if (status === 413 || status === 400) {
      res
        .status(status)
        .type('text/plain')
        .send(status === 413 ? 'Request body too large.\n' : 'Bad request.\n');
      return;
    }
    if (isClientAbort(err, req)) {
      // The client hung up: nothing failed here, and nothing is left to answer.
      logger.info({ url: loggedUrl(req.originalUrl).slice(0, 200) }, 'client aborted the request');
      metrics?.refused('client-abort');
      return;
    }
    const unavailable = isUnavailable(err);
    // A replica behind its primary is expected now and then, and counted apart from load shedding.
    if (err instanceof StoreBehindError) {
      metrics?.behind();
      logger.warn({ reason: err.message, url: loggedUrl(req.originalUrl) }, 'read replica behind its primary');
    } else logger.error({ err, url: loggedUrl(req.originalUrl) }, unavailable ? 'store unavailable' : 'request failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (unavailable)
      res.status(503).set('Retry-After', String(options.retryAfter)).type('text/plain').send('The repository is temporarily unavailable; retry later.\n');
    else res.status(500).type('text/plain').send('Internal server error.\n');
  });
  return app;
}

/** A route matching exactly this path (a trailing slash allowed, letters in any case, as Express matches a string). */
function literalPath(p: string): RegExp {
  const trimmed = p.length > 1 ? p.replace(/\/$/, '') : p;
  return new RegExp(`^${trimmed.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}${trimmed === '/' ? '' : '/?'}$`, 'i');
}

function httpStatusOf(err: unknown): number | undefined {
  if (typeof err === 'object' && err !== null && 'status' in err && typeof (err as { status: unknown }).status === 'number') {
    return (err as { status: number }).status;
  }
  return undefined;
}

/** The undecoded argument string: the query for GET; query and body (read by admission) for POST (form-encoded only). */
function rawArguments(req: Request, body: Buffer | undefined): { text: string } | { undecodable: string } | { status: 414; message: string } {
  const q = req.originalUrl.indexOf('?');
  const query = q < 0 ? '' : req.originalUrl.slice(q + 1);
  if (query.length > MAX_QUERY_BYTES) return { status: 414, message: 'Request-URI too long; use POST.\n' };
  if (req.method !== 'POST' || body === undefined) return { text: query };
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (body.length > 0 && type !== 'application/x-www-form-urlencoded') {
    // OAI-PMH 3.1.1.2: POST bodies are form-encoded; anything else cannot carry arguments.
    return { undecodable: `A POST body must be application/x-www-form-urlencoded, not ${JSON.stringify(type ?? '')}.` };
  }
  return { text: [query, body.toString('latin1')].filter((s) => s !== '').join('&') };
}

const RESPONSE_DATE = '<responseDate>';

/** What a browser's request of the bare base URL means: the home page. */
const HOME_REQUEST: readonly (readonly [string, string])[] = [['verb', 'Identify']];

/** The request that continues a list page (its verb and token) and its prefetch key; none when the list ends there. */
function nextRequest(response: OaiResponse): { key: string; pairs: [string, string][] } | undefined {
  const body = response.body;
  if ((body.kind !== 'ListRecords' && body.kind !== 'ListIdentifiers') || !body.resumption?.token) return undefined;
  return {
    key: PagePrefetch.key(body.kind, body.resumption.token),
    pairs: [
      ['verb', body.kind],
      ['resumptionToken', body.resumption.token],
    ],
  };
}

/**
 * One turn of the event loop: a query just issued reaches the database's
 * connection (its pool and driver work in promise callbacks) before the
 * synchronous rendering that follows holds the thread.
 */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The continuing list request these arguments make (exactly a list verb and a token), if they make one. */
function continuation(pairs: readonly (readonly [string, string])[]): { verb: 'ListRecords' | 'ListIdentifiers'; token: string } | undefined {
  if (pairs.length !== 2) return undefined;
  const verb = pairs.find(([k]) => k === 'verb')?.[1];
  const token = pairs.find(([k]) => k === 'resumptionToken')?.[1];
  return (verb === 'ListRecords' || verb === 'ListIdentifiers') && token ? { verb, token } : undefined;
}

function renderXml(response: OaiResponse, logger: Logger): Buffer {
  // Corrupt stored XML is left out of the answer (lib/oai/render.ts) and logged for the operator.
  const onCorrupt = (where: string, reason: string): void => logger.error({ where, reason }, 'corrupt stored XML left out of a response');
  return renderResponseBytes(response, { onCorrupt });
}

async function sendOai(req: Request, res: Response, xml: Buffer, negotiated: boolean, level: number, offered: readonly string[]): Promise<void> {
  const coding = chooseCoding(req.headers['accept-encoding'], offered as ('gzip' | 'deflate')[]);
  const body = await encodeBody(xml, coding, level);
  // The endpoint's answer depends on Accept (a page or XML), so caches must key on it too.
  res
    .status(200)
    .set('Content-Type', 'text/xml; charset=UTF-8')
    .set('Vary', negotiated ? 'Accept, Accept-Encoding' : 'Accept-Encoding');
  if (coding !== 'identity') res.set('Content-Encoding', coding);
  res.set('Content-Length', String(body.length)).end(body);
}

/**
 * A resumption token as the log shows it: a digest of it, the same for the
 * same token (a harvest's pages can still be followed in the log), a line
 * short whatever the token's length, and nothing a reader of the log could
 * continue the list with.
 *
 * @example tokenDigest('2|…') // 'sha256:1f0c2a9be43d7c51'
 */
export function tokenDigest(token: string): string {
  return `sha256:${crypto.hash('sha256', token, 'hex').slice(0, 16)}`;
}

/** A request URL as the log shows it: its resumption token as {@link tokenDigest}. */
function loggedUrl(url: string): string {
  return url.replace(/([?&]resumptionToken=)([^&#]*)/g, (_, key: string, token: string) => {
    let decoded = token;
    try {
      decoded = decodeURIComponent(token.replace(/\+/g, ' '));
    } catch {
      // Not percent-encoded as it should be: the digest is of what was sent.
    }
    return `${key}${tokenDigest(decoded)}`;
  });
}

function logRequest(
  logger: Logger,
  req: Request,
  res: Response,
  response: OaiResponse,
  started: bigint,
  pairs: readonly (readonly [string, string])[] | undefined,
): void {
  const body = response.body;
  // OAI-PMH 3.2 leaves the request attributes out of badVerb and badArgument
  // answers; the log still says what was asked (bounded: it is client input).
  const asked = pairs && Object.fromEntries(pairs.slice(0, 16).map(([k, v]) => [k.slice(0, 64), v.slice(0, 512)]));
  const args = response.requestArgs ?? asked;
  logger.info(
    {
      method: req.method,
      client: req.ip,
      verb: response.requestArgs?.verb ?? asked?.verb,
      args: args?.resumptionToken === undefined ? args : { ...args, resumptionToken: tokenDigest(args.resumptionToken) },
      status: res.statusCode,
      errors: body.kind === 'errors' ? body.errors.map((e) => e.code) : undefined,
      records: itemCount(body),
      ms: Number(process.hrtime.bigint() - started) / 1e6,
    },
    'oai request',
  );
}
