/**
 * The report of every run, kept in the store (`runs`, `run_refusals`,
 * `run_totals`, migration 015; a load's `written` and `duration_ms`,
 * migration 018; lib/store/bookkeeping.ts `RunReports`): the latest
 * {@link RUNS_KEPT} runs of each kind and source, each with its first
 * {@link MAX_RUN_REFUSALS} refused records and a count of the rest, and
 * totals that pruning never lowers (what `/metrics` counts).
 */
import type { Knex } from 'knex';
import type { RunCounts, RunKind, RunOutcome, RunRefusal, RunReport, RunTotal, StoredRun } from '../../lib/store';
import { clip, MAX_RUN_REFUSALS, MAX_RUN_WARNINGS, NO_COUNTS } from '../../lib/run-report';

/** Runs kept per kind and source; older ones are pruned as new ones are recorded. */
export const RUNS_KEPT = 20;

/** Refusal rows a statement inserts (7 parameters each, far under SQLite's limit of variables). */
const CHUNK = 200;

interface RunRow {
  id: number | string;
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

/** The same kind and source (a NULL source is the loads'). */
function ofGroup(q: Knex.QueryBuilder, kind: RunKind, source: string | null): Knex.QueryBuilder {
  q.where('kind', kind);
  return source === null ? q.whereNull('source') : q.andWhere('source', source);
}

/**
 * Records a run, its kept refusals and its totals in one transaction, and
 * prunes the runs of its kind and source beyond {@link RUNS_KEPT}. The
 * bounds are kept here too, whatever the caller gathered.
 *
 * @example await recordRun(knex, report) // the run's id
 */
export async function recordRun(knex: Knex, run: RunReport): Promise<number> {
  const refusals = run.refusals.slice(0, MAX_RUN_REFUSALS);
  const warnings = run.warnings.slice(0, MAX_RUN_WARNINGS).map((w) => clip(w));
  return knex.transaction(async (trx) => {
    const [row] = (await trx('runs')
      .insert({
        kind: run.kind,
        source: run.source,
        started: Math.floor(run.started),
        ended: Math.floor(run.ended),
        outcome: run.outcome,
        counts: JSON.stringify(run.counts),
        warnings: JSON.stringify(warnings),
        warnings_omitted: run.warningsOmitted + (run.warnings.length - warnings.length),
        error: run.error === null ? null : clip(run.error),
        refusals_omitted: run.refusalsOmitted + (run.refusals.length - refusals.length),
        written: run.written ?? null,
        duration_ms: run.seconds === undefined ? null : Math.round(run.seconds * 1000),
      })
      .returning('id')) as ({ id: number } | number)[];
    const id = Number(typeof row === 'object' ? row.id : row);
    for (let i = 0; i < refusals.length; i += CHUNK) {
      await trx('run_refusals').insert(
        refusals.slice(i, i + CHUNK).map((r, j) => ({
          run_id: id,
          seq: i + j,
          page: r.page,
          identifier: clip(r.identifier),
          field: clip(r.field, 200),
          reason: clip(r.reason),
        })),
      );
    }
    await trx('run_totals')
      .insert({ kind: run.kind, source: run.source ?? '', outcome: run.outcome, runs: 1, refused: run.counts.refused })
      .onConflict(['kind', 'source', 'outcome'])
      .merge({ runs: trx.raw('run_totals.runs + 1'), refused: trx.raw('run_totals.refused + ?', [run.counts.refused]) });
    const cutoff = (await ofGroup(trx('runs').select('id'), run.kind, run.source).orderBy('id', 'desc').offset(RUNS_KEPT).first()) as
      { id: number | string } | undefined;
    if (cutoff) {
      const old = ofGroup(trx('runs').select('id'), run.kind, run.source).andWhere('id', '<=', cutoff.id);
      await trx('run_refusals').whereIn('run_id', old).delete();
      await ofGroup(trx('runs'), run.kind, run.source).andWhere('id', '<=', cutoff.id).delete();
    }
    return id;
  });
}

/** Rows to runs, with their refusals read in one query. */
async function withRefusals(knex: Knex, rows: readonly RunRow[]): Promise<StoredRun[]> {
  const ids = rows.map((r) => Number(r.id));
  const byRun = new Map<number, RunRefusal[]>(ids.map((id) => [id, []]));
  if (ids.length > 0) {
    const refused = (await knex('run_refusals')
      .select('run_id', 'page', 'identifier', 'field', 'reason')
      .whereIn('run_id', ids)
      .orderBy(['run_id', 'seq'])) as {
      run_id: number | string;
      page: number | string | null;
      identifier: string;
      field: string;
      reason: string;
    }[];
    for (const r of refused)
      byRun.get(Number(r.run_id))?.push({ page: r.page === null ? null : Number(r.page), identifier: r.identifier, field: r.field, reason: r.reason });
  }
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind as RunKind,
    source: r.source,
    started: Number(r.started),
    ended: Number(r.ended),
    outcome: r.outcome as RunOutcome,
    counts: { ...NO_COUNTS, ...(JSON.parse(r.counts) as Partial<RunCounts>) },
    warnings: JSON.parse(r.warnings) as string[],
    warningsOmitted: Number(r.warnings_omitted),
    error: r.error,
    refusals: byRun.get(Number(r.id)) ?? [],
    refusalsOmitted: Number(r.refusals_omitted),
    ...(r.written !== null && { written: Number(r.written) }),
    ...(r.duration_ms !== null && { seconds: Number(r.duration_ms) / 1000 }),
  }));
}

/**
 * The latest runs of a kind and source, newest first, with their refusals.
 *
 * @example await latestRuns(knex, 'harvest', 'arxiv', 5)
 */
export async function latestRuns(knex: Knex, kind: RunKind, source: string | null, limit: number = RUNS_KEPT): Promise<StoredRun[]> {
  const rows = (await ofGroup(knex('runs').select('*'), kind, source).orderBy('id', 'desc').limit(limit)) as RunRow[];
  return withRefusals(knex, rows);
}

/**
 * The latest run of a kind and source that did not complete, or null.
 *
 * @example (await lastFailure(knex, 'harvest', 'arxiv'))?.error
 */
export async function lastFailure(knex: Knex, kind: RunKind, source: string | null): Promise<StoredRun | null> {
  const row = (await ofGroup(knex('runs').select('*'), kind, source).andWhereNot('outcome', 'completed').orderBy('id', 'desc').first()) as RunRow | undefined;
  if (!row) return null;
  return (await withRefusals(knex, [row]))[0] ?? null;
}

/**
 * Runs and refused records ever recorded, per kind, source and outcome.
 *
 * @example await runTotals(knex) // [{ kind: 'harvest', source: 'arxiv', outcome: 'completed', runs: 12, refused: 3 }]
 */
export async function runTotals(knex: Knex): Promise<RunTotal[]> {
  const rows = (await knex('run_totals').select('kind', 'source', 'outcome', 'runs', 'refused').orderBy(['kind', 'source', 'outcome'])) as {
    kind: string;
    source: string;
    outcome: string;
    runs: number | string;
    refused: number | string;
  }[];
  return rows.map((r) => ({
    kind: r.kind as RunKind,
    source: r.source === '' ? null : r.source,
    outcome: r.outcome as RunOutcome,
    runs: Number(r.runs),
    refused: Number(r.refused),
  }));
}
