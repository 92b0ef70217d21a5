import { expect } from 'chai';
import { createFormatRegistry } from '../../lib/formats/registry';
import { jsonToItem } from '../../lib/pipeline/json-record';
import { parseRecordFields, RECORD_FIELD_KEYS } from '../../lib/model/from-json';
import { type RecordFields } from '../../lib/model/record';
import type { Refusal } from '../../lib/model/refusal';

const ORIGIN = { internalId: 'r1', source: 'records.ndjson:3' };

function parse(extra: Record<string, unknown>): { fields: RecordFields } | { refusals: Refusal[] } {
  return parseRecordFields({ id: 'r1', dc: { title: 'T' }, ...extra }, ORIGIN);
}

function fieldsOf(extra: Record<string, unknown>): RecordFields {
  const r = parse(extra);
  if ('refusals' in r) throw new Error(`refused: ${JSON.stringify(r.refusals)}`);
  return r.fields;
}

function refusalsOf(extra: Record<string, unknown>): Array<[string, string]> {
  const r = parse(extra);
  if (!('refusals' in r)) throw new Error(`accepted: ${JSON.stringify(r.fields)}`);
  return r.refusals.map((x) => [x.field, x.reason]);
}

const person = { name: 'Curie, Marie', givenName: 'Marie', familyName: 'Curie', nameType: 'person', orcid: 'https://orcid.org/0000-0002-1825-0097' };

