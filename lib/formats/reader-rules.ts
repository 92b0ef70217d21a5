/**
 * Lifting what a format says into the record model, shared by every reader:
 * a draft record a reader fills as it walks its XML (or JSON), and `finish`,
 * which makes the model of it.
 *
 * The rules every reader keeps, written here once:
 * - A value is text as written, without surrounding whitespace; a blank
 *   value is no value.
 * - A typed field holds only what the model's checks accept (a DOI that is
 *   one, an ORCID iD with its check character, a calendar date); what they
 *   refuse stays as Dublin Core text (`dc.identifier`, `dc.date`,
 *   `dc.language`, `dc.relation`, …), never lost, never guessed into a type.
 * - Every `dc.identifier` value that spells its scheme (classifyIdentifier)
 *   is also a typed identifier, and stays in `dc.identifier`.
 * - Nothing is inferred that the format does not say: no resource type from
 *   a MARC leader, no DOI from a bare `10.…/…` in free text of another field.
 * - The result is a record the NDJSON record format would accept
 *   (lib/model/from-json.ts): an organization has no given name or ORCID iD;
 *   an embargo without its end date is not a typed access right (its COAR URI
 *   stays in `dc.rights`, where accessRightOf still reads it).
 *
 * Pure: no I/O, no clock. A draft is local to one read.
 */
import type { DcElement } from '../model/dublin-core';
import { DC_ELEMENTS } from '../model/dublin-core';
import type {
  Agent,
  Contributor,
  FundingReference,
  Host,
  RecordDates,
  RecordFields,
  RecordFile,
  RelatedIdentifier,
  ResourceType,
  TypedIdentifier,
} from '../model/record';
import { checkIdentifier, checkUrl, classifyIdentifier, IDENTIFIER_TYPES, type IdentifierType } from '../model/identifiers';
import { ACCESS_RIGHTS, COAR_TYPES, DATACITE_RESOURCE_TYPES, type AccessRight } from '../model/vocabularies';
import { accessRightOf } from '../model/facts';
import { calendarDate, parseW3cdtf } from '../model/dates';
import { normalizeLanguageTag } from '../model/language';
import { HOST_PARTS, isMediaType } from '../model/from-json-detail';
import { trimXml } from './xml-in';

/** A record being lifted: what the reader has found so far. */
export interface Draft {
  readonly dc: Partial<Record<DcElement, string[]>>;
  readonly identifiers: TypedIdentifier[];
  readonly creators: Agent[];
  readonly contributors: Contributor[];
  resourceType?: ResourceType;
  accessRights?: AccessRight;
  license?: string;
  publisher?: string;
  publicationYear?: string;
  readonly dates: { -readonly [K in keyof RecordDates]: RecordDates[K] };
  language?: string;
  readonly fundingReferences: FundingReference[];
  readonly relatedIdentifiers: RelatedIdentifier[];
  host?: Host;
  readonly files: RecordFile[];
}

/** An empty draft. @example finish(draft()) // { dc: {} } */
export function draft(): Draft {
  return { dc: {}, identifiers: [], creators: [], contributors: [], dates: {}, fundingReferences: [], relatedIdentifiers: [], files: [] };
}

/** A value without its surrounding whitespace, or undefined when blank or absent. @example nonBlank(' a ') // 'a' */
export function nonBlank(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const t = trimXml(v);
  return t === '' ? undefined : t;
}

/** Adds a value to a Dublin Core element, unless it is blank. @example addDc(d, 'subject', 'Malaria') */
export function addDc(d: Draft, element: DcElement, value: string | undefined): void {
  const v = nonBlank(value);
  if (v !== undefined) (d.dc[element] ??= []).push(v);
}

/**
 * The identifier scheme of the model a format's identifier type names
 * (DataCite and OpenAIRE `identifierType`, MODS `identifier/@type`, MARC
 * 024 `$2`), case-insensitively, or undefined. A PURL is an http URL.
 *
 * @example schemeOf('HANDLE') // 'Handle'
 * @example schemeOf('PMID') // undefined
 */
export function schemeOf(label: string | undefined): IdentifierType | undefined {
  if (label === undefined) return undefined;
  const l = label.trim().toLowerCase();
  if (l === 'purl' || l === 'uri') return 'URL';
  if (l === 'hdl') return 'Handle';
  return IDENTIFIER_TYPES.find((t) => t.toLowerCase() === l);
}

/** Adds a typed identifier once; no repeats of the same scheme and value. */
function pushTyped(d: Draft, id: TypedIdentifier): void {
  if (!d.identifiers.some((i) => i.type === id.type && i.value === id.value)) d.identifiers.push(id);
}

/**
 * Adds an identifier the format types: checked and normalized by its scheme,
 * or, when the check refuses it, kept as `dc.identifier` text.
 *
 * @example addIdentifier(d, 'ISBN', '937-0-4523-12357-6') // not an ISBN: dc.identifier gets the text
 */
