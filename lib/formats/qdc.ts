/**
 * `qdc`: qualified Dublin Core in DSpace's container (`qdc:qualifieddc` in
 * http://dspace.org/qualifieddc/, the DCMI container schema given that
 * namespace, schemas/qdc/qdc-dspace.xsd; ListMetadataFormats names DCTERMS as
 * its namespace, as DSpace does), what CORE harvests as `qdc`. The elements
 * are DCMI's: the fifteen of http://purl.org/dc/elements/1.1/ and the
 * refinements of http://purl.org/dc/terms/ (DCMI Metadata Terms, 2008
 * schemas), each with its encoding scheme as `xsi:type` (dcterms:W3CDTF,
 * dcterms:URI, dcterms:RFC4646, dcterms:DCMIType, dcterms:IMT), never the
 * pre-2008 `scheme` attribute the 2008 schemas refuse.
 *
 * Every record with a title has it (qdc, like oai_dc, has no mandatory element; a title is what makes a record).
 *
 * | record                                       | qdc                                                            |
 * |----------------------------------------------|----------------------------------------------------------------|
 * | dc.title: the first, the others              | dc:title, dcterms:alternative                                  |
 * | creators / contributors (else dc)            | dc:creator, dc:contributor                                     |
 * | dc.subject                                   | dc:subject                                                     |
 * | descriptions of type Abstract; dc.description | dcterms:abstract (xml:lang); dc:description (the others)      |
 * | publisher (else dc.publisher)                | dc:publisher                                                   |
 * | dates.issued (else publicationYear), dates.accepted | dcterms:issued, dcterms:dateAccepted (W3CDTF); a dc.date, whose kind is not said, stays dc:date |
 * | dates.available; the embargo end when embargoed | dcterms:available (W3CDTF)                                  |
 * | dc.date                                      | dc:date                                                        |
 * | resource type: COAR URI, label; dc.type       | dc:type (URI; a DCMI Type term as DCMIType)                   |
 * | dc.format, files' media types                | dc:format (IMT for a media type)                               |
 * | identifiers and dc.identifier; the oai-identifier and POI | dc:identifier (URI for an http(s) URL)                    |
 * | files                                        | dcterms:hasFormat (URI): the work in another format            |
 * | dc.source; the host as a citation            | dc:source; dcterms:bibliographicCitation                       |
 * | language (else dc.language)                  | dc:language (RFC4646 for a BCP 47 tag)                         |
 * | related identifiers                          | dcterms:isPartOf, hasPart, isVersionOf, hasVersion, references, isReferencedBy, replaces, isReplacedBy, requires, isRequiredBy, isFormatOf, hasFormat (by relation); dc:relation (the others) |
 * | dc.relation, dc.coverage                     | dc:relation, dc:coverage                                       |
 * | dc.rights; the licence (license, else a licence URL in dc.rights); accessRights | dc:rights; dcterms:license (URI); dcterms:accessRights (the COAR URI) |
 *
 * Left out, for qualified Dublin Core has no place for them: name
 * identifiers and affiliations, contributor types, funding.
 */
import type { RecordFields } from '../model/record';
import { ACCESS_RIGHTS, COAR_RESOURCE_TYPE_PREFIX } from '../model/vocabularies';
import { accessRightOf, dcValues, dublinCore, hostCitation, licences, relationUri, titles } from '../model/facts';
import { coarTypeOfRecord } from '../model/type-facts';
import { classifyIdentifier, isHttpUrl } from '../model/identifiers';
import { isMediaType } from '../model/from-json-detail';
import { normalizeLanguageTag } from '../model/language';
import { DC_NS } from '../xml/namespaces';
import type { CrosswalkContext, CrosswalkResult, MetadataFormat } from './format';
import { leaf, rootOpen } from './xml-out';
import { trimXml } from './xml-in';
import { DCTERMS_RELATIONS, readQdc } from './qdc-read';

