/**
 * The read side of the knex-backed store: lib/store/'s ReadStore on SQLite
 * and PostgreSQL with identical behaviour.
 *
 * Reads are keyset scans over `(datestamp, pk)`: one query for a page of rows
 * (the metadata XML in the same query for ListRecords), each item's direct
 * sets read from its own row (`items.direct_sets`, kept by the write path)
 * and its about containers as one aggregated column; never OFFSET, never one
 * query per record.
 */
import type { Knex } from 'knex';
import type {
  ItemHeader,
  ItemRecord,
  Keyset,
  ListFilter,
  ListPageQuery,
  ReadStore,
  ReplicaLag,
  SetInfo,
  SyncChange,
  SyncPart,
  SyncResource,
  SyncScope,
} from '../../lib/store';
import { aboutColumn, chunk, dialectOf, inListParam, inListSql, MAX_IN_LIST, SET_SEPARATOR, toBool, toInt, type RunBudgetedArrays } from '../db/dialect';
import { arrayRunner, statementRunner, type RunSql, type RunSqlArrays } from '../db/statements';
import { listKey, listSql } from './list-sql';
import { writeOnDemand, wantedKey, type OnDemand } from './on-demand';
import * as sync from './sync-read';
import { replicationReads, type Replication } from './replication';
import { settle } from '../db/publication';

export { listKey, listSql };

/**
 * lib/store/'s ReadStore over knex.
 *
 * @example const page = await new KnexReadStore(knex).listHeaders({ metadataPrefix: 'oai_dc', until: now, limit: 100 });
 */
export class KnexReadStore implements ReadStore {
  private runner: RunSql | undefined;
  private arrays: RunSqlArrays | undefined;
  private budgeted: RunBudgetedArrays | undefined;
  private columns: string | undefined;
  private recordCols: string | undefined;
  private about: string | undefined;

  /** Where this store's reads stand in the primary's history; only when reads follow a primary (./replication.ts). */
  readonly readPosition?: () => Promise<string>;
  /** Waits, bounded, until the reads reflect a position; only on a replica: a primary is never behind itself. */
  readonly catchUp?: (position?: string) => Promise<boolean>;
  /** Where writes are published: the primary this store's reads follow, or its own database. */
  private readonly primary: Knex;
  /** How far the reads stand behind the primary; only on a replica. */
  readonly replicaLag?: () => Promise<ReplicaLag>;

  /**
   * @param onDemand how to write the formats this store keeps as models only
   *   (./on-demand.ts); without it, a read that meets one throws.
   * @param replication the primary this store's PostgreSQL reads follow:
   *   tokens then carry positions and list pages wait for them (./replication.ts).
   */
  constructor(
    readonly knex: Knex,
    readonly onDemand?: OnDemand,
    replication?: Replication,
  ) {
    // Publications happen on the primary: a replica's reads wait there, then catch up to it (catchUp).
    this.primary = replication?.primary ?? knex;
    if (replication) {
      const r = replicationReads(knex, replication);
      this.readPosition = r.readPosition;
      if (r.catchUp) this.catchUp = r.catchUp;
      if (r.replicaLag) this.replicaLag = r.replicaLag;
    }
  }

  /** lib/store/read.ts `ReadStore.settle`, over ../db/publication.ts. */
  settle(): Promise<void> {
    return settle(this.primary);
  }

  // The read queries a harvest runs on every request are SQL written once and
  // run as prepared statements (server/db/statements.ts): through the knex
  // builder they cost several times the query itself.

  async earliestDatestamp(): Promise<number | null> {
    // The earliest record's datestamp (a record's is never later than its item's; OAI-PMH 2.0 section 4.2):
    // each format's earliest is one end of records (prefix, datestamp, item_pk), and the formats are
    // walked one index seek at a time, so Identify costs the same for any number of records.
    const [row] = await this.run<{ m: unknown }>(EARLIEST_RECORD_SQL, []);
    return row && row.m !== null && row.m !== undefined ? toInt(row.m) : null;
  }

