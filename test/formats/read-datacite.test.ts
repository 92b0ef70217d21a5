import { expect } from 'chai';
import { datacite } from '../../lib/formats/datacite';
import { oaiDatacite } from '../../lib/formats/oai-datacite';
import type { RecordFields } from '../../lib/model/record';
import { parseFragment } from '../../lib/xml/tree';
import { fixtureRoot, fixtureText } from '../helpers/xml-fixtures';
import { eachRow } from '../helpers/table';

const read = (file: string): RecordFields => datacite.read!(fixtureRoot('readers', 'datacite', file));

// Expected values read from the files themselves (test/fixtures/readers/SOURCE.md).
const DRYAD_CREATORS = [
  'Ollomo, Benjamin',
  'Durand, Patrick',
  'Prugnolle, Franck',
  'Douzery, Emmanuel J. P.',
  'Arnathau, Céline',
  'Nkoghe, Dieudonné',
  'Leroy, Eric',
  'Renaud, François',
];
const DRYAD_SUBJECTS = ['Phylogeny', 'Malaria', 'Parasites', 'Taxonomy', 'Mitochondrial genome', 'Africa', 'Plasmodium'];
const DRYAD_CITATION =
  'Ollomo B, Durand P, Prugnolle F, Douzery EJP, Arnathau C, Nkoghe D, Leroy E, Renaud F (2009) A new malaria agent in African hominids. PLoS Pathogens 5(5): e1000446.';
const DRYAD_RELATED = [
  { identifier: '10.5061/DRYAD.8515/1', type: 'DOI', relation: 'HasPart' },
  { identifier: '10.5061/DRYAD.8515/2', type: 'DOI', relation: 'HasPart' },
  { identifier: '10.1371/JOURNAL.PPAT.1000446', type: 'DOI', relation: 'IsReferencedBy' },
  { identifier: '19478877', type: 'PMID', relation: 'IsReferencedBy' },
];

