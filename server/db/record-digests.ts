/**
 * The stored records with what each one's digest (`records.hash`,
 * lib/pipeline/content-hash.ts `recordHash`) covers, a page at a time, and
 * the digests filled in where a record has none: what `doctor` checks
 * (server/store/inspect.ts) and what the migration 017_record_hashes fills,
 * read by one function so that the two cannot disagree on what a digest
 * covers. Keyset on `(item_pk, prefix)`, so memory holds one page however
 * large the store.
 */
import type { Knex } from 'knex';
import type { AboutInput } from '../../lib/store';
import { chunk, jsonRowsParam, jsonRowsSql, SET_SEPARATOR, toBool, toInt } from './dialect';

/** One stored record and what its digest covers. */
export interface StoredRecordRow {
  readonly pk: number;
  readonly internalId: string;
  /** The item's published oai-identifier. */
  readonly identifier: string;
  readonly prefix: string;
  /** Null for a tombstone, and for a format written on demand. */
  readonly xml: string | null;
  /** Null for a record written before records had one. */
  readonly hash: string | null;
  readonly deleted: boolean;
  /** The item's direct sets, as its headers are served (`items.direct_sets`). */
  readonly sets: readonly string[];
  readonly about: readonly AboutInput[];
}

/** Which records a page holds. */
export interface StoredRecordFilter {
  /** Above 1: only the items whose key is a multiple of it (a sample spread over the whole store). */
  readonly every?: number;
  /** Only the records without a digest. */
  readonly unhashed?: boolean;
}

/**
 * A page of stored records after `(pk, prefix)` in that order, with each
 * item's deleted status, direct sets and about containers; `filter` keeps a
 * sample, or only the records without a digest.
 *
 * @example for (let page = await storedRecordPage(knex, null, 500); …; page = await storedRecordPage(knex, lastOf(page), 500)) …
 */
export async function storedRecordPage(
  knex: Knex,
  after: { pk: number; prefix: string } | null,
  limit: number,
  filter: StoredRecordFilter = {},
): Promise<StoredRecordRow[]> {
  const q = knex('records as r')
    .join('items as i', 'i.pk', 'r.item_pk')
    .select('r.item_pk as pk', 'r.prefix', 'r.xml', 'r.hash', 'i.internal_id', 'i.identifier', 'i.deleted', 'i.direct_sets')
    .orderBy([
      { column: 'r.item_pk', order: 'asc' },
      { column: 'r.prefix', order: 'asc' },
    ])
    .limit(limit);
  // A row value, which both databases seek in the records' primary key; the bound on the items too, or
  // PostgreSQL may merge-join them from the first item on every page (measured: a page 20 ms slower for
  // every 50,000 items before it).
  if (after !== null) q.whereRaw('(r.item_pk, r.prefix) > (?, ?) AND i.pk >= ?', [after.pk, after.prefix, after.pk]);
  if (filter.every !== undefined && filter.every > 1) q.whereRaw('r.item_pk % ? = 0', [filter.every]);
  if (filter.unhashed === true) q.whereNull('r.hash');
  const rows = (await q) as {
    pk: unknown;
    prefix: string;
    xml: string | null;
    hash: string | null;
    internal_id: string;
    identifier: string;
    deleted: unknown;
    direct_sets: string | null;
  }[];
  const pks = [...new Set(rows.map((r) => toInt(r.pk)))];
  const about = new Map<number, AboutInput[]>();
  if (pks.length > 0) {
    const aboutRows = (await knex('item_about').whereIn('item_pk', pks).select('item_pk', 'xml', 'compare_as').orderBy(['item_pk', 'position'])) as {
      item_pk: unknown;
      xml: string;
      compare_as: string | null;
    }[];
    for (const a of aboutRows) {
      const pk = toInt(a.item_pk);
      (about.get(pk) ?? about.set(pk, []).get(pk))?.push(a.compare_as === null ? { xml: a.xml } : { xml: a.xml, compareAs: a.compare_as });
    }
  }
  return rows.map((r) => ({
    pk: toInt(r.pk),
    internalId: r.internal_id,
    identifier: r.identifier,
    prefix: r.prefix,
    xml: r.xml,
    hash: r.hash,
    deleted: toBool(r.deleted),
    sets: r.direct_sets === null ? [] : r.direct_sets.split(SET_SEPARATOR),
    about: about.get(toInt(r.pk)) ?? [],
  }));
}

/** A record's digest to store: the item's key, the record's prefix, the digest. */
export interface RecordDigest {
  readonly pk: number;
  readonly prefix: string;
  readonly hash: string;
}

/** Digests one statement stores: a page of the callers' reads, well under either database's limits. */
const DIGESTS_PER_STATEMENT = 1000;

/**
 * Stores the digests of records that have none, one statement a thousand
 * records; a record that has one keeps it (so running it again, or over a
 * record written meanwhile, changes nothing). Nothing else of the row is
 * touched: its datestamp and bytes stay as they are.
 *
 * @example await fillRecordHashes(trx, [{ pk: 7, prefix: 'oai_dc', hash: 'hT3…' }])
 */
export async function fillRecordHashes(knex: Knex, digests: readonly RecordDigest[]): Promise<void> {
  const rows = jsonRowsSql(knex, [
    ['item_pk', 'int'],
    ['prefix', 'text'],
    ['hash', 'text'],
  ]);
  const sql = `UPDATE records SET hash = v.hash FROM ${rows} AS v WHERE records.item_pk = v.item_pk AND records.prefix = v.prefix AND records.hash IS NULL`;
  for (const part of chunk(digests, DIGESTS_PER_STATEMENT)) {
    if (part.length > 0) await knex.raw(sql, [jsonRowsParam(part.map((d) => [d.pk, d.prefix, d.hash]))]);
  }
}
