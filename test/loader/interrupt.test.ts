/**
 * A load that is interrupted says what became of it, in one line, as the
 * operator meets it (a child process): Ctrl-C (SIGINT) or a unit manager's
 * SIGTERM stops it after the batch being written, rolls it back, leaves no
 * large write-ahead log beside a SQLite store, records the run as
 * interrupted, and exits 130 or 143; a PostgreSQL connection cut under it
 * (pg_terminate_backend) ends it with the same kind of line, no stack, and
 * the log stays one JSON object a line meanwhile.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createKnex } from '../../server/db/connection';
import { forEachCliDatabase, startCli, type CliDb, type CliRun } from './helpers';

/** Writes `n` NDJSON records, enough that a load of them runs for many batches. */
function writeRecords(file: string, n: number): void {
  const fd = fs.openSync(file, 'w');
  try {
    let chunk = '';
    for (let i = 0; i < n; i++) {
      chunk += `${JSON.stringify({ id: `long-${String(i).padStart(7, '0')}`, dc: { title: [`Record ${i} of a long load`], creator: ['Müller, Jürgen'] } })}\n`;
      if (chunk.length > 1 << 20) {
        fs.writeSync(fd, chunk);
        chunk = '';
      }
    }
    fs.writeSync(fd, chunk);
  } finally {
    fs.closeSync(fd);
  }
}

/** Starts a load of `file` and resolves once it has reported progress (it is writing batches), with the run's end. */
async function loadUnderway(db: CliDb, file: string, env: NodeJS.ProcessEnv = {}): Promise<{ kill(signal: NodeJS.Signals): void; done: Promise<CliRun> }> {
  const run = startCli(db, ['load', '--progress-interval', '1', file], { env });
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    run.child.stderr?.on('data', (d: Buffer) => {
      seen += d.toString();
      if (/^load: .*[1-9]\d* records/m.test(seen)) resolve();
    });
    void run.done.then((r) => reject(new Error(`the load ended before it reported progress: ${r.code} ${r.stderr}`)));
  });
  return { kill: (signal) => run.child.kill(signal), done: run.done };
}

/** How the last load the store recorded ended, and how many items it holds. */
async function stored(db: CliDb): Promise<{ items: number; outcome: string | undefined }> {
  const knex = db.name === 'sqlite' ? createKnex(db.url) : db.knex();
  try {
    const items = Number(((await knex('items').count({ n: '*' })) as { n: unknown }[])[0]?.n);
    const run = (await knex('runs').select('outcome').where('kind', 'load').orderBy('id', 'desc').first()) as { outcome: string } | undefined;
    return { items, outcome: run?.outcome };
  } finally {
    if (db.name === 'sqlite') await knex.destroy();
  }
}

describe('a load interrupted', function () {
  this.timeout(300_000);
  forEachCliDatabase((db, kind) => {
    for (const [signal, status] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const) {
      it(`by ${signal} stops after a batch, rolls back, says so in one line and exits ${status}`, async () => {
        expect((await startCli(db(), ['migrate']).done).code).to.equal(0);
        const file = path.join(db().dir, 'long.ndjson');
        writeRecords(file, 30_000);
        const load = await loadUnderway(db(), file);
        load.kill(signal);
        const r = await load.done;
        expect(r.code, r.stderr).to.equal(status);
        const lines = r.stderr.split('\n').filter((l) => l.startsWith('oai-steward'));
        expect(lines).to.have.length(1);
        expect(lines[0]).to.match(
          new RegExp(`^oai-steward load: interrupted by ${signal} after \\d+ records read: nothing was committed, .*; run the same command again to load$`),
        );
        expect(r.stderr).not.to.match(/\n\s+at /);
        expect(await stored(db())).to.deep.equal({ items: 0, outcome: 'interrupted' });
        if (kind === 'sqlite') {
          const wal = `${db().url.slice('sqlite:'.length)}-wal`;
          const size = fs.existsSync(wal) ? fs.statSync(wal).size : 0;
          expect(size, 'the write-ahead log left beside the store').to.be.below(4 * 1024 * 1024);
        }
      });
    }

    if (kind === 'postgres') {
      it('whose PostgreSQL connection is cut says it in one line, no stack, and the log stays JSON lines', async () => {
        expect((await startCli(db(), ['migrate']).done).code).to.equal(0);
        const file = path.join(db().dir, 'long.ndjson');
        writeRecords(file, 30_000);
        const app = `oai-steward-cut-${process.pid}-${Date.now()}`;
        const load = await loadUnderway(db(), file, { PGAPPNAME: app, LOG_LEVEL: 'info' });
        const cut = (await db().knex().raw('SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE application_name = ?', [app])) as {
          rows: { cut: boolean }[];
        };
        expect(cut.rows.length, 'the loader connections found').to.be.greaterThan(0);
        const r = await load.done;
        expect(r.code, r.stderr).to.equal(1);
        const lines = r.stderr.split('\n').filter((l) => l.startsWith('oai-steward'));
        expect(lines).to.have.length(1);
        expect(lines[0]).to.match(
          /^oai-steward load: stopped after \d+ records read: the database connection was lost \(.*\); nothing was committed, the store is as it was before the load .*run the same command again$/,
        );
        expect(r.stderr).not.to.match(/\n\s+at /);
        expect(r.stderr).not.to.match(/^knex/m);
        // Standard error holds the progress lines and the one line; anything else a driver says is a JSON log line.
        const other = r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('load: ') && !l.startsWith('oai-steward load: '));
        for (const l of [...other, ...r.stdout.split('\n').filter((x) => x !== '')]) expect(() => JSON.parse(l) as unknown, l).not.to.throw();
        expect((await stored(db())).items).to.equal(0);
      });
    }
  });
});
