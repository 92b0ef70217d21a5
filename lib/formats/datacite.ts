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
 * What a record keeps as DataCite gave it (./datacite-detail.ts: `titles`,
 * `publisherIdentifier`, `publisherLang`, `subjects`, `typedDates`,
 * `alternateIdentifiers`, `sizes`, `version`, `rightsList`, `descriptions`,
 * `geoLocations`, `relatedItems`, `uncheckedRelatedIdentifiers` (related
 * identifiers whose value their scheme's check refuses, after the checked
 * ones); name identifiers of any scheme, affiliation
 * identifiers and the language of names on the agents) is written first, as
 * given (titles, related items and geolocations by ./datacite-detail-out.ts),
 * and each row above after it only where it says something those do
 * not: DataCite in is DataCite out, element for element and attribute for
 * attribute (test/formats/datacite-lossless.test.ts). A related identifier
 * that is a related item's own identifier is written once, in the item.
 *
 * Not carried: dc.type, dc.source, dc.relation, dc.coverage (free text
 * DataCite has no plain-text place for), file URLs (DataCite describes the
 * resource, its DOI leads to the files).
 */
import type { Agent, FundingReference, NameIdentifier, RecordFields, RelatedIdentifier } from '../model/record';
import { ACCESS_RIGHTS } from '../model/vocabularies';
import { contributors, creators, dcValues, doi, formats, publicationYear, publisher, titles } from '../model/facts';
import { hostKind, type HostKind } from '../model/citation-facts';
import { type CrosswalkContext, type CrosswalkResult } from './format';
import type { MetadataFormat } from './format';
import { leaf, rootOpen, wrap, type Attr } from './xml-out';
import { geoLocationElement, relatedItemElement, titleElement } from './datacite-detail-out';
import { DATACITE_KERNEL_3_NS, readDatacite } from './datacite-read';
import { isHostItem } from './datacite-lift';
import { accessOf } from './reader-rules';

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
 * Whether a name identifier given as written already says the agent's checked ORCID iD (any spelling of it).
 */
function saysOrcid(ids: readonly NameIdentifier[], orcid: string): boolean {
  const bare = orcid.replace(/-/g, '');
  return ids.some((i) =>
    i.value
      .replace(/[^0-9Xx]/g, '')
      .toUpperCase()
      .endsWith(bare),
  );
}

/**
 * A DataCite `creator` or `contributor` element, in the kernel-4 namespace
 * under `prefix` (`''` for DataCite itself, `'datacite:'` inside OpenAIRE).
 * OpenAIRE v4's DataCite 4.1 copy has no affiliation identifier, no
 * language of a name and no scheme URI other than ORCID's, so `full` says
 * whether DataCite 4.7's are written: the name identifiers as given (every
 * scheme), then the checked ORCID iD unless one of them says it; affiliation
 * identifiers as given, else the checked ROR id.
 *
 * @example agentElement('', 'creator', { name: 'A' }, true) // '<creator><creatorName>A</creatorName></creator>'
 */
export function agentElement(prefix: string, kind: 'creator' | 'contributor', a: Agent, full: boolean, ...extra: Attr[]): string {
  const nameType = a.nameType === 'person' ? 'Personal' : a.nameType === 'organization' ? 'Organizational' : undefined;
  const given = full ? (a.nameIdentifiers ?? []) : [];
  return wrap(
    `${prefix}${kind}`,
    [
      leaf(`${prefix}${kind}Name`, a.name, ['nameType', nameType], ['xml:lang', full ? a.lang : undefined]),
      a.givenName !== undefined ? leaf(`${prefix}givenName`, a.givenName) : '',
      a.familyName !== undefined ? leaf(`${prefix}familyName`, a.familyName) : '',
      ...given.map((i) => leaf(`${prefix}nameIdentifier`, i.value, ['nameIdentifierScheme', i.scheme], ['schemeURI', i.schemeUri])),
      a.orcid !== undefined && !saysOrcid(given, a.orcid)
        ? leaf(`${prefix}nameIdentifier`, `https://orcid.org/${a.orcid}`, ['nameIdentifierScheme', 'ORCID'], ['schemeURI', 'https://orcid.org'])
        : '',
      ...(a.affiliations ?? []).map((af) =>
        !full
          ? leaf(`${prefix}affiliation`, af.name)
          : af.identifier !== undefined
            ? leaf(
                `${prefix}affiliation`,
                af.name,
                ['affiliationIdentifier', af.identifier],
                ['affiliationIdentifierScheme', af.identifierScheme],
                ['schemeURI', af.schemeUri],
              )
            : af.ror !== undefined
              ? leaf(
                  `${prefix}affiliation`,
                  af.name,
                  ['affiliationIdentifier', af.ror],
                  ['affiliationIdentifierScheme', 'ROR'],
                  ['schemeURI', 'https://ror.org'],
                )
              : leaf(`${prefix}affiliation`, af.name),
      ),
    ],
    ...extra,
  );
}