  async sampleIdentifier(): Promise<string | null> {
    // A live item if there is one: a harvester may try GetRecord on it.
    const row = (await this.knex('items')
      .select('identifier')
      .orderBy([{ column: 'deleted' }, { column: 'pk' }])
      .first()) as { identifier: string } | undefined;
    return row ? row.identifier : null;
  }

  async getHeader(identifier: string): Promise<(ItemHeader & { readonly formats: readonly string[] }) | null> {
    const [row] = await this.runArrays<ReadRow>(`SELECT ${this.readColumns} FROM items i WHERE i.identifier = ?`, [identifier]);
    if (!row) return null;
    const header = toHeader(row);
    const formats = await this.run<{ prefix: string }>('SELECT prefix FROM records WHERE item_pk = ? ORDER BY prefix', [header.pk]);
    return { ...header, formats: formats.map((f) => f.prefix) };
  }

  async getRecord(identifier: string, metadataPrefix: string): Promise<ItemRecord | null> {
    const [row] = await this.runArrays<RecordRow>(
      `SELECT ${this.recordColumns}, r.xml, ${this.aboutSql} AS about FROM items i JOIN records r ON r.item_pk = i.pk WHERE i.identifier = ? AND r.prefix = ?`,
      [identifier, metadataPrefix],
    );
    return row ? ((await this.written([toRecord(row)], metadataPrefix))[0] ?? null) : null;
  }

  async listHeaders(q: ListPageQuery): Promise<readonly ItemHeader[]> {
    return (await this.page<KeyedRow<ReadRow>>(q, false)).map((r) => keyed(toHeader(r), r[6]));
  }

  async listRecords(q: ListPageQuery): Promise<readonly ItemRecord[]> {
    if (q.budget !== undefined) return this.budgetedRecords(q, q.budget);
    return this.written(
      (await this.page<KeyedRow<RecordRow>>(q, true)).map((r) => keyed(toRecord(r), r[8])),
      q.metadataPrefix,
    );
  }

  /**
   * A page of records of at most `budget` stored bytes (lib/store/
   * `ListPageQuery.budget`), in one query. Where the database makes rows as
   * they are read (SQLite, the dialect's `budgeted`), a function summing
   * the rows' sizes in the scan says which fit, and only those have their
   * metadata and about containers read. Elsewhere (PostgreSQL makes all rows
   * before sending them) a window over the rows' sizes says which fit; only
   * those have their metadata and about containers read, by key. octet_length reads a value's
   * stored length, not the value (both databases), so the rows past the
   * budget cost only their keys, however large their records. A record
   * written on demand has no stored XML: 0.
   */
  private async budgetedRecords(q: ListPageQuery, budget: number): Promise<readonly ItemRecord[]> {
    const deleted = q.set !== undefined ? '(i.deleted OR s.departed IS NOT NULL)' : 'i.deleted';
    const size = 'coalesce(octet_length(r.xml), 0) + coalesce((SELECT sum(octet_length(a.xml)) FROM item_about a WHERE a.item_pk = i.pk), 0)';
    const inScan = dialectOf(this.knex).budgeted;
    if (inScan) {
      // Decided row by row as the scan makes them (SQLite): the metadata of a row past the budget is never read.
      this.budgeted ??= inScan.runner(this.knex);
      const fits = inScan.fitsSql('i.pk', size);
      const columns =
        `${READ_COLUMNS}, r.datestamp, ${deleted} AS deleted, i.direct_sets AS sets, ` +
        `CASE WHEN ${fits} THEN r.xml END, CASE WHEN ${fits} THEN ${this.aboutSql} END, ${listKey(q)} AS k, ${fits} AS fits`;
      const { sql, params } = listSql(q, `SELECT ${columns}`, q);
      const rows = await this.budgeted<readonly [...KeyedRow<RecordRow>, fits: boolean | number]>(sql, params, budget);
      if (rows !== null) return this.fitting(rows, q.metadataPrefix);
    }
    const inner = listSql(
      q,
      `SELECT i.pk AS pk, i.internal_id AS internal_id, i.identifier AS identifier, r.datestamp AS datestamp, ${deleted} AS deleted, i.direct_sets AS sets, ${size} AS n, ${listKey(q)} AS k`,
      q,
    );
    const sql =
      'SELECT w.pk, w.internal_id, w.identifier, w.datestamp, w.deleted, w.sets, ' +
      'CASE WHEN w.fits THEN (SELECT x.xml FROM records x WHERE x.item_pk = w.pk AND x.prefix = ?) END, ' +
      `CASE WHEN w.fits THEN ${aboutColumn(this.knex, 'w.pk')} END, w.k, w.fits ` +
      // A row fits when the rows before it leave room for it; the first always does (it is served alone if larger).
      `FROM (SELECT p.*, (sum(p.n) OVER o <= ? OR row_number() OVER o = 1) AS fits FROM (${inner.sql}) p ` +
      'WINDOW o AS (ORDER BY p.k, p.pk ROWS UNBOUNDED PRECEDING)) w ORDER BY w.k, w.pk';
    const rows = await this.runArrays<readonly [...KeyedRow<RecordRow>, fits: boolean | number]>(sql, [q.metadataPrefix, budget, ...inner.params]);
    return this.fitting(rows, q.metadataPrefix);
  }

