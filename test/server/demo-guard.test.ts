/**
 * No demo in production: the demo repository is loaded only when no
 * namespace is configured (or `seedDemo: true` says so), and a store that
 * holds the demo under another namespace is refused by `serve` and `load`,
 * with a message naming the choices, until `remove-demo` takes it out:
 * erased while nothing else was published, or as tombstones afterwards.
 * Run as the operator runs it, `oai-steward` in a child process, on each
 * test database.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../server/config';
import { startServer } from '../../server/serve';
import { demoHolding, demoInternalIds, forgetDemoKey } from '../../server/demo-guard';
import { keyFileText } from '../../server/log-key';
import { cli, forEachCliDatabase, startCli, type CliDb, type CliRun } from '../loader/helpers';
import { DEMO_NAMESPACE } from '../helpers/demo-records';
import { forEachThrowawayDatabase } from '../helpers/db';
import { KnexStore } from '../../server/store/knex-store';
import { createIdPolicy } from '../../lib/ids/policy';

const REAL = 'repository.example.edu';

/** Runs `serve` and returns how it ended; a server that does start is stopped after a bounded wait and reported as started. */
async function serveOutcome(db: CliDb, env: NodeJS.ProcessEnv): Promise<CliRun | 'started'> {
  const run = startCli(db, ['serve'], { env: { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env } });
  let started = false;
  run.child.stdout?.on('data', (d: Buffer) => {
    if (d.toString().includes('oai-steward serving')) {
      started = true;
      run.child.kill('SIGTERM');
    }
  });
  const timer = setTimeout(() => run.child.kill('SIGKILL'), 60_000);
  try {
    const done = await run.done;
    return started ? 'started' : done;
  } finally {
    clearTimeout(timer);
  }
}

function ndjson(db: CliDb, ids: readonly string[]): string {
  const file = path.join(db.dir, 'records.ndjson');
  fs.writeFileSync(
    file,
    ids.map((id) => `${JSON.stringify({ id, datestamp: '2024-01-01T00:00:00Z', dc: { title: [`Record ${id}`], creator: ['Doe, Jane'] } })}\n`).join(''),
  );
  return file;
}

