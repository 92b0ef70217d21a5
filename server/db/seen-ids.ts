/**
 * The internal ids a load has seen (lib/store.ts `SeenIds`), kept in a
 * temporary table on the load's own connection: a JavaScript Set of ids grows
 * with the input, a temporary table lives in SQLite's temporary file
 * (`temp_store` = FILE, the build default) or PostgreSQL's temp buffers, both
 * spilling to disk, and its primary key answers "seen before?" by index. The
 * table belongs to the transaction's connection only, so concurrent loads do
 * not see each other's ids. Its SQL differs per database, so it lives here.
 */
import type { Knex } from 'knex';
import type { SeenIds } from '../../lib/store';
import { chunk, inListParam, inListSql, isPostgres, MAX_IN_LIST, toInt } from './dialect';

/**
 * Creates the temporary table of seen ids on `knex`, which must be the load's
 * transaction so that every statement runs on the one connection that can
 * see it. A leftover table of an earlier load on the same connection is
 * dropped first. The table is schema-qualified (`temp.` on SQLite,
 * `pg_temp.` on PostgreSQL), so it can never shadow or drop a real table.
 *
 * @example const seen = await createSeenIds(trx); const dups = await seen.add(['a', 'b']);
 */
export async function createSeenIds(knex: Knex): Promise<SeenIds> {
  const pg = isPostgres(knex);
  const table = pg ? 'pg_temp.oai_steward_load_seen' : 'temp.oai_steward_load_seen';
  await knex.raw(`DROP TABLE IF EXISTS ${table}`);
  // SQLite gives the temporary database a page cache as large as the main one's
  // (16 MB in better-sqlite3's build); a small one is enough for appending ids
  // and keeps a load of millions of records a few megabytes smaller.
  const tempCache = pg ? null : (await knex.raw('PRAGMA temp.cache_size')) as { cache_size: number }[];
  if (!pg) await knex.raw(`PRAGMA temp.cache_size = ${TEMP_CACHE_KIB}`);
  // Compared with items.internal_id, which is bytewise on both (server/db/dialect.ts).
  await knex.raw(`CREATE TABLE ${table} (internal_id ${pg ? 'text COLLATE "C"' : 'TEXT'} PRIMARY KEY)`);
  const unnest = pg ? 'SELECT unnest(?::text[])' : 'SELECT value FROM json_each(?)';
  return {
    async add(ids) {
      const dups = new Set<string>();
      for (const part of chunk(ids, MAX_IN_LIST)) {
        const param = inListParam(knex, part);
        const rows = (await knex.raw(`SELECT internal_id FROM ${table} WHERE ${inListSql(knex, 'internal_id', 'text')}`, [param as Knex.Value])) as unknown;
        for (const r of rowsOf(rows)) dups.add(r.internal_id);
        const fresh = dups.size === 0 ? part : part.filter((id) => !dups.has(id));
        if (fresh.length > 0) await knex.raw(`INSERT INTO ${table} (internal_id) ${unnest}`, [inListParam(knex, fresh) as Knex.Value]);
      }
      return dups;
    },
    async *missing(pageSize) {
      let after = 0;
      for (;;) {
        const rows = (await knex('items')
          .select('pk', 'internal_id')
          .where('deleted', false)
          .andWhere('pk', '>', after)
          .whereNotExists(knex.select(knex.raw('1')).from(knex.raw(table)).where('internal_id', knex.ref('items.internal_id')))
          .orderBy('pk')
          .limit(pageSize)) as { pk: unknown; internal_id: string }[];
        if (rows.length === 0) return;
        after = toInt(rows[rows.length - 1]?.pk);
        yield rows.map((r) => r.internal_id);
      }
    },
    async drop() {
      await knex.raw(`DROP TABLE IF EXISTS ${table}`);
      const before = tempCache?.[0]?.cache_size;
      if (typeof before === 'number') await knex.raw(`PRAGMA temp.cache_size = ${before}`);
    },
  };
}

/** The page cache of SQLite's temporary database during a load: 2 MiB (a negative cache_size is in KiB). */
const TEMP_CACHE_KIB = -2048;

/** The rows of a `knex.raw` SELECT: an array on SQLite, `{ rows }` on PostgreSQL. */
function rowsOf(result: unknown): { internal_id: string }[] {
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { internal_id: string }[];
}
