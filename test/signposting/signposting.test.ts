/**
 * FAIR Signposting, the pure part: DOIs recognised and normalized, types
 * mapped to schema.org, an item's facts read from its record model, and its
 * links as a Link header and as RFC 9264 linksets.
 */
import { expect } from 'chai';
import { itemFacts, linkHeader, linksetJson, linksetText, normalizeDoi, schemaOrgType, signpostingLinks } from '../../lib/signposting';
import type { SignpostInput } from '../../lib/signposting';

describe('normalizeDoi', () => {
  const cases: Array<{ name: string; value: string; doi: string | null }> = [
    { name: 'keeps an https doi.org URL', value: 'https://doi.org/10.5555/demo.2024.0001', doi: 'https://doi.org/10.5555/demo.2024.0001' },
    { name: 'turns http and dx.doi.org into https://doi.org', value: 'http://dx.doi.org/10.1000/182', doi: 'https://doi.org/10.1000/182' },
    { name: 'reads a doi: name', value: 'doi:10.1000/182', doi: 'https://doi.org/10.1000/182' },
    { name: 'reads a doi: name in capitals with a space', value: 'DOI: 10.1000/182', doi: 'https://doi.org/10.1000/182' },
    { name: 'reads a bare DOI', value: '10.12345/abc-def', doi: 'https://doi.org/10.12345/abc-def' },
    { name: 'reads a prefix with sub-parts', value: '10.1000.10/123', doi: 'https://doi.org/10.1000.10/123' },
    { name: 'percent-encodes characters a URI cannot hold in a name', value: 'doi:10.5555/a#b?c%d<e>', doi: 'https://doi.org/10.5555/a%23b%3Fc%25d%3Ce%3E' },
    { name: 'leaves the escapes of a URL form as they are', value: 'https://doi.org/10.5555/a%23b', doi: 'https://doi.org/10.5555/a%23b' },
    { name: 'refuses a handle', value: 'http://hdl.handle.net/1854/LU-8762613', doi: null },
    { name: 'refuses a DOI without a suffix', value: '10.5555/', doi: null },
    { name: 'refuses a bare prefix shorter than four digits', value: '10.12/abc', doi: null },
    { name: 'refuses a repository URL', value: 'https://repo.example.org/items/data-2024-0001', doi: null },
    { name: 'refuses a javascript: URL that mentions a DOI', value: 'javascript:alert(1)//10.5555/x', doi: null },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(normalizeDoi(c.value)).to.equal(c.doi);
    });
  }
});

describe('schemaOrgType', () => {
  const cases: Array<[string, string | null]> = [
    ['Dataset', 'https://schema.org/Dataset'],
    ['Software', 'https://schema.org/SoftwareSourceCode'],
    ['StillImage', 'https://schema.org/ImageObject'],
    ['Sound', 'https://schema.org/AudioObject'],
    ['info:eu-repo/semantics/doctoralThesis', 'https://schema.org/Thesis'],
    ['journal article', 'https://schema.org/ScholarlyArticle'],
    ['http://purl.org/dc/dcmitype/MovingImage', 'https://schema.org/VideoObject'],
    ['Text', null],
    ['Something else', null],
  ];
  for (const [value, type] of cases) {
    it(`maps ${JSON.stringify(value)} to ${type ?? 'nothing'}`, () => {
      expect(schemaOrgType(value)).to.equal(type);
    });
  }
});

