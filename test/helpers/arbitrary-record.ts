/**
 * Random records of the NDJSON record format, of every shape the model
 * allows, and random crosswalk contexts: the input of the property tests of
 * the crosswalks and of the readers beside them.
 */
import fc from 'fast-check';
import type { CrosswalkContext } from '../../lib/formats/format';
import {
  DATACITE_CONTRIBUTOR_TYPES,
  DATACITE_RELATION_TYPES,
  DATACITE_RESOURCE_TYPES,
  COAR_TYPES,
  FUNDER_IDENTIFIER_TYPES,
} from '../../lib/model/vocabularies';
import { findNonXmlChar } from '../../lib/model/text';

// Text of any shape XML can carry, hostile pieces included; sometimes blank, which the crosswalks must skip.
const text = fc
  .oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }), fc.constantFrom('<b>x</b>', '&amp;', '"\'', ']]>', 'a\r\nb', '  ', '', 'Ελληνικά 📚'))
  .filter((s) => findNonXmlChar(s) === null);
const name = text.filter((s) => s.trim() !== '');
const maybe = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(a, { nil: undefined });
const list = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T[]> => fc.array(a, { maxLength: 3 });

const identifier = fc.constantFrom(
  { type: 'DOI', value: '10.1234/abc' },
  { type: 'DOI', value: 'https://doi.org/10.5281/zenodo.1' },
  { type: 'DOI', value: '10.1000/x<y>&"z"' },
  { type: 'Handle', value: '20.500.1/x' },
  { type: 'URN', value: 'urn:nbn:de:1-2' },
  { type: 'ARK', value: 'ark:/13030/tf5p30086k' },
  { type: 'URL', value: 'https://example.org/a?b=1&c=2' },
  { type: 'ISBN', value: '978-3-16-148410-0' },
  { type: 'ISSN', value: '0317-8471' },
);
const agent = fc.record(
  {
    name,
    givenName: maybe(name),
    familyName: maybe(name),
    nameType: maybe(fc.constant('person')),
    orcid: maybe(fc.constantFrom('0000-0002-1825-0097', '0000-0001-5727-2427')),
    affiliations: maybe(list(fc.record({ name, ror: maybe(fc.constantFrom('04wxnsj81', '01tm6cn81')) }, { requiredKeys: ['name'] }))),
  },
  { requiredKeys: ['name'] },
);
const organization = fc.record({ name, nameType: fc.constant('organization') });
const contributor = fc.tuple(fc.oneof(agent, organization), fc.constantFrom(...DATACITE_CONTRIBUTOR_TYPES)).map(([a, type]) => ({ ...a, type }));
const resourceType = fc.oneof(
  fc.record({ coar: fc.constantFrom(...COAR_TYPES.keys()), label: maybe(name) }, { requiredKeys: ['coar'] }),
  fc.record({ general: fc.constantFrom(...DATACITE_RESOURCE_TYPES), label: maybe(name) }, { requiredKeys: ['general'] }),
  fc.record({ coar: fc.constant('http://purl.org/coar/resource_type/c_zz99'), general: fc.constantFrom(...DATACITE_RESOURCE_TYPES) }),
);
const access = fc.constantFrom('open', 'embargoed', 'restricted', 'metadataOnly');
const date = fc.constantFrom('2020', '2021-06', '2024-02-29');
const related = fc.oneof(
  fc.record(
    {
      identifier: fc.constant('10.1000/182'),
      type: fc.constant('DOI'),
      relation: fc.constantFrom(...DATACITE_RELATION_TYPES),
      resourceTypeGeneral: maybe(fc.constantFrom(...DATACITE_RESOURCE_TYPES)),
    },
    { requiredKeys: ['identifier', 'type', 'relation'] },
  ),
  fc.record({ identifier: name, type: fc.constantFrom('arXiv', 'PMID', 'SWHID', 'w3id'), relation: fc.constantFrom(...DATACITE_RELATION_TYPES) }),
  fc.record({ identifier: fc.constant('1521-3765'), type: fc.constant('EISSN'), relation: fc.constant('IsPartOf') }),
);
const file = fc.record(
  {
    url: fc.constantFrom('https://example.org/f.pdf', 'http://example.org/a%20b?x=1&y="2"'),
    mediaType: maybe(fc.constantFrom('application/pdf', 'text/csv')),
    size: maybe(fc.nat()),
    access: maybe(access),
  },
  { requiredKeys: ['url'] },
);
// A volume, issue or page as journals write them, as a number, or any text (commas, dashes and markup included).
const hostPart = fc.oneof(
  fc.constantFrom('23', '4A', 'Suppl. 2', 'e1234', 'xii', '12-13', '5, suppl.', '(3)', ' 7 ', 'S1–S9'),
  fc.integer({ min: 0, max: 9999 }),
  name,
);
const host = fc
  .record({ title: name, volume: hostPart, issue: hostPart, startPage: hostPart, endPage: hostPart }, { requiredKeys: [] })
  .filter((h) => Object.keys(h).length > 0);
