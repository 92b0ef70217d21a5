/**
 * The scan of every item a page at a time (lib/store/write.ts `ItemScan`), with
 * each item's direct sets, the stored metadata of every format and, for
 * items written from the record format, the stored record fields: what
 * `oai-steward check` and `oai-steward rebuild-sets` walk. Keyset on `pk`,
 * so page 1,000 costs what page 1 does and memory holds one page.
 */
import type { Knex } from 'knex';
import type { RecordFields } from '../../lib/model/record';
import type { AboutInput, ScannedItem, ScanOptions, SetDeparture } from '../../lib/store';
import { chunk, inListParam, inListSql, MAX_IN_LIST, toBool, toInt } from '../db/dialect';
import { statementRunner } from '../db/statements';
import { wantedKey, writeOnDemand, type OnDemand, type Wanted } from './on-demand';
import { directSets } from './read';

/**
 * The metadata of these items by prefix (null for a tombstone's), a chunk at a time; a format the
 * store writes on demand is written (./on-demand.ts). The formats `leaveOut` names for an item are
 * left out, neither read into the answer nor written.
 *
 * @example (await storedMetadata(knex, [1])).get(1)?.oai_dc
 */
export async function storedMetadata(
  db: Knex,
  pks: readonly number[],
  onDemand?: OnDemand,
  leaveOut?: ReadonlyMap<number, ReadonlySet<string>>,
): Promise<Map<number, Record<string, string | null>>> {
  const run = statementRunner(db);
  const out = new Map<number, Record<string, string | null>>();
  const wanted: Wanted[] = [];
  for (const part of chunk(pks, MAX_IN_LIST)) {
    if (part.length === 0) continue;
    const rows = await run<{ item_pk: unknown; prefix: string; xml: string | null; identifier: string; deleted: unknown }>(
      `SELECT r.item_pk, r.prefix, r.xml, i.identifier, i.deleted FROM records r JOIN items i ON i.pk = r.item_pk WHERE ${inListSql(db, 'r.item_pk')}`,
      [inListParam(db, part)],
    );
    for (const r of rows) {
      const pk = toInt(r.item_pk);
      const m = out.get(pk) ?? {};
      out.set(pk, m);
      if (leaveOut?.get(pk)?.has(r.prefix)) continue;
      m[r.prefix] = r.xml;
      // A live item's format without XML is written on demand (./on-demand.ts).
      if (r.xml === null && !toBool(r.deleted)) wanted.push({ pk, identifier: r.identifier, prefix: r.prefix });
    }
  }
  const written = await writeOnDemand(db, onDemand, wanted);
  for (const w of wanted) (out.get(w.pk) as Record<string, string | null>)[w.prefix] = written.get(wantedKey(w.pk, w.prefix)) ?? null;
  return out;
}

const withWithheld = new WeakSet<object>();

/**
 * Whether the schema has `record_fields.withheld` (migration 020): a store
 * not yet migrated to it (written as the release before wrote, in the
 * upgrade tests) has no withheld XML to read. Asked once per connection
 * configuration, as the publication log's table is (../db/log/append.ts).
 */
export async function hasWithheldColumn(db: Knex): Promise<boolean> {
  const config = (db.client as { config?: object }).config;
  if (config !== undefined && withWithheld.has(config)) return true;
  const has = await db.schema.hasColumn('record_fields', 'withheld');
  if (has && config !== undefined) withWithheld.add(config);
  return has;
}

/**
 * Up to `limit` items after `afterPk`, in `pk` order, with their sets, metadata and record fields;
 * with `givenOnly`, the metadata leaves out the formats the pipeline wrote (lib/store/write.ts `ScanOptions`).
 *
 * @example for (let page = await scanItems(knex, 0, 500); page.length > 0; page = await scanItems(knex, page[page.length - 1].pk, 500)) …
 */
