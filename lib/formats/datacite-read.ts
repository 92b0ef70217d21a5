/**
 * The reader beside the `datacite` writer: a DataCite `resource` of kernel-4
 * (versions 4.0 to 4.7, one namespace) or kernel-3 (which aggregators still
 * receive) lifted into the record model. The properties are gathered in
 * DataCite's own shape and lifted by ./datacite-lift.ts, whose table says
 * what each becomes; kernel-3 differs only in what it lacks (affiliation
 * identifiers, fundingReference: its funders are contributors of type
 * Funder) and is read with the same names.
 *
 * The helpers for creators, contributors, related identifiers and funding
 * are exported for the DataCite elements OpenAIRE v4 embeds.
 *
 * Pure and total: any element gives a record (an empty one when it is not a
 * DataCite resource); nothing throws.
 */
import type { RecordFields } from '../model/record';
import type { XmlElement } from '../xml/tree';
import { isHostItem, liftDatacite, type DataciteProps } from './datacite-lift';
import { draft, finish } from './reader-rules';
import { type AgentInput, type FundingInput, type RelatedInput } from './reader-entries';
import { attr, kid, kids, listOf, text } from './xml-in';
import { dataciteDetailOf, withoutRepeats } from './datacite-detail';

export const DATACITE_KERNEL_3_NS = 'http://datacite.org/schema/kernel-3';
const DATACITE_KERNEL_4_NS = 'http://datacite.org/schema/kernel-4';

/**
 * A DataCite creator or contributor element as the lift takes it: its name
 * element (`creatorName`, `contributorName`), given and family names, name
 * identifiers and affiliations, in the element's own namespace.
 *
 * @example agentOf(creator, 'creatorName') // { name: 'Miller, Elizabeth', nameType: 'Personal', ids: [{ value: '0000-0001-5000-0007', scheme: 'ORCID' }], … }
 */
export function agentOf(el: XmlElement, nameElement: string): AgentInput {
  const name = kid(el, nameElement);
  return {
    name: text(name),
    nameType: attr(name, 'nameType'),
    givenName: text(kid(el, 'givenName')),
    familyName: text(kid(el, 'familyName')),
    ids: kids(el, 'nameIdentifier').map((i) => ({ value: text(i), scheme: attr(i, 'nameIdentifierScheme'), schemeUri: attr(i, 'schemeURI') })),
    affiliations: kids(el, 'affiliation').map((a) => ({
      name: text(a),
      id: attr(a, 'affiliationIdentifier'),
      scheme: attr(a, 'affiliationIdentifierScheme'),
      schemeUri: attr(a, 'schemeURI'),
    })),
    lang: attr(name, 'xml:lang'),
  };
}

/** The contributors of a DataCite `contributors` list, with their contributorType. @example contributorsOf(resource) */
export function contributorsOf(root: XmlElement): (AgentInput & { type: string | undefined })[] {
  return listOf(root, 'contributors', 'contributor').map((c) => ({ ...agentOf(c, 'contributorName'), type: attr(c, 'contributorType') }));
}

/** The related identifiers of a `relatedIdentifiers` list. @example relatedOf(resource)[0] // { identifier: '10.5438/0012', type: 'DOI', relation: 'References', resourceTypeGeneral: undefined } */
export function relatedOf(root: XmlElement): RelatedInput[] {
  return listOf(root, 'relatedIdentifiers', 'relatedIdentifier').map((r) => ({
    identifier: text(r),
    type: attr(r, 'relatedIdentifierType'),
    relation: attr(r, 'relationType'),
    resourceTypeGeneral: attr(r, 'resourceTypeGeneral'),
    relatedMetadataScheme: attr(r, 'relatedMetadataScheme'),
    schemeUri: attr(r, 'schemeURI'),
    schemeType: attr(r, 'schemeType'),
    relationTypeInformation: attr(r, 'relationTypeInformation'),
  }));
}

/** The funding references of `fundingReferences` lists, in the namespace of the list (DataCite's, or OpenAIRE's). @example fundingOf(kids(resource, 'fundingReferences')) */
export function fundingOf(lists: readonly XmlElement[]): FundingInput[] {
  return lists
    .flatMap((l) => kids(l, 'fundingReference'))
    .map((f) => {
      const id = kid(f, 'funderIdentifier');
      const award = kid(f, 'awardNumber');
      const title = kid(f, 'awardTitle');
      return {
        funderName: text(kid(f, 'funderName')),
        funderIdentifier: text(id),
        funderIdentifierType: attr(id, 'funderIdentifierType'),
        awardNumber: text(award),
        awardUri: attr(award, 'awardURI'),
        awardTitle: text(title),
        funderIdentifierSchemeUri: attr(id, 'schemeURI'),
        awardTitleLang: attr(title, 'xml:lang'),
      };
    });
}

