/**
 * Per-client fairness: one aggressive harvester must not starve the others.
 * A client is its remote address, or, when the request comes through a
 * trusted proxy, the nearest address in `X-Forwarded-For` that is not itself
 * a trusted proxy (counting from the proxy, so a client cannot choose its
 * own identity by sending the header itself). Each client may have a bounded
 * number of requests open at once and a sustained rate (a token bucket);
 * past either it is answered 429 Too Many Requests with `Retry-After`
 * (RFC 6585 4), the way large providers answer aggressive harvesters.
 */
import net from 'node:net';
import type { Request, RequestHandler } from 'express';

/** The per-client limits; 0 turns a limit off. */
export interface ClientLimits {
  /** Requests one client may have open at once (body reading included). */
  readonly maxInFlight: number;
  /** Requests per minute one client may make, sustained. */
  readonly ratePerMinute: number;
  /** Requests one client may make at once above its sustained rate. */
  readonly burst: number;
  /** Addresses of proxies whose `X-Forwarded-For` is believed. */
  readonly trustedProxies: readonly string[];
}

/** The middleware and what it shows the metrics. */
export interface ClientFairness {
  readonly limit: RequestHandler;
  /** Clients with a request open or a bucket not yet full. */
  tracked(): number;
}

interface ClientState {
  open: number;
  tokens: number;
  refilled: number;
}

/** Clients remembered at most; past it, those with nothing open and a full bucket are forgotten first. */
const MAX_TRACKED = 100_000;

/**
 * Who sent a request: the remote address, or the nearest untrusted hop of
 * `X-Forwarded-For` when the remote address is a trusted proxy.
 *
 * @example clientOf(req, new Set(['10.0.0.2'])) // '203.0.113.7' for X-Forwarded-For: 203.0.113.7 from 10.0.0.2
 */
export function clientOf(req: Request, trusted: ReadonlySet<string>): string {
  const remote = normalise(req.socket.remoteAddress ?? '');
  if (!trusted.has(remote)) return remote;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((s) => normalise(s.trim()));
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    if (!net.isIP(hop)) return remote;
    if (!trusted.has(hop)) return hop;
  }
  return remote;
}

/** An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is the IPv4 address. */
function normalise(address: string): string {
  return address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
}

/**
 * Builds the per-client limiter. `now` is in milliseconds; `onLimited` is told
 * each refusal and why.
 *
 * @example app.use(createClientFairness({ maxInFlight: 8, ratePerMinute: 600, burst: 20, trustedProxies: [] }).limit);
 */
export function createClientFairness(
  limits: ClientLimits,
  options: { readonly now?: () => number; readonly onLimited?: (reason: 'concurrency' | 'rate') => void } = {},
): ClientFairness {
  const now = options.now ?? (() => Date.now());
  const trusted = new Set(limits.trustedProxies.map(normalise));
  const clients = new Map<string, ClientState>();
  const perMs = limits.ratePerMinute / 60_000;

  const refill = (state: ClientState, at: number): void => {
    if (limits.ratePerMinute <= 0) return;
    state.tokens = Math.min(limits.burst, state.tokens + (at - state.refilled) * perMs);
    state.refilled = at;
  };
  const forget = (at: number): void => {
    for (const [key, state] of clients) {
      refill(state, at);
      if (state.open === 0 && state.tokens >= limits.burst) clients.delete(key);
    }
  };

  const limit: RequestHandler = (req, res, next) => {
    const at = now();
    const key = clientOf(req, trusted);
    res.locals.client = key;
    let state = clients.get(key);
    if (!state) {
      if (clients.size >= MAX_TRACKED) forget(at);
      state = { open: 0, tokens: limits.burst, refilled: at };
      clients.set(key, state);
    }
    refill(state, at);
    if (limits.maxInFlight > 0 && state.open >= limits.maxInFlight) {
      options.onLimited?.('concurrency');
      res.status(429).set('Retry-After', '1').type('text/plain').send(`More than ${limits.maxInFlight} requests open from one client; retry later.\n`);
      return;
    }
    if (limits.ratePerMinute > 0) {
      if (state.tokens < 1) {
        options.onLimited?.('rate');
        const wait = Math.max(1, Math.ceil((1 - state.tokens) / perMs / 1000));
        res.status(429).set('Retry-After', String(wait)).type('text/plain').send(`More than ${limits.ratePerMinute} requests a minute from one client; retry later.\n`);
        return;
      }
      state.tokens -= 1;
    }
    const held = state;
    held.open++;
    res.on('close', () => {
      held.open--;
      if (held.open === 0 && (limits.ratePerMinute <= 0 || held.tokens >= limits.burst)) clients.delete(key);
    });
    // The work starts on the next turn of the event loop, after every request that arrived with this one
    // has been counted: a request served without waiting for I/O (SQLite's are) would otherwise finish
    // before the next is even seen, and a client's open requests would never add up.
    setImmediate(next);
  };

  return { limit, tracked: () => clients.size };
}