  /** A budgeted page's records from its rows, each marked whether it fits: those after the first that does not are headers. */
  private async fitting(rows: readonly (readonly [...KeyedRow<RecordRow>, fits: boolean | number])[], prefix: string): Promise<readonly ItemRecord[]> {
    const records: ItemRecord[] = [];
    let fitting = true;
    for (const row of rows) {
      // Once one row is past the budget the page ends before it, whatever fits after.
      fitting &&= toBool(row[9]);
      records.push(fitting ? keyed(toRecord(row), row[8]) : { ...keyed(toHeader(row), row[8]), metadata: null, overBudget: true });
    }
    const fit = records.filter((r) => r.overBudget !== true);
    const written = await this.written(fit, prefix);
    return [...written, ...records.slice(fit.length)];
  }

  /** The records with the metadata of every live one this store writes on demand (./on-demand.ts) filled in. */
  private async written(records: ItemRecord[], prefix: string): Promise<ItemRecord[]> {
    const wanted = records.flatMap((r) => (!r.deleted && r.metadata === null ? [{ pk: r.pk, identifier: r.identifier, prefix }] : []));
    if (wanted.length === 0) return records;
    const xml = await writeOnDemand(this.knex, this.onDemand, wanted);
    return records.map((r) => (!r.deleted && r.metadata === null ? { ...r, metadata: xml.get(wantedKey(r.pk, prefix)) ?? null, written: true } : r));
  }

  async count(f: ListFilter): Promise<number> {
    const { sql, params } = listSql(f, 'SELECT count(*) AS n');
    const [row] = await this.run<{ n: unknown }>(sql, params);
    return row ? toInt(row.n) : 0;
  }

  async hasSets(): Promise<boolean> {
    return (await this.run('SELECT 1 AS x FROM sets LIMIT 1', [])).length > 0;
  }

  async listSets(after: string | null, limit: number): Promise<readonly SetInfo[]> {
    const rows =
      after === null
        ? await this.run<SetRow>('SELECT spec, name, descriptions FROM sets ORDER BY spec LIMIT ?', [limit])
        : await this.run<SetRow>('SELECT spec, name, descriptions FROM sets WHERE spec > ? ORDER BY spec LIMIT ?', [after, limit]);
    return rows.map((r) => ({ spec: r.spec, name: r.name, descriptions: JSON.parse(r.descriptions) as string[] }));
  }

