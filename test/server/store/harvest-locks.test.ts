/**
 * A source's harvest lock on SQLite (server/store/harvest-locks.ts) is
 * bookkeeping of `serve`: taken, renewed and released without waiting for
 * SQLite's write lock on the thread, while another process writes pages.
 */
import { expect } from 'chai';
import { acquireHarvestLock } from '../../../server/store/harvest-locks';
import { forEachThrowawayDatabase, holdWrites } from '../../helpers/db';

describe("a source's harvest lock while another connection holds the store's writes", () => {
  forEachThrowawayDatabase(
    (db, kind) => {
      if (kind !== 'sqlite') return;

      it('is taken without holding the event loop, once the writes are let go', async () => {
        const knex = db().knex();
        // A lock waiting in SQLite's busy handler would hold this thread for a minute: past the 20 s after which the
        // other connection lets go by itself, so a timer could only fire once the writes were let go.
        await knex.raw('PRAGMA busy_timeout = 60000');
        const held = await holdWrites(db(), ['harvest_locks'], { boundMs: 20_000 });
        const order: string[] = [];
        let fire: (() => void) | undefined;
        // Resolves once the timer below has fired.
        const timerFired = new Promise<void>((resolve) => (fire = resolve));
        let scheduled = false;
        // Scheduled as the lock's first statement is sent, so it is due while the lock waits for the store.
        const onQuery = (q: { sql: string }): void => {
          // A try begins with SQLite's BEGIN IMMEDIATE (server/db/sqlite-client.ts), which finds the lock taken.
          if (!/harvest_locks|^begin immediate/i.test(q.sql)) return;
          if (scheduled) return;
          scheduled = true;
          setTimeout(() => {
            order.push(held.held() ? 'a timer fires while the writes are held' : 'a timer fires once the writes were let go');
            fire?.();
          }, 0);
        };
        knex.on('query', onQuery);
        try {
          const taking = acquireHarvestLock(knex, 'one').then((lock) => {
            order.push('the lock is taken');
            return lock;
          });
          await timerFired;
          order.push('the writes are let go');
          await held.release();
          const lock = await taking;
          expect(lock).to.not.equal(null);
          await lock?.release();
          expect(order).to.deep.equal(['a timer fires while the writes are held', 'the writes are let go', 'the lock is taken']);
          expect(await knex('harvest_locks').select('source')).to.deep.equal([]);
        } finally {
          knex.off('query', onQuery);
          await held.release();
        }
      });
    },
    { migrated: true },
  );
});
