/**
 * The report of every run: a harvest records its outcome, counts, warnings
 * and every refused record (page and identifier) as it ends, whether it
 * completed or the source stopped it; the store keeps the latest runs of a
 * source and the first refusals of a run, with totals pruning never lowers;
 * `oai-steward sources NAME` shows them and `--json` gives them; `/metrics`
 * counts runs and refused records by source and outcome; the page of the
 * source's set shows its last failure; a load is reported too.
 */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { loadConfig } from '../../server/config';
import { openProvider } from '../../server/provider';
import { runSourcesCommand, SOURCES_USAGE } from '../../server/harvest/cli';
import { MAX_RUN_REFUSALS, NO_COUNTS } from '../../lib/run-report';
import { RUNS_KEPT } from '../../server/store/runs';
import type { RunReport, StoredRun } from '../../lib/store';
import { forEachThrowawayDatabase, type ThrowawayDatabase } from '../helpers/db';
import { request } from '../helpers/server';
import { cli, serving } from '../loader/helpers';
import { HarvestInterrupted } from '../../server/harvest/harvest-types';
import { harvestOnce, openHub, source, HUB_NAMESPACE, type Hub } from './hub';
import { startFakeProvider, type FakeProvider, type FakeRecord } from './provider';

function records(n: number): FakeRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `r${i + 1}`,
    datestamp: `2024-01-${String(i + 1).padStart(2, '0')}T00:00:00Z`,
    title: `Record ${i + 1}`,
  }));
}

/** What a command wrote, and a stream that collects it. */
function output(): { text: () => string; stream: Writable } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString();
      done();
    },
  });
  return { text: () => text, stream };
}

const ENV = { OAI_NAMESPACE: HUB_NAMESPACE, OAI_SEED_DEMO: 'false', OAI_BASE_URL: 'http://hub.example.org/oai', LOG_LEVEL: 'silent' };

/** `oai-steward sources ARGS…` in this process, on the test's store. */
async function sources(db: ThrowawayDatabase, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const config = loadConfig({ ...ENV, DATABASE_URL: db.url });
  const out = output();
  const err = output();
  const code = await runSourcesCommand(args, config, () => openProvider(config), { stdin: process.stdin, stdout: out.stream, stderr: err.stream } as never);
  return { code, stdout: out.text(), stderr: err.text() };
}

function report(more: Partial<RunReport> = {}): RunReport {
  return {
    kind: 'harvest',
    source: 'many',
    started: 1_700_000_000,
    ended: 1_700_000_010,
    outcome: 'completed',
    counts: { ...NO_COUNTS, pages: 1, records: 2 },
    warnings: [],
    warningsOmitted: 0,
    error: null,
    refusals: [],
    refusalsOmitted: 0,
    ...more,
  };
}

