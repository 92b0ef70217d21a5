/**
 * The reader beside the `qdc` writer: qualified Dublin Core lifted into the
 * record model, in any of the containers harvesters meet (the DCMI container
 * `qualifieddc` in DSpace's namespace http://dspace.org/qualifieddc/, CCLRC
 * ePubs' http://epubs.cclrc.ac.uk/xmlns/qdc/ that OpenEdition and CONTENTdm
 * serve as `qdc`, and CONTENTdm's `oai_qdc` http://worldcat.org/xmlschemas/qdc-1.0/).
 * Its children are read by local name in DC or DCTERMS (DCTERMS also holds
 * the fifteen elements: OpenEdition writes `dcterms:title`); an encoding
 * scheme is read from `xsi:type` or the pre-2008 `scheme` attribute.
 *
 * | qdc                                                   | model                                                  |
 * |-------------------------------------------------------|--------------------------------------------------------|
 * | title, then alternative                               | dc.title                                               |
 * | creator, contributor, subject, coverage (spatial, temporal) | dc.creator, dc.contributor, dc.subject, dc.coverage |
 * | description, tableOfContents; abstract                | dc.description; an abstract also a description of type Abstract |
 * | publisher                                             | publisher                                              |
 * | issued, dateAccepted                                  | dates.issued, dates.accepted (W3CDTF; else dc.date)    |
 * | available                                             | the embargo end when accessRights says embargoed, else dates.available |
 * | date, created, modified, dateSubmitted, dateCopyrighted, valid | dc.date                                       |
 * | type                                                  | a COAR type URI: resourceType; else dc.type            |
 * | format, extent, medium                                | dc.format                                              |
 * | identifier                                            | dc.identifier (typed when it spells its scheme)        |
 * | bibliographicCitation, source                         | dc.source                                              |
 * | language                                              | language (BCP 47; else dc.language)                    |
 * | hasFormat: an http(s) URL; other text                 | files; dc.relation                                     |
 * | isPartOf, hasPart, references, … (an identifier)      | relatedIdentifiers by relation (an ISSN urn the serial it IsPartOf); text dc.relation |
 * | relation                                              | dc.relation                                            |
 * | rights; license; accessRights                         | dc.rights; the licence; the access right (COAR, info:eu-repo) |
 *
 * Other DCTERMS refinements (audience, provenance, …) have no place in the model: they stay in the XML as given.
 *
 * Pure and total: an element other than a qualifieddc gives an empty record.
 */
import type { DescriptionEntry, RecordFields } from '../model/record';
import type { RelationType } from '../model/vocabularies';
import { classifyIdentifier, isHttpUrl } from '../model/identifiers';
import { isXmlLang } from '../model/language';
import { DC_NS } from '../xml/namespaces';
import type { XmlElement } from '../xml/tree';
import { accessOf, addDc, addFile, addRights, draft, finish, setCoarType, setDate, setLanguage, setPublisher } from './reader-rules';
import { addRelated } from './reader-entries';
import { attr, elements, text } from './xml-in';

const DCTERMS_NS = 'http://purl.org/dc/terms/';
/** The namespaces of the qualifieddc containers read. */
export const QDC_CONTAINERS: ReadonlySet<string> = new Set([
  'http://dspace.org/qualifieddc/',
  'http://epubs.cclrc.ac.uk/xmlns/qdc/',
  'http://worldcat.org/xmlschemas/qdc-1.0/',
]);

/** DataCite relation types and the DCTERMS refinement of dc:relation that says each (DCMI Metadata Terms). */
export const DCTERMS_RELATIONS: readonly (readonly [RelationType, string])[] = [
  ['IsPartOf', 'isPartOf'],
  ['HasPart', 'hasPart'],
  ['IsVersionOf', 'isVersionOf'],
  ['HasVersion', 'hasVersion'],
  ['References', 'references'],
  ['IsReferencedBy', 'isReferencedBy'],
  ['Obsoletes', 'replaces'],
  ['IsObsoletedBy', 'isReplacedBy'],
  ['Requires', 'requires'],
  ['IsRequiredBy', 'isRequiredBy'],
  ['IsVariantFormOf', 'isFormatOf'],
];
const RELATION_OF: ReadonlyMap<string, string> = new Map(DCTERMS_RELATIONS.map(([relation, term]) => [term, relation]));
const AS_DATE = new Set(['date', 'created', 'modified', 'dateSubmitted', 'dateCopyrighted', 'valid']);

