/**
 * Reading the record fields kept with each item (migration 002,
 * `record_fields`) by internal id, for any part of the server that needs an
 * item's typed record (a page at a time in `pk` order is ./scan.ts, which the
 * rebuild commands use). Writing them is part of ./apply.ts.
 */
import type { Knex } from 'knex';
import type { RecordFields } from '../../lib/model/record';
import { chunk, inListParam, inListSql, MAX_IN_LIST } from '../db/dialect';
import { statementRunner } from '../db/statements';

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
