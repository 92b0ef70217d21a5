/**
 * The database layer under the store: connection strings, SQLite pragmas,
 * migrations, settings and PDI minting state, query plans, and the same
 * scenario giving the same answers on SQLite and PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { createKnex, databaseKind, sqliteFilename } from '../../../server/db/connection';
import { migrate } from '../../../server/db/migrations';
import { unloggedRecords } from '../../../server/db/log/append';
import { KnexStore } from '../../../server/store/knex-store';
import { listSql } from '../../../server/store/read';
import { getOrCreateSecret } from '../../../server/store/settings';
import { mintPdiSerial } from '../../../server/store/counters';
import { createIdPolicy } from '../../../lib/ids/policy';
import { databaseKinds, forEachDatabase, openThrowawayDatabase, TEST_NAMESPACE } from '../../helpers/db';
import { dc, item, ManualClock } from '../../helpers/store-fixtures';

describe('database URLs', function () {
  const kinds: [string, 'sqlite' | 'postgres'][] = [
    ['postgres://postgres@127.0.0.1:5432/test', 'postgres'],
    ['postgresql://u:p@db/x', 'postgres'],
    ['sqlite:./data/oai.db', 'sqlite'],
    ['./data/oai.db', 'sqlite'],
    [':memory:', 'sqlite'],
  ];
  for (const [url, kind] of kinds) {
    it(`reads ${url} as ${kind}`, function () {
      expect(databaseKind(url)).to.equal(kind);
    });
  }
  const files: [string, string][] = [
    ['sqlite:./data/oai.db', './data/oai.db'],
    ['sqlite:///tmp/x.db', '/tmp/x.db'],
    ['/tmp/y.db', '/tmp/y.db'],
    [':memory:', ':memory:'],
    ['sqlite::memory:', ':memory:'],
  ];
  for (const [url, file] of files) {
    it(`finds the SQLite file ${file} in ${url}`, function () {
      expect(sqliteFilename(url)).to.equal(file);
    });
  }
  it('refuses a sqlite: URL without a file name', function () {
    expect(() => sqliteFilename('sqlite:')).to.throw(/no SQLite file name/);
  });
});

describe('a SQLite connection', function () {
  it("waits for another connection's write lock without blocking the process, then writes", async function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-conn-'));
    const file = `sqlite:${path.join(dir, 'x.db')}`;
    const a = createKnex(file);
    const b = createKnex(file);
    try {
      await a.raw('CREATE TABLE t (x integer)');
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const first = a.transaction(async (trx) => {
        await trx.raw('INSERT INTO t VALUES (1)');
        locked();
        await held;
      });
      await isLocked;
      const order: string[] = [];
      const second = b.transaction(async (trx) => {
        order.push('b began');
        await trx.raw('INSERT INTO t VALUES (2)');
      });
      // The event loop turns while b waits: this timer fires before b's transaction begins.
      await new Promise((resolve) => setTimeout(resolve, 200));
      order.push('timer');
      release();
      await first;
      await second;
      expect(order).to.deep.equal(['timer', 'b began']);
      expect(((await b.raw('SELECT count(*) AS n FROM t')) as { n: number }[])[0]?.n).to.equal(2);
    } finally {
      await a.destroy();
      await b.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs in WAL mode with foreign keys, NORMAL sync and a busy timeout, in a directory it creates', async function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-conn-'));
    const knex = createKnex(`sqlite:${path.join(dir, 'nested', 'x.db')}`);
    try {
      const pragma = async (name: string) => Object.values(((await knex.raw(`PRAGMA ${name}`)) as Record<string, unknown>[])[0] ?? {})[0];
      expect(await pragma('journal_mode')).to.equal('wal');
      expect(await pragma('foreign_keys')).to.equal(1);
      expect(await pragma('synchronous')).to.equal(1);
      // A short blocking wait only: a writer waits for the lock in server/db/sqlite-client.ts, yielding to the event loop.
      expect(await pragma('busy_timeout')).to.be.within(1, 100);
      expect(fs.existsSync(path.join(dir, 'nested', 'x.db'))).to.equal(true);
    } finally {
      await knex.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('creates a new store with 16 KiB pages and leaves an existing file its own page size', async function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-conn-'));
    const pageSize = async (file: string): Promise<unknown> => {
      const knex = createKnex(`sqlite:${file}`);
      try {
        await knex.schema.createTableIfNotExists('t', (t) => t.integer('x'));
        return Object.values(((await knex.raw('PRAGMA page_size')) as Record<string, unknown>[])[0] ?? {})[0];
      } finally {
        await knex.destroy();
      }
    };
    try {
      expect(await pageSize(path.join(dir, 'new.db'))).to.equal(16384);
      // A store made by an earlier version, with SQLite's default 4 KiB pages.
      const old = new Database(path.join(dir, 'old.db'));
      old.pragma('page_size = 4096');
      old.exec('CREATE TABLE t (x INTEGER)');
      old.close();
      expect(await pageSize(path.join(dir, 'old.db'))).to.equal(4096);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pages by an ordered index range, over the records of a format without a set and over item_sets with one, never sorting', async function () {
    const knex = createKnex(':memory:');
    try {
      await migrate(knex);
      for (const [set, index] of [
        [undefined, 'records_prefix_datestamp'],
        ['a', 'item_sets_spec_datestamp'],
      ] as const) {
        const page = { metadataPrefix: 'oai_dc', until: 2e9, from: 1, limit: 100, after: { datestamp: 5, pk: 7 }, ...(set ? { set } : {}) };
        const { sql, params: bindings } = listSql(page, 'SELECT i.pk, r.xml', page);
        const plan = ((await knex.raw(`EXPLAIN QUERY PLAN ${sql}`, bindings as never[])) as { detail: string }[]).map((r) => r.detail).join('\n');
        expect(plan.split('\n')[0], plan).to.include(index);
        expect(plan, plan).not.to.match(/TEMP B-TREE/);
      }
    } finally {
      await knex.destroy();
    }
  });

  it('finds the records a publication must still hash for the log by their partial index, never by reading every record of its items', async function () {
    const knex = createKnex(':memory:');
    try {
      await migrate(knex);
      const { sql, bindings } = unloggedRecords(knex, [1, 2, 3]).toSQL();
      const plan = ((await knex.raw(`EXPLAIN QUERY PLAN ${sql}`, bindings as never[])) as { detail: string }[]).map((r) => r.detail).join('\n');
      expect(plan, plan).to.include('USING INDEX records_unlogged');
    } finally {
      await knex.destroy();
    }
  });
});

forEachDatabase((db) => {
  describe('migrations and small state', function () {
    it('migrates an up-to-date database again without change', async function () {
      await db.store({ clock: () => 1_700_000_000 }).writeItems([item('x')]);
      await migrate(db.knex());
      expect(await db.store().getHeader('oai:test.example.org:x')).to.not.equal(null);
    });

    it('creates the resumption-token secret once and returns it ever after, even under concurrent calls', async function () {
      const secrets = await Promise.all(Array.from({ length: 5 }, () => getOrCreateSecret(db.knex())));
      expect(secrets[0]).to.match(/^[0-9a-f]{64}$/);
      expect(new Set(secrets).size).to.equal(1);
      expect(await getOrCreateSecret(db.knex())).to.equal(secrets[0]);
      expect(await getOrCreateSecret(db.knex(), 'other')).to.not.equal(secrets[0]);
    });

    it('mints PDI serials per series and day starting at 1, never twice', async function () {
      const serials = await Promise.all(Array.from({ length: 8 }, () => mintPdiSerial(db.knex(), 'pubs.example.us', '2024-05-01')));
      expect([...serials].sort((a, b) => a - b)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(await mintPdiSerial(db.knex(), 'pubs.example.us', '2024-05-02')).to.equal(1);
      expect(await mintPdiSerial(db.knex(), 'other.example.us', '2024-05-01')).to.equal(1);
      // Series are case-insensitive (urn:pdi 3.6.4), so one counter serves both spellings.
      expect(await mintPdiSerial(db.knex(), 'Pubs.Example.US', '2024-05-01')).to.equal(9);
    });

    it('refuses to mint a PDI serial for an invalid series or date', async function () {
      for (const [series, date] of [
        ['pubs.example.us', '2024-5-1'],
        ['not a series', '2024-05-01'],
      ] as const) {
        let error: unknown;
        try {
          await mintPdiSerial(db.knex(), series, date);
        } catch (err) {
          error = err;
        }
        expect(error, `${series} ${date}`).to.be.instanceOf(RangeError);
      }
    });
  });
});

/** One scripted history; its answers must not depend on the database. */
async function scenario(store: KnexStore, clock: ManualClock): Promise<unknown> {
  await store.putSets(
    [
      { spec: 'b', name: 'b' },
      { spec: 'B', name: 'B' },
      { spec: 'b:x', name: 'bx' },
      { spec: 'é', name: 'not valid' },
    ].slice(0, 3),
  );
  const ids = ['report 12', 'demo:A-B.C_D%3AE', 'Ünïcødé', '100%', 'a<b>?#+', 'Z', 'z', 'deleted one'];
  await store.writeItems(ids.map((id, i) => item(id, { sets: i % 2 ? ['b:x'] : ['B'], datestamp: clock.now - (i % 3) })));
  clock.tick(5);
  await store.deleteItems(['deleted one', 'Z']);
  clock.tick(5);
  const rewrite = await store.writeItems([item('z', { metadata: { oai_dc: dc('changed') } }), item('100%', { sets: ['B'], datestamp: clock.now - 10 })]);
  const page = async (set?: string) => {
    const out: unknown[] = [];
    let after;
    for (;;) {
      const rows: readonly { datestamp: number; pk: number }[] = await store.listRecords({
        metadataPrefix: 'oai_dc',
        until: clock.now,
        limit: 3,
        ...(set ? { set } : {}),
        ...(after ? { after } : {}),
      });
      out.push(...rows);
      if (rows.length < 3) return out;
      const last = rows[rows.length - 1] as { datestamp: number; pk: number };
      after = { datestamp: last.datestamp, pk: last.pk };
    }
  };
  return {
    rewrite,
    all: await page(),
    b: await page('b'),
    B: await page('B'),
    sets: await store.listSets(null, 10),
    count: await store.count({ metadataPrefix: 'oai_dc', until: clock.now, set: 'b' }),
    earliest: await store.earliestDatestamp(),
    sample: await store.sampleIdentifier(),
  };
}

describe('SQLite and PostgreSQL', function () {
  it('give identical answers to the same history (compared when TEST_DATABASE_URL is set)', async function () {
    const results: string[] = [];
    for (const kind of databaseKinds()) {
      const db = await openThrowawayDatabase(kind);
      try {
        const knex = db.knex();
        await migrate(knex);
        const clock = new ManualClock();
        const store = new KnexStore({ knex, policy: createIdPolicy({ namespace: TEST_NAMESPACE }), clock: clock.read });
        results.push(JSON.stringify(await scenario(store, clock)));
      } finally {
        await db.close();
      }
    }
    expect(results.length).to.equal(process.env.TEST_DATABASE_URL ? 2 : 1);
    for (const r of results) expect(r).to.equal(results[0]);
    expect(results[0]).to.include('"deleted":true');
  });
});
