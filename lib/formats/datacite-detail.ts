/**
 * What a DataCite kernel-4 `resource` says beyond the fields every format
 * shares, read as given so that DataCite written from the model holds it
 * again (DataCite Metadata Schema 4.7): titles with their type and language,
 * the publisher's identifier and language, subjects with their scheme,
 * every date with its type (ranges as ranges), alternate identifiers with
 * their type, sizes, version, rights statements whole (URI, SPDX identifier,
 * language), descriptions with their type and language, geolocations, and
 * related items with every property. ./datacite-read.ts adds these to what
 * ./datacite-lift.ts makes of the same resource.
 *
 * A value outside DataCite's controlled lists (which the schema refuses) is
 * left out of these lists; the lift still keeps its text in Dublin Core.
 *
 * Pure and total: nothing throws.
 */
import type {
  AlternateIdentifier,
  RelatedIdentifier,
  DescriptionEntry,
  GeoLocation,
  GeoPoint,
  RecordFields,
  RelatedItem,
  RelatedItemAgent,
  RightsEntry,
  SubjectEntry,
  TitleEntry,
  TypedDate,
} from '../model/record';
import {
  DATACITE_CONTRIBUTOR_TYPES,
  DATACITE_DATE_TYPES,
  DATACITE_DESCRIPTION_TYPES,
  DATACITE_NUMBER_TYPES,
  DATACITE_RELATED_IDENTIFIER_TYPES,
  DATACITE_RELATION_TYPES,
  DATACITE_RESOURCE_TYPES,
  DATACITE_TITLE_TYPES,
} from '../model/vocabularies';
import type { XmlElement } from '../xml/tree';
import { isXmlLang } from '../model/language';
import { checkRelatedIdentifier } from '../model/identifiers';
import { nonBlank } from './reader-rules';
import { attr, kid, kids, listOf, text } from './xml-in';

/** The fields of the model that hold DataCite as given (../model/record.ts, "What DataCite kernel-4 says beyond"). */
export type DataciteDetail = Pick<
  RecordFields,
  | 'titles'
  | 'publisherIdentifier'
  | 'publisherLang'
  | 'subjects'
  | 'typedDates'
  | 'alternateIdentifiers'
  | 'sizes'
  | 'version'
  | 'rightsList'
  | 'descriptions'
  | 'geoLocations'
  | 'relatedItems'
  | 'uncheckedRelatedIdentifiers'
>;

/** A value of a DataCite list as the schema spells it, or undefined (case as written must match: the schema is case-sensitive). */
function inList<T extends string>(list: readonly T[], v: string | undefined): T | undefined {
  return v !== undefined && (list as readonly string[]).includes(v) ? (v as T) : undefined;
}

/** An element's xml:lang, when it is one (XML 1.0 section 2.12). */
function langOf(el: XmlElement | undefined): string | undefined {
  const l = attr(el, 'xml:lang');
  return l !== undefined && isXmlLang(l) ? l : undefined;
}

/** Only the keys whose value is defined: the model leaves out what is not said. */
function defined<O extends Record<string, unknown>>(o: O): { [K in keyof O]: Exclude<O[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof O]: Exclude<O[K], undefined> };
}

/** The titles of a `titles` list with their type and language. @example titleEntries(resource)[1] // { value: 'Example Subtitle', type: 'Subtitle', lang: 'en' } */
export function titleEntries(root: XmlElement | undefined): TitleEntry[] {
  return listOf(root, 'titles', 'title').flatMap((t) => {
    const value = nonBlank(text(t));
    if (value === undefined) return [];
    return [defined({ value, type: inList(DATACITE_TITLE_TYPES, attr(t, 'titleType')), lang: langOf(t) })];
  });
}

/** A decimal degree as written, or undefined when it is not a number. */
function degrees(el: XmlElement | undefined, bound: number): number | undefined {
  const t = nonBlank(text(el));
  if (t === undefined || !/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(t)) return undefined;
  const n = Number(t);
  // DataCite's latitudeType and longitudeType: -90 to 90, -180 to 180.
  return Math.abs(n) <= bound ? n : undefined;
}

