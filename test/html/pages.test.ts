/**
 * The page renderer (lib/html), without a server: what each page says,
 * where its links go, and that hostile values (markup, quotes, javascript:
 * URLs, control characters) stay inert text on every kind of page.
 */
import { expect } from 'chai';
import { renderPage, requestFromForm, esc, ERROR_EXPLANATIONS } from '../../lib/html';
import type { PageInput, PagePaths } from '../../lib/html';
import type { OaiResponse, OaiErrorCode } from '../../lib/oai';
import { dublinCoreOf, dublinCoreToOaiDc, oaiDc } from '../../lib/formats/oai-dc';
import { itemFacts } from '../../lib/signposting';
import { parseFragment } from '../../lib/xml/tree';
import type { ItemRecord } from '../../lib/store';
import type { RecordFields } from '../../lib/model/record';
import { expectValidHtml } from '../helpers/html-valid';

const paths: PagePaths = { endpoint: '/oai', rawXml: '/oai/xml?verb=Identify', form: '/oai/form' };
const NOW = 1_700_000_000;

/** Values that would act on a page if they were not escaped. */
const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(2)>',
  "' onmouseover='alert(3)",
  'javascript:alert(4)',
  'a\u0000b\u0007c\u001b[31md\u0085e',
  '</textarea></title><svg onload=alert(5)>',
];
const H = HOSTILE.join(' ');
/** The same, with only control characters XML 1.0 can carry (DEL and C1), for stored metadata (the write path refuses the others). */
const HX = H.replace('a\u0000b\u0007c\u001b[31md\u0085e', 'a\u007fb\u0085c\u009fd');

function input(response: Omit<OaiResponse, 'responseDate' | 'baseURL'>, extra: Partial<PageInput> = {}): PageInput {
  return { response: { responseDate: NOW, baseURL: 'http://localhost/oai', ...response }, repositoryName: `Repo ${H}`, paths, formats: [oaiDc], ...extra };
}

function record(identifier: string, title: string, extra: Partial<ItemRecord> = {}): ItemRecord {
  return {
    pk: 1,
    internalId: identifier,
    identifier,
    datestamp: NOW - 100,
    deleted: false,
    sets: ['math:logic'],
    metadata: dublinCoreToOaiDc({
      title: [title],
      creator: [HX],
      identifier: ['javascript:alert(6)', 'https://doi.org/10.5555/x', HX],
      relation: ['javascript:alert(7)'],
      rights: ['https://creativecommons.org/licenses/by/4.0/'],
    }),
    ...extra,
  };
}

/** Every page kind, each fed hostile values wherever values go. */
function hostilePages(): Array<{ name: string; html: string }> {
  const rec = record(`oai:x:${H}`, HX);
  const tree = parseFragment(rec.metadata as string);
  const args = { verb: 'ListRecords' as const, metadataPrefix: 'oai_dc', set: H, from: H, until: H };
  const hostileModel: RecordFields = {
    dc: dublinCoreOf(rec.metadata),
    identifiers: [{ type: 'URN', value: 'urn:x:"><script>alert(9)</script>' }],
    creators: [{ name: HX, affiliations: [{ name: HX }] }],
    files: [{ url: `https://r.org/${encodeURIComponent(H)}.pdf`, mediaType: 'application/pdf' }],
  };
  const pages: Array<[string, PageInput]> = [
    [
      'Identify',
      input(
        {
          requestArgs: { verb: 'Identify' },
          body: {
            kind: 'Identify',
            identify: {
              repositoryName: H,
              baseURL: `http://localhost/oai?${H}`,
              adminEmails: [H, `"><script>@x.org`],
              earliestDatestamp: 0,
              deletedRecord: 'persistent',
              compression: [H],
              descriptions: [
                `<oai-identifier xmlns="http://www.openarchives.org/OAI/2.0/oai-identifier"><sampleIdentifier>${esc(H)}</sampleIdentifier></oai-identifier>`,
              ],
            },
          },
        },
        { home: { counts: [{ prefix: 'oai_dc', items: 3 }], sets: [{ spec: 'a:b', name: H, descriptions: [`<d>${esc(H)}</d>`] }], setCount: 1 } },
      ),
    ],
    [
      'ListSets',
      input({
        requestArgs: { verb: 'ListSets' },
        body: {
          kind: 'ListSets',
          sets: [{ spec: 'x', name: H, descriptions: [`<d>${esc(H)}</d>`] }],
          resumption: { token: H, cursor: 0, completeListSize: 9 },
        },
      }),
    ],
    ['ListRecords', input({ requestArgs: args, body: { kind: 'ListRecords', records: [rec], resumption: { token: H, cursor: 0, completeListSize: 2 } } })],
    ['ListIdentifiers', input({ requestArgs: { ...args, verb: 'ListIdentifiers' }, body: { kind: 'ListIdentifiers', headers: [rec] } })],
    [
      'GetRecord',
      input(
        { requestArgs: { verb: 'GetRecord', metadataPrefix: 'oai_dc', identifier: H }, body: { kind: 'GetRecord', record: rec } },
        {
          item: {
            formats: [{ format: oaiDc, record: rec, tree }],
            model: hostileModel,
            facts: itemFacts(hostileModel, `http://purl.org/poi/x/${H}`),
            poi: `http://purl.org/poi/x/${H}`,
          },
        },
      ),
    ],
    [
      'ListMetadataFormats',
      input({
        requestArgs: { verb: 'ListMetadataFormats', identifier: H },
        body: { kind: 'ListMetadataFormats', formats: [{ prefix: H, schema: 'javascript:alert(8)', namespace: H }] },
      }),
    ],
    ['errors', input({ body: { kind: 'errors', errors: [{ code: 'badArgument', message: H }] } })],
  ];
  return pages.map(([name, i]) => ({ name, html: renderPage(i) }));
}

