/**
 * Read-ahead of the next page (server/http/prefetch.ts): the query of the
 * page after this one is issued as soon as this page's rows are read, before
 * this page is rendered, and rows read ahead keep every rule of a prepared
 * page (age counted from the read, dropped by a write, served once).
 * Shown by the order of events, never by time.
 */
import { expect } from 'chai';
import { PagePrefetch } from '../../../server/http/prefetch';
import type { PreparedPage } from '../../../server/http/prefetch';
import type { OaiResponse } from '../../../lib/oai';
import type { ItemRecord, ListPageQuery } from '../../../lib/store';
import { forEachProvider, oaiGet, resumption, texts } from '../../helpers/server';

function response(n: number): OaiResponse {
  return { responseDate: n, baseURL: 'http://x.org/oai', body: { kind: 'errors', errors: [] } };
}

function rendered(r: OaiResponse | undefined): PreparedPage | undefined {
  return r && { response: r, xml: Buffer.from(String(r.responseDate)), dateOffset: 0 };
}

describe('rows read ahead of their page', () => {
  let clock = 0;
  const make = (o: { maxEntries?: number } = {}) => new PagePrefetch({ lifetimeMs: 2000, clock: () => clock, ...o });
  beforeEach(() => {
    clock = 1000;
  });

  it('issues the read at once, not on a later turn', () => {
    const p = make();
    const order: string[] = [];
    p.readAhead('k', async () => {
      order.push('read');
      return response(1);
    });
    order.push('after readAhead');
    expect(order).to.deep.equal(['read', 'after readAhead']);
  });

  it('hands the rows read ahead to the page prepared for the same key', async () => {
    const p = make();
    p.readAhead('k', async () => response(7));
    let given: OaiResponse | undefined;
    p.prepare('k', async (ahead) => rendered((given = await ahead)));
    expect((await p.take('k'))?.response.responseDate).to.equal(7);
    expect(given?.responseDate).to.equal(7);
    expect(p.readingAhead).to.equal(0);
  });

  it('counts a prepared page’s age from when its rows were read ahead', async () => {
    const p = make();
    p.readAhead('k', async () => response(1));
    clock += 1500;
    p.prepare('k', async (ahead) => rendered(await ahead));
    await p.settled();
    clock += 600;
    expect(await p.take('k'), '2.1 s after the read, though 0.6 s after it was rendered').to.equal(undefined);
  });

  it('drops rows read ahead when invalidated', async () => {
    const p = make();
    p.readAhead('k', async () => response(1));
    p.invalidate();
    expect(p.readingAhead).to.equal(0);
    let given: OaiResponse | undefined = response(0);
    p.prepare('k', async (ahead) => {
      given = await ahead;
      return rendered(response(2));
    });
    expect((await p.take('k'))?.response.responseDate, 'prepared from a fresh read').to.equal(2);
    expect(given).to.equal(undefined);
  });

  it('reads no more pages ahead than its bound, and none for a page already prepared', () => {
    const p = make({ maxEntries: 2 });
    const reads: string[] = [];
    for (const k of ['a', 'b', 'c']) p.readAhead(k, async () => (reads.push(k), response(1)));
    expect(reads).to.deep.equal(['a', 'b']);
    const q = make();
    q.prepare('x', async () => rendered(response(1)));
    expect(q.readAhead('x', async () => response(2))).to.equal(false);
  });

  it('gives the prepared page a fresh read when the read ahead failed', async () => {
    const p = make();
    p.readAhead('k', async () => {
      throw new Error('store down');
    });
    p.prepare('k', async (ahead) => rendered((await ahead) ?? response(3)));
    expect((await p.take('k'))?.response.responseDate).to.equal(3);
  });
});

describe('a harvest whose next page is read while this one is rendered', function () {
  forEachProvider({ pageSize: 5 }, (provider) => {
    it('issues the query of page n + 1 before page n is rendered, and serves the same pages as a harvest without prefetch', async () => {
      const p = provider();
      const store = p.ctx.store;
      const original = store.listRecords.bind(store);
      const events: string[] = [];
      let reads = 0;
      // Each read is numbered by its page; rendering a page reads its records' metadata, which marks it.
      store.listRecords = async (q: ListPageQuery): Promise<readonly ItemRecord[]> => {
        const page = ++reads;
        events.push(`query ${page}`);
        const rows = await original(q);
        let marked = false;
        return rows.map((r) => {
          const copy = { ...r };
          Object.defineProperty(copy, 'metadata', {
            enumerable: true,
            get: () => {
              if (!marked) events.push(`render ${page}`);
              marked = true;
              return r.metadata;
            },
          });
          return copy;
        });
      };
      try {
        const first = await oaiGet(p.port, 'verb=ListRecords&metadataPrefix=oai_dc');
        await p.prefetch?.settled();
        const token = resumption(first)?.token ?? '';
        const second = await oaiGet(p.port, `verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`);
        await p.prefetch?.settled();
        expect(events.indexOf('query 2'), 'page 2 asked for before page 1 was rendered').to.be.within(0, events.indexOf('render 1'));
        expect(events.indexOf('query 3'), 'page 3 asked for before page 2 was rendered').to.be.within(0, events.indexOf('render 2'));
        expect(events.indexOf('render 1')).to.be.above(-1);
        // The pages are what a fresh read gives.
        store.listRecords = original;
        p.prefetch?.invalidate();
        const fresh = await oaiGet(p.port, `verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`);
        expect(texts(second, 'identifier')).to.have.length(5);
        expect(texts(second, 'identifier')).to.deep.equal(texts(fresh, 'identifier'));
      } finally {
        store.listRecords = original;
        p.prefetch?.invalidate();
      }
    });
  });
});