export const QDC_NS = 'http://dspace.org/qualifieddc/';
export const DCTERMS_NS = 'http://purl.org/dc/terms/';
/** The container schema DSpace's records name for the qdc namespace (a copy of DCMI's; schemas/catalog.xml maps it to qdc/qdc-dspace.xsd). */
export const QDC_SCHEMA = 'http://www.ukoln.ac.uk/metadata/dcmi/xmlschema/qualifieddc.xsd';

/** The DCMI Type Vocabulary (dcmitype.xsd), what dcterms:DCMIType accepts. */
export const DCMI_TYPES: ReadonlySet<string> = new Set([
  'Collection',
  'Dataset',
  'Event',
  'Image',
  'InteractiveResource',
  'MovingImage',
  'PhysicalObject',
  'Service',
  'Software',
  'Sound',
  'StillImage',
  'Text',
]);

// IsPublishedIn has no DCMI term of its own: read back, isPartOf would say IsPartOf, which the record did not (EDM writes it so too).
const REFINEMENT: ReadonlyMap<string, string> = new Map(DCTERMS_RELATIONS);

const URI: readonly [string, string] = ['xsi:type', 'dcterms:URI'];
const W3CDTF: readonly [string, string] = ['xsi:type', 'dcterms:W3CDTF'];
const uriOf = (v: string): readonly [string, string | undefined] => ['xsi:type', isHttpUrl(trimXml(v)) ? 'dcterms:URI' : undefined];

/** The identifier scheme a related resource's URI spells, as the qdc reader reads it (an ISSN as its URN). @example schemeOfRelated('urn:issn:0317-8471') // 'ISSN' */
export function schemeOfRelated(uri: string): string | undefined {
  return classifyIdentifier(uri.replace(/^urn:e?issn:/i, 'ISSN '))?.type;
}

/** Why a record cannot be a qdc record (it has no title), or null when it can. @example qdcLacks({ dc: {} }) // 'qualified Dublin Core needs a title' */
export function qdcLacks(r: RecordFields): string | null {
  return titles(r).length === 0 ? 'qualified Dublin Core needs a title' : null;
}

/**
 * Crosswalks a record to qualified Dublin Core, or says why it has none (no title).
 *
 * @example recordToQdc({ dc: { title: ['T'] } }, { oaiIdentifier: 'oai:x.org:1', options: {} }) // '<qdc:qualifieddc …><dc:title>T</dc:title><dc:identifier>oai:x.org:1</dc:identifier></qdc:qualifieddc>'
 */
