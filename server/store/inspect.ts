/**
 * What `doctor` reads of a store to find damage, without changing it: the
 * shape of its schema (tables, their columns, indexes), compared with the
 * shape the migrations make on a new store; and the identifiers its
 * registry published, a page at a time. Its stored records, with what each
 * one's digest covers, are read by ../db/record-digests.ts, which the
 * migration filling digests in reads them with too.
 */
import type { Knex } from 'knex';
import { createKnex } from '../db/connection';
import { dialectOf, toInt, type SchemaShape } from '../db/dialect';
import { migrate } from '../db/migrations';

export type { SchemaShape } from '../db/dialect';

/** How a store's schema differs from what its migrations make. */
export interface SchemaDrift {
  /** Tables the migrations make that the store lacks. */
  readonly missingTables: readonly string[];
  /** Tables whose columns differ: `table: lacks a, b; has c` . */
  readonly alteredTables: readonly string[];
  readonly missingIndexes: readonly string[];
  /** Indexes whose table or columns differ. */
  readonly alteredIndexes: readonly string[];
}

/** The shape of the schema `knex` reaches (its first search-path schema on PostgreSQL), columns sorted. */
export async function schemaShape(knex: Knex): Promise<SchemaShape> {
  const { tables, indexes } = await dialectOf(knex).schemaShape(knex);
  for (const cols of tables.values()) cols.sort();
  return { tables, indexes };
}

/**
 * The shape the migrations make on a new store of the same kind as `knex`:
 * SQLite in memory; PostgreSQL in a throwaway schema of the same database,
 * dropped at once (the only thing doctor writes, and it leaves nothing).
 */
export async function expectedShape(knex: Knex, url: string): Promise<SchemaShape> {
  const scratch = await dialectOf(knex).scratchStore(knex, url);
  try {
    const fresh = createKnex(scratch.url, scratch.options);
    try {
      await migrate(fresh);
      return await schemaShape(fresh);
    } finally {
      await fresh.destroy();
    }
  } finally {
    await scratch.drop();
  }
}

/** How `actual` differs from `expected` (tables and indexes the store has beyond them are not counted). */
export function schemaDrift(expected: SchemaShape, actual: SchemaShape): SchemaDrift {
  const missingTables: string[] = [];
  const alteredTables: string[] = [];
  for (const [table, cols] of expected.tables) {
    const has = actual.tables.get(table);
    if (has === undefined) {
      missingTables.push(table);
      continue;
    }
    const lacks = cols.filter((c) => !has.includes(c));
    const extra = has.filter((c) => !cols.includes(c));
    if (lacks.length > 0 || extra.length > 0) {
      alteredTables.push(
        `${table}: ${[lacks.length > 0 ? `lacks ${lacks.join(', ')}` : '', extra.length > 0 ? `has ${extra.join(', ')}` : ''].filter((s) => s !== '').join('; ')}`,
      );
    }
  }
  const missingIndexes: string[] = [];
  const alteredIndexes: string[] = [];
  for (const [name, def] of expected.indexes) {
    const has = actual.indexes.get(name);
    // An index of a missing table is said once, by its table.
    if (has === undefined) {
      if (!missingTables.includes(def.split(' ')[0] ?? '')) missingIndexes.push(name);
    } else if (has !== def) alteredIndexes.push(`${name}: ${has}, expected ${def}`);
  }
  return { missingTables, alteredTables, missingIndexes, alteredIndexes };
}

/** The number of items, to spread a sample over them. */
export async function itemCount(knex: Knex): Promise<number> {
  const row = (await knex('items').count({ n: '*' }).first()) as { n: unknown } | undefined;
  return toInt(row?.n ?? 0);
}

/** One identifier the registry published, with the internal id it was mapped from. */
export interface PublishedRow {
  readonly identifier: string;
  readonly internalId: string;
}

/** A page of the identifiers the items were published under, after `after` in binary order. */
export async function publishedPage(knex: Knex, after: string | null, limit: number): Promise<PublishedRow[]> {
  const q = knex('items').select('identifier', 'internal_id').orderBy('identifier').limit(limit);
  if (after !== null) q.where('identifier', '>', after);
  const rows = (await q) as { identifier: string; internal_id: string }[];
  return rows.map((r) => ({ identifier: r.identifier, internalId: r.internal_id }));
}

/** Live items published without oai_dc: how many, and the first few with the formats they have. */
export interface WithoutOaiDc {
  readonly count: number;
  readonly examples: readonly { readonly identifier: string; readonly prefixes: readonly string[] }[];
}

/**
 * The live items that have no oai_dc record (OAI-PMH 2.0 section 3.4
 * requires one of every item): written before the pipeline refused such an
 * item, they answer cannotDisseminateFormat for oai_dc. Counted whole, the
 * first `limit` named in identifier order with their formats.
 */
export async function itemsWithoutOaiDc(knex: Knex, limit: number): Promise<WithoutOaiDc> {
  const lacking = (): Knex.QueryBuilder =>
    knex('items')
      .where('items.deleted', false)
      .whereNotExists(knex('records').select(knex.raw('1')).whereRaw('records.item_pk = items.pk').where('records.prefix', 'oai_dc'));
  const row = (await lacking().count({ n: '*' }).first()) as { n: unknown } | undefined;
  const count = toInt(row?.n ?? 0);
  if (count === 0) return { count, examples: [] };
  const items = (await lacking().select('items.pk', 'items.identifier').orderBy('items.identifier').limit(limit)) as { pk: unknown; identifier: string }[];
  const prefixRows = (await knex('records')
    .select('item_pk', 'prefix')
    .whereIn(
      'item_pk',
      items.map((i) => toInt(i.pk)),
    )
    .orderBy(['item_pk', 'prefix'])) as { item_pk: unknown; prefix: string }[];
  const examples = items.map((i) => ({
    identifier: i.identifier,
    prefixes: prefixRows.filter((r) => toInt(r.item_pk) === toInt(i.pk)).map((r) => r.prefix),
  }));
  return { count, examples };
}
