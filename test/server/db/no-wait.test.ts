/**
 * Writes that never wait for SQLite's write lock on this thread
 * (server/db/no-wait.ts): while another connection holds the lock, a write
 * fails at once with a busy error and writes nothing, the connection keeps
 * its busy timeout for everything else, and a write tried again on a timer
 * goes through once the lock is let go, or gives up at its deadline.
 */
import { expect } from 'chai';
import { busyBackoff, whenFree, writeNow } from '../../../server/db/no-wait';
import { isBusy } from '../../../server/db/errors';
import { forEachThrowawayDatabase, holdWrites } from '../../helpers/db';

const ROW = { id: 'h1', kind: 'server', pid: 1, host: 'h', started_at: '2027-01-15T08:00:00Z', heartbeat: 1 };

describe('the waits between tries of a busy write', () => {
  const cases = [
    { tries: 0, ms: 10 },
    { tries: 1, ms: 20 },
    { tries: 4, ms: 160 },
    { tries: 5, ms: 250 },
    { tries: 1000, ms: 250 },
  ];
  for (const c of cases)
    it(`waits ${c.ms} ms after ${c.tries} busy tries`, () => {
      expect(busyBackoff(c.tries)).to.equal(c.ms);
    });
});

describe('a write that does not wait for the store', () => {
  forEachThrowawayDatabase(
    (db, kind) => {
      const insert = (): Promise<unknown> => writeNow(db().knex(), (trx) => trx('store_holders').insert(ROW));
      const rows = async (): Promise<number> => Number(((await db().knex()('store_holders').count({ n: '*' })) as { n: unknown }[])[0]?.n);

      it('writes in a transaction of its own when the store is free', async () => {
        await insert();
        expect(await rows()).to.equal(1);
      });

      it('throws what the work throws, having written nothing', async () => {
        const failed = await writeNow(db().knex(), async (trx) => {
          await trx('store_holders').insert(ROW);
          throw new Error('no');
        }).then(
          () => null,
          (err: unknown) => err,
        );
        expect((failed as Error | null)?.message).to.equal('no');
        expect(await rows()).to.equal(0);
      });

      it('throws a non-busy error at once, without trying again', async () => {
        const sleeps: number[] = [];
        let tries = 0;
        const failed = await whenFree(
          async () => {
            tries++;
            throw new Error('a bug');
          },
          { deadlineMs: 1000, sleep: async (ms) => void sleeps.push(ms) },
        ).catch((err: unknown) => err);
        expect((failed as Error).message).to.equal('a bug');
        expect({ tries, sleeps }).to.deep.equal({ tries: 1, sleeps: [] });
      });

      if (kind === 'sqlite') {
        it('fails at once with a busy error while another connection holds the write lock, writes nothing, and keeps the busy timeout for the rest', async () => {
          const timeout = async (): Promise<unknown> => ((await db().knex().raw('PRAGMA busy_timeout')) as { timeout: unknown }[])[0]?.timeout;
          // A write that waited in SQLite's busy handler would hold this thread for the 20 s, then fail the same way.
          await db().knex().raw('PRAGMA busy_timeout = 20000');
          const held = await holdWrites(db(), ['store_holders']);
          let ms: number;
          try {
            const began = performance.now();
            const failed = await insert().then(
              () => null,
              (err: unknown) => err,
            );
            ms = performance.now() - began;
            expect(isBusy(failed), String(failed)).to.equal(true);
          } finally {
            await held.release();
          }
          expect(ms).to.be.below(10_000);
          expect(await rows()).to.equal(0);
          expect(await timeout()).to.equal(20000);
        });

        it('tries again on a timer and writes once the lock is let go', async () => {
          const held = await holdWrites(db(), ['store_holders']);
          const sleeps: number[] = [];
          try {
            // The lock is let go during the second wait: the third try goes through.
            await whenFree(insert, {
              deadlineMs: 10_000,
              sleep: async (ms) => {
                sleeps.push(ms);
                if (sleeps.length === 2) await held.release();
              },
            });
          } finally {
            await held.release();
          }
          expect(sleeps).to.deep.equal([10, 20]);
          expect(await rows()).to.equal(1);
        });

        it('gives up with the busy error once its waits would pass the deadline', async () => {
          const held = await holdWrites(db(), ['store_holders']);
          const sleeps: number[] = [];
          try {
            const failed = await whenFree(insert, { deadlineMs: 70, sleep: async (ms) => void sleeps.push(ms) }).catch((err: unknown) => err);
            expect(isBusy(failed), String(failed)).to.equal(true);
          } finally {
            await held.release();
          }
          // 10 + 20 + 40 = 70; another 80 would pass it.
          expect(sleeps).to.deep.equal([10, 20, 40]);
          expect(await rows()).to.equal(0);
        });
      }
    },
    { migrated: true },
  );
});
