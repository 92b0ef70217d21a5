/**
 * One record of a run: `loader_runs` (migration 007) is folded into `runs`
 * (migration 015) and dropped, so a load is recorded once, whether it
 * completed or not, and `/metrics`, `stats` and `doctor` read the row
 * `sources` and the run totals read (server/store/runs.ts).
 *
 * `runs` gains the two figures of a load none of its columns held:
 *
 * - `written`: records the run committed (inserted, updated or turned into
 *   tombstones); 0 when it committed nothing (refused, interrupted, failed,
 *   a dry run, whose counts still say what it would have written); NULL for
 *   a run that does not say (a harvest);
 * - `duration_ms`: how long the run took, to the millisecond (`started` and
 *   `ended` are whole seconds); NULL for a run that does not say.
 *
 * A `loader_runs` row L becomes a load run: `ended` is L.finished in whole
 * seconds, `started` L.finished − L.duration_ms in whole seconds; outcome
 * `committed` and `dry-run` become `completed` (a dry run with the warning
 * the loader gives one), `refused` becomes `stopped` and `interrupted` stays,
 * each with the error the loader gives it; the counts are L.read (records)
 * and L.refusals (refused), the rest 0, since L never split what it wrote
 * (that is `written`); none of its refused records was kept, so all are
 * counted in `refusals_omitted`.
 *
 * Since migration 015 the loader recorded a run that reached its end in both
 * tables: such a pair is one load, not two. It wrote L first and then R, the
 * run, with R.ended read from the same clock after L's transaction, so L and
 * R are the same load when 0 ≤ R.ended − ⌊L.finished / 1000⌋ ≤ 60 seconds (a
 * minute covers a slow database), R counts L.read records and L.refusals
 * refused, and the outcomes agree as above. Each L, in id order, is matched
 * with the earliest-ended such R not matched yet; R keeps its row, counts and
 * refused records and gains L's `written` and `duration_ms`. A load that
 * failed was only ever recorded in `runs`. Every load run not matched gets
 * the figures its own row tells (`written` its inserted, updated and deleted
 * records when it completed and was not a dry run, else 0; `duration_ms` its
 * whole seconds), so every load run has both.
 *
 * The newest run is the one with the highest id (server/store/runs.ts), and
 * the folded runs are older than the runs recorded since 015, so when any is
 * folded the load runs are written again in the order they ended (a folded
 * one first at a tie), each with its refused records; harvest runs keep their
 * ids. Every folded run is kept: the next load prunes to the twenty the store
 * keeps. `run_totals` is left as it is: its counters count runs as they are
 * recorded, and counters that jumped at an upgrade would show loads that did
 * not happen then.
 */
import type { Knex } from 'knex';

/** Seconds a load's `runs` row may have ended after its `loader_runs` row was written. */
const PAIR_WINDOW = 60;

/** The warning and errors the loader gives these runs (server/loader/cli.ts), as it gave them when `loader_runs` was dropped. */
const DRY_RUN_WARNING = 'a dry run: nothing was written';
const REFUSED_ERROR = 'refused records roll the whole load back; nothing was written';
const INTERRUPTED_ERROR = 'stopped by a signal; nothing was written';

/** A `loader_runs` outcome → the `runs` outcome of the same load. */
const OUTCOME: Readonly<Record<string, string>> = { committed: 'completed', 'dry-run': 'completed', refused: 'stopped', interrupted: 'interrupted' };

/** Refused-record rows a statement inserts (6 parameters each). */
const CHUNK = 200;

interface LoaderRunRow {
  id: number | string;
  finished: number | string;
  records: number | string;
  refusals: number | string;
  read: number | string;
  duration_ms: number | string;
  outcome: string;
}

/** A row of `runs`, as read or as it will be inserted. */
interface RunRow {
  kind: string;
  source: string | null;
  started: number | string;
  ended: number | string;
  outcome: string;
  counts: string;
  warnings: string;
  warnings_omitted: number | string;
  error: string | null;
  refusals_omitted: number | string;
  written: number | string | null;
  duration_ms: number | string | null;
}

/** A row of `runs` as stored. */
interface StoredRunRow extends RunRow {
  id: number | string;
}

interface RefusalRow {
  run_id: number | string;
  seq: number | string;
  page: number | string | null;
  identifier: string;
  field: string;
  reason: string;
}

/** The counts of a run as migration 015 stores them, with their nine keys. */
interface Counts {
  pages: number;
  records: number;
  inserted: number;
  updated: number;
  unchanged: number;
  deleted: number;
  superseded: number;
  refused: number;
  retries: number;
}

function countsOf(row: RunRow): Counts {
  return {
    pages: 0,
    records: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    deleted: 0,
    superseded: 0,
    refused: 0,
    retries: 0,
    ...(JSON.parse(row.counts) as Partial<Counts>),
  };
}

function isDryRun(row: RunRow): boolean {
  return (JSON.parse(row.warnings) as string[]).includes(DRY_RUN_WARNING);
}

/** A `loader_runs` row as the load run it was. */
function foldedRun(l: LoaderRunRow): RunRow {
  const finished = Number(l.finished);
  const refused = Number(l.refusals);
  return {
    kind: 'load',
    source: null,
    started: Math.floor((finished - Number(l.duration_ms)) / 1000),
    ended: Math.floor(finished / 1000),
    outcome: OUTCOME[l.outcome] ?? 'completed',
    counts: JSON.stringify({ pages: 0, records: Number(l.read), inserted: 0, updated: 0, unchanged: 0, deleted: 0, superseded: 0, refused, retries: 0 }),
    warnings: JSON.stringify(l.outcome === 'dry-run' ? [DRY_RUN_WARNING] : []),
    warnings_omitted: 0,
    error: l.outcome === 'refused' ? REFUSED_ERROR : l.outcome === 'interrupted' ? INTERRUPTED_ERROR : null,
    refusals_omitted: refused,
    written: Number(l.records),
    duration_ms: Number(l.duration_ms),
  };
}