/**
 * Lifts a qualified Dublin Core container into the record model.
 *
 * @example readQdc(parseFragment('<qdc:qualifieddc xmlns:qdc="http://dspace.org/qualifieddc/" xmlns:dcterms="http://purl.org/dc/terms/"><dcterms:issued>2018-10-01</dcterms:issued></qdc:qualifieddc>')!).dates // { issued: '2018-10-01' }
 */
export function readQdc(root: XmlElement): RecordFields {
  const d = draft();
  if (!QDC_CONTAINERS.has(root.ns) || root.local !== 'qualifieddc') return finish(d);
  const all = elements(root).filter((e) => e.ns === DC_NS || e.ns === DCTERMS_NS);
  const named = (...locals: string[]): XmlElement[] => all.filter((e) => locals.includes(e.local));
  const v = (e: XmlElement): string => text(e);
  const abstracts: DescriptionEntry[] = [];

  for (const e of named('title')) addDc(d, 'title', v(e));
  for (const e of named('alternative')) addDc(d, 'title', v(e));
  for (const local of ['creator', 'contributor', 'subject'] as const) for (const e of named(local)) addDc(d, local, v(e));
  for (const e of named('coverage', 'spatial', 'temporal')) addDc(d, 'coverage', v(e));
  for (const e of named('description', 'tableOfContents', 'abstract')) {
    addDc(d, 'description', v(e));
    const lang = attr(e, 'xml:lang');
    if (e.local === 'abstract' && v(e) !== '') abstracts.push({ value: v(e), type: 'Abstract', ...(lang !== undefined && isXmlLang(lang) && { lang }) });
  }
  for (const e of named('publisher')) setPublisher(d, v(e));
  for (const e of named('issued')) setDate(d, 'issued', v(e));
  for (const e of named('dateAccepted')) setDate(d, 'accepted', v(e));
  for (const e of all) if (AS_DATE.has(e.local)) addDc(d, 'date', v(e));
  for (const e of named('type')) {
    const t = v(e).replace(/^https:\/\/purl\.org\/coar\//, 'http://purl.org/coar/');
    if (t.startsWith('http://purl.org/coar/resource_type/')) setCoarType(d, t, undefined);
    else addDc(d, 'type', v(e));
  }
  for (const e of named('format', 'extent', 'medium')) addDc(d, 'format', v(e));
  for (const e of named('identifier')) addDc(d, 'identifier', v(e));
  for (const e of named('source', 'bibliographicCitation')) addDc(d, 'source', v(e));
  for (const e of named('language')) setLanguage(d, v(e));
  for (const e of named('rights')) addDc(d, 'rights', v(e));
  for (const e of named('license')) addRights(d, undefined, v(e));
  for (const e of named('accessRights')) {
    if (accessOf(v(e)) !== undefined) addRights(d, undefined, v(e));
    else addDc(d, 'rights', v(e));
  }
  // The date a work becomes available ends its embargo, when the record says it is embargoed.
  for (const e of named('available')) setDate(d, d.accessRights === 'embargoed' && d.dates.embargoEnd === undefined ? 'embargoEnd' : 'available', v(e));
  for (const e of named('relation')) addDc(d, 'relation', v(e));
  // The work in another format: a file of it where it is an http(s) URL (the qdc writer writes the files so).
  for (const e of named('hasFormat')) {
    if (isHttpUrl(v(e))) addFile(d, v(e));
    else addDc(d, 'relation', v(e));
  }
  for (const e of all) {
    const relation = RELATION_OF.get(e.local);
    if (relation === undefined) continue;
    const value = v(e);
    const c = classifyIdentifier(value.replace(/^urn:e?issn:/i, 'ISSN '));
    if (c === null) addDc(d, 'relation', value);
    else addRelated(d, { identifier: c.type === 'URL' ? value : c.value, type: c.type, relation });
  }
  const out = finish(d);
  return abstracts.length > 0 ? { ...out, descriptions: abstracts } : out;
}
