/**
 * A list harvest asks for the next page as soon as this page's token is
 * read, and reads it while this page is written: the source works while
 * the hub writes. What that must not change: requests still go one at a
 * time in the tokens' order, the store ends as it did, a stop or a failure
 * leaves nothing half-written and ends the request asked ahead, and the
 * run's limits are met at the same page.
 */
import { expect } from 'chai';
import { forEachThrowawayDatabase } from '../helpers/db';
import { HarvestInterrupted } from '../../server/harvest/harvest-types';
import { harvestOnce, itemsOf, openHub, source, type Hub } from './hub';
import { startFakeProvider, type FakeProvider, type FakeRecord } from './provider';

function records(n: number): FakeRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    id: String(i + 1),
    datestamp: `2024-01-${String(i + 1).padStart(2, '0')}T12:00:00Z`,
    title: `Record ${i + 1}`,
  }));
}

/** The ListRecords requests the provider has seen: the first asks with metadataPrefix, the others with the token. */
const lists = (fake: FakeProvider): Record<string, string>[] => fake.requests.map((r) => r.query).filter((q) => q.verb === 'ListRecords');

/**
 * Whether the provider (in this process: it sees a request when the test
 * yields) comes to have seen `n` ListRecords requests. A request sent
 * arrives in a few milliseconds; a second is far more, and short of a
 * slow answer's 1.5 s.
 */
async function providerSees(fake: FakeProvider, n: number): Promise<boolean> {
  for (let i = 0; i < 100 && lists(fake).length < n; i++) await new Promise((r) => setTimeout(r, 10));
  return lists(fake).length >= n;
}

describe('a list harvest asks for the next page while it writes this one', function () {
  this.timeout(60_000);
  let fake: FakeProvider | undefined;
  let hub: Hub | undefined;
  afterEach(async () => {
    await hub?.close();
    await fake?.close();
    hub = undefined;
    fake = undefined;
  });

  forEachThrowawayDatabase((db) => {
    it('has asked for page k + 1 when page k is committed, each request once and in order', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(7);
      hub = await openHub(db());
      const f = fake;
      // After page k is committed, with the harvest waiting (betweenPages), does the provider see page k + 1 asked
      // for? Only if the harvest asked before the commit: it asks for nothing more while it waits here.
      const seenAfterCommit: boolean[] = [];
      const { summary } = await harvestOnce(hub, source('ahead', f.baseUrl), {
        betweenPages: async () => {
          const want = seenAfterCommit.length + 2;
          seenAfterCommit.push(await providerSees(f, want));
        },
      });
      expect(summary).to.include({ completed: true, pages: 4, records: 7, inserted: 7 });
      // Pages 1 to 3 have a successor (page 4, the last, has no betweenPages).
      expect(seenAfterCommit).to.deep.equal([true, true, true]);
      const asked = lists(f);
      expect(asked).to.have.length(4);
      expect(asked[0]).to.deep.include({ metadataPrefix: 'oai_dc' });
      // Each token is the one the page before answered: the offsets of pages 2, 3 and 4.
      expect(asked.slice(1).map((q) => q.resumptionToken?.split('|')[0])).to.deep.equal(['2', '4', '6']);
      expect(await itemsOf(hub)).to.have.length(7);
    });

    it('ends the request asked ahead when the run is stopped between pages, nothing after the stop written', async () => {
      // Page 2's answer comes late: the stop after page 1 finds its request still open.
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2, slowMs: 1500 });
      fake.records = records(5);
      fake.faults = [{ when: (q) => q.resumptionToken !== undefined, times: 1, fault: 'slow' }];
      hub = await openHub(db());
      const stop = new HarvestInterrupted('the server is stopping');
      const f = fake;
      const stopped = await harvestOnce(hub, source('ahead', f.baseUrl), {
        betweenPages: async () => {
          // Stopped once page 2's request has reached the provider, whose answer is then 1.5 s away.
          expect(await providerSees(f, 2)).to.equal(true);
          throw stop;
        },
      }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(stopped).to.equal(stop);
      expect(lists(fake)).to.have.length(2);
      // The abort is at once; a second is far more than it takes, and less than the late answer's 1.5 s.
      for (let i = 0; i < 100 && fake.abandoned === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(fake.abandoned).to.equal(1);
      expect((await itemsOf(hub)).map((i) => i.id)).to.deep.equal(['ahead:oai:bad.example.org:1', 'ahead:oai:bad.example.org:2']);
      // The next run resumes at page 2 and ends with every record.
      const resumed = await harvestOnce(hub, source('ahead', fake.baseUrl));
      expect(resumed.summary).to.include({ completed: true, resumed: 1, records: 3 });
      expect(await itemsOf(hub)).to.have.length(5);
    });

    it('meets a failure of the page asked ahead only once the page before it is committed', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(5);
      // Page 2 is never well-formed: the run stops at it, page 1 written.
      fake.faults = [{ when: (q) => q.resumptionToken?.startsWith('2|') === true, times: 100, fault: 'malformed' }];
      hub = await openHub(db());
      const committed: number[] = [];
      const { summary } = await harvestOnce(hub, source('ahead', fake.baseUrl), { onPage: (p) => committed.push(p.page) });
      expect(committed).to.deep.equal([1]);
      expect(summary.completed).to.equal(false);
      expect(summary.error).to.match(/ListRecords oai_dc page 2 .* is not an OAI-PMH response after 4 attempts/);
      expect(await itemsOf(hub)).to.have.length(2);
    });

    it('asks for no page past the run’s limits', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(9);
      hub = await openHub(db());
      const { summary } = await harvestOnce(hub, source('ahead', fake.baseUrl, { limits: { pages: 2 } }));
      expect(summary.error).to.match(/page 3: the run has read 2 pages/);
      // Pages 1 and 2, and no request for page 3.
      expect(lists(fake)).to.have.length(2);
    });
  });
});