// Each valid case: the record's extra fields → the parsed value of one model field.
const valid: Array<{ name: string; input: Record<string, unknown>; key: keyof RecordFields; expected: unknown }> = [
  {
    name: 'typed identifiers, normalized per scheme',
    key: 'identifiers',
    input: {
      identifiers: [
        { type: 'DOI', value: 'https://doi.org/10.1000/182' },
        { type: 'ISSN', value: '03178471' },
        { type: 'Handle', value: 'hdl:1721.1/5' },
      ],
    },
    expected: [
      { type: 'DOI', value: '10.1000/182' },
      { type: 'ISSN', value: '0317-8471' },
      { type: 'Handle', value: '1721.1/5' },
    ],
  },
  {
    name: 'a person with given and family names, ORCID and a ROR affiliation',
    key: 'creators',
    input: { creators: [{ ...person, affiliations: [{ name: 'DataCite', ror: '04wxnsj81' }, { name: 'Elsewhere' }] }] },
    expected: [
      {
        name: 'Curie, Marie',
        givenName: 'Marie',
        familyName: 'Curie',
        nameType: 'person',
        orcid: '0000-0002-1825-0097',
        affiliations: [{ name: 'DataCite', ror: 'https://ror.org/04wxnsj81' }, { name: 'Elsewhere' }],
      },
    ],
  },
  {
    name: 'an organization as creator',
    key: 'creators',
    input: { creators: [{ name: 'CERN', nameType: 'organization' }] },
    expected: [{ name: 'CERN', nameType: 'organization' }],
  },
  {
    name: 'a contributor with its DataCite contributorType',
    key: 'contributors',
    input: { contributors: [{ name: 'Ed', type: 'Editor' }] },
    expected: [{ name: 'Ed', type: 'Editor' }],
  },
  {
    name: 'a COAR resource type, with DataCite general type and label derived',
    key: 'resourceType',
    input: { resourceType: { coar: 'http://purl.org/coar/resource_type/c_db06' } },
    expected: { coar: 'http://purl.org/coar/resource_type/c_db06', general: 'Dissertation', label: 'doctoral thesis' },
  },
  {
    name: 'a COAR type with a label and general type of its own',
    key: 'resourceType',
    input: { resourceType: { coar: 'http://purl.org/coar/resource_type/c_6501', general: 'Text', label: 'Article' } },
    expected: { coar: 'http://purl.org/coar/resource_type/c_6501', general: 'Text', label: 'Article' },
  },
  {
    name: 'a DataCite general type alone',
    key: 'resourceType',
    input: { resourceType: { general: 'Software' } },
    expected: { general: 'Software', label: 'Software' },
  },
  { name: 'access rights by name', key: 'accessRights', input: { accessRights: 'metadataOnly' }, expected: 'metadataOnly' },
  { name: 'access rights by COAR URI', key: 'accessRights', input: { accessRights: 'http://purl.org/coar/access_right/c_16ec' }, expected: 'restricted' },
  {
    name: 'a licence URI',
    key: 'license',
    input: { license: 'https://creativecommons.org/licenses/by/4.0/' },
    expected: 'https://creativecommons.org/licenses/by/4.0/',
  },
  { name: 'a publisher', key: 'publisher', input: { publisher: 'Wiley & Sons' }, expected: 'Wiley & Sons' },
  { name: 'a publication year as a number', key: 'publicationYear', input: { publicationYear: 2024 }, expected: '2024' },
  { name: 'a publication year as a string', key: 'publicationYear', input: { publicationYear: '1999' }, expected: '1999' },
  {
    name: 'typed dates of every granularity, a leap day included',
    key: 'dates',
    input: { dates: { issued: '2024', accepted: '2024-02-29', available: '2024-03', embargoEnd: '2025-12-31' } },
    expected: { issued: '2024', accepted: '2024-02-29', available: '2024-03', embargoEnd: '2025-12-31' },
  },
  { name: 'a language code, lower-cased', key: 'language', input: { language: 'ENG' }, expected: 'eng' },
  { name: 'a BCP 47 tag with a region', key: 'language', input: { language: 'en-US' }, expected: 'en-US' },
  { name: "DSpace's en_US, as BCP 47 spells it", key: 'language', input: { language: 'en_US' }, expected: 'en-US' },
  { name: 'a BCP 47 tag with a script and a region, in its conventional case', key: 'language', input: { language: 'zh-hant-tw' }, expected: 'zh-Hant-TW' },
  {
    name: 'a funding reference with a Crossref Funder ID and an award',
    key: 'fundingReferences',
    input: {
      fundingReferences: [
        {
          funderName: 'European Commission',
          funderIdentifier: { type: 'Crossref Funder ID', value: '10.13039/501100000780' },
          awardNumber: '660668',
          awardUri: 'https://cordis.europa.eu/project/id/660668',
          awardTitle: 'ACT',
        },
      ],
    },
    expected: [
      {
        funderName: 'European Commission',
        funderIdentifier: { type: 'Crossref Funder ID', value: 'https://doi.org/10.13039/501100000780' },
        awardNumber: '660668',
        awardUri: 'https://cordis.europa.eu/project/id/660668',
        awardTitle: 'ACT',
      },
    ],
  },
  {
    name: 'related identifiers, checked by their scheme when it is one of the record identifier schemes',
    key: 'relatedIdentifiers',
    input: {
      relatedIdentifiers: [
        { identifier: '0947-6539', type: 'ISSN', relation: 'IsPartOf' },
        { identifier: '1521-3765', type: 'EISSN', relation: 'IsPartOf' },
        { identifier: 'PMC5574022', type: 'PMID', relation: 'IsIdenticalTo', resourceTypeGeneral: 'Text' },
      ],
    },
    expected: [
      { identifier: '0947-6539', type: 'ISSN', relation: 'IsPartOf' },
      { identifier: '1521-3765', type: 'EISSN', relation: 'IsPartOf' },
      { identifier: 'PMC5574022', type: 'PMID', relation: 'IsIdenticalTo', resourceTypeGeneral: 'Text' },
    ],
  },
  {
    name: 'where the work was published, a volume and pages given as numbers kept as their digits',
    key: 'host',
    input: { host: { title: 'Chemistry – A European Journal', volume: 23, issue: '31', startPage: 7444, endPage: 'e7447' } },
    expected: { title: 'Chemistry – A European Journal', volume: '23', issue: '31', startPage: '7444', endPage: 'e7447' },
  },
  {
    name: 'files with media type, size and access',
    key: 'files',
    input: { files: [{ url: 'https://example.org/a.pdf', mediaType: 'Application/PDF', size: 0, access: 'open' }, { url: 'https://example.org/b' }] },
    expected: [{ url: 'https://example.org/a.pdf', mediaType: 'application/pdf', size: 0, access: 'open' }, { url: 'https://example.org/b' }],
  },
];

