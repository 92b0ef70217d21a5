/**
 * What a record page tells search engines, without a server: Google
 * Scholar's citation_* meta tags and the schema.org JSON-LD, each checked
 * against the record model it is read from (an article whose author has an
 * ORCID iD, the same in a journal, a dataset, a record without a DOI), the JSON-LD parsed back as
 * JSON, and a hostile title unable to leave its script element.
 */
import { expect } from 'chai';
import { citationMeta, jsonLdScript, recordJsonLd, renderPage, scholarDate } from '../../lib/html';
import type { ItemView, PagePaths } from '../../lib/html';
import type { RecordFields } from '../../lib/model/record';
import { ARTICLE, DATASET, NO_DOI } from '../helpers/scholarly-records';
import { dublinCoreToOaiDc, oaiDc } from '../../lib/formats/oai-dc';
import { itemFacts } from '../../lib/signposting';
import { parseFragment } from '../../lib/xml/tree';
import type { ItemRecord } from '../../lib/store';

const BASE = 'https://repo.example.org/oai';
const paths: PagePaths = { endpoint: '/oai', rawXml: '/oai/xml?verb=GetRecord', form: '/oai/form' };
const page = (id: string): string => `${BASE}?verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(id)}`;
const POI = 'http://purl.org/poi/repo.example.org/a-1';
/** The article, with the journal it appeared in: its title, place there, and a second (electronic) ISSN. */
const IN_JOURNAL: RecordFields = {
  ...ARTICLE,
  host: { title: 'Chemistry – A European Journal', volume: '23', issue: '31', startPage: '7444', endPage: '7447' },
  relatedIdentifiers: [...(ARTICLE.relatedIdentifiers ?? []), { identifier: '1521-3765', type: 'EISSN', relation: 'IsPartOf' }],
};

