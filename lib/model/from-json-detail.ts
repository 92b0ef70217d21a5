/**
 * The parts of a JSON record model that are lists of structured entries:
 * related identifiers and items, the host, files, and DataCite's titles,
 * subjects, dates, descriptions, rights, alternate identifiers and
 * geolocations (./from-json.ts reads the rest of a record).
 */
import { isXmlLang } from './language';
import { checkRelatedIdentifier, checkUrl } from './identifiers';
import type { GeoLocation, GeoPoint, Host, RelatedItem, RelatedItemAgent, TitleEntry, RecordFields, RecordFile, RelatedIdentifier } from './record';
import {
  ACCESS_RIGHTS,
  DATACITE_CONTRIBUTOR_TYPES,
  DATACITE_DATE_TYPES,
  DATACITE_DESCRIPTION_TYPES,
  DATACITE_NUMBER_TYPES,
  DATACITE_TITLE_TYPES,
  DATACITE_RELATED_IDENTIFIER_TYPES,
  DATACITE_RELATION_TYPES,
  DATACITE_RESOURCE_TYPES,
  type AccessRight,
} from './vocabularies';
import { type Obj, type Refuse, readChecked, readEnum, readObject, readText, tracked } from './from-json-values';

/** The parts of `host` (./record.ts `Host`), in citation order. */
export const HOST_PARTS = ['title', 'volume', 'issue', 'startPage', 'endPage'] as const;

export function readAccessRight(v: unknown, path: string, refuse: Refuse): AccessRight | undefined {
  for (const [key, { uri }] of Object.entries(ACCESS_RIGHTS)) if (v === key || v === uri) return key as AccessRight;
  refuse(path, `must be one of ${Object.keys(ACCESS_RIGHTS).join(', ')} or its COAR access right URI`);
  return undefined;
}

/**
 * A related identifier: its value checked by its scheme, or (`unchecked`,
 * record.ts `uncheckedRelatedIdentifiers`) kept as given, any non-blank text.
 */
export function readRelated(v: unknown, path: string, refuse: Refuse, unchecked = false): RelatedIdentifier | undefined {
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
export function readHost(v: unknown, refuse: Refuse): Host | undefined {
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

export function readFile(v: unknown, path: string, refuse: Refuse): RecordFile | undefined {
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
export function readList<T>(v: unknown, path: string, refuse: Refuse, item: (v: unknown, path: string) => T | undefined): T[] | undefined {
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
export function readTexts<K extends string>(o: Obj, path: string, keys: readonly K[], refuse: Refuse): { [P in K]?: string } {
  const out: { [P in K]?: string } = {};
  for (const k of keys) {
    if (o[k] === undefined) continue;
    const t = readText(o[k], `${path}.${k}`, refuse);
    if (t !== undefined) out[k] = t;
  }
  return out;
}

/** An xml:lang value (XML 1.0 section 2.12), or a refusal. */
export function readLang(v: unknown, path: string, refuse: Refuse): string | undefined {
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
export function readDataciteDetail(rec: Obj, fields: Mutable, list: ListOf, refuse: Refuse): void {
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
