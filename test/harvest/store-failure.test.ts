/**
 * A harvest the database ends. On PostgreSQL the harvest's connections are
 * killed (`pg_terminate_backend`, from a connection of the test's own) while
 * a page is being written: `oai-steward harvest` ends with one line saying
 * what happened, that nothing after the last committed page was written and
 * to run again, exit status 1; its lock went with its session, the failure
 * is in `sources`, and a rerun resumes. On SQLite the disk fills up
 * (`PRAGMA max_page_count` pins the file at its size, so SQLite answers
 * SQLITE_FULL as on a full disk): the run ends with the same kind of line,
 * its lock is released, and a rerun resumes. `sources` never waits on a
 * store that does not answer.
 */
import crypto from 'node:crypto';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { loadConfig } from '../../server/config';
import { createStore } from '../../server/provider';
import { migrate } from '../../server/db/migrations';
import { harvestSource } from '../../server/harvest/harvest';
import { HarvestStoreFailure } from '../../server/harvest/harvest-types';
import { runSourcesCommand } from '../../server/harvest/cli';
import type { StoredRun } from '../../lib/store';
import { forEachThrowawayDatabase } from '../helpers/db';
import { cli, startCli } from '../loader/helpers';
import { HUB_NAMESPACE, openHub, source, type Hub } from './hub';
import { startFakeProvider, type FakeProvider, type FakeRecord } from './provider';

function records(n: number, title: (i: number) => string = (i) => `Record ${i}`): FakeRecord[] {
  return Array.from({ length: n }, (_, i) => ({ id: `r${i + 1}`, datestamp: `2024-01-${String(i + 1).padStart(2, '0')}T00:00:00Z`, title: title(i + 1) }));
}

const ENV = { OAI_NAMESPACE: HUB_NAMESPACE, OAI_SEED_DEMO: 'false', OAI_BASE_URL: 'http://hub.example.org/oai', LOG_LEVEL: 'silent' };
const ONE_LINE =
  /^oai-steward harvest: bad: the connection to the database was lost or could not be made \(terminating connection due to administrator command\); nothing after the last committed page was written; run the harvest again to resume\n$/;

