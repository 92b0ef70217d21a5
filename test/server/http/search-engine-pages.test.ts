/**
 * Record pages as a search engine fetches them, on every database: the
 * citation_* tags and the JSON-LD say what the stored record model says
 * (written with its model, or lifted from its oai_dc), the JSON-LD parses,
 * the Content-Security-Policy allows no script, a deleted record's 410 page
 * says nothing to index, and every kind of page is valid HTML.
 */
import { expect } from 'chai';
import { PAGE_CSP } from '../../../server/http/pages';
import { dublinCoreToOaiDc } from '../../../lib/formats/oai-dc';
import { BASE_URL, forEachProvider, request, type Answer, type TestProvider } from '../../helpers/server';
import { DEMO_NAMESPACE } from '../../helpers/demo-records';
import { expectValidHtml } from '../../helpers/html-valid';
import { ARTICLE, DATASET, NO_DOI } from '../../helpers/scholarly-records';

const identifier = (id: string): string => `oai:${DEMO_NAMESPACE}:${id}`;
const recordQuery = (id: string, prefix = 'oai_dc'): string => `verb=GetRecord&metadataPrefix=${prefix}&identifier=${encodeURIComponent(identifier(id))}`;
const landing = (id: string): string => `${BASE_URL}?${recordQuery(id)}`;
const poi = (id: string): string => `http://purl.org/poi/${DEMO_NAMESPACE}/${id}`;

function page(p: TestProvider, query: string): Promise<Answer> {
  return request(p.port, { query, headers: { Accept: 'text/html' } });
}

/** The meta tags of a page's head, in order, their content unescaped. */
function metaTags(html: string): Array<[string, string]> {
  const head = html.slice(0, html.indexOf('</head>'));
  const unescape = (s: string): string =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  return [...head.matchAll(/<meta name="(citation_[a-z_]+)" content="([^"]*)">/g)].map((m) => [m[1] as string, unescape(m[2] as string)]);
}

/** The page's JSON-LD blocks, parsed. */
function jsonLd(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1] as string) as Record<string, unknown>);
}

const values = (tags: Array<[string, string]>, name: string): string[] => tags.filter(([n]) => n === name).map(([, v]) => v);

