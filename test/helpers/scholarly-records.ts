/**
 * Three records as the model holds them, for the tests of what record pages
 * tell search engines: a journal article whose first author has an ORCID iD,
 * a dataset, and a Dublin Core thesis without a DOI.
 */
import type { RecordFields } from '../../lib/model/record';

/** A journal article as a DataCite or OpenAIRE record gives it: typed creators (one with an ORCID iD), DOI, PDF, ISSN. */
export const ARTICLE: RecordFields = {
  dc: {
    title: ['On the parity of primes', 'Über die Parität'],
    subject: ['Number theory', 'Primes'],
    description: ['We show it.'],
    rights: ['https://creativecommons.org/licenses/by/4.0/'],
  },
  creators: [
    {
      name: 'Curie, Marie',
      givenName: 'Marie',
      familyName: 'Curie',
      nameType: 'person',
      orcid: '0000-0002-1825-0097',
      affiliations: [{ name: 'University of Gothenburg', ror: 'https://ror.org/01tm6cn81' }],
    },
    { name: 'CERN', nameType: 'organization' },
    { name: 'Doe, Jane' },
  ],
  identifiers: [
    { type: 'DOI', value: '10.5555/parity.1' },
    { type: 'URL', value: 'https://repo.example.org/items/a-1' },
  ],
  resourceType: { coar: 'http://purl.org/coar/resource_type/c_6501', general: 'JournalArticle', label: 'journal article' },
  accessRights: 'open',
  publisher: 'Example University Press',
  dates: { issued: '2021-03-04', available: '2021-02' },
  language: 'en',
  relatedIdentifiers: [{ identifier: '0317-8471', type: 'ISSN', relation: 'IsPublishedIn' }],
  files: [
    { url: 'https://repo.example.org/files/a-1/data.csv', mediaType: 'text/csv' },
    { url: 'https://repo.example.org/files/a-1/paper.pdf', mediaType: 'application/pdf' },
  ],
};

/** A dataset from DataCite: open, with a CSV file and a DOI. */
export const DATASET: RecordFields = {
  dc: { title: ['Measurements of X'] },
  creators: [{ name: 'Okafor, Chinedu', nameType: 'person' }],
  identifiers: [{ type: 'DOI', value: '10.5555/x.data' }],
  resourceType: { general: 'Dataset', label: 'Dataset' },
  accessRights: 'open',
  license: 'https://creativecommons.org/publicdomain/zero/1.0/',
  publicationYear: '2019',
  files: [{ url: 'https://repo.example.org/files/d-1/x.csv', mediaType: 'text/csv' }],
};

/** A Dublin Core record with no DOI: a Handle, a free-text creator, a thesis by its dc:type, restricted. */
export const NO_DOI: RecordFields = {
  dc: {
    title: ['A thesis'],
    creator: ['Nguyễn, Thị Minh', 'Research Group X'],
    type: ['info:eu-repo/semantics/doctoralThesis'],
    identifier: ['http://hdl.handle.net/1765/315', 'local-7'],
    date: ['2003-04-15T10:18:51Z'],
    publisher: ['Erasmus University'],
    language: ['nl'],
    rights: ['info:eu-repo/semantics/restrictedAccess'],
  },
  files: [{ url: 'https://repo.example.org/files/t-1/thesis.pdf', mediaType: 'application/pdf' }],
};
