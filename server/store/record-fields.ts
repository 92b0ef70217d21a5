/**
 * Reading the record fields kept with each item (migration 002,
 * `record_fields`): by internal id, for any part of the server that needs
 * an item's typed record, and a page at a time in `pk` order, for
 * `rebuild-formats`. Writing them is part of ./apply.ts.
 */
import type { Knex } from 'knex';
import type { RecordFields } from '../../lib/records/fields';
import type { AboutInput, StoredRecordFields } from '../../lib/store';
import { chunk, inListParam, inListSql, MAX_IN_LIST, toInt } from '../db/dialect';
import { statementRunner } from '../db/statements';
import { directSets } from './read';
import { storedMetadata } from './scan';

/**
 * The stored record fields of these internal ids; ids without (unknown, tombstones, XML-only items) are absent.
 *
 * @example (await recordFieldsOf(knex, ['report 12'])).get('report 12')?.creators
 */
export async function recordFieldsOf(db: Knex, internalIds: readonly string[]): Promise<Map<string, RecordFields>> {
  const run = statementRunner(db);
  const out = new Map<string, RecordFields>();
  for (const part of chunk([...new Set(internalIds)], MAX_IN_LIST)) {
    const rows = await run<{ internal_id: string; fields: string }>(
      `SELECT i.internal_id, f.fields FROM items i JOIN record_fields f ON f.item_pk = i.pk WHERE ${inListSql(db, 'i.internal_id', 'text')}`,
      [inListParam(db, part)],
    );
    for (const r of rows) out.set(r.internal_id, JSON.parse(r.fields) as RecordFields);
  }
  return out;
}

/**
 * One page of live items with record fields, in `pk` order after `afterPk`:
 * their fields, which prefixes a crosswalk made, their direct sets and their
 * stored metadata. Three queries a page, whatever its length.
 *
 * @example const page = await storedRecordFieldsPage(trx, 0, 500);
 */
export async function storedRecordFieldsPage(db: Knex, afterPk: number, limit: number): Promise<StoredRecordFields[]> {
  const run = statementRunner(db);
  const rows = await run<{ pk: unknown; internal_id: string; fields: string; derived: string }>(
    'SELECT i.pk, i.internal_id, f.fields, f.derived FROM record_fields f JOIN items i ON i.pk = f.item_pk WHERE f.item_pk > ? AND NOT i.deleted ORDER BY f.item_pk LIMIT ?',
    [afterPk, limit],
  );
  const pks = rows.map((r) => toInt(r.pk));
  const sets = await directSets(db, pks);
  const stored = await storedMetadata(db, pks);
  const about = await storedAbout(db, pks);
  return rows.map((r, k) => {
    const pk = pks[k] as number;
    const own = about.get(pk);
    return {
      ...(own !== undefined && { about: own }),
      pk,
      internalId: r.internal_id,
      sets: sets.get(pk) ?? [],
      fields: JSON.parse(r.fields) as RecordFields,
      derived: JSON.parse(r.derived) as string[],
      metadata: Object.fromEntries(Object.entries(stored.get(pk) ?? {}).filter((e): e is [string, string] => e[1] !== null)),
    };
  });
}

/**
 * The about containers of items, in order, as written (with what their
 * content hash compares).
 *
 * @example (await storedAbout(trx, [7])).get(7) // [{ xml: '<provenance …>…</provenance>', compareAs: '…' }]
 */
export async function storedAbout(db: Knex, pks: readonly number[]): Promise<Map<number, AboutInput[]>> {
  const out = new Map<number, AboutInput[]>();
  const run = statementRunner(db);
  for (const part of chunk(pks, MAX_IN_LIST)) {
    if (part.length === 0) continue;
    const rows = await run<{ item_pk: unknown; xml: string; compare_as: string | null }>(
      `SELECT item_pk, xml, compare_as FROM item_about WHERE ${inListSql(db, 'item_pk')} ORDER BY item_pk, position`,
      [inListParam(db, part)],
    );
    for (const r of rows) {
      const pk = toInt(r.item_pk);
      out.set(pk, [...(out.get(pk) ?? []), r.compare_as === null ? { xml: r.xml } : { xml: r.xml, compareAs: r.compare_as }]);
    }
  }
  return out;
}
