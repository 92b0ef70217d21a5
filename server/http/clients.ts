/**
 * Per-client fairness: one aggressive harvester must not starve the others.
 * A client is the address Express gives as `req.ip`: the remote address, or,
 * when the request comes through a proxy `trustProxy` names, the nearest
 * address in `X-Forwarded-For` that is not itself a trusted proxy (counting
 * from the proxy, so a client cannot choose its own identity by sending the
 * header itself). Each client may have a bounded
 * number of requests open at once and a sustained rate (a token bucket);
 * past either it is answered 429 Too Many Requests with `Retry-After`
 * (RFC 6585 4), the way large providers answer aggressive harvesters.
 *
 * Requests pipelined on one connection (RFC 9112 9.3.2) are answered in the
 * order they came, one after another, so serving them at once gains the
 * client nothing: they are queued on their connection and each is counted
 * only when its turn comes, so a client pipelining forty requests is served
 * forty answers, not four and thirty-six refusals. The queue of a connection
 * is bounded ({@link MAX_PIPELINED}); a request past it is refused 429.
 */
import { isIPv4, type Socket } from 'node:net';
import type { Request, RequestHandler } from 'express';

/** The per-client limits; 0 turns a limit off. */
export interface ClientLimits {
  /** Requests one client may have open at once (body reading included). */
  readonly maxInFlight: number;
  /** Requests per minute one client may make, sustained. */
  readonly ratePerMinute: number;
  /** Requests one client may make at once above its sustained rate. */
  readonly burst: number;
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

/**
 * Clients remembered at most, by default. Past it, those with nothing open and
 * a full bucket are forgotten, then, if that is not a tenth of them (a flood
 * of distinct addresses, each with a bucket still refilling), the longest
 * known with nothing open, down to nine tenths: one pass over the clients
 * per tenth of this many new ones, never one per request.
 */
const MAX_TRACKED = 100_000;

/**
 * Requests one connection may have waiting behind the one it has open, by
 * default: Node reads a pipelined connection's requests ahead of its answers
 * (pausing only when answers pile up unsent), so without a bound a client
 * could park any number of them.
 */
export const MAX_PIPELINED = 64;

/** A connection's request under way through the limiter, and those pipelined behind it. */
interface Connection {
  busy: boolean;
  readonly waiting: (() => void)[];
}

/**
 * Who sent a request: `req.ip`, which Express reads from `X-Forwarded-For`
 * only behind the proxies the app's `trust proxy` names (proxy-addr: the
 * nearest untrusted hop), else the remote address.
 *
 * @example clientOf(req) // '203.0.113.7' for X-Forwarded-For: 203.0.113.7 from a trusted proxy
 */
export function clientOf(req: Request): string {
  return normalise(req.ip ?? req.socket.remoteAddress ?? '');
}

/** An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is the IPv4 address. */
function normalise(address: string): string {
  return address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
}

/**
 * Builds the per-client limiter. `now` is in milliseconds; `onLimited` is told
 * each refusal and why.
 *
 * @example app.use(createClientFairness({ maxInFlight: 4, ratePerMinute: 600, burst: 20 }).limit);
 */
export function createClientFairness(
  limits: ClientLimits,
  options: {
    readonly now?: () => number;
    readonly onLimited?: (reason: 'concurrency' | 'rate' | 'pipelined') => void;
    readonly maxTracked?: number;
    readonly maxPipelined?: number;
  } = {},
): ClientFairness {
  const now = options.now ?? (() => Date.now());
  const maxTracked = options.maxTracked ?? MAX_TRACKED;
  const maxPipelined = options.maxPipelined ?? MAX_PIPELINED;
  const clients = new Map<string, ClientState>();
  // Forgotten with their connection.
  const connections = new WeakMap<Socket, Connection>();
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
    // A Map iterates in insertion order: the longest known first.
    const keep = Math.floor(maxTracked * 0.9);
    for (const [key, state] of clients) {
      if (clients.size <= keep) break;
      if (state.open === 0) clients.delete(key);
    }
  };

  const admit: RequestHandler = (req, res, next) => {
    const at = now();
    const key = clientOf(req);
    res.locals.client = key;
    let state = clients.get(key);
    if (!state) {
      if (clients.size >= maxTracked) forget(at);
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
        res
          .status(429)
          .set('Retry-After', String(wait))
          .type('text/plain')
          .send(`More than ${limits.ratePerMinute} requests a minute from one client; retry later.\n`);
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

  const limit: RequestHandler = (req, res, next) => {
    const socket = req.socket;
    let conn = connections.get(socket);
    if (conn === undefined) {
      conn = { busy: false, waiting: [] };
      connections.set(socket, conn);
    }
    const held = conn;
    const run = (): void => {
      held.busy = true;
      res.once('close', () => {
        held.busy = false;
        // A connection that is gone takes its waiting requests with it: nobody can read their answers.
        if (socket.destroyed) held.waiting.length = 0;
        held.waiting.shift()?.();
      });
      admit(req, res, next);
    };
    if (!held.busy) return run();
    if (held.waiting.length >= maxPipelined) {
      options.onLimited?.('pipelined');
      res.status(429).set('Retry-After', '1').type('text/plain').send(`More than ${maxPipelined} requests pipelined on one connection; retry later.\n`);
      return;
    }
    held.waiting.push(run);
  };

  return { limit, tracked: () => clients.size };
}
