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
  Affiliation,
  Agent,
  Contributor,
  FundingReference,
  Host,
  NameIdentifier,
  RecordDates,
  RecordFields,
  RecordFile,
  RelatedIdentifier,
  ResourceType,
  TypedIdentifier,
} from '../model/record';
import {
  checkFunderIdentifier,
  checkIdentifier,
  checkOrcid,
  checkRelatedIdentifier,
  checkRor,
  checkUrl,
  classifyIdentifier,
  IDENTIFIER_TYPES,
  type IdentifierType,
} from '../model/identifiers';
import {
  ACCESS_RIGHTS,
  COAR_TYPES,
  DATACITE_CONTRIBUTOR_TYPES,
  DATACITE_RELATED_IDENTIFIER_TYPES,
  DATACITE_RELATION_TYPES,
  DATACITE_RESOURCE_TYPES,
  FUNDER_IDENTIFIER_TYPES,
  type AccessRight,
  type ContributorType,
} from '../model/vocabularies';
import { accessRightOf } from '../model/facts';
import { calendarDate, parseW3cdtf } from '../model/dates';
import { isXmlLang, normalizeLanguageTag } from '../model/language';
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

/** A person or organisation as a format names it, before the model's checks. */
export interface AgentInput {
  readonly name?: string | undefined;
  /** DataCite nameType (Personal, Organizational), or `person`/`organization`. */
  readonly nameType?: string | undefined;
  readonly givenName?: string | undefined;
  readonly familyName?: string | undefined;
  /** Name identifiers with their scheme (ORCID is the one the model holds checked; every one with a scheme is kept as given). */
  readonly ids?: readonly { readonly value: string; readonly scheme?: string | undefined; readonly schemeUri?: string | undefined }[];
  readonly affiliations?: readonly {
    readonly name?: string | undefined;
    readonly id?: string | undefined;
    readonly scheme?: string | undefined;
    readonly schemeUri?: string | undefined;
  }[];
  /** The language of the name (xml:lang). */
  readonly lang?: string | undefined;
}

function nameTypeOf(t: string | undefined): Agent['nameType'] {
  const l = t?.trim().toLowerCase();
  if (l === 'personal' || l === 'person') return 'person';
  if (l === 'organizational' || l === 'organization' || l === 'organisation') return 'organization';
  return undefined;
}

/**
 * An agent of the model, or undefined without a name. Without a name but
 * with a family name, the name is "Family, Given", as DataCite writes
 * creatorName. An ORCID iD is taken from an identifier of scheme ORCID or an
 * orcid.org URL, when its check character holds; a ROR id of an affiliation
 * likewise. An organization keeps only its name, affiliations and name
 * identifiers. Every name identifier with a scheme, and every affiliation
 * identifier, is also kept as given (DataCite's nameIdentifier and
 * affiliationIdentifier, of any scheme: ROR, ISNI, Wikidata, GND…).
 *
 * @example toAgent({ name: 'Miller, E.', nameType: 'Personal', ids: [{ value: '0000-0001-5000-0007', scheme: 'ORCID' }] })
 * // → { name: 'Miller, E.', nameType: 'person', orcid: '0000-0001-5000-0007' }
 */
