/**
 * What a record gave that is kept but not served.
 *
 * - `record_fields.withheld`: the XML a record gave in a format whose schema
 *   refuses it where the model read from it is sound (CERN CDS's MARCXML
 *   with indicator `C`, which LoC's MARC21slim.xsd's pattern leaves out):
 *   a JSON array of `{prefix, xml, reason}`, NULL for every other item. The
 *   item is served in every format written from its model, never in this
 *   XML (a response must stay valid), and the XML is given back to the write
 *   decision with the item (server/store/state.ts, `rebuild-formats`), so a
 *   corrected schema or record serves it again (lib/pipeline/withhold.ts).
 */
import type { Knex } from 'knex';

/** Adds the column. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('record_fields', (t) => {
    t.text('withheld').nullable();
  });
}

/** Removes it (native DROP COLUMN: knex's SQLite emulation copies the table, which foreign keys onto it refuse). */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE record_fields DROP COLUMN withheld');
}
