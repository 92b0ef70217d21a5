/**
 * `oai-steward harvest` and `oai-steward sources` as an operator runs them:
 * a summary like the loader's and exit status 0/1/2, `--json`, a run
 * killed (SIGKILL) while it waits for a page resumes at that page, and the
 * state per source.
 */
import { expect } from 'chai';
import { cli, forEachCliDatabase, startCli, type CliDb } from '../loader/helpers';
import { startFakeProvider, type FakeProvider, type FakeRecord } from './provider';

/** Whether the store comes to hold `n` committed pages of this run of source `bad` (within 20 s: a page takes milliseconds). */
async function committedPages(db: CliDb, n: number): Promise<boolean> {
  const pages = async (): Promise<number> => {
    const row = (await db.knex()('harvest_state').where({ source: 'bad' }).first()) as { run_pages: number | string } | undefined;
    return Number(row?.run_pages ?? 0);
  };
  for (let i = 0; i < 400 && (await pages()) < n; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return (await pages()) >= n;
}

function records(n: number): FakeRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    id: String(i + 1),
    datestamp: `2024-01-${String(i + 1).padStart(2, '0')}T00:00:00Z`,
    title: `Record ${i + 1}`,
  }));
}

describe('oai-steward harvest and sources', function () {
  this.timeout(120_000);
  let fake: FakeProvider | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  forEachCliDatabase((db) => {
    it('prints a summary, exits 1 on a refusal and 0 on a clean run, and shows the state', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 3 });
      fake.records = records(5);
      (fake.records[1] as FakeRecord).title = 'nul\u0000';
      const env = { OAI_SEED_DEMO: 'false' };
      // No migrate first: a harvest into a new store creates it, as a load does.
      const first = await cli(db(), ['harvest', fake.baseUrl, '--name', 'bad'], { env });
      expect(first.stderr).to.match(
        /^refused: bad page 1 \(oai:bad\.example\.org:2\): record "bad:oai:bad\.example\.org:2", field xml: holds what an XML 1\.0 document in UTF-8 cannot carry/m,
      );
      expect(first.stdout).to.equal('bad: inserted 4, updated 0, unchanged 0, deleted 0, refused 1 (5 records, 2 pages); complete\n');
      expect(first.code).to.equal(1);

      (fake.records[1] as FakeRecord).title = 'fixed';
      (fake.records[1] as FakeRecord).datestamp = '2024-03-05T11:00:00Z';
      fake.responseDate = '2024-03-06T00:00:00Z';
      const second = await cli(db(), ['harvest', fake.baseUrl, '--name', 'bad', '--json'], { env });
      expect(second.code).to.equal(0);
      const [summary] = JSON.parse(second.stdout) as { inserted: number; completed: boolean; lists: { from: string }[] }[];
      expect(summary).to.include({ inserted: 1, completed: true });
      expect(summary?.lists[0]?.from).to.equal('2024-03-05T09:59:59Z');

      const sources = await cli(db(), ['sources'], { env });
      expect(sources.code).to.equal(0);
      // A source harvested by its URL is listed with that URL (it can be harvested again by its name).
      expect(sources.stdout.startsWith(`bad ${fake.baseUrl}\n`)).to.equal(true);
      expect(sources.stdout).to.match(
        /^bad \S+\n  oai_dc: last success \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, from 2024-03-05T09:59:59Z; 6 records, 1 refused\n  last run \S+ to \S+: completed; 1 pages, 1 records: inserted 1, updated 0, unchanged 0, deleted 0, refused 0\n$/,
      );
      const json = JSON.parse((await cli(db(), ['sources', '--json'], { env })).stdout) as { name: string; lists: { records: number }[] }[];
      expect(json.map((s) => [s.name, s.lists[0]?.records])).to.deep.equal([['bad', 6]]);
    });

    it('resumes a run killed while it waited for a page', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2, slowMs: 60_000 });
      fake.records = records(7);
      const third = (q: Record<string, string>): boolean => q.resumptionToken?.startsWith('4|') === true;
      fake.faults = [{ when: third, times: 1, fault: 'slow' }];
      const env = { OAI_SEED_DEMO: 'false' };
      // The store made first, as an operator may (a harvest would make it too).
      expect((await cli(db(), ['migrate'], { env })).code).to.equal(0);
      const run = startCli(db(), ['harvest', fake.baseUrl, '--name', 'bad'], { env });
      // Page 3 is asked for while page 2 is written: killed once page 2 is committed, the run waits for page 3 only.
      for (let i = 0; i < 400 && !fake.requests.some((r) => third(r.query)); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(fake.requests.some((r) => third(r.query))).to.equal(true);
      expect(await committedPages(db(), 2)).to.equal(true);
      run.child.kill('SIGKILL');
      expect((await run.done).signal).to.equal('SIGKILL');
      const again = await cli(db(), ['harvest', fake.baseUrl, '--name', 'bad'], { env });
      expect(again.stdout).to.equal('bad: inserted 3, updated 0, unchanged 0, deleted 0, refused 0 (3 records, 2 pages, 1 lists resumed); complete\n');
      expect(again.code).to.equal(0);
    });

    it('stops on SIGINT after the page being written, says what it kept, exits 130, and the next run resumes', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2, slowMs: 3000 });
      fake.records = records(7);
      const third = (q: Record<string, string>): boolean => q.resumptionToken?.startsWith('4|') === true;
      fake.faults = [{ when: third, times: 1, fault: 'slow' }];
      const env = { OAI_SEED_DEMO: 'false' };
      expect((await cli(db(), ['migrate'], { env })).code).to.equal(0);
      const run = startCli(db(), ['harvest', fake.baseUrl, '--name', 'bad'], { env });
      for (let i = 0; i < 400 && !fake.requests.some((r) => third(r.query)); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(fake.requests.some((r) => third(r.query))).to.equal(true);
      // Interrupted while it waits for page 3 (page 2 committed): page 3 is the page being written when it comes.
      expect(await committedPages(db(), 2)).to.equal(true);
      run.child.kill('SIGINT');
      const stopped = await run.done;
      expect(stopped.code, stopped.stderr).to.equal(130);
      expect(stopped.stderr).to.match(
        /^oai-steward harvest: interrupted by SIGINT after 3 pages \(6 records\) committed in this run, each with its list's checkpoint; .*run the same command again to resume where it stopped$/m,
      );
      const again = await cli(db(), ['harvest', fake.baseUrl, '--name', 'bad'], { env });
      expect(again.stdout).to.equal('bad: inserted 1, updated 0, unchanged 0, deleted 0, refused 0 (1 records, 1 pages, 1 lists resumed); complete\n');
      expect(again.code).to.equal(0);
    });

    it('refuses what it cannot do with exit status 2', async () => {
      const none = await cli(db(), ['harvest']);
      expect(none.code).to.equal(2);
      expect(none.stderr).to.match(/no BASE_URL given and the configuration declares no sources/);
      const bad = await cli(db(), ['harvest', 'http://127.0.0.1:1/oai', '--name', 'a:b']);
      expect(bad.code).to.equal(2);
      expect(bad.stderr).to.match(/--name "a:b" must be a word/);
      const unknown = await cli(db(), ['harvest', 'http://127.0.0.1:1/oai', '--frm', '2024-01-01']);
      expect(unknown.code).to.equal(2);
      expect(unknown.stderr).to.match(/unknown option --frm/);
    });
  });
});