export function recordToQdc(r: RecordFields, ctx: CrosswalkContext): CrosswalkResult {
  const lacks = qdcLacks(r);
  if (lacks !== null) return { notOffered: lacks };
  const dc = dublinCore(r);
  const vals = (e: keyof typeof dc): string[] => (dc[e] ?? []).filter((v) => v.trim() !== '');
  const [title, ...alternatives] = titles(r);
  const abstracts = (r.descriptions ?? []).filter((d) => d.type === 'Abstract' && d.value.trim() !== '');
  const said = new Set(abstracts.map((a) => a.value));
  const issued = r.dates?.issued ?? r.publicationYear;
  const d = r.dates ?? {};
  const embargoed = accessRightOf(r) === 'embargoed' ? d.embargoEnd : undefined;
  const available = [embargoed, d.available].filter((v): v is string => v !== undefined);
  const coar = r.resourceType !== undefined ? coarTypeOfRecord(r)?.uri : undefined;
  const types = [...new Set([...(coar !== undefined ? [coar] : []), ...vals('type')])];
  const language = r.language;
  // A refinement only where a reader can tell the identifier's scheme again from its URI (a PURL or RAiD URL would come back as a URL).
  const related = (r.relatedIdentifiers ?? []).map((x) => {
    const uri = relationUri(x);
    return { uri, term: schemeOfRelated(uri) === x.type ? REFINEMENT.get(x.relation) : undefined };
  });
  const relatedUris = new Set(related.map((x) => x.uri));
  const access = accessRightOf(r);
  const host = r.host !== undefined ? hostCitation(r.host) : undefined;
  const licence = licences(r)[0];
  return [
    rootOpen(
      'qdc:qualifieddc',
      [
        ['xmlns:qdc', QDC_NS],
        ['xmlns:dc', DC_NS],
        ['xmlns:dcterms', DCTERMS_NS],
      ],
      `${QDC_NS} ${QDC_SCHEMA}`,
    ),
    leaf('dc:title', title as string),
    ...alternatives.map((t) => leaf('dcterms:alternative', t)),
    ...vals('creator').map((v) => leaf('dc:creator', v)),
    ...vals('contributor').map((v) => leaf('dc:contributor', v)),
    ...vals('subject').map((v) => leaf('dc:subject', v)),
    ...abstracts.map((a) => leaf('dcterms:abstract', a.value, ['xml:lang', a.lang])),
    ...dcValues(r, 'description')
      .filter((v) => !said.has(v))
      .map((v) => leaf('dc:description', v)),
    ...vals('publisher').map((v) => leaf('dc:publisher', v)),
    issued !== undefined ? leaf('dcterms:issued', issued, W3CDTF) : '',
    d.accepted !== undefined ? leaf('dcterms:dateAccepted', d.accepted, W3CDTF) : '',
    ...available.map((v) => leaf('dcterms:available', v, W3CDTF)),
    ...dcValues(r, 'date').map((v) => leaf('dc:date', v)),
    ...types.map((v) =>
      leaf('dc:type', v, ['xsi:type', v.startsWith(COAR_RESOURCE_TYPE_PREFIX) ? 'dcterms:URI' : DCMI_TYPES.has(v) ? 'dcterms:DCMIType' : undefined]),
    ),
    ...vals('format').map((v) => leaf('dc:format', v, ['xsi:type', isMediaType(v) ? 'dcterms:IMT' : undefined])),
    ...[...new Set([...vals('identifier'), ctx.oaiIdentifier, ...(ctx.poi !== undefined ? [ctx.poi] : [])])].map((v) => leaf('dc:identifier', v, uriOf(v))),
    ...(r.files ?? []).filter((f) => isHttpUrl(f.url) && !relatedUris.has(f.url)).map((f) => leaf('dcterms:hasFormat', f.url, URI)),
    ...dcValues(r, 'source').map((v) => leaf('dc:source', v)),
    host !== undefined ? leaf('dcterms:bibliographicCitation', host) : '',
    ...(language !== undefined ? [leaf('dc:language', language, ['xsi:type', normalizeLanguageTag(language) !== null ? 'dcterms:RFC4646' : undefined])] : []),
    ...dcValues(r, 'language')
      .filter((v) => v !== language)
      .map((v) => leaf('dc:language', v)),
    ...related.map((x) => leaf(x.term !== undefined ? `dcterms:${x.term}` : 'dc:relation', x.uri, uriOf(x.uri))),
    ...dcValues(r, 'relation')
      .filter((v) => !relatedUris.has(v.trim()))
      .map((v) => leaf('dc:relation', v)),
    ...dcValues(r, 'coverage').map((v) => leaf('dc:coverage', v)),
    ...dcValues(r, 'rights')
      .filter((v) => v.trim() !== licence)
      .map((v) => leaf('dc:rights', v)),
    licence !== undefined ? leaf('dcterms:license', licence, uriOf(licence)) : '',
    access !== undefined ? leaf('dcterms:accessRights', ACCESS_RIGHTS[access].uri, URI) : '',
    '</qdc:qualifieddc>',
  ].join('');
}

/** The qdc entry of the format registry (offered when the configuration lists it). */
export const qdc: MetadataFormat = {
  prefix: 'qdc',
  schema: QDC_SCHEMA,
  namespace: DCTERMS_NS,
  rootNamespace: QDC_NS,
  builtIn: true,
  optIn: true,
  fromRecord: recordToQdc,
  lacks: qdcLacks,
  read: readQdc,
  alsoReads: ['http://epubs.cclrc.ac.uk/xmlns/qdc/', 'http://worldcat.org/xmlschemas/qdc-1.0/'],
};
