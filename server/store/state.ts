/**
 * The stored state a batch meets, read in one go inside the batch's
 * transaction and turned into the decision's domain types
 * (lib/pipeline/decide.ts `StoredState`) here, at the store's edge: the
 * items of the batch's internal ids (with their direct sets, their formats,
 * and what they were given), the holders of the identifiers the batch maps
 * to, and the identifier registry around both. The decision itself is pure;
 * ./write.ts reads this, decides, and applies.
 */
import type { Knex } from 'knex';
import type { ItemInput } from '../../lib/store';
import { mapAll, type ExistingItem, type IdPolicyLike, type RegistryEntry } from '../../lib/pipeline/governance';
import { storedRecordHash, uniqueSorted } from '../../lib/pipeline/content-hash';
import type { StoredItem, StoredState } from '../../lib/pipeline/decide';
import type { DeleteState, StoredHead } from '../../lib/pipeline/tombstones';
import { moves, type MembershipRow, type MembershipState, type StoredContent } from '../../lib/pipeline/memberships';
import type { AboutInput, MembershipChange } from '../../lib/store';
import type { OnDemand } from './on-demand';
import { chunk, inListParam, inListSql, MAX_IN_LIST, toBool, toInt } from '../db/dialect';
import { statementRunner } from '../db/statements';
import { directSets } from './read';
import { hasWithheldColumn, storedAbout, storedMetadata } from './scan';

/** An item as stored (a row of `items`). */
export interface ItemRow {
  pk: number;
  internal_id: string;
  identifier: string;
  datestamp: number | string;
  deleted: boolean | number;
  content_hash: string;
  /** The record's datestamp in the repository it was harvested from (seconds), if it was. */
  source_datestamp: number | string | null;
  /** The harvested source the item came from; null for a local item. */
  origin: string | null;
}

const ITEM_COLUMNS = 'pk, internal_id, identifier, datestamp, deleted, content_hash, source_datestamp, origin';

/**
 * Rows of `table` whose `column` is one of `values`, a chunk at a time.
 *
 * @example await rowsWhereIn<{ spec: string }>(trx, 'spec', 'sets', 'spec', ['a', 'b'])
 */
async function rowsWhereIn<T>(
  db: Knex,
  columns: string,
  table: string,
  column: string,
  values: readonly (string | number)[],
  type: 'int' | 'text' = 'text',
): Promise<T[]> {
  const run = statementRunner(db);
  const out: T[] = [];
  for (const part of chunk(values, MAX_IN_LIST)) {
    if (part.length === 0) continue;
    out.push(...(await run<T>(`SELECT ${columns} FROM ${table} WHERE ${inListSql(db, column, type)}`, [inListParam(db, part)])));
  }
  return out;
}

/**
 * The stored items of these internal ids, as rows.
 *
 * @example (await itemsByInternalId(trx, ['report 12'])).get('report 12')?.identifier
 */
export async function itemsByInternalId(db: Knex, internalIds: readonly string[]): Promise<Map<string, ItemRow>> {
  const rows = await rowsWhereIn<ItemRow>(db, ITEM_COLUMNS, 'items', 'internal_id', uniqueSorted(internalIds));
  return new Map(rows.map((r) => [r.internal_id, { ...r, pk: toInt(r.pk) }]));
}

/**
 * What a deletion meets (lib/pipeline/tombstones.ts `DeleteState`): the
 * stored items of these ids with their direct sets and the formats they
 * have a record in.
 *
 * @example decideDeletes(ids, await readDeleteState(trx, ids), options)
 */
export async function readDeleteState(db: Knex, internalIds: readonly string[]): Promise<DeleteState> {
  const rows = await itemsByInternalId(db, internalIds);
  const pks = [...rows.values()].map((r) => r.pk);
  const sets = await directSets(db, pks);
  const prefixes = new Map<number, string[]>();
  for (const r of await rowsWhereIn<{ item_pk: unknown; prefix: string }>(db, 'item_pk, prefix', 'records', 'item_pk', pks, 'int')) {
    const pk = toInt(r.item_pk);
    prefixes.set(pk, [...(prefixes.get(pk) ?? []), r.prefix]);
  }
  const items = new Map<string, StoredHead>();
  for (const r of rows.values()) items.set(r.internal_id, { ...headOf(r), sets: sets.get(r.pk) ?? [], prefixes: prefixes.get(r.pk) ?? [] });
  return { items };
}

