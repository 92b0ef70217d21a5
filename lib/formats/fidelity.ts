/**
 * The fidelity matrix: for every reader → writer pair of the built-in
 * formats, which fields of the record model travel. Computed by probing the
 * code, never written by hand, so it cannot drift from the crosswalks:
 * for each field, a probe record (a base record every format offers, with
 * that field set to values of its own) is written in format A and read back
 * by A's reader, as a record given in A is read; that model is written in
 * format B and read back by B's reader, which is what B's output says. The
 * field travels when every value the probe gave it is found there again.
 *
 * The probes are typed against the model (`FIELD_PROBES` has an entry for
 * every key of `RecordFields`, and the parts of agents, dates, hosts,
 * files, funding references and related identifiers are each listed by
 * their keys), so a field added to the model does not compile until it has
 * a probe. docs/metadata-formats.md holds the tables `matrixMarkdown` writes
 * (`npm run docs:matrix`); test/docs/fidelity-matrix.test.ts fails when they
 * are stale, and test/formats/fidelity.property.test.ts holds every cell
 * marked as travelling on random records.
 *
 * Pure: no I/O, no clock.
 */
import type { DcElement } from '../model/dublin-core';
import { DC_ELEMENTS } from '../model/dublin-core';
import { dublinCore } from '../model/facts';
import { classifyIdentifier, type IdentifierType } from '../model/identifiers';
import { normalizeLanguageTag } from '../model/language';
import { COAR_OF_DATACITE_GENERAL, COAR_RESOURCE_TYPE_PREFIX, COAR_TYPES } from '../model/vocabularies';
import type {
  Agent,
  AlternateIdentifier,
  DescriptionEntry,
  FundingReference,
  GeoLocation,
  Host,
  PublisherIdentifier,
  RecordDates,
  RecordFields,
  RecordFile,
  RelatedIdentifier,
  RelatedItem,
  RelatedItemAgent,
  ResourceType,
  RightsEntry,
  SubjectEntry,
  TitleEntry,
  TypedDate,
} from '../model/record';
import { parseFragment } from '../xml/tree';
import type { CrosswalkContext, MetadataFormat } from './format';
import { isNotOffered } from './format';

/** One row of the matrix: a field of the model, how a probe sets it, and the values it holds in a record. */
export interface FieldProbe {
  /** The field's path in the model, e.g. `creators.orcid`. */
  readonly field: string;
  /** The record a probe starts from, with this field set. */
  readonly probe: (base: RecordFields) => RecordFields;
  /**
   * The field's values in a record, each as one comparable string. For a
   * Dublin Core element these are read from the record's whole Dublin Core
   * (facts.ts `dublinCore`: a reader may type a value it reads, a
   * dc:language code becomes the `language`, and it is still the element's).
   */
  readonly values: (r: RecordFields) => readonly string[];
  /** The fields of the model the probe leaves out, for this field to speak alone (a Dublin Core element beside its typed counterpart). */
  readonly without?: readonly (keyof RecordFields)[];
  /** The records the row speaks of: those without the `without` fields, and as `when` says (`when` names it in the table). */
  readonly when?: { readonly says: string; readonly holds: (r: RecordFields) => boolean };
}

/**
 * Whether a row speaks of a record: it has none of the fields the probe
 * leaves out, and is in the situation the probe is (a resource type with a
 * COAR concept, or without).
 */
export function applies(p: FieldProbe, r: RecordFields): boolean {
  return (p.without ?? []).every((k) => r[k] === undefined) && (p.when === undefined || p.when.holds(r));
}

/** How a field fared from one format to another. */
export type Fidelity = 'all' | 'some' | 'none' | 'not offered';

/** The matrix: the formats in registry order, and per field the model → format round trip and each reader → writer pair. */
export interface FidelityMatrix {
  readonly formats: readonly string[];
  readonly rows: readonly {
    readonly field: string;
    readonly without?: readonly string[];
    readonly when?: string;
    /** format → how the field fares written in it and read back. */
    readonly carried: Readonly<Record<string, Fidelity>>;
    /** reader format → writer format → how the field fares. */
    readonly pairs: Readonly<Record<string, Readonly<Record<string, Fidelity>>>>;
  }[];
}

/** The context the probes are written for: no POI, an oai-identifier of their own, the institutions EDM names. */
export const PROBE_CONTEXT: CrosswalkContext = {
  oaiIdentifier: 'oai:probe.example.org:1',
  options: { datacentreSymbol: 'PROBE.X', dataProvider: 'Probe Library', provider: 'Probe Aggregator' },
};

/**
 * What every built-in format needs to offer a record: DataCite's six mandatory properties, OpenAIRE's type, access
 * and identifier, EDM's rights statement Europeana accepts and the language of a text (edm.ts `edmRecordLacks`),
 * and RIOXX's landing page.
 */
