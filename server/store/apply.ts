/**
 * Write applying: puts a planned batch (lib/pipeline/decide.ts) into the tables, turns
 * items into tombstones, and moves items between sets (declaring sets is
 * ./sets.ts's). Every function here runs inside the caller's transaction and
 * writes nothing the gate has not passed.
 */
import type { Knex } from 'knex';
import { RefusedError, type AboutInput, type MembershipChange, type SetDeparture, type WriteResult } from '../../lib/store';
import { type Refusal } from '../../lib/model/refusal';
import { isValidSetSpec, withAncestors } from '../../lib/model/header';
import { chunk, directSetsValue, inListParam, inListSql, MAX_IN_LIST, toBool, toInt } from '../db/dialect';
import { insertRows, statementRunner } from '../db/statements';
import { contentHash, recordHash, uniqueSorted } from '../../lib/pipeline/content-hash';
import { datestampOf, type PlannedItem } from '../../lib/pipeline/decide';
import type { PlannedTombstone } from '../../lib/pipeline/tombstones';
import { itemsByInternalId, type ItemRow } from './state';
import { directSets } from './read';
import { claimFingerprint, type OnDemand } from './on-demand';
import { storedAbout, storedMetadata } from './scan';

/** The written formats a store keeping formats as models stores all the same, unless configured otherwise: oai_dc. */
const KEPT_BY_DEFAULT: ReadonlySet<string> = new Set(['oai_dc']);

/**
 * Writes a planned batch: multi-row inserts, chunked under the bound-variable
 * limits. With `onDemand`, the formats the pipeline wrote from a model are
 * not stored, those `kept` names apart (by default oai_dc, which every
 * harvester asks for, OAI-PMH 2.0 section 3.4): their rows say the item is
 * offered in them and carry no XML, and reading writes them again
 * (./on-demand.ts) under the fingerprint claimed here.
 *
 * @example await applyWrite(trx, decideBatch(items, await readWriteState(trx, items, policy), options).planned, now);
 */
