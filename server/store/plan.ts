/**
 * Plan, the fifth stage of the write pipeline (./write.ts): reads what a
 * prepared batch (lib/pipeline/prepare.ts) meets in the database — the
 * items of its internal ids, the identifier registry, the declared sets —
 * asks the judge (lib/pipeline/judge.ts, governance.ts) over it, and decides
 * each item's outcome, without writing anything. ./apply.ts writes the
 * plan; `checkItems` stops after planning.
 */
import type { Knex } from 'knex';
import type { AboutInput, WriteOutcome } from '../../lib/store';
import type { PreparedItem } from '../../lib/pipeline/prepare';
import type { Refusal } from '../../lib/model/refusal';
import { contentHash, uniqueSorted } from '../../lib/pipeline/content-hash';
import { fieldsJson } from '../../lib/model/json-text';

export { contentHash, uniqueSorted };
import { judgeRecords, type FormatChecks } from '../../lib/pipeline/judge';
import { checkBatch, mapAll, type ExistingItem, type IdPolicyLike, type RegistryEntry, type SchemeCheck } from '../../lib/pipeline/governance';
import { chunk, inListParam, inListSql, MAX_IN_LIST, toBool, toInt } from '../db/dialect';
import { statementRunner } from '../db/statements';
import { directSets } from './read';

/** What planning needs besides the batch. */
export interface PlanOptions {
  readonly policy: IdPolicyLike;
  /** The metadata check of each format; without it, metadata is only checked to be one well-formed element. */
  readonly formatChecks?: FormatChecks;
  /** The formats every tombstone is listed under (besides those it had): the formats offered. */
  readonly tombstonePrefixes: readonly string[];
  /** Override the identifier schemes governance checks (tests). */
  readonly schemes?: readonly SchemeCheck[];
  /** The store's clock now, seconds. */
  readonly now: number;
}

/** An item as stored. */
export interface ItemRow {
  pk: number;
  internal_id: string;
  identifier: string;
  datestamp: number | string;
  deleted: boolean | number;
  content_hash: string;
  /** The record's datestamp in the repository it was harvested from (seconds), if it was. */
  source_datestamp: number | string | null;
}

/** What a planned write does to one item. */
export interface PlannedItem {
  readonly input: PreparedItem;
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
  /** The about containers to store, in order (none for a tombstone). */
  readonly about: readonly AboutInput[];
  /** The record fields as stored (JSON), for a live item that has them. */
  readonly fields: string | undefined;
  /** For a harvested version: its datestamp at the source, stored to order later versions (null: not harvested). */
  readonly sourceDatestamp: number | null;
}

/** A version older than the stored one: not written (its outcome is `superseded`). */
export interface SupersededItem {
  readonly input: PreparedItem;
  readonly identifier: string;
}

/** A batch judged: every refusal in input order, or (when there is none) the plan. */
export interface Plan {
  readonly refusals: readonly Refusal[];
  readonly planned: readonly PlannedItem[];
  /** Harvested versions older than the stored ones, in input order. */
  readonly superseded: readonly SupersededItem[];
}

const ITEM_COLUMNS = 'pk, internal_id, identifier, datestamp, deleted, content_hash, source_datestamp';

/**
 * Whether a harvested version is older than the version the store holds
 * (time never goes back): only a version from another repository
 * (`versioned`) with a datestamp, against a stored item that recorded its
 * source datestamp.
 *
 * @example isSuperseded({ versioned: true, datestamp: 100 } as PreparedItem, { source_datestamp: 200 } as ItemRow) // true
 */
export function isSuperseded(input: PreparedItem, existing: Pick<ItemRow, 'source_datestamp'> | undefined): boolean {
  if (input.versioned !== true || input.datestamp === undefined || !existing || existing.source_datestamp === null || existing.source_datestamp === undefined) return false;
  return input.datestamp < toInt(existing.source_datestamp);
}