// Each invalid case: the record's extra fields → the [field path, reason pattern] refusals expected.
const invalid: Array<{ name: string; input: Record<string, unknown>; expected: Array<[string, RegExp]> }> = [
  { name: 'identifiers that are not an array', input: { identifiers: { type: 'DOI' } }, expected: [['identifiers', /must be an array/]] },
  {
    name: 'an identifier of an unknown type',
    input: { identifiers: [{ type: 'PMID', value: '1' }] },
    expected: [['identifiers[0].type', /must be one of DOI, Handle/]],
  },
  {
    name: 'a DOI that is not one',
    input: {
      identifiers: [
        { type: 'DOI', value: '10.1000/182' },
        { type: 'DOI', value: 'doi:abc' },
      ],
    },
    expected: [['identifiers[1].value', /"doi:abc": not a DOI/]],
  },
  {
    name: 'an ISBN with a wrong check digit',
    input: { identifiers: [{ type: 'ISBN', value: '978-3-16-148410-1' }] },
    expected: [['identifiers[0].value', /check digit/]],
  },
  {
    name: 'an identifier with an unknown key',
    input: { identifiers: [{ type: 'DOI', value: '10.1000/1', scheme: 'x' }] },
    expected: [['identifiers[0].scheme', /unknown field/]],
  },
  {
    name: 'an ORCID iD with a wrong check character',
    input: { creators: [{ name: 'A' }, { name: 'B', orcid: '0000-0002-1825-0098' }] },
    expected: [['creators[1].orcid', /check character does not match/]],
  },
  {
    name: 'an ORCID iD on an organization',
    input: { creators: [{ name: 'CERN', nameType: 'organization', orcid: '0000-0002-1825-0097' }] },
    expected: [['creators[0].orcid', /only a person/]],
  },
  { name: 'a creator without a name', input: { creators: [{ givenName: 'Marie' }] }, expected: [['creators[0].name', /non-empty string/]] },
  { name: 'a blank creator name', input: { creators: [{ name: '  ' }] }, expected: [['creators[0].name', /non-empty string/]] },
  { name: 'an unknown name type', input: { creators: [{ name: 'A', nameType: 'Personal' }] }, expected: [['creators[0].nameType', /person, organization/]] },
  {
    name: 'a ROR id with wrong check digits',
    input: { creators: [{ name: 'A', affiliations: [{ name: 'X', ror: 'https://ror.org/04wxnsj82' }] }] },
    expected: [['creators[0].affiliations[0].ror', /check digits/]],
  },
  {
    name: 'affiliations that are not an array',
    input: { creators: [{ name: 'A', affiliations: 'X' }] },
    expected: [['creators[0].affiliations', /must be an array/]],
  },
  {
    name: 'a contributor without a contributor type',
    input: { contributors: [{ name: 'A' }] },
    expected: [['contributors[0].type', /must be one of ContactPerson/]],
  },
  { name: 'a creator with a contributor type', input: { creators: [{ name: 'A', type: 'Editor' }] }, expected: [['creators[0].type', /unknown field/]] },
  {
    name: 'a resource type URI outside COAR',
    input: { resourceType: { coar: 'http://example.org/type/article' } },
    expected: [['resourceType.coar', /COAR resource type URI/]],
  },
  {
    name: 'a COAR type unknown to the table, without a general type',
    input: { resourceType: { coar: 'http://purl.org/coar/resource_type/c_zzzz' } },
    expected: [['resourceType.general', /required for a COAR type outside/]],
  },
  { name: 'a resource type with neither COAR nor general type', input: { resourceType: { label: 'x' } }, expected: [['resourceType', /needs a COAR type/]] },
  {
    name: 'an unknown DataCite general type',
    input: { resourceType: { general: 'Article' } },
    expected: [['resourceType.general', /must be one of Audiovisual/]],
  },
  {
    name: 'an unknown access right',
    input: { accessRights: 'closed' },
    expected: [['accessRights', /must be one of open, embargoed, restricted, metadataOnly/]],
  },
  {
    name: 'an embargo without its end date',
    input: { accessRights: 'embargoed' },
    expected: [['dates.embargoEnd', /required when accessRights is embargoed/]],
  },
  { name: 'a licence that is not a URL', input: { license: 'CC-BY-4.0' }, expected: [['license', /not an absolute URL/]] },
  { name: 'an empty publisher', input: { publisher: '' }, expected: [['publisher', /non-empty string/]] },
  { name: 'a two-digit publication year', input: { publicationYear: 24 }, expected: [['publicationYear', /four-digit year/]] },
  { name: 'a publication year with a month', input: { publicationYear: '2024-01' }, expected: [['publicationYear', /four-digit year/]] },
  { name: 'an issued date that does not exist', input: { dates: { issued: '2023-02-29' } }, expected: [['dates.issued', /ISO 8601 date/]] },
  { name: 'a month thirteen', input: { dates: { accepted: '2023-13' } }, expected: [['dates.accepted', /ISO 8601 date/]] },
  {
    name: 'an embargo end of a year only',
    input: { accessRights: 'embargoed', dates: { embargoEnd: '2025' } },
    expected: [['dates.embargoEnd', /YYYY-MM-DD/]],
  },
  { name: 'an unknown kind of date', input: { dates: { created: '2020' } }, expected: [['dates.created', /unknown field/]] },
  { name: 'a language name instead of a code', input: { language: 'English' }, expected: [['language', /BCP 47/]] },
  {
    name: 'a funding reference without a funder name',
    input: { fundingReferences: [{ awardNumber: '1' }] },
    expected: [['fundingReferences[0].funderName', /non-empty string/]],
  },
  {
    name: 'a funder identifier of an unknown type',
    input: { fundingReferences: [{ funderName: 'F', funderIdentifier: { type: 'FundRef', value: '1' } }] },
    expected: [['fundingReferences[0].funderIdentifier.type', /must be one of Crossref Funder ID/]],
  },
  {
    name: 'a ROR funder identifier with wrong check digits',
    input: { fundingReferences: [{ funderName: 'F', funderIdentifier: { type: 'ROR', value: '04wxnsj80' } }] },
    expected: [['fundingReferences[0].funderIdentifier.value', /check digits/]],
  },
  {
    name: 'an award URI that is not a URL',
    input: { fundingReferences: [{ funderName: 'F', awardUri: 'grant 12' }] },
    expected: [['fundingReferences[0].awardUri', /URL/]],
  },
  {
    name: 'a related identifier with an unknown relation',
    input: { relatedIdentifiers: [{ identifier: '10.1000/1', type: 'DOI', relation: 'isPartOf' }] },
    expected: [['relatedIdentifiers[0].relation', /must be one of IsCitedBy/]],
  },
  {
    name: 'a related DOI that is not one',
    input: { relatedIdentifiers: [{ identifier: 'x', type: 'DOI', relation: 'Cites' }] },
    expected: [['relatedIdentifiers[0].identifier', /not a DOI/]],
  },
  {
    name: 'a related EISSN with a wrong check character',
    input: { relatedIdentifiers: [{ identifier: '1521-3766', type: 'EISSN', relation: 'IsPartOf' }] },
    expected: [['relatedIdentifiers[0].identifier', /check character/]],
  },
  { name: 'a host that names nothing', input: { host: {} }, expected: [['host', /needs at least one of title, volume, issue, startPage, endPage/]] },
  { name: 'a host that is a string', input: { host: 'Chemistry 23(31)' }, expected: [['host', /must be an object/]] },
  {
    name: 'a host with an ISSN, which is a related identifier',
    input: { host: { title: 'C', issn: '0947-6539' } },
    expected: [['host.issn', /unknown field/]],
  },
  {
    name: 'a host with a blank title and a fractional volume',
    input: { host: { title: ' ', volume: 2.5 } },
    expected: [
      ['host.title', /non-empty string/],
      ['host.volume', /non-empty string/],
    ],
  },
  { name: 'a title number in a host', input: { host: { title: 7 } }, expected: [['host.title', /non-empty string/]] },
  { name: 'a control character in a host issue', input: { host: { issue: '3\u0000' } }, expected: [['host.issue', /XML 1.0 cannot carry/]] },
  { name: 'a file without a URL', input: { files: [{ mediaType: 'application/pdf' }] }, expected: [['files[0].url', /non-empty string/]] },
  { name: 'a file with a javascript: URL', input: { files: [{ url: 'javascript:alert(1)' }] }, expected: [['files[0].url', /not an http or https URL/]] },
  { name: 'a file with a negative size', input: { files: [{ url: 'https://x.org/a', size: -1 }] }, expected: [['files[0].size', /whole number of bytes/]] },
  { name: 'a file with a fractional size', input: { files: [{ url: 'https://x.org/a', size: 1.5 }] }, expected: [['files[0].size', /whole number of bytes/]] },
  {
    name: 'a file with a media type that is not one',
    input: { files: [{ url: 'https://x.org/a', mediaType: 'PDF' }] },
    expected: [['files[0].mediaType', /media type/]],
  },
  {
    name: 'a file with an unknown access right',
    input: { files: [{ url: 'https://x.org/a', access: 'public' }] },
    expected: [['files[0].access', /must be one of open/]],
  },
  {
    name: 'a control character in a creator name',
    input: { creators: [{ name: 'A\u0007B' }] },
    expected: [['creators[0].name', /XML 1.0 cannot carry \(U\+0007 at offset 1\)/]],
  },
  { name: 'a lone surrogate in a publisher', input: { publisher: 'x\uD800' }, expected: [['publisher', /XML 1.0 cannot carry \(U\+D800/]] },
  {
    name: 'U+FFFE in an award title',
    input: { fundingReferences: [{ funderName: 'F', awardTitle: '\uFFFE' }] },
    expected: [['fundingReferences[0].awardTitle', /XML 1.0 cannot carry/]],
  },
];

describe('the typed record parser', () => {
  for (const c of valid) {
    it(`reads ${c.name}`, () => {
      expect(fieldsOf(c.input)[c.key]).to.deep.equal(c.expected);
    });
  }

  for (const c of invalid) {
    it(`refuses ${c.name}, naming the field path`, () => {
      const got = refusalsOf(c.input);
      expect(got.map(([f]) => f)).to.deep.equal(c.expected.map(([f]) => f));
      got.forEach(([, reason], i) => expect(reason).to.match((c.expected[i] as [string, RegExp])[1]));
    });
  }

  it('reports every refusal of a record at once, with the record id and source', () => {
    const r = parse({ publisher: '', language: 'x', files: [{ url: 'no' }] });
    expect(r)
      .to.have.property('refusals')
      .that.deep.equals([
        { internalId: 'r1', source: 'records.ndjson:3', field: 'publisher', reason: 'must be a non-empty string' },
        { internalId: 'r1', source: 'records.ndjson:3', field: 'language', reason: 'must be a BCP 47 language tag (RFC 5646), e.g. en, en-US or eng' },
        { internalId: 'r1', source: 'records.ndjson:3', field: 'files[0].url', reason: '"no": not an absolute URL' },
      ]);
  });

  it("keeps markup, quotes and ampersands in text as given (escaping is the crosswalks' job)", () => {
    const f = fieldsOf({ publisher: '<b>"A" & B</b>', creators: [{ name: "O'Brien <x/>" }] });
    expect([f.publisher, f.creators?.[0]?.name]).to.deep.equal(['<b>"A" & B</b>', "O'Brien <x/>"]);
  });

  it('leaves out every structured field a record does not give', () => {
    expect(fieldsOf({})).to.deep.equal({ dc: { title: ['T'] } });
  });

  it('ignores the keys the record reader owns and names the structured keys it reads', () => {
    expect(fieldsOf({ datestamp: 'x', sets: 1, deleted: 'no', metadata: 7 })).to.deep.equal({ dc: { title: ['T'] } });
    expect([...RECORD_FIELD_KEYS]).to.include.members(['identifiers', 'creators', 'files', 'fundingReferences']);
  });

  describe('plain dc records, as the record reader reads them today', () => {
    const dcCases: Array<{ name: string; dc: unknown }> = [
      { name: 'strings and arrays of strings', dc: { title: 'A', creator: ['B', 'C'], identifier: [] } },
      { name: 'an empty string', dc: { description: '' } },
      { name: 'an element outside Dublin Core', dc: { title: 'A', author: 'B' } },
      { name: 'a number instead of a string', dc: { date: 2020 } },
      { name: 'a control character', dc: { title: ['ok', 'bad\u0001'] } },
      { name: 'dc that is not an object', dc: ['title'] },
    ];
    const formats = createFormatRegistry();
    for (const c of dcCases) {
      it(`parses ${c.name} with the same values and refusals as the record reader`, () => {
        const mine = parseRecordFields({ id: 'r1', dc: c.dc }, ORIGIN);
        const theirs = jsonToItem({ id: 'r1', dc: c.dc }, formats, ORIGIN.source);
        if ('refusals' in theirs) {
          expect(mine).to.have.property('refusals').that.deep.equals(theirs.refusals);
        } else {
          expect(mine).to.have.property('fields');
          // The record reader hands the store the same model.
          expect(theirs.item.fields).to.deep.equal((mine as { fields: RecordFields }).fields);
        }
      });
    }
  });
});
