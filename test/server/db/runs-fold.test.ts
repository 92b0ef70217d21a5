/**
 * Upgrading a store that recorded loads in `loader_runs` (migration 018):
 * every load appears once in `runs`, a load the release before recorded in
 * both tables as one run with its exact figures, the load runs in the order
 * they ended, harvest runs and the run totals untouched; the last load read
 * back is the last one recorded, a failed one too; and going down makes
 * `loader_runs` again without losing a refused record, so going up again
 * gives the same runs.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { migrationSource } from '../../../server/db/migrations';
import { lastLoad } from '../../../server/runs';
import { KnexStore } from '../../../server/store/knex-store';
import { createIdPolicy } from '../../../lib/ids/policy';
import { forEachThrowawayDatabase, TEST_NAMESPACE } from '../../helpers/db';

/** Seconds: when the old release's first load below ended. */
const T = 1_700_000_000;

const COUNTS = { pages: 0, records: 0, inserted: 0, updated: 0, unchanged: 0, deleted: 0, superseded: 0, refused: 0, retries: 0 };

/** Makes an empty store as the release of migration 015 made it: every migration up to 015, one at a time. */
async function toRelease015(knex: Knex): Promise<void> {
  while (!(await knex.schema.hasTable('runs'))) await knex.migrate.up({ migrationSource });
  expect(await knex.schema.hasTable('loader_runs')).to.equal(true);
  expect(await knex.schema.hasColumn('runs', 'written')).to.equal(false);
}

/** A store on the database, as the server opens one. */
function storeOn(knex: Knex): KnexStore {
  return new KnexStore({ knex, policy: createIdPolicy({ namespace: TEST_NAMESPACE, mode: 'auto' }) });
}

/** A `runs` row as the release before wrote it (server/store/runs.ts of then), with its refused records and totals. */
async function oldRun(
  knex: Knex,
  run: { kind: string; source: string | null; started: number; ended: number; outcome: string; counts: Partial<typeof COUNTS>; error?: string },
  refused: readonly string[] = [],
): Promise<number> {
  const counts = { ...COUNTS, ...run.counts };
  const [row] = (await knex('runs')
    .insert({
      kind: run.kind,
      source: run.source,
      started: run.started,
      ended: run.ended,
      outcome: run.outcome,
      counts: JSON.stringify(counts),
      warnings: '[]',
      warnings_omitted: 0,
      error: run.error ?? null,
      refusals_omitted: 0,
    })
    .returning('id')) as ({ id: number } | number)[];
  const id = Number(typeof row === 'object' ? row.id : row);
  for (const [seq, identifier] of refused.entries()) {
    await knex('run_refusals').insert({ run_id: id, seq, page: run.kind === 'harvest' ? 1 : null, identifier, field: 'datestamp', reason: 'not a date' });
  }
  await knex('run_totals')
    .insert({ kind: run.kind, source: run.source ?? '', outcome: run.outcome, runs: 1, refused: counts.refused })
    .onConflict(['kind', 'source', 'outcome'])
    .merge({ runs: knex.raw('run_totals.runs + 1'), refused: knex.raw('run_totals.refused + ?', [counts.refused]) });
  return id;
}

/** A `loader_runs` row as the release before wrote it (its `recordLoaderRun`). */
async function oldLoaderRun(
  knex: Knex,
  run: { finished: number; records: number; refusals: number; read: number; seconds: number; outcome: 'committed' | 'refused' | 'dry-run' | 'interrupted' },
): Promise<void> {
  await knex('loader_runs').insert({
    finished: run.finished,
    records: run.records,
    refusals: run.refusals,
    read: run.read,
    duration_ms: Math.round(run.seconds * 1000),
    outcome: run.outcome,
  });
}

/**
 * The history of a store of the release before: three loads from before
 * migration 015 (in `loader_runs` only), two since (in both tables, the run
 * written a moment after), a harvest between them, and a load that failed
 * (in `runs` only, as the loader recorded one).
 */
async function oldHistory(knex: Knex): Promise<{ harvest: number }> {
  await oldLoaderRun(knex, { finished: T * 1000 + 500, records: 5, refusals: 0, read: 5, seconds: 1.5, outcome: 'committed' });
  await oldLoaderRun(knex, { finished: (T + 100) * 1000, records: 0, refusals: 0, read: 4, seconds: 0.2, outcome: 'dry-run' });
  await oldLoaderRun(knex, { finished: (T + 200) * 1000 + 250, records: 0, refusals: 1, read: 2, seconds: 0.3, outcome: 'refused' });
  await oldLoaderRun(knex, { finished: (T + 1000) * 1000 + 900, records: 3, refusals: 0, read: 3, seconds: 1.25, outcome: 'committed' });
  await oldRun(knex, { kind: 'load', source: null, started: T + 999, ended: T + 1001, outcome: 'completed', counts: { records: 3, inserted: 2, updated: 1 } });
  const harvest = await oldRun(
    knex,
    { kind: 'harvest', source: 'arxiv', started: T + 1400, ended: T + 1500, outcome: 'completed', counts: { pages: 2, records: 9, inserted: 8, refused: 1 } },
    ['oai:arxiv.org:1'],
  );
  await oldLoaderRun(knex, { finished: (T + 2000) * 1000, records: 1, refusals: 1, read: 2, seconds: 0.8, outcome: 'committed' });
  await oldRun(
    knex,
    { kind: 'load', source: null, started: T + 1999, ended: T + 2000, outcome: 'completed', counts: { records: 2, inserted: 1, refused: 1 } },
    ['bad'],
  );
  await oldRun(knex, {
    kind: 'load',
    source: null,
    started: T + 2999,
    ended: T + 3000,
    outcome: 'failed',
    counts: {},
    error: 'the database connection was lost',
  });
  return { harvest };
}

