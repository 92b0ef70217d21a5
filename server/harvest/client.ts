/**
 * The harvester's HTTP side: one OAI-PMH request to one source, asked
 * politely and retried stubbornly.
 *
 * - A User-Agent naming oai-steward and the repository that harvests (so a
 *   provider's operator knows whom to write to), `Accept-Encoding: gzip,
 *   deflate` (OAI-PMH 2.0 section 3.1.3), decoded here.
 * - A timeout per request, headers and body together.
 * - The body read as a stream and handed on as it arrives, capped as sent
 *   and once inflated (gzip and deflate inflated as streams): an answer over
 *   the cap fails as soon as it is over, and is never asked again.
 * - `503` and `429` with `Retry-After` (seconds or an HTTP-date, RFC 9110
 *   section 10.2.3) wait as asked, at most `retryAfterCapMs`; without the
 *   header, and on connection errors, timeouts and other 5xx, exponential
 *   backoff with jitter (lib/harvest/timing.ts).
 * - An optional delay between two requests to the same source.
 * - The run's end (`deadline`, a source's `limits.time`): a wait that would
 *   outlast it is never begun, and a request or wait under way when it comes
 *   (a body dripping a byte at a time, say) is ended there.
 *
 * Any other status, or an error after every retry, is a {@link HarvestError}
 * naming the source and the URL.
 */
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { DEFAULT_HARVEST_LIMITS } from '../../lib/harvest/sources';
import { backoffMs, retryAfterMs } from '../../lib/harvest/timing';

/** What a failed request says: the source, the URL asked and why. */
export class HarvestError extends Error {}

/** An answer over the cap of an answer (`limits.page`): the URL, and what it did (`sent more than …`). */
export class AnswerTooLarge extends HarvestError {
  constructor(
    readonly url: string,
    readonly what: string,
    source: string,
  ) {
    super(`${source}: ${url} ${what}; the run stops here and the next one resumes at this page`);
  }
}

/** How one source is asked. */
export interface ClientOptions {
  /** The source's name, for messages. */
  readonly source: string;
  readonly baseUrl: string;
  /** The User-Agent header. */
  readonly userAgent: string;
  readonly timeoutMs: number;
  /** Attempts after the first. */
  readonly retries: number;
  /** Milliseconds between two requests. */
  readonly delayMs: number;
  /** The first backoff (doubled each attempt, with jitter). Default 1000. */
  readonly backoffBaseMs?: number;
  /** The longest backoff. Default 60 s. */
  readonly backoffMaxMs?: number;
  /** The longest wait a Retry-After may ask for. Default 5 minutes. */
  readonly retryAfterCapMs?: number;
  /** Waits; tests pass one that records the waits. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  /** Told of every retry (metrics, progress): the reason and the wait. */
  readonly onRetry?: (reason: string, waitMs: number) => void;
  /** The most bytes one answer may take, as sent and once inflated. Default {@link DEFAULT_MAX_PAGE_BYTES}. */
  readonly maxPageBytes?: number;
  /**
   * The run's own end (`limits.time`): `remainingMs` says how long the run
   * may still take, and a wait longer than that is never begun (a
   * {@link OutOfTime} instead); `signal`, aborted at the end, ends every
   * request and wait under way with its reason.
   */
  readonly deadline?: { readonly remainingMs: () => number; readonly signal: AbortSignal };
}

/** A wait (a Retry-After, a backoff) that would end after the run's time (`limits.time`): the run stops now rather than wait. */
export class OutOfTime extends HarvestError {}

/**
 * The most bytes one answer may take, as sent and once gzip or deflate is
 * inflated (a source's `limits.page`, lib/harvest/sources.ts). Over it the
 * request fails naming the source, the URL and the cap, and the run stops
 * where the next one resumes.
 */
export const DEFAULT_MAX_PAGE_BYTES = DEFAULT_HARVEST_LIMITS.pageBytes;

/** An answer over the cap: not retried, since the same request brings the same answer. */
export class TooLarge extends Error {}

/** A failure of the connection or of the body's coding: worth asking again. */
class Transient extends Error {}

/** An answer with status 200, its body decoded. */
export interface ClientAnswer {
  readonly url: string;
  readonly body: Buffer;
}

/**
 * Reads the body of a 200 answer as it arrives, decoded and capped. Called
 * again, with a new body, when the request is asked again; a rejection
 * other than the body's own (a {@link TooLarge}, a connection error) is
 * handed to the caller as it is.
 */
export type BodyReader<T> = (body: AsyncIterable<Buffer>, url: string) => Promise<T>;

/** Bytes of a refused answer kept for its message. */
const SNIPPET_BYTES = 4096;

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One source's HTTP client; requests go one at a time. */
export class OaiClient {
  private lastRequest = 0;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(readonly options: ClientOptions) {
    this.sleep = options.sleep ?? defaultSleep;
  }