/** The titles of a `titles` list, with their titleType. @example titlesOf(resource) // [{ title: 'Full DataCite XML Example', type: undefined }, …] */
export function titlesOf(root: XmlElement): { title: string; type: string | undefined }[] {
  return listOf(root, 'titles', 'title').map((t) => ({ title: text(t), type: attr(t, 'titleType') }));
}

/** The dates of a `dates` list, with their dateType. @example datesOf(resource) // [{ date: '2016-12-20', type: 'Created' }, …] */
export function datesOf(root: XmlElement): { date: string; type: string | undefined }[] {
  return listOf(root, 'dates', 'date').map((t) => ({ date: text(t), type: attr(t, 'dateType') }));
}

/** The alternate identifiers of an `alternateIdentifiers` list, with their type. @example alternatesOf(resource) */
export function alternatesOf(root: XmlElement): { value: string; type: string | undefined }[] {
  return listOf(root, 'alternateIdentifiers', 'alternateIdentifier').map((t) => ({ value: text(t), type: attr(t, 'alternateIdentifierType') }));
}

/** DataCite's properties of one `resource` element, in its own namespace (kernel-4 or kernel-3). */
function propsOf(root: XmlElement): DataciteProps {
  const id = kid(root, 'identifier');
  const rt = kid(root, 'resourceType');
  const items = listOf(root, 'relatedItems', 'relatedItem');
  const host = items.find((i) => isHostItem(attr(i, 'relationType'), attr(i, 'relatedItemType')));
  const part = (local: string): string | undefined => (host === undefined ? undefined : text(kid(host, local)));
  return {
    ...(id !== undefined && { identifier: { value: text(id), type: attr(id, 'identifierType') ?? 'DOI' } }),
    alternates: alternatesOf(root),
    creators: listOf(root, 'creators', 'creator').map((c) => agentOf(c, 'creatorName')),
    contributors: contributorsOf(root),
    titles: titlesOf(root),
    publisher: text(kid(root, 'publisher')),
    publicationYear: text(kid(root, 'publicationYear')),
    subjects: listOf(root, 'subjects', 'subject').map(text),
    dates: datesOf(root),
    language: text(kid(root, 'language')),
    ...(rt !== undefined && { resourceType: { general: attr(rt, 'resourceTypeGeneral'), label: text(rt) } }),
    related: [
      ...relatedOf(root),
      // DataCite 4.4 relatedItem: the related item's identifier, when it has one.
      ...items.map((i) => {
        const rid = kid(i, 'relatedItemIdentifier');
        return {
          identifier: text(rid),
          type: attr(rid, 'relatedItemIdentifierType'),
          relation: attr(i, 'relationType'),
          resourceTypeGeneral: attr(i, 'relatedItemType'),
          inRelatedItem: true,
        };
      }),
    ],
    relatedTitles: items.filter((i) => i !== host).map((i) => text(listOf(i, 'titles', 'title')[0])),
    ...(host !== undefined && {
      host: {
        title: text(listOf(host, 'titles', 'title')[0]),
        volume: part('volume'),
        issue: part('issue'),
        startPage: part('firstPage'),
        endPage: part('lastPage'),
      },
    }),
    formats: listOf(root, 'formats', 'format').map(text),
    rights: listOf(root, 'rightsList', 'rights').map((r) => ({ text: text(r), uri: attr(r, 'rightsURI') })),
    descriptions: listOf(root, 'descriptions', 'description').map(text),
    places: listOf(root, 'geoLocations', 'geoLocation').flatMap((g) => kids(g, 'geoLocationPlace').map(text)),
    funding: fundingOf(kids(root, 'fundingReferences')),
  };
}

/**
 * Lifts a DataCite kernel-4 or kernel-3 `resource` into the record model.
 *
 * @example readDatacite(parseFragment('<resource xmlns="http://datacite.org/schema/kernel-4"><identifier identifierType="DOI">10.5438/4K3M-NYVG</identifier></resource>')!)
 * // → { dc: {}, identifiers: [{ type: 'DOI', value: '10.5438/4K3M-NYVG' }] }
 */
export function readDatacite(root: XmlElement): RecordFields {
  const d = draft();
  if (!(root.local === 'resource' && (root.ns === DATACITE_KERNEL_4_NS || root.ns === DATACITE_KERNEL_3_NS))) return finish(d);
  liftDatacite(d, propsOf(root));
  const record = finish(d);
  return { ...record, ...withoutRepeats(record, dataciteDetailOf(root)) };
}
