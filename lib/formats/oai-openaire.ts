/**
 * `oai_openaire`: the OpenAIRE Guidelines for Literature Repositories v4
 * (application profile of Dublin Core, DataCite and OpenAIRE elements;
 * namespace http://namespace.openaire.eu/schema/oaire/,
 * schemas/openaire-4/openaire.xsd), one `oaire:resource` per item.
 *
 * An item has this format when its record has what the guidelines make
 * mandatory and a record can always say: a title (field 1, Title), a
 * resource type from the COAR vocabulary of the guidelines (field 11,
 * Resource Type: the typed one, else the COAR concept of its DataCite
 * resourceTypeGeneral, else the one a dc:type names, an info:eu-repo type by
 * the guidelines' own table of successors: type-facts.ts `coarTypeOfRecord`), an
 * access right (field 15, Access Rights: the typed one, else a COAR or
 * info:eu-repo term in dc:rights), and a resource
 * identifier (field 14, Resource Identifier: a DOI, Handle, URN, ARK or URL
 * of the record, else the item's POI as a PURL). Creator, language and
 * publisher are "mandatory if applicable" and written when the record has
 * them.
 *
 * Crosswalk (record field → guideline field, element):
 *
 * | record                                | OpenAIRE v4                                                          |
 * |---------------------------------------|----------------------------------------------------------------------|
 * | dc.title                              | 1 datacite:titles/datacite:title (the others titleType AlternativeTitle) |
 * | creators (else dc.creator)            | 2 datacite:creators/datacite:creator: creatorName/@nameType, givenName, familyName, nameIdentifier ORCID, affiliation (text) |
 * | contributors (else dc.contributor)    | 3 datacite:contributors/datacite:contributor/@contributorType (Translator, unknown to v4, as Other) |
 * | fundingReferences                     | 4 oaire:fundingReferences/oaire:fundingReference                     |
 * | other identifiers, oai-identifier, POI | 5 datacite:alternateIdentifiers/datacite:alternateIdentifier (types as DataCite names them; "OAI"; "PURL") |
 * | relatedIdentifiers                    | 6 datacite:relatedIdentifiers (only the types and relations of the v4 schema's DataCite 4.1 lists) |
 * | dates accepted, embargoEnd/available  | 7 datacite:dates: Accepted (embargo start), Available (embargo end)   |
 * | language (else dc.language)           | 8 dc:language                                                        |
 * | publisher (else dc.publisher)         | 9 dc:publisher                                                       |
 * | dates issued (else publicationYear, else the dc.date that is the publication date: never a timestamp beside another date) | 10 datacite:date/@dateType="Issued", in its precision |
 * | resourceType COAR (else from general, else dc.type) | 11 oaire:resourceType/@uri, @resourceTypeGeneral, text the label (a type derived from DataCite's resourceTypeGeneral by COAR Resource Types 3.2: COAR's label) |
 * | dc.description                        | 12 dc:description                                                     |
 * | files mediaType, dc.format            | 13 dc:format                                                          |
 * | DOI / Handle / URN / ARK / URL / POI  | 14 datacite:identifier/@identifierType (the first of that order)      |
 * | accessRights                          | 15 datacite:rights/@rightsURI (COAR access right), text the label     |
 * | dc.source                             | 16 dc:source                                                          |
 * | dc.subject                            | 17 datacite:subjects/datacite:subject                                 |
 * | license                               | 18 oaire:licenseCondition/@uri                                        |
 * | dc.coverage                           | 19 dc:coverage                                                        |
 * | files                                 | 21 oaire:file/@accessRightsURI, @mimeType, @objectType (from the resource type) |
 * | host title, volume, issue, startPage, endPage | Citation Title, Volume, Issue, Start Page, End Page: oaire:citationTitle … citationEndPage |
 *
 * The container's ISSN or ISBN is a related identifier (field 6, relation
 * IsPartOf or IsPublishedIn), as the guidelines' journal article sample
 * writes it; the citation fields have no place for it.
 *
 * The guidelines take alternateIdentifierType from their relatedIdentifierType
 * list (vocab_alternateidentifiertype), which has PURL for the POI but no
 * entry for an oai-identifier: "OAI" is schema-valid (the attribute is free
 * text in openaire.xsd) but outside that recommended list. It is written so
 * that every format carries the item's oai-identifier; drop it here if the
 * OpenAIRE validator objects.
 */