  /** The URL of a request with these arguments (OAI-PMH 2.0 section 3.1.1.1, GET). */
  urlOf(args: Readonly<Record<string, string>>): string {
    const u = new URL(this.options.baseUrl);
    for (const [k, v] of Object.entries(args)) u.searchParams.append(k, v);
    return u.toString();
  }

  /** GETs the request, retrying as the module comment says, and returns the whole body of a 200 answer (under the cap). */
  async get(args: Readonly<Record<string, string>>): Promise<ClientAnswer> {
    return this.read(args, async (body, url) => {
      const chunks: Buffer[] = [];
      for await (const c of body) chunks.push(c);
      return { url, body: Buffer.concat(chunks) };
    });
  }

  /**
   * GETs the request, retrying as the module comment says, and hands the
   * body of a 200 answer to `reader` as it arrives: nothing of the answer is
   * held here, so memory follows what the reader keeps. An aborted
   * `signal` ends the request, or the wait before the next attempt, at once
   * with the signal's reason.
   */
  async read<T>(args: Readonly<Record<string, string>>, reader: BodyReader<T>, given?: AbortSignal): Promise<T> {
    const url = this.urlOf(args);
    const o = this.options;
    const signal = this.withEnd(given);
    let attempt = 0;
    for (;;) {
      const wait = this.lastRequest + o.delayMs - Date.now();
      if (wait > 0) await abortable(this.sleep(wait), signal);
      signal?.throwIfAborted();
      this.lastRequest = Date.now();
      let reason: string;
      let waitMs: number | undefined;
      try {
        const a = await this.once(url, reader, signal);
        if ('value' in a) return a.value;
        reason = `HTTP ${a.status}`;
        if (a.status === 503 || a.status === 429) waitMs = retryAfterMs(a.retryAfter, Date.now(), o.retryAfterCapMs ?? 300_000);
        else if (a.status < 500) throw new HarvestError(`${o.source}: ${url} answered HTTP ${a.status}${snippet(a.body)}`);
      } catch (err) {
        signal?.throwIfAborted();
        if (err instanceof HarvestError) throw err;
        if (err instanceof TooLarge) throw new AnswerTooLarge(url, err.message, o.source);
        if (!(err instanceof Transient)) throw err;
        reason = err.message;
      }
      attempt++;
      if (attempt > o.retries) throw new HarvestError(`${o.source}: ${url} failed after ${attempt} attempt${attempt === 1 ? '' : 's'}: ${reason}`);
      await this.pause(attempt, reason, waitMs, signal, url);
    }
  }

  /**
   * Waits before attempt `attempt + 1`: as a Retry-After asked, or the
   * backoff (an aborted `signal`, or the run's end, ends the wait). A wait
   * that would outlast the run's time is not begun: {@link OutOfTime}.
   */
  async pause(attempt: number, reason: string, waitMs?: number, signal?: AbortSignal, url?: string): Promise<void> {
    const o = this.options;
    const ms = waitMs ?? backoffMs(attempt, o.backoffBaseMs ?? 1000, o.backoffMaxMs ?? 60_000, o.random ?? Math.random);
    const left = o.deadline?.remainingMs();
    if (left !== undefined && ms > left) {
      throw new OutOfTime(
        `${o.source}: ${url ?? 'a request'} answered ${reason}, and waiting ${Math.ceil(ms / 1000)} s before asking again would outlast the run's time (limits.time, ${Math.max(0, Math.floor(left / 1000))} s left); the run stops here, every page before it written, and the next run resumes at this page`,
      );
    }
    o.onRetry?.(reason, ms);
    await abortable(this.sleep(ms), this.withEnd(signal));
  }

  /** `given`, aborted also at the run's end when there is one. */
  private withEnd(given: AbortSignal | undefined): AbortSignal | undefined {
    const end = this.options.deadline?.signal;
    return given === undefined ? end : end === undefined ? given : AbortSignal.any([end, given]);
  }

