/**
 * Write applying: puts a planned batch (./plan.ts) into the tables, turns
 * items into tombstones, and declares sets. Every function here runs inside
 * the caller's transaction and writes nothing the gate has not passed.
 */
import type { Knex } from 'knex';
import { RefusedError, type Refusal, type SetInput, type WriteResult } from '../../lib/store';
import { setProblems } from '../../lib/records/gate';
import { withAncestors } from '../../lib/records/rules';
import { chunk, inListParam, inListSql, MAX_IN_LIST, rowsPerInsert, toBool, toInt } from '../db/dialect';
import { insertRows, statementRunner } from '../db/statements';
import { contentHash, itemsByInternalId, type ItemRow, type PlannedItem } from './plan';
import { directSets } from './read';

/**
 * Writes a planned batch: multi-row inserts, chunked under the bound-variable limits.
 *
 * @example await applyWrite(trx, (await planWrite(trx, items, options)).planned, now);
 */
export async function applyWrite(trx: Knex, planned: readonly PlannedItem[], now: number): Promise<void> {
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
    await trx('record_fields').whereIn('item_pk', part).delete();
  }
  const setRows: [string, number, boolean, number][] = [];
  const recordRows: [number, string, string | null][] = [];
  const fieldRows: [number, string, string][] = [];
  for (const p of [...fresh, ...changed]) {
    const pk = pkOf.get(p.input.internalId) as number;
    if (p.fields !== undefined) fieldRows.push([pk, p.fields, JSON.stringify(p.input.derived ?? [])]);
    const direct = new Set(p.sets);
    const all = new Set(p.sets.flatMap(withAncestors));
    for (const spec of all) setRows.push([spec, pk, direct.has(spec), p.datestamp]);
    for (const [prefix, xml] of p.records) recordRows.push([pk, prefix, xml]);
  }
  await insertRows(trx, 'item_sets', ['spec', 'item_pk', 'direct', 'datestamp'], setRows);
  await insertRows(trx, 'records', ['item_pk', 'prefix', 'xml'], recordRows);
  await insertRows(trx, 'record_fields', ['item_pk', 'fields', 'derived'], fieldRows);
}

/**
 * Turns items into tombstones (deleted, datestamp `now`, the formats they
 * had and every format of `tombstonePrefixes`, without metadata); an unknown
 * or repeated id refuses the whole call.
 *
 * @example await applyDelete(trx, ['report 12'], now, ['oai_dc']) // [{ internalId: 'report 12', identifier: '…', outcome: 'deleted' }]
 */
export async function applyDelete(trx: Knex, internalIds: readonly string[], now: number, tombstonePrefixes: readonly string[]): Promise<WriteResult[]> {
  const existing = await itemsByInternalId(trx, internalIds);
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
  const sets = await directSets(trx, live.map((r) => r.pk));
  for (const r of live) {
    await trx('items')
      .where('pk', r.pk)
      .update({ deleted: true, datestamp: now, content_hash: contentHash(true, sets.get(r.pk) ?? [], new Map()) });
  }
  // A tombstone keeps the formats it had, without metadata, and is listed in every format offered (2.5.1).
  const had = new Map<number, Set<string>>();
  for (const part of chunk(live.map((r) => r.pk), MAX_IN_LIST)) {
    await trx('records').whereIn('item_pk', part).update({ xml: null });
    await trx('item_sets').whereIn('item_pk', part).update({ datestamp: now });
    await trx('record_fields').whereIn('item_pk', part).delete();
    for (const r of (await trx('records').whereIn('item_pk', part).select('item_pk', 'prefix')) as { item_pk: unknown; prefix: string }[]) {
      const pk = toInt(r.item_pk);
      had.set(pk, (had.get(pk) ?? new Set()).add(r.prefix));
    }
  }
  const missing = live.flatMap((r) => tombstonePrefixes.filter((p) => !had.get(r.pk)?.has(p)).map((p): [number, string, null] => [r.pk, p, null]));
  await insertRows(trx, 'records', ['item_pk', 'prefix', 'xml'], missing);
  return rows.map((r) => ({ internalId: r.internal_id, identifier: r.identifier, outcome: toBool(r.deleted) ? 'unchanged' : 'deleted' }));
}

/**
 * Declares or renames sets after checking them (lib/records/gate.ts
 * `setProblems`); any problem throws an `Error` listing all of them.
 *
 * @example await applySets(trx, [{ spec: 'a', name: 'A' }]);
 */
export async function applySets(trx: Knex, sets: readonly SetInput[]): Promise<void> {
  const problems = setProblems(sets);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  const rows = sets.map((s) => ({ spec: s.spec, name: s.name, descriptions: JSON.stringify(s.descriptions ?? []) }));
  for (const part of chunk(rows, rowsPerInsert(trx, 3))) {
    await trx('sets').insert(part).onConflict('spec').merge(['name', 'descriptions']);
  }
}

/**
 * Declares the sets of this list that are not declared yet, leaving the
 * names of declared ones as they are (a name given with `--sets` wins over
 * the configuration's): how sets by rule come into being as items join them.
 *
 * @example await declareMissingSets(trx, [{ spec: 'ddc:530', name: 'DDC 530' }]);
 */
export async function declareMissingSets(trx: Knex, sets: readonly SetInput[]): Promise<void> {
  if (sets.length === 0) return;
  const existing = new Set<string>();
  for (const part of chunk(sets.map((s) => s.spec), MAX_IN_LIST)) {
    const rows = await statementRunner(trx)<{ spec: string }>(`SELECT spec FROM sets WHERE ${inListSql(trx, 'spec', 'text')}`, [inListParam(trx, part)]);
    for (const r of rows) existing.add(r.spec);
  }
  const missing = sets.filter((s) => !existing.has(s.spec));
  if (missing.length > 0) await applySets(trx, missing);
}