describe('the DataCite reader, on DataCite records published by others', () => {
  it('reads a kernel-4 record: DOI, creator with ORCID iD, type, dates, related identifiers; the other dates and the local identifier as Dublin Core', () => {
    expect(read('datacite.xml')).to.deep.equal({
      dc: {
        title: ['Eating your own Dog Food'],
        subject: ['datacite', 'doi', 'metadata'],
        description: [
          'Eating your own dog food is a slang term to describe that an organization should itself use the products and services it provides. For DataCite this means that we should use DOIs with appropriate metadata and strategies for long-term preservation for...',
        ],
        date: ['2016-12-20', '2016-12-20'],
        identifier: ['MS-49-3632-5083'],
      },
      identifiers: [{ type: 'DOI', value: '10.5438/4K3M-NYVG' }],
      creators: [
        {
          name: 'Fenner, Martin',
          givenName: 'Martin',
          familyName: 'Fenner',
          orcid: '0000-0003-1419-2405',
          // As written: the bare iD under the http scheme URI, which the DataCite writer writes again.
          nameIdentifiers: [{ value: '0000-0003-1419-2405', scheme: 'ORCID', schemeUri: 'http://orcid.org/' }],
        },
      ],
      resourceType: { general: 'Text', label: 'BlogPosting' },
      publisher: 'DataCite',
      publicationYear: '2016',
      dates: { issued: '2016-12-20' },
      relatedIdentifiers: [
        { identifier: '10.5438/0012', type: 'DOI', relation: 'References' },
        { identifier: '10.5438/55E5-T5C0', type: 'DOI', relation: 'References' },
        { identifier: '10.5438/0000-00SS', type: 'DOI', relation: 'IsPartOf' },
      ],
      // What the shared fields have no place for, as DataCite gave it.
      typedDates: [
        { value: '2016-12-20', type: 'Created' },
        { value: '2016-12-20', type: 'Issued' },
        { value: '2016-12-20', type: 'Updated' },
      ],
      alternateIdentifiers: [{ value: 'MS-49-3632-5083', type: 'Local accession number' }],
      version: '1.0',
    });
  });

  it('reads a kernel-3 record (Dryad) with the same names: its licence from rightsURI, its citation as a dc:identifier', () => {
    expect(read('datacite_dataset.xml')).to.deep.equal({
      dc: { title: ['Data from: A new malaria agent in African hominids.'], subject: DRYAD_SUBJECTS, identifier: [DRYAD_CITATION] },
      identifiers: [{ type: 'DOI', value: '10.5061/DRYAD.8515' }],
      creators: DRYAD_CREATORS.map((name) => ({ name })),
      resourceType: { general: 'Dataset', label: 'DataPackage' },
      license: 'http://creativecommons.org/publicdomain/zero/1.0/',
      publisher: 'Dryad Digital Repository',
      publicationYear: '2011',
      relatedIdentifiers: DRYAD_RELATED,
      alternateIdentifiers: [{ value: DRYAD_CITATION, type: 'citation' }],
      version: '1',
    });
  });

  it('reads an info:eu-repo access term in rightsURI as the access right, keeping the other rights text', () => {
    const r = read('datacite-multiple-rights.xml');
    expect(r.accessRights).to.equal('open');
    expect(r.license).to.equal(undefined);
    expect(r.dc.rights).to.deep.equal(['info:eu-repo/semantics/openAccess', 'Open Access']);
  });

  it('reads funder identifiers of every type, an ISNI in its URL form and with spaces among them, with their scheme URIs; a bad ISBN stays text', () => {
    const r = read('datacite-funderIdentifier.xml');
    const scheme = new Map([
      ['National Science Foundation (NSF)', 'http://www.isni.org/isni/'],
      ['European Commission', 'https://doi.org/'],
      ['University of Washington', 'http://www.isni.org/isni/'],
      ['National Library of Ireland.', 'http://viaf.org/viaf/'],
      ['DataCite', 'https://ror.org/'],
    ]);
    expect(r.fundingReferences?.map((f) => f.funderIdentifierSchemeUri)).to.deep.equal(r.fundingReferences?.map((f) => scheme.get(f.funderName)));
    expect(r.fundingReferences?.map(({ funderIdentifierSchemeUri: _, ...f }) => f)).to.deep.equal([
      { funderName: 'National Science Foundation (NSF)', funderIdentifier: { type: 'ISNI', value: '0000000119587073' } },
      { funderName: 'Acme Inc', funderIdentifier: { type: 'Other', value: '1234' } },
      { funderName: 'European Commission', funderIdentifier: { type: 'Crossref Funder ID', value: 'https://doi.org/10.13039/501100000780' } },
      { funderName: 'University of Washington', funderIdentifier: { type: 'ISNI', value: '0000000122986657' } },
      { funderName: 'National Library of Ireland.', funderIdentifier: { type: 'Other', value: '127467345' } },
      { funderName: 'DataCite', funderIdentifier: { type: 'ROR', value: 'https://ror.org/04wxnsj81' } },
      { funderName: 'Department of Agriculture', funderIdentifier: { type: 'ROR', value: 'https://ror.org/038wwg650' } },
      { funderName: 'Tottori University', funderIdentifier: { type: 'Crossref Funder ID', value: 'https://doi.org/10.13039/501100005695' } },
    ]);
    // 937-0-4523-12357-6 has fourteen digits: not an ISBN, so not typed, and not lost.
    expect(r.identifiers).to.deep.equal([{ type: 'DOI', value: '10.5072/testpub' }]);
    expect(r.dc.identifier).to.deep.equal(['937-0-4523-12357-6']);
    expect(r.creators).to.deep.equal([
      { name: 'Smith, John', nameType: 'person' },
      // An ISNI of a name is no ORCID iD: kept as given, with its scheme URI.
      { name: 'つまらないものですが', nameIdentifiers: [{ value: '0000000134596520', scheme: 'ISNI', schemeUri: 'http://isni.org/isni/' }] },
    ]);
    expect(r.contributors).to.deep.equal([
      {
        name: 'Doe, John',
        orcid: '0000-0001-5393-1421',
        nameIdentifiers: [{ value: '0000-0001-5393-1421', scheme: 'ORCID', schemeUri: 'http://orcid.org/' }],
        type: 'DataCollector',
      },
    ]);
    expect(r.language).to.equal('ger');
    expect(r.dc.title).to.deep.equal(['Właściwości rzutowań podprzestrzeniowych', 'Translation of Polish titles']);
    expect(r.dc.subject).to.deep.equal(['830 German & related literatures', 'Polish Literature']);
    expect(r.dc.date).to.deep.equal(['2012-12-13']);
    expect(r.dc.format).to.deep.equal(['pdf']);
    expect(r.license).to.equal('http://creativecommons.org/licenses/by-nd/2.0/');
    expect(r.dc.rights).to.deep.equal(['Creative Commons\n      Attribution-NoDerivs 2.0 Generic']);
    expect(r.relatedIdentifiers).to.deep.equal([{ identifier: '10.5272/oldertestpub', type: 'DOI', relation: 'IsPartOf', resourceTypeGeneral: 'Text' }]);
    expect(r.dc.description?.[0]).to.match(
      /^Lorem ipsum dolor sit amet, consetetur sadipscing elitr, sed diam nonumy eirmod tempor invidunt ut labore et\n {6}dolore magna/,
    );
    expect(r.dc.description?.[0]).to.match(/no sea takimata sanctus est Lorem ipsum dolor sit amet\.$/);
  });

  it('reads persons and organizations with their ORCID iDs and ROR affiliations, a GRID affiliation with its identifier as given', () => {
    const r = read('datacite-example-affiliation.xml');
    expect(r.creators).to.deep.equal([
      {
        name: 'Miller, Elizabeth',
        givenName: 'Elizabeth',
        familyName: 'Miller',
        nameType: 'person',
        orcid: '0000-0001-5000-0007',
        affiliations: [{ name: 'DataCite', ror: 'https://ror.org/04wxnsj81' }],
        nameIdentifiers: [{ value: '0000-0001-5000-0007', scheme: 'ORCID', schemeUri: 'http://orcid.org/' }],
      },
      {
        name: 'Carberry, Josiah',
        givenName: 'Josiah',
        familyName: 'Carberry',
        nameType: 'person',
        orcid: '0000-0002-1825-0097',
        affiliations: [
          { name: 'Brown University', ror: 'https://ror.org/05gq02987' },
          { name: 'Wesleyan University', identifier: 'grid.268117.b', identifierScheme: 'GRID', schemeUri: 'https://grid.ac/institutes/' },
        ],
        nameIdentifiers: [{ value: '0000-0002-1825-0097', scheme: 'ORCID', schemeUri: 'http://orcid.org/' }],
      },
      { name: 'The Psychoceramics Study Group', nameType: 'organization', affiliations: [{ name: 'Brown University', ror: 'https://ror.org/05gq02987' }] },
    ]);
    expect(r.contributors).to.deep.equal([
      {
        name: 'Starr, Joan',
        givenName: 'Joan',
        familyName: 'Starr',
        orcid: '0000-0002-7285-027X',
        affiliations: [{ name: 'California Digital Library', ror: 'https://ror.org/03yrm5c26' }],
        nameIdentifiers: [{ value: '0000-0002-7285-027X', scheme: 'ORCID', schemeUri: 'http://orcid.org/' }],
        type: 'ProjectLeader',
      },
    ]);
    expect(r.dc.title).to.deep.equal(['Full DataCite XML Example', 'Demonstration of DataCite Properties.']);
    expect(r.language).to.equal('en-US');
    expect(r.resourceType).to.deep.equal({ general: 'Software', label: 'XML' });
    expect(r.identifiers).to.deep.equal([
      { type: 'DOI', value: '10.5072/example-full' },
      { type: 'URL', value: 'https://schema.datacite.org/meta/kernel-4.2/example/datacite-example-full-v4.2.xml' },
    ]);
    expect(r.relatedIdentifiers).to.deep.equal([
      {
        identifier: 'https://data.datacite.org/application/citeproc+json/10.5072/example-full',
        type: 'URL',
        relation: 'HasMetadata',
        relatedMetadataScheme: 'citeproc+json',
        schemeUri: 'https://github.com/citation-style-language/schema/raw/master/csl-data.json',
      },
      { identifier: 'arXiv:0706.0001', type: 'arXiv', relation: 'IsReviewedBy', resourceTypeGeneral: 'Text' },
    ]);
    expect(r.license).to.equal('https://creativecommons.org/publicdomain/zero/1.0/legalcode');
    expect(r.dc.rights).to.equal(undefined);
    expect(r.dc.description).to.deep.equal(['XML example of all DataCite Metadata Schema v4.2 properties.']);
    expect(r.dc.coverage).to.deep.equal(['Atlantic Ocean']);
    expect(r.dc.date).to.deep.equal(['2017-09-13']);
    expect(r.fundingReferences).to.deep.equal([
      {
        funderName: 'National Science Foundation',
        funderIdentifier: { type: 'Crossref Funder ID', value: 'https://doi.org/10.13039/100000001' },
        awardNumber: 'CBET-106',
        awardTitle: 'Full DataCite XML Example',
        funderIdentifierSchemeUri: 'https://doi.org/',
      },
    ]);
  });

  it('reads a related item (DataCite 4.4) as a related identifier, its title as a dc:relation', () => {
    const r = read('datacite_journal_article.xml');
    expect(r.relatedIdentifiers).to.deep.equal([
      { identifier: '0040-4411', type: 'ISSN', relation: 'IsPublishedIn', resourceTypeGeneral: 'Journal' },
      { identifier: '0040-4411', type: 'ISSN', relation: 'IsSourceOf', resourceTypeGeneral: 'Journal', inRelatedItem: true },
    ]);
    expect(r.dc.relation).to.deep.equal(['Texas Law Review']);
    // Its relation says the journal is based on the article (IsSourceOf), not that it is published in it: no host is guessed.
    expect(r.host).to.equal(undefined);
    expect(r.contributors).to.deep.equal([
      {
        name: 'Georgetown Law Library',
        nameType: 'organization',
        affiliations: [{ name: 'Georgetown University', ror: 'https://ror.org/05vzafd60' }],
        type: 'HostingInstitution',
      },
    ]);
    expect(r.creators).to.deep.equal([
      { name: 'Feldman, Heidi Li', givenName: 'Heidi Li', familyName: 'Feldman', nameType: 'person', orcid: '0000-0003-1905-2698' },
    ]);
    expect(r.dates).to.deep.equal({ issued: '1995-11' });
    expect(r.dc.date).to.deep.equal(['2016-04-25']);
    expect(r.dc.format).to.deep.equal(['text/html', 'application/pdf']);
    expect(r.dc.subject).to.deep.equal(['FOS: Law']);
    expect(r.language).to.equal('en');
  });

  it('reads the related item the work is published in (DataCite 4.4 IsPublishedIn) as its host; its identifier stays a related identifier', () => {
    // The shape of DataCite's own relatedItem example (DataCite Metadata Schema 4.4, property 20).
    const r = datacite.read!(
      parseFragment(`<resource xmlns="http://datacite.org/schema/kernel-4"><identifier identifierType="DOI">10.5555/x</identifier>
      <relatedItems>
        <relatedItem relatedItemType="Collection" relationType="IsPartOf"><titles><title>Grey literature</title></titles></relatedItem>
        <relatedItem relatedItemType="Journal" relationType="IsPublishedIn">
          <relatedItemIdentifier relatedItemIdentifierType="ISSN">0370-2693</relatedItemIdentifier>
          <titles><title>Physics letters / B</title></titles><publicationYear>2018</publicationYear>
          <volume>776</volume><issue>5</issue><number numberType="Article">12</number><firstPage>249</firstPage><lastPage>264</lastPage>
        </relatedItem>
      </relatedItems></resource>`)!,
    );
    expect(r.host).to.deep.equal({ title: 'Physics letters / B', volume: '776', issue: '5', startPage: '249', endPage: '264' });
    expect(r.relatedIdentifiers).to.deep.equal([
      { identifier: '0370-2693', type: 'ISSN', relation: 'IsPublishedIn', resourceTypeGeneral: 'Journal', inRelatedItem: true },
    ]);
    // A collection the work is part of is no container it was published in.
    expect(r.dc.relation).to.deep.equal(['Grey literature']);
  });

  it('reads the newest kernel (4.6): every title, the types new in 4.6, an organization with its ROR id and the language of its name', () => {
    const r = read('datacite-example-full-v4.6.xml');
    expect(r.dc.title).to.deep.equal(['Example Title', 'Example Subtitle', 'Example TranslatedTitle', 'Example AlternativeTitle']);
    expect(r.resourceType).to.deep.equal({ general: 'Project', label: 'Research Project' });
    expect(r.creators).to.deep.equal([
      {
        name: 'ExampleFamilyName, ExampleGivenName',
        givenName: 'ExampleGivenName',
        familyName: 'ExampleFamilyName',
        nameType: 'person',
        orcid: '0000-0001-5727-2427',
        affiliations: [{ name: 'ExampleAffiliation', ror: 'https://ror.org/04wxnsj81' }],
      },
      {
        name: 'ExampleOrganization',
        nameType: 'organization',
        nameIdentifiers: [{ value: 'https://ror.org/04wxnsj81', scheme: 'ROR', schemeUri: 'https://ror.org' }],
        lang: 'en',
      },
    ]);
    expect(r.contributors?.map((c) => [c.name, c.type])).to.deep.equal([
      ['Doe, Jane', 'Translator'],
      ['Smith, John', 'ContactPerson'],
      ['Ross, Cody', 'Editor'],
      ['Stathis, Kelly', 'Editor'],
    ]);
    expect(r.publisher).to.equal('Example Publisher');
    expect(r.dates).to.deep.equal({ issued: '2023-01-01' });
    // DataCite 4.6's Coverage date is the resource's temporal coverage (dc:coverage), not one of its dates.
    expect(r.dc.date).to.deep.equal(['2023-01-01', '2023-01-01', '2023-01-01']);
    expect(r.typedDates?.find((d) => d.type === 'Coverage')).to.deep.equal({ value: '2020-01-01', type: 'Coverage' });
    expect(r.relatedIdentifiers).to.deep.equal([
      { identifier: 'RRID:AB_90755', type: 'RRID', relation: 'References' },
      { identifier: 'CSTR:AB_12345', type: 'CSTR', relation: 'References' },
      { identifier: '10.1234/translated-version', type: 'DOI', relation: 'HasTranslation' },
      { identifier: '10.1234/other-version', type: 'DOI', relation: 'IsTranslationOf' },
    ]);
    expect(r.license).to.equal('https://creativecommons.org/licenses/by/4.0/');
    expect(r.dc.rights).to.deep.equal(['Creative Commons Attribution 4.0 International']);
    expect(r.dc.coverage).to.deep.equal(['2020-01-01', 'Vancouver, British Columbia, Canada']);
    expect(r.geoLocations).to.deep.equal([{ places: ['Vancouver, British Columbia, Canada'], points: [{ latitude: 49.2827, longitude: -123.1207 }] }]);
    expect(r.publisherIdentifier).to.deep.equal({ value: 'https://ror.org/04z8jg394', scheme: 'ROR', schemeUri: 'https://ror.org/' });
    expect(r.publisherLang).to.equal('en');
    expect(r.titles?.map((t) => [t.type, t.lang])).to.deep.equal([
      [undefined, 'en'],
      ['Subtitle', 'en'],
      ['TranslatedTitle', 'fr'],
      ['AlternativeTitle', 'en'],
    ]);
    expect(r.sizes).to.deep.equal(['1 MB']);
    expect(r.version).to.equal('1');
    expect(r.dc.subject).to.deep.equal(['FOS: Computer and information sciences', 'Digital curation and preservation', 'Example Subject']);
  });

  it("reads DataCite's own kernel-4 example (the published sample), including a date range kept as text", () => {
    const r = datacite.read!(fixtureRoot('formats', 'datacite', 'datacite-example-full-v4.xml'));
    expect(r.identifiers?.[0]).to.deep.equal({ type: 'DOI', value: '10.82433/B09Z-4K37' });
    expect(r.publicationYear).to.equal('2024');
    expect(r.resourceType).to.deep.equal({ general: 'Dataset', label: 'Example ResourceType' });
    expect(r.dates).to.deep.equal({ accepted: '2024-01-01', available: '2024-01-01', issued: '2024-01-01' });
    expect(r.dc.date).to.include('2024-01-01/2024-12-31');
    expect(r.creators?.[0]).to.include({ name: 'ExampleFamilyName, ExampleGivenName', nameType: 'person', orcid: '0000-0001-5727-2427' });
  });
});

