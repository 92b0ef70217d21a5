/**
 * The reads of ResourceSync and the sitemap (lib/store/read.ts `ReadStore`'s
 * `sync…` queries) on SQLite and PostgreSQL alike: keyset scans, never
 * OFFSET over rows sent to the server (an `OFFSET` inside the database only
 * finds where a page of changes ends).
 *
 * A scope is a format (`records.prefix`) or a format within a set. A set's
 * scope reads `item_sets`, which holds every set an item is in with its
 * ancestors and keeps a row for each set it left (`departed`), so a set's
 * Change List reports a departure as a deletion, as a set harvest does
 * (OAI-PMH 2.0 section 2.5.1 applied per set). Resource lists go in pk order
 * over `items` (or the `item_sets` primary key `(spec, item_pk)`); changes in
 * `(datestamp, pk)` order through the same SQL as a list harvest
 * (./list-sql.ts).
 */
import type { Keyset, SyncChange, SyncPart, SyncResource, SyncScope } from '../../lib/store';
import { toBool, toInt } from '../db/dialect';
import type { RunSql, RunSqlArrays } from '../db/statements';
import { listKey, listSql } from './list-sql';
import { wantedKey, type Wanted } from './on-demand';

/** Beyond any datestamp: the change lists have no upper bound but the keyset. */
const NO_UNTIL = Number.MAX_SAFE_INTEGER;
/** The largest pk there can be: `items.pk` is a 32-bit integer on PostgreSQL, which refuses a larger bound. */
const MAX_PK = 2147483647;

/** The runners a store hands over: rows as objects, and as arrays for the long scans. */
export interface SyncRunners {
  readonly run: RunSql;
  readonly arrays: RunSqlArrays;
}

/**
 * FROM and WHERE of the live records of a scope, and the pk column to range
 * and order on. A live record: the item is not deleted, has a record in the
 * format and, in a set's scope, has not left the set. Whether a record's
 * XML is stored is not asked (a live item's format may be written on demand,
 * ./on-demand.ts), so nothing here reads `records.xml`: the scans that do
 * not need it stay in the indexes (measured on 1,000,000 records: a Resource
 * List Index took 10.0 s with `xml IS NOT NULL`, which reads every record's
 * row, 1.7 s without).
 */
function liveFrom(scope: SyncScope): { sql: string; params: unknown[]; pk: string } {
  if (scope.set === undefined) {
    return { sql: 'FROM items i CROSS JOIN records r WHERE r.item_pk = i.pk AND r.prefix = ? AND NOT i.deleted', params: [scope.metadataPrefix], pk: 'i.pk' };
  }
  return {
    sql: 'FROM item_sets s CROSS JOIN items i CROSS JOIN records r WHERE s.spec = ? AND s.departed IS NULL AND i.pk = s.item_pk AND r.item_pk = i.pk AND r.prefix = ? AND NOT i.deleted',
    params: [scope.set, scope.metadataPrefix],
    pk: 's.item_pk',
  };
}

/** A resource row as an array: pk, identifier, datestamp, created, content hash, and the XML when asked for. */
type ResourceRow = readonly [pk: unknown, identifier: string, datestamp: unknown, created: unknown, hash: string, xml?: string | null];

