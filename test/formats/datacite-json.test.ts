import { expect } from 'chai';
import { isDataciteJson, readDataciteJson, type DataciteJsonResult } from '../../lib/formats/datacite-json';
import { fixtureText } from '../helpers/xml-fixtures';
import { eachRow } from '../helpers/table';

const fixture = (file: string): unknown => JSON.parse(fixtureText('readers', 'json', file));

/** A record of DataCite's REST API, in the shape its documentation gives (https://support.datacite.org/docs/api-get-doi). */
const API_RECORD = {
  id: '10.5438/4k3m-nyvg',
  type: 'dois',
  attributes: {
    doi: '10.5438/4k3m-nyvg',
    identifiers: [],
    creators: [
      {
        name: 'Fenner, Martin',
        nameType: 'Personal',
        givenName: 'Martin',
        familyName: 'Fenner',
        affiliation: ['DataCite'],
        nameIdentifiers: [{ nameIdentifier: 'https://orcid.org/0000-0003-1419-2405', nameIdentifierScheme: 'ORCID', schemeUri: 'https://orcid.org' }],
      },
    ],
    titles: [{ title: 'Eating your own Dog Food' }],
    publisher: 'DataCite',
    publicationYear: 2016,
    types: { resourceTypeGeneral: 'Text', resourceType: 'BlogPosting', schemaOrg: 'ScholarlyArticle' },
    rightsList: [
      {
        rights: 'Creative Commons Attribution 4.0 International',
        rightsUri: 'https://creativecommons.org/licenses/by/4.0/legalcode',
        rightsIdentifier: 'cc-by-4.0',
      },
    ],
    url: 'https://blog.datacite.org/eating-your-own-dog-food/',
    contentUrl: null,
    state: 'findable',
    created: '2016-12-20T02:02:47.000Z',
    updated: '2020-07-07T11:11:35.000Z',
  },
};

const record = (r: DataciteJsonResult): unknown => ('record' in r ? r.record : r);

