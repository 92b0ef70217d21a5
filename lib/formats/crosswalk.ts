/**
 * What every built-in crosswalk shares: its input (the typed record and the
 * item's identifiers), its output (serialized XML, or why the item does not
 * have the format), and the record's values read the same way for every
 * format (a structured field first, its Dublin Core counterpart second).
 *
 * Pure: no I/O, no clock.
 */
import type { Agent, Contributor, RecordFields, TypedIdentifier } from '../records/fields';
import { COAR_TYPES, typeOfGeneral, type CoarType } from '../records/vocabularies';

/** Per-format settings from the repository configuration. */
export interface CrosswalkOptions {
  /** The DataCite data centre (repository) symbol oai_datacite names, e.g. "TIB.EXAMPLE". */
  readonly datacentreSymbol?: string;
}

/** The item a record is crosswalked for: its identifiers under governance, and the format's options. */
export interface CrosswalkContext {
  /** The item's oai-identifier (written into every format that has a place for it). */
  readonly oaiIdentifier: string;
  /** The item's POI (http://purl.org/poi/…), when the repository assigns POIs. */
  readonly poi?: string;
  readonly options: CrosswalkOptions;
}

/** The outcome for a record that lacks the format's mandatory content. */
export interface NotOffered {
  readonly notOffered: string;
}

/** One metadata element serialized (no XML declaration), or why the item does not have the format. */
export type CrosswalkResult = string | NotOffered;

/** A crosswalk from the typed record to one format. */
export type RecordCrosswalk = (record: RecordFields, ctx: CrosswalkContext) => CrosswalkResult;

/** Whether a crosswalk result is a refusal to offer the format. @example isNotOffered({ notOffered: 'no DOI' }) // true */
export function isNotOffered(r: CrosswalkResult): r is NotOffered {
  return typeof r !== 'string';
}

const nonBlank = (values: readonly string[] | undefined): string[] => (values ?? []).filter((v) => v.trim() !== '');

/** The record's non-blank values of one Dublin Core element. @example dcValues({ dc: { subject: ['a', ' '] } }, 'subject') // ['a'] */
export function dcValues(record: RecordFields, name: keyof RecordFields['dc']): string[] {
  return nonBlank(record.dc[name]);
}

/** The titles: Dublin Core `title`, non-blank. @example titles({ dc: { title: ['', 'T'] } }) // ['T'] */
export function titles(record: RecordFields): string[] {
  return dcValues(record, 'title');
}

/** The creators: the structured ones, else each `dc.creator` as a name of unknown type. @example creators({ dc: { creator: ['A'] } }) // [{ name: 'A' }] */
export function creators(record: RecordFields): readonly Agent[] {
  return record.creators ?? dcValues(record, 'creator').map((name) => ({ name }));
}

/** The contributors: the structured ones, else each `dc.contributor` with DataCite type Other. @example contributors({ dc: { contributor: ['A'] } }) // [{ name: 'A', type: 'Other' }] */
export function contributors(record: RecordFields): readonly Contributor[] {
  return record.contributors ?? dcValues(record, 'contributor').map((name) => ({ name, type: 'Other' as const }));
}

/** The publisher: the field, else the first `dc.publisher`. @example publisher({ dc: { publisher: ['P'] } }) // 'P' */
export function publisher(record: RecordFields): string | undefined {
  return record.publisher ?? dcValues(record, 'publisher')[0];
}

/**
 * The publication year: the field, else the year of the issued date, else of the first `dc.date` that starts with a year.
 *
 * @example publicationYear({ dc: { date: ['spring', '2001-02-03'] } }) // '2001'
 */
export function publicationYear(record: RecordFields): string | undefined {
  if (record.publicationYear !== undefined) return record.publicationYear;
  if (record.dates?.issued !== undefined) return record.dates.issued.slice(0, 4);
  const d = dcValues(record, 'date').find((v) => /^\d{4}(?:\D|$)/.test(v));
  return d?.slice(0, 4);
}

/** The record's typed identifiers of one scheme. @example identifiersOf({ dc: {}, identifiers: [{ type: 'ISBN', value: '0306406152' }] }, 'ISBN') // ['0306406152'] */
export function identifiersOf(record: RecordFields, type: TypedIdentifier['type']): string[] {
  return (record.identifiers ?? []).filter((i) => i.type === type).map((i) => i.value);
}

/** The first DOI, if any. @example doi({ dc: {} }) // undefined */
export function doi(record: RecordFields): string | undefined {
  return identifiersOf(record, 'DOI')[0];
}

/** The COAR row of the record's resource type, when it is one of the known COAR types. @example coarType(record)?.datacite // 'JournalArticle' for c_6501 */
export function coarType(record: RecordFields): CoarType | undefined {
  const c = record.resourceType?.coar;
  return c === undefined ? undefined : COAR_TYPES.get(c);
}

/** MARC Leader/06 and MODS typeOfResource of the record: from its COAR type, else its DataCite type, else text. @example bibliographicType({ dc: {} }) // { leader06: 'a', typeOfResource: 'text' } */
export function bibliographicType(record: RecordFields): { leader06: string; typeOfResource: string } {
  const c = coarType(record);
  if (c) return c;
  return record.resourceType ? typeOfGeneral(record.resourceType.general) : { leader06: 'a', typeOfResource: 'text' };
}

/**
 * The values of `dc.identifier` that no typed identifier or governance identifier already says.
 *
 * @example otherDcIdentifiers({ dc: { identifier: ['oai:x.org:1', 'local-7'] } }, { oaiIdentifier: 'oai:x.org:1', options: {} }) // ['local-7']
 */
export function otherDcIdentifiers(record: RecordFields, ctx: CrosswalkContext): string[] {
  const known = new Set<string>([ctx.oaiIdentifier, ...(ctx.poi !== undefined ? [ctx.poi] : [])]);
  for (const i of record.identifiers ?? []) {
    known.add(i.value);
    if (i.type === 'DOI') {
      known.add(`https://doi.org/${i.value}`);
      known.add(`doi:${i.value}`);
    }
  }
  return [...new Set(dcValues(record, 'identifier'))].filter((v) => !known.has(v));
}

/** A media type list without repeats, in first-seen order: the files' media types, then `dc.format`. @example formats({ dc: { format: ['application/pdf'] }, files: [{ url: 'https://x.org/a', mediaType: 'application/pdf' }] }) // ['application/pdf'] */
export function formats(record: RecordFields): string[] {
  const out: string[] = [];
  for (const f of record.files ?? []) if (f.mediaType !== undefined) out.push(f.mediaType);
  out.push(...dcValues(record, 'format'));
  return [...new Set(out)];
}
