/**
 * Who holds the store (server/store/holders.ts): a `serve`, a `load` or a
 * `harvest` registers while it runs, a `restore` is refused meanwhile and
 * changes nothing, and a row left by a process that died holds nothing.
 * The registry runs on both databases; the restore itself copies a SQLite
 * store only (PostgreSQL is restored with pg_restore, docs/operations.md).
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { describeHolder, holdStore, holdsStore, liveHolders, STALE_SECONDS, StoreInUseError, type StoreHolder } from '../../../server/store/holders';
import { databaseKinds, forEachThrowawayDatabase, holdWrites, openThrowawayDatabase, type ThrowawayDatabase } from '../../helpers/db';
import { DEMO_NAMESPACE } from '../../helpers/demo-records';
import { startTestServer } from '../../helpers/server';
import { cli } from '../../loader/helpers';

const NOW = 1_800_000_000;
const HOST = 'here.example.org';

/** A holder row as a test writes it. */
function holder(over: Partial<StoreHolder>): StoreHolder {
  return { id: 'h1', kind: 'server', pid: 4321, host: HOST, startedAt: '2027-01-15T08:00:00Z', heartbeat: NOW, ...over };
}

/** The pid of a process that has exited (spawned and waited for). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (child.pid === undefined) throw new Error('could not start a child process');
  return child.pid;
}

/** Writes a holder row straight into the table, as a process that died would have left it. */
async function leaveRow(knex: Knex, h: StoreHolder): Promise<void> {
  await knex('store_holders').insert({ id: h.id, kind: h.kind, pid: h.pid, host: h.host, started_at: h.startedAt, heartbeat: h.heartbeat });
}

describe('whether a holder row still holds the store', () => {
  const alive = (pid: number): boolean => pid === 4321;
  const cases: { name: string; row: StoreHolder; expected: boolean }[] = [
    { name: 'a row of this host whose process runs and whose heartbeat is fresh holds it', row: holder({}), expected: true },
    { name: 'a row of this host whose process no longer exists does not', row: holder({ pid: 999 }), expected: false },
    {
      name: 'a row of another host with a fresh heartbeat holds it (its pid cannot be checked)',
      row: holder({ host: 'there.example.org', pid: 999 }),
      expected: true,
    },
    { name: 'a row whose heartbeat is just within the bound holds it', row: holder({ heartbeat: NOW - STALE_SECONDS }), expected: true },
    {
      name: 'a row of this host whose process runs holds it however old its heartbeat (a load in one long SQLite transaction cannot beat)',
      row: holder({ heartbeat: NOW - STALE_SECONDS * 100 }),
      expected: true,
    },
    {
      name: 'a row of another host whose heartbeat is just within the bound holds it',
      row: holder({ host: 'there.example.org', heartbeat: NOW - STALE_SECONDS }),
      expected: true,
    },
    {
      name: 'a row of another host whose heartbeat is stale does not',
      row: holder({ host: 'there.example.org', heartbeat: NOW - STALE_SECONDS - 1 }),
      expected: false,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(holdsStore(c.row, { host: HOST, now: NOW, pidAlive: alive })).to.equal(c.expected);
    });
  }

  it('describes a holder by kind, pid, host and start', () => {
    expect(describeHolder(holder({ kind: 'load' }))).to.equal(`a load (pid 4321 on host ${HOST}, since 2027-01-15T08:00:00Z)`);
  });
});

