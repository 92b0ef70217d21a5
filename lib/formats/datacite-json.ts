/**
 * DataCite JSON lifted into the record model: as DataCite's REST API gives
 * it (`{"data": {"id", "type": "dois", "attributes": {…}}}`, or `{"data":
 * […]}` for a page of them) and as DataCite's JSON schema and its JSON
 * serialization give it (the attributes object itself: `doi`, `creators`,
 * `titles`, `types`, `publicationYear`, …), one object or an array of them;
 * NDJSON is one such value a line. Older serializations spell the keys with
 * hyphens (`publication-year`, `resource-type-general`) or in snake case
 * (`publication_year`, `rights_list`, `alternate_identifiers` of
 * `alternativeIdentifier`s), and write a list of one object as the object
 * alone: they are read too.
 *
 * The properties are gathered in DataCite's shape and lifted by
 * ./datacite-lift.ts (its table says what each becomes), plus what only the
 * JSON has: `url` (the landing page) is an identifier of the record,
 * `contentUrl` its files.
 *
 * Each record read gives:
 * - its internal id: the DOI (`doi`, else the envelope's `id`, else a DOI
 *   `id` or `identifiers` entry) in lower case, as DataCite's API spells it:
 *   DOI names are case-insensitive (DOI Handbook 2.4), so the same DOI read
 *   from the API and from an upper-case export is one item;
 * - its datestamp, when the record says when its metadata last changed:
 *   `updated` (the REST API's attribute), as YYYY-MM-DDThh:mm:ssZ in UTC.
 *   The resource's own dates (`dates`, `published`, `registered`) say
 *   something else and are not used;
 * - or its refusals, each naming the field and the reason: not a DataCite
 *   record, no DOI, a field of the wrong JSON type, text XML cannot carry,
 *   an `updated` that is not a date-time. Values of the right type that the
 *   model's checks refuse are kept as Dublin Core text, as the XML readers do.
 *
 * Pure: no I/O, no clock.
 */
import type { RecordFields } from '../model/record';
import type { Refusal } from '../model/refusal';
import { checkDoi } from '../model/identifiers';
import { findNonXmlChar } from '../model/text';
import { parseW3cdtf } from '../model/dates';
import { isHostItem, liftDatacite, type DataciteProps } from './datacite-lift';
import { addDc, addFile, draft, finish } from './reader-rules';
import { type AgentInput } from './reader-entries';

/** One DataCite record read: its internal id, its datestamp when it says one, and its model. */
export interface DataciteJsonRecord {
  readonly internalId: string;
  /** YYYY-MM-DDThh:mm:ssZ, from `updated`. */
  readonly datestamp?: string;
  readonly fields: RecordFields;
}

/** A record read, or why it was refused. */
export type DataciteJsonResult = { readonly record: DataciteJsonRecord } | { readonly refusals: readonly Refusal[] };

type Obj = Readonly<Record<string, unknown>>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A key, or one of its older spellings: hyphenated (`publication-year`), or
 * snake case (`publication_year`, `rights_list`, `alternate_identifiers`), as
 * bolognese and DataCite's earlier JSON serializations wrote them.
 */
function get(o: Obj, key: string): unknown {
  return o[key] ?? o[key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)] ?? o[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
}

/**
 * Whether a parsed JSON value is DataCite JSON rather than the project's own
 * record format: a REST API envelope of `dois`, or an object with DataCite's
 * `doi`, `titles` or `types` and no `dc`; an array by its first element.
 *
 * @example isDataciteJson({ data: { id: '10.5438/4k3m-nyvg', type: 'dois', attributes: {} } }) // true
 * @example isDataciteJson({ id: 'r1', dc: { title: 'T' } }) // false
 */
export function isDataciteJson(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && isDataciteJson(value[0]);
  if (!isObject(value)) return false;
  const data = value.data;
  if (data !== undefined) {
    const first = Array.isArray(data) ? data[0] : data;
    return isObject(first) && first.type === 'dois';
  }
  return value.dc === undefined && (value.doi !== undefined || value.titles !== undefined || value.types !== undefined);
}

