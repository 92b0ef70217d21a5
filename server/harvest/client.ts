/**
 * The harvester's HTTP side: one OAI-PMH request to one source, asked
 * politely and retried stubbornly.
 *
 * - A User-Agent naming oai-steward and the repository that harvests (so a
 *   provider's operator knows whom to write to), `Accept-Encoding: gzip,
 *   deflate` (OAI-PMH 2.0 section 3.1.3), decoded here.
 * - A timeout per request, headers and body together.
 * - `503` and `429` with `Retry-After` (seconds or an HTTP-date, RFC 9110
 *   section 10.2.3) wait as asked, at most `retryAfterCapMs`; without the
 *   header, and on connection errors, timeouts and other 5xx, exponential
 *   backoff with jitter (lib/harvest/timing.ts).
 * - An optional delay between two requests to the same source.
 *
 * Any other status, or an error after every retry, is a {@link HarvestError}
 * naming the source and the URL.
 */
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import { backoffMs, retryAfterMs } from '../../lib/harvest/timing';

/** What a failed request says: the source, the URL asked and why. */
export class HarvestError extends Error {}

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
}

/**
 * The most bytes one answer may take, as sent and once gzip or deflate is
 * inflated: 64 MiB, some times the largest pages real providers send (a
 * page of 5,000 records is about 17 MB), and far from what a 1 MB gzip bomb
 * inflates to. Over it the request fails naming the source, the URL and the
 * cap, and the run stops where the next one resumes.
 */
export const DEFAULT_MAX_PAGE_BYTES = 64 * 1024 * 1024;

/** An answer over the cap: not retried, since the same request brings the same answer. */
class TooLarge extends Error {}

/** An answer with status 200, its body decoded. */
export interface ClientAnswer {
  readonly url: string;
  readonly body: Buffer;
}

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

  /** GETs the request, retrying as the module comment says, and returns the body of a 200 answer. */
  async get(args: Readonly<Record<string, string>>): Promise<ClientAnswer> {
    const url = this.urlOf(args);
    const o = this.options;
    let attempt = 0;
    for (;;) {
      const wait = this.lastRequest + o.delayMs - Date.now();
      if (wait > 0) await this.sleep(wait);
      this.lastRequest = Date.now();
      let reason: string;
      let waitMs: number | undefined;
      try {
        const a = await this.once(url);
        if (a.status === 200) return { url, body: a.body };
        reason = `HTTP ${a.status}`;
        if (a.status === 503 || a.status === 429) waitMs = retryAfterMs(a.retryAfter, Date.now(), o.retryAfterCapMs ?? 300_000);
        else if (a.status < 500) throw new HarvestError(`${o.source}: ${url} answered HTTP ${a.status}${snippet(a.body)}`);
      } catch (err) {
        if (err instanceof HarvestError) throw err;
        if (err instanceof TooLarge) throw new HarvestError(`${o.source}: ${url} ${err.message}; the run stops here and the next one resumes at this page`);
        reason = (err as Error).message;
      }
      attempt++;
      if (attempt > o.retries) throw new HarvestError(`${o.source}: ${url} failed after ${attempt} attempt${attempt === 1 ? '' : 's'}: ${reason}`);
      await this.pause(attempt, reason, waitMs);
    }
  }

  /** Waits before attempt `attempt + 1`: as a Retry-After asked, or the backoff. */
  async pause(attempt: number, reason: string, waitMs?: number): Promise<void> {
    const o = this.options;
    const ms = waitMs ?? backoffMs(attempt, o.backoffBaseMs ?? 1000, o.backoffMaxMs ?? 60_000, o.random ?? Math.random);
    o.onRetry?.(reason, ms);
    await this.sleep(ms);
  }

  /** One request: the status, Retry-After and the decoded body; rejects on a connection error, a bad coding or the timeout. */
  private once(url: string): Promise<{ status: number; retryAfter?: string; body: Buffer }> {
    const o = this.options;
    const cap = o.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES;
    return new Promise((resolve, reject) => {
      const get = url.startsWith('https:') ? https.get : http.get;
      const req = get(url, { headers: { 'User-Agent': o.userAgent, 'Accept-Encoding': 'gzip, deflate', Accept: 'text/xml, application/xml' } }, (res) => {
        const chunks: Buffer[] = [];
        let received = 0;
        res.on('data', (c: Buffer) => {
          received += c.length;
          if (received <= cap) chunks.push(c);
          else {
            clearTimeout(timer);
            reject(new TooLarge(`sent more than the cap of ${cap} bytes an answer`));
            req.destroy();
          }
        });
        res.on('aborted', () => reject(new Error('the connection closed in the middle of the answer')));
        res.on('error', reject);
        res.on('end', () => {
          if (!res.complete) return reject(new Error('the connection closed in the middle of the answer'));
          clearTimeout(timer);
          let body: Buffer = Buffer.concat(chunks);
          try {
            const coding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
            // Inflated no further than the cap: a small gzip body can inflate to gigabytes.
            if (coding === 'gzip' || coding === 'x-gzip') body = zlib.gunzipSync(body, { maxOutputLength: cap });
            else if (coding === 'deflate') body = inflate(body, cap);
            else if (coding !== '' && coding !== 'identity') return reject(new Error(`an unknown content coding ${JSON.stringify(coding)}`));
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
              return reject(new TooLarge(`sent a ${String(res.headers['content-encoding'])} body that inflates past the cap of ${cap} bytes an answer`));
            return reject(new Error(`the ${String(res.headers['content-encoding'])} body cannot be decoded: ${(err as Error).message}`));
          }
          const ra = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, ...(ra !== undefined && { retryAfter: ra }), body });
        });
      });
      const timer = setTimeout(() => req.destroy(new Error(`no complete answer within ${o.timeoutMs} ms`)), o.timeoutMs);
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  }
}

/** `deflate` is zlib-wrapped (RFC 9110 section 8.4.1.2), but some servers send it raw. */
function inflate(body: Buffer, cap: number): Buffer {
  try {
    return zlib.inflateSync(body, { maxOutputLength: cap });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw err;
    return zlib.inflateRawSync(body, { maxOutputLength: cap });
  }
}

function snippet(body: Buffer): string {
  const s = body.subarray(0, 200).toString('utf8').replace(/\s+/g, ' ').trim();
  return s === '' ? '' : `: ${s}`;
}
