/**
 * The probes' parts: for each field of the record model, the values a probe
 * gives it and how each part of a structured value is read back from what a
 * format wrote (./fidelity.ts puts them together in `FIELD_PROBES`).
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
  ResourceType,
  RightsEntry,
  SubjectEntry,
  TitleEntry,
  TypedDate,
} from '../model/record';
import type { FieldProbe } from './fidelity';

export const trim = (v: string): string => v.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');

// Blank as the model's facts say it (lib/model/facts.ts: any white space, U+00A0 and U+3000 included), which no
// format carries: a value of such spaces alone is said by no record.
const present = (vs: readonly (string | undefined)[]): string[] => vs.filter((v): v is string => v !== undefined && v.trim() !== '').map(trim);

export const without = (r: RecordFields, keys: readonly (keyof RecordFields)[]): RecordFields => {
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

export const dcProbes: FieldProbe[] = DC_ELEMENTS.map((element) => {
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
export const typed = (field: string, set: (base: RecordFields) => RecordFields, values: (r: RecordFields) => readonly (string | undefined)[]): FieldProbe => ({
  field,
  probe: set,
  values: (r) => present(values(r)),
});

export const SAMPLE_IDS: { readonly [T in IdentifierType]: string } = {
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

export const agentProbes = (key: 'creators' | 'contributors'): FieldProbe[] =>
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

export const RESOURCE_TYPE_PARTS: { readonly [K in keyof ResourceType]-?: FieldProbe } = {
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
export const generalWithoutCoar: FieldProbe = {
  ...typed(
    'resourceType.general',
    (base) => ({ ...base, resourceType: { general: 'Service', label: 'Service' } }),
    (r) => [r.resourceType?.general],
  ),
  when: { says: 'whose COAR type maps to another', holds: (r) => r.resourceType !== undefined && !generalOfCoar(r.resourceType) },
};

/** The label of a resource type with no COAR concept: a row of its own, for what carries it differs. */
export const labelWithoutCoar: FieldProbe = {
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

export const dateProbes = (Object.keys(DATE_PARTS) as (keyof RecordDates)[]).map((k): FieldProbe => ({
  ...typed(
    `dates.${k}`,
    (base) => ({ ...base, ...(k === 'embargoEnd' && { accessRights: 'embargoed' as const }), dates: { [k]: DATE_PARTS[k] } }),
    (r) => [r.dates?.[k]],
  ),
  // DataCite and OpenAIRE have one Available date, which under an embargo is its end.
  ...(k === 'available' && { when: { says: 'without an embargo end', holds: (r: RecordFields) => r.dates?.embargoEnd === undefined } }),
}));

export const PROBE_FUNDING: Required<FundingReference> = {
  funderName: 'European Commission',
  funderIdentifier: { type: 'Crossref Funder ID', value: 'https://doi.org/10.13039/501100000780' },
  awardNumber: '101000001',
  awardUri: 'https://cordis.europa.eu/project/id/101000001',
  awardTitle: 'Probe project',
  funderIdentifierSchemeUri: 'https://doi.org/',
  awardTitleLang: 'en',
};

export const PROBE_FUNDING_PARTIAL: readonly FundingReference[] = [
  { funderName: 'Probe Foundation' },
  { funderName: 'Probe Trust', awardNumber: 'PT-7' },
  { funderName: 'Probe Council', funderIdentifier: { type: 'ROR', value: 'https://ror.org/01tm6cn81' } },
];

export const FUNDING_PARTS: { readonly [K in keyof FundingReference]-?: (f: FundingReference) => readonly (string | undefined)[] } = {
  funderName: (f) => [f.funderName],
  funderIdentifier: (f) => [f.funderIdentifier === undefined ? undefined : `${f.funderIdentifier.type} ${trim(f.funderIdentifier.value)}`],
  awardNumber: (f) => [f.awardNumber],
  awardUri: (f) => [f.awardUri],
  awardTitle: (f) => [f.awardTitle],
  funderIdentifierSchemeUri: (f) => [f.funderIdentifierSchemeUri === undefined ? undefined : `${trim(f.funderName)} ${f.funderIdentifierSchemeUri}`],
  awardTitleLang: (f) => [f.awardTitleLang === undefined ? undefined : `${trim(f.funderName)} ${f.awardTitleLang}`],
};

// Parts as journals write them, commas, parentheses and dashes included.
export const PROBE_HOST: Required<Host> = { title: 'Journal of Probes', volume: '5, suppl.', issue: '(3)', startPage: 'S1-2', endPage: 'S9–S12' };

// DataCite 4.7's titles: the main title, a subtitle and a translated title, each with its language.
export const PROBE_TITLES: readonly TitleEntry[] = [
  { value: 'Probe title', lang: 'en' },
  { value: 'A subtitle of probes', type: 'Subtitle', lang: 'en' },
  { value: 'Titre de la sonde', type: 'TranslatedTitle', lang: 'fr' },
];

export const TITLE_PARTS: { readonly [K in keyof TitleEntry]-?: (t: TitleEntry) => string | undefined } = {
  value: (t) => t.value,
  type: (t) => (t.type === undefined ? undefined : `${trim(t.value)} ${t.type}`),
  lang: (t) => (t.lang === undefined ? undefined : `${trim(t.value)} ${t.lang}`),
};

export const PROBE_PUBLISHER_ID: Required<PublisherIdentifier> = { value: 'https://ror.org/04wxnsj81', scheme: 'ROR', schemeUri: 'https://ror.org/' };

// A subject of a classification with every attribute (DataCite 4.7 property 6), and one of a thesaurus in another language.
export const PROBE_SUBJECTS: readonly SubjectEntry[] = [
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

export const SUBJECT_PARTS: { readonly [K in keyof SubjectEntry]-?: (s: SubjectEntry) => string | undefined } = {
  value: (s) => s.value,
  scheme: (s) => (s.scheme === undefined ? undefined : `${trim(s.value)} ${s.scheme}`),
  schemeUri: (s) => (s.schemeUri === undefined ? undefined : `${trim(s.value)} ${s.schemeUri}`),
  valueUri: (s) => (s.valueUri === undefined ? undefined : `${trim(s.value)} ${s.valueUri}`),
  classificationCode: (s) => (s.classificationCode === undefined ? undefined : `${trim(s.value)} ${s.classificationCode}`),
  lang: (s) => (s.lang === undefined ? undefined : `${trim(s.value)} ${s.lang}`),
};

// Dates of DataCite's types beyond the shared ones, a range among them (DataCite 4.7 property 8, RFC 3339 ranges).
export const PROBE_TYPED_DATES: readonly TypedDate[] = [
  { value: '2020-01-01/2023-12-31', type: 'Valid' },
  { value: '2024-09-15', type: 'Updated', information: 'Coordinates corrected' },
  { value: '1890/1910', type: 'Coverage' },
];

export const TYPED_DATE_PARTS: { readonly [K in keyof TypedDate]-?: (d: TypedDate) => string | undefined } = {
  value: (d) => d.value,
  type: (d) => `${trim(d.value)} ${d.type}`,
  information: (d) => (d.information === undefined ? undefined : `${trim(d.value)} ${d.information}`),
};

export const PROBE_ALTERNATES: readonly AlternateIdentifier[] = [{ value: 'SN-2024-0815', type: 'SerialNumber' }];

export const ALTERNATE_PARTS: { readonly [K in keyof AlternateIdentifier]-?: (a: AlternateIdentifier) => string | undefined } = {
  value: (a) => a.value,
  type: (a) => `${trim(a.value)} ${a.type}`,
};

// One statement whole: text, URI and SPDX identifier together (DataCite 4.7 property 16).
export const PROBE_RIGHTS: Required<RightsEntry> = {
  text: 'Creative Commons Attribution 4.0 International',
  uri: 'https://creativecommons.org/licenses/by/4.0/legalcode',
  identifier: 'CC-BY-4.0',
  identifierScheme: 'SPDX',
  schemeUri: 'https://spdx.org/licenses/',
  lang: 'en',
};

export const RIGHTS_PARTS: { readonly [K in keyof RightsEntry]-?: (r: RightsEntry) => string | undefined } = {
  text: (r) => r.text,
  uri: (r) => r.uri,
  identifier: (r) => (r.identifier === undefined ? undefined : `${r.uri ?? ''} ${r.identifier}`),
  identifierScheme: (r) => (r.identifierScheme === undefined ? undefined : `${r.uri ?? ''} ${r.identifierScheme}`),
  schemeUri: (r) => (r.schemeUri === undefined ? undefined : `${r.uri ?? ''} ${r.schemeUri}`),
  lang: (r) => (r.lang === undefined ? undefined : `${r.uri ?? ''} ${r.lang}`),
};

export const PROBE_DESCRIPTIONS: readonly DescriptionEntry[] = [
  { value: 'Probe abstract.', type: 'Abstract', lang: 'en' },
  { value: 'Recorded at 48 kHz, 24 bit, with a Zoom H5.', type: 'TechnicalInfo', lang: 'en' },
];

export const DESCRIPTION_PARTS: { readonly [K in keyof DescriptionEntry]-?: (d: DescriptionEntry) => string | undefined } = {
  value: (d) => d.value,
  type: (d) => `${trim(d.value)} ${d.type}`,
  lang: (d) => (d.lang === undefined ? undefined : `${trim(d.value)} ${d.lang}`),
};

// A place with its point, box and polygon (DataCite 4.7 property 18; a polygon has at least four points, the last the first).
export const PROBE_GEO: Required<GeoLocation> = {
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

export const GEO_PARTS: { readonly [K in keyof GeoLocation]-?: (g: GeoLocation) => readonly string[] } = {
  places: (g) => g.places ?? [],
  points: (g) => (g.points ?? []).map(point),
  boxes: (g) => (g.boxes ?? []).map((b) => `${b.west} ${b.east} ${b.south} ${b.north}`),
  polygons: (g) => (g.polygons ?? []).map((p) => p.points.map(point).join(', ')),
};

/** One row per part of the entries of a list of the model: the probe gives the list, each row reads one part of every entry. */
export function listProbes<K extends keyof RecordFields, T>(
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
export const PROBE_FILE: Required<RecordFile> = {
  url: 'https://repository.example.org/files/probe.pdf',
  mediaType: 'application/pdf',
  size: 2048,
  access: 'restricted',
};

export const FILE_PARTS: { readonly [K in keyof RecordFile]-?: (f: RecordFile) => string | undefined } = {
  url: (f) => f.url,
  mediaType: (f) => f.mediaType,
  size: (f) => f.size?.toString(),
  access: (f) => f.access,
};