/** What the renderer writes; anything else on a page would have come from a value. */
const ELEMENTS = new Set(
  (
    'html head meta title style link body header p a nav ul li main h1 h2 footer form fieldset legend div label select option input button ' +
    'dl dt dd code span time section table thead tbody tr th td br ol article script'
  ).split(' '),
);
const ATTRIBUTES = new Set(
  (
    'lang charset name content rel type href dir aria-label aria-current class method action id for value selected autocomplete spellcheck ' +
    'datetime start scope'
  ).split(' '),
);

describe('pages with hostile values', () => {
  for (const { name, html } of hostilePages()) {
    describe(`the ${name} page`, () => {
      it('contains only the elements and attributes the renderer writes', () => {
        // The one script element a page may have is the record's JSON-LD, a data block no browser runs (HTML 4.12.1.2).
        for (const m of html.matchAll(/<script\b[^>]*>/gi)) expect(m[0], 'a script element').to.equal('<script type="application/ld+json">');
        for (const m of html.matchAll(/<(?!!DOCTYPE html>)(\/?)([^\s>]*)([^>]*)>/g)) {
          expect(ELEMENTS.has(m[2] ?? ''), `element ${m[0]}`).to.equal(true);
          // Every attribute is name="value" with the value escaped, so what remains after removing them is only space.
          const rest = (m[3] ?? '').replace(/\s+([a-z-]+)(="[^"<>]*")?/g, (_x, name: string) => {
            expect(ATTRIBUTES.has(name), `attribute ${name} in ${m[0]}`).to.equal(true);
            return '';
          });
          expect(rest.trim(), m[0]).to.equal('');
        }
        expect(html).to.not.match(/href="\s*javascript:/i);
      });

      it('links only to this server, http(s) and mailto', () => {
        for (const m of html.matchAll(/\shref="([^"]*)"/g)) expect(m[1]).to.match(/^(\/|https?:\/\/|mailto:)/);
      });

      it('shows control characters as U+FFFD', () => {
        expect(html).to.not.match(/[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f]/);
        expect(html).to.contain('\uFFFD');
      });

      it('shows the markup as text', () => {
        expect(html).to.contain('&lt;script&gt;alert(1)&lt;/script&gt;');
      });

      it('is valid HTML by the recommended rules of html-validate', async () => {
        await expectValidHtml(html, `the ${name} page`);
      });
    });
  }
});

