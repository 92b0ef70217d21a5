/**
 * The SQL of a list harvest's scan, shared by the OAI-PMH lists (./read.ts)
 * and the Change Lists of ResourceSync (./sync-read.ts).
 */
import type { Keyset, ListFilter } from '../../lib/store';

/**
 * The SQL of a list (a page, or its count): format, date range, set, and for
 * a page the keyset and the limit. Its shape depends only on which of them
 * are given, so each shape is prepared once.
 *
 * Without a set the scan runs over `items (datestamp, pk)`; with one over
 * `item_sets (spec, datestamp, item_pk)`, which holds ancestors too, so `a`
 * finds items of `a:b` (OAI-PMH 2.0 section 2.7.2) and a small set costs no
 * more than a large one. The tables are CROSS JOINed with the join conditions
 * in WHERE: SQLite then keeps the first table as the outer loop, so a page is
 * an ordered index range scan that stops after `limit` rows (no sort);
 * PostgreSQL plans it as the inner join it is. The keyset is a row-value
 * comparison, which both turn into an index range scan.
 */
export function listSql(f: ListFilter, select: string, page?: { after?: Keyset; limit: number }): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  let from: string;
  let order: readonly [string, string];
  const where: string[] = [];
  if (f.set !== undefined) {
    from = 'item_sets s CROSS JOIN items i CROSS JOIN records r';
    order = ['s.datestamp', 's.item_pk'];
    where.push('s.spec = ?', 'i.pk = s.item_pk');
    params.push(f.set);
  } else {
    from = 'items i CROSS JOIN records r';
    order = ['i.datestamp', 'i.pk'];
  }
  where.push('r.item_pk = i.pk', 'r.prefix = ?', `${order[0]} <= ?`);
  params.push(f.metadataPrefix, f.until);
  if (f.from !== undefined) {
    where.push(`${order[0]} >= ?`);
    params.push(f.from);
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