/** Whether a load run is the `runs` half of a `loader_runs` row (see the rule above). */
function pairs(l: LoaderRunRow, r: RunRow): boolean {
  const gap = Number(r.ended) - Math.floor(Number(l.finished) / 1000);
  const c = countsOf(r);
  return gap >= 0 && gap <= PAIR_WINDOW && c.records === Number(l.read) && c.refused === Number(l.refusals) && OUTCOME[l.outcome] === r.outcome;
}

/** What a load run recorded before this migration tells of what it wrote. */
function writtenOf(r: RunRow): number {
  const c = countsOf(r);
  return r.outcome === 'completed' && !isDryRun(r) ? c.inserted + c.updated + c.deleted : 0;
}

/** Folds `loader_runs` into `runs` and drops it. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('runs', (t) => {
    t.integer('written').nullable();
    t.bigInteger('duration_ms').nullable();
  });
  const folded = (await knex('loader_runs').select('*').orderBy('id')) as LoaderRunRow[];
  const loads = (await knex('runs').select('*').where('kind', 'load').whereNull('source').orderBy('id')) as StoredRunRow[];
  const unmatched: RunRow[] = [];
  const matched = new Set<StoredRunRow>();
  for (const l of folded) {
    const pair = loads.filter((r) => !matched.has(r) && pairs(l, r)).sort((a, b) => Number(a.ended) - Number(b.ended))[0];
    if (pair === undefined) {
      unmatched.push(foldedRun(l));
      continue;
    }
    matched.add(pair);
    pair.written = Number(l.records);
    pair.duration_ms = Number(l.duration_ms);
  }
  for (const r of loads) {
    if (matched.has(r)) continue;
    r.written = writtenOf(r);
    r.duration_ms = (Number(r.ended) - Number(r.started)) * 1000;
  }
  if (unmatched.length === 0) {
    for (const r of loads) await knex('runs').where('id', r.id).update({ written: r.written, duration_ms: r.duration_ms });
  } else {
    await rewriteLoads(knex, [...unmatched, ...loads]);
  }
  await knex.schema.dropTable('loader_runs');
}

/** Writes the load runs again in the order they ended (stable: `runs` in the order given at a tie), with their refused records. */
async function rewriteLoads(knex: Knex, runs: readonly (RunRow | StoredRunRow)[]): Promise<void> {
  const ids = runs.flatMap((r) => ('id' in r ? [r.id] : []));
  const refusals = (ids.length === 0 ? [] : await knex('run_refusals').select('*').whereIn('run_id', ids).orderBy(['run_id', 'seq'])) as RefusalRow[];
  const byRun = new Map<string, RefusalRow[]>();
  for (const f of refusals) byRun.set(String(f.run_id), [...(byRun.get(String(f.run_id)) ?? []), f]);
  await knex('run_refusals').whereIn('run_id', knex('runs').select('id').where('kind', 'load').whereNull('source')).delete();
  await knex('runs').where('kind', 'load').whereNull('source').delete();
  for (const r of [...runs].sort((a, b) => Number(a.ended) - Number(b.ended))) {
    const { id: old, ...row } = { id: undefined, ...r };
    const [inserted] = (await knex('runs').insert(row).returning('id')) as ({ id: number } | number)[];
    const id = Number(typeof inserted === 'object' ? inserted.id : inserted);
    const kept = old === undefined ? [] : (byRun.get(String(old)) ?? []);
    for (let i = 0; i < kept.length; i += CHUNK) await knex('run_refusals').insert(kept.slice(i, i + CHUNK).map((f) => ({ ...f, run_id: id })));
  }
}

/**
 * Makes `loader_runs` again from the load runs, as far as they tell: a
 * failed load was never recorded there, and a run's end is whole seconds.
 * The load runs stay in `runs`, where the release before this one recorded
 * them too.
 */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('loader_runs', (t) => {
    t.increments('id');
    t.bigInteger('finished').notNullable();
    t.integer('records').notNullable();
    t.integer('refusals').notNullable();
    t.integer('read').notNullable();
    t.bigInteger('duration_ms').notNullable();
    t.text('outcome').notNullable();
  });
  const loads = (await knex('runs').select('*').where('kind', 'load').whereNull('source').whereNot('outcome', 'failed').orderBy('id')) as RunRow[];
  const rows = loads.map((r) => {
    const c = countsOf(r);
    return {
      finished: Number(r.ended) * 1000,
      records: r.written === null ? writtenOf(r) : Number(r.written),
      refusals: c.refused,
      read: c.records,
      duration_ms: r.duration_ms === null ? (Number(r.ended) - Number(r.started)) * 1000 : Number(r.duration_ms),
      outcome: r.outcome === 'stopped' ? 'refused' : r.outcome === 'interrupted' ? 'interrupted' : isDryRun(r) ? 'dry-run' : 'committed',
    };
  });
  for (let i = 0; i < rows.length; i += CHUNK) await knex('loader_runs').insert(rows.slice(i, i + CHUNK));
  // Plain SQL, the same on both databases (SQLite 3.35 and later): knex drops a SQLite column by copying the table,
  // and dropping `runs` inside the migration's transaction, where foreign keys cannot be turned off, would delete
  // every row of `run_refusals` with it (ON DELETE CASCADE).
  await knex.raw('ALTER TABLE ?? DROP COLUMN ??', ['runs', 'written']);
  await knex.raw('ALTER TABLE ?? DROP COLUMN ??', ['runs', 'duration_ms']);
}
