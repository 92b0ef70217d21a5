/**
 * A ListRecords page is bounded by bytes as well as by count (`pageBytes`,
 * docs/protocol.md#page-size): records with large metadata or about
 * containers end a page early with a resumption token, a record larger than
 * the budget is served alone, and the store is asked for no more records than
 * a page serves, by every harvester at once and by the next-page prefetch.
 */
import { expect } from 'chai';
import type { ItemRecord, ListPageQuery, ReadStore } from '../../../lib/store';
import { RIGHTS_NS } from '../../../lib/xml/namespaces';
import { dc, item } from '../../helpers/store-fixtures';
import { assertExactlyOnce } from '../../helpers/demo-records';
import { databaseKinds } from '../../helpers/db';
import { oaiGet, openTestProvider, resumption, texts, type TestProvider } from '../../helpers/server';

const MB = 1024 * 1024;
const BUDGET = 3 * MB;
const RECORDS = 30;
/** The record larger than the budget. */
const HUGE = 'huge';

/** A rights about container (OAI-PMH rights guidelines) of about `bytes` bytes. */
function bigRights(bytes: number): string {
  return `<rights xmlns="${RIGHTS_NS}"><rightsReference ref="https://example.org/licence/${'l'.repeat(bytes)}"></rightsReference></rights>`;
}

/** Record i: 1–2 MB, of metadata only (odd i) or half metadata, half an about container (even i). */
function bigItem(i: number) {
  const bytes = MB + Math.floor((i * MB) / RECORDS);
  const id = `r${String(i).padStart(2, '0')}`;
  return i % 2 === 1
    ? item(id, { metadata: { oai_dc: dc('t'.repeat(bytes)) } })
    : item(id, { metadata: { oai_dc: dc('t'.repeat(bytes / 2)) }, about: [{ xml: bigRights(bytes / 2) }] });
}

/** What the store was asked for: the stored bytes each listRecords call returned, and its rows. */
interface Reads {
  readonly calls: { rows: number; bytes: number }[];
}

/** Counts every record read through the provider's store (prefetched pages included: they read through it too). */
function instrument(store: ReadStore): Reads {
  const reads: Reads = { calls: [] };
  const listRecords = store.listRecords.bind(store);
  (store as { listRecords: ReadStore['listRecords'] }).listRecords = async (q: ListPageQuery) => {
    const rows = await listRecords(q);
    // Rows past the budget are keys only (lib/store/read.ts `ListPageQuery.budget`): nothing of them is read.
    const read = rows.filter((r) => r.overBudget !== true);
    reads.calls.push({ rows: read.length, bytes: read.reduce((n, r: ItemRecord) => n + served(r), 0) });
    return rows;
  };
  return reads;
}

const served = (r: ItemRecord): number => Buffer.byteLength(r.metadata ?? '') + (r.about ?? []).reduce((n, a) => n + Buffer.byteLength(a), 0);

/** Follows resumption tokens to the end (each answer XSD-checked by oaiGet); the identifiers of each page. */
async function harvestPages(p: TestProvider): Promise<{ pages: string[][]; bodies: number[]; cursors: number[] }> {
  const out = { pages: [] as string[][], bodies: [] as number[], cursors: [] as number[] };
  let query = 'verb=ListRecords&metadataPrefix=oai_dc';
  for (let page = 0; page < 100; page++) {
    const xml = await oaiGet(p.port, query);
    out.pages.push(texts(xml, 'identifier').filter((id) => id.startsWith('oai:')));
    out.bodies.push(Buffer.byteLength(xml));
    const r = resumption(xml);
    out.cursors.push(r?.cursor ?? 0);
    if (!r || r.token === '') return out;
    query = `verb=ListRecords&resumptionToken=${encodeURIComponent(r.token)}`;
  }
  throw new Error('the harvest did not end');
}