describe("the demo's publication log key", () => {
  it("is removed by remove-demo when it names the erased demo's log, and kept when it names another", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-key-'));
    try {
      const demo = path.join(dir, 'demo.key');
      const other = path.join(dir, 'other.key');
      fs.writeFileSync(demo, keyFileText(`${DEMO_NAMESPACE}/log`, crypto.randomBytes(32)));
      fs.writeFileSync(other, keyFileText('repo.example.org/log', crypto.randomBytes(32)));
      expect([forgetDemoKey(demo, DEMO_NAMESPACE), forgetDemoKey(other, DEMO_NAMESPACE), forgetDemoKey(undefined, DEMO_NAMESPACE)]).to.deep.equal([
        true,
        false,
        false,
      ]);
      expect([fs.existsSync(demo), fs.existsSync(other)]).to.deep.equal([false, true]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('seedDemo by default', () => {
  const cases: { name: string; env: NodeJS.ProcessEnv; seeds: boolean }[] = [
    { name: 'seeds the demo when no namespace is configured', env: {}, seeds: true },
    { name: 'does not seed it once a namespace is configured', env: { OAI_NAMESPACE: REAL }, seeds: false },
    { name: 'seeds it under a configured namespace when seedDemo is true explicitly', env: { OAI_NAMESPACE: REAL, OAI_SEED_DEMO: 'true' }, seeds: true },
    { name: 'does not seed it without a namespace when seedDemo is false', env: { OAI_SEED_DEMO: 'false' }, seeds: false },
  ];
  for (const c of cases) it(c.name, () => expect(loadConfig(c.env).seedDemo).to.equal(c.seeds));

  it('reads a namespace from the configuration file as configured', () => {
    const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'oai-steward-seed-'));
    try {
      fs.writeFileSync(path.join(dir, 'c.yaml'), `namespace: ${REAL}\n`);
      expect(loadConfig({}, dir, { file: 'c.yaml' }).seedDemo).to.equal(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('serving an empty store under a configured namespace', function () {
  this.timeout(60_000);
  forEachThrowawayDatabase((db) => {
    it('publishes nothing: the demo stays out', async () => {
      const running = await startServer(loadConfig({ DATABASE_URL: db().url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', OAI_NAMESPACE: REAL }));
      try {
        expect(await running.provider.store.earliestDatestamp()).to.equal(null);
      } finally {
        await running.stop();
      }
    });

    it('publishes the demo under the demo namespace when none is configured, and remembers it', async () => {
      const running = await startServer(loadConfig({ DATABASE_URL: db().url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }));
      try {
        expect(await demoHolding(running.provider.store)).to.deep.equal({ namespace: DEMO_NAMESPACE, live: 275, others: 0 });
      } finally {
        await running.stop();
      }
    });
  });
});

describe('a store that holds the demo, under another namespace', function () {
  this.timeout(180_000);
  forEachCliDatabase((db) => {
    beforeEach(async () => {
      const seeded = await cli(db(), ['seed']);
      expect(seeded.code, seeded.stderr).to.equal(0);
    });

    it('is refused by serve with exit status 2, the choices and no stack trace', async () => {
      const run = await serveOutcome(db(), { OAI_NAMESPACE: REAL });
      if (run === 'started') throw new Error('serve started on a store holding the demo under another namespace');
      expect(run.code).to.equal(2);
      expect(run.stderr).to.contain(`the demo repository (275 live items published under the namespace ${DEMO_NAMESPACE})`);
      expect(run.stderr).to.contain(`the configuration names the namespace ${REAL}`);
      expect(run.stderr).to.contain('oai-steward remove-demo');
      expect(run.stderr).to.contain('a new, empty database');
      expect(run.stderr).to.contain(`configure the namespace ${DEMO_NAMESPACE}`);
      expect(run.stderr).not.to.match(/\n\s+at /);
      expect(run.stdout).not.to.contain('oai-steward serving');
    });

    it('is refused by load, which writes nothing', async () => {
      const run = await cli(db(), ['load', ndjson(db(), ['thesis-1'])], { env: { OAI_NAMESPACE: REAL } });
      expect(run.code).to.equal(2);
      expect(run.stderr).to.contain('oai-steward remove-demo');
      const ids = (await db().knex()('items').select('internal_id')) as { internal_id: string }[];
      expect(ids.map((r) => r.internal_id)).not.to.include('thesis-1');
    });

    it('is still served under the demo namespace', async () => {
      expect(await serveOutcome(db(), { OAI_NAMESPACE: DEMO_NAMESPACE })).to.equal('started');
    });

    it('is erased by remove-demo while nothing else was published, and then served under the new namespace', async () => {
      const removed = await cli(db(), ['remove-demo'], { env: { OAI_NAMESPACE: REAL } });
      expect(removed.code, removed.stderr).to.equal(0);
      expect(removed.stdout).to.contain('erased the demo repository (285 items');
      const knex = db().knex();
      // The demo's publication log goes with it.
      for (const table of ['items', 'records', 'identifiers', 'sets', 'item_sets', 'log_leaves', 'log_tiles', 'log_head']) {
        expect(Number(((await knex(table).count({ n: '*' }).first()) as { n: number | string }).n), table).to.equal(0);
      }
      expect(await serveOutcome(db(), { OAI_NAMESPACE: REAL })).to.equal('started');
      const loaded = await cli(db(), ['load', ndjson(db(), ['thesis-1'])], { env: { OAI_NAMESPACE: REAL } });
      expect(loaded.code, loaded.stderr).to.equal(0);
      const row = (await knex('items').select('identifier').where('internal_id', 'thesis-1').first()) as { identifier: string };
      expect(row.identifier).to.equal(`oai:${REAL}:thesis-1`);
    });

    it('is not erased once other records were published: their identifiers stay, the demo becomes tombstones with --tombstones', async () => {
      const loaded = await cli(db(), ['load', ndjson(db(), ['thesis-1'])]);
      expect(loaded.code, loaded.stderr).to.equal(0);
      const refused = await cli(db(), ['remove-demo'], { env: { OAI_NAMESPACE: REAL } });
      expect(refused.code).to.equal(1);
      expect(refused.stderr).to.contain('1 identifiers other than the demo');
      expect(refused.stderr).to.contain('--tombstones');
      expect((await serveOutcome(db(), { OAI_NAMESPACE: REAL })) as CliRun).to.include({ code: 2 });

      const tombstoned = await cli(db(), ['remove-demo', '--tombstones'], { env: { OAI_NAMESPACE: REAL } });
      expect(tombstoned.code, tombstoned.stderr).to.equal(0);
      expect(tombstoned.stdout).to.contain('turned 275 demo items into tombstones');
      const knex = db().knex();
      const rows = (await knex('items').select('internal_id', 'deleted').whereIn('internal_id', demoInternalIds())) as { deleted: boolean | number }[];
      expect(rows).to.have.length(285);
      expect(rows.every((r) => Boolean(r.deleted))).to.equal(true);
      expect(await demoHolding(new KnexStore({ knex, policy: createIdPolicy({ namespace: REAL }) }))).to.equal(null);
      expect(await serveOutcome(db(), { OAI_NAMESPACE: REAL })).to.equal('started');
    });
  });
});