/**
 * What a membership change meets (lib/pipeline/memberships.ts
 * `MembershipState`): the stored items of its ids with their direct sets,
 * the declared sets among those it names, and, of the items it moves only
 * (a call that moves few of many items reads few), what their content hash
 * covers (formats kept as models written again, ./on-demand.ts) and their
 * item_sets rows.
 *
 * @example decideMemberships(changes, await readMembershipState(trx, changes), { stamp })
 */
export async function readMembershipState(db: Knex, changes: readonly MembershipChange[], onDemand?: OnDemand): Promise<MembershipState> {
  const rows = await itemsByInternalId(
    db,
    changes.map((c) => c.internalId),
  );
  const sets = await directSets(
    db,
    [...rows.values()].map((r) => r.pk),
  );
  const items = new Map([...rows.values()].map((r) => [r.internal_id, { ...headOf(r), sets: sets.get(r.pk) ?? [] }]));
  const specs = [...new Set(changes.flatMap((c) => c.sets))];
  const declared = new Set((await rowsWhereIn<{ spec: string }>(db, 'spec', 'sets', 'spec', specs)).map((r) => r.spec));
  const moved = new Map<number, string>();
  for (const c of changes) {
    const item = items.get(c.internalId);
    if (item && moves(c, item)) moved.set(item.pk, item.internalId);
  }
  const content = await storedContent(db, [...moved.keys()], onDemand);
  const membership = await membershipRows(db, [...moved.keys()]);
  return {
    items,
    declared,
    content: new Map([...content].map(([pk, c]) => [moved.get(pk) as string, c])),
    rows: new Map([...membership].map(([pk, r]) => [moved.get(pk) as string, r.map(({ spec, departed }) => ({ spec, departed }))])),
  };
}

/**
 * The item_sets rows of these items, departed ones included, and whether
 * each is a set the item was put in directly.
 *
 * @example (await membershipRows(trx, [7])).get(7) // [{ spec: 'a', departed: null, direct: true }]
 */
export async function membershipRows(db: Knex, pks: readonly number[]): Promise<Map<number, (MembershipRow & { readonly direct: boolean })[]>> {
  const out = new Map<number, (MembershipRow & { readonly direct: boolean })[]>();
  for (const r of await rowsWhereIn<{ item_pk: unknown; spec: string; departed: unknown; direct: unknown }>(
    db,
    'item_pk, spec, departed, direct',
    'item_sets',
    'item_pk',
    pks,
    'int',
  )) {
    const pk = toInt(r.item_pk);
    const row = { spec: r.spec, departed: r.departed === null || r.departed === undefined ? null : toInt(r.departed), direct: toBool(r.direct) };
    const list = out.get(pk);
    if (list) list.push(row);
    else out.set(pk, [row]);
  }
  return out;
}

/** The stored content of items, to take their content hash again (formats kept as models written again, ./on-demand.ts). */
async function storedContent(db: Knex, pks: readonly number[], onDemand: OnDemand | undefined): Promise<Map<number, StoredContent>> {
  const out = new Map<number, { records: Map<string, string | null>; about: AboutInput[]; fields?: string }>();
  const entry = (pk: number): { records: Map<string, string | null>; about: AboutInput[]; fields?: string } => {
    let e = out.get(pk);
    if (!e) out.set(pk, (e = { records: new Map(), about: [] }));
    return e;
  };
  for (const part of chunk(pks, MAX_IN_LIST)) {
    if (part.length === 0) continue;
    for (const [pk, metadata] of await storedMetadata(db, part, onDemand)) {
      for (const [prefix, xml] of Object.entries(metadata)) entry(pk).records.set(prefix, xml);
    }
  }
  for (const r of await rowsWhereIn<{ item_pk: unknown; fields: string }>(db, 'item_pk, fields', 'record_fields', 'item_pk', pks, 'int')) {
    entry(toInt(r.item_pk)).fields = r.fields;
  }
  for (const [pk, about] of await storedAbout(db, pks)) entry(pk).about = about;
  return out;
}

/** A row of `items` as the decision's types have it. */
function headOf(r: ItemRow): Omit<StoredHead, 'sets' | 'prefixes'> {
  return {
    pk: r.pk,
    internalId: r.internal_id,
    identifier: r.identifier,
    datestamp: toInt(r.datestamp),
    deleted: toBool(r.deleted),
    contentHash: r.content_hash,
    origin: r.origin ?? null,
  };
}