import type { RecordFields } from '../model/record';
import { agentElement, fundingElement } from './datacite';
import {
  ACCESS_RIGHTS,
  OPENAIRE_RELATED_GENERAL_TYPES,
  OPENAIRE_RELATED_IDENTIFIER_TYPES,
  OPENAIRE_RELATION_TYPES,
  type OpenAireResourceType,
} from '../model/vocabularies';
import { accessRightOf, contributors, creators, dcValues, formats, identifiersOf, publisher, publicationYear, titles } from '../model/facts';
import { coarTypeOfRecord } from '../model/type-facts';
import { type CrosswalkContext, type CrosswalkResult } from './format';
import type { MetadataFormat } from './format';
import { DC_NS } from '../xml/namespaces';
import { publicationDateAmong } from '../model/dates';
import { leaf, rootOpen, wrap } from './xml-out';
import { readOpenaire } from './oai-openaire-read';

export const OPENAIRE_NS = 'http://namespace.openaire.eu/schema/oaire/';
export const OPENAIRE_SCHEMA = 'https://www.openaire.eu/schema/repo-lit/4.0/openaire.xsd';
const DATACITE_NS = 'http://datacite.org/schema/kernel-4';

/** The host's parts and the OpenAIRE v4 elements that carry them ("Citation Title" … "Citation End Page", each 0-1). */
export const HOST_ELEMENTS = [
  ['title', 'oaire:citationTitle'],
  ['volume', 'oaire:citationVolume'],
  ['issue', 'oaire:citationIssue'],
  ['startPage', 'oaire:citationStartPage'],
  ['endPage', 'oaire:citationEndPage'],
] as const;

const OBJECT_TYPE: Record<OpenAireResourceType, string> = {
  literature: 'fulltext',
  dataset: 'dataset',
  software: 'software',
  'other research product': 'other',
};

/** The resource identifier (field 14): the record's DOI, Handle, URN, ARK or URL, else the POI as a PURL. */
function resourceIdentifier(record: RecordFields, ctx: CrosswalkContext): [type: string, value: string] | undefined {
  for (const [type, label] of [
    ['DOI', 'DOI'],
    ['Handle', 'HANDLE'],
    ['URN', 'URN'],
    ['ARK', 'ARK'],
    ['URL', 'URL'],
  ] as const) {
    const v = identifiersOf(record, type)[0];
    if (v !== undefined) return [label, v];
  }
  return ctx.poi !== undefined ? ['PURL', ctx.poi] : undefined;
}

/**
 * Why a record cannot be an OpenAIRE v4 resource, or null when it can.
 *
 * @example openaireLacks({ dc: { title: ['T'] } }, { oaiIdentifier: 'oai:x.org:1', options: {} }) // 'OpenAIRE v4 needs a resource type (COAR, a DataCite resourceTypeGeneral, or a dc:type naming a COAR concept), an access right, a DOI, Handle, URN, ARK, URL or POI'
 */
export function openaireLacks(record: RecordFields, ctx: CrosswalkContext): string | null {
  const missing: string[] = [];
  if (titles(record).length === 0) missing.push('a title');
  if (coarTypeOfRecord(record) === undefined) missing.push('a resource type (COAR, a DataCite resourceTypeGeneral, or a dc:type naming a COAR concept)');
  if (accessRightOf(record) === undefined) missing.push('an access right');
  if (resourceIdentifier(record, ctx) === undefined) missing.push('a DOI, Handle, URN, ARK, URL or POI');
  return missing.length === 0 ? null : `OpenAIRE v4 needs ${missing.join(', ')}`;
}

/**
 * Crosswalks a record to OpenAIRE v4, or says why the item lacks it.
 *
 * @example
 * recordToOpenaire({ dc: { title: ['T'] } }, { oaiIdentifier: 'oai:x.org:1', poi: 'http://purl.org/poi/x.org/1', options: {} })
 * // → { notOffered: 'OpenAIRE v4 needs a resource type (COAR, a DataCite resourceTypeGeneral, or a dc:type naming a COAR concept), an access right' }
 */
