/**
 * One record hostile to an XML parser (nested deeper than libxml2's limit,
 * or with attributes or namespace declarations by the tens of thousands) is
 * refused alone: the rest of its page is written, the refusal names the
 * record and the reason, the run completes, and the next run goes past it.
 */
import { expect } from 'chai';
import { forEachThrowawayDatabase } from '../helpers/db';
import { startFakeProvider, type FakeProvider, type FakeRecord, type Hostile } from './provider';
import { harvestOnce, itemsOf, openHub, source, type Hub } from './hub';

/** `n` records a minute apart, numbered from 1, the one numbered `bad.at` hostile as `bad.hostile` says. */
function records(n: number, bad?: { at: number; hostile: Hostile }): FakeRecord[] {
  return Array.from({ length: n }, (_, i) => {
    const k = i + 1;
    return {
      id: String(k),
      datestamp: new Date(Date.UTC(2024, 0, 1, 0, k)).toISOString().replace('.000', ''),
      title: `Record ${k}`,
      ...(bad?.at === k && { hostile: bad.hostile }),
    };
  });
}

/** What the expected cost of reading such a page is, at most, on a loaded machine: well under this. */
const EXPECTED_MS = 3_000;

describe('harvesting a page with one record hostile to the parser', function () {
  this.timeout(60_000);
  let fake: FakeProvider;
  let hub: Hub | undefined;
  afterEach(async () => {
    await hub?.close();
    hub = undefined;
    await fake?.close();
  });

  forEachThrowawayDatabase((db) => {
    it('keeps the 99 good records of a page whose one record is nested 300 levels deep, refuses that one alone, and goes past it next run', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 100 });
      fake.records = records(100, { at: 50, hostile: 'deep' });
      hub = await openHub(db());
      const { summary, refusals } = await harvestOnce(hub, source('deep', fake.baseUrl));
      expect(summary.error).to.equal(undefined);
      expect(summary).to.include({ completed: true, inserted: 99, refused: 1 });
      expect(refusals.map((r) => [r.internalId, r.source])).to.deep.equal([['deep:oai:bad.example.org:50', 'deep page 1 (oai:bad.example.org:50)']]);
      expect(refusals[0]?.reason).to.match(/nested deeper than 256 levels/);
      expect((await itemsOf(hub)).map((i) => i.id)).to.not.include('deep:oai:bad.example.org:50');

      // A day later the source adds a record: the next run asks from past the deep one (still at the source), and writes the new one.
      fake.records = [...fake.records, { id: '101', datestamp: '2024-03-06T00:00:00Z', title: 'Record 101' }];
      fake.responseDate = '2024-03-06T10:00:00Z';
      const next = await harvestOnce(hub, source('deep', fake.baseUrl));
      expect(next.summary.error).to.equal(undefined);
      expect(next.summary).to.include({ completed: true, inserted: 1, refused: 0 });
      expect(String(fake.requests.at(-1)?.query.from) > '2024-01-01T00:50:00Z', 'asked from past the deep record').to.equal(true);
      expect(await itemsOf(hub)).to.have.length(100);
    });

    for (const [hostile, reason] of [
      ['attributes', /an element with more than 256 attributes/],
      ['namespaces', /an element declaring more than 256 namespaces/],
    ] as const) {
      it(`refuses alone, in linear time, a record with an element of ${hostile === 'attributes' ? '100,000 attributes' : '50,000 namespace declarations'}`, async () => {
        fake = await startFakeProvider({ granularity: 'second', pageSize: 10 });
        fake.records = records(3, { at: 2, hostile });
        hub = await openHub(db());
        const began = Date.now();
        const { summary, refusals } = await harvestOnce(hub, source('bomb', fake.baseUrl));
        // Quadratic reading took 87.6 s (attributes) and 46 s (namespaces).
        expect(Date.now() - began).to.be.below(10 * EXPECTED_MS);
        expect(summary).to.include({ completed: true, inserted: 2, refused: 1 });
        expect(refusals.map((r) => r.internalId)).to.deep.equal(['bomb:oai:bad.example.org:2']);
        expect(refusals[0]?.reason).to.match(reason);
      });
    }
  });
});