describe('the oai_datacite reader', () => {
  it('reads the DataCite resource of the payload, kernel-4 or kernel-3, and nothing of the wrapper', () => {
    const wrap = (file: string, ns: string): string =>
      `<oai_datacite xmlns="${ns}"><isReferenceQuality>true</isReferenceQuality><schemaVersion>4</schemaVersion><datacentreSymbol>DRYAD.DRYAD</datacentreSymbol><payload>${fixtureText('readers', 'datacite', file).replace(/^<\?xml[^>]*\?>\s*/, '')}</payload></oai_datacite>`;
    for (const ns of ['http://schema.datacite.org/oai/oai-1.1/', 'http://schema.datacite.org/oai/oai-1.0/']) {
      expect(oaiDatacite.read!(parseFragment(wrap('datacite_dataset.xml', ns))!), ns).to.deep.equal(read('datacite_dataset.xml'));
      expect(oaiDatacite.read!(parseFragment(wrap('datacite.xml', ns))!), ns).to.deep.equal(read('datacite.xml'));
    }
    expect(oaiDatacite.alsoReads).to.deep.equal(['http://schema.datacite.org/oai/oai-1.0/']);
    expect(datacite.alsoReads).to.deep.equal(['http://datacite.org/schema/kernel-3']);
  });
});

