/**
 * What the publication log costs a publication: the same generated records
 * (the first {@link LOG_SAMPLE} of the run's, or all of them when fewer)
 * loaded through the write path `--batch` a publication, as the direct load
 * loads them (bench/load.ts), into two fresh stores: one as made, and one
 * whose log tables were dropped before its first write, as a store of the
 * release before the log was (a publication on a schema without the log
 * appends nothing, server/db/log/append.ts). The difference of the two times
 * over the publications is what the log adds to one: reading and hashing its
 * items' entries, and appending leaves and tiles under the publication lock.
 * The two are loaded in turn, twice, the store without the log first, and
 * each time is the least of its two: on a shared machine the least is the
 * one other work disturbed least, and the one with the log pays no warm-up
 * the other did not.
 */
import { loadConfig } from '../server/config';
import { openProvider } from '../server/provider';
import type { KnexStore } from '../server/store/knex-store';
import { loadRecords } from './generate';
import { LOG_SAMPLE, type BenchOptions } from './options';
import { freshStore, settleDisk } from './stores';

/** Pairs of loads, without the log then with it: each time is the least of its loads, the one the machine disturbed least. */
const ROUNDS = 2;

/** The log tables of migration 019, dropped for the store without the log. */
const LOG_TABLES = ['log_signed', 'log_head', 'log_tiles', 'log_leaves'];

/** What the two loads took. */
export interface LogCost {
  readonly records: number;
  readonly publications: number;
  readonly withLogSeconds: number;
  readonly withoutLogSeconds: number;
}

/** Loads the sample into a fresh store, with or without the log; null when no fresh store apart from `served` can be made. */
async function loadSample(o: BenchOptions, env: NodeJS.ProcessEnv, served: string, records: number, withLog: boolean): Promise<number | null> {
  const target = await freshStore(process.env.DATABASE_URL, o.keep);
  try {
    // Without the right to create a database, the "fresh" store is the served one, emptied: leave it alone.
    if (target.url === served) return null;
    const provider = await openProvider(loadConfig({ ...env, DATABASE_URL: target.url }));
    try {
      const knex = (provider.store as KnexStore).knex;
      if (!withLog) for (const table of LOG_TABLES) await knex.schema.dropTable(table);
      settleDisk();
      return (await loadRecords(provider.store, provider.formats, records, { batch: o.batch })).seconds;
    } finally {
      await provider.close();
    }
  } finally {
    await target.drop();
  }
}

/**
 * Measures the log's cost (see the module's comment) beside the store at
 * `served`, which it never touches; null when no second store can be made.
 *
 * @example const cost = await measureLogCost(options, env, served.url); // cost.withLogSeconds / cost.withoutLogSeconds
 */
export async function measureLogCost(o: BenchOptions, env: NodeJS.ProcessEnv, served: string): Promise<LogCost | null> {
  const records = Math.min(o.records, LOG_SAMPLE);
  const times = { with: [] as number[], without: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const withLog of [false, true]) {
      const seconds = await loadSample(o, env, served, records, withLog);
      if (seconds === null) return null;
      times[withLog ? 'with' : 'without'].push(seconds);
    }
  }
  const withLogSeconds = Math.min(...times.with);
  const withoutLogSeconds = Math.min(...times.without);
  // One publication a batch (the sets declared before them publish no item, so append nothing).
  return { records, publications: Math.ceil(records / o.batch), withLogSeconds, withoutLogSeconds };
}