/**
 * What the store holds that a batch meets. `given` of each stored item holds
 * the XML it was given in the formats the batch's record for it does not
 * give: what the decision keeps (formats the record gives again are not read).
 *
 * @example const state = await readWriteState(trx, items, policy); decideBatch(items, state, options)
 */
export async function readWriteState(db: Knex, items: readonly ItemInput[], policy: IdPolicyLike): Promise<StoredState> {
  const rows = await itemsByInternalId(
    db,
    items.map((i) => i.internalId),
  );
  const identifiers = uniqueSorted(mapAll(policy, items).flatMap((m) => (m.ok ? [m.identifier] : [])));
  const byIdentifier = new Map<string, ExistingItem>();
  for (const r of await rowsWhereIn<ItemRow>(db, 'internal_id, identifier', 'items', 'identifier', identifiers)) {
    byIdentifier.set(r.identifier, { internalId: r.internal_id, identifier: r.identifier });
  }
  const registryByIdentifier = new Map<string, RegistryEntry>();
  const registryByInternalId = new Map<string, RegistryEntry[]>();
  for (const [column, values] of [
    ['identifier', identifiers],
    ['internal_id', uniqueSorted(items.map((i) => i.internalId))],
  ] as const) {
    for (const r of await rowsWhereIn<{ identifier: string; internal_id: string }>(db, 'identifier, internal_id', 'identifiers', column, values)) {
      if (registryByIdentifier.has(r.identifier)) continue;
      const entry = { identifier: r.identifier, internalId: r.internal_id };
      registryByIdentifier.set(entry.identifier, entry);
      registryByInternalId.set(entry.internalId, [...(registryByInternalId.get(entry.internalId) ?? []), entry]);
    }
  }
  const harvested = new Set((await statementRunner(db)<{ source: string }>('SELECT DISTINCT source FROM harvest_state', [])).map((r) => r.source));
  return { items: await storedItems(db, rows, items), byIdentifier, registryByIdentifier, registryByInternalId, harvested };
}

/**
 * The digests of records stored without one, from what they store (their
 * XML, the item's sets, deleted status and about containers), so that a
 * record is stamped again only when it changed: migration 017 filled them
 * in, but a row an older oai-steward wrote after it has none. A live record
 * kept as a model only (./on-demand.ts) stores no XML to digest: it stays
 * unknown, and is stamped when its item next changes.
 */
async function hashWrittenBefore(
  db: Knex,
  pks: readonly number[],
  records: Map<number, Map<string, { datestamp: number; hash: string | null }>>,
  sets: ReadonlyMap<number, readonly string[]>,
  deleted: ReadonlyMap<number, boolean>,
): Promise<void> {
  if (pks.length === 0) return;
  const about = await storedAbout(db, pks);
  for (const r of await rowsWhereIn<{ item_pk: unknown; prefix: string; xml: string | null; hash: string | null }>(
    db,
    'item_pk, prefix, xml, hash',
    'records',
    'item_pk',
    pks,
    'int',
  )) {
    if (r.hash !== null) continue;
    const pk = toInt(r.item_pk);
    const entry = records.get(pk)?.get(r.prefix);
    if (entry)
      entry.hash = storedRecordHash({ deleted: deleted.get(pk) === true, sets: sets.get(pk) ?? [], prefix: r.prefix, xml: r.xml, about: about.get(pk) ?? [] });
  }
}

/** The direct sets each item is in now, sorted, of all its item_sets rows. */
function liveDirectSets(memberships: ReadonlyMap<number, readonly (MembershipRow & { readonly direct: boolean })[]>): Map<number, string[]> {
  const sets = new Map<number, string[]>();
  for (const [pk, list] of memberships) {
    sets.set(
      pk,
      list
        .filter((m) => m.direct && m.departed === null)
        .map((m) => m.spec)
        .sort(),
    );
  }
  return sets;
}

