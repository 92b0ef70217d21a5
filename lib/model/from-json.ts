/**
 * Reading the typed record model (./record.ts): the fifteen Dublin
 * Core fields of the record format, plus the optional structured fields that
 * the richer metadata formats need. README.md ("Record fields") documents
 * every field.
 *
 * `parseRecordFields` reads these fields from the JSON of one NDJSON record
 * and returns the model or every refusal, each naming the field path
 * (`creators[1].orcid`) and the reason, in the store's `Refusal` shape. It
 * reads only `dc` and the keys of `RECORD_FIELD_KEYS`; `id`, `datestamp`,
 * `sets`, `deleted` and `metadata` stay the record reader's. A record with
 * only `dc` parses as it always did: same values, same refusals.
 *
 * Pure: no I/O, no clock.
 */
import { DC_ELEMENTS } from './dublin-core';
import type { DublinCore, DcElement } from './dublin-core';
import type { Refusal } from './refusal';
import { calendarDate, parseW3cdtf } from './dates';
import { isXmlLang, normalizeLanguageTag } from './language';
import { findNonXmlChar } from './text';
import { checkFunderIdentifier, checkIdentifier, checkOrcid, checkRelatedIdentifier, checkRor, checkUrl, IDENTIFIER_TYPES, type Checked } from './identifiers';
import type {
  Affiliation,
  Agent,
  Contributor,
  FundingReference,
  GeoLocation,
  GeoPoint,
  Host,
  NameIdentifier,
  RecordDates,
  RelatedItem,
  RelatedItemAgent,
  TitleEntry,
  RecordFields,
  RecordFile,
  RelatedIdentifier,
  ResourceType,
  TypedIdentifier,
} from './record';
import {
  ACCESS_RIGHTS,
  COAR_RESOURCE_TYPE_PREFIX,
  COAR_TYPES,
  DATACITE_CONTRIBUTOR_TYPES,
  DATACITE_DATE_TYPES,
  DATACITE_DESCRIPTION_TYPES,
  DATACITE_NUMBER_TYPES,
  DATACITE_TITLE_TYPES,
  DATACITE_RELATED_IDENTIFIER_TYPES,
  DATACITE_RELATION_TYPES,
  DATACITE_RESOURCE_TYPES,
  FUNDER_IDENTIFIER_TYPES,
  type AccessRight,
} from './vocabularies';

/** The record keys this module reads besides `dc` (the record reader accepts them as known fields). */
export const RECORD_FIELD_KEYS = [
  'identifiers',
  'creators',
  'contributors',
  'resourceType',
  'accessRights',
  'license',
  'publisher',
  'publicationYear',
  'dates',
  'language',
  'fundingReferences',
  'relatedIdentifiers',
  'host',
  'files',
  'titles',
  'publisherIdentifier',
  'publisherLang',
  'subjects',
  'typedDates',
  'alternateIdentifiers',
  'sizes',
  'version',
  'rightsList',
  'descriptions',
  'geoLocations',
  'relatedItems',
  'uncheckedRelatedIdentifiers',
] as const;

/** The parts of `host` (./record.ts `Host`), in citation order. */
export const HOST_PARTS = ['title', 'volume', 'issue', 'startPage', 'endPage'] as const;

/** Where a record came from, for its refusals. */
export interface RecordOrigin {
  readonly internalId: string;
  readonly source?: string;
}

type Refuse = (field: string, reason: string) => void;
type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads `dc` and the structured fields of one record's JSON into the typed
 * model, or returns every refusal (field path and reason). Identifiers are
 * normalized (a DOI loses its resolver prefix, an ISSN gains its hyphen, a
 * ROR id becomes its URL); text is kept as given.
 *
 * @example
 * parseRecordFields({ id: 'a', dc: { title: 'T' }, creators: [{ name: 'Curie, Marie', orcid: '0000-0002-1825-0097' }] }, { internalId: 'a' })
 * // → { fields: { dc: { title: ['T'] }, creators: [{ name: 'Curie, Marie', orcid: '0000-0002-1825-0097' }] } }
 */
