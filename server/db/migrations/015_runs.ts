/**
 * The report of every run (a harvest of one source, a load), kept in the
 * store so that `oai-steward sources`, `/metrics` and the set pages of any
 * process see it (server/store/runs.ts):
 *
 * - `runs`: one row per run, the latest twenty (`RUNS_KEPT` in server/store/runs.ts)
 *   of each kind and source kept:
 *   - `kind`: `harvest` or `load`; `source`: the harvested source's name,
 *     NULL for a load;
 *   - `started`, `ended`: seconds since the Unix epoch;
 *   - `outcome`: `completed` (to the end), `stopped` (the source's fault or
 *     refused records ended it, resumable), `interrupted` (a stop asked for:
 *     a signal, a stopping server), `failed` (the database or a bug);
 *   - `counts`: JSON of pages, records, inserted, updated, unchanged,
 *     deleted, superseded, refused and retries;
 *   - `warnings`: a JSON array of the run's first warnings, and
 *     `warnings_omitted` how many more there were;
 *   - `error`: why it did not complete (NULL when it did);
 *   - `refusals_omitted`: refused records beyond those kept in
 *     `run_refusals`.
 * - `run_refusals`: every refused record of a run (up to a bound), in the
 *   order refused: the page it was on (NULL for a load), its identifier,
 *   the field and the reason.
 * - `run_totals`: runs and refused records ever recorded, per kind, source
 *   (`''` for none) and outcome, so `/metrics` counts them as counters that
 *   never go down when old runs are pruned.
 */
import type { Knex } from 'knex';

/** Creates the three tables. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('runs', (t) => {
    t.increments('id');
    t.string('kind', 16).notNullable();
    t.text('source').nullable();
    t.bigInteger('started').notNullable();
    t.bigInteger('ended').notNullable();
    t.string('outcome', 16).notNullable();
    t.text('counts').notNullable();
    t.text('warnings').notNullable();
    t.integer('warnings_omitted').notNullable().defaultTo(0);
    t.text('error').nullable();
    t.integer('refusals_omitted').notNullable().defaultTo(0);
    t.index(['kind', 'source', 'id'], 'runs_kind_source');
  });
  await knex.schema.createTable('run_refusals', (t) => {
    t.integer('run_id').notNullable().references('id').inTable('runs').onDelete('CASCADE');
    t.integer('seq').notNullable();
    t.integer('page').nullable();
    t.text('identifier').notNullable();
    t.text('field').notNullable();
    t.text('reason').notNullable();
    t.primary(['run_id', 'seq']);
  });
  await knex.schema.createTable('run_totals', (t) => {
    t.string('kind', 16).notNullable();
    t.text('source').notNullable();
    t.string('outcome', 16).notNullable();
    t.bigInteger('runs').notNullable();
    t.bigInteger('refused').notNullable();
    t.primary(['kind', 'source', 'outcome']);
  });
}

/** Drops them. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('run_totals');
  await knex.schema.dropTableIfExists('run_refusals');
  await knex.schema.dropTableIfExists('runs');
}