describe('Google Scholar citation_* meta tags', () => {
  it('gives an article its title, authors in order with their institution and ORCID, dates, DOI, publisher, ISSN, language, keywords, PDF and page', () => {
    expect(citationMeta(ARTICLE, page('oai:x:a-1'))).to.deep.equal([
      ['citation_title', 'On the parity of primes'],
      ['citation_author', 'Curie, Marie'],
      ['citation_author_institution', 'University of Gothenburg'],
      ['citation_author_orcid', 'https://orcid.org/0000-0002-1825-0097'],
      ['citation_author', 'CERN'],
      ['citation_author', 'Doe, Jane'],
      ['citation_publication_date', '2021/03/04'],
      ['citation_online_date', '2021'],
      ['citation_doi', '10.5555/parity.1'],
      ['citation_publisher', 'Example University Press'],
      ['citation_issn', '0317-8471'],
      ['citation_language', 'en'],
      ['citation_keywords', 'Number theory'],
      ['citation_keywords', 'Primes'],
      ['citation_pdf_url', 'https://repo.example.org/files/a-1/paper.pdf'],
      ['citation_abstract_html_url', page('oai:x:a-1')],
    ]);
  });

  it('gives a dataset its year as its date and no PDF', () => {
    const tags = new Map(citationMeta(DATASET, page('oai:x:d-1')));
    expect(tags.get('citation_publication_date')).to.equal('2019');
    expect(tags.get('citation_doi')).to.equal('10.5555/x.data');
    expect(tags.has('citation_pdf_url')).to.equal(false);
  });

  it('gives a record without a DOI no citation_doi, its Dublin Core date, and the institution of a thesis; a restricted PDF is not offered', () => {
    expect(citationMeta(NO_DOI, page('oai:x:t-1'))).to.deep.equal([
      ['citation_title', 'A thesis'],
      ['citation_author', 'Nguyễn, Thị Minh'],
      ['citation_author', 'Research Group X'],
      ['citation_publication_date', '2003/04/15'],
      ['citation_publisher', 'Erasmus University'],
      ['citation_dissertation_institution', 'Erasmus University'],
      ['citation_language', 'nl'],
      ['citation_abstract_html_url', page('oai:x:t-1')],
    ]);
  });

  it('gives an article in a journal its journal title, ISSNs, volume, issue and first and last page', () => {
    const tags = citationMeta(IN_JOURNAL, page('oai:x:a-1'));
    const from = tags.findIndex(([n]) => n === 'citation_journal_title');
    expect(tags.slice(from, from + 7)).to.deep.equal([
      ['citation_journal_title', 'Chemistry – A European Journal'],
      ['citation_issn', '0317-8471'],
      ['citation_issn', '1521-3765'],
      ['citation_volume', '23'],
      ['citation_issue', '31'],
      ['citation_firstpage', '7444'],
      ['citation_lastpage', '7447'],
    ]);
    expect(tags.filter(([n]) => n === 'citation_conference_title' || n === 'citation_inbook_title')).to.deep.equal([]);
  });

  it("names the container of a conference paper citation_conference_title and of a book chapter citation_inbook_title, with the book's ISBN", () => {
    const paper: RecordFields = {
      ...IN_JOURNAL,
      resourceType: { coar: 'http://purl.org/coar/resource_type/c_5794', general: 'ConferencePaper', label: 'conference paper' },
      host: { title: 'Proc. ICALP 2021' },
    };
    const chapter: RecordFields = {
      dc: { title: ['A chapter'] },
      resourceType: { general: 'BookChapter', label: 'chapter' },
      host: { title: 'A Book', startPage: '3' },
      relatedIdentifiers: [{ identifier: '9783161484100', type: 'ISBN', relation: 'IsPartOf' }],
    };
    const named = (r: RecordFields) => citationMeta(r, page('oai:x:c')).filter(([n]) => /_title$|isbn|page$/.test(n) && n !== 'citation_title');
    expect(named(paper)).to.deep.equal([['citation_conference_title', 'Proc. ICALP 2021']]);
    expect(named(chapter)).to.deep.equal([
      ['citation_inbook_title', 'A Book'],
      ['citation_isbn', '9783161484100'],
      ['citation_firstpage', '3'],
    ]);
  });

  it('writes dates as Google Scholar asks: a full date with slashes, else the year alone', () => {
    expect([
      scholarDate('2010-05-12'),
      scholarDate('2010-05'),
      scholarDate('2010'),
      scholarDate('2003-04-15T10:18:51Z'),
      scholarDate('15.04.2003'),
    ]).to.deep.equal(['2010/05/12', '2010', '2010', '2003/04/15', undefined]);
  });
});