/** lib/store/read.ts `ReadStore.syncResources`. */
export async function syncResources(
  r: SyncRunners,
  scope: SyncScope,
  q: { readonly afterPk: number; readonly throughPk: number; readonly limit: number; readonly withXml: boolean },
  write: (wanted: readonly Wanted[]) => Promise<ReadonlyMap<string, string>>,
): Promise<SyncResource[]> {
  const from = liveFrom(scope);
  const sql =
    `SELECT i.pk, i.identifier, r.datestamp, i.created, i.content_hash${q.withXml ? ', r.xml' : ''} ${from.sql}` +
    ` AND ${from.pk} > ? AND ${from.pk} <= ? ORDER BY ${from.pk} LIMIT ?`;
  const rows = await r.arrays<ResourceRow>(sql, [...from.params, Math.min(q.afterPk, MAX_PK), Math.min(q.throughPk, MAX_PK), q.limit]);
  // Formats the store writes on demand (./on-demand.ts), written for the rows of this batch.
  const wanted = q.withXml
    ? rows.flatMap((row) => (row[5] === null || row[5] === undefined ? [{ pk: toInt(row[0]), identifier: row[1], prefix: scope.metadataPrefix }] : []))
    : [];
  const written = wanted.length > 0 ? await write(wanted) : new Map<string, string>();
  return rows.map((row) => ({
    pk: toInt(row[0]),
    identifier: row[1],
    datestamp: toInt(row[2]),
    created: toInt(row[3]),
    contentHash: row[4],
    ...(q.withXml && { xml: row[5] ?? (written.get(wantedKey(toInt(row[0]), scope.metadataPrefix)) as string) }),
  }));
}

/** lib/store/read.ts `ReadStore.syncCount`. */
export async function syncCount(r: SyncRunners, scope: SyncScope, atMost: number): Promise<number> {
  const from = liveFrom(scope);
  const [row] = await r.run<{ n: unknown }>(`SELECT count(*) AS n FROM (SELECT 1 AS x ${from.sql} LIMIT ?) t`, [...from.params, atMost]);
  return row ? toInt(row.n) : 0;
}

/** lib/store/read.ts `ReadStore.syncParts`. */
export async function syncParts(r: SyncRunners, scope: SyncScope, partSize: number): Promise<SyncPart[]> {
  // The part size is a positive integer of the server's own (never request input), written into the SQL
  // so that the grouping expression is the same in the select list and GROUP BY.
  if (!Number.isSafeInteger(partSize) || partSize < 1) throw new Error(`not a part size: ${partSize}`);
  const from = liveFrom(scope);
  const rows = await r.run<{ part: unknown; n: unknown; ds: unknown; cr: unknown }>(
    `SELECT (${from.pk} - 1) / ${partSize} AS part, count(*) AS n, max(r.datestamp) AS ds, max(i.created) AS cr ${from.sql} GROUP BY part ORDER BY part`,
    from.params,
  );
  return rows.map((row) => ({ part: toInt(row.part), count: toInt(row.n), latest: Math.max(toInt(row.ds), toInt(row.cr)) }));
}

/** The list filter of a scope's changes: every record with a row in the format, tombstones included (they keep theirs). */
function changeFilter(scope: SyncScope): { metadataPrefix: string; until: number; set?: string } {
  return { metadataPrefix: scope.metadataPrefix, until: NO_UNTIL, ...(scope.set !== undefined && { set: scope.set }) };
}

/** A change row as an array: pk, identifier, datestamp, created, deleted. */
type ChangeRow = readonly [pk: unknown, identifier: string, datestamp: unknown, created: unknown, deleted: unknown, key: unknown];

/** lib/store/read.ts `ReadStore.syncChanges`. */
export async function syncChanges(r: SyncRunners, scope: SyncScope, after: Keyset, limit: number): Promise<SyncChange[]> {
  const deleted = scope.set !== undefined ? '(i.deleted OR s.departed IS NOT NULL)' : 'i.deleted';
  const { sql, params } = listSql(changeFilter(scope), `SELECT i.pk, i.identifier, r.datestamp, i.created, ${deleted} AS deleted, ${listKey(scope)} AS k`, {
    after,
    limit,
  });
  const rows = await r.arrays<ChangeRow>(sql, params);
  return rows.map((row) => {
    const change = { pk: toInt(row[0]), identifier: row[1], datestamp: toInt(row[2]), created: toInt(row[3]), deleted: toBool(row[4]) };
    const key = toInt(row[5]);
    return key === change.datestamp ? change : { ...change, keyDatestamp: key };
  });
}