/**
 * Reads one parsed JSON value of DataCite JSON (an object, an array, or an
 * API envelope) into one result per record, in order. `source` names where
 * it was read (a file and line), for the refusals; an array's records add
 * their position (`records.json[2]`).
 *
 * @example readDataciteJson({ doi: '10.5438/4K3M-NYVG', titles: [{ title: 'Eating your own Dog Food' }] }, 'a.json')
 * // → [{ record: { internalId: '10.5438/4k3m-nyvg', fields: { dc: { title: ['Eating your own Dog Food'] }, identifiers: [{ type: 'DOI', value: '10.5438/4K3M-NYVG' }] } } }]
 */
export function readDataciteJson(value: unknown, source: string): DataciteJsonResult[] {
  const data = isObject(value) && value.data !== undefined ? value.data : value;
  if (Array.isArray(data)) return data.map((v, i) => readOne(v, `${source}[${i}]`, value !== data));
  return [readOne(data, source, value !== data)];
}

function readOne(raw: unknown, source: string, enveloped: boolean): DataciteJsonResult {
  const refusals: Refusal[] = [];
  let internalId = '';
  const refuse = (field: string, reason: string): void => {
    refusals.push({ internalId, source, field, reason });
  };
  let attrs: Obj | undefined;
  let envelopeId: unknown;
  if (enveloped) {
    if (!isObject(raw) || raw.type !== 'dois' || !isObject(raw.attributes)) {
      refuse('data', 'not a DataCite DOI record (an object with "type": "dois" and "attributes")');
      return { refusals };
    }
    attrs = raw.attributes;
    envelopeId = raw.id;
  } else if (!isObject(raw)) {
    refuse('', 'not a DataCite record (a JSON object)');
    return { refusals };
  } else attrs = raw;

  const doiText = [get(attrs, 'doi'), envelopeId, attrs.id, ...doiIdentifiers(attrs)].find((v): v is string => typeof v === 'string' && v.trim() !== '');
  const doi = doiText === undefined ? undefined : checkDoi(doiText);
  if (doi !== undefined && 'value' in doi) internalId = doi.value.toLowerCase();
  else internalId = doiText?.trim() ?? '';
  if (doi === undefined) refuse('doi', 'missing: a DataCite record names its DOI');
  else if ('error' in doi) refuse('doi', `${JSON.stringify(doiText)}: ${doi.error}`);

  const props = propsOf(attrs, refuse, doi !== undefined && 'value' in doi ? doi.value : undefined);
  let datestamp: string | undefined;
  const updated = attrs.updated;
  if (updated !== undefined && updated !== null) {
    datestamp = typeof updated === 'string' ? utcSeconds(updated) : undefined;
    if (datestamp === undefined) refuse('updated', 'not an ISO 8601 date-time with a time zone (e.g. 2020-02-01T12:00:00Z)');
  }
  if (refusals.length > 0) return { refusals };
  const d = draft();
  liftDatacite(d, props.datacite);
  // DataCite's API: the landing page the DOI resolves to, and where the content itself is.
  addDc(d, 'identifier', props.url);
  for (const u of props.contentUrls) addFile(d, u);
  return { record: { internalId, ...(datestamp !== undefined && { datestamp }), fields: finish(d) } };
}

/** The `identifiers` entries of type DOI (DataCite's JSON serialization lists the DOI there too). */
function doiIdentifiers(attrs: Obj): unknown[] {
  const ids = get(attrs, 'identifiers');
  if (!Array.isArray(ids)) return [];
  return ids.filter((i): i is Obj => isObject(i) && typeof i.identifierType === 'string' && i.identifierType.toUpperCase() === 'DOI').map((i) => i.identifier);
}