describe('DataCite JSON', () => {
  it("reads DataCite's JSON serialization (bolognese): the DOI as the internal id in lower case, its ORCID iD from `id`", () => {
    expect(readDataciteJson(fixture('datacite.json'), 'datacite.json').map(record)).to.deep.equal([
      {
        internalId: '10.5438/4k3m-nyvg',
        fields: {
          dc: {
            title: ['Eating your own Dog Food'],
            subject: ['datacite', 'doi', 'metadata'],
            description: [
              'Volume(1) Series(3)',
              'Eating your own dog food is a slang term to describe that an organization should itself use the products and services it provides. For DataCite this means that we should use DOIs with appropriate metadata and strategies for long-term preservation for...',
            ],
            date: ['2016-12-20', '2016-12-20'],
            identifier: ['MS-49-3632-5083'],
          },
          identifiers: [{ type: 'DOI', value: '10.5438/4k3m-nyvg' }],
          creators: [{ name: 'Fenner, Martin', givenName: 'Martin', familyName: 'Fenner', nameType: 'person', orcid: '0000-0003-1419-2405' }],
          resourceType: { general: 'Text', label: 'BlogPosting' },
          publisher: 'DataCite',
          publicationYear: '2016',
          dates: { issued: '2016-12-20' },
          relatedIdentifiers: [
            { identifier: '10.5438/0000-00ss', type: 'DOI', relation: 'IsPartOf' },
            { identifier: '10.5438/0012', type: 'DOI', relation: 'References' },
            { identifier: '10.5438/55e5-t5c0', type: 'DOI', relation: 'References' },
          ],
        },
      },
    ]);
  });

  it('reads the older hyphenated keys (publication-year, resource-type-general) of a kernel-3 record', () => {
    expect(readDataciteJson(fixture('datacite_software.json'), 'datacite_software.json').map(record)).to.deep.equal([
      {
        internalId: '10.5063/f1m61h5x',
        fields: {
          dc: { title: ['dataone: R interface to the DataONE network of data repositories'] },
          identifiers: [{ type: 'DOI', value: '10.5063/F1M61H5X' }],
          creators: [{ name: 'Matthew B. Jones', givenName: 'Matthew B.', familyName: 'Jones', nameType: 'person' }],
          resourceType: { general: 'Software', label: 'Software' },
          publisher: 'KNB Data Repository',
          publicationYear: '2016',
        },
      },
    ]);
  });

  it("reads the REST API's envelope: `updated` as the datestamp, `url` as an identifier, the licence", () => {
    const [r] = readDataciteJson({ data: API_RECORD }, 'api.json');
    expect(record(r!)).to.deep.equal({
      internalId: '10.5438/4k3m-nyvg',
      datestamp: '2020-07-07T11:11:35Z',
      fields: {
        dc: {
          title: ['Eating your own Dog Food'],
          rights: ['Creative Commons Attribution 4.0 International'],
          identifier: ['https://blog.datacite.org/eating-your-own-dog-food/'],
        },
        identifiers: [
          { type: 'DOI', value: '10.5438/4k3m-nyvg' },
          { type: 'URL', value: 'https://blog.datacite.org/eating-your-own-dog-food/' },
        ],
        creators: [
          {
            name: 'Fenner, Martin',
            givenName: 'Martin',
            familyName: 'Fenner',
            nameType: 'person',
            orcid: '0000-0003-1419-2405',
            affiliations: [{ name: 'DataCite' }],
          },
        ],
        resourceType: { general: 'Text', label: 'BlogPosting' },
        license: 'https://creativecommons.org/licenses/by/4.0/legalcode',
        publisher: 'DataCite',
        publicationYear: '2016',
      },
    });
  });

  it("reads relatedItems: the item the work is published in as its host, a book chapter's book by IsPartOf", () => {
    const item = (relationType: string, relatedItemType: string, more: object) => ({ relationType, relatedItemType, ...more });
    const [article] = readDataciteJson(
      {
        doi: '10.5555/a',
        titles: [{ title: 'A' }],
        relatedItems: [
          item('IsPublishedIn', 'Journal', {
            relatedItemIdentifier: { relatedItemIdentifier: '0370-2693', relatedItemIdentifierType: 'ISSN' },
            titles: [{ title: 'Physics letters / B' }],
            volume: '776',
            issue: 5,
            firstPage: '249',
            lastPage: '264',
          }),
        ],
      },
      'a.json',
    );
    expect(record(article!))
      .to.have.nested.property('fields.host')
      .that.deep.equals({ title: 'Physics letters / B', volume: '776', issue: '5', startPage: '249', endPage: '264' });
    const [chapter] = readDataciteJson(
      {
        doi: '10.5555/c',
        relatedItems: [
          item('References', 'Book', { titles: [{ title: 'Cited' }] }),
          item('IsPartOf', 'Book', { titles: [{ title: 'The Book' }], firstPage: 3 }),
        ],
      },
      'c.json',
    );
    expect(record(chapter!)).to.have.nested.property('fields.host').that.deep.equals({ title: 'The Book', startPage: '3' });
    expect(record(chapter!)).to.have.nested.property('fields.dc.relation').that.deep.equals(['Cited']);
  });

  it("refuses a related item's volume that is not text, naming it", () => {
    const [r] = readDataciteJson(
      { doi: '10.5555/a', relatedItems: [{ relationType: 'IsPublishedIn', relatedItemType: 'Journal', volume: { n: 1 } }] },
      'a.json',
    );
    expect(r).to.deep.equal({ refusals: [{ internalId: '10.5555/a', source: 'a.json', field: 'relatedItems[0].volume', reason: 'must be a string' }] });
  });

  it('reads a page of the API, and an array of records, one result each in order, each named by its position', () => {
    const second = {
      ...API_RECORD,
      id: '10.5061/dryad.8515',
      attributes: { ...API_RECORD.attributes, doi: '10.5061/DRYAD.8515', updated: '2020-07-07T13:11:35+02:00' },
    };
    const page = readDataciteJson({ data: [API_RECORD, second], meta: { total: 2 } }, 'page.json');
    expect(page.map((r) => ('record' in r ? [r.record.internalId, r.record.datestamp] : r))).to.deep.equal([
      ['10.5438/4k3m-nyvg', '2020-07-07T11:11:35Z'],
      ['10.5061/dryad.8515', '2020-07-07T11:11:35Z'],
    ]);
    const list = readDataciteJson([fixture('datacite.json'), { titles: [{ title: 'no DOI' }] }], 'list.json');
    expect('record' in list[0]!).to.equal(true);
    expect(list[1]).to.deep.equal({ refusals: [{ internalId: '', source: 'list.json[1]', field: 'doi', reason: 'missing: a DataCite record names its DOI' }] });
  });

  eachRow(
    [
      ['a record without a DOI', { titles: [] }, [['doi', /missing/]]],
      ['a DOI that is not one', { doi: '11.1234/x' }, [['doi', /not a DOI/]]],
      ['an API record of another type', { data: { id: 'x', type: 'clients', attributes: {} } }, [['data', /not a DataCite DOI record/]]],
      ['titles that are not an array', { doi: '10.1234/x', titles: 'T' }, [['titles', /must be an array/]]],
      ['a creator that is not an object', { doi: '10.1234/x', creators: ['Fenner'] }, [['creators[0]', /must be an object/]]],
      ['a title of the wrong JSON type', { doi: '10.1234/x', titles: [{ title: ['T'] }] }, [['titles[0].title', /must be a string/]]],
      ['text XML cannot carry', { doi: '10.1234/x', titles: [{ title: 'a\u0007b' }] }, [['titles[0].title', /U\+0007/]]],
      ['an `updated` that is not a date-time', { doi: '10.1234/x', updated: '2020-07-07' }, [['updated', /date-time/]]],
      ['a value that is not an object', 'just text', [['', /not a DataCite record/]]],
    ] as const,
    ([what]) => `refuses ${what}, naming the field and the reason`,
    ([, value, want]) => {
      const [r] = readDataciteJson(value, 'x.json');
      expect(r).to.have.property('refusals');
      const refusals = 'refusals' in r! ? r.refusals : [];
      expect(refusals.map((x) => x.field)).to.deep.equal(want.map(([f]) => f));
      refusals.forEach((x, i) => {
        expect(x.reason).to.match(want[i]![1]);
        expect(x.source).to.equal('x.json');
      });
    },
  );

  it('names a refused record by its DOI when it has one', () => {
    const [r] = readDataciteJson({ doi: '10.1234/ABC', titles: 'T' }, 'x.json');
    expect(r).to.deep.equal({ refusals: [{ internalId: '10.1234/abc', source: 'x.json', field: 'titles', reason: 'must be an array' }] });
  });

  it("keeps values the model's checks refuse as Dublin Core text, as the XML readers do", () => {
    const [r] = readDataciteJson(
      { doi: '10.1234/x', language: 'English', identifiers: [{ identifier: '937-0-4523-12357-6', identifierType: 'ISBN' }], publicationYear: 'n.d.' },
      'x.json',
    );
    expect(record(r!)).to.deep.equal({
      internalId: '10.1234/x',
      fields: { dc: { language: ['English'], identifier: ['937-0-4523-12357-6'], date: ['n.d.'] }, identifiers: [{ type: 'DOI', value: '10.1234/x' }] },
    });
  });
});

describe("telling DataCite JSON from the project's own record format", () => {
  eachRow(
    [
      ['an API record', { data: API_RECORD }, true],
      ['a page of the API', { data: [API_RECORD] }, true],
      ['an attributes object', API_RECORD.attributes, true],
      ['an array of attributes objects', [API_RECORD.attributes], true],
      ["a record of the project's format", { id: 'r1', dc: { title: 'T' }, creators: [{ name: 'A' }] }, false],
      ["a record of the project's format without dc", { id: 'r1', metadata: { oai_dc: '<x/>' }, publicationYear: 2020 }, false],
      ['an API record of another type', { data: { type: 'clients', attributes: {} } }, false],
      ['an empty array', [], false],
      ['null', null, false],
    ] as const,
    ([what, , want]) => `says ${what} ${want ? 'is' : 'is not'} DataCite JSON`,
    ([, value, want]) => {
      expect(isDataciteJson(value)).to.equal(want);
    },
  );
});