export function parseRecordFields(rec: Obj, origin: RecordOrigin): { fields: RecordFields } | { refusals: Refusal[] } {
  const refusals: Refusal[] = [];
  const refuse: Refuse = (field, reason) => {
    refusals.push({ internalId: origin.internalId, ...(origin.source !== undefined && { source: origin.source }), field, reason });
  };
  const fields: { -readonly [K in keyof RecordFields]: RecordFields[K] } = { dc: readDublinCore(rec.dc, refuse) };
  const list = <T>(key: string, item: (v: unknown, path: string) => T | undefined): T[] | undefined => {
    const raw = rec[key];
    if (raw === undefined) return undefined;
    if (!Array.isArray(raw)) {
      refuse(key, 'must be an array');
      return undefined;
    }
    const out: T[] = [];
    raw.forEach((v, i) => {
      const r = item(v, `${key}[${i}]`);
      if (r !== undefined) out.push(r);
    });
    return out;
  };

  const identifiers = list('identifiers', (v, p) => readTypedIdentifier(v, p, refuse));
  if (identifiers) fields.identifiers = identifiers;
  const creators = list('creators', (v, p) => readAgent(v, p, refuse, false));
  if (creators) fields.creators = creators;
  const contributors = list('contributors', (v, p) => readAgent(v, p, refuse, true) as Contributor | undefined);
  if (contributors) fields.contributors = contributors;
  if (rec.resourceType !== undefined) {
    const t = readResourceType(rec.resourceType, refuse);
    if (t) fields.resourceType = t;
  }
  if (rec.accessRights !== undefined) {
    const a = readAccessRight(rec.accessRights, 'accessRights', refuse);
    if (a) fields.accessRights = a;
  }
  if (rec.license !== undefined) {
    const l = readChecked(rec.license, 'license', refuse, checkUrl);
    if (l !== undefined) fields.license = l;
  }
  if (rec.publisher !== undefined) {
    const p = readText(rec.publisher, 'publisher', refuse);
    if (p !== undefined) fields.publisher = p;
  }
  if (rec.publicationYear !== undefined) {
    const y = rec.publicationYear;
    const s = typeof y === 'number' && Number.isInteger(y) ? String(y) : y;
    if (typeof s !== 'string' || !/^\d{4}$/.test(s)) refuse('publicationYear', 'must be a four-digit year');
    else fields.publicationYear = s;
  }
  if (rec.dates !== undefined) {
    const d = readDates(rec.dates, refuse);
    if (d) fields.dates = d;
  }
  if (rec.language !== undefined) {
    // RFC 5646: DSpace's en_US is read as en-US; a three-letter code such as eng is a language subtag too.
    const tag = typeof rec.language === 'string' ? normalizeLanguageTag(rec.language) : null;
    if (tag === null) refuse('language', 'must be a BCP 47 language tag (RFC 5646), e.g. en, en-US or eng');
    else fields.language = tag;
  }
  const funding = list('fundingReferences', (v, p) => readFunding(v, p, refuse));
  if (funding) fields.fundingReferences = funding;
  const related = list('relatedIdentifiers', (v, p) => readRelated(v, p, refuse));
  if (related) fields.relatedIdentifiers = related;
  if (rec.host !== undefined) {
    const h = readHost(rec.host, refuse);
    if (h) fields.host = h;
  }
  const files = list('files', (v, p) => readFile(v, p, refuse));
  if (files) fields.files = files;
  readDataciteDetail(rec, fields, list, refuse);

  // COAR access rights: an embargo ends on a date; OpenAIRE v4 writes it as the "Available" date.
  if (
    fields.accessRights === 'embargoed' &&
    fields.dates?.embargoEnd === undefined &&
    !refusals.some((r) => r.field === 'dates.embargoEnd' || r.field === 'dates')
  ) {
    refuse('dates.embargoEnd', 'required when accessRights is embargoed');
  }
  return refusals.length > 0 ? { refusals } : { fields };
}

/** Reads `dc` exactly as the record format always has: the fifteen elements, each a string or an array of strings. */
function readDublinCore(raw: unknown, refuse: Refuse): DublinCore {
  const dc: Partial<Record<DcElement, string[]>> = {};
  if (raw === undefined) return dc;
  if (!isObject(raw)) {
    refuse('dc', 'must be an object of Dublin Core elements');
    return dc;
  }
  for (const [name, values] of Object.entries(raw)) {
    if (!(DC_ELEMENTS as readonly string[]).includes(name)) {
      refuse(`dc.${name}`, 'not one of the fifteen Dublin Core elements');
      continue;
    }
    const list = typeof values === 'string' ? [values] : values;
    if (!Array.isArray(list) || list.some((v) => typeof v !== 'string')) {
      refuse(`dc.${name}`, 'must be a string or an array of strings');
      continue;
    }
    for (const v of list as string[]) {
      const bad = findNonXmlChar(v);
      if (bad) refuse(`dc.${name}`, `holds a character XML 1.0 cannot carry (${bad})`);
    }
    dc[name as DcElement] = list as string[];
  }
  return dc;
}

/** A refusal function that also says whether it has been called: an object with any refusal is left out. */
function tracked(refuse: Refuse): { r: Refuse; failed: () => boolean } {
  let failed = false;
  return {
    r: (field, reason) => {
      failed = true;
      refuse(field, reason);
    },
    failed: () => failed,
  };
}