export function addIdentifier(d: Draft, type: IdentifierType, value: string | undefined): void {
  const v = nonBlank(value);
  if (v === undefined) return;
  const c = checkIdentifier(type, v);
  if ('value' in c) pushTyped(d, { type, value: c.value });
  else addDc(d, 'identifier', v);
}

/** Sets the language from a BCP 47 tag (the first one), or keeps a value that is not one as `dc.language` text. @example setLanguage(d, 'en_US') // language 'en-US' */
export function setLanguage(d: Draft, value: string | undefined): void {
  const v = nonBlank(value);
  if (v === undefined) return;
  const tag = normalizeLanguageTag(v);
  if (tag !== null && d.language === undefined) d.language = tag;
  else if (tag !== d.language) addDc(d, 'language', v);
}

/**
 * Sets a typed date from a W3CDTF value, in the precision it is written in (a
 * timestamp stays one: oai_dc, MODS, OpenAIRE, DataCite and EDM all carry
 * W3CDTF); the end of an embargo is a full calendar date (OpenAIRE 3.0
 * `info:eu-repo/date/embargoEnd/YYYY-MM-DD`), the day a timestamp names. A
 * second date of the same kind, or text that is not a date, stays as
 * `dc.date` text.
 *
 * @example setDate(d, 'issued', '2003-04-15T10:18:51Z') // dates.issued '2003-04-15T10:18:51Z'
 */
export function setDate(d: Draft, kind: keyof RecordDates, value: string | undefined): void {
  const v = nonBlank(value);
  if (v === undefined) return;
  const w = parseW3cdtf(v);
  const date = w === null ? null : kind === 'embargoEnd' ? calendarDate(w.date, true) : w.text;
  if (date !== null && d.dates[kind] === undefined) d.dates[kind] = date;
  else addDc(d, 'date', v);
}

/** Sets the publisher (the first one); the others stay as `dc.publisher`. @example setPublisher(d, 'Dryad') */
export function setPublisher(d: Draft, value: string | undefined): void {
  const v = nonBlank(value);
  if (v === undefined) return;
  if (d.publisher === undefined) d.publisher = v;
  else addDc(d, 'publisher', v);
}

/** Sets the publication year from four digits; any other text stays as `dc.date`. @example setYear(d, '2011') */
export function setYear(d: Draft, value: string | undefined): void {
  const v = nonBlank(value);
  if (v === undefined) return;
  if (/^\d{4}$/.test(v) && d.publicationYear === undefined) d.publicationYear = v;
  else addDc(d, 'date', v);
}