describe('record pages for search engines', function () {
  this.timeout(60_000);
  forEachProvider({ seed: false }, (get) => {
    before(async () => {
      await get().store.writeItems([
        { internalId: 'article', metadata: {}, fields: ARTICLE },
        { internalId: 'dataset', metadata: {}, fields: DATASET },
        // Dublin Core only: its model is lifted from the oai_dc it gives.
        { internalId: 'thesis', metadata: { oai_dc: dublinCoreToOaiDc(NO_DOI.dc) } },
        { internalId: 'gone', metadata: {}, fields: DATASET },
      ]);
      await get().store.deleteItems(['gone']);
    });

    it("gives an article's page the citation_* tags of its model: title, authors in order, date, DOI, PDF", async () => {
      const a = await page(get(), recordQuery('article'));
      expect(a.status).to.equal(200);
      const tags = metaTags(a.body);
      expect(values(tags, 'citation_title')).to.deep.equal([ARTICLE.dc.title?.[0]]);
      expect(values(tags, 'citation_author')).to.deep.equal(ARTICLE.creators?.map((c) => c.name));
      expect(values(tags, 'citation_author_orcid')).to.deep.equal(['https://orcid.org/0000-0002-1825-0097']);
      expect(values(tags, 'citation_publication_date')).to.deep.equal(['2021/03/04']);
      expect(values(tags, 'citation_doi')).to.deep.equal(['10.5555/parity.1']);
      expect(values(tags, 'citation_publisher')).to.deep.equal(['Example University Press']);
      expect(values(tags, 'citation_pdf_url')).to.deep.equal(['https://repo.example.org/files/a-1/paper.pdf']);
      expect(values(tags, 'citation_abstract_html_url')).to.deep.equal([landing('article')]);
    });

    it("gives an article's page JSON-LD that parses: a ScholarlyArticle cited by its DOI, its author's ORCID iD as @id", async () => {
      const [ld, ...more] = jsonLd((await page(get(), recordQuery('article'))).body);
      expect(more).to.have.length(0);
      expect(ld?.['@context']).to.equal('https://schema.org');
      expect(ld?.['@type']).to.equal('ScholarlyArticle');
      expect(ld?.['@id']).to.equal('https://doi.org/10.5555/parity.1');
      expect(ld?.name).to.equal('On the parity of primes');
      expect((ld?.author as Array<Record<string, unknown>>).map((a) => [a['@type'], a['@id'], a.name])).to.deep.equal([
        ['Person', 'https://orcid.org/0000-0002-1825-0097', 'Curie, Marie'],
        ['Organization', undefined, 'CERN'],
        ['Person', undefined, 'Doe, Jane'],
      ]);
      expect(ld?.url).to.equal(landing('article'));
      expect(ld?.isAccessibleForFree).to.equal(true);
      expect(ld?.sameAs).to.deep.equal(['https://repo.example.org/items/a-1', poi('article')]);
    });

    it("gives a dataset's page a Dataset with its DOI, licence and files", async () => {
      const a = await page(get(), recordQuery('dataset'));
      expect(values(metaTags(a.body), 'citation_doi')).to.deep.equal(['10.5555/x.data']);
      const [ld] = jsonLd(a.body);
      expect(ld?.['@type']).to.equal('Dataset');
      expect(ld?.identifier).to.deep.include({
        '@type': 'PropertyValue',
        propertyID: 'DOI',
        value: 'https://doi.org/10.5555/x.data',
        url: 'https://doi.org/10.5555/x.data',
      });
      expect(ld?.license).to.equal('https://creativecommons.org/publicdomain/zero/1.0/');
      expect(ld?.distribution).to.deep.equal([{ '@type': 'DataDownload', contentUrl: 'https://repo.example.org/files/d-1/x.csv', encodingFormat: 'text/csv' }]);
    });

    it('gives a record without a DOI, stored as Dublin Core only, the tags and JSON-LD of its lifted model: its Handle, no DOI', async () => {
      const a = await page(get(), recordQuery('thesis'));
      const tags = metaTags(a.body);
      expect(values(tags, 'citation_doi')).to.deep.equal([]);
      expect(values(tags, 'citation_author')).to.deep.equal(NO_DOI.dc.creator);
      expect(values(tags, 'citation_dissertation_institution')).to.deep.equal(['Erasmus University']);
      const [ld] = jsonLd(a.body);
      expect(ld?.['@type']).to.equal('Thesis');
      expect(ld?.['@id']).to.equal('https://hdl.handle.net/1765/315');
      expect(JSON.stringify(ld)).to.not.contain('doi.org');
    });

    it('names the oai_dc page as canonical on the page of another format, with the same tags', async () => {
      const dc = await page(get(), recordQuery('article'));
      const other = await page(get(), recordQuery('article', 'oai_openaire'));
      expect(other.status).to.equal(200);
      expect(other.body).to.contain(`<link rel="canonical" href="${landing('article').replace(/&/g, '&amp;')}">`);
      expect(metaTags(other.body)).to.deep.equal(metaTags(dc.body));
    });

    it('lists in the sitemap exactly the canonical pages of the live records', async () => {
      const sitemap = (await request(get().port, { path: '/sitemap.xml' })).body;
      const locs = [...sitemap.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => (m[1] as string).replace(/&amp;/g, '&'));
      const canonical: string[] = [];
      for (const id of ['article', 'dataset', 'thesis']) {
        const href = /<link rel="canonical" href="([^"]*)">/.exec((await page(get(), recordQuery(id))).body)?.[1];
        canonical.push((href ?? '').replace(/&amp;/g, '&'));
      }
      expect(locs.filter((l) => l.includes('GetRecord')).sort()).to.deep.equal(canonical.sort());
    });

    it("answers a deleted record's page 410 with nothing to index: no tags, no JSON-LD", async () => {
      const a = await page(get(), recordQuery('gone'));
      expect(a.status).to.equal(410);
      expect(metaTags(a.body)).to.deep.equal([]);
      expect(a.body).to.not.contain('<script');
    });

    it('asks search engines not to index an error page, which answers 200 as the protocol wants, and nothing else', async () => {
      const robots = '<meta name="robots" content="noindex">';
      for (const q of ['verb=Nonsense', recordQuery('nope'), 'verb=ListRecords&resumptionToken=expired'])
        expect((await page(get(), q)).body, q).to.contain(robots);
      for (const q of ['verb=Identify', 'verb=ListRecords&metadataPrefix=oai_dc', recordQuery('article')])
        expect((await page(get(), q)).body, q).to.not.contain(robots);
    });

    it('keeps the Content-Security-Policy that allows no script at all: the JSON-LD is data, never run', async () => {
      const a = await page(get(), recordQuery('article'));
      expect(a.headers['content-security-policy']).to.equal(PAGE_CSP);
      const directives = PAGE_CSP.split('; ');
      expect(directives).to.include("default-src 'none'");
      expect(directives.filter((d) => /^script-src/.test(d))).to.deep.equal([]);
    });

    const kinds: Array<[string, string]> = [
      ['the home page', 'verb=Identify'],
      ['the sets page', 'verb=ListSets'],
      ['a records page', 'verb=ListRecords&metadataPrefix=oai_dc'],
      ['an identifiers page', 'verb=ListIdentifiers&metadataPrefix=oai_dc'],
      ['the formats page', 'verb=ListMetadataFormats'],
      ["an article's page", recordQuery('article')],
      ["an article's page in oai_openaire", recordQuery('article', 'oai_openaire')],
      ["a dataset's page", recordQuery('dataset')],
      ["a thesis's page", recordQuery('thesis')],
      ["a deleted record's page", recordQuery('gone')],
      ['an error page', 'verb=Nonsense'],
    ];
    for (const [name, query] of kinds) {
      it(`serves ${name} as valid HTML`, async () => {
        const a = await page(get(), query);
        expect(a.headers['content-type']).to.equal('text/html; charset=utf-8');
        await expectValidHtml(a.body, name);
      });
    }
  });

  describe('the demo repository', function () {
    forEachProvider({}, (get) => {
      const demo: Array<[string, string]> = [
        ['the home page', 'verb=Identify'],
        ['the sets page, a tree', 'verb=ListSets'],
        ['a records page with a next page', 'verb=ListRecords&metadataPrefix=oai_dc'],
        ['a record page', recordQuery('rep-2024-0004')],
        ['a record page in marc21', recordQuery('rep-2024-0004', 'marc21')],
      ];
      for (const [name, query] of demo) {
        it(`serves ${name} as valid HTML`, async () => {
          const a = await page(get(), query);
          expect(a.status).to.equal(200);
          await expectValidHtml(a.body, name);
        });
      }
    });
  });
});