function pointOf(el: XmlElement | undefined): GeoPoint | undefined {
  const latitude = degrees(kid(el, 'pointLatitude'), 90);
  const longitude = degrees(kid(el, 'pointLongitude'), 180);
  return latitude === undefined || longitude === undefined ? undefined : { latitude, longitude };
}

/** DataCite property 18: each geoLocation's places, points, boxes and polygons. */
function geoLocationsOf(root: XmlElement): GeoLocation[] {
  return listOf(root, 'geoLocations', 'geoLocation').flatMap((g) => {
    const places = kids(g, 'geoLocationPlace').flatMap((p) => nonBlank(text(p)) ?? []);
    const points = kids(g, 'geoLocationPoint').flatMap((p) => pointOf(p) ?? []);
    const boxes = kids(g, 'geoLocationBox').flatMap((b) => {
      const [west, east, south, north] = (
        [
          ['westBoundLongitude', 180],
          ['eastBoundLongitude', 180],
          ['southBoundLatitude', 90],
          ['northBoundLatitude', 90],
        ] as const
      ).map(([n, bound]) => degrees(kid(b, n), bound));
      return west === undefined || east === undefined || south === undefined || north === undefined ? [] : [{ west, east, south, north }];
    });
    const polygons = kids(g, 'geoLocationPolygon').flatMap((p) => {
      const points = kids(p, 'polygonPoint').flatMap((q) => pointOf(q) ?? []);
      const inPoint = pointOf(kid(p, 'inPolygonPoint'));
      return points.length === 0 ? [] : [{ points, ...(inPoint !== undefined && { inPoint }) }];
    });
    const out: GeoLocation = {
      ...(places.length > 0 && { places }),
      ...(points.length > 0 && { points }),
      ...(boxes.length > 0 && { boxes }),
      ...(polygons.length > 0 && { polygons }),
    };
    return Object.keys(out).length > 0 ? [out] : [];
  });
}

/** A related item's creator or contributor (DataCite 4.4 relatedItem: name, type, given and family names). */
function itemAgent(el: XmlElement, nameElement: string, contributor: boolean): RelatedItemAgent[] {
  const nameEl = kid(el, nameElement);
  const name = nonBlank(text(nameEl));
  if (name === undefined) return [];
  const nt = attr(nameEl, 'nameType');
  const type = contributor ? inList(DATACITE_CONTRIBUTOR_TYPES, attr(el, 'contributorType')) : undefined;
  if (contributor && type === undefined) return [];
  return [
    defined({
      name,
      nameType: nt === 'Personal' ? ('person' as const) : nt === 'Organizational' ? ('organization' as const) : undefined,
      givenName: nonBlank(text(kid(el, 'givenName'))),
      familyName: nonBlank(text(kid(el, 'familyName'))),
      lang: langOf(nameEl),
      type,
    }),
  ];
}