for (const kind of databaseKinds()) {
  describe(`ListRecords pages bounded by bytes, on ${kind}`, function () {
    this.timeout(120_000);
    let p: TestProvider;
    let reads: Reads;
    let ids: string[];

    before(async () => {
      p = await openTestProvider(kind, { seed: false, pageSize: 100, env: { OAI_PAGE_BYTES: String(BUDGET) } });
      const items = Array.from({ length: RECORDS }, (_, i) => bigItem(i));
      // One record larger than the budget, in the middle of the list.
      items.splice(RECORDS / 2, 0, item(HUGE, { metadata: { oai_dc: dc('h'.repeat(BUDGET + MB)) } }));
      for (let i = 0; i < items.length; i += 5) await p.store.writeItems(items.slice(i, i + 5));
      const headers = await oaiGet(p.port, 'verb=ListIdentifiers&metadataPrefix=oai_dc');
      ids = texts(headers, 'identifier');
      expect(ids).to.have.length(RECORDS + 1);
      reads = instrument(p.ctx.store);
    });

    after(async () => {
      await p?.close();
    });

    beforeEach(() => {
      reads.calls.length = 0;
    });

    it('ends each page once the next record would pass the budget, serving every record exactly once', async () => {
      const h = await harvestPages(p);
      await p.prefetch?.settled();
      expect(h.pages.length, 'pages').to.be.greaterThan(RECORDS / 2);
      assertExactlyOnce(h.pages.flat(), ids, 'record');
      const envelope = 64 * 1024;
      const biggest = BUDGET + MB + envelope;
      h.pages.forEach((page, i) => {
        const body = h.bodies[i] as number;
        if (page.length > 1) expect(body, `page ${i}`).to.be.below(BUDGET + envelope);
        else expect(body, `page ${i}`).to.be.below(biggest);
      });
      // cursor counts the records served before the page (OAI-PMH 2.0 section 3.5).
      let before = 0;
      h.pages.forEach((page, i) => {
        expect(h.cursors[i], `cursor of page ${i}`).to.equal(before);
        before += page.length;
      });
    });

    it('reads a page whose rows past the budget are keys only, the first row fitting whatever its size', async () => {
      const q = { metadataPrefix: 'oai_dc', until: Math.floor(Date.now() / 1000) + 3600, limit: 4 };
      const all = await p.ctx.store.listRecords(q);
      const sizes = all.map(served);
      expect(sizes.every((n) => n > MB)).to.equal(true);
      const first3 = (sizes[0] as number) + (sizes[1] as number) + (sizes[2] as number);
      const cases = [
        { budget: first3, fit: 3 },
        { budget: first3 - 1, fit: 2 },
        { budget: 1, fit: 1 },
        { budget: 10 * BUDGET, fit: 4 },
      ];
      for (const c of cases) {
        const rows = await p.ctx.store.listRecords({ ...q, budget: c.budget });
        expect(
          rows.map((r) => r.identifier),
          `budget ${c.budget}`,
        ).to.deep.equal(all.map((r) => r.identifier));
        expect(
          rows.map((r) => r.overBudget === true),
          `budget ${c.budget}`,
        ).to.deep.equal(all.map((_, i) => i >= c.fit));
        rows.forEach((r, i) => {
          if (i < c.fit) expect(served(r)).to.equal(sizes[i]);
          else expect([r.metadata, r.about ?? []]).to.deep.equal([null, []]);
        });
      }
    });

    it('serves a record larger than the budget alone on its page', async () => {
      const h = await harvestPages(p);
      const huge = ids.find((id) => id.endsWith(`:${HUGE}`));
      const page = h.pages.find((pg) => pg.includes(huge as string));
      expect(page).to.deep.equal([huge]);
    });

    it('reads from the store no more records than a page serves, with six harvesters at once and the prefetch', async () => {
      const harvests = await Promise.all(Array.from({ length: 6 }, () => harvestPages(p)));
      await p.prefetch?.settled();
      for (const h of harvests) assertExactlyOnce(h.pages.flat(), ids, 'record');
      expect(reads.calls.length).to.be.greaterThan(0);
      for (const call of reads.calls) {
        if (call.rows > 1) expect(call.bytes, 'bytes read for one page').to.be.at.most(BUDGET);
      }
      const served = harvests.reduce((n, h) => n + h.pages.flat().length, 0);
      // Every record read is served once, or twice at most when a prepared next page is dropped unused;
      // reading `pageSize + 1` rows a page, as a count-bounded page does, would read some thirty times over.
      const read = reads.calls.reduce((n, c) => n + c.rows, 0);
      expect(read).to.be.at.most(2 * served);
    });
  });
}