  /**
   * One request: a 200 answer's body read by `reader`, or another status
   * with its Retry-After and the start of its body. A connection error, a
   * bad coding or the timeout rejects with a {@link Transient}; an answer
   * over the cap with a {@link TooLarge}, as soon as it is over.
   */
  private async once<T>(
    url: string,
    reader: BodyReader<T>,
    signal?: AbortSignal,
  ): Promise<{ value: T } | { status: number; retryAfter?: string; body: Buffer }> {
    const o = this.options;
    const cap = o.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES;
    const get = url.startsWith('https:') ? https.get : http.get;
    const req = get(url, {
      headers: { 'User-Agent': o.userAgent, 'Accept-Encoding': 'gzip, deflate', Accept: 'text/xml, application/xml' },
      ...(signal !== undefined && { signal }),
    });
    const timer = setTimeout(() => req.destroy(new Transient(`no complete answer within ${o.timeoutMs} ms`)), o.timeoutMs);
    try {
      const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
        req.on('response', resolve);
        req.on('error', (err) => reject(err instanceof Transient ? err : new Transient(err.message)));
      });
      // Errors after the answer began reach the reader through the body.
      req.on('error', () => undefined);
      const status = res.statusCode ?? 0;
      if (status !== 200) {
        const ra = res.headers['retry-after'];
        return { status, ...(ra !== undefined && { retryAfter: ra }), body: await start(res, SNIPPET_BYTES) };
      }
      const coding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
      let body: AsyncIterable<Buffer> = capped(res, cap, `sent more than the cap of ${cap} bytes an answer (limits.page)`);
      if (coding === 'gzip' || coding === 'x-gzip' || coding === 'deflate') {
        // Inflated a piece at a time, as the reader asks, and never past the cap: a small body can inflate to gigabytes.
        body = capped(
          inflated(body, coding === 'deflate' ? 'deflate' : 'gzip'),
          cap,
          `sent a ${coding} body that inflates past the cap of ${cap} bytes an answer (limits.page)`,
        );
      } else if (coding !== '' && coding !== 'identity') {
        res.destroy();
        throw new Transient(`an unknown content coding ${JSON.stringify(coding)}`);
      }
      return { value: await reader(body, url) };
    } finally {
      clearTimeout(timer);
      // Whatever the reader left unread (an answer refused half-way) is not waited for.
      req.destroy();
    }
  }
}

/** `wait`, or the abort of `signal` with its reason, whichever comes first. */
async function abortable(wait: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return wait;
  signal.throwIfAborted();
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([wait, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** The answer's bytes, failing with a {@link TooLarge} once more than `cap` have come, or with a {@link Transient} when the connection ends early. */
async function* capped(body: AsyncIterable<Buffer>, cap: number, message: string): AsyncGenerator<Buffer> {
  let n = 0;
  try {
    for await (const c of body) {
      n += c.length;
      if (n > cap) throw new TooLarge(message);
      yield c;
    }
  } catch (err) {
    if (err instanceof TooLarge || err instanceof Transient) throw err;
    throw new Transient(`the answer could not be read to its end: ${(err as Error).message}`);
  }
  if (body instanceof http.IncomingMessage && !body.complete) throw new Transient('the connection closed in the middle of the answer');
}

/**
 * A gzip or deflate body inflated as a stream. `deflate` is zlib-wrapped
 * (RFC 9110 section 8.4.1.2), but some servers send it raw: the first two
 * bytes tell (RFC 1950 section 2.2, a header is a multiple of 31 with
 * method 8).
 */
async function* inflated(body: AsyncIterable<Buffer>, coding: 'gzip' | 'deflate'): AsyncGenerator<Buffer> {
  const it = body[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  let ended = false;
  while (head.length < 2 && !ended) {
    const n = await it.next();
    if (n.done === true) ended = true;
    else head = Buffer.concat([head, n.value]);
  }
  const wrapped = head.length >= 2 && ((head[0] as number) & 0x0f) === 8 && ((head[0] as number) * 256 + (head[1] as number)) % 31 === 0;
  const z = coding === 'gzip' ? zlib.createGunzip() : wrapped ? zlib.createInflate() : zlib.createInflateRaw();
  async function* all(): AsyncGenerator<Buffer> {
    if (head.length > 0) yield head;
    if (ended) return;
    for (;;) {
      const n = await it.next();
      if (n.done === true) return;
      yield n.value;
    }
  }
  const input = Readable.from(all());
  input.on('error', (err) => z.destroy(err));
  input.pipe(z);
  try {
    for await (const c of z as AsyncIterable<Buffer>) yield c;
  } catch (err) {
    if (err instanceof TooLarge || err instanceof Transient) throw err;
    throw new Transient(`the ${coding} body cannot be decoded: ${(err as Error).message}`);
  } finally {
    input.destroy();
    z.destroy();
  }
}

/** The first `max` bytes of a body, the rest left unread. */
async function start(res: http.IncomingMessage, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  try {
    for await (const c of res as AsyncIterable<Buffer>) {
      chunks.push(c);
      n += c.length;
      if (n >= max) break;
    }
  } catch {
    // The start of an error page is for the message only.
  }
  return Buffer.concat(chunks).subarray(0, max);
}

function snippet(body: Buffer): string {
  const s = body.subarray(0, 200).toString('utf8').replace(/\s+/g, ' ').trim();
  return s === '' ? '' : `: ${s}`;
}
