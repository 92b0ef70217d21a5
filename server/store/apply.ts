/**
 * Write applying: puts a planned batch (lib/pipeline/decide.ts) into the tables, turns
 * items into tombstones, and moves items between sets (declaring sets is
 * ./sets.ts's). Every function here runs inside the caller's transaction and
 * writes nothing the gate has not passed.
 */
import type { Knex } from 'knex';
import { chunk, directSetsValue, inListParam, inListSql, MAX_IN_LIST, toInt, type Utf8Text } from '../db/dialect';
import { insertRows, statementRunner } from '../db/statements';
import { fillRecordHashes } from '../db/record-digests';
import { keepsLogHashes } from '../db/log/append';
import { servedRecordHash } from '../../lib/tlog/verify';
import type { PlannedItem, StoredItem } from '../../lib/pipeline/decide';
import type { PreparedItem } from '../../lib/pipeline/prepare';
import type { PlannedTombstone } from '../../lib/pipeline/tombstones';
import { membership, type PlannedMembership, type SetRow } from '../../lib/pipeline/memberships';
import { claimFingerprint, type OnDemand } from './on-demand';

/** The item_sets rows of a change: decided in lib/pipeline/memberships.ts, named here too for the tests of ./apply.ts. */
export { membership };

/** The written formats a store keeping formats as models stores all the same, unless configured otherwise: oai_dc. */
const KEPT_BY_DEFAULT: ReadonlySet<string> = new Set(['oai_dc']);

/**
 * What applying a planned item reads of it: a {@link PlannedItem}, or the
 * part of one a staged write keeps (./staging.ts), with the log hashes of its
 * records when they were taken before.
 */