/** A non-empty string XML can carry, or a refusal. */
function readText(v: unknown, path: string, refuse: Refuse): string | undefined {
  if (typeof v !== 'string' || v.trim() === '') {
    refuse(path, 'must be a non-empty string');
    return undefined;
  }
  const bad = findNonXmlChar(v);
  if (bad) {
    refuse(path, `holds a character XML 1.0 cannot carry (${bad})`);
    return undefined;
  }
  return v;
}

function readChecked(v: unknown, path: string, refuse: Refuse, check: (s: string) => Checked): string | undefined {
  const s = readText(v, path, refuse);
  if (s === undefined) return undefined;
  const c = check(s);
  if ('error' in c) {
    refuse(path, `${JSON.stringify(s)}: ${c.error}`);
    return undefined;
  }
  return c.value;
}

function readEnum<T extends string>(v: unknown, path: string, values: readonly T[], refuse: Refuse): T | undefined {
  if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T;
  refuse(path, `must be one of ${values.join(', ')}`);
  return undefined;
}

/** An object with only the given keys, or a refusal (unknown keys are refused, as at the top level). */
function readObject(v: unknown, path: string, keys: readonly string[], refuse: Refuse): Obj | undefined {
  if (!isObject(v)) {
    refuse(path, 'must be an object');
    return undefined;
  }
  let ok = true;
  for (const k of Object.keys(v)) {
    if (!keys.includes(k)) {
      refuse(`${path}.${k}`, `unknown field (expected ${keys.join(', ')})`);
      ok = false;
    }
  }
  return ok ? v : undefined;
}

function readTypedIdentifier(v: unknown, path: string, refuse: Refuse): TypedIdentifier | undefined {
  const o = readObject(v, path, ['type', 'value'], refuse);
  if (!o) return undefined;
  const type = readEnum(o.type, `${path}.type`, IDENTIFIER_TYPES, refuse);
  if (!type) return undefined;
  const value = readChecked(o.value, `${path}.value`, refuse, (s) => checkIdentifier(type, s));
  return value === undefined ? undefined : { type, value };
}

const AGENT_KEYS = ['name', 'givenName', 'familyName', 'nameType', 'orcid', 'affiliations', 'nameIdentifiers', 'lang'];

function readAgent(v: unknown, path: string, refuse: Refuse, contributor: boolean): Agent | Contributor | undefined {
  const o = readObject(v, path, contributor ? [...AGENT_KEYS, 'type'] : AGENT_KEYS, refuse);
  if (!o) return undefined;
  const { r, failed } = tracked(refuse);
  const name = readText(o.name, `${path}.name`, r);
  const out: { -readonly [K in keyof Contributor]?: Contributor[K] } = {};
  if (name !== undefined) out.name = name;
  if (o.givenName !== undefined) {
    const g = readText(o.givenName, `${path}.givenName`, r);
    if (g !== undefined) out.givenName = g;
  }
  if (o.familyName !== undefined) {
    const f = readText(o.familyName, `${path}.familyName`, r);
    if (f !== undefined) out.familyName = f;
  }
  if (o.nameType !== undefined) {
    const t = readEnum(o.nameType, `${path}.nameType`, ['person', 'organization'] as const, r);
    if (t) out.nameType = t;
  }
  if (out.nameType === 'organization') {
    // DataCite kernel-4 (creatorName/@nameType): given and family names and an ORCID iD belong to persons.
    for (const k of ['givenName', 'familyName', 'orcid'] as const)
      if (o[k] !== undefined) r(`${path}.${k}`, 'only a person has one (nameType is organization)');
  }
  if (o.orcid !== undefined) {
    const id = readChecked(o.orcid, `${path}.orcid`, r, checkOrcid);
    if (id !== undefined) out.orcid = id;
  }
  if (o.affiliations !== undefined) {
    if (!Array.isArray(o.affiliations)) r(`${path}.affiliations`, 'must be an array');
    else {
      const affs: Affiliation[] = [];
      o.affiliations.forEach((a, i) => {
        const p = `${path}.affiliations[${i}]`;
        const ao = readObject(a, p, ['name', 'ror', 'identifier', 'identifierScheme', 'schemeUri'], r);
        if (!ao) return;
        const n = readText(ao.name, `${p}.name`, r);
        const ror = ao.ror === undefined ? undefined : readChecked(ao.ror, `${p}.ror`, r, checkRor);
        const more = readTexts(ao, p, ['identifier', 'identifierScheme', 'schemeUri'], r);
        if (n !== undefined) affs.push({ name: n, ...(ror !== undefined && { ror }), ...more });
      });
      out.affiliations = affs;
    }
  }
  if (o.nameIdentifiers !== undefined) {
    const ids = readList(o.nameIdentifiers, `${path}.nameIdentifiers`, r, (v, p) => {
      const io = readObject(v, p, ['value', 'scheme', 'schemeUri'], r);
      if (!io) return undefined;
      const value = readText(io.value, `${p}.value`, r);
      const scheme = readText(io.scheme, `${p}.scheme`, r);
      const more = readTexts(io, p, ['schemeUri'], r);
      return value === undefined || scheme === undefined ? undefined : ({ value, scheme, ...more } as NameIdentifier);
    });
    if (ids) out.nameIdentifiers = ids;
  }
  if (o.lang !== undefined) {
    const l = readLang(o.lang, `${path}.lang`, r);
    if (l !== undefined) out.lang = l;
  }
  if (contributor) {
    const t = readEnum(o.type, `${path}.type`, DATACITE_CONTRIBUTOR_TYPES, r);
    if (t) out.type = t;
  }
  return failed() ? undefined : (out as Contributor);
}

