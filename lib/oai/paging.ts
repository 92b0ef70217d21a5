/**
 * Keyset paging shared by ListIdentifiers, ListRecords and ListSets
 * (OAI-PMH 3.5): a page asks the store for one row more than it shows, to
 * know whether another page exists, and a continuing page carries a signed
 * token that starts after the page's last row. Each verb says only how to
 * read its rows, what a row's key is and what its token carries.
 */
import { badToken, decodeToken, encodeToken } from './token';
import type { StateOf, TokenVerb } from './token';
import type { OaiError } from './errors';
import type { ProviderContext } from './context';
import type { ResumptionInfo } from './response';

/** Where a page starts: after a key (none on the first page), and what the earlier pages established. */
export interface PageStart<K> {
  /** The last key already returned; absent on the first page. */
  readonly after?: K;
  /** How many items earlier pages returned. */
  readonly cursor: number;
  /** Known from the token; counted on demand when the first page continues. */
  readonly completeListSize?: number;
}

/** What a paged verb tells the pager. */
export interface Listing<R, K, V extends TokenVerb> {
  /**
   * Up to `limit` rows after `after` (from the start when undefined), in key
   * order; with a `budget` (for a listing that has {@link overBudget}), the
   * rows past the bytes it allows are read as keys only and marked so.
   */
  rows(after: K | undefined, limit: number, budget?: number): Promise<readonly R[]>;
  /**
   * Whether a row came past the budget: given, a page holds only the leading
   * rows that fit the context's `pageBytes` (at least one), and only those are read.
   */
  overBudget?(row: R): boolean;
  /** The key the next page starts after. */
  keyOf(row: R): K;
  /** completeListSize, counted once, when the harvest begins. */
  count(): Promise<number>;
  /** The token state that continues after `after`; `position`: where the page's reads stood (../../store `readPosition`). */
  state(after: K, cursor: number, completeListSize: number, expires: number, position?: string): StateOf<V>;
}

/** One page of rows and its `resumptionToken` element, if it needs one. */
export interface Page<R> {
  readonly rows: readonly R[];
  readonly resumption?: ResumptionInfo;
}

/**
 * Reads the token of a continuing request for `verb`: its state, or the
 * badResumptionToken error saying which check failed.
 * Example: `resumeFrom(ctx, 'ListSets', token, now)` → `{ ok: true, state: { verb: 'ListSets', after: 'a', … } }`.
 */
export function resumeFrom<V extends TokenVerb>(
  ctx: ProviderContext,
  verb: V,
  token: string,
  now: number,
): { readonly ok: true; readonly state: StateOf<V> } | { readonly ok: false; readonly errors: readonly OaiError[] } {
  const decoded = decodeToken(token, verb, ctx.tokenSecret, now);
  return decoded.ok ? decoded : { ok: false, errors: [badToken(decoded.problem)] };
}

/**
 * Reads the page that begins at `start`, with `ctx.pageSize` rows at most,
 * and, for a listing that knows its rows' sizes, only as many as fit in
 * `ctx.pageBytes`: one read, in which the rows past the budget come as keys
 * only, so a page never holds more than it serves.
 * A list that fits one page gets no `resumptionToken` element; a page that
 * continues gets a token valid for `ctx.tokenLifetime` seconds; the last
 * page of a longer list gets an empty token (OAI-PMH 3.5). The page's rows
 * may be empty: what that means is the verb's to say.
 * Example: `await readPage(ctx, setListing, { cursor: 0 }, now)` → `{ rows: [set1, …], resumption: { token: '1.…', cursor: 0, … } }`.
 */
export async function readPage<R, K, V extends TokenVerb>(ctx: ProviderContext, listing: Listing<R, K, V>, start: PageStart<K>, now: number): Promise<Page<R>> {
  const { rows, more } = await pageRows(ctx, listing, start.after);
  if (!more) {
    if (start.after === undefined) return { rows };
    return { rows, resumption: { token: '', cursor: start.cursor, completeListSize: start.cursor + rows.length } };
  }
  const last = listing.keyOf(rows[rows.length - 1] as R);
  const completeListSize = start.completeListSize ?? (await listing.count());
  const expires = now + ctx.tokenLifetime;
  // Read after the rows, so the position is at least what the page saw.
  const position = ctx.store.readPosition ? await ctx.store.readPosition() : undefined;
  const token = encodeToken(listing.state(last, start.cursor + rows.length, completeListSize, expires, position), ctx.tokenSecret);
  return { rows, resumption: { token, cursor: start.cursor, completeListSize, expirationDate: expires } };
}

/** The rows of one page and whether rows remain after them. */
async function pageRows<R, K, V extends TokenVerb>(
  ctx: ProviderContext,
  listing: Listing<R, K, V>,
  after: K | undefined,
): Promise<{ readonly rows: readonly R[]; readonly more: boolean }> {
  if (listing.overBudget && ctx.pageBytes !== undefined) {
    // One row more than the page shows says whether another page exists, as below; it may come past the budget.
    const fetched = await listing.rows(after, ctx.pageSize + 1, ctx.pageBytes);
    const over = fetched.findIndex((row) => listing.overBudget?.(row) === true);
    const fit = Math.min(over === -1 ? fetched.length : over, ctx.pageSize);
    return { rows: fetched.slice(0, fit), more: fetched.length > fit };
  }
  const fetched = await listing.rows(after, ctx.pageSize + 1);
  const more = fetched.length > ctx.pageSize;
  return { rows: more ? fetched.slice(0, ctx.pageSize) : fetched, more };
}