/** The access right a rights URI or term names: a COAR access right (http or https) or an info:eu-repo access term. @example accessOf('http://purl.org/coar/access_right/c_abf2') // 'open' */
export function accessOf(uri: string | undefined): AccessRight | undefined {
  if (uri === undefined) return undefined;
  return accessRightOf({ dc: { rights: [uri.trim().replace(/^https:\/\/purl\.org\/coar\//, 'http://purl.org/coar/')] } });
}

/**
 * Adds one rights statement: a COAR or info:eu-repo URI is the access right
 * (the first), another http(s) URI the licence (the first); the text stays
 * as `dc.rights` unless it only repeats the URI or the access right's label,
 * and a URI that is neither is kept as text too.
 *
 * @example addRights(d, 'Creative Commons Attribution 4.0', 'https://creativecommons.org/licenses/by/4.0/')
 */
export function addRights(d: Draft, text: string | undefined, uri: string | undefined): void {
  const t = nonBlank(text);
  const u = nonBlank(uri);
  const access = accessOf(u);
  if (access !== undefined) {
    if (d.accessRights === undefined) d.accessRights = access;
    else if (d.accessRights !== access) addDc(d, 'rights', u);
    if (t !== undefined && t !== ACCESS_RIGHTS[access].label && t !== u) addDc(d, 'rights', t);
    return;
  }
  const licence = u === undefined ? undefined : checkUrl(u);
  if (licence !== undefined && 'value' in licence && (d.license === undefined || d.license === licence.value)) d.license = licence.value;
  else addDc(d, 'rights', u);
  if (t !== u) addDc(d, 'rights', t);
}

export const byLowerCase = <T extends string>(list: readonly T[], v: string | undefined): T | undefined => {
  const l = v?.trim().toLowerCase();
  return l === undefined ? undefined : list.find((x) => x.toLowerCase() === l);
};

/** The parts of a host as a format names them, before the model's checks. */
export type HostInput = { readonly [K in keyof Host]?: string | undefined };

/**
 * Sets where the work was published from the first host a format names
 * with any non-blank part; a second host is not the record's (the caller
 * keeps its title as `dc.relation`). Says whether it was taken.
 *
 * @example setHost(d, { title: 'Chemistry', volume: '23', issue: ' ' }) // true: host { title: 'Chemistry', volume: '23' }
 */
export function setHost(d: Draft, p: HostInput): boolean {
  if (d.host !== undefined) return false;
  const host: { -readonly [K in keyof Host]: Host[K] } = {};
  for (const k of HOST_PARTS) {
    const v = nonBlank(p[k]);
    if (v !== undefined) host[k] = v;
  }
  if (Object.keys(host).length === 0) return false;
  d.host = host;
  return true;
}

/**
 * Sets the resource type from a DataCite resourceTypeGeneral and its text
 * (the label, else the general type itself); a general type DataCite 4.7 does
 * not list leaves the type unset, its words kept as `dc.type`.
 *
 * @example setGeneralType(d, 'Text', 'BlogPosting') // resourceType { general: 'Text', label: 'BlogPosting' }
 */
export function setGeneralType(d: Draft, general: string | undefined, label: string | undefined): void {
  const g = byLowerCase(DATACITE_RESOURCE_TYPES, general);
  const l = nonBlank(label);
  if (g !== undefined && d.resourceType === undefined) d.resourceType = { general: g, label: l ?? g };
  else {
    addDc(d, 'type', general);
    if (l !== general) addDc(d, 'type', l);
  }
}

/**
 * Sets the resource type from a COAR resource type URI of the OpenAIRE v4
 * list, with the format's label (else COAR's). A COAR concept outside the
 * list has no DataCite general type the model could name: its label and URI
 * stay as `dc.type`.
 *
 * @example setCoarType(d, 'http://purl.org/coar/resource_type/c_6501', 'journal article')
 */
export function setCoarType(d: Draft, uri: string | undefined, label: string | undefined): void {
  const u = nonBlank(uri)?.replace(/^https:\/\/purl\.org\/coar\//, 'http://purl.org/coar/');
  const known = u === undefined ? undefined : COAR_TYPES.get(u);
  const l = nonBlank(label);
  if (known !== undefined && d.resourceType === undefined) d.resourceType = { coar: known.uri, general: known.datacite, label: l ?? known.label };
  else {
    addDc(d, 'type', l);
    addDc(d, 'type', u);
  }
}

/**
 * Adds a file: its URL when it is an http(s) URL, a media type when it is
 * one (RFC 6838), a size in whole bytes, an access right from a COAR URI.
 *
 * @example addFile(d, 'http://europepmc.org/articles/PMC5574022?pdf=render', { mediaType: 'application/pdf' })
 */
export function addFile(
  d: Draft,
  url: string | undefined,
  more: { readonly mediaType?: string | undefined; readonly size?: string | undefined; readonly access?: string | undefined } = {},
): void {
  const u = nonBlank(url);
  const checked = u === undefined ? undefined : checkUrl(u);
  if (checked === undefined || 'error' in checked) return;
  const mediaType = nonBlank(more.mediaType);
  const size = nonBlank(more.size);
  const access = accessOf(more.access);
  d.files.push({
    url: checked.value,
    ...(mediaType !== undefined && isMediaType(mediaType) && { mediaType: mediaType.toLowerCase() }),
    ...(size !== undefined && /^\d+$/.test(size) && Number.isSafeInteger(Number(size)) && { size: Number(size) }),
    ...(access !== undefined && { access }),
  });
}

/**
 * The record model of a draft: every `dc.identifier` value that spells its
 * scheme becomes a typed identifier too; an embargo without its end date is
 * no typed access right; empty fields are left out.
 *
 * @example finish(draft()) // { dc: {} }
 */
export function finish(d: Draft): RecordFields {
  for (const v of d.dc.identifier ?? []) {
    const c = classifyIdentifier(v);
    if (c) pushTyped(d, c);
  }
  if (d.accessRights === 'embargoed' && d.dates.embargoEnd === undefined) {
    // COAR access rights: an embargo ends on a date (the model's rule, lib/model/from-json.ts).
    delete d.accessRights;
    if (!(d.dc.rights ?? []).includes(ACCESS_RIGHTS.embargoed.uri)) addDc(d, 'rights', ACCESS_RIGHTS.embargoed.uri);
  }
  const dc: Partial<Record<DcElement, string[]>> = {};
  for (const e of DC_ELEMENTS) if ((d.dc[e] ?? []).length > 0) dc[e] = d.dc[e] as string[];
  const dates = Object.keys(d.dates).length > 0 ? { dates: { ...d.dates } } : {};
  return {
    dc,
    ...(d.identifiers.length > 0 && { identifiers: d.identifiers }),
    ...(d.creators.length > 0 && { creators: d.creators }),
    ...(d.contributors.length > 0 && { contributors: d.contributors }),
    ...(d.resourceType !== undefined && { resourceType: d.resourceType }),
    ...(d.accessRights !== undefined && { accessRights: d.accessRights }),
    ...(d.license !== undefined && { license: d.license }),
    ...(d.publisher !== undefined && { publisher: d.publisher }),
    ...(d.publicationYear !== undefined && { publicationYear: d.publicationYear }),
    ...dates,
    ...(d.language !== undefined && { language: d.language }),
    ...(d.fundingReferences.length > 0 && { fundingReferences: d.fundingReferences }),
    ...(d.relatedIdentifiers.length > 0 && { relatedIdentifiers: d.relatedIdentifiers }),
    ...(d.host !== undefined && { host: d.host }),
    ...(d.files.length > 0 && { files: d.files }),
  };
}
