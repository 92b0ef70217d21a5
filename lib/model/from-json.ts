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
import { calendarDate } from './dates';
import { normalizeLanguageTag } from './language';
import { findNonXmlChar } from './text';
import { checkFunderIdentifier, checkIdentifier, checkOrcid, checkRelatedIdentifier, checkRor, checkUrl, IDENTIFIER_TYPES, type Checked } from './identifiers';
import type {
  Affiliation,
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
} from './record';
import {
  ACCESS_RIGHTS,
  COAR_RESOURCE_TYPE_PREFIX,
  COAR_TYPES,
  DATACITE_CONTRIBUTOR_TYPES,
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

const AGENT_KEYS = ['name', 'givenName', 'familyName', 'nameType', 'orcid', 'affiliations'];

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
        const ao = readObject(a, p, ['name', 'ror'], r);
        if (!ao) return;
        const n = readText(ao.name, `${p}.name`, r);
        const ror = ao.ror === undefined ? undefined : readChecked(ao.ror, `${p}.ror`, r, checkRor);
        if (n !== undefined) affs.push({ name: n, ...(ror !== undefined && { ror }) });
      });
      out.affiliations = affs;
    }
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
    const d = typeof raw === 'string' ? calendarDate(raw, full) : null;
    if (d === null) refuse(`dates.${k}`, full ? 'must be an ISO 8601 date YYYY-MM-DD' : 'must be an ISO 8601 date: YYYY, YYYY-MM or YYYY-MM-DD');
    else out[k] = d;
  }
  return out;
}

function readFunding(v: unknown, path: string, refuse: Refuse): FundingReference | undefined {
  const o = readObject(v, path, ['funderName', 'funderIdentifier', 'awardNumber', 'awardUri', 'awardTitle'], refuse);
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
  if (failed() || funderName === undefined) return undefined;
  return { funderName, ...out };
}

function readRelated(v: unknown, path: string, refuse: Refuse): RelatedIdentifier | undefined {
  const o = readObject(v, path, ['identifier', 'type', 'relation', 'resourceTypeGeneral'], refuse);
  if (!o) return undefined;
  const { r, failed } = tracked(refuse);
  const type = readEnum(o.type, `${path}.type`, DATACITE_RELATED_IDENTIFIER_TYPES, r);
  const relation = readEnum(o.relation, `${path}.relation`, DATACITE_RELATION_TYPES, r);
  const general = o.resourceTypeGeneral === undefined ? undefined : readEnum(o.resourceTypeGeneral, `${path}.resourceTypeGeneral`, DATACITE_RESOURCE_TYPES, r);
  const identifier = readChecked(o.identifier, `${path}.identifier`, r, (s) => (type === undefined ? { value: s } : checkRelatedIdentifier(type, s)));
  if (failed() || type === undefined || relation === undefined || identifier === undefined) return undefined;
  return { identifier, type, relation, ...(general !== undefined && { resourceTypeGeneral: general }) };
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