  async countSets(): Promise<number> {
    const [row] = await this.run<{ n: unknown }>('SELECT count(*) AS n FROM sets', []);
    return row ? toInt(row.n) : 0;
  }

  async ping(): Promise<void> {
    await this.knex.raw('select 1');
  }

  // ResourceSync and the sitemap: ./sync-read.ts.

  syncResources(scope: SyncScope, q: { afterPk: number; throughPk: number; limit: number; withXml: boolean }): Promise<readonly SyncResource[]> {
    return sync.syncResources(this.runners, scope, q, (wanted) => writeOnDemand(this.knex, this.onDemand, wanted));
  }

  syncCount(scope: SyncScope, atMost: number): Promise<number> {
    return sync.syncCount(this.runners, scope, atMost);
  }

  syncParts(scope: SyncScope, partSize: number): Promise<readonly SyncPart[]> {
    return sync.syncParts(this.runners, scope, partSize);
  }

  syncChanges(scope: SyncScope, after: Keyset, limit: number): Promise<readonly SyncChange[]> {
    return sync.syncChanges(this.runners, scope, after, limit);
  }

  syncNthChange(scope: SyncScope, after: Keyset, n: number): Promise<Keyset | null> {
    return sync.syncNthChange(this.runners, scope, after, n);
  }

  syncPresence(scope: SyncScope): Promise<{ any: boolean; live: boolean }> {
    return sync.syncPresence(this.runners, scope);
  }

  syncSetFormats(set: string, prefixes: readonly string[]): Promise<readonly string[]> {
    return sync.syncSetFormats(this.runners, set, prefixes);
  }

  syncLatest(scope: SyncScope): Promise<number> {
    return sync.syncLatest(this.runners, scope);
  }

  private get runners(): sync.SyncRunners {
    return { run: this.run, arrays: this.runArrays };
  }

  /**
   * The item columns a header needs, its direct sets included (kept on the
   * item's row): a page or a GetRecord is then one query, not two.
   */
  private get readColumns(): string {
    this.columns ??= `${READ_COLUMNS}, i.datestamp, i.deleted, i.direct_sets AS sets`;
    return this.columns;
  }

  /** The same for one record (`records r` joined): the record's own datestamp. */
  private get recordColumns(): string {
    this.recordCols ??= `${READ_COLUMNS}, r.datestamp, i.deleted, i.direct_sets AS sets`;
    return this.recordCols;
  }

  /** The about containers of `items i`, as one aggregated column. */
  private get aboutSql(): string {
    this.about ??= aboutColumn(this.knex, 'i.pk');
    return this.about;
  }

  /** Runs read SQL as a prepared statement on this store's connection (or transaction). */
  private get run(): RunSql {
    this.runner ??= statementRunner(this.knex);
    return this.runner;
  }

  /** The same, each row an array of its columns: for the item reads, one row per item of a page. */
  private get runArrays(): RunSqlArrays {
    this.arrays ??= arrayRunner(this.knex);
    return this.arrays;
  }

  /**
   * One page in `(datestamp, pk)` order strictly after the keyset. In a set
   * harvest, an item that has left the set (item_sets.departed) is reported
   * deleted there, whatever it is elsewhere.
   */
  private page<T extends readonly unknown[]>(q: ListPageQuery, withXml: boolean): Promise<T[]> {
    const deleted = q.set !== undefined ? '(i.deleted OR s.departed IS NOT NULL)' : 'i.deleted';
    const columns = `${READ_COLUMNS}, r.datestamp, ${deleted} AS deleted, i.direct_sets AS sets`;
    // The row's place in the list's order comes last (./list-sql.ts listKey): a set's list is in the items' order.
    const { sql, params } = listSql(q, `SELECT ${columns}${withXml ? `, r.xml, ${this.aboutSql} AS about` : ''}, ${listKey(q)} AS k`, q);
    return this.runArrays<T>(sql, params);
  }
}