/** The stored items with their sets, formats, and what they were given that the batch does not give again. */
async function storedItems(db: Knex, rows: ReadonlyMap<string, ItemRow>, items: readonly ItemInput[]): Promise<Map<string, StoredItem>> {
  const out = new Map<string, StoredItem>();
  if (rows.size === 0) return out;
  const pks = [...rows.values()].map((r) => r.pk);
  // One read of their item_sets rows: the direct sets they are in now, and every row, for the departures.
  const memberships = await membershipRows(db, pks);
  const sets = liveDirectSets(memberships);
  const records = new Map<number, Map<string, { datestamp: number; hash: string | null }>>();
  const unhashed = new Set<number>();
  for (const r of await rowsWhereIn<{ item_pk: unknown; prefix: string; datestamp: unknown; hash: string | null }>(
    db,
    'item_pk, prefix, datestamp, hash',
    'records',
    'item_pk',
    pks,
    'int',
  )) {
    const pk = toInt(r.item_pk);
    if (!records.has(pk)) records.set(pk, new Map());
    records.get(pk)?.set(r.prefix, { datestamp: toInt(r.datestamp), hash: r.hash });
    if (r.hash === null) unhashed.add(pk);
  }
  const deleted = new Map([...rows.values()].map((r) => [r.pk, toBool(r.deleted)]));
  await hashWrittenBefore(db, [...unhashed], records, sets, deleted);
  const prefixes = new Map([...records].map(([pk, m]) => [pk, [...m.keys()]]));
  // What the pipeline wrote from the model (never given), and the model when the record gave it.
  const model = new Map<number, { written: readonly string[]; given?: string; withheld?: string }>();
  const modelColumns = `item_pk, derived, CASE WHEN lifted_from IS NULL THEN fields ELSE NULL END AS given_fields, ${(await hasWithheldColumn(db)) ? 'withheld' : 'NULL AS withheld'}`;
  for (const r of await rowsWhereIn<{ item_pk: unknown; derived: string; given_fields: string | null; withheld: string | null }>(
    db,
    modelColumns,
    'record_fields',
    'item_pk',
    pks,
    'int',
  )) {
    model.set(toInt(r.item_pk), {
      written: JSON.parse(r.derived) as string[],
      ...(r.given_fields !== null && { given: r.given_fields }),
      ...(r.withheld !== null && { withheld: r.withheld }),
    });
  }
  // The given formats each batch record does not give again: the only XML read.
  const inputs = new Map(items.map((i) => [i.internalId, i]));
  const wanted = new Map<number, string[]>();
  for (const r of rows.values()) {
    const input = inputs.get(r.internal_id);
    if (toBool(r.deleted) || input === undefined || input.deleted === true) continue;
    const written = model.get(r.pk)?.written ?? [];
    const keep = (prefixes.get(r.pk) ?? []).filter((p) => !written.includes(p) && input.metadata[p] === undefined);
    if (keep.length > 0) wanted.set(r.pk, keep);
  }
  const given = new Map<number, Record<string, string>>();
  if (wanted.size > 0) {
    const prefixList = uniqueSorted([...wanted.values()].flat());
    const run = statementRunner(db);
    for (const part of chunk([...wanted.keys()], MAX_IN_LIST)) {
      const sql = `SELECT item_pk, prefix, xml FROM records WHERE ${inListSql(db, 'item_pk', 'int')} AND ${inListSql(db, 'prefix', 'text')}`;
      for (const r of await run<{ item_pk: unknown; prefix: string; xml: string | null }>(sql, [inListParam(db, part), inListParam(db, prefixList)])) {
        const pk = toInt(r.item_pk);
        if (r.xml === null || !wanted.get(pk)?.includes(r.prefix)) continue;
        given.set(pk, { ...(given.get(pk) ?? {}), [r.prefix]: r.xml });
      }
    }
  }
  // XML a record gave that its schema refused is given again, to be judged again (lib/pipeline/withhold.ts).
  for (const r of rows.values()) {
    const input = inputs.get(r.internal_id);
    const withheld = model.get(r.pk)?.withheld;
    if (toBool(r.deleted) || input === undefined || input.deleted === true || withheld === undefined) continue;
    for (const w of JSON.parse(withheld) as { prefix: string; xml: string }[]) {
      if (input.metadata[w.prefix] === undefined) given.set(r.pk, { ...(given.get(r.pk) ?? {}), [w.prefix]: w.xml });
    }
  }
  for (const r of rows.values()) {
    const givenModel = model.get(r.pk)?.given;
    out.set(r.internal_id, {
      ...headOf(r),
      sourceDatestamp: r.source_datestamp === null || r.source_datestamp === undefined ? null : toInt(r.source_datestamp),
      sets: sets.get(r.pk) ?? [],
      records: records.get(r.pk) ?? new Map(),
      memberships: (memberships.get(r.pk) ?? []).map(({ spec, departed }) => ({ spec, departed })),
      given: given.get(r.pk) ?? {},
      ...(givenModel !== undefined && { givenModel }),
    });
  }
  return out;
}