export async function scanItems(db: Knex, afterPk: number, limit: number, onDemand?: OnDemand, options: ScanOptions = {}): Promise<ScannedItem[]> {
  const rows = await statementRunner(db)<{
    pk: unknown;
    internal_id: string;
    identifier: string;
    datestamp: unknown;
    deleted: unknown;
    origin: string | null;
    fields: string | null;
    derived: string | null;
    lifted_from: string | null;
    withheld: string | null;
  }>(
    `SELECT i.pk, i.internal_id, i.identifier, i.datestamp, i.deleted, i.origin, f.fields, f.derived, f.lifted_from, ${(await hasWithheldColumn(db)) ? 'f.withheld' : 'NULL AS withheld'} FROM items i LEFT JOIN record_fields f ON f.item_pk = i.pk WHERE i.pk > ? ORDER BY i.pk LIMIT ?`,
    [afterPk, limit],
  );
  const pks = rows.map((r) => toInt(r.pk));
  const written = rows.map((r) => (r.fields !== null ? (JSON.parse(r.derived ?? '[]') as string[]) : undefined));
  const sets = await directSets(db, pks);
  const leaveOut = options.givenOnly ? new Map(pks.map((pk, k) => [pk, new Set(written[k] ?? [])])) : undefined;
  const metadata = await storedMetadata(db, pks, onDemand, leaveOut);
  // What a record gave is what it gave: XML kept but not served (lib/pipeline/withhold.ts) too, to be
  // judged again, in place of what was written from the model in its format.
  if (options.givenOnly) {
    rows.forEach((r, k) => {
      if (r.withheld === null || r.withheld === undefined) return;
      const m = metadata.get(pks[k] as number) ?? {};
      const kept = JSON.parse(r.withheld) as { prefix: string; xml: string }[];
      for (const w of kept) m[w.prefix] = w.xml;
      metadata.set(pks[k] as number, m);
      written[k] = written[k]?.filter((prefix) => !kept.some((w) => w.prefix === prefix));
    });
  }
  const about = await storedAbout(db, pks);
  const earlier = await earlierRecordDatestamps(db, pks);
  return rows.map((r, k) => {
    const pk = pks[k] as number;
    const own = about.get(pk);
    const formatDatestamps = earlier.get(pk);
    return {
      ...(own !== undefined && { about: own }),
      pk,
      internalId: r.internal_id,
      identifier: r.identifier,
      datestamp: toInt(r.datestamp),
      deleted: toBool(r.deleted),
      ...(r.origin !== null && r.origin !== undefined && { origin: r.origin }),
      ...(formatDatestamps !== undefined && { formatDatestamps }),
      sets: sets.get(pk) ?? [],
      metadata: metadata.get(pk) ?? {},
      ...(r.fields !== null && { fields: JSON.parse(r.fields) as RecordFields, written: written[k] as string[] }),
      ...(r.lifted_from !== null && r.lifted_from !== undefined && { liftedFrom: r.lifted_from }),
    };
  });
}

/** The record datestamps earlier than their item's, by item and prefix (items whose records all share its datestamp are absent). */
async function earlierRecordDatestamps(db: Knex, pks: readonly number[]): Promise<Map<number, Record<string, number>>> {
  const out = new Map<number, Record<string, number>>();
  for (const part of chunk(pks, MAX_IN_LIST)) {
    if (part.length === 0) continue;
    const rows = await statementRunner(db)<{ item_pk: unknown; prefix: string; datestamp: unknown }>(
      `SELECT r.item_pk, r.prefix, r.datestamp FROM records r JOIN items i ON i.pk = r.item_pk WHERE ${inListSql(db, 'r.item_pk')} AND r.datestamp < i.datestamp`,
      [inListParam(db, part)],
    );
    for (const r of rows) {
      const pk = toInt(r.item_pk);
      out.set(pk, { ...(out.get(pk) ?? {}), [r.prefix]: toInt(r.datestamp) });
    }
  }
  return out;
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

/**
 * The sets items left, and when (item_sets rows with a departure): what a
 * harvest of each set reports as deleted, for a bulk dump's lines.
 *
 * @example (await storedDepartures(knex, [7])).get(7) // [{ spec: 'physics', at: 1700000000 }]
 */
export async function storedDepartures(db: Knex, pks: readonly number[]): Promise<Map<number, SetDeparture[]>> {
  const out = new Map<number, SetDeparture[]>();
  const run = statementRunner(db);
  for (const part of chunk(pks, MAX_IN_LIST)) {
    if (part.length === 0) continue;
    const rows = await run<{ item_pk: unknown; spec: string; departed: unknown }>(
      `SELECT item_pk, spec, departed FROM item_sets WHERE ${inListSql(db, 'item_pk')} AND departed IS NOT NULL ORDER BY item_pk, spec`,
      [inListParam(db, part)],
    );
    for (const r of rows) {
      const pk = toInt(r.item_pk);
      out.set(pk, [...(out.get(pk) ?? []), { spec: r.spec, at: toInt(r.departed) }]);
    }
  }
  return out;
}