describe('the report of every run', function () {
  this.timeout(120_000);
  let fake: FakeProvider | undefined;
  let hub: Hub | undefined;
  afterEach(async () => {
    await fake?.close();
    await hub?.close();
    fake = undefined;
    hub = undefined;
  });

  forEachThrowawayDatabase((db) => {
    it('records a completed run with its counts, warnings and every refused record by page and identifier', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 3 });
      fake.records = records(5);
      (fake.records[1] as FakeRecord).title = 'nul\u0000';
      (fake.records[3] as FakeRecord).title = 'nul\u0000 again';
      // A source clock far ahead is a warning of the run.
      fake.responseDate = '2099-01-01T00:00:00Z';
      hub = await openHub(db());
      const { summary } = await harvestOnce(hub, source('bad', fake.baseUrl));
      expect(summary.completed).to.equal(true);
      const [run, ...older] = await hub.store.latestRuns('harvest', 'bad');
      expect(older).to.deep.equal([]);
      expect(run).to.include({ kind: 'harvest', source: 'bad', outcome: 'completed', error: null, refusalsOmitted: 0, warningsOmitted: 0 });
      expect(run?.counts).to.deep.equal({ pages: 2, records: 5, inserted: 3, updated: 0, unchanged: 0, deleted: 0, superseded: 0, refused: 2, retries: 0 });
      expect(run?.ended).to.be.at.least(run?.started ?? Infinity);
      expect(run?.refusals.map((r) => [r.page, r.identifier, r.field])).to.deep.equal([
        [1, 'oai:bad.example.org:r2', 'xml'],
        [2, 'oai:bad.example.org:r4', 'xml'],
      ]);
      expect(run?.refusals[0]?.reason).to.match(/cannot carry/);
      expect(run?.warnings.some((w) => /clock runs \d+ s ahead/.test(w))).to.equal(true);
      expect(await hub.store.lastFailure('harvest', 'bad')).to.equal(null);
    });

    it('records a run the source stopped, with why, and the next complete run after it', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(5);
      fake.faults = [{ when: (q) => q.resumptionToken?.startsWith('2|') === true, times: 10, fault: 'malformed' }];
      hub = await openHub(db());
      const first = await harvestOnce(hub, source('bad', fake.baseUrl));
      expect(first.summary.completed).to.equal(false);
      const failure = await hub.store.lastFailure('harvest', 'bad');
      expect(failure).to.include({ outcome: 'stopped', error: first.summary.error });
      expect(failure?.error).to.match(/page 2 .* is not an OAI-PMH response/);
      expect(failure?.counts).to.include({ pages: 1, records: 2, inserted: 2, retries: 3 });

      fake.faults = [];
      const second = await harvestOnce(hub, source('bad', fake.baseUrl));
      expect(second.summary.completed).to.equal(true);
      expect((await hub.store.latestRuns('harvest', 'bad')).map((r) => r.outcome)).to.deep.equal(['completed', 'stopped']);
      expect((await hub.store.lastFailure('harvest', 'bad'))?.id).to.equal(failure?.id);
    });

    it('records a run stopped between two pages as interrupted, and the stop goes on to the caller', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(5);
      hub = await openHub(db());
      const stop = new HarvestInterrupted('the server is stopping');
      const stopped = await harvestOnce(hub, source('bad', fake.baseUrl), {
        betweenPages: () => {
          throw stop;
        },
      }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(stopped).to.equal(stop);
      const [run] = await hub.store.latestRuns('harvest', 'bad');
      expect(run).to.include({ outcome: 'interrupted', error: 'the server is stopping' });
      expect(run?.counts).to.include({ pages: 1, records: 2, inserted: 2 });
    });

    it('keeps the latest runs of each source and the first refusals of a run, and totals that pruning never lowers', async () => {
      hub = await openHub(db());
      const refusals = Array.from({ length: MAX_RUN_REFUSALS + 5 }, (_, i) => ({
        page: 1 + Math.floor(i / 100),
        identifier: `oai:x:${i}`,
        field: 'xml',
        reason: 'bad',
      }));
      for (let i = 0; i < RUNS_KEPT + 5; i++) {
        await hub.store.recordRun(
          report({
            started: 1_700_000_000 + i,
            counts: { ...NO_COUNTS, refused: i === RUNS_KEPT + 4 ? refusals.length : 1 },
            ...(i === RUNS_KEPT + 4 && { refusals }),
          }),
        );
      }
      await hub.store.recordRun(report({ source: 'other' }));
      const kept = await hub.store.latestRuns('harvest', 'many', 1000);
      expect(kept).to.have.length(RUNS_KEPT);
      expect(kept.map((r) => r.started)).to.deep.equal(Array.from({ length: RUNS_KEPT }, (_, i) => 1_700_000_000 + RUNS_KEPT + 4 - i));
      expect(kept[0]?.refusals).to.have.length(MAX_RUN_REFUSALS);
      expect(kept[0]?.refusals[MAX_RUN_REFUSALS - 1]?.identifier).to.equal(`oai:x:${MAX_RUN_REFUSALS - 1}`);
      expect(kept[0]?.refusalsOmitted).to.equal(5);
      expect(await hub.store.latestRuns('harvest', 'other')).to.have.length(1);
      // Pruned runs take their refusals with them.
      const rows = (await hub.knex('run_refusals').count({ n: '*' }).first()) as { n: number | string };
      expect(Number(rows.n)).to.equal(MAX_RUN_REFUSALS);
      const totals = await hub.store.runTotals();
      expect(totals).to.deep.include({ kind: 'harvest', source: 'many', outcome: 'completed', runs: RUNS_KEPT + 5, refused: RUNS_KEPT + 4 + refusals.length });
      expect(totals).to.deep.include({ kind: 'harvest', source: 'other', outcome: 'completed', runs: 1, refused: 0 });
    });

    it('shows a source with its latest runs, warnings and refusals (sources NAME), as JSON too, and refuses an unknown name', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 3 });
      fake.records = records(4);
      (fake.records[3] as FakeRecord).title = 'nul\u0000';
      hub = await openHub(db());
      await harvestOnce(hub, source('bad', fake.baseUrl));
      fake.faults = [{ when: (q) => q.verb === 'Identify', times: 10, fault: '500' }];
      await harvestOnce(hub, source('bad', fake.baseUrl));
      await hub.close();
      hub = undefined;

      const text = await sources(db(), ['bad']);
      expect(text.code).to.equal(0);
      const lines = text.stdout.split('\n');
      expect(lines[0]).to.equal(`bad ${fake.baseUrl}`);
      const runs = lines.indexOf('  runs, newest first:');
      expect(runs).to.be.greaterThan(0);
      expect(lines[runs + 1]).to.match(
        /^ {4}\S+ to \S+: stopped \(bad: .*500.*\); 0 pages, 0 records: inserted 0, updated 0, unchanged 0, deleted 0, refused 0, 3 retries$/,
      );
      expect(lines[runs + 2]).to.match(/^ {4}\S+ to \S+: completed; 2 pages, 4 records: inserted 3, updated 0, unchanged 0, deleted 0, refused 1$/);
      expect(lines[runs + 3]).to.match(/^ {6}refused: page 2, oai:bad\.example\.org:r4, field xml: holds what an XML 1\.0 document/);

      const json = await sources(db(), ['bad', '--json']);
      expect(json.code).to.equal(0);
      const one = JSON.parse(json.stdout) as { name: string; runs: StoredRun[]; lastRun: StoredRun };
      expect(one.name).to.equal('bad');
      expect(one.runs.map((r) => r.outcome)).to.deep.equal(['stopped', 'completed']);
      expect(one.runs[1]?.refusals).to.deep.equal([{ page: 2, identifier: 'oai:bad.example.org:r4', field: 'xml', reason: one.runs[1]?.refusals[0]?.reason }]);
      expect(one.lastRun.id).to.equal(one.runs[0]?.id);

      const all = JSON.parse((await sources(db(), ['--json'])).stdout) as { name: string; lastRun: StoredRun | null; runs?: unknown }[];
      expect(all.map((s) => [s.name, s.lastRun?.outcome, s.runs])).to.deep.equal([['bad', 'stopped', undefined]]);
      const summary = await sources(db(), []);
      expect(summary.stdout).to.match(/\n {2}last run \S+ to \S+: stopped \(bad: /);

      const unknown = await sources(db(), ['nobody']);
      expect(unknown.code).to.equal(2);
      expect(unknown.stderr).to.equal('oai-steward sources: no source named "nobody" in the configuration or the store\n');
      expect((await sources(db(), ['a', 'b'])).stderr).to.equal(`oai-steward sources: name one source\n\n${SOURCES_USAGE}`);
    });

    it('counts runs and refused records by source and outcome on /metrics, and shows the last failure on the page of the source set', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 3 });
      fake.records = records(4);
      (fake.records[0] as FakeRecord).title = 'nul\u0000';
      hub = await openHub(db());
      await harvestOnce(hub, source('bad', fake.baseUrl));
      fake.faults = [{ when: (q) => q.verb === 'ListRecords', times: 10, fault: 'not-xml' }];
      await harvestOnce(hub, source('bad', fake.baseUrl));
      await hub.close();
      hub = undefined;

      await serving(db(), ENV, async (port) => {
        const metrics = (await request(port, { path: '/metrics' })).body.toString();
        expect(metrics).to.include('oai_runs_total{kind="harvest",source="bad",outcome="completed"} 1\n');
        expect(metrics).to.include('oai_runs_total{kind="harvest",source="bad",outcome="stopped"} 1\n');
        expect(metrics).to.include('oai_run_refused_records_total{kind="harvest",source="bad",outcome="completed"} 1\n');

        const page = await request(port, { query: 'verb=ListRecords&metadataPrefix=oai_dc&set=source%3Abad', headers: { accept: 'text/html' } });
        expect(page.status).to.equal(200);
        const html = page.body.toString();
        expect(html).to.include('The last harvest of <code dir="auto">bad</code> that did not complete');
        expect(html).to.match(/was stopped: <span dir="auto">bad ListRecords oai_dc page 1 \([^)]*\) is not an OAI-PMH response after 4 attempts/);
        // Another set's page says nothing of it.
        const other = await request(port, { query: 'verb=ListRecords&metadataPrefix=oai_dc', headers: { accept: 'text/html' } });
        expect(other.body.toString()).to.not.include('did not complete');
      });
    });

    it('reports a load run with its refused records', async () => {
      const file = `${db().dir}/records.ndjson`;
      const fs = await import('node:fs');
      fs.writeFileSync(
        file,
        [
          JSON.stringify({ id: 'good', datestamp: '2024-01-01T00:00:00Z', dc: { title: ['Good'] } }),
          JSON.stringify({ id: 'bad', datestamp: '2024-01-01T00:00:00Z', dc: { title: ['nul\u0000'] } }),
        ].join('\n'),
      );
      const run = await cli(db(), ['load', '--partial', file], { env: ENV });
      expect(run.code).to.equal(1);
      hub = await openHub(db());
      const [load] = await hub.store.latestRuns('load', null);
      expect(load).to.include({ kind: 'load', source: null, outcome: 'completed' });
      expect(load?.counts).to.include({ records: 2, inserted: 1, refused: 1 });
      expect(load?.refusals.map((r) => [r.page, r.identifier])).to.deep.equal([[null, 'bad']]);
    });
  });
});