export async function applyWrite(
  trx: Knex,
  planned: readonly PlannedItem[],
  now: number,
  onDemand?: OnDemand,
  kept: ReadonlySet<string> = KEPT_BY_DEFAULT,
): Promise<void> {
  const fresh = planned.filter((p) => !p.existing);
  const changed = planned.filter((p) => p.existing && p.outcome !== 'unchanged');

  await insertRows(
    trx,
    'items',
    ['internal_id', 'identifier', 'datestamp', 'deleted', 'content_hash', 'created', 'direct_sets', 'source_datestamp', 'origin'],
    fresh.map((p) => [
      p.input.internalId,
      p.identifier,
      p.datestamp,
      p.deleted,
      p.hash,
      now,
      directSetsValue(p.sets),
      p.sourceDatestamp,
      p.input.harvestedFrom ?? null,
    ]),
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
  for (const part of chunk(
    fresh.map((p) => p.input.internalId),
    MAX_IN_LIST,
  )) {
    const rows = await statementRunner(trx)<{ pk: number; internal_id: string }>(
      `SELECT pk, internal_id FROM items WHERE ${inListSql(trx, 'internal_id', 'text')}`,
      [inListParam(trx, part)],
    );
    for (const r of rows) pkOf.set(r.internal_id, toInt(r.pk));
  }
  for (const p of changed) {
    await trx('items')
      .where('pk', p.existing?.pk)
      .update({ datestamp: p.datestamp, deleted: p.deleted, content_hash: p.hash, direct_sets: directSetsValue(p.sets), source_datestamp: p.sourceDatestamp });
  }
  // A harvested version with the content already stored moves nothing but the source datestamp it is known by.
  for (const p of planned) {
    if (p.existing && p.outcome === 'unchanged' && p.sourceDatestamp !== null && p.existing.sourceDatestamp !== p.sourceDatestamp) {
      await trx('items').where('pk', p.existing.pk).update({ source_datestamp: p.sourceDatestamp });
    }
  }
  const changedPks = changed.map((p) => pkOf.get(p.input.internalId) as number);
  const oldRows = await membershipRows(trx, changedPks);
  for (const part of chunk(changedPks, MAX_IN_LIST)) {
    await trx('item_sets').whereIn('item_pk', part).delete();
    await trx('records').whereIn('item_pk', part).delete();
    await trx('item_about').whereIn('item_pk', part).delete();
    await trx('record_fields').whereIn('item_pk', part).delete();
  }
  const leave = onDemand !== undefined && [...fresh, ...changed].some((p) => p.fields !== undefined && p.input.written.some((prefix) => !kept.has(prefix)));
  if (leave) await claimFingerprint(trx, onDemand);
  const setRows: SetRow[] = [];
  const recordRows: [number, string, string | null, number, string][] = [];
  const aboutRows: [number, number, string, string | null][] = [];
  const fieldRows: [number, string, string, string | null][] = [];
  for (const p of [...fresh, ...changed]) {
    const pk = pkOf.get(p.input.internalId) as number;
    if (p.fields !== undefined) fieldRows.push([pk, p.fields, JSON.stringify(p.input.written), p.input.liftedFrom ?? null]);
    setRows.push(...membership(pk, p.sets, withGivenDepartures(oldRows.get(pk) ?? [], p.input.departures), p.datestamp));
    const written = leave && p.fields !== undefined ? p.input.written : [];
    // A kept format is read, never written, when served.
    for (const [prefix, xml] of p.records) {
      const stored = !kept.has(prefix) && written.includes(prefix) ? null : xml;
      recordRows.push([pk, prefix, stored, p.recordDatestamps.get(prefix) ?? p.datestamp, p.recordHashes.get(prefix) as string]);
    }
    p.about.forEach((a, position) => aboutRows.push([pk, position, a.xml, a.compareAs ?? null]));
  }
  await insertRows(trx, 'item_sets', ['spec', 'item_pk', 'direct', 'datestamp', 'departed'], setRows);
  await insertRows(trx, 'records', ['item_pk', 'prefix', 'xml', 'datestamp', 'hash'], recordRows);
  await insertRows(trx, 'item_about', ['item_pk', 'position', 'xml', 'compare_as'], aboutRows);
  await insertRows(trx, 'record_fields', ['item_pk', 'fields', 'derived', 'lifted_from'], fieldRows);
}

/**
 * The rows an item had, with the departures its input gives (lib/store.ts
 * `ItemInput.departures`) from sets it has no row of: a copy of a repository
 * keeps the departures the repository recorded.
 */
function withGivenDepartures(old: readonly MembershipRow[], given: readonly SetDeparture[] | undefined): readonly MembershipRow[] {
  if (!given || given.length === 0) return old;
  const known = new Set(old.map((o) => o.spec));
  return [...old, ...given.filter((d) => !known.has(d.spec)).map((d) => ({ spec: d.spec, departed: d.at }))];
}

/** A row of item_sets: spec, item_pk, direct, datestamp, departed. */
type SetRow = [string, number, boolean, number, number | null];

/** What item_sets holds about one item in one set: whether it was put there directly, and when it left (null: it is in). */
interface MembershipRow {
  readonly spec: string;
  readonly departed: number | null;
}

/** The item_sets rows of these items, departed ones included. */
async function membershipRows(db: Knex, pks: readonly number[]): Promise<Map<number, MembershipRow[]>> {
  const out = new Map<number, MembershipRow[]>();
  for (const part of chunk(pks, MAX_IN_LIST)) {
    if (part.length === 0) continue;
    const rows = await statementRunner(db)<{ item_pk: unknown; spec: string; departed: unknown }>(
      `SELECT item_pk, spec, departed FROM item_sets WHERE ${inListSql(db, 'item_pk')}`,
      [inListParam(db, part)],
    );
    for (const r of rows) {
      const pk = toInt(r.item_pk);
      out.set(pk, [...(out.get(pk) ?? []), { spec: r.spec, departed: r.departed === null || r.departed === undefined ? null : toInt(r.departed) }]);
    }
  }
  return out;
}

/**
 * The item_sets rows of an item after a change at `datestamp`: a live row
 * for every set it is in (its direct sets and their ancestors, OAI-PMH 2.0
 * section 2.7.2); for every set it was ever in and is not in now, a departed
 * row, keeping the time of the first departure since it last left (a
 * rejoined set is live again). Every row carries the item's datestamp, the
 * keyset of a set harvest.
 *
 * @example membership(7, ['a:c'], [{ spec: 'a', departed: null }, { spec: 'a:b', departed: null }], 500)
 * // [['a', 7, false, 500, null], ['a:c', 7, true, 500, null], ['a:b', 7, false, 500, 500]]
 */
export function membership(pk: number, direct: readonly string[], old: readonly MembershipRow[], datestamp: number): SetRow[] {
  const directSet = new Set(direct);
  const now = new Set(direct.flatMap(withAncestors));
  const rows: SetRow[] = [...now].map((spec) => [spec, pk, directSet.has(spec), datestamp, null]);
  for (const o of old) if (!now.has(o.spec)) rows.push([o.spec, pk, false, datestamp, o.departed ?? datestamp]);
  return rows;
}

/**
 * Applies a decided deletion (lib/pipeline/tombstones.ts `decideDeletes`):
 * each item planned `deleted` becomes a tombstone with its planned
 * datestamp and hash, every record of it loses its XML, and it gets a
 * header-only record in each format the plan adds.
 *
 * @example await applyTombstones(trx, decideDeletes(ids, await readDeleteState(trx, ids), options).planned)
 */
export async function applyTombstones(trx: Knex, planned: readonly PlannedTombstone[]): Promise<void> {
  const deleted = planned.filter((p) => p.outcome === 'deleted');
  for (const p of deleted) {
    await trx('items').where('pk', p.item.pk).update({ deleted: true, datestamp: p.datestamp, content_hash: p.hash });
  }
  const byDatestamp = new Map<number, number[]>();
  for (const p of deleted) byDatestamp.set(p.datestamp, [...(byDatestamp.get(p.datestamp) ?? []), p.item.pk]);
  for (const [at, pks] of byDatestamp) {
    for (const part of chunk(pks, MAX_IN_LIST)) {
      // Every record of a deleted item is deleted now (OAI-PMH 2.0 section 2.5.1); its digest is taken when next needed.
      await trx('records').whereIn('item_pk', part).update({ xml: null, datestamp: at, hash: null });
      // Every row, departed ones too, keeps the item's datestamp (the set harvest's keyset).
      await trx('item_sets').whereIn('item_pk', part).update({ datestamp: at });
      // A deleted record has a header only (OAI-PMH 2.0 section 2.5.1): no about either.
      await trx('item_about').whereIn('item_pk', part).delete();
      await trx('record_fields').whereIn('item_pk', part).delete();
    }
  }
  const missing = deleted.flatMap((p) => p.addPrefixes.map((prefix): [number, string, null, number] => [p.item.pk, prefix, null, p.datestamp]));
  await insertRows(trx, 'records', ['item_pk', 'prefix', 'xml', 'datestamp'], missing);
}

/**
 * Gives existing items new direct sets and nothing else (lib/store.ts
 * `setMemberships`): the whole call is refused when an id is unknown or
 * repeated, or a set is invalid or undeclared. An item whose sets change is
 * stamped `stamp` (the write's, ../db/publication.ts), its content hash recomputed from what it stores, and the
 * sets it leaves get a departure.
 *
 * @example await applyMemberships(trx, [{ internalId: 'report 12', sets: ['physics'] }], now)
 */
export async function applyMemberships(trx: Knex, changes: readonly MembershipChange[], stamp: number, onDemand?: OnDemand): Promise<WriteResult[]> {
  const existing = await itemsByInternalId(
    trx,
    changes.map((c) => c.internalId),
  );
  const declared = new Set(
    (
      await trx('sets')
        .select('spec')
        .whereIn('spec', [...new Set(changes.flatMap((c) => c.sets))])
    ).map((r: { spec: string }) => r.spec),
  );
  const refusals: Refusal[] = [];
  const seen = new Set<string>();
  for (const c of changes) {
    const refuse = (field: string, reason: string): void => {
      refusals.push({ internalId: c.internalId, field, reason });
    };
    if (!existing.has(c.internalId)) refuse('id', 'no item has this internal id');
    else if (seen.has(c.internalId)) refuse('id', 'the same internal id appears twice in one batch');
    seen.add(c.internalId);
    for (const spec of c.sets) {
      if (!isValidSetSpec(spec)) refuse('sets', `${JSON.stringify(spec)} is not a valid setSpec`);
      else if (!declared.has(spec)) refuse('sets', `the set ${JSON.stringify(spec)} is not declared`);
    }
  }
  if (refusals.length > 0) throw new RefusedError(refusals);
  const rows = changes.map((c) => ({ change: c, row: existing.get(c.internalId) as ItemRow }));
  const pks = rows.map((r) => r.row.pk);
  const oldDirect = await directSets(trx, pks);
  const moved = rows.filter(({ change, row }) => !sameList(uniqueSorted(change.sets), oldDirect.get(row.pk) ?? []));
  const movedPks = moved.map((m) => m.row.pk);
  const stored = await storedContent(trx, movedPks, onDemand);
  const oldRows = await membershipRows(trx, movedPks);
  const setRows: SetRow[] = [];
  for (const { change, row } of moved) {
    const sets = uniqueSorted(change.sets);
    const deleted = toBool(row.deleted);
    const content = stored.get(row.pk) ?? { records: new Map<string, string | null>(), about: [] };
    const hash = contentHash(deleted, sets, content.records, content.about, content.fields);
    // This store's time, never earlier than the datestamp it published (lib/pipeline/decide.ts datestampOf).
    const at = datestampOf('updated', { datestamp: toInt(row.datestamp) }, {}, stamp);
    await trx('items')
      .where('pk', row.pk)
      .update({ datestamp: at, content_hash: hash, direct_sets: directSetsValue(sets) });
    // Sets are in every record's header: each record changed, and is stamped, with its new digest.
    for (const [prefix, xml] of content.records) {
      await trx('records')
        .where({ item_pk: row.pk, prefix })
        .update({ datestamp: at, hash: recordHash(deleted, sets, prefix, deleted ? null : xml, deleted ? [] : content.about) });
    }
    await trx('item_sets').where('item_pk', row.pk).delete();
    setRows.push(...membership(row.pk, sets, oldRows.get(row.pk) ?? [], at));
  }
  await insertRows(trx, 'item_sets', ['spec', 'item_pk', 'direct', 'datestamp', 'departed'], setRows);
  const movedIds = new Set(moved.map((m) => m.change.internalId));
  return rows.map(({ change, row }) => ({
    internalId: change.internalId,
    identifier: row.identifier,
    outcome: movedIds.has(change.internalId) ? 'updated' : 'unchanged',
  }));
}

/** What an item's content hash covers besides its sets, as stored: metadata by prefix, about containers, record fields (JSON). */
interface StoredContent {
  records: Map<string, string | null>;
  about: AboutInput[];
  fields?: string;
}

/** The stored content of items, to recompute their content hash (formats kept as models written again, ./on-demand.ts). */
async function storedContent(db: Knex, pks: readonly number[], onDemand: OnDemand | undefined): Promise<Map<number, StoredContent>> {
  const out = new Map<number, StoredContent>();
  const entry = (pk: number): StoredContent => {
    let e = out.get(pk);
    if (!e) out.set(pk, (e = { records: new Map(), about: [] }));
    return e;
  };
  const run = statementRunner(db);
  for (const part of chunk(pks, MAX_IN_LIST)) {
    if (part.length === 0) continue;
    for (const [pk, metadata] of await storedMetadata(db, part, onDemand)) {
      for (const [prefix, xml] of Object.entries(metadata)) entry(pk).records.set(prefix, xml);
    }
    for (const r of await run<{ item_pk: unknown; fields: string }>(`SELECT item_pk, fields FROM record_fields WHERE ${inListSql(db, 'item_pk')}`, [
      inListParam(db, part),
    ])) {
      entry(toInt(r.item_pk)).fields = r.fields;
    }
  }
  for (const [pk, about] of await storedAbout(db, pks)) entry(pk).about = about;
  return out;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
