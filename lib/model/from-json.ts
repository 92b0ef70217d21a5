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
import { normalizeLanguageTag } from './language';
import { findNonXmlChar } from './text';
import { checkFunderIdentifier, checkOrcid, checkRor, checkUrl } from './identifiers';
import type { Affiliation, Agent, Contributor, FundingReference, NameIdentifier, RecordDates, RecordFields, ResourceType } from './record';
import { COAR_RESOURCE_TYPE_PREFIX, COAR_TYPES, DATACITE_CONTRIBUTOR_TYPES, DATACITE_RESOURCE_TYPES, FUNDER_IDENTIFIER_TYPES } from './vocabularies';
import { type Obj, type Refuse, isObject, readChecked, readEnum, readObject, readText, readTypedIdentifier, tracked } from './from-json-values';
import { readAccessRight, readDataciteDetail, readFile, readHost, readLang, readList, readRelated, readTexts } from './from-json-detail';

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

/** Where a record came from, for its refusals. */
export interface RecordOrigin {
  readonly internalId: string;
  readonly source?: string;
}

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
  const list = <T>(key: string, item: (v: unknown, path: string) => T | undefined): T[] | undefined =>
    rec[key] === undefined ? undefined : readList(rec[key], key, refuse, item);

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
