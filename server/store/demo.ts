/**
 * What the demo guard (server/demo-guard.ts) keeps and reads in the store
 * (lib/store/admin.ts `DemoMarkers`): the namespace the demo was published under
 * (`settings.demo_namespace`), which of the demo's items are there, the
 * registry of identifiers, and erasing a store that only ever held the demo.
 */
import type { Knex } from 'knex';
import type { ItemPresence } from '../../lib/store';

const MARKER = 'demo_namespace';

/** Tables holding items and what hangs off them, children first (foreign keys). */
const ITEM_TABLES = ['item_about', 'item_sets', 'records', 'record_fields', 'identifiers', 'log_leaves', 'items'] as const;

/** The publication log's other tables (../db/log/tables.ts): a log of the demo alone goes with it. */
const LOG_TABLES = ['log_tiles', 'log_head', 'log_signed'] as const;

/**
 * The namespace the demo was published under, or null.
 *
 * @example await demoNamespace(knex) // 'demo.example.org' | null
 */
export async function demoNamespace(knex: Knex): Promise<string | null> {
  const marker = (await knex('settings').select('value').where('key', MARKER).first()) as { value: string } | undefined;
  return marker?.value ?? null;
}

/**
 * Remembers the namespace the demo was published under; null forgets it.
 *
 * @example await setDemoNamespace(knex, 'demo.example.org')
 */
export async function setDemoNamespace(knex: Knex, namespace: string | null): Promise<void> {
  if (namespace === null) await knex('settings').where('key', MARKER).del();
  else await knex('settings').insert({ key: MARKER, value: namespace }).onConflict('key').merge();
}

/**
 * Those of these internal ids the store holds, with identifier and deletion.
 *
 * @example await itemsPresent(knex, ['demo 1']) // [{ internalId: 'demo 1', identifier: 'oai:…', deleted: false }]
 */
export async function itemsPresent(knex: Knex, internalIds: readonly string[]): Promise<ItemPresence[]> {
  const rows = (await knex('items')
    .select('internal_id', 'identifier', 'deleted')
    .whereIn('internal_id', [...internalIds])) as { internal_id: string; identifier: string; deleted: boolean | number }[];
  return rows.map((r) => ({ internalId: r.internal_id, identifier: r.identifier, deleted: Boolean(r.deleted) }));
}

/**
 * How many identifiers the registry holds (every one ever published), or how many of these internal ids'.
 *
 * @example await registeredIdentifiers(knex, demoIds) // 120
 */
export async function registeredIdentifiers(knex: Knex, internalIds?: readonly string[]): Promise<number> {
  const q = knex('identifiers').count({ n: '*' });
  if (internalIds !== undefined) void q.whereIn('internal_id', [...internalIds]);
  return Number(((await q.first()) as { n: number | string } | undefined)?.n ?? 0);
}

/**
 * Erases every item, set, identifier, the publication log of them and the
 * demo's namespace in one transaction; returns how many items there were.
 *
 * @example await eraseAll(knex) // 120
 */
export async function eraseAll(knex: Knex): Promise<number> {
  const items = Number(((await knex('items').count({ n: '*' }).first()) as { n: number | string } | undefined)?.n ?? 0);
  await knex.transaction(async (trx) => {
    for (const table of ITEM_TABLES) await trx(table).del();
    for (const table of LOG_TABLES) await trx(table).del();
    await trx('sets').del();
    if (await trx.schema.hasTable('retired_sets')) await trx('retired_sets').del();
    await trx('settings').where('key', MARKER).del();
  });
  return items;
}