/** A date-time with a zone, as the UTC second it names (YYYY-MM-DDThh:mm:ssZ), or undefined. */
function utcSeconds(v: string): string | undefined {
  const w = parseW3cdtf(v);
  if (w === null || !w.hasTime) return undefined;
  const ms = Date.parse(w.text);
  return Number.isNaN(ms) ? undefined : `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

type Refuse = (field: string, reason: string) => void;

/** Typed access to the attributes, refusing values of the wrong JSON type. */
function accessors(refuse: Refuse) {
  const text = (v: unknown, path: string): string | undefined => {
    if (v === undefined || v === null) return undefined;
    const s = typeof v === 'number' ? String(v) : v;
    if (typeof s !== 'string') {
      refuse(path, 'must be a string');
      return undefined;
    }
    const bad = findNonXmlChar(s);
    if (bad) {
      refuse(path, `holds a character XML 1.0 cannot carry (${bad})`);
      return undefined;
    }
    return s;
  };
  const list = (o: Obj, key: string, lone = false): unknown[] => {
    const v = get(o, key);
    if (v === undefined || v === null) return [];
    // The legacy serialization writes a list of one object as the object alone (`"dates": {"date": …}`).
    if (lone && isObject(v)) return [v];
    if (!Array.isArray(v)) {
      refuse(key, 'must be an array');
      return [];
    }
    return v;
  };
  const objects = (o: Obj, key: string): [Obj, string][] =>
    list(o, key, true).flatMap((v, i): [Obj, string][] => {
      if (isObject(v)) return [[v, `${key}[${i}]`]];
      refuse(`${key}[${i}]`, 'must be an object');
      return [];
    });
  const texts = (o: Obj, key: string): string[] => list(o, key).flatMap((v, i) => text(v, `${key}[${i}]`) ?? []);
  return { text, list, objects, texts };
}

/** DataCite's properties of one attributes object, and the JSON's own `url` and `contentUrl`. */
function propsOf(a: Obj, refuse: Refuse, doi: string | undefined): { datacite: DataciteProps; url: string | undefined; contentUrls: string[] } {
  const { text, objects, texts } = accessors(refuse);
  const agent = (o: Obj, path: string): AgentInput => {
    const ids = objects(o, 'nameIdentifiers').map(([i, p]) => ({
      value: text(i.nameIdentifier, `${path}.${p}.nameIdentifier`) ?? '',
      scheme: text(i.nameIdentifierScheme, `${path}.${p}.nameIdentifierScheme`),
    }));
    // DataCite's JSON serialization writes a person's ORCID iD as `id`.
    const id = text(o.id, `${path}.id`);
    const rawAffiliations = get(o, 'affiliation');
    const affiliations = (Array.isArray(rawAffiliations) ? rawAffiliations : rawAffiliations === undefined ? [] : [rawAffiliations]).map((af, i) => {
      const p = `${path}.affiliation[${i}]`;
      if (isObject(af))
        return {
          name: text(af.name, `${p}.name`),
          id: text(af.affiliationIdentifier, `${p}.affiliationIdentifier`),
          scheme: text(af.affiliationIdentifierScheme, `${p}.affiliationIdentifierScheme`),
        };
      return { name: text(af, p) };
    });
    return {
      name: text(o.name, `${path}.name`),
      nameType: text(o.nameType ?? o.type, `${path}.nameType`),
      givenName: text(o.givenName, `${path}.givenName`),
      familyName: text(o.familyName, `${path}.familyName`),
      ids: [...ids, ...(id !== undefined ? [{ value: id }] : [])],
      affiliations,
    };
  };
  const types = get(a, 'types');
  if (types !== undefined && !isObject(types)) refuse('types', 'must be an object');
  const t = isObject(types) ? types : {};
  const publisher = get(a, 'publisher');
  const rightsUri = (o: Obj): unknown => o.rightsUri ?? o.rightsURI;
  const relatedItems = objects(a, 'relatedItems');
  const hostAt = relatedItems.findIndex(([o]) =>
    isHostItem(typeof o.relationType === 'string' ? o.relationType : undefined, typeof o.relatedItemType === 'string' ? o.relatedItemType : undefined),
  );
  const host = relatedItems[hostAt];
  const titleOf = ([o, p]: [Obj, string]): string | undefined => {
    const titles = Array.isArray(o.titles) ? o.titles : [];
    return isObject(titles[0]) ? (text(titles[0].title, `${p}.titles[0].title`) ?? '') : undefined;
  };
  const datacite: DataciteProps = {
    ...(doi !== undefined && { identifier: { value: doi, type: 'DOI' } }),
    alternates: [...objects(a, 'identifiers'), ...objects(a, 'alternateIdentifiers')]
      .filter(([o]) => !(typeof o.identifierType === 'string' && o.identifierType.toUpperCase() === 'DOI'))
      .map(([o, p]) => ({
        // bolognese's legacy spelling: alternativeIdentifier, alternativeIdentifierType.
        value: text(o.identifier ?? o.alternateIdentifier ?? o.alternativeIdentifier, `${p}.identifier`) ?? '',
        type: text(o.identifierType ?? o.alternateIdentifierType ?? o.alternativeIdentifierType, `${p}.identifierType`),
      })),
    creators: objects(a, 'creators').map(([o, p]) => agent(o, p)),
    contributors: objects(a, 'contributors').map(([o, p]) => ({ ...agent(o, p), type: text(o.contributorType, `${p}.contributorType`) })),
    titles: objects(a, 'titles').map(([o, p]) => ({ title: text(o.title, `${p}.title`) ?? '', type: text(o.titleType, `${p}.titleType`) })),
    publisher: isObject(publisher) ? text(publisher.name, 'publisher.name') : text(publisher, 'publisher'),
    publicationYear: text(get(a, 'publicationYear'), 'publicationYear'),
    subjects: objects(a, 'subjects').map(([o, p]) => text(o.subject, `${p}.subject`) ?? ''),
    dates: objects(a, 'dates').map(([o, p]) => ({ date: text(o.date, `${p}.date`) ?? '', type: text(o.dateType, `${p}.dateType`) })),
    language: text(get(a, 'language'), 'language'),
    resourceType: { general: text(get(t, 'resourceTypeGeneral'), 'types.resourceTypeGeneral'), label: text(get(t, 'resourceType'), 'types.resourceType') },
    related: [
      ...objects(a, 'relatedIdentifiers').map(([o, p]) => ({
        identifier: text(o.relatedIdentifier, `${p}.relatedIdentifier`),
        type: text(o.relatedIdentifierType, `${p}.relatedIdentifierType`),
        relation: text(o.relationType, `${p}.relationType`),
        resourceTypeGeneral: text(o.resourceTypeGeneral, `${p}.resourceTypeGeneral`),
      })),
      ...relatedItems.map(([o, p]) => {
        const rid = isObject(o.relatedItemIdentifier) ? o.relatedItemIdentifier : {};
        return {
          identifier: text(rid.relatedItemIdentifier, `${p}.relatedItemIdentifier`),
          type: text(rid.relatedItemIdentifierType, `${p}.relatedItemIdentifierType`),
          relation: text(o.relationType, `${p}.relationType`),
          resourceTypeGeneral: text(o.relatedItemType, `${p}.relatedItemType`),
          inRelatedItem: true,
        };
      }),
    ],
    relatedTitles: relatedItems.filter((_, i) => i !== hostAt).flatMap((item) => titleOf(item) ?? []),
    ...(host !== undefined && {
      host: {
        title: titleOf(host),
        volume: text(host[0].volume, `${host[1]}.volume`),
        issue: text(host[0].issue, `${host[1]}.issue`),
        startPage: text(host[0].firstPage, `${host[1]}.firstPage`),
        endPage: text(host[0].lastPage, `${host[1]}.lastPage`),
      },
    }),
    formats: texts(a, 'formats'),
    rights: objects(a, 'rightsList').map(([o, p]) => ({ text: text(o.rights, `${p}.rights`), uri: text(rightsUri(o), `${p}.rightsUri`) })),
    descriptions: objects(a, 'descriptions').flatMap(([o, p]) =>
      Array.isArray(o.description) ? o.description.map((x, i) => text(x, `${p}.description[${i}]`) ?? '') : [text(o.description, `${p}.description`) ?? ''],
    ),
    places: objects(a, 'geoLocations').map(([o, p]) => text(o.geoLocationPlace, `${p}.geoLocationPlace`) ?? ''),
    funding: objects(a, 'fundingReferences').map(([o, p]) => ({
      funderName: text(o.funderName, `${p}.funderName`),
      funderIdentifier: text(o.funderIdentifier, `${p}.funderIdentifier`),
      funderIdentifierType: text(o.funderIdentifierType, `${p}.funderIdentifierType`),
      awardNumber: text(o.awardNumber, `${p}.awardNumber`),
      awardUri: text(o.awardUri ?? o.awardURI, `${p}.awardUri`),
      awardTitle: text(o.awardTitle, `${p}.awardTitle`),
    })),
  };
  return { datacite, url: text(get(a, 'url'), 'url'), contentUrls: texts(a, 'contentUrl') };
}
