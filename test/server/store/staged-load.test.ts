/**
 * A long load on SQLite does not keep other writers waiting: it decides its
 * batches without the store's write lock and applies them at its end in one
 * short step (server/store/staging.ts). Two real `oai-steward load`
 * processes: the long one reads its standard input, which this test writes;
 * the short one runs to its end in the middle of the long one. The order
 * proves it: the long load has read and decided three batches and cannot
 * commit before this test ends its input, so a short load that had to wait
 * for its lock would say so, and never end.
 *
 * SQLite only: PostgreSQL's writers never wait for each other's whole
 * transactions, only for a row both write (the short load would wait for
 * the long one's `shared` row there, as it should).
 */
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openThrowawayDatabase, type ThrowawayDatabase } from '../../helpers/db';
import { startCli, summaryOf, type CliRun } from '../../loader/helpers';
import { whenSaid } from '../../helpers/said';

/** Ten times what a short load takes here, process start included. */
const BOUND_MS = 10 * 10_000;

const line = (id: string, title: string): string => JSON.stringify({ id, dc: { title: [title], type: ['Text'] } }) + '\n';

describe('a long load on SQLite lets other writers write', function () {
  this.timeout(4 * BOUND_MS);
  let db: ThrowawayDatabase;
  let started: ChildProcess[] = [];

  beforeEach(async () => {
    db = await openThrowawayDatabase('sqlite');
  });

  afterEach(async () => {
    // A load this test failed to see through is not left behind.
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    started = [];
    await db.close();
  });

  it('a load run in the middle of a long one commits at once; the long one then decides again what it changed, and loads everything', async () => {
    const long = startCli(db, ['load', '--json', '--batch-size', '10', '--progress-interval', '0', '-'], { openInput: true });
    started.push(long.child);
    let longErr = '';
    long.child.stderr?.on('data', (d: Buffer) => (longErr += d.toString()));
    // The first batch holds `shared`, decided as new before the short load writes it.
    long.child.stdin?.write(line('shared', 'From the long load') + Array.from({ length: 39 }, (_, i) => line(`long ${i + 1}`, `Long ${i + 1}`)).join(''));
    await whenSaid(
      () => longErr,
      /load: (3[1-9]|40) records/,
      (tick) => long.child.stderr?.on('data', tick),
      BOUND_MS,
    );

    const file = path.join(db.dir, 'short.ndjson');
    fs.writeFileSync(file, line('shared', 'From the short load') + ['short 1', 'short 2', 'short 3'].map((id) => line(id, id)).join(''));
    const short = startCli(db, ['load', '--json', file]);
    started.push(short.child);
    let shortErr = '';
    short.child.stderr?.on('data', (d: Buffer) => (shortErr += d.toString()));
    const waited = whenSaid(
      () => shortErr,
      /waiting for the store's write lock/,
      (tick) => short.child.stderr?.on('data', tick),
      BOUND_MS,
    ).then(() => 'waited' as const);
    const ended = await Promise.race([short.done, waited]);
    expect(ended, `the short load waited for the long one's lock: ${shortErr}`).to.not.equal('waited');
    const shortRun = ended as CliRun;
    expect(shortRun.code, shortRun.stderr).to.equal(0);
    expect(summaryOf(shortRun)).to.include({ inserted: 4, committed: true });
    expect(long.child.exitCode, 'the long load is still reading').to.equal(null);

    long.child.stdin?.end(Array.from({ length: 20 }, (_, i) => line(`long ${i + 40}`, `Long ${i + 40}`)).join(''));
    const longRun = await long.done;
    expect(longRun.code, longRun.stderr).to.equal(0);
    expect(longRun.stderr).to.not.match(/waiting for the store's write lock/);
    // `shared` was decided as new, and found written by the short load when the long one applied it.
    expect(summaryOf(longRun)).to.include({ records: 60, inserted: 59, updated: 1, refused: 0, committed: true });

    const knex = db.knex();
    const rows = (await knex('items').select('internal_id', 'datestamp')) as { internal_id: string; datestamp: unknown }[];
    expect(rows).to.have.length(63);
    const stamp = new Map(rows.map((r) => [r.internal_id, Number(r.datestamp)]));
    // Published in the order they committed: every record of the long load at or after the short load's.
    const shortest = Math.max(...['short 1', 'short 2', 'short 3'].map((id) => stamp.get(id) as number));
    for (const [id, at] of stamp) if (id.startsWith('long') || id === 'shared') expect(at, id).to.be.at.least(shortest);
    const shared = (await knex('record_fields').join('items', 'items.pk', 'record_fields.item_pk').where('items.internal_id', 'shared').first('fields')) as {
      fields: string;
    };
    expect(JSON.parse(shared.fields)).to.have.nested.property('dc.title[0]', 'From the long load');
  });
});
