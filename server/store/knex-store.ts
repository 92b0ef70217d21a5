/**
 * The knex-backed store: lib/store.ts's ReadStore and WriteStore on SQLite
 * and PostgreSQL with identical behaviour (dialect differences live in
 * server/db/dialect.ts).
 *
 * Reads are keyset scans over `(datestamp, pk)`: one query for a page of rows
 * (the metadata XML in the same query for ListRecords) and one for the sets
 * of all its items; never OFFSET, never one query per record (issue 2,
 * "Storage"). Writes are the only write path: identifier governance
 * (./governance.ts) runs over the whole batch first and nothing is written
 * when anything is refused (issue 3, "The registry").
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import {
  RefusedError,
  type ItemHeader,
  type ItemInput,
  type ItemRecord,
  type Keyset,
  type ListFilter,
  type ListPageQuery,
  type ReadStore,
  type Refusal,
  type SetInfo,
  type SetInput,
  type WriteOutcome,
  type WriteResult,
  type WriteStore,
} from '../../lib/store';
import { canonicalSeries } from '../../lib/ids/pdi';
import { checkFragment } from '../../lib/xml/fragment';
import { chunk, directSetsColumn, inListParam, inListSql, MAX_IN_LIST, rowsPerInsert, SET_SEPARATOR, toBool, toInt } from '../db/dialect';
import { insertRows, statementRunner, type RunSql } from '../db/statements';
import {
  checkBatch,
  firstNonXmlChar,
  isValidSetSpec,
  mapAll,
  withAncestors,
  type ExistingItem,
  type IdPolicyLike,
  type RegistryEntry,
  type SchemeCheck,
} from './governance';

/** How a KnexStore is made. */
export interface KnexStoreOptions {
  /** A knex instance or transaction on a migrated database (server/db/migrations). */
  readonly knex: Knex;
  /** The id policy (lib/ids/policy.ts `createIdPolicy`). */
  readonly policy: IdPolicyLike;
  /** The configured namespace-identifier (for the capitalization rule). */
  readonly namespace: string;
  /** Seconds since the epoch, UTC; defaults to the system clock. */
  readonly clock?: () => number;
  /**
   * The formats a tombstone is listed under when it never had metadata (an
   * item first written as deleted). Default `['oai_dc']`: OAI-PMH 2.0 section
   * 3.4 requires every item to be disseminable in oai_dc.
   */
  readonly tombstonePrefixes?: readonly string[];
  /** Override the identifier schemes governance checks (tests). */
  readonly schemes?: readonly SchemeCheck[];
}

interface ItemRow {
  pk: number;
  internal_id: string;
  identifier: string;
  datestamp: number | string;
  deleted: boolean | number;
  content_hash: string;
}

/** What a planned write does to one item. */
interface PlannedItem {
  readonly input: ItemInput;
  readonly identifier: string;
  readonly scheme: string;
  readonly existing: ItemRow | undefined;
  readonly outcome: WriteOutcome;
  readonly deleted: boolean;
  readonly datestamp: number;
  readonly hash: string;
  readonly sets: readonly string[];
  /** prefix → xml (null for a tombstone). */
  readonly records: ReadonlyMap<string, string | null>;
}

const systemClock = (): number => Math.floor(Date.now() / 1000);

/**
 * The content hash that decides "unchanged": sets, deletion and (for a live
 * item) the metadata of every format, in a canonical order.
 */
function contentHash(deleted: boolean, sets: readonly string[], metadata: ReadonlyMap<string, string | null>): string {
  const canonical = deleted
    ? JSON.stringify({ deleted: true, sets })
    : JSON.stringify({ deleted: false, sets, metadata: [...metadata.entries()].sort(([a], [b]) => cmp(a, b)) });
  return crypto.createHash('sha256').update(canonical).digest('hex');
}