function readResourceType(v: unknown, refuse: Refuse): ResourceType | undefined {
  const o = readObject(v, 'resourceType', ['coar', 'general', 'label'], refuse);
  if (!o) return undefined;
  const { r, failed } = tracked(refuse);
  let coar: string | undefined;
  if (o.coar !== undefined) {
    if (typeof o.coar !== 'string' || !o.coar.startsWith(COAR_RESOURCE_TYPE_PREFIX) || !/^c_[0-9a-z]+$/.test(o.coar.slice(COAR_RESOURCE_TYPE_PREFIX.length))) {
      r('resourceType.coar', `must be a COAR resource type URI (${COAR_RESOURCE_TYPE_PREFIX}c_…)`);
    } else coar = o.coar;
  }
  const general = o.general === undefined ? undefined : readEnum(o.general, 'resourceType.general', DATACITE_RESOURCE_TYPES, r);
  const label = o.label === undefined ? undefined : readText(o.label, 'resourceType.label', r);
  if (failed()) return undefined;
  const known = coar === undefined ? undefined : COAR_TYPES.get(coar);
  const g = general ?? known?.datacite;
  if (g === undefined) {
    refuse(
      coar === undefined ? 'resourceType' : 'resourceType.general',
      coar === undefined ? 'needs a COAR type (coar) or a DataCite resourceTypeGeneral (general)' : 'required for a COAR type outside the OpenAIRE v4 list',
    );
    return undefined;
  }
  return { ...(coar !== undefined && { coar }), general: g, label: label ?? known?.label ?? g };
}

function readAccessRight(v: unknown, path: string, refuse: Refuse): AccessRight | undefined {
  for (const [key, { uri }] of Object.entries(ACCESS_RIGHTS)) if (v === key || v === uri) return key as AccessRight;
  refuse(path, `must be one of ${Object.keys(ACCESS_RIGHTS).join(', ')} or its COAR access right URI`);
  return undefined;
}

function readDates(v: unknown, refuse: Refuse): RecordDates | undefined {
  const o = readObject(v, 'dates', ['issued', 'accepted', 'available', 'embargoEnd'], refuse);
  if (!o) return undefined;
  const out: { -readonly [K in keyof RecordDates]: RecordDates[K] } = {};
  for (const k of ['issued', 'accepted', 'available', 'embargoEnd'] as const) {
    const raw = o[k];
    if (raw === undefined) continue;
    const full = k === 'embargoEnd';
    // An embargo ends on a day; the other dates may be timestamps (W3CDTF), kept in their precision.
    const d = typeof raw === 'string' ? (full ? calendarDate(raw, true) : (parseW3cdtf(raw)?.text ?? null)) : null;
    if (d === null)
      refuse(
        `dates.${k}`,
        full ? 'must be an ISO 8601 date YYYY-MM-DD' : 'must be an ISO 8601 date (W3CDTF): YYYY, YYYY-MM, YYYY-MM-DD or a day with a time and zone',
      );
    else out[k] = d;
  }
  return out;
}

function readFunding(v: unknown, path: string, refuse: Refuse): FundingReference | undefined {
  const o = readObject(
    v,
    path,
    ['funderName', 'funderIdentifier', 'awardNumber', 'awardUri', 'awardTitle', 'funderIdentifierSchemeUri', 'awardTitleLang'],
    refuse,
  );
  if (!o) return undefined;
  const { r, failed } = tracked(refuse);
  const funderName = readText(o.funderName, `${path}.funderName`, r);
  const out: { -readonly [K in keyof FundingReference]?: FundingReference[K] } = {};
  if (o.funderIdentifier !== undefined) {
    const p = `${path}.funderIdentifier`;
    const fo = readObject(o.funderIdentifier, p, ['type', 'value'], r);
    if (fo) {
      const type = readEnum(fo.type, `${p}.type`, FUNDER_IDENTIFIER_TYPES, r);
      const value = type === undefined ? undefined : readChecked(fo.value, `${p}.value`, r, (s) => checkFunderIdentifier(type, s));
      if (type !== undefined && value !== undefined) out.funderIdentifier = { type, value };
    }
  }
  if (o.awardNumber !== undefined) {
    const a = readText(o.awardNumber, `${path}.awardNumber`, r);
    if (a !== undefined) out.awardNumber = a;
  }
  if (o.awardUri !== undefined) {
    const a = readChecked(o.awardUri, `${path}.awardUri`, r, checkUrl);
    if (a !== undefined) out.awardUri = a;
  }
  if (o.awardTitle !== undefined) {
    const a = readText(o.awardTitle, `${path}.awardTitle`, r);
    if (a !== undefined) out.awardTitle = a;
  }
  Object.assign(out, readTexts(o, path, ['funderIdentifierSchemeUri'], r));
  if (o.awardTitleLang !== undefined) {
    const l = readLang(o.awardTitleLang, `${path}.awardTitleLang`, r);
    if (l !== undefined) out.awardTitleLang = l;
  }
  if (failed() || funderName === undefined) return undefined;
  return { funderName, ...out };
}