describe('schema.org JSON-LD', () => {
  const citationOf = (r: RecordFields, poi?: string) => itemFacts(r, poi).citation;

  it('describes an article: type from its COAR type, the DOI as @id and PropertyValue, authors with ORCID @id and ROR affiliation', () => {
    const citation = citationOf(ARTICLE, POI);
    expect(recordJsonLd(ARTICLE, { landingPage: page('oai:x:a-1'), ...(citation && { citation }), poi: POI })).to.deep.equal({
      '@context': 'https://schema.org',
      '@type': 'ScholarlyArticle',
      '@id': 'https://doi.org/10.5555/parity.1',
      name: 'On the parity of primes',
      alternateName: 'Über die Parität',
      author: [
        {
          '@type': 'Person',
          '@id': 'https://orcid.org/0000-0002-1825-0097',
          name: 'Curie, Marie',
          givenName: 'Marie',
          familyName: 'Curie',
          identifier: 'https://orcid.org/0000-0002-1825-0097',
          affiliation: [{ '@type': 'Organization', '@id': 'https://ror.org/01tm6cn81', name: 'University of Gothenburg' }],
        },
        { '@type': 'Organization', name: 'CERN' },
        { '@type': 'Person', name: 'Doe, Jane' },
      ],
      datePublished: '2021-03-04',
      publisher: { '@type': 'Organization', name: 'Example University Press' },
      description: 'We show it.',
      keywords: ['Number theory', 'Primes'],
      inLanguage: 'en',
      identifier: [
        { '@type': 'PropertyValue', propertyID: 'DOI', value: 'https://doi.org/10.5555/parity.1', url: 'https://doi.org/10.5555/parity.1' },
        { '@type': 'PropertyValue', propertyID: 'URL', value: 'https://repo.example.org/items/a-1', url: 'https://repo.example.org/items/a-1' },
        { '@type': 'PropertyValue', propertyID: 'POI', value: POI, url: POI },
      ],
      // Its ISSN alone says which journal it appeared in.
      isPartOf: { '@type': 'Periodical', issn: '0317-8471' },
      license: 'https://creativecommons.org/licenses/by/4.0/',
      isAccessibleForFree: true,
      url: page('oai:x:a-1'),
      sameAs: ['https://repo.example.org/items/a-1', POI],
    });
  });

  it('says where an article was published: its issue, in its volume, in the journal with its ISSNs, and its pages', () => {
    const ld = recordJsonLd(IN_JOURNAL, { landingPage: page('oai:x:a-1') });
    expect(ld.isPartOf).to.deep.equal({
      '@type': 'PublicationIssue',
      issueNumber: '31',
      isPartOf: {
        '@type': 'PublicationVolume',
        volumeNumber: '23',
        isPartOf: { '@type': 'Periodical', name: 'Chemistry – A European Journal', issn: ['0317-8471', '1521-3765'] },
      },
    });
    expect([ld.pageStart, ld.pageEnd]).to.deep.equal(['7444', '7447']);
  });

  it('puts a chapter in its Book with the ISBN, and leaves out a level the record does not name', () => {
    const chapter: RecordFields = {
      dc: { title: ['A chapter'] },
      resourceType: { general: 'BookChapter', label: 'chapter' },
      host: { title: 'A Book', volume: '2' },
      relatedIdentifiers: [{ identifier: '9783161484100', type: 'ISBN', relation: 'IsPartOf' }],
    };
    const ld = recordJsonLd(chapter, { landingPage: page('oai:x:c') });
    expect(ld.isPartOf).to.deep.equal({
      '@type': 'PublicationVolume',
      volumeNumber: '2',
      isPartOf: { '@type': 'Book', name: 'A Book', isbn: '9783161484100' },
    });
    expect(ld).to.not.have.property('pageStart');
    expect(recordJsonLd(DATASET, { landingPage: page('oai:x:d-1') })).to.not.have.property('isPartOf');
  });

  it('describes a dataset as a Dataset with its files as its distribution', () => {
    const citation = citationOf(DATASET);
    const ld = recordJsonLd(DATASET, { landingPage: page('oai:x:d-1'), ...(citation && { citation }) });
    expect(ld['@type']).to.equal('Dataset');
    expect(ld['@id']).to.equal('https://doi.org/10.5555/x.data');
    expect(ld.datePublished).to.equal('2019');
    expect(ld.license).to.equal('https://creativecommons.org/publicdomain/zero/1.0/');
    expect(ld.isAccessibleForFree).to.equal(true);
    expect(ld.distribution).to.deep.equal([{ '@type': 'DataDownload', contentUrl: 'https://repo.example.org/files/d-1/x.csv', encodingFormat: 'text/csv' }]);
  });

  it('describes a record without a DOI by its Handle, not free to read when restricted, and leaves a creator of unknown kind untyped', () => {
    const citation = citationOf(NO_DOI, POI);
    const ld = recordJsonLd(NO_DOI, { landingPage: page('oai:x:t-1'), ...(citation && { citation }), poi: POI });
    expect(ld['@type']).to.equal('Thesis');
    expect(ld['@id']).to.equal('https://hdl.handle.net/1765/315');
    expect(ld.identifier).to.deep.equal([
      { '@type': 'PropertyValue', propertyID: 'Handle', value: 'https://hdl.handle.net/1765/315', url: 'https://hdl.handle.net/1765/315' },
      { '@type': 'PropertyValue', propertyID: 'POI', value: POI, url: POI },
    ]);
    expect(JSON.stringify(ld)).to.not.contain('doi.org');
    expect(ld.author).to.deep.equal([{ '@type': 'Person', name: 'Nguyễn, Thị Minh' }, { name: 'Research Group X' }]);
    expect(ld.datePublished).to.equal('2003-04-15T10:18:51Z');
    expect(ld.isAccessibleForFree).to.equal(false);
    expect(ld.sameAs).to.equal(POI);
  });

  it('falls back to CreativeWork and to the page as @id when the model knows neither a type nor an identifier', () => {
    const ld = recordJsonLd({ dc: { title: ['Untyped'] } }, { landingPage: page('oai:x:u') });
    expect(ld).to.deep.equal({ '@context': 'https://schema.org', '@type': 'CreativeWork', '@id': page('oai:x:u'), name: 'Untyped', url: page('oai:x:u') });
  });
});