/** lib/store/read.ts `ReadStore.syncNthChange`. */
export async function syncNthChange(r: SyncRunners, scope: SyncScope, after: Keyset, n: number): Promise<Keyset | null> {
  // OFFSET walks the index inside the database: only the one position comes back.
  const { sql, params } = listSql(changeFilter(scope), `SELECT ${listKey(scope)}, i.pk`, { after, limit: 1 });
  const [row] = await r.arrays<readonly [unknown, unknown]>(`${sql} OFFSET ?`, [...params, n - 1]);
  return row ? { datestamp: toInt(row[0]), pk: toInt(row[1]) } : null;
}

/** lib/store/read.ts `ReadStore.syncPresence`. */
export async function syncPresence(r: SyncRunners, scope: SyncScope): Promise<{ any: boolean; live: boolean }> {
  const live = liveFrom(scope);
  const any =
    scope.set === undefined
      ? { sql: 'FROM records r WHERE r.prefix = ?', params: [scope.metadataPrefix] }
      : { sql: 'FROM item_sets s CROSS JOIN records r WHERE s.spec = ? AND r.item_pk = s.item_pk AND r.prefix = ?', params: [scope.set, scope.metadataPrefix] };
  const [rows, liveRows] = [await r.run(`SELECT 1 AS x ${any.sql} LIMIT 1`, any.params), await r.run(`SELECT 1 AS x ${live.sql} LIMIT 1`, live.params)];
  return { any: rows.length > 0, live: liveRows.length > 0 };
}

/** lib/store/read.ts `ReadStore.syncSetFormats`. */
export async function syncSetFormats(r: SyncRunners, set: string, prefixes: readonly string[]): Promise<string[]> {
  if (prefixes.length === 0) return [];
  // One statement per set, one EXISTS per format (each stops at its first row); its shape depends only on how many formats.
  const sql = prefixes
    .map(
      (_p, k) => `SELECT ${k} AS k WHERE EXISTS (SELECT 1 FROM item_sets s CROSS JOIN records r WHERE s.spec = ? AND r.item_pk = s.item_pk AND r.prefix = ?)`,
    )
    .join(' UNION ALL ');
  const rows = await r.run<{ k: unknown }>(
    sql,
    prefixes.flatMap((p) => [set, p]),
  );
  const found = new Set(rows.map((row) => toInt(row.k)));
  return prefixes.filter((_p, k) => found.has(k));
}

/** lib/store/read.ts `ReadStore.syncLatest`. */
export async function syncLatest(r: SyncRunners, scope: SyncScope): Promise<number> {
  // Both read one end of an index: (prefix, datestamp, item_pk) of records or (spec, datestamp, item_pk) of
  // item_sets (the items' latest change, never earlier than a record's), and the pks, which grow with the
  // store's clock, for the creation time.
  const [byDatestamp, byPk] =
    scope.set === undefined
      ? [
          await r.run<{ t: unknown }>('SELECT r.datestamp AS t FROM records r WHERE r.prefix = ? ORDER BY r.datestamp DESC, r.item_pk DESC LIMIT 1', [
            scope.metadataPrefix,
          ]),
          await r.run<{ t: unknown }>(
            'SELECT i.created AS t FROM items i CROSS JOIN records r WHERE r.item_pk = i.pk AND r.prefix = ? ORDER BY i.pk DESC LIMIT 1',
            [scope.metadataPrefix],
          ),
        ]
      : [
          await r.run<{ t: unknown }>(
            'SELECT s.datestamp AS t FROM item_sets s CROSS JOIN records r WHERE s.spec = ? AND r.item_pk = s.item_pk AND r.prefix = ? ORDER BY s.datestamp DESC, s.item_pk DESC LIMIT 1',
            [scope.set, scope.metadataPrefix],
          ),
          await r.run<{ t: unknown }>(
            'SELECT i.created AS t FROM item_sets s CROSS JOIN items i CROSS JOIN records r WHERE s.spec = ? AND i.pk = s.item_pk AND r.item_pk = i.pk AND r.prefix = ? ORDER BY s.item_pk DESC LIMIT 1',
            [scope.set, scope.metadataPrefix],
          ),
        ];
  return Math.max(0, ...[...byDatestamp, ...byPk].map((row) => toInt(row.t)));
}