export const PROBE_BASE: RecordFields = {
  dc: { title: ['Base title'] },
  identifiers: [
    { type: 'DOI', value: '10.5555/base' },
    { type: 'URL', value: 'https://probe.example.org/items/base' },
  ],
  creators: [{ name: 'Base, Creator', nameType: 'person' }],
  publisher: 'Base Publisher',
  publicationYear: '1999',
  resourceType: { coar: 'http://purl.org/coar/resource_type/c_6501', general: 'JournalArticle', label: 'journal article' },
  accessRights: 'open',
  license: 'https://creativecommons.org/licenses/by/4.0/',
  language: 'en',
};

const trim = (v: string): string => v.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
// Blank as the model's facts say it (lib/model/facts.ts: any white space, U+00A0 and U+3000 included), which no
// format carries: a value of such spaces alone is said by no record.
const present = (vs: readonly (string | undefined)[]): string[] => vs.filter((v): v is string => v !== undefined && v.trim() !== '').map(trim);
const without = (r: RecordFields, keys: readonly (keyof RecordFields)[]): RecordFields => {
  const out: Record<string, unknown> = { ...r };
  for (const k of keys) delete out[k];
  return out as unknown as RecordFields;
};

/** A Dublin Core element's values as compared: identifiers by what they identify, language tags in BCP 47's case. */
function dcAtom(element: DcElement, v: string): string {
  if (element === 'identifier') {
    const c = classifyIdentifier(v);
    return c === null ? v : `${c.type} ${c.value}`;
  }
  if (element === 'language') return normalizeLanguageTag(v) ?? v;
  return v;
}

/** The values each Dublin Core element is probed with, and the typed counterpart a probe of it leaves out. */
const DC_PROBES: { readonly [E in DcElement]: { readonly values: readonly string[]; readonly without?: readonly (keyof RecordFields)[] } } = {
  title: { values: ['Probe title', 'Probe subtitle'] },
  creator: { values: ['Probe, Creator', 'Probe Institute'], without: ['creators'] },
  subject: { values: ['probe subject', 'second subject'] },
  description: { values: ['Probe abstract.', 'Probe note.'] },
  publisher: { values: ['Probe Press', 'Second Press'], without: ['publisher'] },
  contributor: { values: ['Probe, Contributor', 'Second, Contributor'], without: ['contributors'] },
  date: { values: ['2005-08-08', '1889-04'], without: ['publicationYear', 'dates'] },
  type: { values: ['Probe type', 'Second type'] },
  format: { values: ['application/pdf', '12 pages'], without: ['files'] },
  identifier: { values: ['http://hdl.handle.net/1765/315', 'probe-local-7'] },
  source: { values: ['Probe Source', 'Second source'] },
  language: { values: ['lat', 'ang', 'en-GB'], without: ['language'] },
  relation: { values: ['Probe relation'] },
  coverage: { values: ['Probe coverage'] },
  rights: { values: ['Probe rights statement'], without: ['license'] },
};

const dcProbes: FieldProbe[] = DC_ELEMENTS.map((element) => {
  const p = DC_PROBES[element];
  return {
    field: `dc.${element}`,
    probe: (base) => {
      const b = without(base, p.without ?? []);
      return { ...b, dc: { ...b.dc, [element]: p.values } };
    },
    values: (r) => present(dublinCore(r)[element] ?? []).map((v) => dcAtom(element, v)),
    ...(p.without !== undefined && { without: p.without }),
  };
});

/** A probe of one typed field: `set` gives the record, `values` reads the field. */
const typed = (field: string, set: (base: RecordFields) => RecordFields, values: (r: RecordFields) => readonly (string | undefined)[]): FieldProbe => ({
  field,
  probe: set,
  values: (r) => present(values(r)),
});

const SAMPLE_IDS: { readonly [T in IdentifierType]: string } = {
  DOI: '10.5555/probe',
  Handle: '1765/315',
  URN: 'urn:nbn:de:1111-2004033116',
  ARK: 'ark:/13030/tf5p30086k',
  URL: 'https://repository.example.org/item/1',
  ISBN: '9780306406157',
  ISSN: '0317-8471',
};

const PROBE_AGENT: Required<Agent> = {
  name: 'Curie, Marie',
  givenName: 'Marie',
  familyName: 'Curie',
  nameType: 'person',
  orcid: '0000-0002-1825-0097',
  affiliations: [{ name: 'Probe University', ror: 'https://ror.org/04wxnsj81' }],
  // A scheme beside the checked ORCID iD (DataCite 4.7 property 2.4); the ORCID iD as every writer writes it is `orcid`'s.
  nameIdentifiers: [{ value: 'Q7186', scheme: 'Wikidata', schemeUri: 'https://www.wikidata.org/wiki/' }],
  lang: 'fr',
};

/** An organisation with a ROR name identifier, beside the person, for the name identifiers' row. */
const PROBE_ORGANIZATION: Agent = {
  name: 'Probe Research Institute',
  nameType: 'organization',
  nameIdentifiers: [{ value: 'https://ror.org/04z8jg394', scheme: 'ROR', schemeUri: 'https://ror.org' }],
};

