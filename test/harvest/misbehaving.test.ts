/**
 * The harvester against a provider that misbehaves on purpose
 * (./provider.ts): it waits as Retry-After asks, backs off on dropped
 * connections and slow answers, decodes gzip, refuses one bad record alone,
 * stops cleanly on a page that is never XML and resumes there, restarts a
 * list whose token expired, and asks `from` in the source's granularity.
 * Waits are recorded, not slept.
 */
import { expect } from 'chai';
import { forEachThrowawayDatabase } from '../helpers/db';
import { startFakeProvider, type FakeProvider, type FakeRecord } from './provider';
import { harvestOnce, itemsOf, openHub, source, type Hub } from './hub';

function records(n: number, start = 1): FakeRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    id: String(start + i),
    datestamp: `2024-01-${String(start + i).padStart(2, '0')}T12:00:00Z`,
    title: `Record ${start + i}`,
    sets: ['physics'],
  }));
}

const listRecords = (q: Record<string, string>): boolean => q.verb === 'ListRecords';
const page =
  (n: number) =>
  (q: Record<string, string>): boolean =>
    q.verb === 'ListRecords' && (n === 1 ? q.resumptionToken === undefined : q.resumptionToken?.startsWith(`${(n - 1) * 2}|`) === true);

describe('harvesting a misbehaving provider', function () {
  this.timeout(60_000);
  let fake: FakeProvider;
  let hub: Hub | undefined;
  afterEach(async () => {
    await hub?.close();
    hub = undefined;
    await fake?.close();
  });

  forEachThrowawayDatabase((db) => {
    it('stops a list whose tokens run in a circle at the first token seen again, naming the pages, with every page before it written', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(9);
      fake.loopAt = 3; // pages 1, 2, 3, then page 3's token is page 1's again
      hub = await openHub(db());
      const { summary } = await harvestOnce(hub, source('circle', fake.baseUrl));
      expect(summary.error).to.match(/page 3: the source answered a resumptionToken it answered on page 1 of this run, so its list runs in a circle/);
      expect(summary.pages).to.equal(2);
      expect((await itemsOf(hub)).length).to.equal(4);
      // Three ListRecords requests, not hundreds.
      expect(fake.requests.filter((r) => listRecords(r.query))).to.have.length(3);
    });

    it("refuses alone a record holding bytes that are not UTF-8, never storing U+FFFD in their place, and writes the page's others", async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 10 });
      fake.records = records(3);
      fake.faults = [{ when: listRecords, times: 1, fault: 'not-utf8' }];
      hub = await openHub(db());
      const { summary, refusals } = await harvestOnce(hub, source('bytes', fake.baseUrl));
      expect(summary).to.include({ completed: true, inserted: 2, refused: 1 });
      expect(refusals.map((r) => [r.internalId, r.source])).to.deep.equal([['bytes:oai:bad.example.org:2', 'bytes page 1 (oai:bad.example.org:2)']]);
      expect(refusals[0]?.reason).to.match(/bytes that are not UTF-8.*RFC 3629/);
      const stored = (await hub.knex('records').select('xml')) as { xml: string | null }[];
      expect(stored.some((r) => r.xml?.includes('\uFFFD') === true)).to.equal(false);
    });

    it('stops a run at an answer that inflates past the cap (a gzip bomb), naming the source, the URL and the cap, and resumes there', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2, gzip: true });
      // Page 2's titles inflate far past a 64 KiB cap while its gzip stays small.
      fake.records = records(4).map((r, i) => (i >= 2 ? { ...r, title: 'x'.repeat(200_000) } : r));
      hub = await openHub(db());
      const capped = { client: { maxPageBytes: 64 * 1024 } };
      const { summary } = await harvestOnce(hub, source('bomb', fake.baseUrl), capped);
      expect(summary.error).to.match(
        /^bomb ListRecords oai_dc page 2 \(http:\/\/127\.0\.0\.1:\d+\/oai\?verb=ListRecords&resumptionToken=\S+\) sent a gzip body that inflates past the cap of 65536 bytes/,
      );
      expect(summary).to.include({ pages: 1, inserted: 2 });
      // Not retried: the same request brings the same answer.
      expect(fake.requests.filter((r) => listRecords(r.query))).to.have.length(2);
      // The next run, under a cap that fits, resumes at that page.
      const again = await harvestOnce(hub, source('bomb', fake.baseUrl));
      expect(again.summary).to.include({ completed: true, inserted: 2 });
    });

    it('stops a run at an answer larger than the cap as sent', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 10 });
      fake.records = records(2).map((r) => ({ ...r, title: 'y'.repeat(100_000) }));
      hub = await openHub(db());
      const { summary } = await harvestOnce(hub, source('large', fake.baseUrl), { client: { maxPageBytes: 64 * 1024 } });
      expect(summary.error).to.match(/sent more than the cap of 65536 bytes an answer/);
      expect((await itemsOf(hub)).length).to.equal(0);
    });

    it('stops reading ListSets whose tokens run in a circle, declares the sets read, and harvests the records', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 10 });
      fake.records = records(3);
      fake.cyclingSets = true;
      hub = await openHub(db());
      const { summary, warnings } = await harvestOnce(hub, source('sets', fake.baseUrl));
      expect(warnings.join('\n')).to.match(/ListSets page 3: the source answered a resumptionToken it answered on page 1, so its list runs in a circle/);
      expect(fake.requests.filter((r) => r.query.verb === 'ListSets')).to.have.length(3);
      expect(summary).to.include({ completed: true, inserted: 3 });
    });

    it("asks the next run from its own time when the source's clock runs years ahead, and says so", async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 10 });
      fake.records = records(3);
      fake.responseDate = '2030-01-01T00:00:00Z';
      hub = await openHub(db());
      const before = Math.floor(Date.now() / 1000);
      const first = await harvestOnce(hub, source('ahead', fake.baseUrl));
      expect(first.summary.inserted).to.equal(3);
      expect(first.warnings.join('\n')).to.match(/clock runs \d+ s ahead of this one \(responseDate 2030-01-01T00:00:00Z\)/);
      fake.requests.length = 0;
      await harvestOnce(hub, source('ahead', fake.baseUrl));
      const asked = fake.requests.find((r) => r.query.verb === 'ListRecords')?.query.from ?? '';
      // One second before the hub's clock at the first run, not 2029-12-31T23:59:59Z.
      expect(Date.parse(asked) / 1000).to.be.within(before - 1, Math.floor(Date.now() / 1000));
    });

    it('waits as 503 and 429 ask, backs off on a dropped connection and a slow answer, and decodes gzip', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2, gzip: true, slowMs: 400 });
      fake.records = records(5);
      fake.faults = [
        { when: page(1), times: 1, fault: '503' },
        { when: page(2), times: 1, fault: '429' },
        { when: page(2), times: 1, fault: 'drop' },
        { when: page(3), times: 1, fault: 'slow' },
      ];
      hub = await openHub(db());
      const { summary, waits } = await harvestOnce(hub, source('bad', fake.baseUrl, { politeness: { delayMs: 0, timeoutMs: 150, retries: 3 } }));
      expect(summary.error).to.equal(undefined);
      expect(summary).to.include({ completed: true, records: 5, inserted: 5, refused: 0, pages: 3, retries: 4 });
      // Retry-After: 7 seconds as asked; the HTTP-date about 3 s ahead; backoffs of at most 4 ms.
      expect(waits).to.include(7000);
      expect(waits.filter((w) => w > 1000 && w <= 3000)).to.have.length(1);
      expect(waits.filter((w) => w <= 4)).to.have.length(2);
      for (const r of fake.requests) {
        expect(r.headers['user-agent']).to.match(/^oai-steward\/\S+ \(harvester of Test hub; http:\/\/hub\.example\.org\/oai\)$/);
        expect(r.headers['accept-encoding']).to.match(/gzip/);
      }
      const items = await itemsOf(hub);
      expect(items.map((i) => i.id)).to.deep.equal(['1', '2', '3', '4', '5'].map((n) => `bad:oai:bad.example.org:${n}`));
      // The source's set, and its own set under it.
      expect(items[0]?.sets.split('\u001f').sort()).to.deep.equal(['source:bad', 'source:bad:physics']);
    });

    it('backs off on a 500 and decodes deflate', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2, deflate: true });
      fake.records = records(3);
      fake.faults = [{ when: page(2), times: 2, fault: '500' }];
      hub = await openHub(db());
      const { summary, waits } = await harvestOnce(hub, source('bad', fake.baseUrl));
      expect(summary).to.include({ completed: true, inserted: 3, retries: 2 });
      // Exponential: the second wait's ceiling is twice the first's (1 ms, then 2 ms, capped at 4).
      expect(waits).to.have.length(2);
      for (const w of waits) expect(w).to.be.within(1, 4);
      expect(fake.requests.filter((r) => /deflate/.test(String(r.headers['accept-encoding'])))).to.have.length(fake.requests.length);
    });

    it('gives up on a source that keeps failing, naming it, the URL and the last answer', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(3);
      fake.faults = [{ when: page(1), times: 99, fault: '503' }];
      hub = await openHub(db());
      const { summary } = await harvestOnce(hub, source('bad', fake.baseUrl));
      expect(summary.completed).to.equal(false);
      expect(summary.error).to.match(/^bad: http:\/\/127\.0\.0\.1:\d+\/oai\?verb=ListRecords&metadataPrefix=oai_dc failed after 4 attempts: HTTP 503$/);
      expect(await itemsOf(hub)).to.deep.equal([]);
    });

    it('waits the politeness delay between two requests', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(3);
      hub = await openHub(db());
      const { summary, waits } = await harvestOnce(hub, source('bad', fake.baseUrl, { politeness: { delayMs: 400, timeoutMs: 2000, retries: 0 } }));
      expect(summary).to.include({ completed: true, inserted: 3, retries: 0 });
      // Identify, ListSets and two pages: three gaps, each waited for (the recorded sleep returns at once).
      expect(waits).to.have.length(3);
      for (const w of waits) expect(w).to.be.within(1, 400);
    });

    it('refuses a record holding a control character alone, naming source, page and identifier', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(4);
      (fake.records[2] as FakeRecord).title = 'Bell \u0007 here';
      (fake.records[3] as FakeRecord).title = 'Escaped &#x1; too';
      hub = await openHub(db());
      const { summary, refusals } = await harvestOnce(hub, source('bad', fake.baseUrl));
      expect(summary).to.include({ completed: true, records: 4, inserted: 2, refused: 2 });
      expect(refusals.map((r) => [r.source, r.internalId, r.field])).to.deep.equal([
        ['bad page 2 (oai:bad.example.org:3)', 'bad:oai:bad.example.org:3', 'xml'],
        ['bad page 2 (oai:bad.example.org:4)', 'bad:oai:bad.example.org:4', 'xml'],
      ]);
      expect(refusals[0]?.reason).to.match(/U\+0007.*XML 1\.0/);
      expect((await itemsOf(hub)).map((i) => i.id)).to.deep.equal(['bad:oai:bad.example.org:1', 'bad:oai:bad.example.org:2']);
      const [state] = await hub.store.harvestStates('bad');
      expect(state).to.include({ records: 4, refused: 2, token: null });
    });

    it('asks again for a page that is not XML once; stops on one that never is, nothing of it written, and resumes there', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(6);
      fake.faults = [
        { when: page(1), times: 1, fault: 'not-xml' },
        { when: page(2), times: 99, fault: 'malformed' },
      ];
      hub = await openHub(db());
      const first = await harvestOnce(hub, source('bad', fake.baseUrl));
      expect(first.summary.completed).to.equal(false);
      expect(first.summary.error).to.match(
        /^bad ListRecords oai_dc page 2 \(http:\/\/127\.0\.0\.1:\d+\/oai\?verb=ListRecords&resumptionToken=[^)]+\) is not an OAI-PMH response after 4 attempts \(line \d+: not well-formed XML: .*\); the run stops here, nothing of this page was written, and the next run resumes at it$/,
      );
      expect((await itemsOf(hub)).map((i) => i.id)).to.deep.equal(['bad:oai:bad.example.org:1', 'bad:oai:bad.example.org:2']);
      const [stopped] = await hub.store.harvestStates('bad');
      expect(stopped?.token).to.match(/^2\|/);
      expect(stopped?.lastError).to.equal(first.summary.error);

      fake.faults = [];
      const before = fake.requests.length;
      const second = await harvestOnce(hub, source('bad', fake.baseUrl));
      expect(second.summary).to.include({ completed: true, resumed: 1, records: 4, inserted: 4 });
      // The resumed list starts with the checkpoint's token, not from the beginning.
      expect(fake.requests.slice(before).find((r) => r.query.verb === 'ListRecords')?.query.resumptionToken).to.match(/^2\|/);
      expect((await itemsOf(hub)).map((i) => i.id)).to.have.length(6);
    });

    it('starts a --delete-missing run afresh rather than resume a run that did not record what it saw', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(6);
      fake.faults = [{ when: page(2), times: 99, fault: 'malformed' }];
      hub = await openHub(db());
      expect((await harvestOnce(hub, source('bad', fake.baseUrl))).summary.completed).to.equal(false);
      // Record 1 leaves the source without a trace; the source answers well again.
      fake.records = records(5, 2);
      fake.faults = [];
      const full = await harvestOnce(hub, source('bad', fake.baseUrl), { deleteMissing: true });
      expect(full.summary).to.include({ completed: true, resumed: 0, records: 5, inserted: 4, unchanged: 1, deleted: 1 });
      expect((await itemsOf(hub)).map((i) => [i.id.replace('bad:oai:bad.example.org:', ''), i.deleted])).to.deep.equal([
        ['1', true],
        ['2', false],
        ['3', false],
        ['4', false],
        ['5', false],
        ['6', false],
      ]);
    });

    it('starts a list again from its from when the source refuses an expired token', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(5);
      fake.faults = [{ when: page(3), times: 1, fault: 'bad-token' }];
      hub = await openHub(db());
      const { summary, warnings } = await harvestOnce(hub, source('bad', fake.baseUrl));
      // The pages before the refused token are read again and written unchanged.
      expect(summary).to.include({ completed: true, restarted: 1, inserted: 5, unchanged: 4 });
      expect(warnings.some((w) => /badResumptionToken/.test(w))).to.equal(true);
      expect((await itemsOf(hub)).filter((i) => !i.deleted)).to.have.length(5);
    });

    it('asks from the last responseDate less one granule, in day granularity; deletions become tombstones; --delete-missing removes what left', async () => {
      fake = await startFakeProvider({ granularity: 'day', pageSize: 10 });
      fake.records = records(3);
      fake.responseDate = '2024-03-05T10:00:00Z';
      hub = await openHub(db());
      expect((await harvestOnce(hub, source('bad', fake.baseUrl))).summary).to.include({ completed: true, inserted: 3 });

      // At the source: record 1 deleted (kept as deleted), record 2 gone without a trace, record 4 new.
      fake.records = [
        { id: '1', datestamp: '2024-03-05T09:00:00Z', title: 'Record 1', deleted: true },
        { id: '3', datestamp: '2024-01-03T12:00:00Z', title: 'Record 3' },
        { id: '4', datestamp: '2024-03-04T08:00:00Z', title: 'Record 4', sets: ['physics'] },
      ];
      fake.responseDate = '2024-03-06T10:00:00Z';
      const before = fake.requests.length;
      const incremental = await harvestOnce(hub, source('bad', fake.baseUrl));
      expect(fake.requests.slice(before).find((r) => listRecords(r.query))?.query.from).to.equal('2024-03-04');
      expect(incremental.summary).to.include({ completed: true, records: 2, inserted: 1, deleted: 1 });
      const [state] = await hub.store.harvestStates('bad');
      expect(state).to.include({ lastResponseDate: '2024-03-06T10:00:00Z', lastFrom: '2024-03-04' });

      const full = await harvestOnce(hub, source('bad', fake.baseUrl), { deleteMissing: true });
      expect(full.summary).to.include({ completed: true, records: 3, deleted: 1 });
      const items = await itemsOf(hub);
      expect(items.map((i) => [i.id.replace('bad:oai:bad.example.org:', ''), i.deleted])).to.deep.equal([
        ['1', true],
        ['2', true],
        ['3', false],
        ['4', false],
      ]);
    });
  });
});