describe('folding loader_runs into runs (migration 018)', function () {
  this.timeout(60_000);
  forEachThrowawayDatabase((db) => {
    it('puts every load of the old release in runs once, in the order they ended, with their figures', async () => {
      const knex = db().knex();
      await toRelease015(knex);
      const { harvest } = await oldHistory(knex);
      const totals = (await knex('run_totals').select('*').orderBy(['kind', 'source', 'outcome'])) as unknown[];
      await knex.migrate.latest({ migrationSource });

      expect(await knex.schema.hasTable('loader_runs')).to.equal(false);
      const runs = await storeOn(knex).latestRuns('load', null);
      expect(
        runs.map((r) => ({ ended: r.ended, outcome: r.outcome, read: r.counts.records, refused: r.counts.refused, written: r.written, seconds: r.seconds })),
      ).to.deep.equal([
        { ended: T + 3000, outcome: 'failed', read: 0, refused: 0, written: 0, seconds: 1 },
        { ended: T + 2000, outcome: 'completed', read: 2, refused: 1, written: 1, seconds: 0.8 },
        { ended: T + 1001, outcome: 'completed', read: 3, refused: 0, written: 3, seconds: 1.25 },
        { ended: T + 200, outcome: 'stopped', read: 2, refused: 1, written: 0, seconds: 0.3 },
        { ended: T + 100, outcome: 'completed', read: 4, refused: 0, written: 0, seconds: 0.2 },
        { ended: T, outcome: 'completed', read: 5, refused: 0, written: 5, seconds: 1.5 },
      ]);
      // What a load recorded in both tables kept of its run: the counts split and the refused records.
      expect(runs[1]?.refusals.map((r) => r.identifier)).to.deep.equal(['bad']);
      expect(runs[2]?.counts).to.include({ inserted: 2, updated: 1 });
      // What a folded run says as the loader says it of such a run today.
      expect(runs[3]).to.include({ error: 'refused records roll the whole load back; nothing was written', refusalsOmitted: 1 });
      expect(runs[4]?.warnings).to.deep.equal(['a dry run: nothing was written']);
      expect(runs[5]).to.include({ started: T - 1, error: null });

      const [harvested] = await storeOn(knex).latestRuns('harvest', 'arxiv');
      expect(harvested?.id).to.equal(harvest);
      expect(harvested).not.to.have.any.keys('written', 'seconds');
      expect(harvested?.refusals.map((r) => r.identifier)).to.deep.equal(['oai:arxiv.org:1']);
      expect(await knex('run_totals').select('*').orderBy(['kind', 'source', 'outcome'])).to.deep.equal(totals);
    });

    it("reads back the failed load as the last one, with the failed load's figures", async () => {
      const knex = db().knex();
      await toRelease015(knex);
      await oldHistory(knex);
      await knex.migrate.latest({ migrationSource });
      expect(await lastLoad(storeOn(knex))).to.deep.equal({
        finished: (T + 3000) * 1000,
        records: 0,
        refusals: 0,
        read: 0,
        seconds: 1,
        outcome: 'failed',
        error: 'the database connection was lost',
      });
    });

    it('goes down to loader_runs keeping every refused record, and up again to the same runs', async () => {
      const knex = db().knex();
      await toRelease015(knex);
      await oldHistory(knex);
      await knex.migrate.latest({ migrationSource });
      const before = await storeOn(knex).latestRuns('load', null);

      // Down through the migrations after 018, then 018 itself.
      await knex.migrate.down({ migrationSource, name: '019_publication_log' });
      await knex.migrate.down({ migrationSource, name: '018_runs_fold' });
      expect(await knex.schema.hasColumn('runs', 'written')).to.equal(false);
      const folded = (await knex('loader_runs').select('finished', 'records', 'refusals', 'read', 'duration_ms', 'outcome').orderBy('id')) as Record<
        string,
        number | string
      >[];
      expect(folded.map((r) => [Number(r.finished), Number(r.records), Number(r.refusals), Number(r.read), Number(r.duration_ms), r.outcome])).to.deep.equal([
        [T * 1000, 5, 0, 5, 1500, 'committed'],
        [(T + 100) * 1000, 0, 0, 4, 200, 'dry-run'],
        [(T + 200) * 1000, 0, 1, 2, 300, 'refused'],
        [(T + 1001) * 1000, 3, 0, 3, 1250, 'committed'],
        [(T + 2000) * 1000, 1, 1, 2, 800, 'committed'],
      ]);
      const refusals = (await knex('run_refusals').select('identifier').orderBy('identifier')) as { identifier: string }[];
      expect(refusals.map((r) => r.identifier)).to.deep.equal(['bad', 'oai:arxiv.org:1']);

      await knex.migrate.latest({ migrationSource });
      expect(await storeOn(knex).latestRuns('load', null)).to.deep.equal(before);
    });
  });
});