/** DataCite property 20: every related item with every property, as given. */
function relatedItemsOf(root: XmlElement): RelatedItem[] {
  return listOf(root, 'relatedItems', 'relatedItem').flatMap((i) => {
    const itemType = inList(DATACITE_RESOURCE_TYPES, attr(i, 'relatedItemType'));
    const relation = inList(DATACITE_RELATION_TYPES, attr(i, 'relationType'));
    if (itemType === undefined || relation === undefined) return [];
    const rid = kid(i, 'relatedItemIdentifier');
    const idValue = nonBlank(text(rid));
    const number = kid(i, 'number');
    const numberValue = nonBlank(text(number));
    const creators = listOf(i, 'creators', 'creator').flatMap((c) => itemAgent(c, 'creatorName', false));
    const contributors = listOf(i, 'contributors', 'contributor').flatMap((c) => itemAgent(c, 'contributorName', true));
    const titles = titleEntries(i);
    const part = (local: string): string | undefined => nonBlank(text(kid(i, local)));
    const item: RelatedItem = defined({
      itemType,
      relation,
      relationTypeInformation: attr(i, 'relationTypeInformation'),
      identifier:
        idValue === undefined
          ? undefined
          : defined({
              value: idValue,
              type: inList(DATACITE_RELATED_IDENTIFIER_TYPES, attr(rid, 'relatedItemIdentifierType')),
              relatedMetadataScheme: attr(rid, 'relatedMetadataScheme'),
              schemeUri: attr(rid, 'schemeURI'),
              schemeType: attr(rid, 'schemeType'),
            }),
      creators: creators.length > 0 ? creators : undefined,
      titles: titles.length > 0 ? titles : undefined,
      publicationYear: part('publicationYear'),
      volume: part('volume'),
      issue: part('issue'),
      number: numberValue === undefined ? undefined : defined({ value: numberValue, type: inList(DATACITE_NUMBER_TYPES, attr(number, 'numberType')) }),
      firstPage: part('firstPage'),
      lastPage: part('lastPage'),
      publisher: part('publisher'),
      edition: part('edition'),
      contributors: contributors.length > 0 ? contributors : undefined,
    });
    return [item];
  });
}

/**
 * The related identifiers of DataCite's lists whose value the check of
 * their scheme refuses, as given (the lift keeps their text as dc.relation).
 *
 * @example uncheckedRelatedOf(resource) // [{ identifier: '1234.1675', type: 'Handle', relation: 'IsPartOf', resourceTypeGeneral: 'Instrument' }]
 */
function uncheckedRelatedOf(root: XmlElement): RelatedIdentifier[] {
  return listOf(root, 'relatedIdentifiers', 'relatedIdentifier').flatMap((r) => {
    const identifier = nonBlank(text(r));
    const type = inList(DATACITE_RELATED_IDENTIFIER_TYPES, attr(r, 'relatedIdentifierType'));
    const relation = inList(DATACITE_RELATION_TYPES, attr(r, 'relationType'));
    if (identifier === undefined || type === undefined || relation === undefined || !('error' in checkRelatedIdentifier(type, identifier))) return [];
    return [
      defined({
        identifier,
        type,
        relation,
        resourceTypeGeneral: inList(DATACITE_RESOURCE_TYPES, attr(r, 'resourceTypeGeneral')),
        relatedMetadataScheme: attr(r, 'relatedMetadataScheme'),
        schemeUri: attr(r, 'schemeURI'),
        schemeType: attr(r, 'schemeType'),
        relationTypeInformation: attr(r, 'relationTypeInformation'),
      }),
    ];
  });
}

/**
 * What a kernel-4 (or kernel-3) `resource` says beyond the shared fields,
 * as given; an empty object for a resource that says none of it.
 *
 * @example dataciteDetailOf(resource).typedDates // [{ value: '2020-01-01/2020-12-31', type: 'Coverage' }, …]
 */