describe('renderPage', () => {
  it('says which records of the list a page holds, and links the next page with its token', () => {
    const records = Array.from({ length: 100 }, (_v, i) => record(`oai:x:${i}`, `T${i}`));
    const html = renderPage(
      input({
        requestArgs: { verb: 'ListRecords', resumptionToken: 'a+b/c=' },
        body: { kind: 'ListRecords', records, resumption: { token: 't+1/2=', cursor: 100, completeListSize: 285, expirationDate: NOW + 60 } },
      }),
    );
    expect(html).to.contain('Records 101–200 of 285');
    expect(html).to.contain('<ol class="items" start="101">');
    expect(html).to.contain('href="/oai?verb=ListRecords&amp;resumptionToken=t%2B1%2F2%3D">Next page</a>');
  });

  it('says the last page is the last, without a next link', () => {
    const html = renderPage(
      input({
        requestArgs: { verb: 'ListIdentifiers', resumptionToken: 'x' },
        body: { kind: 'ListIdentifiers', headers: [record('oai:x:1', 't')], resumption: { token: '', cursor: 200, completeListSize: 201 } },
      }),
    );
    expect(html).to.contain('Records 201–201 of 201');
    expect(html).to.not.contain('class="next"');
  });

  it('links each listed record to its record page in the listed format', () => {
    const html = renderPage(
      input({ requestArgs: { verb: 'ListRecords', metadataPrefix: 'oai_dc' }, body: { kind: 'ListRecords', records: [record('oai:x:a+b c%2F', 'T')] } }),
    );
    expect(html).to.contain('href="/oai?verb=GetRecord&amp;metadataPrefix=oai_dc&amp;identifier=oai%3Ax%3Aa%2Bb%20c%252F"');
  });

  it('draws sets as a tree, a:b:c inside a:b inside a', () => {
    const sets = [
      { spec: 'a', name: 'A', descriptions: [] },
      { spec: 'a:b', name: 'B', descriptions: [] },
      { spec: 'a:b:c', name: 'C', descriptions: [] },
    ];
    const html = renderPage(input({ requestArgs: { verb: 'ListSets' }, body: { kind: 'ListSets', sets } }));
    expect(html).to.match(
      /<ul class="tree"><li><span dir="auto">A<\/span> <code>a<\/code>.*<ul><li><span dir="auto">B<\/span> <code>a:b<\/code>.*<ul><li><span dir="auto">C<\/span> <code>a:b:c<\/code>/s,
    );
  });

  it('shows on the record page every format, each with a link to its XML, and the identifiers', () => {
    const rec = record('oai:x:1', 'Title');
    const other = { prefix: 'other', schema: 'https://example.org/other.xsd', namespace: 'urn:other' };
    const otherRec = { ...rec, metadata: '<o:r xmlns:o="urn:other"><o:title>Other title</o:title></o:r>' };
    const tree = parseFragment(rec.metadata as string);
    const html = renderPage(
      input(
        { requestArgs: { verb: 'GetRecord', metadataPrefix: 'oai_dc', identifier: 'oai:x:1' }, body: { kind: 'GetRecord', record: rec } },
        {
          formats: [oaiDc, other],
          item: {
            formats: [
              { format: oaiDc, record: rec, tree },
              { format: other, record: otherRec, tree: parseFragment(otherRec.metadata) },
            ],
            model: { dc: dublinCoreOf(rec.metadata) },
            facts: itemFacts({ dc: dublinCoreOf(rec.metadata) }, 'http://purl.org/poi/x/1'),
            poi: 'http://purl.org/poi/x/1',
          },
        },
      ),
    );
    expect(html).to.contain('<title>Title · ');
    expect(html).to.contain('href="/oai/xml?verb=GetRecord&amp;metadataPrefix=oai_dc&amp;identifier=oai%3Ax%3A1"');
    expect(html).to.contain('href="/oai/xml?verb=GetRecord&amp;metadataPrefix=other&amp;identifier=oai%3Ax%3A1"');
    expect(html).to.contain('Other title');
    expect(html).to.contain('<a class="poi" href="http://purl.org/poi/x/1">');
    // Cited by the DOI the record's model has, named by its scheme.
    expect(html).to.contain(
      '<dt>Cite as</dt><dd><a class="cite-as" href="https://doi.org/10.5555/x">https://doi.org/10.5555/x</a> <span class="meta">(DOI)</span></dd>',
    );
  });

  it('gives values their language when the record names one, and their own direction', () => {
    const rec = { ...record('oai:x:1', 'x'), metadata: dublinCoreToOaiDc({ title: ['مرحبا بالعالم'], language: ['ar'] }) };
    const html = renderPage(
      input({ requestArgs: { verb: 'GetRecord', metadataPrefix: 'oai_dc', identifier: 'oai:x:1' }, body: { kind: 'GetRecord', record: rec } }),
    );
    expect(html).to.contain('<h1 dir="auto" lang="ar">مرحبا بالعالم</h1>');
  });

  it('says a deleted record was withdrawn and has no metadata', () => {
    const rec = { ...record('oai:x:1', 'x'), deleted: true, metadata: null };
    const html = renderPage(
      input({ requestArgs: { verb: 'GetRecord', metadataPrefix: 'oai_dc', identifier: 'oai:x:1' }, body: { kind: 'GetRecord', record: rec } }),
    );
    expect(html).to.contain('This item was withdrawn');
    expect(html).to.contain('A deleted item has no metadata');
  });

  const codes = Object.keys(ERROR_EXPLANATIONS) as OaiErrorCode[];
  for (const code of codes) {
    it(`explains ${code} in words beside the repository's message`, () => {
      const html = renderPage(input({ body: { kind: 'errors', errors: [{ code, message: 'The message.' }] } }));
      expect(html).to.contain(`<h2>${ERROR_EXPLANATIONS[code].title}</h2>`);
      expect(html).to.contain('The repository said: <span dir="auto">The message.</span>');
      expect(html).to.contain(`<code>${code}</code>`);
    });
  }

  it('shows a description container other than oai-identifier on the home page as an outline', () => {
    const identify = {
      repositoryName: 'R',
      baseURL: 'http://localhost/oai',
      adminEmails: [],
      earliestDatestamp: 0,
      deletedRecord: 'persistent' as const,
      compression: [],
      descriptions: ['<branding xmlns="http://www.openarchives.org/OAI/2.0/branding/"><collectionIcon><title>Our logo</title></collectionIcon></branding>'],
    };
    const html = renderPage(input({ requestArgs: { verb: 'Identify' }, body: { kind: 'Identify', identify } }));
    expect(html).to.contain('<h2>About this repository: <code>branding</code></h2>');
    expect(html).to.contain('<span class="el">title</span> <span dir="auto">Our logo</span>');
  });

  it('links every page to the raw XML of its request and has the request form', () => {
    const html = renderPage(input({ requestArgs: { verb: 'Identify' }, body: { kind: 'errors', errors: [{ code: 'badVerb', message: 'x' }] } }));
    expect(html).to.contain('<a class="raw-xml" href="/oai/xml?verb=Identify">');
    expect(html).to.contain('<form class="build" method="get" action="/oai/form">');
    expect(html).to.contain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });
});

