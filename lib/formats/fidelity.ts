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
import { dublinCore } from '../model/facts';
import { type IdentifierType } from '../model/identifiers';
import type {
  AlternateIdentifier,
  DescriptionEntry,
  FundingReference,
  GeoLocation,
  Host,
  PublisherIdentifier,
  RecordFields,
  RecordFile,
  RelatedIdentifier,
  RelatedItem,
  RightsEntry,
  SubjectEntry,
  TitleEntry,
  TypedDate,
} from '../model/record';
import { parseFragment } from '../xml/tree';
import type { CrosswalkContext, MetadataFormat } from './format';
import { isNotOffered } from './format';
import {
  ALTERNATE_PARTS,
  DESCRIPTION_PARTS,
  FILE_PARTS,
  FUNDING_PARTS,
  GEO_PARTS,
  PROBE_ALTERNATES,
  PROBE_DESCRIPTIONS,
  PROBE_FILE,
  PROBE_FUNDING,
  PROBE_FUNDING_PARTIAL,
  PROBE_GEO,
  PROBE_HOST,
  PROBE_PUBLISHER_ID,
  PROBE_RIGHTS,
  PROBE_SUBJECTS,
  PROBE_TITLES,
  PROBE_TYPED_DATES,
  RESOURCE_TYPE_PARTS,
  RIGHTS_PARTS,
  SAMPLE_IDS,
  SUBJECT_PARTS,
  TITLE_PARTS,
  TYPED_DATE_PARTS,
  agentProbes,
  dateProbes,
  dcProbes,
  generalWithoutCoar,
  labelWithoutCoar,
  listProbes,
  trim,
  typed,
} from './fidelity-parts';
import { ITEM_PARTS, PROBE_ITEM, PROBE_UNCHECKED, RELATED_PARTS, UNCHECKED_PARTS, relatedFor } from './fidelity-related';

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
