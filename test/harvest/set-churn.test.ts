/**
 * A source whose sets churn: the sets its whole ListSets no longer names
 * (and no record of the run is in) are retired when a run ends, their
 * members leaving them with a departure, and a set no item was ever in is
 * forgotten outright, so runs naming new sets each time leave only the
 * last run's. A run that cannot tell (its ListSets cut short by
 * limits.sets, or noSetHierarchy) retires nothing.
 */
import { expect } from 'chai';
import { forEachThrowawayDatabase } from '../helpers/db';
import { startFakeProvider, type FakeProvider } from './provider';
import { harvestOnce, openHub, source, type Hub } from './hub';

const set = (spec: string): { spec: string; name: string } => ({ spec, name: `Set ${spec}` });

describe('a source whose sets churn', function () {
  this.timeout(120_000);

  forEachThrowawayDatabase((db) => {
    let fake: FakeProvider | undefined;
    let hub: Hub | undefined;
    afterEach(async () => {
      await hub?.close();
      hub = undefined;
      await fake?.close();
      fake = undefined;
    });

    const declared = async (h: Hub): Promise<string[]> =>
      ((await h.knex('sets').where('spec', 'like', 'source:churn:%').orderBy('spec').select('spec')) as { spec: string }[]).map((r) => r.spec);
    const retired = async (h: Hub): Promise<string[]> =>
      ((await h.knex('retired_sets').orderBy('spec').select('spec')) as { spec: string }[]).map((r) => r.spec);
    /** The item's rows of item_sets under the source, as spec and whether it left. */
    const memberships = async (h: Hub, id: string): Promise<[string, boolean][]> => {
      const rows = (await h
        .knex('item_sets as s')
        .join('items as i', 'i.pk', 's.item_pk')
        .where('i.internal_id', id)
        .andWhere('s.spec', 'like', 'source:churn:%')
        .orderBy('s.spec')
        .select('s.spec', 's.departed')) as { spec: string; departed: unknown }[];
      return rows.map((r) => [r.spec, r.departed !== null]);
    };

    it('retires the sets the source no longer lists, its members leaving them, and forgets the ones never held', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 10 });
      fake.sets = [set('a'), set('b'), set('c'), set('p'), set('p:q')];
      fake.records = [
        { id: '1', datestamp: '2020-01-01T00:00:00Z', title: 'In a', sets: ['a'] },
        { id: '2', datestamp: '2020-01-02T00:00:00Z', title: 'In b and p:q', sets: ['b', 'p:q'] },
      ];
      hub = await openHub(db());
      const first = await harvestOnce(hub, source('churn', fake.baseUrl));
      expect(first.summary).to.include({ completed: true, inserted: 2 });
      expect(await declared(hub)).to.deep.equal(['a', 'b', 'c', 'p', 'p:q'].map((s) => `source:churn:${s}`));

      // The source drops a, c and p:q (keeping p) and names d: no record changed, so none is harvested again.
      fake.sets = [set('b'), set('d'), set('p')];
      const second = await harvestOnce(hub, source('churn', fake.baseUrl));
      expect(second.summary).to.include({ completed: true, records: 0 });
      expect(await declared(hub)).to.deep.equal(['b', 'd', 'p'].map((s) => `source:churn:${s}`));
      // The sets someone was in stay retired (a harvest of them reports their former members deleted); c never held anyone.
      expect(await retired(hub)).to.deep.equal(['source:churn:a', 'source:churn:p:q']);
      expect(await memberships(hub, 'churn:oai:bad.example.org:1')).to.deep.equal([['source:churn:a', true]]);
      expect(await memberships(hub, 'churn:oai:bad.example.org:2')).to.deep.equal([
        ['source:churn:b', false],
        ['source:churn:p', true],
        ['source:churn:p:q', true],
      ]);
      expect(second.warnings).to.include(
        'churn: 3 sets the source no longer has are retired (source:churn:a, source:churn:c, source:churn:p:q); 2 items left them',
      );
    });

    it('keeps a set a record of the run is in though the ListSets does not name it', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 10 });
      fake.sets = [set('a')];
      fake.records = [{ id: '1', datestamp: '2020-01-01T00:00:00Z', title: 'In a and z', sets: ['a', 'z'] }];
      hub = await openHub(db());
      expect((await harvestOnce(hub, source('churn', fake.baseUrl))).summary).to.include({ completed: true, inserted: 1 });
      expect(await declared(hub)).to.deep.equal(['source:churn:a', 'source:churn:z']);
      expect(await retired(hub)).to.deep.equal([]);
    });

    it("leaves only the last run's sets of a source naming new ones every run", async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 10 });
      fake.records = [{ id: '1', datestamp: '2020-01-01T00:00:00Z', title: 'In no set' }];
      hub = await openHub(db());
      for (let run = 1; run <= 4; run++) {
        fake.sets = Array.from({ length: 50 }, (_, i) => set(`r${run}.${i}`));
        expect((await harvestOnce(hub, source('churn', fake.baseUrl))).summary.completed).to.equal(true);
        const now = await declared(hub);
        expect(now).to.have.length(50);
        expect(now[0]).to.equal(`source:churn:r${run}.0`);
      }
      expect(await retired(hub)).to.deep.equal([]);
    });

    it('retires nothing when its ListSets was cut short by limits.sets, nor when the source answers noSetHierarchy', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 10 });
      fake.sets = [set('a'), set('b'), set('c')];
      fake.records = [{ id: '1', datestamp: '2020-01-01T00:00:00Z', title: 'In a', sets: ['a'] }];
      hub = await openHub(db());
      await harvestOnce(hub, source('churn', fake.baseUrl));
      fake.sets = [set('d'), set('e'), set('f')];
      const cut = await harvestOnce(hub, source('churn', fake.baseUrl, { limits: { sets: 2 } }));
      expect(cut.summary.completed).to.equal(true);
      expect(await declared(hub)).to.deep.equal(['a', 'b', 'c', 'd', 'e'].map((s) => `source:churn:${s}`));
      fake.sets = [];
      await harvestOnce(hub, source('churn', fake.baseUrl));
      expect(await declared(hub)).to.have.length(5);
      expect(await retired(hub)).to.deep.equal([]);
    });
  });
});