/**
 * A related identifier: its value checked by its scheme, or (`unchecked`,
 * record.ts `uncheckedRelatedIdentifiers`) kept as given, any non-blank text.
 */
function readRelated(v: unknown, path: string, refuse: Refuse, unchecked = false): RelatedIdentifier | undefined {
  const o = readObject(
    v,
    path,
    ['identifier', 'type', 'relation', 'resourceTypeGeneral', ...(unchecked ? [] : ['inRelatedItem']), ...RELATED_DETAIL_KEYS],
    refuse,
  );
  if (!o) return undefined;
  const { r, failed } = tracked(refuse);
  const more = readTexts(o, path, RELATED_DETAIL_KEYS, r);
  const type = readEnum(o.type, `${path}.type`, DATACITE_RELATED_IDENTIFIER_TYPES, r);
  const relation = readEnum(o.relation, `${path}.relation`, DATACITE_RELATION_TYPES, r);
  const general = o.resourceTypeGeneral === undefined ? undefined : readEnum(o.resourceTypeGeneral, `${path}.resourceTypeGeneral`, DATACITE_RESOURCE_TYPES, r);
  const identifier = readChecked(o.identifier, `${path}.identifier`, r, (s) =>
    type === undefined || unchecked ? { value: s } : checkRelatedIdentifier(type, s),
  );
  if (failed() || type === undefined || relation === undefined || identifier === undefined) return undefined;
  if (o.inRelatedItem !== undefined && o.inRelatedItem !== true) r(`${path}.inRelatedItem`, 'must be true when given');
  if (failed()) return undefined;
  return {
    identifier,
    type,
    relation,
    ...(general !== undefined && { resourceTypeGeneral: general }),
    ...more,
    ...(o.inRelatedItem === true && { inRelatedItem: true }),
  };
}

/**
 * Reads `host`: an object of text parts (./record.ts `Host`), at least one;
 * a volume, issue or page may be given as a whole number, kept as its digits.
 */
function readHost(v: unknown, refuse: Refuse): Host | undefined {
  const o = readObject(v, 'host', HOST_PARTS, refuse);
  if (!o) return undefined;
  const { r, failed } = tracked(refuse);
  const out: { -readonly [K in keyof Host]: Host[K] } = {};
  for (const k of HOST_PARTS) {
    const raw = o[k];
    if (raw === undefined) continue;
    const t = k !== 'title' && typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0 ? String(raw) : raw;
    const text = readText(t, `host.${k}`, r);
    if (text !== undefined) out[k] = text;
  }
  if (failed()) return undefined;
  if (Object.keys(out).length === 0) {
    refuse('host', `needs at least one of ${HOST_PARTS.join(', ')}`);
    return undefined;
  }
  return out;
}

/**
 * Whether a value is a media type (RFC 6838 section 4.2: type "/" subtype, restricted-name characters).
 *
 * @example isMediaType('application/pdf') // true
 * @example isMediaType('PDF') // false
 */
export function isMediaType(s: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/.test(s);
}

function readFile(v: unknown, path: string, refuse: Refuse): RecordFile | undefined {
  const o = readObject(v, path, ['url', 'mediaType', 'size', 'access'], refuse);
  if (!o) return undefined;
  const { r, failed } = tracked(refuse);
  const url = readChecked(o.url, `${path}.url`, r, checkUrl);
  const out: { -readonly [K in keyof RecordFile]?: RecordFile[K] } = {};
  if (o.mediaType !== undefined) {
    if (typeof o.mediaType !== 'string' || !isMediaType(o.mediaType)) {
      r(`${path}.mediaType`, 'must be a media type such as application/pdf');
    } else out.mediaType = o.mediaType.toLowerCase();
  }
  if (o.size !== undefined) {
    if (typeof o.size !== 'number' || !Number.isSafeInteger(o.size) || o.size < 0) r(`${path}.size`, 'must be a whole number of bytes, zero or more');
    else out.size = o.size;
  }
  if (o.access !== undefined) {
    const a = readAccessRight(o.access, `${path}.access`, r);
    if (a) out.access = a;
  }
  if (failed() || url === undefined) return undefined;
  return { url, ...out };
}