describe('a harvest the database ends', function () {
  this.timeout(180_000);
  let fake: FakeProvider | undefined;
  let hub: Hub | undefined;
  afterEach(async () => {
    await fake?.close();
    await hub?.close();
    fake = undefined;
    hub = undefined;
  });

  forEachThrowawayDatabase((db, kind) => {
    if (kind === 'postgres') {
      it('ends with one line when its connections are killed mid-page, keeps the failure in sources, and resumes', async () => {
        fake = await startFakeProvider({ granularity: 'second', pageSize: 3 });
        fake.records = records(7);
        const knex = db().knex();
        await migrate(knex);
        // The write of page 2 waits in the database (its fourth record's insert sleeps) until the test kills it.
        await knex.raw(`CREATE FUNCTION slow_item() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(120); RETURN NEW; END $$`);
        await knex.raw(`CREATE TRIGGER slow_item BEFORE INSERT ON items FOR EACH ROW WHEN (NEW.internal_id LIKE '%:r4') EXECUTE FUNCTION slow_item()`);
        // Every connection of the harvest (its pool, its advisory lock's) carries this name, and only those.
        const name = `oai_kill_${crypto.randomBytes(6).toString('hex')}`;
        const harvesting = { ...db(), url: `${db().url}&application_name=${name}` };
        const run = startCli(harvesting, ['harvest', fake.baseUrl, '--name', 'bad'], { env: ENV });
        let sleeping = 0;
        for (let i = 0; i < 1200 && sleeping === 0; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          const r = (await knex.raw(`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = ? AND wait_event = 'PgSleep'`, [name])) as {
            rows: { n: string }[];
          };
          sleeping = Number(r.rows[0]?.n ?? 0);
        }
        expect(sleeping).to.equal(1);
        const killed = (await knex.raw(`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = ?`, [name])) as {
          rows: { ok: boolean }[];
        };
        // The page's transaction and the advisory lock's connection at least.
        expect(killed.rows.filter((r) => r.ok).length).to.be.at.least(2);
        const ended = await run.done;
        expect(ended.stderr).to.match(ONE_LINE);
        expect(ended.code).to.equal(1);
        expect(ended.stdout).to.equal('');
        const items = async (): Promise<number> => Number(((await knex('items').count({ n: '*' }).first()) as { n: string }).n);
        expect(await items()).to.equal(3);

        await knex.raw('DROP TRIGGER slow_item ON items');
        const shown = await cli(db(), ['sources', 'bad', '--json'], { env: ENV });
        const report = JSON.parse(shown.stdout) as { lastRun: StoredRun };
        expect(report.lastRun).to.include({ outcome: 'failed' });
        expect(report.lastRun.counts).to.include({ pages: 1, inserted: 3 });
        expect(report.lastRun.error).to.match(/^the connection to the database was lost/);

        // The lock went with the killed session: the rerun takes it, and resumes after page 1.
        const again = await cli(db(), ['harvest', fake.baseUrl, '--name', 'bad'], { env: ENV });
        expect(again.stdout).to.equal('bad: inserted 4, updated 0, unchanged 0, deleted 0, refused 0 (4 records, 2 pages, 1 lists resumed); complete\n');
        expect(again.code).to.equal(0);
        expect(await items()).to.equal(7);
      });
    } else {
      it('ends with one line on a full disk, releases its lock, and resumes', async () => {
        fake = await startFakeProvider({ granularity: 'second', pageSize: 3 });
        // Titles long enough that a page needs new pages of the file.
        fake.records = records(7, (i) => `Record ${i} ${'x'.repeat(60_000)}`);
        hub = await openHub(db());
        const knex = db().knex();
        await migrate(knex);
        // A store on a connection of the test's own: the page limit is a setting of that connection.
        const store = createStore(loadConfig({ ...ENV, DATABASE_URL: db().url }), knex, hub.formats);
        const deps = { store, formats: hub.formats, repository: { name: 'Test hub', baseUrl: 'http://hub.example.org/oai' } };
        let pages = 0;
        const full = await harvestSource(deps, source('bad', fake.baseUrl), {
          client: { backoffBaseMs: 1, backoffMaxMs: 4, sleep: async () => undefined },
          betweenPages: async () => {
            if (++pages !== 1) return;
            const count = (await knex.raw('PRAGMA page_count')) as { page_count: number }[];
            await knex.raw(`PRAGMA max_page_count = ${Number(count[0]?.page_count)}`);
          },
        }).then(
          () => null,
          (err: unknown) => err,
        );
        expect(full).to.be.instanceOf(HarvestStoreFailure);
        expect((full as Error).message).to.match(
          /^bad: the database's disk is full \([^\n]+\); nothing after the last committed page was written; run the harvest again to resume$/,
        );
        expect((full as Error).message).to.not.include('\n');
        expect(pages).to.equal(1);
        const items = async (): Promise<number> => Number(((await knex('items').count({ n: '*' }).first()) as { n: string }).n);
        expect(await items()).to.equal(3);

        await knex.raw('PRAGMA max_page_count = 1073741823');
        // Released: this process is alive, so a lock row left behind would still hold the source.
        const lock = await store.acquireHarvestLock('bad');
        expect(lock).to.not.equal(null);
        await lock?.release();
        const again = await harvestSource(deps, source('bad', fake.baseUrl), { client: { backoffBaseMs: 1, backoffMaxMs: 4, sleep: async () => undefined } });
        expect(again).to.include({ completed: true, resumed: 1, inserted: 4 });
        expect(await items()).to.equal(7);
      });
    }

    it('sources says in one line that the store did not answer, rather than waiting on it', async () => {
      const config = loadConfig({ ...ENV, DATABASE_URL: db().url });
      let err = '';
      const stderr = new Writable({
        write(chunk: Buffer, _enc, done) {
          err += chunk.toString();
          done();
        },
      });
      // A store that never answers: opening it never ends.
      const never = (): Promise<never> => new Promise<never>(() => undefined);
      const code = await runSourcesCommand(['bad'], config, never, { stdin: process.stdin, stdout: process.stdout, stderr } as never, { deadlineMs: 200 });
      expect(code).to.equal(1);
      expect(err).to.equal('oai-steward sources: the store did not answer within 0.2 s; nothing shown (is another process holding it, or its disk full?)\n');
    });
  });
});