export function toAgent(p: AgentInput): Agent | undefined {
  const given = nonBlank(p.givenName);
  const family = nonBlank(p.familyName);
  const name = nonBlank(p.name) ?? (family !== undefined ? (given !== undefined ? `${family}, ${given}` : family) : undefined);
  if (name === undefined) return undefined;
  const nameType = nameTypeOf(p.nameType);
  const person = nameType !== 'organization';
  let orcid: string | undefined;
  for (const id of p.ids ?? []) {
    const v = nonBlank(id.value);
    if (v === undefined || orcid !== undefined) continue;
    if (id.scheme?.trim().toLowerCase() !== 'orcid' && !/orcid\.org\//i.test(v)) continue;
    const c = checkOrcid(v);
    if ('value' in c) orcid = c.value;
  }
  const affiliations: Affiliation[] = [];
  for (const a of p.affiliations ?? []) {
    const n = nonBlank(a.name);
    if (n === undefined) continue;
    const id = nonBlank(a.id);
    const ror = id !== undefined && (a.scheme?.trim().toLowerCase() === 'ror' || /ror\.org\//i.test(id)) ? checkRor(id) : undefined;
    const scheme = nonBlank(a.scheme);
    const schemeUri = nonBlank(a.schemeUri);
    const rorId = ror !== undefined && 'value' in ror ? ror.value : undefined;
    // A ROR id written the way the DataCite writer writes it says no more than `ror`.
    const plainRor = rorId !== undefined && id === rorId && scheme === 'ROR' && (schemeUri === undefined || schemeUri === 'https://ror.org');
    affiliations.push({
      name: n,
      ...(ror !== undefined && 'value' in ror && { ror: ror.value }),
      ...(id !== undefined && !plainRor && { identifier: id }),
      ...(id !== undefined && !plainRor && scheme !== undefined && { identifierScheme: scheme }),
      ...(id !== undefined && !plainRor && schemeUri !== undefined && { schemeUri }),
    });
  }
  const nameIdentifiers: NameIdentifier[] = [];
  for (const id of p.ids ?? []) {
    const value = nonBlank(id.value);
    const scheme = nonBlank(id.scheme);
    const schemeUri = nonBlank(id.schemeUri);
    if (value === undefined || scheme === undefined) continue;
    // The checked ORCID iD written the way every writer writes it says no more than `orcid`.
    const plainOrcid =
      orcid !== undefined &&
      scheme.toLowerCase() === 'orcid' &&
      value === `https://orcid.org/${orcid}` &&
      (schemeUri === undefined || schemeUri === 'https://orcid.org');
    if (!plainOrcid) nameIdentifiers.push({ value, scheme, ...(schemeUri !== undefined && { schemeUri }) });
  }
  const lang = nonBlank(p.lang);
  const xmlLang = lang !== undefined && isXmlLang(lang) ? lang : undefined;
  return {
    name,
    ...(person && given !== undefined && { givenName: given }),
    ...(person && family !== undefined && { familyName: family }),
    ...(nameType !== undefined && { nameType }),
    ...(person && orcid !== undefined && { orcid }),
    ...(affiliations.length > 0 && { affiliations }),
    ...(nameIdentifiers.length > 0 && { nameIdentifiers }),
    ...(xmlLang !== undefined && { lang: xmlLang }),
  };
}

/**
 * The DataCite contributor type a format names, ignoring case, spaces and
 * hyphens (a MARC relator term "contact person" is ContactPerson), or
 * undefined when it names none.
 *
 * @example contributorType('editor') // 'Editor'
 * @example contributorType('Data collector') // 'DataCollector'
 */
export function contributorType(label: string | undefined): ContributorType | undefined {
  const l = label?.toLowerCase().replace(/[\s-]+/g, '');
  return DATACITE_CONTRIBUTOR_TYPES.find((t) => t.toLowerCase() === l);
}

/** A funder as a format names it, before the model's checks. */
export interface FundingInput {
  readonly funderName?: string | undefined;
  readonly funderIdentifier?: string | undefined;
  readonly funderIdentifierType?: string | undefined;
  readonly awardNumber?: string | undefined;
  readonly awardUri?: string | undefined;
  readonly awardTitle?: string | undefined;
  readonly funderIdentifierSchemeUri?: string | undefined;
  readonly awardTitleLang?: string | undefined;
}

/**
 * A funding reference of the model, or undefined without a funder name. A
 * funder identifier of an unknown type, or refused by its scheme's check, is
 * left out (the model has no free-text place for it), as is an award URI
 * that is not an http(s) URL.
 *
 * @example toFunding({ funderName: 'NSF', funderIdentifier: 'https://doi.org/10.13039/100000001', funderIdentifierType: 'Crossref Funder ID' })
 */
export function toFunding(p: FundingInput): FundingReference | undefined {
  const funderName = nonBlank(p.funderName);
  if (funderName === undefined) return undefined;
  const idType = FUNDER_IDENTIFIER_TYPES.find((t) => t.toLowerCase() === p.funderIdentifierType?.trim().toLowerCase());
  const id = nonBlank(p.funderIdentifier);
  const checked = idType !== undefined && id !== undefined ? checkFunderIdentifier(idType, id) : undefined;
  const awardNumber = nonBlank(p.awardNumber);
  const uri = nonBlank(p.awardUri);
  const awardUri = uri === undefined ? undefined : checkUrl(uri);
  const awardTitle = nonBlank(p.awardTitle);
  const schemeUri = nonBlank(p.funderIdentifierSchemeUri);
  const titleLang = nonBlank(p.awardTitleLang);
  const awardTitleLang = titleLang !== undefined && isXmlLang(titleLang) ? titleLang : undefined;
  return {
    funderName,
    ...(idType !== undefined && checked !== undefined && 'value' in checked && { funderIdentifier: { type: idType, value: checked.value } }),
    ...(awardNumber !== undefined && { awardNumber }),
    ...(awardUri !== undefined && 'value' in awardUri && { awardUri: awardUri.value }),
    ...(awardTitle !== undefined && { awardTitle }),
    ...(schemeUri !== undefined && { funderIdentifierSchemeUri: schemeUri }),
    ...(awardTitle !== undefined && awardTitleLang !== undefined && { awardTitleLang }),
  };
}

/** A related resource as a format names it, before the model's checks. */
export interface RelatedInput {
  readonly identifier?: string | undefined;
  readonly type?: string | undefined;
  readonly relation?: string | undefined;
  readonly resourceTypeGeneral?: string | undefined;
  readonly relatedMetadataScheme?: string | undefined;
  readonly schemeUri?: string | undefined;
  readonly schemeType?: string | undefined;
  readonly relationTypeInformation?: string | undefined;
  /** The identifier of a related item, not a relatedIdentifier of its own (../model/record.ts `RelatedIdentifier`). */
  readonly inRelatedItem?: boolean | undefined;
}

const byLowerCase = <T extends string>(list: readonly T[], v: string | undefined): T | undefined => {
  const l = v?.trim().toLowerCase();
  return l === undefined ? undefined : list.find((x) => x.toLowerCase() === l);
};

/** What DataCite says of a related identifier besides its identifier, type, relation and general type. */
export const RELATED_DETAIL = ['relatedMetadataScheme', 'schemeUri', 'schemeType', 'relationTypeInformation'] as const;

/**
 * Adds a related identifier: its type and relation from DataCite's lists
 * (case-insensitively), its identifier checked as the NDJSON format checks
 * it; otherwise the identifier stays as `dc.relation` text. No repeats.
 *
 * @example addRelated(d, { identifier: '10.5438/0012', type: 'DOI', relation: 'References' })
 */
export function addRelated(d: Draft, p: RelatedInput): void {
  const id = nonBlank(p.identifier);
  if (id === undefined) return;
  const type = byLowerCase(DATACITE_RELATED_IDENTIFIER_TYPES, p.type);
  const relation = byLowerCase(DATACITE_RELATION_TYPES, p.relation);
  const checked = type === undefined ? undefined : checkRelatedIdentifier(type, id);
  if (type === undefined || relation === undefined || checked === undefined || 'error' in checked) {
    addDc(d, 'relation', id);
    return;
  }
  const general = byLowerCase(DATACITE_RESOURCE_TYPES, p.resourceTypeGeneral);
  const more: { -readonly [K in (typeof RELATED_DETAIL)[number]]?: string } = {};
  for (const k of RELATED_DETAIL) {
    const v = nonBlank(p[k]);
    if (v !== undefined) more[k] = v;
  }
  const r: RelatedIdentifier = {
    identifier: checked.value,
    type,
    relation,
    ...(general !== undefined && { resourceTypeGeneral: general }),
    ...more,
    ...(p.inRelatedItem === true && { inRelatedItem: true }),
  };
  // The same relation said twice is said once; one that says anything more about it is another statement.
  const key = (x: RelatedIdentifier): string => JSON.stringify([x.identifier, x.type, x.relation, x.resourceTypeGeneral, ...RELATED_DETAIL.map((k) => x[k])]);
  // A related item's identifier the record also gives as a relatedIdentifier is that one (read first), said once.
  const same = d.relatedIdentifiers.findIndex((x) => key(x) === key(r));
  if (same < 0) d.relatedIdentifiers.push(r);
  else if (r.inRelatedItem !== true && d.relatedIdentifiers[same]?.inRelatedItem === true) d.relatedIdentifiers[same] = r;
}

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