describe('itemFacts', () => {
  const POI_1 = 'http://purl.org/poi/x.org/1';

  it('cites the record by its first DOI among the dc:identifier values, normalized', () => {
    const facts = itemFacts({ dc: { identifier: ['https://repo.example.org/x', 'doi:10.5555/X1', '10.5555/second'] } }, POI_1);
    expect(facts.citation).to.deep.equal({ scheme: 'DOI', value: '10.5555/X1', uri: 'https://doi.org/10.5555/X1' });
    expect(facts.identifiers).to.deep.equal(['https://repo.example.org/x', 'https://doi.org/10.5555/second']);
  });

  it('cites a record with a Handle and no DOI by its Handle, not the POI', () => {
    const facts = itemFacts({ dc: { identifier: ['90-9014980-5', 'http://hdl.handle.net/1765/315'] } }, POI_1);
    expect(facts.citation?.uri).to.equal('https://hdl.handle.net/1765/315');
    expect(facts.identifiers).to.deep.equal(['90-9014980-5']);
  });

  it('cites a record without a persistent identifier by its POI, which it does not list again', () => {
    const facts = itemFacts({ dc: { identifier: ['https://repo.example.org/x', POI_1] } }, POI_1);
    expect(facts.citation).to.deep.equal({ scheme: 'POI', value: POI_1, uri: POI_1 });
    expect(facts.identifiers).to.deep.equal(['https://repo.example.org/x']);
  });

  it('takes licences from the typed licence and dc:rights URLs, not from access rights or text', () => {
    const facts = itemFacts({
      dc: { rights: ['All rights reserved', 'http://purl.org/coar/access_right/c_abf2', 'javascript:alert(1)'] },
      license: 'https://creativecommons.org/licenses/by/4.0/',
    });
    expect(facts.licenses).to.deep.equal(['https://creativecommons.org/licenses/by/4.0/']);
  });

  it('maps the resource type, else dc:type, to schema.org types, leaving out unknown ones', () => {
    expect(itemFacts({ dc: { type: ['Text', 'Dataset'] } }).types).to.deep.equal(['https://schema.org/Dataset']);
    expect(itemFacts({ dc: { type: ['Dataset'] }, resourceType: { general: 'Software', label: 'Software' } }).types).to.deep.equal([
      'https://schema.org/SoftwareSourceCode',
    ]);
  });

  it('lists the files with an http(s) location, with their media types', () => {
    const facts = itemFacts({
      dc: {},
      files: [
        { url: 'https://repo.example.org/files/a.pdf', mediaType: 'application/pdf' },
        { url: 'https://repo.example.org/files/b.csv' },
        { url: 'javascript:alert(1)' },
      ],
    });
    expect(facts.files).to.deep.equal([
      { href: 'https://repo.example.org/files/a.pdf', type: 'application/pdf' },
      { href: 'https://repo.example.org/files/b.csv' },
    ]);
  });

  it('finds nothing in an empty record without a POI', () => {
    expect(itemFacts({ dc: {} })).to.deep.equal({ identifiers: [], licenses: [], types: [], files: [] });
  });
});

const POI = 'http://purl.org/poi/demo.example.org/item-1';
const base: SignpostInput = {
  citeAs: POI,
  deleted: false,
  describedBy: [
    {
      href: 'http://r.org/oai?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai%3Ademo.example.org%3Aitem-1',
      type: 'application/xml',
      profile: 'http://www.openarchives.org/OAI/2.0/oai_dc/',
    },
  ],
  types: [],
  licenses: [],
  files: [],
};