/** What a related identifier may say besides its identifier, type, relation and general type (DataCite 4.7 property 12). */
const RELATED_DETAIL_KEYS = ['relatedMetadataScheme', 'schemeUri', 'schemeType', 'relationTypeInformation'] as const;

/** An array read item by item (each refused item left out), or undefined with a refusal when it is not an array. */
function readList<T>(v: unknown, path: string, refuse: Refuse, item: (v: unknown, path: string) => T | undefined): T[] | undefined {
  if (!Array.isArray(v)) {
    refuse(path, 'must be an array');
    return undefined;
  }
  const out: T[] = [];
  v.forEach((x, i) => {
    const r = item(x, `${path}[${i}]`);
    if (r !== undefined) out.push(r);
  });
  return out;
}

/** The optional text keys of an object that are given, each a non-empty string. */
function readTexts<K extends string>(o: Obj, path: string, keys: readonly K[], refuse: Refuse): { [P in K]?: string } {
  const out: { [P in K]?: string } = {};
  for (const k of keys) {
    if (o[k] === undefined) continue;
    const t = readText(o[k], `${path}.${k}`, refuse);
    if (t !== undefined) out[k] = t;
  }
  return out;
}

/** An xml:lang value (XML 1.0 section 2.12), or a refusal. */
function readLang(v: unknown, path: string, refuse: Refuse): string | undefined {
  if (typeof v === 'string' && isXmlLang(v)) return v;
  refuse(path, 'must be a language tag as xml:lang takes it, e.g. en or en-GB');
  return undefined;
}

/** A decimal degree within a bound, or a refusal. */
function readDegrees(v: unknown, path: string, bound: number, refuse: Refuse): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= bound) return v;
  refuse(path, `must be a number of degrees from -${bound} to ${bound}`);
  return undefined;
}

function readPoint(v: unknown, path: string, refuse: Refuse): GeoPoint | undefined {
  const o = readObject(v, path, ['latitude', 'longitude'], refuse);
  if (!o) return undefined;
  const latitude = readDegrees(o.latitude, `${path}.latitude`, 90, refuse);
  const longitude = readDegrees(o.longitude, `${path}.longitude`, 180, refuse);
  return latitude === undefined || longitude === undefined ? undefined : { latitude, longitude };
}

/** An object of text keys (the first required), an enum key, and a language, as the DataCite detail lists have them. */
function readEntry<T>(
  v: unknown,
  path: string,
  refuse: Refuse,
  spec: {
    readonly required: string;
    readonly texts: readonly string[];
    readonly enumKey?: { readonly key: string; readonly values: readonly string[]; readonly required: boolean };
  },
): T | undefined {
  const keys = [spec.required, ...spec.texts, 'lang', ...(spec.enumKey ? [spec.enumKey.key] : [])];
  const o = readObject(v, path, keys, refuse);
  if (!o) return undefined;
  const { r, failed } = tracked(refuse);
  const first = readText(o[spec.required], `${path}.${spec.required}`, r);
  const out: Record<string, string | undefined> = { ...readTexts(o, path, spec.texts, r) };
  if (spec.enumKey && (o[spec.enumKey.key] !== undefined || spec.enumKey.required)) {
    const e = readEnum(o[spec.enumKey.key], `${path}.${spec.enumKey.key}`, spec.enumKey.values, r);
    if (e !== undefined) out[spec.enumKey.key] = e;
  }
  if (o.lang !== undefined) {
    const l = readLang(o.lang, `${path}.lang`, r);
    if (l !== undefined) out.lang = l;
  }
  if (failed() || first === undefined) return undefined;
  return { [spec.required]: first, ...out } as T;
}

function readTitle(v: unknown, path: string, refuse: Refuse): TitleEntry | undefined {
  return readEntry<TitleEntry>(v, path, refuse, { required: 'value', texts: [], enumKey: { key: 'type', values: DATACITE_TITLE_TYPES, required: false } });
}

function readItemAgent(v: unknown, path: string, refuse: Refuse, contributor: boolean): RelatedItemAgent | undefined {
  const o = readObject(v, path, ['name', 'nameType', 'givenName', 'familyName', 'lang', ...(contributor ? ['type'] : [])], refuse);
  if (!o) return undefined;
  const { r, failed } = tracked(refuse);
  const name = readText(o.name, `${path}.name`, r);
  const out: { -readonly [K in keyof RelatedItemAgent]?: RelatedItemAgent[K] } = { ...readTexts(o, path, ['givenName', 'familyName'], r) };
  if (o.nameType !== undefined) {
    const t = readEnum(o.nameType, `${path}.nameType`, ['person', 'organization'] as const, r);
    if (t) out.nameType = t;
  }
  if (o.lang !== undefined) {
    const l = readLang(o.lang, `${path}.lang`, r);
    if (l !== undefined) out.lang = l;
  }
  if (contributor) {
    const t = readEnum(o.type, `${path}.type`, DATACITE_CONTRIBUTOR_TYPES, r);
    if (t) out.type = t;
  }
  return failed() || name === undefined ? undefined : { name, ...out };
}