describe('requestFromForm', () => {
  const cases: Array<{ name: string; form: Array<[string, string]>; request: Array<[string, string]> }> = [
    {
      name: 'keeps the arguments ListRecords takes and drops empty ones',
      form: [
        ['verb', 'ListRecords'],
        ['metadataPrefix', 'oai_dc'],
        ['set', ''],
        ['from', '2024-01-01'],
        ['until', ''],
        ['identifier', 'oai:x:1'],
      ],
      request: [
        ['verb', 'ListRecords'],
        ['metadataPrefix', 'oai_dc'],
        ['from', '2024-01-01'],
      ],
    },
    {
      name: 'keeps only the identifier and format for GetRecord',
      form: [
        ['verb', 'GetRecord'],
        ['metadataPrefix', 'oai_dc'],
        ['set', 'math'],
        ['from', '2024-01-01'],
        ['identifier', ' oai:x:1 '],
      ],
      request: [
        ['verb', 'GetRecord'],
        ['metadataPrefix', 'oai_dc'],
        ['identifier', 'oai:x:1'],
      ],
    },
    {
      name: 'drops every argument for Identify',
      form: [
        ['verb', 'Identify'],
        ['metadataPrefix', 'oai_dc'],
        ['set', 'x'],
      ],
      request: [['verb', 'Identify']],
    },
    {
      name: 'keeps the identifier of ListMetadataFormats',
      form: [
        ['verb', 'ListMetadataFormats'],
        ['metadataPrefix', 'oai_dc'],
        ['identifier', 'oai:x:1'],
      ],
      request: [
        ['verb', 'ListMetadataFormats'],
        ['identifier', 'oai:x:1'],
      ],
    },
    {
      name: 'passes an unknown verb on for the endpoint to refuse',
      form: [
        ['verb', 'Hack'],
        ['set', 'x'],
      ],
      request: [['verb', 'Hack']],
    },
    {
      name: 'takes the first of repeated fields',
      form: [
        ['verb', 'ListSets'],
        ['verb', 'Identify'],
      ],
      request: [['verb', 'ListSets']],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(requestFromForm(c.form)).to.deep.equal(c.request);
    });
  }
});
