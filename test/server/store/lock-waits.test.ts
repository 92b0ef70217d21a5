/**
 * A command that waits for SQLite's write lock says so and names who holds
 * the store, then says when it goes on: a real `oai-steward load` process
 * behind a write transaction this test holds open, and a store opened in
 * this process with a logger (a server's way of telling). The order proves
 * it: the lock is let go only once the waiting side has told of its wait.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openThrowawayDatabase, type ThrowawayDatabase } from '../../helpers/db';
import { startCli } from '../../loader/helpers';
import { whenSaid } from '../../helpers/said';
import { migrate } from '../../../server/db/migrations';
import { sqliteFilename } from '../../../server/db/connection';
import { FIRST_NOTICE_MS } from '../../../server/db/sqlite-client';
import { openDatabase } from '../../../server/store/database';
import { lockWaitLine, type StoreHolder } from '../../../server/store/holders';

/** Ten times what the first notice and a process's start take here. */
const NOTICE_BOUND_MS = 10 * (FIRST_NOTICE_MS + 8000);

describe('waits for the SQLite write lock are told', function () {
  this.timeout(4 * NOTICE_BOUND_MS);
  let db: ThrowawayDatabase;
  let held: Database.Database;

  beforeEach(async () => {
    db = await openThrowawayDatabase('sqlite');
    await migrate(db.knex());
    held = new Database(sqliteFilename(db.url));
    // A holder of the store the waiting side can name: this process, as a load.
    held
      .prepare('INSERT INTO store_holders (id, kind, pid, host, started_at, heartbeat) VALUES (?, ?, ?, ?, ?, ?)')
      .run('held-by-test', 'load', process.pid, os.hostname(), '2026-12-07T18:00:00Z', Math.floor(Date.now() / 1000));
    held.exec('BEGIN IMMEDIATE');
  });

  afterEach(async () => {
    if (held.inTransaction) held.exec('ROLLBACK');
    held.close();
    await db.close();
  });

  it('oai-steward load says it waits, naming the load that holds the store, then goes on and loads everything', async () => {
    const file = path.join(db.dir, 'records.ndjson');
    fs.writeFileSync(file, ['a', 'b', 'c'].map((id) => JSON.stringify({ id, dc: { title: [`Record ${id}`], type: ['Text'] } })).join('\n') + '\n');
    const run = startCli(db, ['load', file]);
    let stderr = '';
    run.child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    await whenSaid(
      () => stderr,
      /waiting for the store's write lock/,
      (tick) => run.child.stderr?.on('data', tick),
      NOTICE_BOUND_MS,
    );
    // Nothing was written while the lock is held here.
    expect(held.prepare('SELECT count(*) AS n FROM items').get()).to.deep.equal({ n: 0 });
    held.exec('ROLLBACK');
    const done = await run.done;
    expect(done.code, done.stderr).to.equal(0);
    const lines = done.stderr.split('\n').filter((l) => /write lock/.test(l));
    expect(lines[0]).to.match(
      new RegExp(
        `^oai-steward: waiting for the store's write lock for \\d+ s .*a load \\(pid ${process.pid} on host .*, since 2026-12-07T18:00:00Z\\) holds the store and is most likely the writer; `,
      ),
    );
    expect(lines.at(-1)).to.match(/^oai-steward: got the store's write lock after \d+ s; going on$/);
    expect(await db.knex()('items').count({ n: '*' })).to.deep.equal([{ n: 3 }]);
  });

  it('a store opened with a logger (a server) logs the wait as a warning, and when it goes on', async () => {
    const said: string[] = [];
    const log = { warn: (_: object, msg: string) => said.push(msg), error: () => undefined };
    // Opening migrates, which takes the lock: the wait starts there.
    const opening = openDatabase(db.url, { log });
    let ticks: (() => void)[] = [];
    const notify = (): void => ticks.forEach((t) => t());
    const poll = setInterval(notify, 50);
    try {
      await whenSaid(
        () => said.join('\n'),
        /waiting for the store's write lock/,
        (t) => (ticks = [...ticks, t]),
        NOTICE_BOUND_MS,
      );
      held.exec('ROLLBACK');
      const opened = await opening;
      await opened.close();
    } finally {
      clearInterval(poll);
    }
    expect(said.filter((l) => /write lock/.test(l)).at(-1)).to.match(/^got the store's write lock after \d+ s; going on$/);
  });

  it('says that another connection writes when no holder is registered', () => {
    expect(lockWaitLine({ waitedMs: 2400, acquired: false }, [])).to.equal(
      "waiting for the store's write lock for 2 s (SQLite lets one process write at a time): another connection is writing the store; " +
        'this command goes on as soon as that write commits, and waits at most an hour',
    );
    const server: StoreHolder = { id: 'x', kind: 'server', pid: 7, host: 'h', startedAt: '2026-12-07T00:00:00Z', heartbeat: 0 };
    expect(lockWaitLine({ waitedMs: 61_000, acquired: false }, [server])).to.contain(
      ': a server (pid 7 on host h, since 2026-12-07T00:00:00Z) holds the store and is most likely the writer; ',
    );
    expect(lockWaitLine({ waitedMs: 61_000, acquired: false }, [server, { ...server, id: 'y', kind: 'load', pid: 8 }])).to.contain(
      ': the store is held by a server (pid 7 on host h, since 2026-12-07T00:00:00Z), a load (pid 8 on host h, since 2026-12-07T00:00:00Z); one of them is most likely the writer; ',
    );
  });
});