/** The parts of an agent, each a row: a probe agent with that part, and how to read it. */
const AGENT_PARTS: { readonly [K in keyof Agent]-?: (a: Agent) => readonly (string | undefined)[] } = {
  name: (a) => [a.name],
  givenName: (a) => [a.givenName],
  familyName: (a) => [a.familyName],
  nameType: (a) => [a.nameType],
  orcid: (a) => [a.orcid],
  affiliations: (a) => (a.affiliations ?? []).flatMap((af) => [af.name, af.ror]),
  nameIdentifiers: (a) => (a.nameIdentifiers ?? []).map((i) => `${trim(a.name)} ${i.scheme} ${trim(i.value)} ${i.schemeUri ?? ''}`),
  lang: (a) => [a.lang === undefined ? undefined : `${trim(a.name)} ${a.lang}`],
};

const agentProbes = (key: 'creators' | 'contributors'): FieldProbe[] =>
  (Object.keys(AGENT_PARTS) as (keyof Agent)[]).map((part) =>
    typed(
      `${key}.${part}`,
      (base) => ({
        ...base,
        [key]: [PROBE_AGENT, ...(part === 'nameIdentifiers' ? [PROBE_ORGANIZATION] : [])].map((a) => ({
          ...a,
          ...(key === 'contributors' && { type: 'Editor' }),
        })),
      }),
      (r) => (r[key] ?? []).flatMap((a) => AGENT_PARTS[part](a)),
    ),
  );

const RESOURCE_TYPE_PARTS: { readonly [K in keyof ResourceType]-?: FieldProbe } = {
  coar: {
    ...typed(
      'resourceType.coar',
      (base) => ({ ...base, resourceType: { coar: 'http://purl.org/coar/resource_type/c_db06', general: 'Dissertation', label: 'doctoral thesis' } }),
      (r) => [r.resourceType?.coar],
    ),
    when: { says: 'of the OpenAIRE v4 list', holds: (r) => r.resourceType?.coar === undefined || COAR_TYPES.has(r.resourceType.coar) },
  },
  general: {
    ...typed(
      'resourceType.general',
      (base) => ({ ...base, resourceType: { general: 'Dissertation', label: 'Dissertation' } }),
      (r) => [r.resourceType?.general],
    ),
    when: { says: 'whose COAR type maps to it', holds: (r) => r.resourceType === undefined || generalOfCoar(r.resourceType) },
  },
  label: {
    ...typed(
      'resourceType.label',
      (base) => ({ ...base, resourceType: { coar: 'http://purl.org/coar/resource_type/c_6501', general: 'JournalArticle', label: 'Research article' } }),
      (r) => [r.resourceType?.label],
    ),
    when: { says: 'with a COAR type of the list', holds: (r) => r.resourceType?.coar !== undefined && COAR_TYPES.has(r.resourceType.coar) },
  },
};

/**
 * Whether the COAR type of a resource type (given, or the one COAR_OF_DATACITE_GENERAL derives) maps back to its
 * DataCite general type: OpenAIRE v4 writes only the COAR type, so a general type COAR has no concept of
 * (Service, Award … are COAR's "other") or one beside a COAR type of another mapping is not said there.
 */
function generalOfCoar(t: ResourceType): boolean {
  return COAR_TYPES.get(t.coar ?? COAR_RESOURCE_TYPE_PREFIX + COAR_OF_DATACITE_GENERAL[t.general])?.datacite === t.general;
}

/** A general type its COAR type does not map back to: a row of its own, for only the formats that write it carry it. */
const generalWithoutCoar: FieldProbe = {
  ...typed(
    'resourceType.general',
    (base) => ({ ...base, resourceType: { general: 'Service', label: 'Service' } }),
    (r) => [r.resourceType?.general],
  ),
  when: { says: 'whose COAR type maps to another', holds: (r) => r.resourceType !== undefined && !generalOfCoar(r.resourceType) },
};

/** The label of a resource type with no COAR concept: a row of its own, for what carries it differs. */
const labelWithoutCoar: FieldProbe = {
  ...typed(
    'resourceType.label',
    (base) => ({ ...base, resourceType: { general: 'Text', label: 'XML' } }),
    (r) => [r.resourceType?.label],
  ),
  when: { says: 'without a COAR type', holds: (r) => r.resourceType !== undefined && r.resourceType.coar === undefined },
};

const DATE_PARTS: { readonly [K in keyof RecordDates]-?: string } = {
  issued: '2005-08-08',
  accepted: '2005-06-01',
  available: '2005-09',
  embargoEnd: '2030-01-31',
};

const dateProbes = (Object.keys(DATE_PARTS) as (keyof RecordDates)[]).map((k): FieldProbe => ({
  ...typed(
    `dates.${k}`,
    (base) => ({ ...base, ...(k === 'embargoEnd' && { accessRights: 'embargoed' as const }), dates: { [k]: DATE_PARTS[k] } }),
    (r) => [r.dates?.[k]],
  ),
  // DataCite and OpenAIRE have one Available date, which under an embargo is its end.
  ...(k === 'available' && { when: { says: 'without an embargo end', holds: (r: RecordFields) => r.dates?.embargoEnd === undefined } }),
}));

