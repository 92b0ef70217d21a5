/**
 * What a record says, read the same way by everyone who asks: every format's
 * writer, the sets by rule, the readiness check, Signposting and the pages.
 * A structured field first, its Dublin Core counterpart second.
 *
 * Pure: no I/O, no clock.
 */
import type { Agent, Contributor, RecordFields, TypedIdentifier } from './record';
import { ACCESS_RIGHTS, COAR_TYPES, typeOfGeneral, type AccessRight, type CoarType, type OpenAireResourceType } from './vocabularies';
import { classifyIdentifier, normalizeDoi } from './identifiers';
import type { DcElement, DublinCore } from './dublin-core';

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

/** A media type list without repeats, in first-seen order: the files' media types, then `dc.format`. @example formats({ dc: { format: ['application/pdf'] }, files: [{ url: 'https://x.org/a', mediaType: 'application/pdf' }] }) // ['application/pdf'] */
export function formats(record: RecordFields): string[] {
  const out: string[] = [];
  for (const f of record.files ?? []) if (f.mediaType !== undefined) out.push(f.mediaType);
  out.push(...dcValues(record, 'format'));
  return [...new Set(out)];
}

/**
 * The record's OpenAIRE resource type (literature, dataset, software, other research product): from its
 * COAR type, else its DataCite type, else its dc:type words.
 *
 * @example openAireType({ dc: { type: ['Dataset'] } }) // 'dataset'
 */
