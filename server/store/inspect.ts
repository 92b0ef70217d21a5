/**
 * What `doctor` reads of a store to find damage, without changing it: the
 * shape of its schema (tables, their columns, indexes), compared with the
 * shape the migrations make on a new store; and the identifiers its
 * registry published, a page at a time. Its stored records, with what each
 * one's digest covers, are read by ../db/record-digests.ts, which the
 * migration filling digests in reads them with too.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { createKnex } from '../db/connection';
import { isPostgres, toInt } from '../db/dialect';
import { migrate } from '../db/migrations';

/** A schema's tables (name → column names, sorted) and indexes (name → table and columns). */
export interface SchemaShape {
  readonly tables: ReadonlyMap<string, readonly string[]>;
  readonly indexes: ReadonlyMap<string, string>;
}

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

/** knex's own tables: their shape is knex's business. */
const KNEX_TABLES = new Set(['knex_migrations', 'knex_migrations_lock']);

/** The shape of the schema `knex` reaches (its first search-path schema on PostgreSQL). */
export async function schemaShape(knex: Knex): Promise<SchemaShape> {
  const tables = new Map<string, string[]>();
  const indexes = new Map<string, string>();
  if (isPostgres(knex)) {
    const cols = (await knex.raw(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, column_name`,
    )) as { rows: { table_name: string; column_name: string }[] };
    for (const r of cols.rows)
      if (!KNEX_TABLES.has(r.table_name)) (tables.get(r.table_name) ?? tables.set(r.table_name, []).get(r.table_name))?.push(r.column_name);
    const idx = (await knex.raw(`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()`)) as {
      rows: { tablename: string; indexname: string; indexdef: string }[];
    };
    for (const r of idx.rows) {
      if (KNEX_TABLES.has(r.tablename)) continue;
      // The definition names the schema (a throwaway one for the expected shape): only what follows ON … USING matters.
      indexes.set(r.indexname, `${r.tablename} ${r.indexdef.replace(/^.* USING /, '')}`);
    }
  } else {
    const names = (await knex.raw(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)) as { name: string }[];
    for (const { name } of names) {
      if (KNEX_TABLES.has(name)) continue;
      const cols = (await knex.raw(`SELECT name FROM pragma_table_info(?)`, [name])) as { name: string }[];
      tables.set(
        name,
        cols.map((c) => c.name),
      );
      const list = (await knex.raw(`SELECT name, "unique" AS u FROM pragma_index_list(?)`, [name])) as { name: string; u: number }[];
      for (const i of list) {
        // SQLite names the indexes of a primary key and of UNIQUE constraints itself, after the table: compare them by what they cover.
        const info = (await knex.raw(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`, [i.name])) as { name: string }[];
        const key = i.name.startsWith('sqlite_autoindex_') ? `${name}(${info.map((c) => c.name).join(',')})` : i.name;
        indexes.set(key, `${name} ${toInt(i.u) === 1 ? 'unique ' : ''}(${info.map((c) => c.name).join(', ')})`);
      }
    }
  }
  for (const cols of tables.values()) cols.sort();
  return { tables, indexes };
}

/**
 * The shape the migrations make on a new store of the same kind as `knex`:
 * SQLite in memory; PostgreSQL in a throwaway schema of the same database,
 * dropped at once (the only thing doctor writes, and it leaves nothing).
 */
export async function expectedShape(knex: Knex, url: string): Promise<SchemaShape> {
  if (!isPostgres(knex)) {
    const fresh = createKnex(':memory:');
    try {
      await migrate(fresh);
      return await schemaShape(fresh);
    } finally {
      await fresh.destroy();
    }
  }
  const schema = `oai_steward_doctor_${crypto.randomBytes(6).toString('hex')}`;
  await knex.raw('CREATE SCHEMA ??', [schema]);
  const fresh = createKnex(url, { searchPath: schema, pool: { min: 0, max: 1 } });
  try {
    await migrate(fresh);
    return await schemaShape(fresh);
  } finally {
    await fresh.destroy();
    await knex.raw('DROP SCHEMA ?? CASCADE', [schema]);
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
