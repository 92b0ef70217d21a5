/**
 * What search engines read, on every database: robots.txt names the sitemap;
 * the sitemap lists the home page and every live record's page with its
 * datestamp, and past its limit becomes a sitemap index of parts; a deleted
 * record leaves it, and its page answers 410 Gone while still saying what
 * it was.
 */
import { expect } from 'chai';
import { formatDatestamp } from '../../lib/oai/dates';
import type { ItemInput } from '../../lib/store';
import { Destination, getRaw } from '../helpers/destination';
import { BASE_URL, forEachProvider, oaiGet, request, type TestProvider } from '../helpers/server';
import { dc } from '../helpers/store-fixtures';
import { DEMO_NAMESPACE } from '../helpers/demo-records';

const ORIGIN = new URL(BASE_URL).origin;
const T0 = 1_760_000_000;
const rec = (id: string): ItemInput => ({ internalId: id, metadata: { oai_dc: dc(`Title of ${id}`) } });
const identifier = (id: string): string => `oai:${DEMO_NAMESPACE}:${id}`;
const page = (id: string): string => `${BASE_URL}?verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(identifier(id))}`;

/** Every URL of the sitemap (through its index and parts when it has them), with its lastmod. */
async function sitemap(p: TestProvider): Promise<{ urls: Map<string, string | undefined>; index: boolean }> {
  const d = new Destination(p.port, '');
  const top = await d.doc(`${ORIGIN}/sitemap.xml`);
  const sets = top.root === 'urlset' ? [top] : await Promise.all(top.entries.map((e) => d.doc(e.loc)));
  const urls = new Map<string, string | undefined>();
  for (const s of sets) {
    for (const e of s.entries) {
      expect(urls.has(e.loc), `${e.loc} listed once`).to.equal(false);
      urls.set(e.loc, e.lastmod);
    }
    expect(s.entries.length).to.be.at.most(4);
  }
  return { urls, index: top.root === 'sitemapindex' };
}

describe('pages for search engines', function () {
  this.timeout(120_000);
  forEachProvider({ seed: false, app: { resourceSync: { partSize: 4 } } }, (get) => {
    it('robots.txt names the sitemap by its absolute URL', async () => {
      const a = await request(get().port, { path: '/robots.txt' });
      expect(a.status).to.equal(200);
      expect(a.headers['content-type']).to.equal('text/plain; charset=utf-8');
      expect(a.body).to.match(/^User-agent: \*$/m);
      expect(a.body).to.match(new RegExp(`^Sitemap: ${ORIGIN}/sitemap\\.xml$`, 'm'));
    });

    it('lists the home page and each live record page with its datestamp, within the limit', async () => {
      const p = get();
      p.writeNow = T0;
      await p.store.writeItems([rec('a'), rec('b')]);
      p.writeNow = T0 + 5;
      await p.store.writeItems([rec('c')]);
      const { urls, index } = await sitemap(p);
      expect(index).to.equal(false);
      expect([...urls]).to.deep.equal([
        [`${BASE_URL}?verb=Identify`, undefined],
        [page('a'), formatDatestamp(T0)],
        [page('b'), formatDatestamp(T0)],
        [page('c'), formatDatestamp(T0 + 5)],
      ]);
    });

    it('becomes an index of parts past the limit, every live page once, and leaves deleted records out', async () => {
      const p = get();
      p.writeNow = T0 + 10;
      await p.store.writeItems(['d', 'e', 'f', 'g', 'h', 'i', 'j'].map(rec));
      p.writeNow = T0 + 20;
      await p.store.deleteItems(['b', 'e']);
      await p.store.writeItems([{ ...rec('c'), metadata: { oai_dc: dc('A new title for c') } }]);
      const { urls, index } = await sitemap(p);
      expect(index).to.equal(true);
      expect([...urls.keys()].sort()).to.deep.equal(['a', 'c', 'd', 'f', 'g', 'h', 'i', 'j'].map(page).sort());
      expect(urls.get(page('c'))).to.equal(formatDatestamp(T0 + 20));
    });

    it("answers a deleted record's page with 410, saying it was deleted and showing its identifier", async () => {
      const a = await request(get().port, {
        query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(identifier('b'))}`,
        headers: { Accept: 'text/html' },
      });
      expect(a.status).to.equal(410);
      expect(a.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(a.headers['content-security-policy']).to.be.a('string');
      expect(a.body).to.contain('This item was withdrawn');
      expect(a.body).to.contain(`<code dir="auto">${identifier('b')}</code>`);
      // Harvesters are not affected: the XML answer stays 200 with a deleted header (OAI-PMH 3.1.2.2).
      expect(await oaiGet(get().port, `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(identifier('b'))}`)).to.contain(
        '<header status="deleted">',
      );
      const live = await getRaw(get().port, page('a'), { Accept: 'text/html' });
      expect(live.status).to.equal(200);
    });
  });
});
