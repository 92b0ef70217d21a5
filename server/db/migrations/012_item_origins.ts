/**
 * `items.origin`: the harvested source an item came from (its `name` in the
 * configuration's `sources`), NULL for a local item (loaded, seeded,
 * written by this repository). Id spaces never overwrite each other: a
 * source's items live in its space (internal id `NAME:` + the source's
 * identifier) and only its harvests write or delete them; a load never
 * writes there, a harvest never takes over a local item, and a load's
 * `--delete-missing` reaches local items only (lib/pipeline/decide.ts).
 *
 * An existing store learns the origin of what it harvested from where a
 * harvest put it: an item whose internal id is `NAME:…` and which is in the
 * set `source:NAME` (the harvester puts every record of a source there).
 */
import type { Knex } from 'knex';
import { binaryTextColumn } from '../dialect';

/** Adds the column and fills it in for harvested items. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('items', (t) => {
    binaryTextColumn(knex, t as unknown as Knex.CreateTableBuilder, 'origin').nullable();
  });
  const specs = (await knex('item_sets').distinct('spec').where('spec', 'like', 'source:%')) as { spec: string }[];
  const names = specs.map((s) => s.spec.slice('source:'.length)).filter((n) => n !== '' && !n.includes(':'));
  for (const name of names) {
    await knex('items')
      .whereIn('pk', knex('item_sets').select('item_pk').where('spec', `source:${name}`))
      .andWhere('internal_id', '>=', `${name}:`)
      .andWhere('internal_id', '<', `${name};`)
      .update({ origin: name });
  }
}

/** Removes it (native DROP COLUMN: knex's SQLite emulation copies the table, which foreign keys onto it refuse). */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE items DROP COLUMN origin');
}