/**
 * The datestamp of a planned write. Unchanged: the stored one, so nothing is
 * harvested again. New: the record's own, else the clock. Changed: the
 * record's own when it is later than the stored one, else the clock, so a
 * change always moves the datestamp (a harvester whose last harvest covered
 * the old one must see the new version: the repository guidelines, section
 * 3, "should be changed to reflect any change in the item which includes any
 * change to any of the disseminations").
 *
 * @example datestampOf('updated', { datestamp: 100 } as ItemRow, 100, 500) // 500
 */
export function datestampOf(outcome: WriteOutcome, existing: Pick<ItemRow, 'datestamp'> | undefined, given: number | undefined, now: number): number {
  if (!existing) return given ?? now;
  const stored = toInt(existing.datestamp);
  if (outcome === 'unchanged') return stored;
  return given !== undefined && given > stored ? given : now;
}

/**
 * Rows of `table` whose text `column` is one of `values`, a chunk at a time.
 *
 * @example await rowsWhereIn<{ spec: string }>(trx, 'spec', 'sets', 'spec', ['a', 'b'])
 */
async function rowsWhereIn<T>(db: Knex, columns: string, table: string, column: string, values: readonly (string | number)[], type: 'int' | 'text' = 'text'): Promise<T[]> {
  const run = statementRunner(db);
  const out: T[] = [];
  for (const part of chunk(values, MAX_IN_LIST)) {
    out.push(...(await run<T>(`SELECT ${columns} FROM ${table} WHERE ${inListSql(db, column, type)}`, [inListParam(db, part)])));
  }
  return out;
}

/**
 * The stored items of these internal ids.
 *
 * @example (await itemsByInternalId(trx, ['report 12'])).get('report 12')?.identifier
 */
export async function itemsByInternalId(db: Knex, internalIds: readonly string[]): Promise<Map<string, ItemRow>> {
  const rows = await rowsWhereIn<ItemRow>(db, ITEM_COLUMNS, 'items', 'internal_id', uniqueSorted(internalIds));
  return new Map(rows.map((r) => [r.internal_id, { ...r, pk: toInt(r.pk) }]));
}

/**
 * What the database holds about a batch, as governance (`checkBatch`) needs
 * it: items and registry rows by internal id and by identifier.
 */
async function governanceState(db: Knex, items: readonly PreparedItem[], identifiers: readonly string[], byInternalId: ReadonlyMap<string, ItemRow>) {
  const toExisting = (r: ItemRow): ExistingItem => ({ internalId: r.internal_id, identifier: r.identifier });
  const byIdentifier = await rowsWhereIn<ItemRow>(db, ITEM_COLUMNS, 'items', 'identifier', identifiers);
  const registryByIdentifier = new Map<string, RegistryEntry>();
  const registryByInternalId = new Map<string, RegistryEntry[]>();
  const internalIds = uniqueSorted(items.map((i) => i.internalId));
  for (const [column, values] of [['identifier', identifiers], ['internal_id', internalIds]] as const) {
    for (const r of await rowsWhereIn<{ identifier: string; internal_id: string }>(db, 'identifier, internal_id', 'identifiers', column, values)) {
      if (registryByIdentifier.has(r.identifier)) continue;
      const entry = { identifier: r.identifier, internalId: r.internal_id };
      registryByIdentifier.set(entry.identifier, entry);
      registryByInternalId.set(entry.internalId, [...(registryByInternalId.get(entry.internalId) ?? []), entry]);
    }
  }
  return {
    existingByInternalId: new Map([...byInternalId].map(([k, v]) => [k, toExisting(v)])),
    existingByIdentifier: new Map(byIdentifier.map((r) => [r.identifier, toExisting(r)])),
    registryByIdentifier,
    registryByInternalId,
  };
}

/**
 * Judges a batch (record rules, the metadata check of each format,
 * identifier governance) and, when nothing is refused, plans each item's
 * write. A harvested version older than the stored one is set aside as
 * superseded before it is judged: it is not written, so it is not judged.
 * Refusals come in input order.
 *
 * @example const { refusals, planned } = await planWrite(trx, prepared, { policy, tombstonePrefixes: ['oai_dc'], now });
 */