/**
 * A DataCite `fundingReference` element (the same shape in kernel-4 and, in its own namespace, in OpenAIRE v4), under `prefix`;
 * the funder identifier's scheme URI and the award title's language only in DataCite itself (`prefix` '').
 *
 * @example fundingElement('', { funderName: 'F' }) // '<fundingReference><funderName>F</funderName></fundingReference>'
 */
export function fundingElement(prefix: string, f: FundingReference): string {
  const full = prefix === '';
  return wrap(`${prefix}fundingReference`, [
    leaf(`${prefix}funderName`, f.funderName),
    f.funderIdentifier
      ? leaf(
          `${prefix}funderIdentifier`,
          f.funderIdentifier.value,
          ['funderIdentifierType', f.funderIdentifier.type],
          ['schemeURI', full ? f.funderIdentifierSchemeUri : undefined],
        )
      : '',
    f.awardNumber !== undefined || f.awardUri !== undefined ? leaf(`${prefix}awardNumber`, f.awardNumber ?? '', ['awardURI', f.awardUri]) : '',
    f.awardTitle !== undefined ? leaf(`${prefix}awardTitle`, f.awardTitle, ['xml:lang', full ? f.awardTitleLang : undefined]) : '',
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
  const h = hostElement(record);
  return h === '' ? '' : wrap('relatedItems', [h]);
}

/** The `relatedItem` of the record's host, or ''. */
function hostElement(record: RecordFields): string {
  const h = record.host;
  if (h === undefined) return '';
  const part = (name: string, v: string | undefined): string => (v !== undefined ? leaf(name, v) : '');
  return wrap(
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
  );
}

/** A COAR access right URI in its http form (the model's), for comparing with one as written. */
const httpCoar = (uri: string | undefined): string | undefined => uri?.replace(/^https:\/\/purl\.org\/coar\//, 'http://purl.org/coar/');

/**
 * The children of a kernel-4 `resource` for a record that has the mandatory
 * properties (check with `dataciteLacks` first). What the record keeps as
 * DataCite gave it (titles, subjects, dates, alternate identifiers, sizes,
 * rights, descriptions, related items) is written first, and each shared
 * field after it where it says something those do not.
 */
function dataciteBody(record: RecordFields, ctx: CrosswalkContext): string {
  const primary = doi(record) as string;
  const dates = record.dates ?? {};
  const available = dates.embargoEnd ?? dates.available;

  const givenTitles = record.titles ?? [];
  const titleValues = new Set(givenTitles.map((t) => t.value));
  const moreTitles = titles(record).filter((t) => !titleValues.has(t));
  const titleElements = [
    ...givenTitles.map(titleElement),
    ...moreTitles.map((t, i) => leaf('title', t, ['titleType', i === 0 && givenTitles.length === 0 ? undefined : 'AlternativeTitle'])),
  ];

  const givenSubjects = record.subjects ?? [];
  const subjectValues = new Set(givenSubjects.map((x) => x.value));
  const subjectElements = [
    ...givenSubjects.map((x) =>
      leaf(
        'subject',
        x.value,
        ['subjectScheme', x.scheme],
        ['schemeURI', x.schemeUri],
        ['valueURI', x.valueUri],
        ['classificationCode', x.classificationCode],
        ['xml:lang', x.lang],
      ),
    ),
    ...dcValues(record, 'subject')
      .filter((x) => !subjectValues.has(x))
      .map((x) => leaf('subject', x)),
  ];

  const givenDates = record.typedDates ?? [];
  const saysDate = (type: string, value: string): boolean => givenDates.some((d) => d.type === type && d.value.startsWith(value));
  // Loops rather than flatMap here and below: this runs for every record of a load, and V8's flatMap costs
  // several times a loop's push.
  const dateElements = givenDates.map((d) => leaf('date', d.value, ['dateType', d.type], ['dateInformation', d.information]));
  for (const [type, value] of [
    ['Issued', dates.issued],
    ['Accepted', dates.accepted],
    ['Available', available],
  ] as const)
    if (value !== undefined && !saysDate(type, value)) dateElements.push(leaf('date', value, ['dateType', type]));

  const givenAlternates = record.alternateIdentifiers ?? [];
  const saysId = (value: string): boolean => givenAlternates.some((a) => a.value.toLowerCase().includes(value.toLowerCase()));
  const alternates: [string, string][] = givenAlternates.map((a) => [a.type, a.value]);
  for (const i of record.identifiers ?? []) if (!(i.type === 'DOI' && i.value === primary) && !saysId(i.value)) alternates.push([i.type, i.value]);
  if (!saysId(ctx.oaiIdentifier)) alternates.push(['OAI', ctx.oaiIdentifier]);
  if (ctx.poi !== undefined && !saysId(ctx.poi)) alternates.push(['PURL', ctx.poi]);

  // A related item's identifier is also a related identifier of the model (for every format); written once, in the item.
  const items = record.relatedItems ?? [];
  const inItem = (r: RelatedIdentifier): boolean =>
    r.inRelatedItem === true &&
    items.some((i) => i.identifier !== undefined && i.identifier.value.toLowerCase() === r.identifier.toLowerCase() && i.relation === r.relation);
  const hostGiven = items.some((i) => isHostItem(i.relation, i.itemType));

  const givenSizes = record.sizes ?? [];
  const sizes = [...givenSizes];
  for (const f of record.files ?? []) if (f.size !== undefined && !givenSizes.includes(`${f.size} bytes`)) sizes.push(`${f.size} bytes`);

  const givenRights = record.rightsList ?? [];
  const rightsUris = new Set<string>();
  const rightsTexts = new Set<string>();
  for (const r of givenRights) {
    const uri = httpCoar(r.uri);
    if (uri !== undefined) rightsUris.add(uri);
    if (r.text !== undefined) rightsTexts.add(r.text);
    if (r.uri !== undefined) rightsTexts.add(r.uri);
  }
  const rights: string[] = givenRights.map((r) =>
    leaf(
      'rights',
      r.text ?? '',
      ['rightsURI', r.uri],
      ['rightsIdentifier', r.identifier],
      ['rightsIdentifierScheme', r.identifierScheme],
      ['schemeURI', r.schemeUri],
      ['xml:lang', r.lang],
    ),
  );
  if (record.license !== undefined && !rightsUris.has(record.license)) rights.push(leaf('rights', record.license, ['rightsURI', record.license]));
  if (record.accessRights !== undefined) {
    const a = ACCESS_RIGHTS[record.accessRights];
    // An access right a given statement already names (a COAR URI, an info:eu-repo term) is not said twice.
    if (!givenRights.some((r) => accessOf(r.uri) === record.accessRights)) rights.push(leaf('rights', a.label, ['rightsURI', a.uri]));
  }
  for (const r of dcValues(record, 'rights')) if (!rightsTexts.has(r) && !rightsUris.has(httpCoar(r) ?? r)) rights.push(leaf('rights', r));

  const givenDescriptions = record.descriptions ?? [];
  const descriptionValues = new Set(givenDescriptions.map((d) => d.value));
  const descriptionElements = [
    ...givenDescriptions.map((d) => leaf('description', d.value, ['descriptionType', d.type], ['xml:lang', d.lang])),
    ...dcValues(record, 'description')
      .filter((d) => !descriptionValues.has(d))
      .map((d) => leaf('description', d, ['descriptionType', 'Abstract'])),
  ];

  const pi = record.publisherIdentifier;
  const rt = record.resourceType;
  return [
    leaf('identifier', primary, ['identifierType', 'DOI']),
    wrap(
      'creators',
      creators(record).map((c) => agentElement('', 'creator', c, true)),
    ),
    wrap('titles', titleElements),
    leaf(
      'publisher',
      publisher(record) as string,
      ['xml:lang', record.publisherLang],
      ['publisherIdentifier', pi?.value],
      ['publisherIdentifierScheme', pi?.scheme],
      ['schemeURI', pi?.schemeUri],
    ),
    leaf('publicationYear', publicationYear(record) as string),
    rt ? leaf('resourceType', rt.label, ['resourceTypeGeneral', rt.general]) : '',
    wrap('subjects', subjectElements),
    wrap(
      'contributors',
      contributors(record).map((c) => agentElement('', 'contributor', c, true, ['contributorType', c.type])),
    ),
    wrap('dates', dateElements),
    record.language !== undefined ? leaf('language', record.language) : '',
    wrap(
      'alternateIdentifiers',
      alternates.map(([type, value]) => leaf('alternateIdentifier', value, ['alternateIdentifierType', type])),
    ),
    wrap(
      'relatedIdentifiers',
      // The checked ones, then those kept as given (record.ts `uncheckedRelatedIdentifiers`).
      [...(record.relatedIdentifiers ?? []).filter((r) => !inItem(r)), ...(record.uncheckedRelatedIdentifiers ?? [])].map((r) =>
        leaf(
          'relatedIdentifier',
          r.identifier,
          ['relatedIdentifierType', r.type],
          ['relationType', r.relation],
          ['resourceTypeGeneral', r.resourceTypeGeneral],
          ['relatedMetadataScheme', r.relatedMetadataScheme],
          ['schemeURI', r.schemeUri],
          ['schemeType', r.schemeType],
          ['relationTypeInformation', r.relationTypeInformation],
        ),
      ),
    ),
    wrap(
      'sizes',
      sizes.map((x) => leaf('size', x)),
    ),
    wrap(
      'formats',
      formats(record).map((f) => leaf('format', f)),
    ),
    record.version !== undefined ? leaf('version', record.version) : '',
    wrap('rightsList', rights),
    wrap('descriptions', descriptionElements),
    wrap('geoLocations', (record.geoLocations ?? []).map(geoLocationElement)),
    wrap(
      'fundingReferences',
      (record.fundingReferences ?? []).map((f) => fundingElement('', f)),
    ),
    wrap('relatedItems', [...items.map(relatedItemElement), hostGiven ? '' : hostElement(record)]),
  ].join('');
}

/**
 * The kernel-4 `resource` element with its namespace and schemaLocation, as DataCite's own examples write it,
 * for a record `dataciteLacks` accepts; oai_datacite wraps it unaltered.
 *
 * @example dataciteResource(record, ctx) // '<resource xmlns="http://datacite.org/schema/kernel-4" …><identifier identifierType="DOI">…</resource>'
 */
export function dataciteResource(record: RecordFields, ctx: CrosswalkContext): string {
  // `datacite` and `oai_datacite` write the same resource from the same model one after the other in a load
  // (lib/pipeline/prepare.ts writes the formats in the registry's order): the second takes the first's string.
  // The model is never changed once read, so its object with the two identifiers the body names is the key.
  // One entry, not a WeakMap: a WeakMap entry per record costs the garbage collector more than it saves.
  const last = lastResource;
  if (last !== undefined && last.record === record && last.oaiIdentifier === ctx.oaiIdentifier && last.poi === ctx.poi) return last.xml;
  const xml = `${rootOpen('resource', [['xmlns', DATACITE_NS]], `${DATACITE_NS} ${DATACITE_SCHEMA}`)}${dataciteBody(record, ctx)}</resource>`;
  lastResource = { record, oaiIdentifier: ctx.oaiIdentifier, poi: ctx.poi, xml };
  return xml;
}

/** The resource last written, with the model and identifiers it was written from. */
let lastResource: { readonly record: RecordFields; readonly oaiIdentifier: string; readonly poi: string | undefined; readonly xml: string } | undefined;

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