export function dataciteDetailOf(root: XmlElement): DataciteDetail {
  const titles = titleEntries(root);
  const pub = kid(root, 'publisher');
  const pubId = attr(pub, 'publisherIdentifier');
  const subjects: SubjectEntry[] = listOf(root, 'subjects', 'subject').flatMap((s) => {
    const value = nonBlank(text(s));
    if (value === undefined) return [];
    return [
      defined({
        value,
        scheme: attr(s, 'subjectScheme'),
        schemeUri: attr(s, 'schemeURI'),
        valueUri: attr(s, 'valueURI'),
        classificationCode: attr(s, 'classificationCode'),
        lang: langOf(s),
      }),
    ];
  });
  const typedDates: TypedDate[] = listOf(root, 'dates', 'date').flatMap((d) => {
    const value = nonBlank(text(d));
    const type = inList(DATACITE_DATE_TYPES, attr(d, 'dateType'));
    return value === undefined || type === undefined ? [] : [defined({ value, type, information: attr(d, 'dateInformation') })];
  });
  const alternateIdentifiers: AlternateIdentifier[] = listOf(root, 'alternateIdentifiers', 'alternateIdentifier').flatMap((a) => {
    const value = nonBlank(text(a));
    const type = attr(a, 'alternateIdentifierType');
    return value === undefined || type === undefined ? [] : [{ value, type }];
  });
  const sizes = listOf(root, 'sizes', 'size').flatMap((s) => nonBlank(text(s)) ?? []);
  const rightsList: RightsEntry[] = listOf(root, 'rightsList', 'rights').flatMap((r) => {
    const entry = defined({
      text: nonBlank(text(r)),
      uri: attr(r, 'rightsURI'),
      identifier: attr(r, 'rightsIdentifier'),
      identifierScheme: attr(r, 'rightsIdentifierScheme'),
      schemeUri: attr(r, 'schemeURI'),
      lang: langOf(r),
    });
    return Object.keys(entry).length > 0 ? [entry] : [];
  });
  const descriptions: DescriptionEntry[] = listOf(root, 'descriptions', 'description').flatMap((d) => {
    const value = nonBlank(text(d));
    const type = inList(DATACITE_DESCRIPTION_TYPES, attr(d, 'descriptionType'));
    return value === undefined || type === undefined ? [] : [defined({ value, type, lang: langOf(d) })];
  });
  const geoLocations = geoLocationsOf(root);
  const relatedItems = relatedItemsOf(root);
  const uncheckedRelatedIdentifiers = uncheckedRelatedOf(root);
  const version = nonBlank(text(kid(root, 'version')));
  const publisherLang = langOf(pub);
  return {
    ...(titles.length > 0 && { titles }),
    ...(pubId !== undefined && {
      publisherIdentifier: defined({ value: pubId, scheme: attr(pub, 'publisherIdentifierScheme'), schemeUri: attr(pub, 'schemeURI') }),
    }),
    ...(publisherLang !== undefined && { publisherLang }),
    ...(subjects.length > 0 && { subjects }),
    ...(typedDates.length > 0 && { typedDates }),
    ...(alternateIdentifiers.length > 0 && { alternateIdentifiers }),
    ...(uncheckedRelatedIdentifiers.length > 0 && { uncheckedRelatedIdentifiers }),
    ...(sizes.length > 0 && { sizes }),
    ...(version !== undefined && { version }),
    ...(rightsList.length > 0 && { rightsList }),
    ...(descriptions.length > 0 && { descriptions }),
    ...(geoLocations.length > 0 && { geoLocations }),
    ...(relatedItems.length > 0 && { relatedItems }),
  };
}

/**
 * The detail that says more than the shared fields of `record` already do:
 * titles, subjects and descriptions only when one of them has a type (other
 * than a description's Abstract), scheme or language; dates only when one is
 * not a shared typed date as written; rights only when one statement holds
 * more than a URI or a text. The writer writes the shared fields the same
 * way, so the model keeps no second copy of what they say.
 *
 * @example withoutRepeats({ dc: { title: ['T'] } }, { titles: [{ value: 'T' }] }) // {}
 */
export function withoutRepeats(record: RecordFields, detail: DataciteDetail): DataciteDetail {
  const out: { -readonly [K in keyof DataciteDetail]: DataciteDetail[K] } = { ...detail };
  if (out.titles?.every((t) => t.type === undefined && t.lang === undefined) && out.titles.length <= 1) delete out.titles;
  if (out.subjects?.every((x) => Object.keys(x).length === 1)) delete out.subjects;
  if (out.descriptions?.every((d) => d.type === 'Abstract' && d.lang === undefined)) delete out.descriptions;
  const dates = record.dates ?? {};
  const shared: Readonly<Record<string, string | undefined>> = {
    Issued: dates.issued,
    Accepted: dates.accepted,
    Available: dates.embargoEnd ?? dates.available,
  };
  if (out.typedDates?.every((d) => d.information === undefined && shared[d.type] === d.value)) delete out.typedDates;
  if (out.rightsList?.every((r) => Object.keys(r).length === 1)) delete out.rightsList;
  return out;
}
