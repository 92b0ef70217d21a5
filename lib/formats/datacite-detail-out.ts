/**
 * The kernel-4 elements of what a record keeps as DataCite gave it
 * (./datacite-detail.ts): typed titles, related items with every property and
 * geolocations, written back by ./datacite.ts as DataCite 4.7 orders them.
 */
import type { GeoLocation, GeoPoint, RelatedItem, RelatedItemAgent, TitleEntry } from '../model/record';
import { leaf, wrap } from './xml-out';

/** A `title` with its type and language. */
export function titleElement(t: TitleEntry): string {
  return leaf('title', t.value, ['titleType', t.type], ['xml:lang', t.lang]);
}

/** A related item's creator or contributor (names only, as DataCite 4.4+ has them there). */
function itemAgentElement(kind: 'creator' | 'contributor', a: RelatedItemAgent): string {
  const nameType = a.nameType === 'person' ? 'Personal' : a.nameType === 'organization' ? 'Organizational' : undefined;
  return wrap(
    kind,
    [
      leaf(`${kind}Name`, a.name, ['nameType', nameType], ['xml:lang', a.lang]),
      a.givenName !== undefined ? leaf('givenName', a.givenName) : '',
      a.familyName !== undefined ? leaf('familyName', a.familyName) : '',
    ],
    ['contributorType', kind === 'contributor' ? (a.type ?? 'Other') : undefined],
  );
}

/** A `relatedItem` with every property, in the order of the schema's sequence (DataCite 4.7 property 20). */
export function relatedItemElement(i: RelatedItem): string {
  const part = (name: string, v: string | undefined): string => (v !== undefined ? leaf(name, v) : '');
  const id = i.identifier;
  return wrap(
    'relatedItem',
    [
      id === undefined
        ? ''
        : leaf(
            'relatedItemIdentifier',
            id.value,
            ['relatedItemIdentifierType', id.type],
            ['relatedMetadataScheme', id.relatedMetadataScheme],
            ['schemeURI', id.schemeUri],
            ['schemeType', id.schemeType],
          ),
      wrap(
        'creators',
        (i.creators ?? []).map((c) => itemAgentElement('creator', c)),
      ),
      wrap('titles', (i.titles ?? []).map(titleElement)),
      part('publicationYear', i.publicationYear),
      part('volume', i.volume),
      part('issue', i.issue),
      i.number === undefined ? '' : leaf('number', i.number.value, ['numberType', i.number.type]),
      part('firstPage', i.firstPage),
      part('lastPage', i.lastPage),
      part('publisher', i.publisher),
      part('edition', i.edition),
      wrap(
        'contributors',
        (i.contributors ?? []).map((c) => itemAgentElement('contributor', c)),
      ),
    ],
    ['relatedItemType', i.itemType],
    ['relationType', i.relation],
    ['relationTypeInformation', i.relationTypeInformation],
  );
}

/** A `geoLocation` (DataCite 4.7 property 18). */
export function geoLocationElement(g: GeoLocation): string {
  const point = (name: string, p: GeoPoint): string => wrap(name, [leaf('pointLongitude', String(p.longitude)), leaf('pointLatitude', String(p.latitude))]);
  return wrap('geoLocation', [
    ...(g.places ?? []).map((p) => leaf('geoLocationPlace', p)),
    ...(g.points ?? []).map((p) => point('geoLocationPoint', p)),
    ...(g.boxes ?? []).map((b) =>
      wrap('geoLocationBox', [
        leaf('westBoundLongitude', String(b.west)),
        leaf('eastBoundLongitude', String(b.east)),
        leaf('southBoundLatitude', String(b.south)),
        leaf('northBoundLatitude', String(b.north)),
      ]),
    ),
    ...(g.polygons ?? []).map((p) =>
      wrap('geoLocationPolygon', [...p.points.map((q) => point('polygonPoint', q)), p.inPoint !== undefined ? point('inPolygonPoint', p.inPoint) : '']),
    ),
  ]);
}
