/**
 * A harvest tells the database's planner how large it has made the hub's
 * tables each time the items it has written double (server/store/statistics.ts):
 * on PostgreSQL the plans prepared for its first pages would otherwise scan
 * the grown tables whole, page after page.
 */
import { expect } from 'chai';
import { StatisticsSchedule, FIRST_STATISTICS_REFRESH } from '../../server/store/statistics';
import { harvestSource } from '../../server/harvest/harvest';
import type { HarvestBookkeeping, WriteTransaction } from '../../lib/store';
import type { KnexStore } from '../../server/store/knex-store';
import { forEachThrowawayDatabase } from '../helpers/db';
import { startFakeProvider, type FakeRecord } from './provider';
import { openHub, source } from './hub';

describe('the statistics schedule', () => {
  it('is due when the items written reach 1,000, then at each doubling', () => {
    const s = new StatisticsSchedule();
    const due: number[] = [];
    for (let written = 100; written <= 9_000; written += 100) if (s.due(100)) due.push(written);
    expect(FIRST_STATISTICS_REFRESH).to.equal(1000);
    expect(due).to.deep.equal([1000, 2000, 4000, 8000]);
    // A large batch passing several doublings at once is one refresh.
    const big = new StatisticsSchedule();
    expect([big.due(5000), big.due(2000), big.due(1000)]).to.deep.equal([true, false, true]);
  });
});

describe('a harvest growing the hub', function () {
  this.timeout(60_000);
  forEachThrowawayDatabase((db) => {
    it('refreshes the statistics in the page transactions that take its items to 1,000 and 2,000', async () => {
      const fake = await startFakeProvider({ granularity: 'second', pageSize: 500 });
      const hub = await openHub(db());
      try {
        const t0 = Date.UTC(2024, 0, 1) / 1000;
        fake.records = Array.from({ length: 2100 }, (_, i): FakeRecord => ({
          id: String(i + 1),
          datestamp: new Date((t0 + i) * 1000).toISOString().replace('.000', ''),
          title: `Record ${i + 1}`,
        }));
        type Tx = WriteTransaction & HarvestBookkeeping;
        const refreshedAt: number[] = [];
        // The hub's store, with each transaction's refreshStatistics counted against the items then stored.
        const store: typeof hub.store = Object.assign(Object.create(hub.store) as typeof hub.store, {
          transaction: <T>(fn: (tx: Tx) => Promise<T>): Promise<T> =>
            hub.store.transaction((tx) =>
              fn(
                new Proxy(tx, {
                  get(target, key, receiver) {
                    if (key !== 'refreshStatistics') return Reflect.get(target, key, receiver) as unknown;
                    return async () => {
                      // Counted inside the page's transaction: its own items included.
                      const [row] = (await (target as unknown as KnexStore).knex('items').count({ n: '*' })) as { n: unknown }[];
                      refreshedAt.push(Number(row?.n));
                      await target.refreshStatistics();
                    };
                  },
                }),
              ),
            ),
        });
        const summary = await harvestSource(
          { store, formats: hub.formats, repository: { name: 'Test hub', baseUrl: 'http://hub.example.org/oai' } },
          source('big', fake.baseUrl),
          {
            client: { backoffBaseMs: 1, backoffMaxMs: 4, sleep: async () => {} },
          },
        );
        expect(summary).to.include({ completed: true, records: 2100, inserted: 2100, pages: 5 });
        expect(refreshedAt).to.deep.equal([1000, 2000]);
      } finally {
        await hub.close();
        await fake.close();
      }
    });
  });
});