const PROBE_FUNDING: Required<FundingReference> = {
  funderName: 'European Commission',
  funderIdentifier: { type: 'Crossref Funder ID', value: 'https://doi.org/10.13039/501100000780' },
  awardNumber: '101000001',
  awardUri: 'https://cordis.europa.eu/project/id/101000001',
  awardTitle: 'Probe project',
  funderIdentifierSchemeUri: 'https://doi.org/',
  awardTitleLang: 'en',
};
const PROBE_FUNDING_PARTIAL: readonly FundingReference[] = [
  { funderName: 'Probe Foundation' },
  { funderName: 'Probe Trust', awardNumber: 'PT-7' },
  { funderName: 'Probe Council', funderIdentifier: { type: 'ROR', value: 'https://ror.org/01tm6cn81' } },
];
const FUNDING_PARTS: { readonly [K in keyof FundingReference]-?: (f: FundingReference) => readonly (string | undefined)[] } = {
  funderName: (f) => [f.funderName],
  funderIdentifier: (f) => [f.funderIdentifier === undefined ? undefined : `${f.funderIdentifier.type} ${trim(f.funderIdentifier.value)}`],
  awardNumber: (f) => [f.awardNumber],
  awardUri: (f) => [f.awardUri],
  awardTitle: (f) => [f.awardTitle],
  funderIdentifierSchemeUri: (f) => [f.funderIdentifierSchemeUri === undefined ? undefined : `${trim(f.funderName)} ${f.funderIdentifierSchemeUri}`],
  awardTitleLang: (f) => [f.awardTitleLang === undefined ? undefined : `${trim(f.funderName)} ${f.awardTitleLang}`],
};