const ITEM_PARTS = ['publicationYear', 'volume', 'issue', 'firstPage', 'lastPage', 'publisher', 'edition', 'relationTypeInformation'] as const;

function readRelatedItem(v: unknown, path: string, refuse: Refuse): RelatedItem | undefined {
  const o = readObject(v, path, ['itemType', 'relation', 'identifier', 'creators', 'titles', 'number', 'contributors', ...ITEM_PARTS], refuse);
  if (!o) return undefined;
  const { r, failed } = tracked(refuse);
  const itemType = readEnum(o.itemType, `${path}.itemType`, DATACITE_RESOURCE_TYPES, r);
  const relation = readEnum(o.relation, `${path}.relation`, DATACITE_RELATION_TYPES, r);
  const out: { -readonly [K in keyof RelatedItem]?: RelatedItem[K] } = { ...readTexts(o, path, ITEM_PARTS, r) };
  if (o.identifier !== undefined) {
    const p = `${path}.identifier`;
    const io = readObject(o.identifier, p, ['value', 'type', ...RELATED_DETAIL_KEYS.filter((k) => k !== 'relationTypeInformation')], r);
    if (io) {
      const value = readText(io.value, `${p}.value`, r);
      const type = io.type === undefined ? undefined : readEnum(io.type, `${p}.type`, DATACITE_RELATED_IDENTIFIER_TYPES, r);
      const more = readTexts(io, p, ['relatedMetadataScheme', 'schemeUri', 'schemeType'], r);
      if (value !== undefined) out.identifier = { value, ...(type !== undefined && { type }), ...more };
    }
  }
  if (o.number !== undefined) {
    const p = `${path}.number`;
    const no = readObject(o.number, p, ['value', 'type'], r);
    if (no) {
      const value = readText(no.value, `${p}.value`, r);
      const type = no.type === undefined ? undefined : readEnum(no.type, `${p}.type`, DATACITE_NUMBER_TYPES, r);
      if (value !== undefined) out.number = { value, ...(type !== undefined && { type }) };
    }
  }
  if (o.titles !== undefined) {
    const t = readList(o.titles, `${path}.titles`, r, (x, p) => readTitle(x, p, r));
    if (t) out.titles = t;
  }
  for (const k of ['creators', 'contributors'] as const) {
    if (o[k] === undefined) continue;
    const a = readList(o[k], `${path}.${k}`, r, (x, p) => readItemAgent(x, p, r, k === 'contributors'));
    if (a) out[k] = a;
  }
  if (failed() || itemType === undefined || relation === undefined) return undefined;
  return { itemType, relation, ...out };
}

function readGeoLocation(v: unknown, path: string, refuse: Refuse): GeoLocation | undefined {
  const o = readObject(v, path, ['places', 'points', 'boxes', 'polygons'], refuse);
  if (!o) return undefined;
  const { r, failed } = tracked(refuse);
  const out: { -readonly [K in keyof GeoLocation]?: GeoLocation[K] } = {};
  if (o.places !== undefined) {
    const places = readList(o.places, `${path}.places`, r, (x, p) => readText(x, p, r));
    if (places) out.places = places;
  }
  if (o.points !== undefined) {
    const points = readList(o.points, `${path}.points`, r, (x, p) => readPoint(x, p, r));
    if (points) out.points = points;
  }
  if (o.boxes !== undefined) {
    const boxes = readList(o.boxes, `${path}.boxes`, r, (x, p) => {
      const bo = readObject(x, p, ['west', 'east', 'south', 'north'], r);
      if (!bo) return undefined;
      const west = readDegrees(bo.west, `${p}.west`, 180, r);
      const east = readDegrees(bo.east, `${p}.east`, 180, r);
      const south = readDegrees(bo.south, `${p}.south`, 90, r);
      const north = readDegrees(bo.north, `${p}.north`, 90, r);
      return west === undefined || east === undefined || south === undefined || north === undefined ? undefined : { west, east, south, north };
    });
    if (boxes) out.boxes = boxes;
  }
  if (o.polygons !== undefined) {
    const polygons = readList(o.polygons, `${path}.polygons`, r, (x, p) => {
      const po = readObject(x, p, ['points', 'inPoint'], r);
      if (!po) return undefined;
      const points = readList(po.points, `${p}.points`, r, (y, q) => readPoint(y, q, r));
      const inPoint = po.inPoint === undefined ? undefined : readPoint(po.inPoint, `${p}.inPoint`, r);
      if (points === undefined || points.length === 0) return undefined;
      return { points, ...(inPoint !== undefined && { inPoint }) };
    });
    if (polygons) out.polygons = polygons;
  }
  return failed() ? undefined : out;
}

