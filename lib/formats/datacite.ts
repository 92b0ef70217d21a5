/**
 * `datacite`: the DataCite Metadata Schema kernel-4 (4.7; namespace
 * http://datacite.org/schema/kernel-4, schemas/datacite-4/metadata.xsd),
 * one `resource` element per item.
 *
 * An item has this format only when its record has the six properties
 * DataCite makes mandatory (DataCite Metadata Schema 4.7, "Mandatory
 * properties"; `minOccurs` 1 in metadata.xsd): a DOI (Identifier), a
 * creator, a title, a publisher, a publication year and a resource type
 * (resourceTypeGeneral). Otherwise the result is `{ notOffered }` naming what
 * is missing.
 *
 * Crosswalk (record field → kernel-4 property, DataCite 4.7 numbering):
 *
 * | record                                 | kernel-4                                                                 |
 * |----------------------------------------|--------------------------------------------------------------------------|
 * | identifiers DOI (the first)            | 1 identifier/@identifierType="DOI"                                       |
 * | creators (else dc.creator)             | 2 creators/creator: creatorName/@nameType (Personal, Organizational), givenName, familyName, nameIdentifier ORCID (https://orcid.org/…), affiliation/@affiliationIdentifier ROR |
 * | dc.title                               | 3 titles/title (first main, the others AlternativeTitle)                 |
 * | publisher (else dc.publisher)          | 4 publisher                                                              |
 * | publicationYear (else issued, dc.date) | 5 publicationYear                                                        |
 * | resourceType                           | 10 resourceType/@resourceTypeGeneral, text the label                      |
 * | dc.subject                             | 6 subjects/subject                                                       |
 * | contributors (else dc.contributor)     | 7 contributors/contributor/@contributorType                              |
 * | dates issued, accepted, available, embargoEnd | 8 dates/date Issued, Accepted, Available (the embargo end is the Available date, as DataCite's dateType guidance says; it wins over `available`) |
 * | language                               | 9 language                                                               |
 * | other identifiers, the oai-identifier, the POI | 11 alternateIdentifiers (types Handle, URN, ARK, URL, ISBN, ISSN, DOI; "OAI"; "PURL") |
 * | relatedIdentifiers                     | 12 relatedIdentifiers/relatedIdentifier                                  |
 * | files size                             | 13 sizes/size ("N bytes")                                                |
 * | files mediaType, dc.format             | 14 formats/format                                                        |
 * | license, accessRights, dc.rights       | 16 rightsList/rights: @rightsURI the licence; the COAR access right URI and label; dc.rights as text |
 * | dc.description                         | 17 descriptions/description/@descriptionType="Abstract"                  |
 * | fundingReferences                      | 19 fundingReferences/fundingReference                                    |
 * | host                                   | 20 relatedItems/relatedItem/@relationType="IsPublishedIn" (DataCite 4.4): @relatedItemType Journal, Book or ConferenceProceeding (facts.ts hostKind), titles/title, volume, issue, firstPage, lastPage |
 *
 * The host's ISSN or ISBN stays a relatedIdentifier (12), where the record
 * keeps it, rather than the related item's optional relatedItemIdentifier.
 *
 * Not carried: dc.type, dc.source, dc.relation, dc.coverage (free text
 * DataCite has no plain-text place for), file URLs (DataCite describes the
 * resource, its DOI leads to the files).
 */
import type { Agent, FundingReference, RecordFields } from '../model/record';
import { ACCESS_RIGHTS } from '../model/vocabularies';
import { contributors, creators, dcValues, doi, formats, hostKind, publicationYear, publisher, titles, type HostKind } from '../model/facts';
import { type CrosswalkContext, type CrosswalkResult } from './format';
import type { MetadataFormat } from './format';
import { leaf, rootOpen, wrap, type Attr } from './xml-out';
import { DATACITE_KERNEL_3_NS, readDatacite } from './datacite-read';

export const DATACITE_NS = 'http://datacite.org/schema/kernel-4';
export const DATACITE_SCHEMA = 'http://schema.datacite.org/meta/kernel-4/metadata.xsd';

/** Why a record cannot be a DataCite resource, or null when it can: the six mandatory properties. @example dataciteLacks({ dc: {} }) // 'DataCite kernel-4 needs a DOI, a creator, a title, …' */
export function dataciteLacks(record: RecordFields): string | null {
  const missing: string[] = [];
  if (doi(record) === undefined) missing.push('a DOI');
  if (creators(record).length === 0) missing.push('a creator');
  if (titles(record).length === 0) missing.push('a title');
  if (publisher(record) === undefined) missing.push('a publisher');
  if (publicationYear(record) === undefined) missing.push('a publication year');
  if (record.resourceType === undefined) missing.push('a resource type');
  return missing.length === 0 ? null : `DataCite kernel-4 needs ${missing.join(', ')}`;
}