describe('the DataCite reader on odd but well-formed XML', () => {
  eachRow(
    [
      ['an element of another format', '<dc xmlns="http://www.openarchives.org/OAI/2.0/oai_dc/"><title>T</title></dc>', { dc: {} }],
      ['an empty resource', '<resource xmlns="http://datacite.org/schema/kernel-4"/>', { dc: {} }],
      [
        'blank values',
        '<resource xmlns="http://datacite.org/schema/kernel-4"><identifier identifierType="DOI"> </identifier><titles><title/></titles><creators><creator><creatorName/></creator></creators></resource>',
        { dc: {} },
      ],
      [
        'a DOI that is not one, an unknown general type and a year in words',
        '<resource xmlns="http://datacite.org/schema/kernel-4"><identifier identifierType="DOI">doi:nope</identifier><resourceType resourceTypeGeneral="Film">Movie</resourceType><publicationYear>circa 1900</publicationYear></resource>',
        { dc: { identifier: ['doi:nope'], type: ['Film', 'Movie'], date: ['circa 1900'] } },
      ],
      [
        'an organization with a given name and an ORCID iD (which only persons have)',
        '<resource xmlns="http://datacite.org/schema/kernel-4"><creators><creator><creatorName nameType="Organizational">Lab</creatorName><givenName>G</givenName><nameIdentifier nameIdentifierScheme="ORCID">0000-0002-1825-0097</nameIdentifier></creator></creators></resource>',
        { dc: {}, creators: [{ name: 'Lab', nameType: 'organization', nameIdentifiers: [{ value: '0000-0002-1825-0097', scheme: 'ORCID' }] }] },
      ],
      [
        'an embargo without its end date, and a bad ORCID check character',
        '<resource xmlns="http://datacite.org/schema/kernel-4"><creators><creator><creatorName>A</creatorName><nameIdentifier nameIdentifierScheme="ORCID">0000-0002-1825-0098</nameIdentifier></creator></creators><rightsList><rights rightsURI="http://purl.org/coar/access_right/c_f1cf">embargoed access</rights></rightsList></resource>',
        {
          dc: { rights: ['http://purl.org/coar/access_right/c_f1cf'] },
          creators: [{ name: 'A', nameIdentifiers: [{ value: '0000-0002-1825-0098', scheme: 'ORCID' }] }],
          rightsList: [{ text: 'embargoed access', uri: 'http://purl.org/coar/access_right/c_f1cf' }],
        },
      ],
      [
        'an embargo ending on its Available date, and a timestamp kept in its precision',
        '<resource xmlns="http://datacite.org/schema/kernel-4"><dates><date dateType="Available">2030-01-31</date><date dateType="Issued">2003-04-15T23:18:51-05:00</date></dates><rightsList><rights rightsURI="http://purl.org/coar/access_right/c_f1cf"/></rightsList></resource>',
        {
          dc: {},
          accessRights: 'embargoed',
          // The shared field holds the time of day as written, so nothing is left for typedDates to keep.
          dates: { embargoEnd: '2030-01-31', issued: '2003-04-15T23:18:51-05:00' },
        },
      ],
    ] as const,
    ([what]) => `reads ${what} without throwing, typing only what the model accepts`,
    ([, xml, want]) => {
      expect(datacite.read!(parseFragment(xml)!)).to.deep.equal(want);
    },
  );
});
