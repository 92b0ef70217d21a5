/**
 * What a record says, read the same way by everyone who asks: every format's
 * writer, the sets by rule, the readiness check, Signposting and the pages.
 * A structured field first, its Dublin Core counterpart second.
 *
 * Pure: no I/O, no clock.
 */
import type { Agent, Contributor, Host, RecordFields, RelatedIdentifier, TypedIdentifier } from './record';
import { ACCESS_RIGHTS, type AccessRight } from './vocabularies';
import { classifyIdentifier, encodeUriName, IDENTIFIER_TYPES, isHttpUrl, normalizeDoi, type IdentifierType } from './identifiers';
import { calendarDate, EU_REPO_DATE, isTimestamp, parseW3cdtf, publicationDateAmong, type W3cdtf } from './dates';
import type { DcElement, DublinCore } from './dublin-core';
import { own } from './own';

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
 * The publication year: the field, else the year of the issued date, else of
 * the `dc.date` that is the publication date (./dates.ts `publicationDateAmong`:
 * never a system's timestamp beside it), else of the first `dc.date` that
 * starts with a year and is not a timestamp.
 *
 * @example publicationYear({ dc: { date: ['spring', '2001-02-03'] } }) // '2001'
 * @example publicationYear({ dc: { date: ['2004-01-12T15:25:06Z', '2000'] } }) // '2000'
 */
export function publicationYear(record: RecordFields): string | undefined {
  if (record.publicationYear !== undefined) return record.publicationYear;
  if (record.dates?.issued !== undefined) return record.dates.issued.slice(0, 4);
  const dates = dcValues(record, 'date');
  const d = publicationDateAmong(dates) ?? dates.find((v) => /^\d{4}(?:\D|$)/.test(v) && !isTimestamp(v));
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

/** A media type list without repeats, in first-seen order: the files' media types, then `dc.format`. @example formats({ dc: { format: ['application/pdf'] }, files: [{ url: 'https://x.org/a', mediaType: 'application/pdf' }] }) // ['application/pdf'] */
export function formats(record: RecordFields): string[] {
  const out: string[] = [];
  for (const f of record.files ?? []) if (f.mediaType !== undefined) out.push(f.mediaType);
  out.push(...dcValues(record, 'format'));
  return [...new Set(out)];
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
    const eu = own(EU_REPO_ACCESS, t);
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
  return (
    (r.fundingReferences ?? []).some((f) => f.awardNumber !== undefined || f.awardUri !== undefined) ||
    (r.dc.relation ?? []).some((v) => v.trim().startsWith('info:eu-repo/grantAgreement/'))
  );
}

// ------------------------------------------------------------------ identifiers and the citation identifier

/**
 * Every identifier of the record in a scheme the model knows: the typed ones,
 * then each `dc:identifier` whose spelling names a scheme
 * (`classifyIdentifier`: a resolver URL, a `doi:`/`hdl:`/`urn:`/`ark:`
 * prefix, …), in the scheme's normalized form, each once.
 *
 * @example recordIdentifiers({ dc: { identifier: ['http://hdl.handle.net/1765/315', 'local-7'] } }) // [{ type: 'Handle', value: '1765/315' }]
 */
export function recordIdentifiers(r: RecordFields): TypedIdentifier[] {
  const out: TypedIdentifier[] = [];
  const seen = new Set<string>();
  const add = (i: TypedIdentifier): void => {
    // DOIs compare without case (DOI Handbook 2.4); the first spelling is kept.
    const key = `${i.type} ${i.type === 'DOI' ? i.value.toUpperCase() : i.value}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(i);
  };
  for (const i of r.identifiers ?? []) add(i);
  for (const v of dcValues(r, 'identifier')) {
    const c = classifyIdentifier(v);
    if (c) add(c);
  }
  return out;
}

/**
 * A typed identifier as a URI, the form Dublin Core, links and `cite-as`
 * want: a DOI or a Handle at its resolver (https://doi.org/…, the DOI
 * Handbook's and Crossref's display form; the Handle.Net proxy
 * https://hdl.handle.net/…), an ARK at N2T.net, the resolver of every ARK
 * (ARK Identifier Scheme, draft-kunze-ark), an ISBN or ISSN as its URN (RFC
 * 3187, RFC 3044), a URN (RFC 8141: a URN is a URI, and its resolvers are per
 * namespace) or URL as it is. A name's characters a URI path cannot hold are
 * percent-encoded.
 *
 * @example identifierUri({ type: 'Handle', value: '1765/315' }) // 'https://hdl.handle.net/1765/315'
 */
export function identifierUri(id: TypedIdentifier): string {
  switch (id.type) {
    case 'DOI':
      return normalizeDoi(id.value) ?? `https://doi.org/${encodeUriName(id.value)}`;
    case 'Handle':
      return `https://hdl.handle.net/${encodeUriName(id.value)}`;
    case 'ARK':
      return `https://n2t.net/${encodeUriName(id.value)}`;
    case 'ISBN':
      return `urn:isbn:${id.value}`;
    case 'ISSN':
      return `urn:issn:${id.value}`;
    case 'URN':
    case 'URL':
      return id.value;
  }
}

/**
 * A host as one bibliographic citation, in the order of LC's 773 $g
 * ("Vol. 17, no. 98, p. 78-159") after its title; the title alone when it
 * has no parts, undefined when it has neither.
 *
 * @example hostCitation({ title: 'Chemistry', volume: '23', issue: '31', startPage: '7444', endPage: '7447' }) // 'Chemistry, Vol. 23, no. 31, p. 7444-7447'
 */
export function hostCitation(h: Host): string | undefined {
  const t = (v: string | undefined): string | undefined => (v === undefined || v.trim() === '' ? undefined : v.trim());
  const start = t(h.startPage);
  const end = t(h.endPage);
  const pages = start !== undefined || end !== undefined ? `p. ${[start, end].filter((x) => x !== undefined).join('-')}` : undefined;
  const volume = t(h.volume);
  const issue = t(h.issue);
  const parts = [t(h.title), volume && `Vol. ${volume}`, issue && `no. ${issue}`, pages].filter((x): x is string => x !== undefined);
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/**
 * The Dublin Core a record says, as oai_dc writes it: each element as the
 * record gives it, with the typed counterparts it does not already say
 * joined to it: creators and contributors (an element the record leaves
 * empty is filled from them; a reader puts a name in `dc` only when no typed
 * field takes it), the publisher first, the dates (the issued date or year first,
 * then accepted and available: Dublin Core's date is any date of the
 * resource's life), the resource type's label, the files' media types, the
 * language first (every language stays: a record in Latin and Old English
 * says both), the licence, and the host as a citation in `source` (OpenAIRE
 * 3.0 / DRIVER: dc:source is the bibliographic citation of the container);
 * typed identifiers the Dublin Core does not already name, in any spelling,
 * join `identifier` as URIs. So a record lifted from DataCite, MODS or MARC,
 * whose creators, publisher, dates and DOI are typed fields, is as complete
 * in oai_dc as the format it came as; a record that gives its Dublin Core is
 * written as it gives it.
 *
 * Two typed fields join what the record gives, as DataCite to Dublin Core
 * Mapping 4.4 maps them: the publication date (the issued date, then the
 * year, each kept) leads `date`, so other dates (Created, Submitted, a Valid
 * range) never stand in for it; and every related identifier (relationType HasPart,
 * IsPartOf, References, …) the record does not already name is a `relation`,
 * as a URI where its scheme has one.
 *
 * @example dublinCore({ dc: { title: ['T'] }, creators: [{ name: 'Curie, Marie' }], identifiers: [{ type: 'DOI', value: '10.5555/x' }] })
 * // → { title: ['T'], creator: ['Curie, Marie'], identifier: ['https://doi.org/10.5555/x'] }
 * @example dublinCore({ dc: { language: ['ang'] }, language: 'lat' }).language // ['lat', 'ang']
 */
export function dublinCore(r: RecordFields): DublinCore {
  const dc: Partial<Record<DcElement, readonly string[]>> = { ...r.dc };
  const fill = (element: DcElement, values: readonly (string | undefined)[]): void => {
    const present = values.filter((v): v is string => v !== undefined && v.trim() !== '');
    if (dcValues(r, element).length === 0 && present.length > 0) dc[element] = present;
  };
  // Typed values first, then the record's own, each once.
  const join = (element: DcElement, values: readonly (string | undefined)[]): void => {
    const all = [...values.filter((v): v is string => v !== undefined && v.trim() !== ''), ...(r.dc[element] ?? [])];
    if (all.length > 0) dc[element] = [...new Set(all)];
  };
  fill(
    'creator',
    (r.creators ?? []).map((a) => a.name),
  );
  fill(
    'contributor',
    (r.contributors ?? []).map((a) => a.name),
  );
  join('publisher', [r.publisher]);
  const d = r.dates ?? {};
  // The publication date leads dc:date (DataCite's and LC's Dublin Core mappings), then the publication year
  // (DataCite to Dublin Core: publicationYear → date), always: a date of the same year that the record gives
  // untyped has a role of its own (DataCite's Created, Submitted, Updated), and does not stand in for either.
  const dates = [d.issued, r.publicationYear, d.accepted, d.available, ...(r.dc.date ?? [])].filter((v): v is string => v !== undefined && v.trim() !== '');
  if (dates.length > 0) dc.date = [...new Set(dates)];
  const relations = new Set(dcValues(r, 'relation').map((v) => v.trim()));
  const related = (r.relatedIdentifiers ?? []).map(relationUri).filter((u) => !relations.has(u));
  if (related.length > 0) dc.relation = [...(r.dc.relation ?? []), ...new Set(related)];
  join('type', [r.resourceType?.label]);
  join(
    'format',
    (r.files ?? []).map((f) => f.mediaType),
  );
  join('language', [r.language]);
  join('rights', [r.license]);
  join('source', [r.host === undefined ? undefined : hostCitation(r.host)]);
  const named = new Set(
    (r.dc.identifier ?? []).map((v) => {
      const c = classifyIdentifier(v);
      return c ? `${c.type} ${c.value}` : v;
    }),
  );
  const extra = (r.identifiers ?? []).filter((i) => !named.has(`${i.type} ${i.value}`)).map(identifierUri);
  if (extra.length > 0) dc.identifier = [...(r.dc.identifier ?? []), ...extra];
  return dc;
}

/**
 * A related identifier as a Dublin Core relation: the URI of a scheme the model
 * types (`identifierUri`), an http(s) URL or a value that names its own scheme
 * as it is, else the value after its DataCite relatedIdentifierType.
 *
 * @example relationUri({ identifier: '10.5061/DRYAD.8515/1', type: 'DOI', relation: 'HasPart' }) // 'https://doi.org/10.5061/DRYAD.8515/1'
 * @example relationUri({ identifier: '19478877', type: 'PMID', relation: 'IsReferencedBy' }) // 'PMID:19478877'
 */
export function relationUri(x: RelatedIdentifier): string {
  const typed = (IDENTIFIER_TYPES as readonly string[]).includes(x.type) ? identifierUri({ type: x.type as IdentifierType, value: x.identifier }) : undefined;
  if (typed !== undefined) return typed;
  if (isHttpUrl(x.identifier) || x.identifier.toLowerCase().startsWith(`${x.type.toLowerCase()}:`)) return x.identifier;
  return `${x.type}:${x.identifier}`;
}

/** The schemes OpenAIRE v4 "Resource Identifier" (M) takes: an identifier of the resource itself, not of its series or edition. */
const RESOURCE_IDENTIFIER_TYPES: readonly IdentifierType[] = ['DOI', 'Handle', 'URN', 'ARK', 'URL'];

/** Whether the record has an identifier of the resource itself: a DOI, Handle, URN, ARK or URL. @example hasResourceIdentifier({ dc: { identifier: ['ISBN 978-3-16-148410-0'] } }) // false */
export function hasResourceIdentifier(r: RecordFields): boolean {
  return recordIdentifiers(r).some((i) => RESOURCE_IDENTIFIER_TYPES.includes(i.type));
}

// ------------------------------------------------------------------ licences, files, kinds of work

const ACCESS_RIGHT_URIS: ReadonlySet<string> = new Set(Object.values(ACCESS_RIGHTS).map((a) => a.uri));

/**
 * The licence URIs a record states: its `dc:rights` values that are http(s)
 * URLs, then its `license` field, each once; a COAR access right URI is not
 * one (it says who may read, not on what terms).
 *
 * @example licences({ dc: { rights: ['Open', 'http://purl.org/coar/access_right/c_abf2', 'https://creativecommons.org/licenses/by/4.0/'] } })
 * // ['https://creativecommons.org/licenses/by/4.0/']
 */
export function licences(r: RecordFields): string[] {
  const all = [...dcValues(r, 'rights').map((v) => v.trim()), ...(r.license !== undefined ? [r.license] : [])];
  return [...new Set(all.filter((v) => isHttpUrl(v) && !ACCESS_RIGHT_URIS.has(v)))];
}

/** A file of the record, as a link: where it is and, when the record says, its media type. */
export interface FileLink {
  readonly href: string;
  readonly type?: string;
}

/** The record's files with an http(s) location, each once. @example fileLinks({ dc: {}, files: [{ url: 'https://r.org/a.pdf', mediaType: 'application/pdf' }] }) // [{ href: 'https://r.org/a.pdf', type: 'application/pdf' }] */
export function fileLinks(r: RecordFields): FileLink[] {
  const seen = new Set<string>();
  const out: FileLink[] = [];
  for (const f of r.files ?? []) {
    if (!isHttpUrl(f.url) || seen.has(f.url)) continue;
    seen.add(f.url);
    out.push({ href: f.url, ...(f.mediaType !== undefined && { type: f.mediaType }) });
  }
  return out;
}

/**
 * The record's full text as a PDF a reader can open, for Google Scholar's
 * `citation_pdf_url` (Google Scholar Inclusion Guidelines: the full text of
 * the work, not a supplement): the first file with an http(s) location whose
 * media type is `application/pdf` (RFC 8118), or, with no media type, whose
 * path ends in `.pdf`, when neither the file nor the record says its access
 * is embargoed, restricted or metadata only.
 *
 * @example openPdf({ dc: {}, files: [{ url: 'https://r.org/a.csv', mediaType: 'text/csv' }, { url: 'https://r.org/a.pdf' }] }) // 'https://r.org/a.pdf'
 */
export function openPdf(r: RecordFields): string | undefined {
  const record = accessRightOf(r);
  for (const f of r.files ?? []) {
    const access = f.access ?? record;
    if (!isHttpUrl(f.url) || (access !== undefined && access !== 'open')) continue;
    const pdf = f.mediaType !== undefined ? f.mediaType.trim().toLowerCase() === 'application/pdf' : /\.pdf$/i.test(new URL(f.url).pathname);
    if (pdf) return f.url;
  }
  return undefined;
}

/** The record's subjects (`dc:subject`), trimmed, each once: its keywords. @example keywords({ dc: { subject: ['Logic ', 'Logic', ''] } }) // ['Logic'] */
export function keywords(r: RecordFields): string[] {
  return [...new Set(dcValues(r, 'subject').map((v) => v.trim()))];
}

/** The record's languages: the typed one, else its `dc:language` values. @example languages({ dc: { language: ['en', ' '] } }) // ['en'] */
export function languages(r: RecordFields): string[] {
  return r.language !== undefined ? [r.language] : dcValues(r, 'language').map((v) => v.trim());
}

// ------------------------------------------------------------------ dates as W3CDTF

/** A date a rule asks for: found and well-formed, present but not W3CDTF (`malformed`: the first such value), or absent. */
export type DateFact = { readonly date: W3cdtf } | { readonly malformed: string } | { readonly missing: true };

/**
 * The publication date of the record as W3CDTF: the typed issued date, else
 * the publication year, else the `dc:date` that is the publication date by
 * what it is (./dates.ts `publicationDateAmong`: stock DSpace's accession and
 * availability timestamps are not). A record whose dates are all timestamps
 * of different instants has none (missing); one whose only dates are not
 * W3CDTF has a malformed date, not a missing one; info:eu-repo date terms do
 * not count.
 *
 * @example publicationDate({ dc: { date: ['15.04.2003'] } }) // { malformed: '15.04.2003' }
 * @example publicationDate({ dc: { date: ['2004-01-12T15:25:06Z', '2004-01-12T15:25:06Z', '2000'] } }) // { date: { text: '2000', … } }
 */
export function publicationDate(r: RecordFields): DateFact {
  const typed = r.dates?.issued ?? r.publicationYear;
  if (typed !== undefined) return firstW3cdtf([typed]);
  const values = dcValues(r, 'date')
    .map((v) => v.trim())
    .filter((v) => !v.startsWith(EU_REPO_DATE));
  const found = publicationDateAmong(values);
  if (found !== undefined) return firstW3cdtf([found]);
  return values.some((v) => parseW3cdtf(v) !== null) ? { missing: true } : firstW3cdtf(values);
}

/**
 * The W3CDTF date among dates that should all be one: the first that is, else
 * the first value as malformed, else missing.
 *
 * @example firstW3cdtf(['spring 2001', '2001-03']) // { date: { text: '2001-03', … } }
 */
export function firstW3cdtf(values: readonly string[]): DateFact {
  for (const v of values) {
    const date = parseW3cdtf(v);
    if (date) return { date };
  }
  const first = values[0];
  return first === undefined ? { missing: true } : { malformed: first };
}

/**
 * The end of the record's embargo: the typed date, else a `dc:date`
 * `info:eu-repo/date/embargoEnd/YYYY-MM-DD` (OpenAIRE 3.0, "Embargo End
 * Date"), whose date must be a full calendar date.
 *
 * @example embargoEnd({ dc: { date: ['info:eu-repo/date/embargoEnd/2030-02-30'] } }) // { malformed: 'info:eu-repo/date/embargoEnd/2030-02-30' }
 */
export function embargoEnd(r: RecordFields): DateFact {
  const typed = r.dates?.embargoEnd;
  if (typed !== undefined) return firstW3cdtf([typed]);
  const terms = dcValues(r, 'date')
    .map((v) => v.trim())
    .filter((v) => v.startsWith(`${EU_REPO_DATE}embargoEnd/`));
  for (const t of terms) {
    const day = calendarDate(t.slice(`${EU_REPO_DATE}embargoEnd/`.length), true);
    if (day !== null) return { date: { text: t, date: day, year: day.slice(0, 4), hasTime: false } };
  }
  const first = terms[0];
  return first === undefined ? { missing: true } : { malformed: first };
}