/** The smallest records.datestamp, a seek per format (a loose index scan both databases run from the index). */
const EARLIEST_RECORD_SQL =
  'WITH RECURSIVE p(prefix) AS (SELECT min(prefix) FROM records UNION ALL SELECT (SELECT min(r.prefix) FROM records r WHERE r.prefix > p.prefix) FROM p WHERE p.prefix IS NOT NULL) ' +
  'SELECT min((SELECT min(r.datestamp) FROM records r WHERE r.prefix = p.prefix)) AS m FROM p WHERE p.prefix IS NOT NULL';

/**
 * The direct sets of many items in one query per chunk, each list in binary
 * order, read on `db` (a connection or the write's transaction).
 *
 * @example (await directSets(trx, [1, 2])).get(1) // ['a', 'a:b']
 */
export async function directSets(db: Knex, pks: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  const run = statementRunner(db);
  for (const part of chunk(pks, MAX_IN_LIST)) {
    if (part.length === 0) continue;
    const rows = await run<{ item_pk: unknown; spec: string }>(
      `SELECT item_pk, spec FROM item_sets WHERE ${inListSql(db, 'item_pk')} AND direct AND departed IS NULL ORDER BY item_pk, spec`,
      [inListParam(db, part)],
    );
    for (const r of rows) {
      const pk = toInt(r.item_pk);
      const list = out.get(pk);
      if (list) list.push(r.spec);
      else out.set(pk, [r.spec]);
    }
  }
  return out;
}

/**
 * The item columns the read side needs, as SQL over `items i`; each query
 * adds a datestamp (the item's, or in a record's row the record's),
 * `deleted` and the sets after them, in the order of {@link ReadRow}.
 */
const READ_COLUMNS = 'i.pk, i.internal_id, i.identifier';

/**
 * A header's row as an array, in SELECT order: pk, internal_id, identifier,
 * datestamp, deleted, and the direct sets joined by {@link SET_SEPARATOR}
 * (null for none).
 */
type ReadRow = readonly [
  pk: number | string,
  internalId: string,
  identifier: string,
  datestamp: number | string,
  deleted: boolean | number,
  sets: string | null,
];

/** A record's row: a header's, then the metadata XML and the about containers joined by {@link SET_SEPARATOR} (null for none). */
type RecordRow = readonly [...ReadRow, xml: string | null, about: string | null];

/** A row of a list page: the row, then its place in the list's order (./list-sql.ts listKey). */
type KeyedRow<R extends readonly unknown[]> = readonly [...R, key: number | string];

/** A row of a list with its place in the list's order, when that is not its datestamp (lib/store/read.ts `ItemHeader.keyDatestamp`). */
function keyed<T extends ItemHeader>(row: T, key: unknown): T {
  const k = toInt(key);
  return k === row.datestamp ? row : { ...row, keyDatestamp: k };
}

interface SetRow {
  spec: string;
  name: string;
  descriptions: string;
}

function toHeader(row: readonly [...ReadRow, ...unknown[]]): ItemHeader {
  return { pk: toInt(row[0]), internalId: row[1], identifier: row[2], datestamp: toInt(row[3]), deleted: toBool(row[4]), sets: splitList(row[5]) };
}

function toRecord(row: readonly [...RecordRow, ...unknown[]]): ItemRecord {
  const deleted = toBool(row[4]);
  return {
    pk: toInt(row[0]),
    internalId: row[1],
    identifier: row[2],
    datestamp: toInt(row[3]),
    deleted,
    sets: splitList(row[5]),
    metadata: deleted ? null : row[6],
    about: deleted ? [] : splitList(row[7]),
  };
}

/** A column joined by {@link SET_SEPARATOR} as a list; null or empty is none. */
function splitList(joined: string | null): string[] {
  return joined === null || joined === '' ? [] : joined.split(SET_SEPARATOR);
}
