/**
 * Identifier counters: the daily serial numbers of urn:pdi document series
 * (urn:pdi 2.4), handed out atomically so two processes never mint the same
 * identifier.
 */
import type { Knex } from 'knex';
import { canonicalSeries } from '../../lib/ids/pdi';
import { toInt } from '../db/dialect';

/**
 * Mints the next serial number of a urn:pdi document series for one GMT date
 * (`YYYY-MM-DD`), starting at 1 (urn:pdi 2.4: daily serials per series).
 * The counter is keyed by the canonical (lowercased) series, so two spellings
 * share it. Atomic: an upsert that increments, read back in the same
 * transaction, so two processes never get the same serial. Throws a
 * `RangeError` for an invalid series or date. Feed the result to
 * lib/ids/pdi-mint.ts `mintPdi`.
 *
 * @example await mintPdiSerial(knex, 'pubs.example.us', '2024-05-01') // 1, then 2, …
 */
export async function mintPdiSerial(knex: Knex, seriesAsWritten: string, date: string): Promise<number> {
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(date)) throw new RangeError(`date ${JSON.stringify(date)} must be YYYY-MM-DD (GMT)`);
  const series = canonicalSeries(seriesAsWritten);
  return knex.transaction(async (trx) => {
    await trx('pdi_serials')
      .insert({ series, date, last_serial: 1 })
      .onConflict(['series', 'date'])
      .merge({ last_serial: trx.raw('?? + 1', ['pdi_serials.last_serial']) });
    const row = (await trx('pdi_serials').select('last_serial').where({ series, date }).first()) as { last_serial: unknown } | undefined;
    if (!row) throw new Error('pdi serial row vanished');
    return toInt(row.last_serial);
  });
}
