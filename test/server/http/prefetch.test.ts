/**
 * The next-page prefetcher (server/http/prefetch.ts): a prepared page is
 * served once, only while fresh, never after a write of this process, and
 * shows exactly what its documented consistency allows.
 */
import { expect } from 'chai';
import { PagePrefetch } from '../../../server/http/prefetch';
import type { PreparedPage } from '../../../server/http/prefetch';
import { KnexStore } from '../../../server/store/knex-store';
import { createIdPolicy } from '../../../lib/ids/policy';
import { dublinCoreToOaiDc } from '../../../lib/formats/oai-dc';
import { formatDatestamp } from '../../../lib/oai/dates';
import { forEachProvider, oaiGet, resumption, texts } from '../../helpers/server';
import type { TestProvider } from '../../helpers/server';
import { demoRecords, DEMO_NAMESPACE } from '../../helpers/demo-records';

function page(n: number): PreparedPage {
  return { response: { responseDate: n, baseURL: 'http://x.org/oai', body: { kind: 'errors', errors: [] } }, xml: Buffer.from(String(n)), dateOffset: 0 };
}

describe('the next-page prefetcher', () => {
  let clock = 0;
  const make = (o: { maxEntries?: number } = {}) => new PagePrefetch({ lifetimeMs: 2000, clock: () => clock, ...o });
  beforeEach(() => {
    clock = 1000;
  });

  it('serves a prepared page once', async () => {
    const p = make();
    p.prepare('k', async () => page(1));
    expect((await p.take('k'))?.response.responseDate).to.equal(1);
    expect(await p.take('k')).to.equal(undefined);
  });

  it('does not serve a page older than its lifetime', async () => {
    const p = make();
    p.prepare('k', async () => page(1));
    await p.settled();
    clock += 2001;
    expect(await p.take('k')).to.equal(undefined);
  });

  it('drops prepared pages and pages being prepared when invalidated', async () => {
    const p = make();
    p.prepare('a', async () => page(1));
    await p.settled();
    p.prepare('b', async () => page(2));
    p.invalidate();
    expect(p.size).to.equal(0);
    expect(await p.take('a')).to.equal(undefined);
    expect(await p.take('b')).to.equal(undefined);
  });

  it('prepares no more pages than its bound', async () => {
    const p = make({ maxEntries: 2 });
    for (const k of ['a', 'b', 'c']) p.prepare(k, async () => page(1));
    expect(p.size).to.equal(2);
    expect(await p.take('c')).to.equal(undefined);
  });

  it('gives no page when preparing it failed', async () => {
    const p = make();
    p.prepare('k', async () => {
      throw new Error('store down');
    });
    expect(await p.take('k')).to.equal(undefined);
  });
});

describe('a harvest served from prepared pages', function () {
  forEachProvider({ pageSize: 5 }, (provider) => {
    /** The identifiers of each ListIdentifiers page, in order (the same order ListRecords pages follow). */
    async function pagesOfIds(p: TestProvider): Promise<string[][]> {
      const out: string[][] = [];
      let query = 'verb=ListIdentifiers&metadataPrefix=oai_dc';
      for (;;) {
        const xml = await oaiGet(p.port, query);
        out.push(texts(xml, 'identifier'));
        const r = resumption(xml);
        if (!r || r.token === '') return out;
        query = `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(r.token)}`;
      }
    }
    const internalIdOf = (identifier: string): string => {
      const d = demoRecords().find((r) => r.identifier === identifier && !r.deleted);
      if (!d) throw new Error(`no live demo record ${identifier}`);
      return d.internalId;
    };
    const liveOn = (ids: readonly string[]): string => {
      const live = ids.find((id) => demoRecords().some((r) => r.identifier === id && !r.deleted));
      if (!live) throw new Error('no live record on the page');
      return live;
    };

    it('never serves a page prepared before a write of this process', async () => {
      const p = provider();
      const ids = await pagesOfIds(p);
      const first = await oaiGet(p.port, 'verb=ListRecords&metadataPrefix=oai_dc');
      await p.prefetch?.settled();
      expect(p.prefetch?.size, 'the second page was prepared').to.equal(1);
      const changed = liveOn(ids[1] ?? []);
      p.writeNow = p.now + 10;
      await p.store.writeItems([{ internalId: internalIdOf(changed), metadata: { oai_dc: dublinCoreToOaiDc({ title: ['changed after page 1'] }) } }]);
      expect(p.prefetch?.size).to.equal(0);
      const token = resumption(first)?.token ?? '';
      const second = await oaiGet(p.port, `verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`);
      // Changed after the harvest began: it has left the harvest's range, as a fresh page shows.
      expect(texts(second, 'identifier')).to.not.include(changed);
      expect(texts(second, 'identifier')).to.deep.equal([...(ids[1] ?? []).filter((id) => id !== changed), ids[2]?.[0]]);
    });

    it('shows an item changed by another process since the page was prepared in its earlier state, with the responseDate of the request', async () => {
      const p = provider();
      const ids = await pagesOfIds(p);
      const first = await oaiGet(p.port, 'verb=ListRecords&metadataPrefix=oai_dc');
      await p.prefetch?.settled();
      // Another writer on the same database: this process does not learn of its write.
      const other = new KnexStore({ knex: p.knex, policy: createIdPolicy({ namespace: DEMO_NAMESPACE, mode: 'auto' }), clock: () => p.now + 20 });
      const changed = liveOn(ids[1] ?? []);
      await other.writeItems([{ internalId: internalIdOf(changed), metadata: { oai_dc: dublinCoreToOaiDc({ title: ['changed elsewhere'] }) } }]);
      p.now += 1;
      const token = resumption(first)?.token ?? '';
      const second = await oaiGet(p.port, `verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`);
      expect(texts(second, 'identifier')).to.deep.equal(ids[1]);
      expect(second).to.not.include('changed elsewhere');
      expect(texts(second, 'responseDate')).to.deep.equal([formatDatestamp(p.now)]);
    });
  });
});
