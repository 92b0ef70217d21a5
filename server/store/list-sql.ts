/**
 * The SQL of a list harvest's scan, shared by the OAI-PMH lists (./read.ts)
 * and the Change Lists of ResourceSync (./sync-read.ts).
 */
import type { Keyset, ListFilter } from '../../lib/store';

/**
 * The column a list is ordered by with its pk, its keyset: the record's
 * datestamp in a list of one format, the item's latest change (of any of its
 * records, so never earlier than the record's) in a list of a set.
 *
 * @example listKey({ metadataPrefix: 'oai_dc', until: 0 }) // 'r.datestamp'
 */
export function listKey(f: Pick<ListFilter, 'set'>): string {
  return f.set !== undefined ? 's.datestamp' : 'r.datestamp';
}

/**
 * The SQL of a list (a page, or its count): format, date range, set, and for
 * a page the keyset and the limit. Its shape depends only on which of them
 * are given, so each shape is prepared once. A record's datestamp is its own
 * (`r.datestamp`, migration 013): `from` and `until` select by it.
 *
 * Without a set the scan runs over `records (prefix, datestamp, item_pk)`;
 * with one over `item_sets (spec, datestamp, item_pk)`, which holds ancestors
 * too, so `a` finds items of `a:b` (OAI-PMH 2.0 section 2.7.2) and a small
 * set costs no more than a large one. There the keyset is the item's
 * datestamp, the latest change of any of its records: `from` bounds the scan
 * by it too (an item's datestamp is never earlier than its records'), and
 * `until` only the record's, since an item changed in another format after
 * `until` still holds this record as it was. The tables are CROSS JOINed with
 * the join conditions in WHERE: SQLite then keeps the first table as the
 * outer loop, so a page is an ordered index range scan that stops after
 * `limit` rows (no sort); PostgreSQL plans it as the inner join it is. The
 * keyset is a row-value comparison, which both turn into an index range scan.
 */
export function listSql(f: ListFilter, select: string, page?: { after?: Keyset; limit: number }): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  let from: string;
  let order: readonly [string, string];
  const where: string[] = [];
  if (f.set !== undefined) {
    from = 'item_sets s CROSS JOIN items i CROSS JOIN records r';
    order = ['s.datestamp', 's.item_pk'];
    where.push('s.spec = ?', 'i.pk = s.item_pk', 'r.item_pk = i.pk', 'r.prefix = ?', 'r.datestamp <= ?');
    params.push(f.set, f.metadataPrefix, f.until);
    if (f.from !== undefined) {
      where.push('s.datestamp >= ?', 'r.datestamp >= ?');
      params.push(f.from, f.from);
    }
  } else {
    from = 'records r CROSS JOIN items i';
    order = ['r.datestamp', 'r.item_pk'];
    where.push('r.prefix = ?', 'i.pk = r.item_pk', 'r.datestamp <= ?');
    params.push(f.metadataPrefix, f.until);
    if (f.from !== undefined) {
      where.push('r.datestamp >= ?');
      params.push(f.from);
    }
  }
  if (page?.after) {
    where.push(`(${order[0]}, ${order[1]}) > (?, ?)`);
    params.push(page.after.datestamp, page.after.pk);
  }
  let sql = `${select} FROM ${from} WHERE ${where.join(' AND ')}`;
  if (page) {
    sql += ` ORDER BY ${order[0]}, ${order[1]} LIMIT ?`;
    params.push(page.limit);
  }
  return { sql, params };
}
