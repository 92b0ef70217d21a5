/**
 * The probes' parts of related identifiers and related items (DataCite
 * relatedIdentifier and relatedItem): the values a probe gives and how each
 * part is read back (./fidelity-parts.ts has the other fields').
 */
import type { RecordFields, RelatedIdentifier, RelatedItem, RelatedItemAgent } from '../model/record';
import { trim } from './fidelity-parts';

// A DOI every format has a place for, and an identifier of a scheme only some have.
const PROBE_RELATED: readonly RelatedIdentifier[] = [
  { identifier: '10.5555/cited', type: 'DOI', relation: 'Cites', resourceTypeGeneral: 'Dataset' },
  { identifier: 'arXiv:0706.0001', type: 'arXiv', relation: 'IsSupplementTo', resourceTypeGeneral: 'Text' },
  // Of DataCite 4.5 and later: unknown to OpenAIRE v4's DataCite 4.1 lists.
  { identifier: 'swh:1:dir:d198bc9d7a6bcf6db04f476d29314f157507d505', type: 'SWHID', relation: 'HasTranslation', resourceTypeGeneral: 'Presentation' },
];

const withId = (x: RelatedIdentifier, v: string | undefined): string | undefined => (v === undefined ? undefined : `${trim(x.identifier)} ${v}`);

export const RELATED_PARTS: { readonly [K in keyof RelatedIdentifier]-?: (x: RelatedIdentifier) => string | undefined } = {
  identifier: (x) => x.identifier,
  type: (x) => withId(x, x.type),
  relation: (x) => withId(x, x.relation),
  resourceTypeGeneral: (x) => withId(x, x.resourceTypeGeneral),
  relatedMetadataScheme: (x) => withId(x, x.relatedMetadataScheme),
  schemeUri: (x) => withId(x, x.schemeUri),
  schemeType: (x) => withId(x, x.schemeType),
  relationTypeInformation: (x) => withId(x, x.relationTypeInformation),
  inRelatedItem: (x) => withId(x, x.inRelatedItem === true ? 'in its related item' : undefined),
};

// DataCite's attributes of a related identifier beyond its type (4.7 property 12.3-12.6, 12.8): a metadata record
// of the resource with its scheme, and a relation said more exactly. The identifiers of PROBE_RELATED keep their rows' values.
const PROBE_RELATED_DETAIL: readonly RelatedIdentifier[] = [
  { identifier: '10.5555/cited', type: 'DOI', relation: 'Cites', resourceTypeGeneral: 'Dataset', relationTypeInformation: 'Figure 2 plots these data' },
  {
    identifier: 'https://repository.example.org/item/1/ddi.xml',
    type: 'URL',
    relation: 'HasMetadata',
    relatedMetadataScheme: 'DDI-L',
    schemeUri: 'http://www.ddialliance.org/Specification/DDI-Lifecycle/3.1/XMLSchema/instance.xsd',
    schemeType: 'XSD',
  },
];

// A related item (DataCite 4.4+ property 20): a book the work is a chapter of, with every property DataCite gives it.
export const PROBE_ITEM: Required<RelatedItem> = {
  itemType: 'Book',
  relation: 'IsPublishedIn',
  relationTypeInformation: 'Chapter 3',
  identifier: { value: '9780306406157', type: 'ISBN' },
  creators: [{ name: 'Sklodowska, Bronislawa', nameType: 'person', givenName: 'Bronislawa', familyName: 'Sklodowska' }],
  titles: [{ value: 'A Book of Probes' }, { value: 'Methods and Cases', type: 'Subtitle', lang: 'en' }],
  publicationYear: '2019',
  volume: '2',
  issue: '1',
  number: { value: '3', type: 'Chapter' },
  firstPage: '33',
  lastPage: '47',
  publisher: 'Probe University Press',
  edition: '2nd',
  contributors: [{ name: 'Probe, Translator', nameType: 'person', type: 'Translator' }],
};

const itemAgents = (as: readonly RelatedItemAgent[] | undefined): string | undefined =>
  as?.map((a) => [a.name, a.nameType, a.givenName, a.familyName, a.lang, a.type].map((v) => v ?? '').join(' ')).join('; ');

export const ITEM_PARTS: { readonly [K in keyof RelatedItem]-?: (i: RelatedItem) => string | undefined } = {
  itemType: (i) => i.itemType,
  relation: (i) => i.relation,
  relationTypeInformation: (i) => i.relationTypeInformation,
  identifier: (i) => (i.identifier === undefined ? undefined : `${trim(i.identifier.value)} ${i.identifier.type ?? ''}`),
  creators: (i) => itemAgents(i.creators),
  titles: (i) => i.titles?.map((t) => `${trim(t.value)} ${t.type ?? ''} ${t.lang ?? ''}`).join('; '),
  publicationYear: (i) => i.publicationYear,
  volume: (i) => i.volume,
  issue: (i) => i.issue,
  number: (i) => (i.number === undefined ? undefined : `${i.number.value} ${i.number.type ?? ''}`),
  firstPage: (i) => i.firstPage,
  lastPage: (i) => i.lastPage,
  publisher: (i) => i.publisher,
  edition: (i) => i.edition,
  contributors: (i) => itemAgents(i.contributors),
};

// The related item's identifier, as a reader of DataCite gives it beside the item (record.ts `inRelatedItem`).
const PROBE_ITEM_ID: RelatedIdentifier = {
  identifier: '9780306406157',
  type: 'ISBN',
  relation: 'IsPublishedIn',
  resourceTypeGeneral: 'Book',
  inRelatedItem: true,
};

// Related identifiers as DataCite's own examples give them, whose values their schemes' checks refuse: a Handle
// without its prefix (datacite-example-instrument-v4.xml), an ISSN whose check digit is wrong (datacite-example-relateditem1-v4.xml).
export const PROBE_UNCHECKED: readonly RelatedIdentifier[] = [
  { identifier: '1234.1675', type: 'Handle', relation: 'IsPartOf', resourceTypeGeneral: 'Instrument' },
  { identifier: '1234-5678', type: 'ISSN', relation: 'IsPublishedIn', relationTypeInformation: 'Volume 2' },
  // A metadata record named by a relative path, which a URL's check refuses.
  {
    identifier: 'metadata/ddi.xml',
    type: 'URL',
    relation: 'HasMetadata',
    relatedMetadataScheme: 'DDI-L',
    schemeUri: 'http://www.ddialliance.org/Specification/DDI-Lifecycle/3.1/XMLSchema/instance.xsd',
    schemeType: 'XSD',
  },
];
const { inRelatedItem: _inItem, ...uncheckedParts } = RELATED_PARTS;

export const UNCHECKED_PARTS = uncheckedParts;

/** The related identifiers a probe of a part gives: the shared three, those with DataCite's attributes, or a related item's. */
export const relatedFor = (k: keyof RelatedIdentifier): Pick<RecordFields, 'relatedIdentifiers' | 'relatedItems'> =>
  k === 'inRelatedItem'
    ? { relatedIdentifiers: [PROBE_ITEM_ID], relatedItems: [PROBE_ITEM] }
    : ['relatedMetadataScheme', 'schemeUri', 'schemeType', 'relationTypeInformation'].includes(k)
      ? { relatedIdentifiers: PROBE_RELATED_DETAIL }
      : { relatedIdentifiers: PROBE_RELATED };