export function recordToOpenaire(record: RecordFields, ctx: CrosswalkContext): CrosswalkResult {
  const lacks = openaireLacks(record, ctx);
  if (lacks !== null) return { notOffered: lacks };
  const type = coarTypeOfRecord(record)!;
  const [idType, idValue] = resourceIdentifier(record, ctx)!;
  const alternates: [string, string][] = [];
  for (const i of record.identifiers ?? []) if (i.value !== idValue) alternates.push([i.type, i.value]);
  alternates.push(['OAI', ctx.oaiIdentifier]);
  if (ctx.poi !== undefined && ctx.poi !== idValue) alternates.push(['PURL', ctx.poi]);
  const dates = record.dates ?? {};
  const available = dates.embargoEnd ?? dates.available;
  // Publication Date (field 10) in its precision: the typed date, else the year, else the dc:date that is the
  // publication date by what it is (never an accession or availability timestamp beside it: ../model/dates.ts).
  const issued = dates.issued ?? record.publicationYear ?? publicationDateAmong(dcValues(record, 'date')) ?? publicationYear(record);
  const language = record.language ?? dcValues(record, 'language')[0];
  const pub = publisher(record);
  const access = ACCESS_RIGHTS[accessRightOf(record)!];
  const ts = titles(record);
  return [
    rootOpen(
      'oaire:resource',
      [
        ['xmlns:oaire', OPENAIRE_NS],
        ['xmlns:datacite', DATACITE_NS],
        ['xmlns:dc', DC_NS],
      ],
      `${OPENAIRE_NS} ${OPENAIRE_SCHEMA}`,
    ),
    wrap(
      'datacite:titles',
      ts.map((t, i) => leaf('datacite:title', t, ['titleType', i === 0 ? undefined : 'AlternativeTitle'])),
    ),
    wrap(
      'datacite:creators',
      creators(record).map((c) => agentElement('datacite:', 'creator', c, false)),
    ),
    wrap(
      'datacite:contributors',
      contributors(record).map((c) => agentElement('datacite:', 'contributor', c, false, ['contributorType', c.type === 'Translator' ? 'Other' : c.type])),
    ),
    wrap(
      'oaire:fundingReferences',
      (record.fundingReferences ?? []).map((f) => fundingElement('oaire:', f)),
    ),
    wrap(
      'datacite:alternateIdentifiers',
      alternates.map(([t, v]) => leaf('datacite:alternateIdentifier', v, ['alternateIdentifierType', t])),
    ),
    wrap(
      'datacite:relatedIdentifiers',
      (record.relatedIdentifiers ?? [])
        .filter((r) => OPENAIRE_RELATED_IDENTIFIER_TYPES.has(r.type) && OPENAIRE_RELATION_TYPES.has(r.relation))
        .map((r) =>
          leaf(
            'datacite:relatedIdentifier',
            r.identifier,
            ['relatedIdentifierType', r.type],
            ['relationType', r.relation],
            [
              'resourceTypeGeneral',
              r.resourceTypeGeneral !== undefined && OPENAIRE_RELATED_GENERAL_TYPES.has(r.resourceTypeGeneral) ? r.resourceTypeGeneral : undefined,
            ],
          ),
        ),
    ),
    wrap('datacite:dates', [
      dates.accepted !== undefined ? leaf('datacite:date', dates.accepted, ['dateType', 'Accepted']) : '',
      available !== undefined ? leaf('datacite:date', available, ['dateType', 'Available']) : '',
      issued !== undefined ? leaf('datacite:date', issued, ['dateType', 'Issued']) : '',
    ]),
    language !== undefined ? leaf('dc:language', language) : '',
    pub !== undefined ? leaf('dc:publisher', pub) : '',
    // A type derived from resourceTypeGeneral is COAR's concept, named by COAR's label (OpenAIRE v4 field 11).
    leaf(
      'oaire:resourceType',
      record.resourceType?.coar !== undefined ? record.resourceType.label : type.label,
      ['resourceTypeGeneral', type.openaire],
      ['uri', type.uri],
    ),
    ...dcValues(record, 'description').map((d) => leaf('dc:description', d)),
    ...formats(record).map((f) => leaf('dc:format', f)),
    leaf('datacite:identifier', idValue, ['identifierType', idType]),
    leaf('datacite:rights', access.label, ['rightsURI', access.uri]),
    ...dcValues(record, 'source').map((s) => leaf('dc:source', s)),
    wrap(
      'datacite:subjects',
      dcValues(record, 'subject').map((s) => leaf('datacite:subject', s)),
    ),
    record.license !== undefined ? leaf('oaire:licenseCondition', record.license, ['uri', record.license]) : '',
    ...dcValues(record, 'coverage').map((c) => leaf('dc:coverage', c)),
    ...(record.files ?? []).map((f) =>
      leaf(
        'oaire:file',
        f.url,
        ['accessRightsURI', f.access !== undefined ? ACCESS_RIGHTS[f.access].uri : undefined],
        ['mimeType', f.mediaType],
        ['objectType', OBJECT_TYPE[type.openaire]],
      ),
    ),
    ...HOST_ELEMENTS.map(([key, name]) => {
      const v = record.host?.[key];
      return v !== undefined ? leaf(name, v) : '';
    }),
    '</oaire:resource>',
  ].join('');
}

/** The oai_openaire entry of the format registry. */
export const oaiOpenaire: MetadataFormat = {
  prefix: 'oai_openaire',
  schema: OPENAIRE_SCHEMA,
  namespace: OPENAIRE_NS,
  builtIn: true,
  fromRecord: recordToOpenaire,
  lacks: openaireLacks,
  read: readOpenaire,
};
