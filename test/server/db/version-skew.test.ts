/**
 * A store this code must not touch is refused by every command at once, as
 * the operator meets it: a child process per command, killed if it outlives
 * a bound. A store a newer oai-steward migrated (a migration this code does
 * not know) stops every command with exit status 2 and one line naming
 * both schemas and what to do, and is left byte for byte as it was; an
 * older store is refused by the commands that do not migrate, naming the
 * command that does; no command but serve, migrate, seed, load and harvest
 * makes a store where none is (a cron line run from another folder without the
 * configuration).
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createKnex } from '../../../server/db/connection';
import { migrationSource } from '../../../server/db/migrations';
import { forEachCliDatabase, ROOT, type CliDb, type CliRun } from '../../loader/helpers';

/** A run that did not end by itself within the bound, killed: the test fails on it. */
interface BoundedRun extends CliRun {
  readonly killed: boolean;
}

/**
 * Runs `oai-steward ARGS…` in `cwd` with exactly `env` (beside PATH and the
 * XML catalog) and kills it once `boundMs` has passed.
 */
function runBounded(args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; boundMs: number }): Promise<BoundedRun> {
  const child = spawn(
    process.execPath,
    ['-r', path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cjs', 'index.cjs'), path.join(ROOT, 'server', 'cli.ts'), ...args],
    {
      cwd: options.cwd,
      env: { PATH: process.env.PATH, XML_CATALOG_FILES: process.env.XML_CATALOG_FILES, LOG_LEVEL: 'silent', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  let killed = false;
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, options.boundMs);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, killed });
    }),
  );
}

/**
 * The bound on a refused command: 10 s beyond what starting the command
 * costs on this machine now (`oai-steward help`, which opens nothing), so a
 * busy machine's slow start-up is not counted against it while a command
 * that waits on anything (a pool, a timer, a lock) still exceeds it.
 */
async function boundMs(): Promise<number> {
  const started = process.hrtime.bigint();
  await runBounded(['help'], { cwd: ROOT, env: {}, boundMs: 120_000 });
  return 10_000 + Number((process.hrtime.bigint() - started) / 1_000_000n);
}

/** Every command that opens the store, with arguments it accepts. */
function commands(dir: string): string[][] {
  const input = path.join(dir, 'one.ndjson');
  fs.writeFileSync(input, `${JSON.stringify({ id: 'one', title: 'One', type: 'Text' })}\n`);
  return [
    ['serve'],
    ['migrate'],
    ['seed'],
    ['load', input],
    ['delete', 'one'],
    ['stats'],
    ['doctor'],
    ['dump', path.join(dir, 'dumps')],
    ['sources'],
    ['sets'],
    ['check', '--profile', 'driver'],
    ['harvest', 'http://127.0.0.1:9/oai', '--name', 'far'],
    ['id', 'mint-pdi', '--series', 'urn:pdi:example:reports', '--format', 'pdf'],
    ['rebuild-formats'],
    ['rebuild-sets'],
    ['remove-demo'],
  ];
}

/** The SQLite store's files and their SHA-256, or the PostgreSQL schema's tables and migration rows. */
async function fingerprint(db: CliDb): Promise<string> {
  if (db.name === 'sqlite') {
    const file = db.url.slice('sqlite:'.length);
    const dir = path.dirname(file);
    const files = fs.readdirSync(dir).filter((f) => f.startsWith(path.basename(file)));
    return files
      .sort()
      .map(
        (f) =>
          `${f} ${crypto
            .createHash('sha256')
            .update(fs.readFileSync(path.join(dir, f)))
            .digest('hex')}`,
      )
      .join('\n');
  }
  const knex = db.knex();
  const tables = (await knex('information_schema.tables')
    .where('table_schema', knex.raw('current_schema()'))
    .orderBy('table_name')
    .pluck('table_name')) as string[];
  const migrations = await knex('knex_migrations').select('name', 'batch').orderBy('id');
  const locks = await knex('knex_migrations_lock').select('*');
  return JSON.stringify({ tables, migrations, locks });
}

/** Adds a migration row this code does not know, as a newer oai-steward would have. */
async function addFutureMigration(db: CliDb): Promise<void> {
  const knex = db.name === 'sqlite' ? createKnex(db.url) : db.knex();
  try {
    await knex('knex_migrations').insert({ name: '099_future', batch: 99, migration_time: new Date() });
  } finally {
    if (db.name === 'sqlite') await knex.destroy();
  }
}

/** Takes the newest migration back, as a store an older oai-steward left. */
async function removeNewestMigration(db: CliDb): Promise<void> {
  const knex = db.name === 'sqlite' ? createKnex(db.url) : db.knex();
  try {
    await knex.migrate.down({ migrationSource });
  } finally {
    if (db.name === 'sqlite') await knex.destroy();
  }
}