describe('the JSON-LD script element', () => {
  /** The text of every JSON-LD block of a page, as the HTML parser splits it: up to the first `</script`. */
  const blocks = (html: string): string[] => [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script/gi)].map((m) => m[1] as string);

  const HOSTILE = '</script><script>alert(1)</script><!-- <script> \u2028\u2029 & "quoted" \u007f\u0085 \\ end';

  it('cannot be left by a hostile value, which parses back unchanged', () => {
    const html = jsonLdScript({ name: HOSTILE });
    expect(html.match(/<\/script/gi)).to.have.length(1);
    expect(html).to.not.match(/<!--|[\u2028\u2029\u007f-\u009f]/);
    const [text] = blocks(html);
    expect(JSON.parse(text as string)).to.deep.equal({ name: HOSTILE });
  });

  it('is on a live record page once, parses as JSON and says what the model says, however hostile its title', () => {
    const model: RecordFields = { ...ARTICLE, dc: { ...ARTICLE.dc, title: [HOSTILE] } };
    const identifier = 'oai:repo.example.org:a-1';
    const rec: ItemRecord = {
      pk: 1,
      internalId: 'a-1',
      identifier,
      datestamp: 1_700_000_000,
      deleted: false,
      sets: [],
      metadata: dublinCoreToOaiDc({ title: ['Shown title'] }),
    };
    const item: ItemView = {
      formats: [{ format: oaiDc, record: rec, tree: parseFragment(rec.metadata as string) }],
      model,
      facts: itemFacts(model, POI),
      poi: POI,
    };
    const html = renderPage({
      response: {
        responseDate: 1_700_000_000,
        baseURL: BASE,
        requestArgs: { verb: 'GetRecord', metadataPrefix: 'oai_dc', identifier },
        body: { kind: 'GetRecord', record: rec },
      },
      repositoryName: 'R',
      paths,
      formats: [oaiDc],
      item,
    });
    const head = html.slice(0, html.indexOf('</head>'));
    const found = blocks(html);
    expect(found).to.have.length(1);
    expect(head).to.contain(found[0]);
    const ld = JSON.parse(found[0] as string) as Record<string, unknown>;
    expect(ld.name).to.equal(HOSTILE);
    expect(ld).to.deep.equal(JSON.parse(JSON.stringify(recordJsonLd(model, { landingPage: page(identifier), citation: item.facts.citation!, poi: POI }))));
    // Only the renderer's own script element: the hostile one stays inside the JSON string.
    expect(html.match(/<script/gi)).to.have.length(1);
    expect(head).to.contain(`<meta name="citation_title" content="&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!-- &lt;script&gt;`);
    expect(head).to.contain(`<link rel="canonical" href="${page(identifier).replace(/&/g, '&amp;')}">`);
  });

  it('is not on a deleted record page, nor are the meta tags', () => {
    const identifier = 'oai:repo.example.org:gone';
    const rec: ItemRecord = { pk: 2, internalId: 'gone', identifier, datestamp: 1_700_000_000, deleted: true, sets: [], metadata: null };
    const html = renderPage({
      response: {
        responseDate: 1_700_000_000,
        baseURL: BASE,
        requestArgs: { verb: 'GetRecord', metadataPrefix: 'oai_dc', identifier },
        body: { kind: 'GetRecord', record: rec },
      },
      repositoryName: 'R',
      paths,
      formats: [oaiDc],
      item: { formats: [{ format: oaiDc, record: rec, tree: null }], model: { dc: {} }, facts: itemFacts({ dc: {} }, POI), poi: POI },
    });
    expect(html).to.not.contain('<script');
    expect(html).to.not.contain('citation_');
  });
});