const dcElement = fc.oneof(text, list(text));
/** A record of the NDJSON format (its JSON, before parsing). */
export const record = fc.record(
  {
    id: fc.constant('p'),
    dc: fc.record(
      {
        title: dcElement,
        creator: dcElement,
        subject: dcElement,
        description: dcElement,
        publisher: dcElement,
        contributor: dcElement,
        date: dcElement,
        type: dcElement,
        format: dcElement,
        identifier: dcElement,
        source: dcElement,
        language: dcElement,
        relation: dcElement,
        coverage: dcElement,
        rights: dcElement,
      },
      { requiredKeys: ['title'] },
    ),
    identifiers: list(identifier),
    creators: list(fc.oneof(agent, organization)),
    contributors: list(contributor),
    resourceType,
    accessRights: access,
    license: fc.constantFrom('https://creativecommons.org/licenses/by/4.0/', 'http://example.org/licence?a=1&b=2'),
    publisher: name,
    publicationYear: fc.integer({ min: 1000, max: 9999 }),
    dates: fc.record({ issued: date, accepted: date, available: date, embargoEnd: fc.constant('2030-01-01') }, { requiredKeys: [] }),
    language: fc.constantFrom('en', 'eng', 'de', 'en-US', 'en_US', 'zh-Hant-TW', 'sr-Latn', 'es-419', 'x-klingon'),
    fundingReferences: list(
      fc.record(
        {
          funderName: name,
          funderIdentifier: maybe(
            fc.tuple(fc.constantFrom(...FUNDER_IDENTIFIER_TYPES), name).map(([type, v]) => ({
              type,
              value: { 'Crossref Funder ID': '501100000780', ROR: '04wxnsj81', ISNI: '000000012281955X', GRID: 'grid.5335.0', Other: v }[type],
            })),
          ),
          awardNumber: maybe(name),
          awardUri: maybe(fc.constant('https://cordis.europa.eu/project/id/1')),
          awardTitle: maybe(name),
        },
        { requiredKeys: ['funderName'] },
      ),
    ),
    relatedIdentifiers: list(related),
    host,
    files: list(file),
    // Present more often than not, so that the formats with the most mandatory content are reached too.
  },
  { requiredKeys: ['id', 'dc', 'identifiers', 'creators', 'resourceType', 'accessRights', 'publisher', 'dates'] },
);

/** The item a record is crosswalked for: its oai-identifier, maybe a POI, the format options. */
export const CTX: fc.Arbitrary<CrosswalkContext> = fc
  .record(
    {
      oaiIdentifier: fc.constantFrom('oai:example.org:p', 'oai:example.org:a%2Fb&c'),
      poi: maybe(fc.constant('http://purl.org/poi/example.org/p')),
      options: fc.oneof(
        {
          weight: 4,
          arbitrary: fc.record({
            datacentreSymbol: fc.constantFrom('X.Y', 'A&B <c>'),
            dataProvider: fc.constantFrom('Example Museum', 'A&B <c> Archive'),
            provider: fc.constantFrom('Example Aggregator', 'Europeana "Test"'),
          }),
        },
        { weight: 1, arbitrary: fc.constant({}) },
      ),
    },
    { requiredKeys: ['oaiIdentifier', 'options'] },
  )
  .map((c) => ({ ...c }) as CrosswalkContext);