describe('signpostingLinks', () => {
  const rels = (input: SignpostInput): string[] => signpostingLinks(input).map((l) => `${l.rel} ${l.href}${l.type ? ` ${l.type}` : ''}`);
  const cases: Array<{ name: string; input: SignpostInput; links: string[] }> = [
    {
      name: 'cites an item with a DOI by its DOI',
      input: {
        ...base,
        citeAs: 'https://doi.org/10.5555/x',
        types: ['https://schema.org/Dataset'],
        licenses: ['https://creativecommons.org/licenses/by/4.0/'],
      },
      links: [
        'cite-as https://doi.org/10.5555/x',
        `describedby ${base.describedBy[0]?.href} application/xml`,
        'type https://schema.org/AboutPage',
        'type https://schema.org/Dataset',
        'license https://creativecommons.org/licenses/by/4.0/',
      ],
    },
    {
      name: 'cites an item without a DOI by its POI and types it CreativeWork when nothing more is known',
      input: base,
      links: [
        `cite-as ${POI}`,
        `describedby ${base.describedBy[0]?.href} application/xml`,
        'type https://schema.org/AboutPage',
        'type https://schema.org/CreativeWork',
      ],
    },
    {
      name: 'links every file as an item, with its type or application/octet-stream',
      input: {
        ...base,
        files: [{ href: 'https://r.org/a.pdf', type: 'application/pdf' }, { href: 'https://r.org/b.bin' }],
        linkset: 'http://r.org/poi/demo.example.org/item-1',
      },
      links: [
        `cite-as ${POI}`,
        `describedby ${base.describedBy[0]?.href} application/xml`,
        'type https://schema.org/AboutPage',
        'type https://schema.org/CreativeWork',
        'item https://r.org/a.pdf application/pdf',
        'item https://r.org/b.bin application/octet-stream',
        'linkset http://r.org/poi/demo.example.org/item-1 application/linkset+json',
      ],
    },
    {
      name: 'keeps only cite-as for a deleted item',
      input: { ...base, deleted: true, citeAs: 'https://doi.org/10.5555/x', files: [{ href: 'https://r.org/a.pdf' }] },
      links: ['cite-as https://doi.org/10.5555/x'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(rels(c.input)).to.deep.equal(c.links);
    });
  }

  it('puts the format namespace on describedby as its profile', () => {
    const d = signpostingLinks(base).find((l) => l.rel === 'describedby');
    expect(d?.profile).to.equal('http://www.openarchives.org/OAI/2.0/oai_dc/');
  });
});

describe('linkHeader, linksetJson and linksetText', () => {
  const links = signpostingLinks({
    ...base,
    citeAs: 'https://doi.org/10.5555/x',
    files: [{ href: 'https://r.org/a b.pdf', type: 'application/pdf' }],
    linkset: 'http://r.org/poi/x/1',
  });
  const anchor = 'http://r.org/oai?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai%3Ademo.example.org%3Aitem-1';

  it('writes a Link header of comma-separated link-values with quoted parameters (RFC 8288 section 3)', () => {
    expect(linkHeader(links)).to.equal(
      '<https://doi.org/10.5555/x>; rel="cite-as", ' +
        `<${base.describedBy[0]?.href}>; rel="describedby"; type="application/xml"; profile="http://www.openarchives.org/OAI/2.0/oai_dc/", ` +
        '<https://schema.org/AboutPage>; rel="type", <https://schema.org/CreativeWork>; rel="type", ' +
        '<https://r.org/a%20b.pdf>; rel="item"; type="application/pdf", ' +
        '<http://r.org/poi/x/1>; rel="linkset"; type="application/linkset+json"',
    );
  });

  it('percent-encodes what cannot stand inside <…> and drops a type that is not a media type', () => {
    const h = linkHeader([{ href: 'https://r.org/a>b"c\u00e9', rel: 'item', type: 'x/y"\u0000' }]);
    expect(h).to.equal('<https://r.org/a%3Eb%22c%C3%A9>; rel="item"');
  });

  it('writes the JSON linkset with one context object, arrays per relation and profile as an array (RFC 9264 section 4.2)', () => {
    expect(linksetJson(anchor, links)).to.deep.equal({
      linkset: [
        {
          anchor,
          'cite-as': [{ href: 'https://doi.org/10.5555/x' }],
          describedby: [{ href: base.describedBy[0]?.href, type: 'application/xml', profile: ['http://www.openarchives.org/OAI/2.0/oai_dc/'] }],
          type: [{ href: 'https://schema.org/AboutPage' }, { href: 'https://schema.org/CreativeWork' }],
          item: [{ href: 'https://r.org/a%20b.pdf', type: 'application/pdf' }],
        },
      ],
    });
  });

  it('writes the text linkset as link-values with an anchor each, one per line (RFC 9264 section 4.1)', () => {
    const text = linksetText(anchor, links);
    const lines = text.trimEnd().split(',\n');
    expect(lines).to.have.length(5);
    for (const l of lines) expect(l).to.match(new RegExp(`^<[^>]+>; rel="[a-z-]+".*; anchor="${anchor.replace(/[?.]/g, '\\$&')}"$`));
    expect(text.endsWith('\n')).to.equal(true);
  });
});