type Mutable = { -readonly [K in keyof RecordFields]: RecordFields[K] };
type ListOf = <T>(key: string, item: (v: unknown, path: string) => T | undefined) => T[] | undefined;

/** Reads the fields that hold DataCite as given (./record.ts, "What DataCite kernel-4 says beyond"). */
function readDataciteDetail(rec: Obj, fields: Mutable, list: ListOf, refuse: Refuse): void {
  const titles = list('titles', (v, p) => readTitle(v, p, refuse));
  if (titles) fields.titles = titles;
  if (rec.publisherIdentifier !== undefined) {
    const o = readObject(rec.publisherIdentifier, 'publisherIdentifier', ['value', 'scheme', 'schemeUri'], refuse);
    const value = o === undefined ? undefined : readText(o.value, 'publisherIdentifier.value', refuse);
    if (o !== undefined && value !== undefined) fields.publisherIdentifier = { value, ...readTexts(o, 'publisherIdentifier', ['scheme', 'schemeUri'], refuse) };
  }
  if (rec.publisherLang !== undefined) {
    const l = readLang(rec.publisherLang, 'publisherLang', refuse);
    if (l !== undefined) fields.publisherLang = l;
  }
  const subjects = list('subjects', (v, p) =>
    readEntry<NonNullable<RecordFields['subjects']>[number]>(v, p, refuse, {
      required: 'value',
      texts: ['scheme', 'schemeUri', 'valueUri', 'classificationCode'],
    }),
  );
  if (subjects) fields.subjects = subjects;
  const typedDates = list('typedDates', (v, p) => {
    const o = readObject(v, p, ['value', 'type', 'information'], refuse);
    if (!o) return undefined;
    const { r, failed } = tracked(refuse);
    const value = readText(o.value, `${p}.value`, r);
    const type = readEnum(o.type, `${p}.type`, DATACITE_DATE_TYPES, r);
    const more = readTexts(o, p, ['information'], r);
    return failed() || value === undefined || type === undefined ? undefined : { value, type, ...more };
  });
  if (typedDates) fields.typedDates = typedDates;
  const alternates = list('alternateIdentifiers', (v, p) => {
    const o = readObject(v, p, ['value', 'type'], refuse);
    if (!o) return undefined;
    const value = readText(o.value, `${p}.value`, refuse);
    const type = readText(o.type, `${p}.type`, refuse);
    return value === undefined || type === undefined ? undefined : { value, type };
  });
  if (alternates) fields.alternateIdentifiers = alternates;
  const sizes = list('sizes', (v, p) => readText(v, p, refuse));
  if (sizes) fields.sizes = sizes;
  if (rec.version !== undefined) {
    const t = readText(rec.version, 'version', refuse);
    if (t !== undefined) fields.version = t;
  }
  const rights = list('rightsList', (v, p) => {
    const o = readObject(v, p, ['text', 'uri', 'identifier', 'identifierScheme', 'schemeUri', 'lang'], refuse);
    if (!o) return undefined;
    const { r, failed } = tracked(refuse);
    const out: { -readonly [K in keyof NonNullable<RecordFields['rightsList']>[number]]?: string } = readTexts(
      o,
      p,
      ['text', 'uri', 'identifier', 'identifierScheme', 'schemeUri'],
      r,
    );
    if (o.lang !== undefined) {
      const l = readLang(o.lang, `${p}.lang`, r);
      if (l !== undefined) out.lang = l;
    }
    if (!failed() && Object.keys(out).length === 0) r(p, 'needs at least one of text, uri, identifier');
    return failed() ? undefined : out;
  });
  if (rights) fields.rightsList = rights;
  const descriptions = list('descriptions', (v, p) =>
    readEntry<NonNullable<RecordFields['descriptions']>[number]>(v, p, refuse, {
      required: 'value',
      texts: [],
      enumKey: { key: 'type', values: DATACITE_DESCRIPTION_TYPES, required: true },
    }),
  );
  if (descriptions) fields.descriptions = descriptions;
  const geo = list('geoLocations', (v, p) => readGeoLocation(v, p, refuse));
  if (geo) fields.geoLocations = geo;
  const items = list('relatedItems', (v, p) => readRelatedItem(v, p, refuse));
  if (items) fields.relatedItems = items;
  const unchecked = list('uncheckedRelatedIdentifiers', (v, p) => readRelated(v, p, refuse, true));
  if (unchecked) fields.uncheckedRelatedIdentifiers = unchecked;
}