export async function planWrite(db: Knex, all: readonly PreparedItem[], options: PlanOptions): Promise<Plan> {
  const stored = await itemsByInternalId(db, all.map((i) => i.internalId));
  const superseded: SupersededItem[] = [];
  const items: PreparedItem[] = [];
  for (const item of all) {
    const existing = stored.get(item.internalId);
    if (existing && isSuperseded(item, existing)) superseded.push({ input: item, identifier: existing.identifier });
    else items.push(item);
  }
  // Stages 1 and 2: the record on its own, then its metadata per format.
  const judged = judgeRecords(items, options.now, options.formatChecks);
  const byIndex: Refusal[][] = judged.refusals.map((r) => [...r]);
  // Stage 3: identifier governance over what passed.
  const passed = judged.passed.map((p) => p.item);
  const mappings = mapAll(options.policy, passed);
  const identifiers = uniqueSorted(mappings.flatMap((m) => (m.ok ? [m.identifier] : [])));
  const byInternalId = new Map(passed.flatMap((i) => {
    const row = stored.get(i.internalId);
    return row ? [[i.internalId, row] as const] : [];
  }));
  const governed = checkBatch({
    items: passed,
    mappings,
    namespace: options.policy.namespace,
    ...(await governanceState(db, passed, identifiers, byInternalId)),
    ...(options.schemes ? { schemes: options.schemes } : {}),
  });
  judged.passed.forEach((p, k) => byIndex[p.index]?.push(...(governed[k] ?? [])));
  const refusals = byIndex.flat();
  if (refusals.length > 0) return { refusals, planned: [], superseded };

  // Tombstones written through writeItems keep their old sets and formats
  // unless the input names them.
  const existingPks = [...byInternalId.values()].map((r) => r.pk);
  const oldSets = await directSets(db, existingPks);
  const oldPrefixes = new Map<number, string[]>();
  for (const r of await rowsWhereIn<{ item_pk: number; prefix: string }>(db, 'item_pk, prefix', 'records', 'item_pk', existingPks, 'int')) {
    const pk = toInt(r.item_pk);
    oldPrefixes.set(pk, [...(oldPrefixes.get(pk) ?? []), r.prefix]);
  }

  const planned = passed.map((input, index): PlannedItem => {
    const mapping = mappings[index];
    if (!mapping || !mapping.ok) throw new Error('unreachable: unmapped item passed governance');
    const existing = byInternalId.get(input.internalId);
    const deleted = input.deleted === true;
    const sets = uniqueSorted(input.sets ?? (deleted && existing ? (oldSets.get(existing.pk) ?? []) : []));
    const records = new Map<string, string | null>();
    if (deleted) {
      // Listed in every format it had and every format offered (OAI-PMH 2.0 section 2.5.1).
      const prefixes = uniqueSorted([...Object.keys(input.metadata), ...(existing ? (oldPrefixes.get(existing.pk) ?? []) : []), ...options.tombstonePrefixes]);
      for (const p of prefixes) records.set(p, null);
    } else {
      for (const p of uniqueSorted(Object.keys(input.metadata))) records.set(p, input.metadata[p] ?? '');
    }
    const about = deleted ? [] : (input.about ?? []);
    const fields = !deleted && input.fields !== undefined ? fieldsJson(input.fields) : undefined;
    const hash = contentHash(deleted, sets, records, about, fields);
    let outcome: WriteOutcome;
    if (existing && existing.content_hash === hash) outcome = 'unchanged';
    else if (deleted) outcome = existing && toBool(existing.deleted) ? 'updated' : 'deleted';
    else outcome = existing ? 'updated' : 'inserted';
    const datestamp = datestampOf(outcome, existing, input.datestamp, options.now);
    const sourceDatestamp = input.versioned === true && input.datestamp !== undefined ? input.datestamp : existing?.source_datestamp != null ? toInt(existing.source_datestamp) : null;
    return { input, identifier: mapping.identifier, scheme: mapping.scheme, existing, outcome, deleted, datestamp, hash, sets, records, about, fields, sourceDatestamp };
  });
  return { refusals: [], planned, superseded };
}
