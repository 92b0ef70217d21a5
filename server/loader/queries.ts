/**
 * The few read queries the loader and `stats` need that the protocol's
 * ReadStore does not offer. Kept here, beside their only users; dialect
 * differences go through server/db/dialect.ts.
 */
import type { Knex } from 'knex';
import { toInt } from '../db/dialect';

/**
 * Every live (not deleted) item's internal id, in pages of `pageSize`, in
 * `pk` order: a keyset scan, so memory holds one page whatever the store's
 * size. Safe to delete the items of a page before asking for the next.
 *
 * @example for await (const ids of liveInternalIds(knex, 1000)) …
 */
export async function* liveInternalIds(knex: Knex, pageSize: number): AsyncGenerator<string[]> {
  let after = 0;
  for (;;) {
    const rows = (await knex('items').select('pk', 'internal_id').where('deleted', false).andWhere('pk', '>', after).orderBy('pk').limit(pageSize)) as {
      pk: unknown;
      internal_id: string;
    }[];
    if (rows.length === 0) return;
    after = toInt(rows[rows.length - 1]?.pk);
    yield rows.map((r) => r.internal_id);
  }
}