/** Code point order, as the databases compare (dialect.ts), unlike JS's UTF-16 sort. */
function cmp(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function uniqueSorted(list: readonly string[]): string[] {
  return [...new Set(list)].sort(cmp);
}

/**
 * lib/store.ts's ReadStore and WriteStore over knex.
 *
 * @example
 * const knex = createKnex('sqlite:./data/oai.db');
 * await migrate(knex);
 * const store = new KnexStore({ knex, policy: createIdPolicy({ namespace: 'example.org' }), namespace: 'example.org' });
 * await store.putSets([{ spec: 'a', name: 'A' }]);
 * await store.writeItems([{ internalId: 'x 1', sets: ['a'], metadata: { oai_dc: '<oai_dc:dc …/>' } }]);
 */
export class KnexStore implements ReadStore, WriteStore {
  readonly knex: Knex;
  private readonly options: KnexStoreOptions;
  private readonly clock: () => number;
  private runner: RunSql | undefined;
  private columns: string | undefined;

  constructor(options: KnexStoreOptions) {
    this.options = options;
    this.knex = options.knex;
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Runs `fn` with a store bound to one transaction, so several writes
   * (e.g. putSets then several writeItems batches) commit or roll back
   * together. Each write inside still runs in its own savepoint.
   *
   * @example await store.transaction(async (tx) => { await tx.putSets(sets); await tx.writeItems(items); });
   */
  async transaction<T>(fn: (store: KnexStore) => Promise<T>): Promise<T> {
    return this.knex.transaction(async (trx) => fn(new KnexStore({ ...this.options, knex: trx })));
  }

  // ---------------------------------------------------------------- read side
  //
  // The read queries a harvest runs on every request are SQL written once and
  // run as prepared statements (server/db/statements.ts): through the knex
  // builder they cost several times the query itself.

  async earliestDatestamp(): Promise<number | null> {
    const row = (await this.knex('items').min({ m: 'datestamp' }).first()) as { m: unknown } | undefined;
    return row && row.m !== null && row.m !== undefined ? toInt(row.m) : null;
  }

  async sampleIdentifier(): Promise<string | null> {
    // A live item if there is one: a harvester may try GetRecord on it.
    const row = (await this.knex('items').select('identifier').orderBy([{ column: 'deleted' }, { column: 'pk' }]).first()) as
      | { identifier: string }
      | undefined;
    return row ? row.identifier : null;
  }

  async getHeader(identifier: string): Promise<(ItemHeader & { readonly formats: readonly string[] }) | null> {
    const [row] = await this.run<ReadRow>(`SELECT ${this.readColumns} FROM items i WHERE i.identifier = ?`, [identifier]);
    if (!row) return null;
    const formats = await this.run<{ prefix: string }>('SELECT prefix FROM records WHERE item_pk = ? ORDER BY prefix', [toInt(row.pk)]);
    return { ...toHeader(row), formats: formats.map((f) => f.prefix) };
  }

  async getRecord(identifier: string, metadataPrefix: string): Promise<ItemRecord | null> {
    const [row] = await this.run<ReadRow & { xml: string | null }>(
      `SELECT ${this.readColumns}, r.xml FROM items i JOIN records r ON r.item_pk = i.pk WHERE i.identifier = ? AND r.prefix = ?`,
      [identifier, metadataPrefix],
    );
    return row ? toRecord(row) : null;
  }

  async listHeaders(q: ListPageQuery): Promise<readonly ItemHeader[]> {
    return (await this.page<ReadRow>(q, false)).map((r) => toHeader(r));
  }

  async listRecords(q: ListPageQuery): Promise<readonly ItemRecord[]> {
    return (await this.page<ReadRow & { xml: string | null }>(q, true)).map((r) => toRecord(r));
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

  /**
   * The item columns a header needs, its direct sets included as one
   * aggregated column: a page or a GetRecord is then one query, not two.
   */
  private get readColumns(): string {
    this.columns ??= `${READ_COLUMNS}, ${directSetsColumn(this.knex, 'i.pk')} AS sets`;
    return this.columns;
  }

  /** Runs read SQL as a prepared statement on this store's connection (or transaction). */
  private get run(): RunSql {
    this.runner ??= statementRunner(this.knex);
    return this.runner;
  }

  /** One page in `(datestamp, pk)` order strictly after the keyset. */
  private page<T>(q: ListPageQuery, withXml: boolean): Promise<T[]> {
    const { sql, params } = listSql(q, `SELECT ${this.readColumns}${withXml ? ', r.xml' : ''}`, q);
    return this.run<T>(sql, params);
  }

  /** The direct sets of many items in one query, each list in binary order. */
  private async directSets(pks: readonly number[], db: Knex = this.knex): Promise<Map<number, string[]>> {
    const out = new Map<number, string[]>();
    const run = db === this.knex ? this.run : statementRunner(db);
    for (const part of chunk(pks, MAX_IN_LIST)) {
      if (part.length === 0) continue;
      const rows = await run<{ item_pk: unknown; spec: string }>(
        `SELECT item_pk, spec FROM item_sets WHERE ${inListSql(db, 'item_pk')} AND direct ORDER BY item_pk, spec`,
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

  // --------------------------------------------------------------- write side

  async putSets(sets: readonly SetInput[]): Promise<void> {
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const s of sets) {
      if (!isValidSetSpec(s.spec)) problems.push(`set ${JSON.stringify(s.spec)}: not a valid setSpec`);
      if (seen.has(s.spec)) problems.push(`set ${JSON.stringify(s.spec)}: declared twice`);
      seen.add(s.spec);
      if (s.name.trim() === '') problems.push(`set ${JSON.stringify(s.spec)}: the name is empty`);
      for (const text of [s.name, ...(s.descriptions ?? [])]) {
        const bad = firstNonXmlChar(text);
        if (bad) problems.push(`set ${JSON.stringify(s.spec)}: contains ${bad}, which XML 1.0 cannot carry`);
      }
      for (const d of s.descriptions ?? []) {
        const problem = firstNonXmlChar(d) === null ? checkFragment(d) : null;
        if (problem !== null) problems.push(`set ${JSON.stringify(s.spec)}: a description is not one well-formed XML element: ${problem}`);
      }
    }
    if (problems.length > 0) throw new Error(problems.join('\n'));
    const rows = sets.map((s) => ({ spec: s.spec, name: s.name, descriptions: JSON.stringify(s.descriptions ?? []) }));
    await this.knex.transaction(async (trx) => {
      for (const part of chunk(rows, rowsPerInsert(trx, 3))) {
        await trx('sets').insert(part).onConflict('spec').merge(['name', 'descriptions']);
      }
    });
  }

  async checkItems(items: readonly ItemInput[]): Promise<readonly Refusal[]> {
    return (await this.plan(this.knex, items)).refusals;
  }

  async writeItems(items: readonly ItemInput[]): Promise<readonly WriteResult[]> {
    if (items.length === 0) return [];
    return this.knex.transaction(async (trx) => {
      const { refusals, planned } = await this.plan(trx, items);
      if (refusals.length > 0) throw new RefusedError(refusals);
      await this.apply(trx, planned);
      return planned.map((p) => ({ internalId: p.input.internalId, identifier: p.identifier, outcome: p.outcome }));
    });
  }

  async deleteItems(internalIds: readonly string[]): Promise<readonly WriteResult[]> {
    if (internalIds.length === 0) return [];
    return this.knex.transaction(async (trx) => {
      const existing = await this.itemsByInternalId(trx, internalIds);
      const refusals: Refusal[] = [];
      const seen = new Set<string>();
      for (const id of internalIds) {
        if (!existing.has(id)) refusals.push({ internalId: id, field: 'id', reason: 'no item has this internal id, so there is nothing to delete' });
        else if (seen.has(id)) refusals.push({ internalId: id, field: 'id', reason: 'the same internal id appears twice in one batch' });
        seen.add(id);
      }
      if (refusals.length > 0) throw new RefusedError(refusals);
      const rows = internalIds.map((id) => existing.get(id) as ItemRow);
      const live = rows.filter((r) => !toBool(r.deleted));
      const sets = await this.directSets(live.map((r) => r.pk), trx);
      const now = this.clock();
      for (const r of live) {
        await trx('items')
          .where('pk', r.pk)
          .update({ deleted: true, datestamp: now, content_hash: contentHash(true, sets.get(r.pk) ?? [], new Map()) });
      }
      // A tombstone keeps the formats it had, without metadata (2.5.1).
      for (const part of chunk(live.map((r) => r.pk), MAX_IN_LIST)) {
        await trx('records').whereIn('item_pk', part).update({ xml: null });
        await trx('item_sets').whereIn('item_pk', part).update({ datestamp: now });
      }
      return rows.map((r) => ({ internalId: r.internal_id, identifier: r.identifier, outcome: toBool(r.deleted) ? 'unchanged' : 'deleted' }));
    });
  }

  /** Reads what the batch touches, runs governance, and decides each item's outcome. */
  private async plan(db: Knex, items: readonly ItemInput[]): Promise<{ refusals: Refusal[]; planned: PlannedItem[] }> {
    const now = this.clock();
    const mappings = mapAll(this.options.policy, items);
    const internalIds = uniqueSorted(items.map((i) => i.internalId));
    const identifiers = uniqueSorted(mappings.flatMap((m) => (m.ok ? [m.identifier] : [])));

    const byInternalId = await this.itemsByInternalId(db, internalIds);
    const byIdentifier = new Map<string, ItemRow>();
    const run = statementRunner(db);
    const inText = inListSql(db, '%s', 'text');
    for (const part of chunk(identifiers, MAX_IN_LIST)) {
      const rows = await run<ItemRow>(`SELECT ${ITEM_COLUMNS.join(', ')} FROM items WHERE ${inText.replace('%s', 'identifier')}`, [inListParam(db, part)]);
      for (const r of rows) byIdentifier.set(r.identifier, { ...r, pk: toInt(r.pk) });
    }
    const registryByIdentifier = new Map<string, RegistryEntry>();
    const registryByInternalId = new Map<string, RegistryEntry[]>();
    const addRegistry = (r: { identifier: string; internal_id: string }): void => {
      const entry = { identifier: r.identifier, internalId: r.internal_id };
      if (registryByIdentifier.has(entry.identifier)) return;
      registryByIdentifier.set(entry.identifier, entry);
      const list = registryByInternalId.get(entry.internalId) ?? [];
      list.push(entry);
      registryByInternalId.set(entry.internalId, list);
    };
    for (const [column, values] of [['identifier', identifiers], ['internal_id', internalIds]] as const) {
      for (const part of chunk(values, MAX_IN_LIST)) {
        const rows = await run<RegistryRow>(`SELECT identifier, internal_id FROM identifiers WHERE ${inText.replace('%s', column)}`, [inListParam(db, part)]);
        for (const r of rows) addRegistry(r);
      }
    }
    const specs = uniqueSorted(items.flatMap((i) => i.sets ?? []));
    const knownSets = new Set<string>();
    for (const part of chunk(specs, MAX_IN_LIST)) {
      for (const r of await run<{ spec: string }>(`SELECT spec FROM sets WHERE ${inText.replace('%s', 'spec')}`, [inListParam(db, part)])) knownSets.add(r.spec);
    }

    const toExisting = (r: ItemRow): ExistingItem => ({ internalId: r.internal_id, identifier: r.identifier });
    const refusals = checkBatch({
      items,
      mappings,
      namespace: this.options.namespace,
      existingByInternalId: new Map([...byInternalId].map(([k, v]) => [k, toExisting(v)])),
      existingByIdentifier: new Map([...byIdentifier].map(([k, v]) => [k, toExisting(v)])),
      registryByIdentifier,
      registryByInternalId,
      knownSets,
      now,
      ...(this.options.schemes ? { schemes: this.options.schemes } : {}),
    });
    // Issue 6: only one well-formed element per format is stored, so what the renderer splices is
    // always XML (it checks again on the way out, against rows written behind this path's back).
    // Empty metadata and characters XML cannot carry are refused by governance already.
    for (const item of items) {
      if (item.deleted === true) continue;
      for (const [prefix, xml] of Object.entries(item.metadata)) {
        if (xml.trim() === '' || firstNonXmlChar(xml) !== null) continue;
        const problem = checkFragment(xml);
        if (problem !== null) {
          refusals.push({
            internalId: item.internalId,
            ...(item.source !== undefined && { source: item.source }),
            field: `metadata.${prefix}`,
            reason: `the metadata is not one well-formed XML element: ${problem}`,
          });
        }
      }
    }
    if (refusals.length > 0) return { refusals, planned: [] };

    // Tombstones written through writeItems keep their old sets and formats
    // unless the input names them.
    const existingPks = [...byInternalId.values()].map((r) => r.pk);
    const oldSets = await this.directSets(existingPks, db);
    const oldPrefixes = new Map<number, string[]>();
    for (const part of chunk(existingPks, MAX_IN_LIST)) {
      const rows = await run<{ item_pk: number; prefix: string }>(`SELECT item_pk, prefix FROM records WHERE ${inListSql(db, 'item_pk')}`, [inListParam(db, part)]);
      for (const r of rows) {
        const pk = toInt(r.item_pk);
        oldPrefixes.set(pk, [...(oldPrefixes.get(pk) ?? []), r.prefix]);
      }
    }

    const planned = items.map((input, index): PlannedItem => {
      const mapping = mappings[index];
      if (!mapping || !mapping.ok) throw new Error('unreachable: unmapped item passed governance');
      const existing = byInternalId.get(input.internalId);
      const deleted = input.deleted === true;
      const sets = uniqueSorted(input.sets ?? (deleted && existing ? (oldSets.get(existing.pk) ?? []) : []));
      const records = new Map<string, string | null>();
      if (deleted) {
        const prefixes = uniqueSorted([...Object.keys(input.metadata), ...(existing ? (oldPrefixes.get(existing.pk) ?? []) : [])]);
        for (const p of prefixes.length > 0 ? prefixes : (this.options.tombstonePrefixes ?? ['oai_dc'])) records.set(p, null);
      } else {
        for (const p of uniqueSorted(Object.keys(input.metadata))) records.set(p, input.metadata[p] ?? '');
      }
      const hash = contentHash(deleted, sets, records);
      let outcome: WriteOutcome;
      if (existing && existing.content_hash === hash) outcome = 'unchanged';
      else if (deleted) outcome = existing && toBool(existing.deleted) ? 'updated' : 'deleted';
      else outcome = existing ? 'updated' : 'inserted';
      const datestamp = outcome === 'unchanged' && existing ? toInt(existing.datestamp) : (input.datestamp ?? now);
      return { input, identifier: mapping.identifier, scheme: mapping.scheme, existing, outcome, deleted, datestamp, hash, sets, records };
    });
    return { refusals: [], planned };
  }

  /** Writes a planned batch: multi-row inserts, chunked under the bound-variable limits. */
  private async apply(trx: Knex, planned: readonly PlannedItem[]): Promise<void> {
    const now = this.clock();
    const fresh = planned.filter((p) => !p.existing);
    const changed = planned.filter((p) => p.existing && p.outcome !== 'unchanged');

    await insertRows(
      trx,
      'items',
      ['internal_id', 'identifier', 'datestamp', 'deleted', 'content_hash', 'created'],
      fresh.map((p) => [p.input.internalId, p.identifier, p.datestamp, p.deleted, p.hash, now]),
    );
    // Every identifier published is registered once, with its first time.
    await insertRows(
      trx,
      'identifiers',
      ['identifier', 'internal_id', 'scheme', 'first_published'],
      planned.map((p) => [p.identifier, p.input.internalId, p.scheme, now]),
      'identifier',
    );
    const pkOf = new Map<string, number>();
    for (const p of changed) if (p.existing) pkOf.set(p.input.internalId, p.existing.pk);
    for (const part of chunk(fresh.map((p) => p.input.internalId), MAX_IN_LIST)) {
      const rows = await statementRunner(trx)<{ pk: number; internal_id: string }>(
        `SELECT pk, internal_id FROM items WHERE ${inListSql(trx, 'internal_id', 'text')}`,
        [inListParam(trx, part)],
      );
      for (const r of rows) pkOf.set(r.internal_id, toInt(r.pk));
    }
    for (const p of changed) {
      await trx('items')
        .where('pk', p.existing?.pk)
        .update({ datestamp: p.datestamp, deleted: p.deleted, content_hash: p.hash });
    }
    const changedPks = changed.map((p) => pkOf.get(p.input.internalId) as number);
    for (const part of chunk(changedPks, MAX_IN_LIST)) {
      await trx('item_sets').whereIn('item_pk', part).delete();
      await trx('records').whereIn('item_pk', part).delete();
    }
    const setRows: [string, number, boolean, number][] = [];
    const recordRows: [number, string, string | null][] = [];
    for (const p of [...fresh, ...changed]) {
      const pk = pkOf.get(p.input.internalId) as number;
      const direct = new Set(p.sets);
      const all = new Set(p.sets.flatMap(withAncestors));
      for (const spec of all) setRows.push([spec, pk, direct.has(spec), p.datestamp]);
      for (const [prefix, xml] of p.records) recordRows.push([pk, prefix, xml]);
    }
    await insertRows(trx, 'item_sets', ['spec', 'item_pk', 'direct', 'datestamp'], setRows);
    await insertRows(trx, 'records', ['item_pk', 'prefix', 'xml'], recordRows);
  }

  private async itemsByInternalId(db: Knex, internalIds: readonly string[]): Promise<Map<string, ItemRow>> {
    const out = new Map<string, ItemRow>();
    for (const part of chunk(uniqueSorted(internalIds), MAX_IN_LIST)) {
      const rows = await statementRunner(db)<ItemRow>(`SELECT ${ITEM_COLUMNS.join(', ')} FROM items WHERE ${inListSql(db, 'internal_id', 'text')}`, [
        inListParam(db, part),
      ]);
      for (const r of rows) out.set(r.internal_id, { ...r, pk: toInt(r.pk) });
    }
    return out;
  }
}

interface RegistryRow {
  identifier: string;
  internal_id: string;
}

const ITEM_COLUMNS = ['pk', 'internal_id', 'identifier', 'datestamp', 'deleted', 'content_hash'];

/** The item columns the read side needs, as SQL over `items i`. */
const READ_COLUMNS = 'i.pk, i.internal_id, i.identifier, i.datestamp, i.deleted';

interface ReadRow {
  pk: number | string;
  internal_id: string;
  identifier: string;
  datestamp: number | string;
  deleted: boolean | number;
  /** The direct sets, joined by {@link SET_SEPARATOR}; null for none. */
  sets: string | null;
}

interface SetRow {
  spec: string;
  name: string;
  descriptions: string;
}

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

function toHeader(row: ReadRow): ItemHeader {
  const sets = row.sets === null || row.sets === '' ? [] : row.sets.split(SET_SEPARATOR);
  return {
    pk: toInt(row.pk),
    internalId: row.internal_id,
    identifier: row.identifier,
    datestamp: toInt(row.datestamp),
    deleted: toBool(row.deleted),
    sets,
  };
}

function toRecord(row: ReadRow & { xml: string | null }): ItemRecord {
  const header = toHeader(row);
  return { ...header, metadata: header.deleted ? null : row.xml };
}

// ------------------------------------------------------------ other state

/**
 * The resumption-token secret: read from `settings`, or created (32 random
 * bytes, hex) on first use. Race-safe: every process inserts-or-ignores, then
 * all read the one row that won, so concurrent servers agree.
 *
 * @example const secret = process.env.OAI_TOKEN_SECRET ?? (await getOrCreateSecret(knex));
 */
export async function getOrCreateSecret(knex: Knex, key = 'resumption_token_secret'): Promise<string> {
  const existing = (await knex('settings').select('value').where('key', key).first()) as { value: string } | undefined;
  if (existing) return existing.value;
  await knex('settings').insert({ key, value: crypto.randomBytes(32).toString('hex') }).onConflict('key').ignore();
  const row = (await knex('settings').select('value').where('key', key).first()) as { value: string } | undefined;
  if (!row) throw new Error(`settings row ${key} vanished`);
  return row.value;
}

/**
 * Mints the next serial number of a urn:pdi document series for one GMT date
 * (`YYYY-MM-DD`), starting at 1 (urn:pdi 2.4: daily serials per series).
 * The counter is keyed by the canonical (lowercased) series, so two spellings
 * share it. Atomic: an upsert that increments, read back in the same
 * transaction, so two processes never get the same serial. Throws a
 * `RangeError` for an invalid series or date. Feed the result to
 * lib/ids/pdi.ts `mintPdi`.
 *
 * @example await mintPdiSerial(knex, 'pubs.example.us', '2024-05-01') // 1, then 2, …
 */
export async function mintPdiSerial(knex: Knex, seriesAsWritten: string, date: string): Promise<number> {
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(date)) throw new RangeError(`date ${JSON.stringify(date)} must be YYYY-MM-DD (GMT)`);
  const series = canonicalSeries(seriesAsWritten);
  return knex.transaction(async (trx) => {
    await trx('pdi_serials')
      .insert({ series, date, last_serial: 1 })
      .onConflict(['series', 'date'])
      .merge({ last_serial: trx.raw('?? + 1', ['pdi_serials.last_serial']) });
    const row = (await trx('pdi_serials').select('last_serial').where({ series, date }).first()) as { last_serial: unknown } | undefined;
    if (!row) throw new Error('pdi serial row vanished');
    return toInt(row.last_serial);
  });
}

/**
 * Mints the next version number of a urn:pdi document (any stable key, e.g.
 * the canonical PDI without its version), starting at 1 and never going back:
 * PDIs are never retracted, so a version once handed out is never handed out
 * again.
 *
 * @example await mintPdiVersion(knex, 'urn:pdi://pubs.example.us/2024/05/01/7.html') // 1, then 2, …
 */
export async function mintPdiVersion(knex: Knex, document: string): Promise<number> {
  return knex.transaction(async (trx) => {
    await trx('pdi_versions')
      .insert({ document, last_version: 1 })
      .onConflict('document')
      .merge({ last_version: trx.raw('?? + 1', ['pdi_versions.last_version']) });
    const row = (await trx('pdi_versions').select('last_version').where({ document }).first()) as { last_version: unknown } | undefined;
    if (!row) throw new Error('pdi version row vanished');
    return toInt(row.last_version);
  });
}