describe('the store holders registry', () => {
  forEachThrowawayDatabase(
    (db) => {
      it('lists a hold with its kind, pid, host and start, and frees the store when released', async () => {
        const hold = await holdStore(db().knex(), 'server');
        const live = await liveHolders(db().knex());
        expect(live.map((h) => [h.kind, h.pid, h.host])).to.deep.equal([['server', process.pid, os.hostname()]]);
        expect(live[0]?.startedAt).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        await hold.release();
        await hold.release();
        expect(await liveHolders(db().knex())).to.deep.equal([]);
      });

      it('refuses a restore while a server holds the store, naming the server, and leaves no row of the restore', async () => {
        const server = await holdStore(db().knex(), 'server');
        try {
          const refused = await holdStore(db().knex(), 'restore').then(
            () => null,
            (err: unknown) => err,
          );
          expect(refused).to.be.instanceOf(StoreInUseError);
          expect((refused as Error).message).to.equal(`the store is in use by ${describeHolder(server.holder)}; stop it first`);
          expect((await liveHolders(db().knex())).map((h) => h.kind)).to.deep.equal(['server']);
        } finally {
          await server.release();
        }
      });

      it('refuses a server, a load and a harvest while a restore holds the store', async () => {
        const restore = await holdStore(db().knex(), 'restore');
        try {
          for (const kind of ['server', 'load', 'harvest'] as const) {
            const refused = await holdStore(db().knex(), kind).then(
              () => null,
              (err: unknown) => err,
            );
            expect((refused as Error | null)?.message, kind).to.equal(
              `the store is being replaced by ${describeHolder(restore.holder)}; start again when it has finished`,
            );
          }
          expect((await liveHolders(db().knex())).map((h) => h.kind)).to.deep.equal(['restore']);
        } finally {
          await restore.release();
        }
      });

      it('lets servers, loads and harvests hold the store side by side', async () => {
        const holds = [await holdStore(db().knex(), 'server'), await holdStore(db().knex(), 'load'), await holdStore(db().knex(), 'harvest')];
        expect((await liveHolders(db().knex())).map((h) => h.kind).sort()).to.deep.equal(['harvest', 'load', 'server']);
        for (const h of holds) await h.release();
      });

      it('takes a row left by a dead process of this host, or with a stale heartbeat at two looks, for no holder, and deletes it', async () => {
        const now = Math.floor(Date.now() / 1000);
        await leaveRow(db().knex(), holder({ id: 'dead', pid: deadPid(), host: os.hostname(), heartbeat: now }));
        await leaveRow(db().knex(), holder({ id: 'stale', host: 'there.example.org', heartbeat: now - STALE_SECONDS - 10 }));
        let looks = 1;
        const restore = await holdStore(db().knex(), 'restore', { recheck: async () => void looks++ });
        await restore.release();
        expect(looks).to.equal(2);
        expect(await db().knex()('store_holders').count({ n: '*' }).first()).to.satisfy((r: { n: unknown }) => Number(r.n) === 0);
      });

      it('takes a row of another host that looks stale but beats before the second look for a holder (a long write held its beats back)', async () => {
        const now = Math.floor(Date.now() / 1000);
        await leaveRow(db().knex(), holder({ id: 'remote', host: 'there.example.org', pid: 1, heartbeat: now - STALE_SECONDS - 600 }));
        const refused = await holdStore(db().knex(), 'restore', {
          recheck: async () => {
            await db().knex()('store_holders').where({ id: 'remote' }).update({ heartbeat: now });
          },
        }).then(
          () => null,
          (err: unknown) => err,
        );
        expect((refused as Error | null)?.message).to.match(/in use by a server \(pid 1 on host there\.example\.org/);
        expect((await liveHolders(db().knex())).map((h) => h.id)).to.deep.equal(['remote']);
      });

      it('takes a fresh row of another host for a holder', async () => {
        await leaveRow(db().knex(), holder({ id: 'remote', host: 'there.example.org', pid: 1, heartbeat: Math.floor(Date.now() / 1000) }));
        const refused = await holdStore(db().knex(), 'restore').then(
          () => null,
          (err: unknown) => err,
        );
        expect((refused as Error | null)?.message).to.match(/in use by a server \(pid 1 on host there\.example\.org/);
      });
    },
    { migrated: true },
  );
});

describe("a holder's heartbeat while another connection holds the store's writes", () => {
  forEachThrowawayDatabase(
    (db, kind) => {
      it('does not hold the event loop, throws nothing, and is written once the writes are let go', async () => {
        let clock = 1_800_000_000;
        const knex = db().knex();
        const hold = await holdStore(knex, 'server', { now: () => clock });
        // A beat waiting in SQLite's busy handler would hold this thread for a minute: past the 20 s after which
        // the other connection lets go by itself, so a timer could only fire once the writes were let go.
        if (kind === 'sqlite') await knex.raw('PRAGMA busy_timeout = 60000');
        const held = await holdWrites(db(), ['store_holders'], { boundMs: 20_000 });
        const order: string[] = [];
        let tries = 0;
        let fire: (() => void) | undefined;
        // Resolves once the timer below has fired.
        const timerFired = new Promise<void>((resolve) => (fire = resolve));
        let scheduled = false;
        // Scheduled as the beat's write is sent, so it is due while the beat waits for the store.
        const onQuery = (q: { sql: string }): void => {
          // A try begins with SQLite's BEGIN IMMEDIATE (server/db/sqlite-client.ts), which finds the lock taken.
          if (!/^update\b.*store_holders|^begin immediate/i.test(q.sql)) return;
          tries++;
          if (scheduled) return;
          scheduled = true;
          setTimeout(() => {
            order.push(held.held() ? 'a timer fires while the writes are held' : 'a timer fires once the writes were let go');
            fire?.();
          }, 0);
        };
        knex.on('query', onQuery);
        try {
          clock += 60;
          const beaten = hold.beat().then(() => void order.push('the beat is written'));
          await timerFired;
          order.push('the writes are let go');
          await held.release();
          await beaten;
          expect(order).to.deep.equal(['a timer fires while the writes are held', 'the writes are let go', 'the beat is written']);
          const row = (await knex('store_holders').where({ id: hold.holder.id }).first('heartbeat')) as { heartbeat: unknown };
          expect(Number(row.heartbeat)).to.equal(clock);
          // SQLite refused the beat at once and it was tried again; PostgreSQL's lock wait is one try that waits.
          if (kind === 'sqlite') expect(tries).to.be.at.least(2);
        } finally {
          knex.off('query', onQuery);
          await held.release();
          await hold.release();
        }
      });
    },
    { migrated: true },
  );
});

/** Every item's internal id and whether it is deleted, in order. */
async function deletions(knex: Knex): Promise<string> {
  const rows = (await knex('items').select('internal_id', 'deleted').orderBy('internal_id')) as { internal_id: string; deleted: unknown }[];
  return JSON.stringify(rows.map((r) => [r.internal_id, Boolean(r.deleted)]));
}

async function isDeleted(knex: Knex, id: string): Promise<boolean> {
  const row = (await knex('items').where({ internal_id: id }).first('deleted')) as { deleted: unknown } | undefined;
  return Boolean(row?.deleted);
}

describe('oai-steward restore while the store is in use', function () {
  this.timeout(120_000);
  for (const kind of databaseKinds()) {
    describe(`on ${kind}`, () => {
      let db: ThrowawayDatabase;
      beforeEach(async () => {
        db = await openThrowawayDatabase(kind);
        const seeded = await cli(db, ['seed']);
        expect(seeded.code, seeded.stderr).to.equal(0);
      });
      afterEach(async () => {
        await db.close();
      });

      if (kind === 'sqlite') {
        it('refuses to restore while a server serves the store, naming it, changes nothing, and restores once it has stopped', async () => {
          const file = path.join(db.dir, 'store.backup');
          const backup = await cli(db, ['backup', file]);
          expect(backup.code, backup.stderr).to.equal(0);
          const deleted = await cli(db, ['delete', 'data-2024-0001']);
          expect(deleted.code, deleted.stderr).to.equal(0);
          const server = await startTestServer({ DATABASE_URL: db.url, OAI_NAMESPACE: DEMO_NAMESPACE });
          let before: string;
          try {
            before = await deletions(db.knex());
            const refused = await cli(db, ['restore', file]);
            expect(refused.code).to.equal(1);
            expect(refused.stdout).to.equal('');
            const since = (await liveHolders(db.knex()))[0]?.startedAt;
            expect(refused.stderr).to.equal(
              `oai-steward: restore: the store is in use by a server (pid ${process.pid} on host ${os.hostname()}, since ${since}); stop it first; nothing was changed\n`,
            );
            expect(await deletions(db.knex())).to.equal(before);
            expect(await isDeleted(db.knex(), 'data-2024-0001')).to.equal(true);
          } finally {
            await server.stop();
          }
          expect(await liveHolders(db.knex()), 'the server removed its row on stop').to.deep.equal([]);
          const restored = await cli(db, ['restore', file]);
          expect(restored.code, restored.stderr).to.equal(0);
          expect(await isDeleted(db.knex(), 'data-2024-0001')).to.equal(false);
        });

        it('restores over a row left by a server that died', async () => {
          const file = path.join(db.dir, 'store.backup');
          expect((await cli(db, ['backup', file])).code).to.equal(0);
          expect((await cli(db, ['delete', 'data-2024-0001'])).code).to.equal(0);
          await leaveRow(db.knex(), holder({ id: 'dead', pid: deadPid(), host: os.hostname(), heartbeat: Math.floor(Date.now() / 1000) }));
          const restored = await cli(db, ['restore', file]);
          expect(restored.code, restored.stderr).to.equal(0);
          expect(await isDeleted(db.knex(), 'data-2024-0001')).to.equal(false);
          expect(await liveHolders(db.knex())).to.deep.equal([]);
        });
      }

      it('registers a running server as a holder and removes it when the server stops', async () => {
        const server = await startTestServer({ DATABASE_URL: db.url, OAI_NAMESPACE: DEMO_NAMESPACE });
        try {
          expect((await liveHolders(db.knex())).map((h) => [h.kind, h.pid])).to.deep.equal([['server', process.pid]]);
        } finally {
          await server.stop();
        }
        expect(await liveHolders(db.knex())).to.deep.equal([]);
      });

      it('refuses a load while a restore holds the store, and loads nothing', async () => {
        const restore = await holdStore(db.knex(), 'restore');
        try {
          const before = await deletions(db.knex());
          const load = await cli(db, ['load', '-'], { input: `${JSON.stringify({ id: 'new-1', dc: { title: ['New'] } })}\n` });
          expect(load.code).to.equal(1);
          expect(load.stderr).to.equal(`oai-steward: the store is being replaced by ${describeHolder(restore.holder)}; start again when it has finished\n`);
          expect(await deletions(db.knex())).to.equal(before);
        } finally {
          await restore.release();
        }
      });
    });
  }
});
