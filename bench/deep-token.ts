/**
 * Resumption tokens deep in a list, built from the store, so that a sampled
 * harvest of a large store can still ask for the middle and the last page of
 * a full harvest (bench/measure.ts, `--harvest-pages`).
 *
 * A token (lib/oai/token.ts) is a signed keyset cursor: the list's filter,
 * the `(datestamp, pk)` of the last row already returned, the cursor and
 * completeListSize. Anyone holding the store's token secret can therefore
 * write the token a harvester would hold after page k without reading pages
 * 1…k: the key of row `k × pageSize` comes from one descending index scan of
 * the list's own query (server/store/read.ts `listSql`), and the request it
 * makes is the one a full harvest makes at that page, read by the same
 * statement. test/bench/deep-token.test.ts holds it to that: the page a built
 * token returns is the page the harvest returned.
 */
import { encodeToken } from '../lib/oai';
import type { Keyset, ListFilter } from '../lib/store';
import type { Provider } from '../server/provider';
import type { KnexStore } from '../server/store/knex-store';
import { listKey, listSql } from '../server/store/read';

/** Tokens of a ListRecords harvest of one format, as a full harvest would hold them. */
export interface DeepTokens {
  readonly completeListSize: number;
  readonly pages: number;
  /** The token of page ⌊pages / 2⌋ + 1 (the harvester's middle page, counting from 1). */
  readonly middle: string;
  /** The token of the last page. */
  readonly last: string;
}

/** The key of the row at `index` (from 0) of the list in `(datestamp, pk)` order, read from the end of the list. */
async function keyAt(p: Provider, filter: ListFilter, size: number, index: number): Promise<Keyset> {
  const key = listKey(filter);
  const { sql, params } = listSql(filter, `SELECT ${key} AS datestamp, i.pk`);
  // The benchmark reads the table behind the store directly, to find a deep page's key without paging to it.
  const r: unknown = await (p.store as KnexStore).knex.raw(`${sql} ORDER BY ${key} DESC, i.pk DESC LIMIT 1 OFFSET ${size - 1 - index}`, params as never[]);
  // better-sqlite3 answers with the rows, pg with a result holding them.
  const rows = (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as { datestamp: unknown; pk: unknown }[];
  const row = rows[0];
  if (!row) throw new Error(`no row ${index} in a list of ${size}`);
  return { datestamp: Number(row.datestamp), pk: Number(row.pk) };
}

/**
 * Builds the tokens of the middle and the last ListRecords page of
 * `prefix`, for a harvest beginning at `now` (seconds); null when the list
 * fits on one or two pages (the harvest itself then reaches both).
 *
 * @example const t = await deepTokens(provider, 'oai_dc', Math.floor(Date.now() / 1000)); // t.last → the last page
 */
export async function deepTokens(p: Provider, prefix: string, now: number): Promise<DeepTokens | null> {
  const ctx = await p.context();
  // OAI-PMH 3.5.1: the first page fixes the harvest's upper bound at its request time.
  const filter: ListFilter = { metadataPrefix: prefix, until: now };
  const completeListSize = await p.store.count(filter);
  const pages = Math.ceil(completeListSize / ctx.pageSize);
  if (pages <= 2) return null;
  const token = async (page: number): Promise<string> => {
    // Page `page` (from 1) starts after the row at cursor − 1.
    const cursor = (page - 1) * ctx.pageSize;
    const after = await keyAt(p, filter, completeListSize, cursor - 1);
    return encodeToken(
      { verb: 'ListRecords', metadataPrefix: prefix, until: now, after, cursor, completeListSize, expires: now + ctx.tokenLifetime },
      ctx.tokenSecret,
    );
  };
  return { completeListSize, pages, middle: await token(Math.floor(pages / 2) + 1), last: await token(pages) };
}