// A DOI every format has a place for, and an identifier of a scheme only some have.
const PROBE_RELATED: readonly RelatedIdentifier[] = [
  { identifier: '10.5555/cited', type: 'DOI', relation: 'Cites', resourceTypeGeneral: 'Dataset' },
  { identifier: 'arXiv:0706.0001', type: 'arXiv', relation: 'IsSupplementTo', resourceTypeGeneral: 'Text' },
  // Of DataCite 4.5 and later: unknown to OpenAIRE v4's DataCite 4.1 lists.
  { identifier: 'swh:1:dir:d198bc9d7a6bcf6db04f476d29314f157507d505', type: 'SWHID', relation: 'HasTranslation', resourceTypeGeneral: 'Presentation' },
];
const withId = (x: RelatedIdentifier, v: string | undefined): string | undefined => (v === undefined ? undefined : `${trim(x.identifier)} ${v}`);
const RELATED_PARTS: { readonly [K in keyof RelatedIdentifier]-?: (x: RelatedIdentifier) => string | undefined } = {
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
const PROBE_ITEM: Required<RelatedItem> = {
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
const ITEM_PARTS: { readonly [K in keyof RelatedItem]-?: (i: RelatedItem) => string | undefined } = {
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
const PROBE_UNCHECKED: readonly RelatedIdentifier[] = [
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
const { inRelatedItem: _inItem, ...UNCHECKED_PARTS } = RELATED_PARTS;

/** The related identifiers a probe of a part gives: the shared three, those with DataCite's attributes, or a related item's. */
const relatedFor = (k: keyof RelatedIdentifier): Pick<RecordFields, 'relatedIdentifiers' | 'relatedItems'> =>
  k === 'inRelatedItem'
    ? { relatedIdentifiers: [PROBE_ITEM_ID], relatedItems: [PROBE_ITEM] }
    : ['relatedMetadataScheme', 'schemeUri', 'schemeType', 'relationTypeInformation'].includes(k)
      ? { relatedIdentifiers: PROBE_RELATED_DETAIL }
      : { relatedIdentifiers: PROBE_RELATED };

// Parts as journals write them, commas, parentheses and dashes included.
const PROBE_HOST: Required<Host> = { title: 'Journal of Probes', volume: '5, suppl.', issue: '(3)', startPage: 'S1-2', endPage: 'S9–S12' };

// DataCite 4.7's titles: the main title, a subtitle and a translated title, each with its language.
const PROBE_TITLES: readonly TitleEntry[] = [
  { value: 'Probe title', lang: 'en' },
  { value: 'A subtitle of probes', type: 'Subtitle', lang: 'en' },
  { value: 'Titre de la sonde', type: 'TranslatedTitle', lang: 'fr' },
];
const TITLE_PARTS: { readonly [K in keyof TitleEntry]-?: (t: TitleEntry) => string | undefined } = {
  value: (t) => t.value,
  type: (t) => (t.type === undefined ? undefined : `${trim(t.value)} ${t.type}`),
  lang: (t) => (t.lang === undefined ? undefined : `${trim(t.value)} ${t.lang}`),
};

const PROBE_PUBLISHER_ID: Required<PublisherIdentifier> = { value: 'https://ror.org/04wxnsj81', scheme: 'ROR', schemeUri: 'https://ror.org/' };

// A subject of a classification with every attribute (DataCite 4.7 property 6), and one of a thesaurus in another language.
const PROBE_SUBJECTS: readonly SubjectEntry[] = [
  {
    value: 'Archaeology',
    scheme: 'DDC',
    schemeUri: 'https://www.oclc.org/en/dewey.html',
    valueUri: 'https://id.loc.gov/vocabulary/classSchemes/ddc',
    classificationCode: '930.1',
    lang: 'en',
  },
  { value: 'Archäologie', scheme: 'GND', schemeUri: 'https://d-nb.info/gnd/', valueUri: 'https://d-nb.info/gnd/4002498-7', lang: 'de' },
];
const SUBJECT_PARTS: { readonly [K in keyof SubjectEntry]-?: (s: SubjectEntry) => string | undefined } = {
  value: (s) => s.value,
  scheme: (s) => (s.scheme === undefined ? undefined : `${trim(s.value)} ${s.scheme}`),
  schemeUri: (s) => (s.schemeUri === undefined ? undefined : `${trim(s.value)} ${s.schemeUri}`),
  valueUri: (s) => (s.valueUri === undefined ? undefined : `${trim(s.value)} ${s.valueUri}`),
  classificationCode: (s) => (s.classificationCode === undefined ? undefined : `${trim(s.value)} ${s.classificationCode}`),
  lang: (s) => (s.lang === undefined ? undefined : `${trim(s.value)} ${s.lang}`),
};

// Dates of DataCite's types beyond the shared ones, a range among them (DataCite 4.7 property 8, RFC 3339 ranges).
const PROBE_TYPED_DATES: readonly TypedDate[] = [
  { value: '2020-01-01/2023-12-31', type: 'Valid' },
  { value: '2024-09-15', type: 'Updated', information: 'Coordinates corrected' },
  { value: '1890/1910', type: 'Coverage' },
];
const TYPED_DATE_PARTS: { readonly [K in keyof TypedDate]-?: (d: TypedDate) => string | undefined } = {
  value: (d) => d.value,
  type: (d) => `${trim(d.value)} ${d.type}`,
  information: (d) => (d.information === undefined ? undefined : `${trim(d.value)} ${d.information}`),
};

const PROBE_ALTERNATES: readonly AlternateIdentifier[] = [{ value: 'SN-2024-0815', type: 'SerialNumber' }];
const ALTERNATE_PARTS: { readonly [K in keyof AlternateIdentifier]-?: (a: AlternateIdentifier) => string | undefined } = {
  value: (a) => a.value,
  type: (a) => `${trim(a.value)} ${a.type}`,
};

// One statement whole: text, URI and SPDX identifier together (DataCite 4.7 property 16).
const PROBE_RIGHTS: Required<RightsEntry> = {
  text: 'Creative Commons Attribution 4.0 International',
  uri: 'https://creativecommons.org/licenses/by/4.0/legalcode',
  identifier: 'CC-BY-4.0',
  identifierScheme: 'SPDX',
  schemeUri: 'https://spdx.org/licenses/',
  lang: 'en',
};
const RIGHTS_PARTS: { readonly [K in keyof RightsEntry]-?: (r: RightsEntry) => string | undefined } = {
  text: (r) => r.text,
  uri: (r) => r.uri,
  identifier: (r) => (r.identifier === undefined ? undefined : `${r.uri ?? ''} ${r.identifier}`),
  identifierScheme: (r) => (r.identifierScheme === undefined ? undefined : `${r.uri ?? ''} ${r.identifierScheme}`),
  schemeUri: (r) => (r.schemeUri === undefined ? undefined : `${r.uri ?? ''} ${r.schemeUri}`),
  lang: (r) => (r.lang === undefined ? undefined : `${r.uri ?? ''} ${r.lang}`),
};

const PROBE_DESCRIPTIONS: readonly DescriptionEntry[] = [
  { value: 'Probe abstract.', type: 'Abstract', lang: 'en' },
  { value: 'Recorded at 48 kHz, 24 bit, with a Zoom H5.', type: 'TechnicalInfo', lang: 'en' },
];
const DESCRIPTION_PARTS: { readonly [K in keyof DescriptionEntry]-?: (d: DescriptionEntry) => string | undefined } = {
  value: (d) => d.value,
  type: (d) => `${trim(d.value)} ${d.type}`,
  lang: (d) => (d.lang === undefined ? undefined : `${trim(d.value)} ${d.lang}`),
};

// A place with its point, box and polygon (DataCite 4.7 property 18; a polygon has at least four points, the last the first).
const PROBE_GEO: Required<GeoLocation> = {
  places: ['Kraków, Old Town'],
  points: [{ latitude: 50.0614, longitude: 19.9366 }],
  boxes: [{ west: 19.79, east: 20.22, south: 49.97, north: 50.13 }],
  polygons: [
    {
      points: [
        { latitude: 50.05, longitude: 19.92 },
        { latitude: 50.07, longitude: 19.92 },
        { latitude: 50.07, longitude: 19.95 },
        { latitude: 50.05, longitude: 19.92 },
      ],
    },
  ],
};
const point = (p: { readonly latitude: number; readonly longitude: number }): string => `${p.latitude} ${p.longitude}`;
const GEO_PARTS: { readonly [K in keyof GeoLocation]-?: (g: GeoLocation) => readonly string[] } = {
  places: (g) => g.places ?? [],
  points: (g) => (g.points ?? []).map(point),
  boxes: (g) => (g.boxes ?? []).map((b) => `${b.west} ${b.east} ${b.south} ${b.north}`),
  polygons: (g) => (g.polygons ?? []).map((p) => p.points.map(point).join(', ')),
};

/** One row per part of the entries of a list of the model: the probe gives the list, each row reads one part of every entry. */
function listProbes<K extends keyof RecordFields, T>(
  key: K,
  given: RecordFields[K],
  entries: (r: RecordFields) => readonly T[] | undefined,
  parts: { readonly [P in keyof T]-?: (t: T) => string | undefined },
): FieldProbe[] {
  return (Object.keys(parts) as (keyof T & string)[]).map((part) =>
    typed(
      `${key}.${part}`,
      (base) => ({ ...base, [key]: given }),
      (r) => (entries(r) ?? []).map((t) => parts[part](t)),
    ),
  );
}

// Its access is not the record's (the base's open access), so a format that says the record's on every file is not taken to carry the file's.
const PROBE_FILE: Required<RecordFile> = {
  url: 'https://repository.example.org/files/probe.pdf',
  mediaType: 'application/pdf',
  size: 2048,
  access: 'restricted',
};
const FILE_PARTS: { readonly [K in keyof RecordFile]-?: (f: RecordFile) => string | undefined } = {
  url: (f) => f.url,
  mediaType: (f) => f.mediaType,
  size: (f) => f.size?.toString(),
  access: (f) => f.access,
};

/**
 * Every field of the model and its probes, keyed by the model's own keys:
 * a key added to `RecordFields` makes this table (and the build) fail until
 * the field has its rows.
 */
export const FIELD_PROBES: { readonly [K in keyof RecordFields]-?: readonly FieldProbe[] } = {
  dc: dcProbes,
  identifiers: (Object.keys(SAMPLE_IDS) as IdentifierType[]).map((type) =>
    typed(
      `identifiers.${type}`,
      (base) => ({ ...base, identifiers: [...(type === 'DOI' ? [] : (base.identifiers ?? [])), { type, value: SAMPLE_IDS[type] }] }),
      (r) => (r.identifiers ?? []).filter((i) => i.type === type).map((i) => i.value),
    ),
  ),
  creators: agentProbes('creators'),
  contributors: [
    ...agentProbes('contributors'),
    typed(
      'contributors.type',
      (base) => ({
        ...base,
        contributors: [
          { name: 'Probe, Editor', type: 'Editor' },
          { name: 'Probe, Translator', type: 'Translator' },
        ],
      }),
      // Other is the type of a contributor whose role is not said (a dc:contributor's, facts.ts `contributors`).
      (r) => (r.contributors ?? []).filter((c) => c.type !== 'Other').map((c) => `${trim(c.name)} ${c.type}`),
    ),
  ],
  resourceType: [...Object.values(RESOURCE_TYPE_PARTS), generalWithoutCoar, labelWithoutCoar],
  accessRights: [
    {
      ...typed(
        'accessRights',
        (base) => ({ ...base, accessRights: 'restricted' }),
        (r) => [r.accessRights],
      ),
      // COAR: an embargo ends on a date; a reader keeps an embargo without one as rights text (reader-rules.ts).
      when: { says: 'an embargo with its end date', holds: (r) => r.accessRights !== 'embargoed' || r.dates?.embargoEnd !== undefined },
    },
  ],
  license: [
    typed(
      'license',
      (base) => ({ ...base, license: 'https://creativecommons.org/licenses/by/4.0/' }),
      (r) => [r.license],
    ),
  ],
  publisher: [
    typed(
      'publisher',
      (base) => ({ ...base, publisher: 'Probe Press' }),
      (r) => [r.publisher],
    ),
  ],
  publicationYear: [
    typed(
      'publicationYear',
      (base) => ({ ...base, publicationYear: '2004' }),
      (r) => [r.publicationYear],
    ),
  ],
  dates: dateProbes,
  language: [
    typed(
      'language',
      (base) => ({ ...base, language: 'de-CH' }),
      (r) => [r.language],
    ),
  ],
  fundingReferences: (Object.keys(FUNDING_PARTS) as (keyof FundingReference)[]).map((k) =>
    typed(
      `fundingReferences.${k}`,
      // Funders with less beside it (RIOXX writes a grant only with the funder's identifier and the award number).
      (base) => ({ ...base, fundingReferences: [PROBE_FUNDING, ...PROBE_FUNDING_PARTIAL] }),
      (r) => (r.fundingReferences ?? []).flatMap((f) => FUNDING_PARTS[k](f)),
    ),
  ),
  relatedIdentifiers: (Object.keys(RELATED_PARTS) as (keyof RelatedIdentifier)[]).map((k) =>
    typed(
      `relatedIdentifiers.${k}`,
      (base) => ({ ...base, ...relatedFor(k) }),
      (r) => (r.relatedIdentifiers ?? []).map((x) => RELATED_PARTS[k](x)),
    ),
  ),
  host: (Object.keys(PROBE_HOST) as (keyof Host)[]).map((k) =>
    typed(
      `host.${k}`,
      (base) => ({ ...base, host: PROBE_HOST }),
      (r) => [r.host?.[k]],
    ),
  ),
  files: (Object.keys(FILE_PARTS) as (keyof RecordFile)[]).map((k) => ({
    ...typed(
      `files.${k}`,
      // A file with its media type and size, and one with its address alone.
      (base) => ({ ...base, files: [PROBE_FILE, { url: 'https://repository.example.org/files/data.csv' }] }),
      (r) => (r.files ?? []).map((f) => FILE_PARTS[k](f)),
    ),
    // A file is its URL: EDM (an RDF graph) describes a web resource once, so a URL listed twice has one description.
    when: { says: 'each at a URL of its own', holds: (r: RecordFields) => new Set((r.files ?? []).map((f) => f.url)).size === (r.files ?? []).length },
  })),
  titles: listProbes<'titles', TitleEntry>('titles', PROBE_TITLES, (r) => r.titles, TITLE_PARTS),
  publisherIdentifier: (Object.keys(PROBE_PUBLISHER_ID) as (keyof PublisherIdentifier)[]).map((k) =>
    typed(
      `publisherIdentifier.${k}`,
      (base) => ({ ...base, publisherIdentifier: PROBE_PUBLISHER_ID }),
      (r) => [r.publisherIdentifier?.[k]],
    ),
  ),
  publisherLang: [
    typed(
      'publisherLang',
      (base) => ({ ...base, publisherLang: 'en' }),
      (r) => [r.publisherLang],
    ),
  ],
  subjects: listProbes<'subjects', SubjectEntry>('subjects', PROBE_SUBJECTS, (r) => r.subjects, SUBJECT_PARTS),
  typedDates: listProbes<'typedDates', TypedDate>('typedDates', PROBE_TYPED_DATES, (r) => r.typedDates, TYPED_DATE_PARTS),
  alternateIdentifiers: listProbes<'alternateIdentifiers', AlternateIdentifier>(
    'alternateIdentifiers',
    PROBE_ALTERNATES,
    (r) => r.alternateIdentifiers,
    ALTERNATE_PARTS,
  ),
  sizes: [
    typed(
      'sizes',
      (base) => ({ ...base, sizes: ['15 pages', '6 MB'] }),
      (r) => r.sizes ?? [],
    ),
  ],
  version: [
    typed(
      'version',
      (base) => ({ ...base, version: '2.1.0' }),
      (r) => [r.version],
    ),
  ],
  rightsList: listProbes<'rightsList', RightsEntry>('rightsList', [PROBE_RIGHTS], (r) => r.rightsList, RIGHTS_PARTS),
  descriptions: listProbes<'descriptions', DescriptionEntry>('descriptions', PROBE_DESCRIPTIONS, (r) => r.descriptions, DESCRIPTION_PARTS),
  geoLocations: (Object.keys(GEO_PARTS) as (keyof GeoLocation)[]).map((k) =>
    typed(
      `geoLocations.${k}`,
      (base) => ({ ...base, geoLocations: [PROBE_GEO] }),
      (r) => (r.geoLocations ?? []).flatMap((g) => GEO_PARTS[k](g)),
    ),
  ),
  relatedItems: listProbes<'relatedItems', RelatedItem>('relatedItems', [PROBE_ITEM], (r) => r.relatedItems, ITEM_PARTS),
  uncheckedRelatedIdentifiers: listProbes<'uncheckedRelatedIdentifiers', Omit<RelatedIdentifier, 'inRelatedItem'>>(
    'uncheckedRelatedIdentifiers',
    PROBE_UNCHECKED,
    (r) => r.uncheckedRelatedIdentifiers,
    UNCHECKED_PARTS,
  ),
};

/** Every probe, in the model's order. */
export const ALL_PROBES: readonly FieldProbe[] = Object.values(FIELD_PROBES).flat();

/** The key of the model a probe's field belongs to (`dc` for a Dublin Core element). */
export function modelKeyOf(p: FieldProbe): keyof RecordFields {
  return p.field.split('.')[0] as keyof RecordFields;
}

/**
 * The probe's record with another record's values of the field in place of
 * the probe's own (the whole Dublin Core element, or the whole key of the
 * model), beside the same base: the matrix's claim, for any values.
 */
export function probeWith(p: FieldProbe, other: RecordFields): RecordFields {
  const record = p.probe(PROBE_BASE);
  const key = modelKeyOf(p);
  if (key === 'dc') {
    const element = p.field.slice(3) as DcElement;
    const dc: Record<string, readonly string[]> = { ...record.dc };
    delete dc[element];
    if (other.dc[element] !== undefined) dc[element] = other.dc[element];
    return { ...record, dc };
  }
  const out: Record<string, unknown> = { ...record };
  delete out[key];
  if (other[key] !== undefined) out[key] = other[key];
  return out as unknown as RecordFields;
}

/** Whether a format can be probed: it writes from the model (or its Dublin Core) and reads back. */
export function probed(f: MetadataFormat): boolean {
  return f.read !== undefined && (f.fromRecord !== undefined || f.fromDublinCore !== undefined);
}

/**
 * A record written in a format and read back by its reader, as a record
 * given in that format is read; undefined when the format does not offer
 * it. oai_dc is written from the record's whole Dublin Core (facts.ts
 * `dublinCore`), as the pipeline writes it for a record read from XML.
 */
export function throughFormat(f: MetadataFormat, r: RecordFields, ctx: CrosswalkContext = PROBE_CONTEXT): RecordFields | undefined {
  const xml = f.fromRecord !== undefined ? f.fromRecord(r, ctx) : f.fromDublinCore!(dublinCore(r));
  if (isNotOffered(xml)) return undefined;
  const root = parseFragment(xml);
  if (root === null) throw new Error(`${f.prefix} wrote XML its parser does not read`);
  return f.read!(root);
}

/** How the values `before` fared in `after`: all found, some, none. */
export function fidelityOf(before: readonly string[], after: readonly string[] | undefined): Fidelity {
  if (after === undefined) return 'not offered';
  const there = new Set(after);
  const found = before.filter((v) => there.has(v)).length;
  return found === before.length ? 'all' : found > 0 ? 'some' : 'none';
}

/**
 * The fidelity matrix of the given formats (those `probed`), computed from
 * their writers and readers.
 *
 * @example fidelityMatrix(BUILT_IN_FORMATS).rows.find((r) => r.field === 'dc.title')?.pairs.mods?.oai_dc // 'all'
 */
export function fidelityMatrix(formats: readonly MetadataFormat[]): FidelityMatrix {
  const fs = formats.filter(probed);
  const rows = ALL_PROBES.map((p) => {
    const record = p.probe(PROBE_BASE);
    const expected = p.values(record);
    if (expected.length === 0) throw new Error(`the probe of ${p.field} sets no value`);
    const once = new Map(fs.map((f) => [f.prefix, throughFormat(f, record)]));
    const carried = Object.fromEntries(fs.map((f) => [f.prefix, fidelityOf(expected, mapOpt(once.get(f.prefix), p.values))]));
    const pairs = Object.fromEntries(
      fs.map((a) => {
        const fromA = once.get(a.prefix);
        return [a.prefix, Object.fromEntries(fs.map((b) => [b.prefix, fidelityOf(expected, mapOpt(fromA && throughFormat(b, fromA), p.values))]))];
      }),
    );
    return { field: p.field, ...(p.without !== undefined && { without: p.without }), ...(p.when !== undefined && { when: p.when.says }), carried, pairs };
  });
  return { formats: fs.map((f) => f.prefix), rows };
}

const mapOpt = <A, B>(a: A | undefined, f: (a: A) => B): B | undefined => (a === undefined ? undefined : f(a));

const MARK: Record<Fidelity, string> = { all: '✓', some: '◐', none: '–', 'not offered': '·' };

/**
 * The matrix as Markdown: what each format carries (model → format →
 * model), then one table per reader: what a record read from that format
 * keeps in each format written from it.
 */
export function matrixMarkdown(m: FidelityMatrix): string {
  const head = (first: string): string[] => [`| ${first} | ${m.formats.join(' | ')} |`, `| --- | ${m.formats.map(() => ':-:').join(' | ')} |`];
  const name = (r: FidelityMatrix['rows'][number]): string =>
    `\`${r.field}\`${r.without !== undefined ? ` (without ${r.without.map((w) => `\`${w}\``).join(', ')})` : ''}${r.when !== undefined ? ` (${r.when})` : ''}`;
  const out: string[] = [
    'Legend: ✓ every value the probe gave the field arrives; ◐ some do (or changed); – none; · the format is not offered for the probe record.',
    '',
    '### What each format carries (model → format → model)',
    '',
    ...head('field'),
    ...m.rows.map((r) => `| ${name(r)} | ${m.formats.map((f) => MARK[r.carried[f]!]).join(' | ')} |`),
  ];
  for (const a of m.formats) {
    out.push('', `### Read from ${a}, written as …`, '', ...head('field'));
    out.push(...m.rows.map((r) => `| ${name(r)} | ${m.formats.map((b) => MARK[r.pairs[a]![b]!]).join(' | ')} |`));
  }
  return out.join('\n');
}

/** The markers around the generated tables in docs/metadata-formats.md. */
export const MATRIX_MARKERS = ['<!-- fidelity-matrix:begin (npm run docs:matrix writes this part) -->', '<!-- fidelity-matrix:end -->'] as const;

/**
 * A document with the matrix between its markers replaced by `tables`;
 * throws when the markers are missing.
 */
export function withMatrix(doc: string, tables: string): string {
  const [begin, end] = MATRIX_MARKERS;
  const i = doc.indexOf(begin);
  const j = doc.indexOf(end);
  if (i < 0 || j < i) throw new Error(`the document has no ${begin} … ${end} markers`);
  return `${doc.slice(0, i + begin.length)}\n\n${tables}\n\n${doc.slice(j)}`;
}