/**
 * A DataCite `creator` or `contributor` element, in the kernel-4 namespace
 * under `prefix` (`''` for DataCite itself, `'datacite:'` inside OpenAIRE).
 * OpenAIRE v4's DataCite 4.1 copy has no affiliation identifier, so `ror`
 * says whether ROR ids are written.
 *
 * @example agentElement('', 'creator', { name: 'A' }, true) // '<creator><creatorName>A</creatorName></creator>'
 */
export function agentElement(prefix: string, kind: 'creator' | 'contributor', a: Agent, ror: boolean, ...extra: Attr[]): string {
  const nameType = a.nameType === 'person' ? 'Personal' : a.nameType === 'organization' ? 'Organizational' : undefined;
  return wrap(
    `${prefix}${kind}`,
    [
      leaf(`${prefix}${kind}Name`, a.name, ['nameType', nameType]),
      a.givenName !== undefined ? leaf(`${prefix}givenName`, a.givenName) : '',
      a.familyName !== undefined ? leaf(`${prefix}familyName`, a.familyName) : '',
      a.orcid !== undefined
        ? leaf(`${prefix}nameIdentifier`, `https://orcid.org/${a.orcid}`, ['nameIdentifierScheme', 'ORCID'], ['schemeURI', 'https://orcid.org'])
        : '',
      ...(a.affiliations ?? []).map((af) =>
        ror && af.ror !== undefined
          ? leaf(`${prefix}affiliation`, af.name, ['affiliationIdentifier', af.ror], ['affiliationIdentifierScheme', 'ROR'], ['schemeURI', 'https://ror.org'])
          : leaf(`${prefix}affiliation`, af.name),
      ),
    ],
    ...extra,
  );
}

/**
 * A DataCite `fundingReference` element (the same shape in kernel-4 and, in its own namespace, in OpenAIRE v4), under `prefix`.
 *
 * @example fundingElement('', { funderName: 'F' }) // '<fundingReference><funderName>F</funderName></fundingReference>'
 */
export function fundingElement(prefix: string, f: FundingReference): string {
  return wrap(`${prefix}fundingReference`, [
    leaf(`${prefix}funderName`, f.funderName),
    f.funderIdentifier ? leaf(`${prefix}funderIdentifier`, f.funderIdentifier.value, ['funderIdentifierType', f.funderIdentifier.type]) : '',
    f.awardNumber !== undefined || f.awardUri !== undefined ? leaf(`${prefix}awardNumber`, f.awardNumber ?? '', ['awardURI', f.awardUri]) : '',
    f.awardTitle !== undefined ? leaf(`${prefix}awardTitle`, f.awardTitle) : '',
  ]);
}

/** DataCite relatedItemType of a host by its kind. */
export const RELATED_ITEM_TYPE_OF_HOST: Readonly<Record<HostKind, string>> = { journal: 'Journal', book: 'Book', proceedings: 'ConferenceProceeding' };

/**
 * The related item a work is published in (DataCite 4.4+ property 20,
 * relationType IsPublishedIn), or '' for a record without `host`.
 *
 * @example hostItem({ dc: {}, host: { title: 'Chemistry', volume: '23' } }) // '<relatedItems><relatedItem relatedItemType="Journal" relationType="IsPublishedIn"><titles><title>Chemistry</title></titles><volume>23</volume></relatedItem></relatedItems>'
 */
export function hostItem(record: RecordFields): string {
  const h = record.host;
  if (h === undefined) return '';
  const part = (name: string, v: string | undefined): string => (v !== undefined ? leaf(name, v) : '');
  return wrap('relatedItems', [
    wrap(
      'relatedItem',
      [
        h.title !== undefined ? wrap('titles', [leaf('title', h.title)]) : '',
        part('volume', h.volume),
        part('issue', h.issue),
        part('firstPage', h.startPage),
        part('lastPage', h.endPage),
      ],
      ['relatedItemType', RELATED_ITEM_TYPE_OF_HOST[hostKind(record)]],
      ['relationType', 'IsPublishedIn'],
    ),
  ]);
}

/**
 * The children of a kernel-4 `resource` for a record that has the mandatory
 * properties (check with `dataciteLacks` first).
 */