describe('a store from another version', function () {
  this.timeout(600_000);
  let bound = 0;
  before(async function () {
    bound = await boundMs();
  });

  forEachCliDatabase((db) => {
    it('stops every command on a newer schema with exit status 2 and one line, within the bound, leaving the store as it was', async () => {
      const env = { DATABASE_URL: db().url };
      expect((await runBounded(['migrate'], { cwd: db().dir, env, boundMs: 120_000 })).code).to.equal(0);
      await addFutureMigration(db());
      const before = await fingerprint(db());
      for (const args of commands(db().dir)) {
        const r = await runBounded(args, { cwd: db().dir, env, boundMs: bound });
        const what = `${args[0] as string}: ${r.stderr}`;
        expect(r.killed, `${what} outlived ${bound} ms`).to.equal(false);
        expect(r.code, what).to.equal(2);
        const line =
          /^oai-steward: the store at .* has schema 099_future, newer than this oai-steward's \d{3}_\w+ \(it does not know 099_future\): upgrade to the version that migrated it.*restore a backup.*$/m;
        if (args[0] === 'doctor') {
          expect(r.stdout, what).to.match(/^PROBLEM {2}schema {8}the store has schema 099_future, newer than this oai-steward's/m);
        } else {
          expect(r.stderr, what).to.match(line);
          expect(r.stderr.trim().split('\n'), `${what}: one line`).to.have.length(1);
        }
        expect(fs.existsSync(path.join(db().dir, 'dumps')), 'no dump folder made').to.equal(false);
      }
      expect(await fingerprint(db()), 'the store is unchanged').to.equal(before);
    });

    it('refuses an older schema in the commands that do not migrate, naming oai-steward migrate, and migrate brings it up', async () => {
      const env = { DATABASE_URL: db().url };
      expect((await runBounded(['migrate'], { cwd: db().dir, env, boundMs: 120_000 })).code).to.equal(0);
      await removeNewestMigration(db());
      for (const args of [['stats'], ['dump', path.join(db().dir, 'dumps')], ['sources'], ['rebuild-sets']]) {
        const r = await runBounded(args, { cwd: db().dir, env, boundMs: bound });
        expect(r.killed).to.equal(false);
        expect(r.code, r.stderr).to.equal(2);
        expect(r.stderr).to.match(
          /^oai-steward: the store at .* has schema \d{3}_\w+, older than this oai-steward's \d{3}_\w+ \(1 migration\(s\) pending\): run oai-steward migrate first/,
        );
      }
      const migrated = await runBounded(['migrate'], { cwd: db().dir, env, boundMs: 120_000 });
      expect(migrated.code, migrated.stderr).to.equal(0);
      const stats = await runBounded(['stats', '--json'], { cwd: db().dir, env, boundMs: 120_000 });
      expect(stats.code, stats.stderr).to.equal(0);
      expect(JSON.parse(stats.stdout)).to.include({ items: 0 });
    });
  });
});

describe('a command run where no store is', function () {
  this.timeout(600_000);
  let dir = '';
  let bound = 0;
  before(async function () {
    bound = await boundMs();
  });
  beforeEach(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-nowhere-'));
  });
  afterEach(function () {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('dump in an empty folder without configuration exits 2, names the file it looked for and how, and makes nothing', async () => {
    const r = await runBounded(['dump', 'out'], { cwd: dir, env: {}, boundMs: bound });
    expect(r.killed).to.equal(false);
    expect(r.code, r.stderr).to.equal(2);
    const file = path.join(fs.realpathSync(dir), 'data', 'oai-steward.sqlite');
    expect(r.stderr).to.contain(`oai-steward: no store at ${file}`);
    expect(r.stderr).to.match(/the default .*no --config FILE, OAI_CONFIG or DATABASE_URL/);
    expect(r.stderr).to.contain('--config FILE');
    expect(r.stdout).to.equal('');
    expect(fs.readdirSync(dir), 'nothing made in the folder').to.deep.equal([]);
  });

  const readers = [
    ['stats'],
    ['doctor'],
    ['check', '--profile', 'driver'],
    ['backup', 'copy.sqlite'],
    ['sets'],
    ['sources'],
    ['rebuild-formats'],
    ['rebuild-sets'],
    ['delete', 'x'],
  ];
  for (const args of readers) {
    it(`${args.join(' ')} on a missing store exits 2 and makes nothing`, async () => {
      const config = path.join(dir, 'oai-steward.yaml');
      fs.writeFileSync(config, 'database: store/oai.sqlite\n');
      const r = await runBounded([...args, '--config', config], { cwd: dir, env: {}, boundMs: bound });
      expect(r.killed).to.equal(false);
      expect(r.code, r.stderr + r.stdout).to.equal(2);
      const where = `${config}:1: database`;
      expect(r.stderr + r.stdout).to.contain(where);
      expect(r.stderr + r.stdout).to.contain(path.join(dir, 'store', 'oai.sqlite'));
      // The configuration was named: what to run, with it, rather than to name it again.
      expect(r.stderr + r.stdout).to.contain(`create the store with oai-steward --config ${config} migrate, or load or harvest into it`);
      expect(r.stderr + r.stdout).to.not.contain('name the repository');
      expect(fs.readdirSync(dir), 'nothing made beside the configuration').to.deep.equal(['oai-steward.yaml']);
    });
  }
});