export function openAireType(r: RecordFields): OpenAireResourceType {
  const coar = r.resourceType?.coar;
  const known = coar === undefined ? undefined : COAR_TYPES.get(coar);
  if (known) return known.openaire;
  const g = r.resourceType?.general;
  if (g === undefined) {
    // A Dublin Core record: a dataset or software when its dc:type says so (DCMI Type, info:eu-repo), else text.
    const words = (r.dc.type ?? []).map((t) => t.trim().toLowerCase().replace(/^info:eu-repo\/semantics\//, ''));
    if (words.includes('dataset')) return 'dataset';
    if (words.includes('software')) return 'software';
    return 'literature';
  }
  if (g === 'Dataset') return 'dataset';
  if (g === 'Software' || g === 'ComputationalNotebook') return 'software';
  return typeOfGeneral(g).leader06 === 'a' ? 'literature' : 'other research product';
}

/** The info:eu-repo access terms (OpenAIRE Guidelines 3.0, "Access Level") a dc:rights value may carry instead of the typed field. */
const EU_REPO_ACCESS: Readonly<Record<string, AccessRight>> = {
  'info:eu-repo/semantics/openAccess': 'open',
  'info:eu-repo/semantics/embargoedAccess': 'embargoed',
  'info:eu-repo/semantics/restrictedAccess': 'restricted',
  'info:eu-repo/semantics/closedAccess': 'metadataOnly',
};

/**
 * The record's access right: the typed field, else a `dc:rights` value that
 * is an info:eu-repo access term or a COAR access right URI.
 *
 * @example accessRightOf({ dc: { rights: ['info:eu-repo/semantics/openAccess'] } }) // 'open'
 */
export function accessRightOf(r: RecordFields): AccessRight | undefined {
  if (r.accessRights !== undefined) return r.accessRights;
  for (const v of r.dc.rights ?? []) {
    const t = v.trim();
    const eu = EU_REPO_ACCESS[t];
    if (eu) return eu;
    for (const [key, { uri }] of Object.entries(ACCESS_RIGHTS)) if (t === uri) return key as AccessRight;
  }
  return undefined;
}

/** Whether the record has a DOI: a typed one, or a `dc:identifier` in a DOI form. @example hasDoi({ dc: { identifier: ['doi:10.5555/x'] } }) // true */
export function hasDoi(r: RecordFields): boolean {
  return (r.identifiers ?? []).some((i) => i.type === 'DOI') || (r.dc.identifier ?? []).some((v) => normalizeDoi(v) !== null);
}

/** Whether the record names a funded project (OpenAIRE 3.0 "Project Identifier"). @example isFunded({ dc: { relation: ['info:eu-repo/grantAgreement/EC/FP7/244909'] } }) // true */
export function isFunded(r: RecordFields): boolean {
  return (r.fundingReferences ?? []).some((f) => f.awardNumber !== undefined || f.awardUri !== undefined)
    || (r.dc.relation ?? []).some((v) => v.trim().startsWith('info:eu-repo/grantAgreement/'));
}

/**
 * The licence URIs a record states: its `dc:rights` values that are http(s)
 * URIs, then its `license` field, without repeats.
 *
 * @example licences({ dc: { rights: ['Open', 'https://creativecommons.org/licenses/by/4.0/'] } }) // ['https://creativecommons.org/licenses/by/4.0/']
 */
export function licences(r: RecordFields): string[] {
  const out: string[] = [];
  for (const v of [...nonBlank(r.dc.rights), ...(r.license !== undefined ? [r.license] : [])]) {
    const t = v.trim();
    if (/^https?:\/\/\S+$/i.test(t) && !out.includes(t)) out.push(t);
  }
  return out;
}

/**
 * A typed identifier as a URI, the form Dublin Core and links want: a DOI
 * or a Handle at its resolver (https://doi.org/…, https://hdl.handle.net/…,
 * the forms their display guidelines recommend), an ARK at N2T's, an ISBN
 * or ISSN as its URN (RFC 3187, RFC 3044), a URN or URL as it is.
 *
 * @example identifierUri({ type: 'Handle', value: '1765/315' }) // 'https://hdl.handle.net/1765/315'
 */
export function identifierUri(id: TypedIdentifier): string {
  switch (id.type) {
    case 'DOI': return normalizeDoi(id.value) ?? `https://doi.org/${id.value}`;
    case 'Handle': return `https://hdl.handle.net/${id.value}`;
    case 'ARK': return `https://n2t.net/${id.value}`;
    case 'ISBN': return `urn:isbn:${id.value}`;
    case 'ISSN': return `urn:issn:${id.value}`;
    case 'URN':
    case 'URL': return id.value;
  }
}

/**
 * The Dublin Core a record says, as oai_dc writes it: each element as the
 * record gives it, and an element the record leaves empty filled from its
 * typed counterpart (creators, contributors, publisher, the issued date or
 * year, the resource type, the files' media types, the language, the
 * licence); typed identifiers the Dublin Core does not already name, in any
 * spelling, join `identifier` as URIs. So a record lifted from DataCite,
 * whose creators, publisher and DOI are typed fields, is as complete in
 * oai_dc as the DataCite it came as; a record that gives its Dublin Core is
 * written as it gives it.
 *
 * @example dublinCore({ dc: { title: ['T'] }, creators: [{ name: 'Curie, Marie' }], identifiers: [{ type: 'DOI', value: '10.5555/x' }] })
 * // → { title: ['T'], creator: ['Curie, Marie'], identifier: ['https://doi.org/10.5555/x'] }
 */
export function dublinCore(r: RecordFields): DublinCore {
  const dc: Partial<Record<DcElement, readonly string[]>> = { ...r.dc };
  const fill = (element: DcElement, values: readonly (string | undefined)[]): void => {
    const present = values.filter((v): v is string => v !== undefined && v.trim() !== '');
    if (dcValues(r, element).length === 0 && present.length > 0) dc[element] = present;
  };
  fill('creator', (r.creators ?? []).map((a) => a.name));
  fill('contributor', (r.contributors ?? []).map((a) => a.name));
  fill('publisher', [r.publisher]);
  fill('date', [r.dates?.issued ?? r.publicationYear]);
  fill('type', [r.resourceType?.label]);
  fill('format', (r.files ?? []).map((f) => f.mediaType));
  fill('language', [r.language]);
  fill('rights', [r.license]);
  const named = new Set((r.dc.identifier ?? []).map((v) => {
    const c = classifyIdentifier(v);
    return c ? `${c.type} ${c.value}` : v;
  }));
  const extra = (r.identifiers ?? []).filter((i) => !named.has(`${i.type} ${i.value}`)).map(identifierUri);
  if (extra.length > 0) dc.identifier = [...(r.dc.identifier ?? []), ...extra];
  return dc;
}
