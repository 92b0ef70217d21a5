/**
 * Stateless resumption tokens (OAI-PMH 3.5): versioned, signed with
 * HMAC-SHA256, carrying the verb, the original arguments, a keyset cursor and
 * the upper bound fixed when the harvest began. Any server process holding the
 * secret can continue any harvest, and a page costs the same wherever it is.
 *
 * Form: `1.<base64url(JSON payload)>.<base64url(HMAC-SHA256(secret, "1." + payload))>`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { oaiError } from './errors';
import type { OaiError } from './errors';
import type { Keyset } from '../store';

const VERSION = '1';

/** Where a ListIdentifiers or ListRecords harvest stands. */
export interface ListTokenState {
  readonly verb: 'ListIdentifiers' | 'ListRecords';
  readonly metadataPrefix: string;
  readonly set?: string;
  readonly from?: number;
  /** The inclusive upper bound in seconds, fixed when the harvest began. */
  readonly until: number;
  /** The last row already returned. */
  readonly after: Keyset;
  /** How many items earlier pages returned (the next `cursor`). */
  readonly cursor: number;
  /** completeListSize, counted when the harvest began. */
  readonly completeListSize: number;
  /** Seconds since the epoch after which the token is refused. */
  readonly expires: number;
  /** Where the page's reads stood in the primary's history (a PostgreSQL WAL position), when tokens carry it. */
  readonly position?: string;
}

/** Where a ListSets harvest stands. */
export interface SetsTokenState {
  readonly verb: 'ListSets';
  /** The last setSpec already returned. */
  readonly after: string;
  readonly cursor: number;
  readonly completeListSize: number;
  readonly expires: number;
  /** As {@link ListTokenState}'s: where the page's reads stood in the primary's history. */
  readonly position?: string;
}

export type TokenState = ListTokenState | SetsTokenState;

/** The verbs that page with tokens. */
export type TokenVerb = TokenState['verb'];

/** The state a token of verb `V` carries. */
export type StateOf<V extends TokenVerb> = Extract<TokenState, { readonly verb: V }>;

/** Why a token was refused: each becomes badResumptionToken. */
export type TokenProblem = 'malformed' | 'signature' | 'expired' | 'verb';

const TOKEN_MESSAGES: Readonly<Record<TokenProblem, string>> = {
  malformed: 'The resumptionToken is not one this repository issued.',
  signature: 'The resumptionToken is not one this repository issued (its signature does not match).',
  expired: 'The resumptionToken has expired; start the harvest again.',
  verb: 'The resumptionToken belongs to another verb.',
};

/**
 * badResumptionToken (OAI-PMH 3.6) with a message saying which check failed.
 * Example: `badToken('expired').message` is `'The resumptionToken has expired; start the harvest again.'`.
 */
export function badToken(problem: TokenProblem): OaiError {
  return oaiError('badResumptionToken', TOKEN_MESSAGES[problem]);
}

/**
 * Signs a state into a token. Example:
 * `encodeToken({ verb: 'ListSets', after: 'a', cursor: 100, completeListSize: 250, expires: 1e10 }, 's3cret')`.
 */
export function encodeToken(state: TokenState, secret: string): string {
  const compact =
    state.verb === 'ListSets'
      ? { v: 'LS', a: state.after, c: state.cursor, n: state.completeListSize, x: state.expires, ...(state.position !== undefined && { w: state.position }) }
      : {
          v: state.verb === 'ListRecords' ? 'LR' : 'LI',
          p: state.metadataPrefix,
          ...(state.set !== undefined && { s: state.set }),
          ...(state.from !== undefined && { f: state.from }),
          u: state.until,
          a: [state.after.datestamp, state.after.pk],
          c: state.cursor,
          n: state.completeListSize,
          x: state.expires,
          ...(state.position !== undefined && { w: state.position }),
        };
  const body = Buffer.from(JSON.stringify(compact), 'utf8').toString('base64url');
  return `${VERSION}.${body}.${sign(body, secret)}`;
}

/**
 * Verifies and reads a token for the verb that received it. The signature is
 * checked before the payload is trusted; an expired token or a token of
 * another verb is refused. Example:
 * `decodeToken(encodeToken(s, 'k'), 'ListSets', 'k', now)` → `{ ok: true, state: s }` while `now <= s.expires`.
 */
export function decodeToken<V extends TokenVerb>(
  token: string,
  verb: V,
  secret: string,
  now: number,
): { ok: true; state: StateOf<V> } | { ok: false; problem: TokenProblem } {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) return { ok: false, problem: 'malformed' };
  const [, body, mac] = parts as [string, string, string];
  const expected = Buffer.from(sign(body, secret), 'utf8');
  const given = Buffer.from(mac, 'utf8');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, problem: 'signature' };
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, problem: 'malformed' };
  }
  const state = fromCompact(raw);
  if (!state) return { ok: false, problem: 'malformed' };
  if (!isStateOf(state, verb)) return { ok: false, problem: 'verb' };
  if (state.expires < now) return { ok: false, problem: 'expired' };
  return { ok: true, state };
}

function isStateOf<V extends TokenVerb>(state: TokenState, verb: V): state is StateOf<V> {
  return state.verb === verb;
}

function sign(body: string, secret: string): string {
  return createHmac('sha256', secret).update(`${VERSION}.${body}`).digest('base64url');
}

const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);

function fromCompact(raw: unknown): TokenState | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const o = raw as Record<string, unknown>;
  if (!isInt(o.c) || !isInt(o.n) || !isInt(o.x) || o.c < 0 || o.n < 0) return null;
  if (o.w !== undefined && (typeof o.w !== 'string' || !WAL_POSITION.test(o.w))) return null;
  if (o.v === 'LS') {
    if (typeof o.a !== 'string') return null;
    return { verb: 'ListSets', after: o.a, cursor: o.c, completeListSize: o.n, expires: o.x, ...(typeof o.w === 'string' && { position: o.w }) };
  }
  if (o.v !== 'LR' && o.v !== 'LI') return null;
  const a = o.a;
  if (!Array.isArray(a) || a.length !== 2 || !isInt(a[0]) || !isInt(a[1])) return null;
  if (typeof o.p !== 'string' || !isInt(o.u)) return null;
  if (o.s !== undefined && typeof o.s !== 'string') return null;
  if (o.f !== undefined && !isInt(o.f)) return null;
  return {
    verb: o.v === 'LR' ? 'ListRecords' : 'ListIdentifiers',
    metadataPrefix: o.p,
    ...(typeof o.s === 'string' && { set: o.s }),
    ...(isInt(o.f) && { from: o.f }),
    until: o.u,
    after: { datestamp: a[0], pk: a[1] },
    cursor: o.c,
    completeListSize: o.n,
    expires: o.x,
    ...(typeof o.w === 'string' && { position: o.w }),
  };
}

/** A PostgreSQL WAL position as `pg_lsn` prints it: two hexadecimal numbers of at most 32 bits. */
const WAL_POSITION = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/;
