/**
 * The loader records each run once, in the store's report of runs, however
 * it ends, so a server's `/metrics` and `oai-steward stats` show the last
 * one whichever process ran it: here `oai-steward load` runs in a child
 * process and a server opened the way production opens it reads the run
 * back, on each test database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { request } from '../../helpers/server';
import { cli, forEachCliDatabase, serving, type CliDb } from '../../loader/helpers';
import { createKnex } from '../../../server/db/connection';
import { KnexStore } from '../../../server/store/knex-store';
import { createIdPolicy } from '../../../lib/ids/policy';
import type { StoredRun } from '../../../lib/store';
import { TEST_NAMESPACE } from '../../helpers/db';

/** The value of an unlabelled sample of a Prometheus exposition. */
function gauge(text: string, name: string): number {
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  if (!m) throw new Error(`no sample ${name} in\n${text}`);
  return Number(m[1]);
}

function records(db: CliDb, lines: readonly object[]): string {
  const file = path.join(db.dir, `records-${lines.length}.ndjson`);
  fs.writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return file;
}

/** The load runs the store keeps, newest first (a SQLite store through a knex of its own, as the CLI left it). */
async function loadRuns(db: CliDb): Promise<StoredRun[]> {
  const knex = db.name === 'sqlite' ? createKnex(db.url) : db.knex();
  try {
    return await new KnexStore({ knex, policy: createIdPolicy({ namespace: TEST_NAMESPACE, mode: 'auto' }) }).latestRuns('load', null);
  } finally {
    if (db.name === 'sqlite') await knex.destroy();
  }
}

const good = (id: string): object => ({ id, datestamp: '2024-01-01T00:00:00Z', dc: { title: [`Record ${id}`], creator: ['Doe, Jane'] } });

describe("the loader's last run, seen from another process", function () {
  this.timeout(120_000);
  forEachCliDatabase((db) => {
    it('shows 0 in /metrics and "none" in stats before any load', async () => {
      const migrated = await cli(db(), ['migrate']);
      expect(migrated.code, migrated.stderr).to.equal(0);
      const text = await serving(db(), {}, async (port) => (await request(port, { path: '/metrics' })).body);
      expect(gauge(text, 'oai_loader_last_run_records')).to.equal(0);
      expect(gauge(text, 'oai_loader_last_run_finished_timestamp_seconds')).to.equal(0);
      const stats = await cli(db(), ['stats']);
      expect(stats.stdout).to.match(/last load\n {2}\(none on this store\)/);
      expect((JSON.parse((await cli(db(), ['stats', '--json'])).stdout) as { lastLoad: unknown }).lastLoad).to.equal(null);
    });

    it("shows a committed load of the CLI in a server's /metrics and in stats", async () => {
      const before = Date.now();
      const loaded = await cli(db(), ['load', records(db(), [good('a'), good('b'), good('c')])]);
      expect(loaded.code, loaded.stderr).to.equal(0);
      const after = Date.now();
      const text = await serving(db(), {}, async (port) => (await request(port, { path: '/metrics' })).body);
      expect(gauge(text, 'oai_loader_last_run_records')).to.equal(3);
      expect(gauge(text, 'oai_loader_last_run_refusals')).to.equal(0);
      expect(gauge(text, 'oai_loader_last_run_duration_seconds')).to.be.above(0);
      const finished = gauge(text, 'oai_loader_last_run_finished_timestamp_seconds');
      // The store keeps when a run ended in whole seconds.
      expect(finished).to.be.within(Math.floor(before / 1000), after / 1000);

      const json = JSON.parse((await cli(db(), ['stats', '--json'])).stdout) as {
        lastLoad: { records: number; refusals: number; read: number; outcome: string; finished: number; error: string | null };
      };
      expect(json.lastLoad).to.include({ records: 3, refusals: 0, read: 3, outcome: 'completed', finished: finished * 1000, error: null });
      const text2 = (await cli(db(), ['stats'])).stdout;
      expect(text2).to.contain('  records    3 written, 0 refused, 3 read');
      expect(text2).to.match(/ {2}finished {3}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(completed\)/);
      expect((await loadRuns(db())).map((r) => [r.outcome, r.written])).to.deep.equal([['completed', 3]]);
    });

    it('shows a refused load as refused, with nothing written', async () => {
      const ok = await cli(db(), ['load', records(db(), [good('a')])]);
      expect(ok.code, ok.stderr).to.equal(0);
      const refused = await cli(db(), ['load', records(db(), [good('b'), { id: 'c', datestamp: 'yesterday', dc: { title: ['C'] } }])]);
      expect(refused.code).to.equal(1);
      const text = await serving(db(), {}, async (port) => (await request(port, { path: '/metrics' })).body);
      expect(gauge(text, 'oai_loader_last_run_records')).to.equal(0);
      expect(gauge(text, 'oai_loader_last_run_refusals')).to.equal(1);
      const json = JSON.parse((await cli(db(), ['stats', '--json'])).stdout) as { lastLoad: { outcome: string; read: number } };
      expect(json.lastLoad).to.include({ outcome: 'stopped', read: 2 });
    });

    it("shows a failed load's figures in /metrics and stats, not the load before it, and keeps both runs", async () => {
      const ok = await cli(db(), ['load', records(db(), [good('a'), good('b'), good('c')])]);
      expect(ok.code, ok.stderr).to.equal(0);
      const [completed] = await loadRuns(db());
      // A sets file that is not a JSON array fails the load inside its transaction: not a refusal, nothing written.
      const sets = path.join(db().dir, 'sets.json');
      fs.writeFileSync(sets, '{"spec": "physics"}');
      const failed = await cli(db(), ['load', '--sets', sets, records(db(), [good('d')])]);
      expect(failed.code, failed.stderr).to.not.equal(0);
      expect(failed.stderr).to.contain('expected a JSON array');

      const text = await serving(db(), {}, async (port) => (await request(port, { path: '/metrics' })).body);
      expect(gauge(text, 'oai_loader_last_run_records')).to.equal(0);
      expect(gauge(text, 'oai_loader_last_run_refusals')).to.equal(0);
      expect(gauge(text, 'oai_loader_last_run_finished_timestamp_seconds')).to.be.at.least(completed?.ended ?? Infinity);
      expect(text).to.match(/^oai_runs_total\{kind="load",source="",outcome="failed"\} 1$/m);
      expect(text).to.match(/^oai_runs_total\{kind="load",source="",outcome="completed"\} 1$/m);
      const json = JSON.parse((await cli(db(), ['stats', '--json'])).stdout) as { lastLoad: { outcome: string; records: number; error: string } };
      expect(json.lastLoad).to.include({ outcome: 'failed', records: 0 });
      expect(json.lastLoad.error).to.contain('expected a JSON array');

      const runs = await loadRuns(db());
      expect(runs.map((r) => [r.outcome, r.written, r.counts.inserted])).to.deep.equal([
        ['failed', 0, 0],
        ['completed', 3, 3],
      ]);
      expect(runs[1]?.id).to.equal(completed?.id);
    });
  });
});