export type AppliedItem = Omit<PlannedItem, 'input' | 'existing' | 'records'> & {
  readonly input: Pick<PreparedItem, 'internalId' | 'harvestedFrom' | 'written' | 'withheld' | 'liftedFrom'>;
  readonly existing: Pick<StoredItem, 'pk' | 'sourceDatestamp'> | undefined;
  /** prefix → xml (null for a tombstone), a staged write's as the UTF-8 bytes it read back. */
  readonly records: ReadonlyMap<string, string | Utf8Text | null>;
  /** prefix → the record's log hash (`servedRecordHash` of its XML), taken already. */
  readonly logHashes?: ReadonlyMap<string, string>;
};

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
  planned: readonly AppliedItem[],
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
  for (const part of chunk(changedPks, MAX_IN_LIST)) {
    await trx('item_sets').whereIn('item_pk', part).delete();
    await trx('records').whereIn('item_pk', part).delete();
    await trx('item_about').whereIn('item_pk', part).delete();
    await trx('record_fields').whereIn('item_pk', part).delete();
  }
  const leave = onDemand !== undefined && [...fresh, ...changed].some((p) => p.fields !== undefined && p.input.written.some((prefix) => !kept.has(prefix)));
  if (leave) await claimFingerprint(trx, onDemand);
  const setRows: SetRow[] = [];
  const recordRows: [number, string, string | Utf8Text | null, number, string, string | null][] = [];
  // Each record's hash as the publication log records it, taken here from the XML in hand, that of a format
  // left to be written on demand too (the same writer writes it then): publishing reads these, not the records.
  const logHashes = await keepsLogHashes(trx);
  const aboutRows: [number, number, string, string | null][] = [];
  const fieldRows: [number, string, string, string | null, string | null][] = [];
  for (const p of [...fresh, ...changed]) {
    const pk = pkOf.get(p.input.internalId) as number;
    // The XML a record gave that its schema refuses is kept beside its model, never served (lib/pipeline/withhold.ts).
    const withheld = p.input.withheld !== undefined && p.input.withheld.length > 0 ? JSON.stringify(p.input.withheld) : null;
    if (p.fields !== undefined) fieldRows.push([pk, p.fields, JSON.stringify(p.input.written), p.input.liftedFrom ?? null, withheld]);
    // Decided with the item's old rows (lib/pipeline/decide.ts); a new item's pk is known only now.
    for (const [spec, , direct, datestamp, departed] of p.setRows) setRows.push([spec, pk, direct, datestamp, departed]);
    const written = leave && p.fields !== undefined ? p.input.written : [];
    // A kept format is read, never written, when served.
    for (const [prefix, xml] of p.records) {
      const stored = !kept.has(prefix) && written.includes(prefix) ? null : xml;
      const logHash = logHashes && xml !== null ? (p.logHashes?.get(prefix) ?? servedRecordHash(String(xml))) : null;
      recordRows.push([pk, prefix, stored, p.recordDatestamps.get(prefix) ?? p.datestamp, p.recordHashes.get(prefix) as string, logHash]);
    }
    p.about.forEach((a, position) => aboutRows.push([pk, position, a.xml, a.compareAs ?? null]));
  }
  await insertRows(trx, 'item_sets', ['spec', 'item_pk', 'direct', 'datestamp', 'departed'], setRows);
  if (logHashes) await insertRows(trx, 'records', ['item_pk', 'prefix', 'xml', 'datestamp', 'hash', 'log_hash'], recordRows);
  else
    await insertRows(
      trx,
      'records',
      ['item_pk', 'prefix', 'xml', 'datestamp', 'hash'],
      recordRows.map((r) => r.slice(0, 5)),
    );
  await insertRows(trx, 'item_about', ['item_pk', 'position', 'xml', 'compare_as'], aboutRows);
  // The column only when a row needs it: a store written as the release before wrote (the upgrade tests) has none.
  if (fieldRows.some((r) => r[4] !== null)) await insertRows(trx, 'record_fields', ['item_pk', 'fields', 'derived', 'lifted_from', 'withheld'], fieldRows);
  else
    await insertRows(
      trx,
      'record_fields',
      ['item_pk', 'fields', 'derived', 'lifted_from'],
      fieldRows.map((r) => r.slice(0, 4)),
    );
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
  const noXml = (await keepsLogHashes(trx)) ? { xml: null, hash: null, log_hash: null } : { xml: null, hash: null };
  for (const [at, pks] of byDatestamp) {
    for (const part of chunk(pks, MAX_IN_LIST)) {
      // Every record of a deleted item is deleted now (OAI-PMH 2.0 section 2.5.1); its digest is taken when next needed.
      await trx('records')
        .whereIn('item_pk', part)
        .update({ ...noXml, datestamp: at });
      // Every row, departed ones too, keeps the item's datestamp (the set harvest's keyset).
      await trx('item_sets').whereIn('item_pk', part).update({ datestamp: at });
      // A deleted record has a header only (OAI-PMH 2.0 section 2.5.1): no about either.
      await trx('item_about').whereIn('item_pk', part).delete();
      await trx('record_fields').whereIn('item_pk', part).delete();
    }
  }
  const missing = deleted.flatMap((p) => p.addPrefixes.map((prefix): [number, string, null, number] => [p.item.pk, prefix, null, p.datestamp]));
  await insertRows(trx, 'records', ['item_pk', 'prefix', 'xml', 'datestamp'], missing);
  // Every row has its digest, of its header only, as a tombstone written through writeItems does, so doctor can check each one.
  await fillRecordHashes(
    trx,
    deleted.flatMap((p) => [...p.recordHashes].map(([prefix, hash]) => ({ pk: p.item.pk, prefix, hash }))),
  );
}

/**
 * Applies a decided membership change (lib/pipeline/memberships.ts
 * `decideMemberships`): each item planned `updated` gets its planned direct
 * sets, datestamp and hash, each of its records its new digest and the
 * item's datestamp, and its planned item_sets rows in place of its old ones.
 *
 * @example await applyMemberships(trx, decideMemberships(changes, await readMembershipState(trx, changes), { stamp }).planned)
 */
export async function applyMemberships(trx: Knex, planned: readonly PlannedMembership[]): Promise<void> {
  const setRows: SetRow[] = [];
  for (const p of planned) {
    if (p.outcome !== 'updated') continue;
    await trx('items')
      .where('pk', p.item.pk)
      .update({ datestamp: p.datestamp, content_hash: p.hash, direct_sets: directSetsValue(p.sets) });
    for (const [prefix, hash] of p.recordHashes) {
      await trx('records').where({ item_pk: p.item.pk, prefix }).update({ datestamp: p.datestamp, hash });
    }
    await trx('item_sets').where('item_pk', p.item.pk).delete();
    setRows.push(...p.setRows);
  }
  await insertRows(trx, 'item_sets', ['spec', 'item_pk', 'direct', 'datestamp', 'departed'], setRows);
}
