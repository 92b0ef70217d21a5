/**
 * The loader's runs, kept in the store (`loader_runs`, migration 007): the
 * loader records each run as it ends, and a server's `/metrics` and
 * `oai-steward stats` read the last one, whichever process ran it
 * (lib/store.ts `LoaderRuns`).
 */
import type { Knex } from 'knex';
import type { LoaderRunRecord } from '../../lib/store';

export type { LoaderRunRecord };

/** Runs kept; older ones are pruned as new ones are recorded. */
const KEPT = 100;

/**
 * Records a run of the loader.
 *
 * @example await recordLoaderRun(p.knex, { finished: Date.now(), records: 100, refusals: 0, read: 100, seconds: 1.5, outcome: 'committed' });
 */
export async function recordLoaderRun(knex: Knex, run: LoaderRunRecord): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx('loader_runs').insert({
      finished: Math.round(run.finished),
      records: run.records,
      refusals: run.refusals,
      read: run.read,
      duration_ms: Math.round(run.seconds * 1000),
      outcome: run.outcome,
    });
    const cutoff = (await trx('loader_runs').select('id').orderBy('id', 'desc').offset(KEPT).first()) as { id: number } | undefined;
    if (cutoff) await trx('loader_runs').where('id', '<=', cutoff.id).del();
  });
}

/**
 * The last run recorded, or null when the loader never ran on this store.
 *
 * @example const last = await lastLoaderRun(p.knex); // { finished, records, refusals, read, seconds, outcome } | null
 */
export async function lastLoaderRun(knex: Knex): Promise<LoaderRunRecord | null> {
  const row = (await knex('loader_runs').select('finished', 'records', 'refusals', 'read', 'duration_ms', 'outcome').orderBy('id', 'desc').first()) as
    { finished: number | string; records: number; refusals: number; read: number; duration_ms: number | string; outcome: string } | undefined;
  if (!row) return null;
  return {
    finished: Number(row.finished),
    records: Number(row.records),
    refusals: Number(row.refusals),
    read: Number(row.read),
    seconds: Number(row.duration_ms) / 1000,
    outcome: row.outcome as LoaderRunRecord['outcome'],
  };
}