function dataciteBody(record: RecordFields, ctx: CrosswalkContext): string {
  const primary = doi(record) as string;
  const ts = titles(record);
  const dates = record.dates ?? {};
  const available = dates.embargoEnd ?? dates.available;
  const alternates: [string, string][] = [];
  for (const i of record.identifiers ?? []) if (!(i.type === 'DOI' && i.value === primary)) alternates.push([i.type, i.value]);
  alternates.push(['OAI', ctx.oaiIdentifier]);
  if (ctx.poi !== undefined) alternates.push(['PURL', ctx.poi]);
  const rights: string[] = [];
  if (record.license !== undefined) rights.push(leaf('rights', record.license, ['rightsURI', record.license]));
  if (record.accessRights !== undefined) {
    const a = ACCESS_RIGHTS[record.accessRights];
    rights.push(leaf('rights', a.label, ['rightsURI', a.uri]));
  }
  for (const r of dcValues(record, 'rights')) rights.push(leaf('rights', r));
  const rt = record.resourceType;
  return [
    leaf('identifier', primary, ['identifierType', 'DOI']),
    wrap(
      'creators',
      creators(record).map((c) => agentElement('', 'creator', c, true)),
    ),
    wrap(
      'titles',
      ts.map((t, i) => leaf('title', t, ['titleType', i === 0 ? undefined : 'AlternativeTitle'])),
    ),
    leaf('publisher', publisher(record) as string),
    leaf('publicationYear', publicationYear(record) as string),
    rt ? leaf('resourceType', rt.label, ['resourceTypeGeneral', rt.general]) : '',
    wrap(
      'subjects',
      dcValues(record, 'subject').map((s) => leaf('subject', s)),
    ),
    wrap(
      'contributors',
      contributors(record).map((c) => agentElement('', 'contributor', c, true, ['contributorType', c.type])),
    ),
    wrap('dates', [
      dates.issued !== undefined ? leaf('date', dates.issued, ['dateType', 'Issued']) : '',
      dates.accepted !== undefined ? leaf('date', dates.accepted, ['dateType', 'Accepted']) : '',
      available !== undefined ? leaf('date', available, ['dateType', 'Available']) : '',
    ]),
    record.language !== undefined ? leaf('language', record.language) : '',
    wrap(
      'alternateIdentifiers',
      alternates.map(([type, value]) => leaf('alternateIdentifier', value, ['alternateIdentifierType', type])),
    ),
    wrap(
      'relatedIdentifiers',
      (record.relatedIdentifiers ?? []).map((r) =>
        leaf(
          'relatedIdentifier',
          r.identifier,
          ['relatedIdentifierType', r.type],
          ['relationType', r.relation],
          ['resourceTypeGeneral', r.resourceTypeGeneral],
        ),
      ),
    ),
    wrap(
      'sizes',
      (record.files ?? []).flatMap((f) => (f.size !== undefined ? [leaf('size', `${f.size} bytes`)] : [])),
    ),
    wrap(
      'formats',
      formats(record).map((f) => leaf('format', f)),
    ),
    wrap('rightsList', rights),
    wrap(
      'descriptions',
      dcValues(record, 'description').map((d) => leaf('description', d, ['descriptionType', 'Abstract'])),
    ),
    wrap(
      'fundingReferences',
      (record.fundingReferences ?? []).map((f) => fundingElement('', f)),
    ),
    hostItem(record),
  ].join('');
}

/**
 * The kernel-4 `resource` element with its namespace and schemaLocation, as DataCite's own examples write it,
 * for a record `dataciteLacks` accepts; oai_datacite wraps it unaltered.
 *
 * @example dataciteResource(record, ctx) // '<resource xmlns="http://datacite.org/schema/kernel-4" …><identifier identifierType="DOI">…</resource>'
 */
export function dataciteResource(record: RecordFields, ctx: CrosswalkContext): string {
  return `${rootOpen('resource', [['xmlns', DATACITE_NS]], `${DATACITE_NS} ${DATACITE_SCHEMA}`)}${dataciteBody(record, ctx)}</resource>`;
}

/**
 * Crosswalks a record to DataCite kernel-4, or says why the item lacks it.
 *
 * @example
 * recordToDatacite({ dc: { title: ['T'] } }, { oaiIdentifier: 'oai:x.org:1', options: {} })
 * // → { notOffered: 'DataCite kernel-4 needs a DOI, a creator, a publisher, a publication year, a resource type' }
 */
export function recordToDatacite(record: RecordFields, ctx: CrosswalkContext): CrosswalkResult {
  const lacks = dataciteLacks(record);
  return lacks !== null ? { notOffered: lacks } : dataciteResource(record, ctx);
}

/** The datacite entry of the format registry. */
export const datacite: MetadataFormat = {
  prefix: 'datacite',
  schema: DATACITE_SCHEMA,
  namespace: DATACITE_NS,
  builtIn: true,
  fromRecord: recordToDatacite,
  lacks: dataciteLacks,
  read: readDatacite,
  alsoReads: [DATACITE_KERNEL_3_NS],
};
