/**
 * The reader beside the `edm` writer: an EDM record (RDF/XML, root
 * `rdf:RDF`), as Europeana's providers send it, lifted into the record
 * model, following the "Europeana Data Model Mapping Guidelines" v2.4 for
 * what each property means; it reads back everything ./edm.ts writes.
 *
 * | EDM                                                   | model                                                    |
 * |-------------------------------------------------------|----------------------------------------------------------|
 * | ProvidedCHO dc:title, dcterms:alternative             | dc.title                                                 |
 * | dc:description, dcterms:tableOfContents               | dc.description                                           |
 * | dc:creator                                            | creators: the name, or the skos:prefLabel (else foaf:name) of the edm:Agent its `rdf:resource` names, with the ORCID iD that URI is; a URI naming no agent of the record stays dc.creator |
 * | dc:contributor                                        | dc.contributor (a named agent's label)                   |
 * | dc:publisher                                          | publisher (the first), dc.publisher                      |
 * | dcterms:issued                                        | dates.issued (W3CDTF), else dc.date                      |
 * | dc:date, dcterms:created                              | dc.date                                                  |
 * | dc:language                                           | language (a BCP 47 tag, the first), dc.language          |
 * | dc:subject                                            | dc.subject (a skos:Concept's label, else the text or URI) |
 * | dc:coverage, dcterms:spatial, dcterms:temporal        | dc.coverage (an edm:Place's or edm:TimeSpan's label, else the text or URI) |
 * | dc:type `rdf:resource` a COAR concept, and the dc:type after it | resourceType (COAR, that label)                |
 * | other dc:type                                         | dc.type                                                  |
 * | edm:type, when no COAR concept says the type          | resourceType: TEXT Text, IMAGE Image, SOUND Sound, VIDEO Audiovisual, 3D Other ("3D") |
 * | dc:format, dcterms:extent, dcterms:medium             | dc.format                                                |
 * | dc:identifier; Aggregation edm:isShownAt              | dc.identifier (and typed where it spells its scheme)     |
 * | dc:source; dc:relation                                | dc.source; dc.relation                                   |
 * | dcterms:isPartOf, hasPart, isVersionOf, … with `rdf:resource` | relatedIdentifiers (the relation the property says, the scheme the URI spells), else dc.relation |
 * | dc:rights: text; `rdf:resource`                       | dc.rights; the COAR access right, else a licence         |
 * | Aggregation edm:rights                                | license                                                  |
 * | Aggregation edm:isShownBy, edm:hasView (with their edm:WebResource: ebucore:hasMimeType, ebucore:fileByteSize, dc:rights a COAR access right) | files |
 *
 * Europeana's own EDM (its OAI-PMH output, EDM-INTERNAL.xsd) gives the
 * object's properties in the provider's ore:Proxy, the ProvidedCHO empty:
 * those are read as the ProvidedCHO's.
 *
 * Not lifted: edm:dataProvider and edm:provider (the institutions, this
 * repository's own options when it writes EDM), edm:object (a thumbnail),
 * edm:currentLocation and the other EDM relations, places' coordinates,
 * time spans' bounds, Europeana's own aggregation and proxy (its
 * enrichments).
 *
 * Pure and total: an element other than rdf:RDF, or one without an
 * edm:ProvidedCHO, gives an empty record.
 */
import { COAR_TYPES, type DataCiteResourceType, type RelationType } from '../model/vocabularies';
import type { RecordFields } from '../model/record';
import { classifyIdentifier } from '../model/identifiers';
import { DC_NS } from '../xml/namespaces';
import type { XmlElement } from '../xml/tree';
import { addDc, addFile, addRights, draft, finish, nonBlank, setCoarType, setDate, setLanguage, setPublisher, type Draft } from './reader-rules';
import { addRelated, toAgent } from './reader-entries';
import { elements, kid, kids, prefixedAttr, text } from './xml-in';

export const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const EDM_NS = 'http://www.europeana.eu/schemas/edm/';
export const EDM_SCHEMA = 'http://www.europeana.eu/schemas/edm/EDM.xsd';
export const ORE_NS = 'http://www.openarchives.org/ore/terms/';
export const DCTERMS_NS = 'http://purl.org/dc/terms/';
export const SKOS_NS = 'http://www.w3.org/2004/02/skos/core#';
export const EBUCORE_NS = 'http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#';
const FOAF_NS = 'http://xmlns.com/foaf/0.1/';

/** The five content types of edm:type (EDM-COMMON-MAIN.xsd `EdmType`). */
export type EdmType = 'TEXT' | 'IMAGE' | 'SOUND' | 'VIDEO' | '3D';

/** The DataCite general type (and its label) an edm:type says. */
const GENERAL_OF_EDM_TYPE: Readonly<Record<EdmType, readonly [DataCiteResourceType, string]>> = {
  TEXT: ['Text', 'Text'],
  IMAGE: ['Image', 'Image'],
  SOUND: ['Sound', 'Sound'],
  VIDEO: ['Audiovisual', 'Audiovisual'],
  '3D': ['Other', '3D'],
};

/** The DataCite relation a dcterms property says (DCMI Metadata Terms' relation refinements; ./edm.ts writes them). */
export const RELATION_OF_DCTERMS: Readonly<Record<string, RelationType>> = {
  isPartOf: 'IsPartOf',
  hasPart: 'HasPart',
  isVersionOf: 'IsVersionOf',
  hasVersion: 'HasVersion',
  references: 'References',
  isReferencedBy: 'IsReferencedBy',
  requires: 'Requires',
  isRequiredBy: 'IsRequiredBy',
  replaces: 'Obsoletes',
  isReplacedBy: 'IsObsoletedBy',
  isFormatOf: 'IsVariantFormOf',
  hasFormat: 'IsOriginalFormOf',
};

const about = (e: XmlElement): string | undefined => nonBlank(prefixedAttr(e, 'about'));
const resourceOf = (e: XmlElement): string | undefined => nonBlank(prefixedAttr(e, 'resource'));
const is = (e: XmlElement, ns: string, local: string): boolean => e.ns === ns && e.local === local;

/** The record's contextual resources (agents, places, time spans, concepts, web resources) by their URI. */
type Context = ReadonlyMap<string, XmlElement>;

/** The label of a contextual resource: its first skos:prefLabel, else its foaf:name. */
function labelOf(e: XmlElement | undefined): string | undefined {
  if (e === undefined) return undefined;
  return nonBlank(text(kid(e, 'prefLabel', SKOS_NS))) ?? nonBlank(text(kid(e, 'name', FOAF_NS)));
}

/** A property's value as text: its literal, else the label of the resource it names, else that URI. */
function valueOf(e: XmlElement, context: Context): string | undefined {
  const r = resourceOf(e);
  if (r === undefined) return nonBlank(text(e));
  return labelOf(context.get(r)) ?? r;
}

/**
 * Lifts an EDM `rdf:RDF` element into the record model.
 *
 * @example readEdm(parseFragment('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:edm="http://www.europeana.eu/schemas/edm/" xmlns:dc="http://purl.org/dc/elements/1.1/"><edm:ProvidedCHO rdf:about="x"><dc:title>T</dc:title><edm:type>TEXT</edm:type></edm:ProvidedCHO></rdf:RDF>')!)
 * // → { dc: { title: ['T'] }, resourceType: { general: 'Text', label: 'Text' } }
 */
export function readEdm(root: XmlElement): RecordFields {
  const d = draft();
  if (!is(root, RDF_NS, 'RDF')) return finish(d);
  const all = elements(root);
  const cho = all.find((e) => is(e, EDM_NS, 'ProvidedCHO'));
  if (cho === undefined) return finish(d);
  const context = new Map<string, XmlElement>();
  for (const e of all) {
    const uri = about(e);
    if (uri !== undefined && e !== cho && !context.has(uri)) context.set(uri, e);
  }
  const aggregation = all.find((e) => is(e, ORE_NS, 'Aggregation'));
  const rights = aggregation === undefined ? undefined : kid(aggregation, 'rights', EDM_NS);
  // The Aggregation's edm:rights first: it is the licence of the object (EDM MG, ore:Aggregation).
  if (rights !== undefined) addRights(d, undefined, resourceOf(rights));
  readCho(d, [...elements(cho), ...providerProxyProperties(all, cho)], context);
  if (aggregation !== undefined) readAggregation(d, aggregation, context);
  return finish(d);
}

/**
 * The properties the provider's ore:Proxy gives the object: how Europeana
 * publishes EDM (its OAI-PMH output and API, EDM-INTERNAL.xsd), the
 * ProvidedCHO empty and its description in a proxy of the provider
 * (`edm:europeanaProxy` false) beside Europeana's own (true: its enrichments
 * and identifiers, not what the provider said). The proxy's own bookkeeping
 * (ore:proxyFor, ore:proxyIn, ore:lineage, edm:europeanaProxy) is not a
 * property of the object.
 */
function providerProxyProperties(all: readonly XmlElement[], cho: XmlElement): XmlElement[] {
  const choUri = about(cho);
  return all
    .filter((e) => {
      if (!is(e, ORE_NS, 'Proxy')) return false;
      const forEl = kid(e, 'proxyFor', ORE_NS);
      // The provider's proxy says so (edm:europeanaProxy false), or is the proxy for this object.
      const provider = text(kid(e, 'europeanaProxy', EDM_NS)) === 'false';
      return forEl === undefined ? provider : resourceOf(forEl) === choUri && text(kid(e, 'europeanaProxy', EDM_NS)) !== 'true';
    })
    .flatMap((e) => elements(e).filter((p) => p.ns !== ORE_NS && !is(p, EDM_NS, 'europeanaProxy')));
}

function readCho(d: Draft, props: readonly XmlElement[], context: Context): void {
  let edmType: string | undefined;
  for (let k = 0; k < props.length; k++) {
    const e = props[k] as XmlElement;
    if (e.ns === EDM_NS) {
      if (e.local === 'type') edmType = nonBlank(text(e));
      continue;
    }
    if (e.ns === DCTERMS_NS) {
      readDcterms(d, e, context);
      continue;
    }
    if (e.ns !== DC_NS) continue;
    switch (e.local) {
      case 'creator':
        readCreator(d, e, context);
        break;
      case 'publisher':
        setPublisher(d, valueOf(e, context));
        break;
      case 'language':
        setLanguage(d, valueOf(e, context));
        break;
      case 'type': {
        const r = resourceOf(e);
        const coar = r === undefined || d.resourceType !== undefined ? undefined : COAR_TYPES.get(r.replace(/^https:/, 'http:'));
        if (coar === undefined) {
          addDc(d, 'type', valueOf(e, context));
          break;
        }
        // ./edm.ts writes a COAR concept as a resource followed by its label.
        const next = props[k + 1];
        const label = next !== undefined && is(next, DC_NS, 'type') && resourceOf(next) === undefined ? nonBlank(text(next)) : undefined;
        setCoarType(d, coar.uri, label);
        if (label !== undefined) k++;
        break;
      }
      case 'coverage':
        addDc(d, 'coverage', valueOf(e, context));
        break;
      case 'rights': {
        const r = resourceOf(e);
        if (r !== undefined) addRights(d, undefined, r);
        else addDc(d, 'rights', text(e));
        break;
      }
      case 'title':
      case 'description':
      case 'contributor':
      case 'date':
      case 'subject':
      case 'format':
      case 'identifier':
      case 'source':
      case 'relation':
        addDc(d, e.local, valueOf(e, context));
        break;
    }
  }
  if (d.resourceType === undefined && edmType !== undefined) {
    const general = GENERAL_OF_EDM_TYPE[edmType as EdmType];
    if (general !== undefined) d.resourceType = { general: general[0], label: general[1] };
    else addDc(d, 'type', edmType);
  }
}

function readDcterms(d: Draft, e: XmlElement, context: Context): void {
  // Own keys only: an element named `__proto__` or `constructor` is no relation.
  const relation = Object.hasOwn(RELATION_OF_DCTERMS, e.local) ? RELATION_OF_DCTERMS[e.local] : undefined;
  if (relation !== undefined) {
    const r = resourceOf(e);
    const c = r === undefined ? null : classifyIdentifier(r);
    if (c !== null) addRelated(d, { identifier: c.value, type: c.type, relation });
    else addDc(d, 'relation', valueOf(e, context));
    return;
  }
  switch (e.local) {
    case 'alternative':
      addDc(d, 'title', valueOf(e, context));
      break;
    case 'tableOfContents':
      addDc(d, 'description', valueOf(e, context));
      break;
    case 'issued':
      setDate(d, 'issued', valueOf(e, context));
      break;
    case 'created':
      addDc(d, 'date', valueOf(e, context));
      break;
    case 'spatial':
    case 'temporal':
      addDc(d, 'coverage', valueOf(e, context));
      break;
    case 'extent':
    case 'medium':
      addDc(d, 'format', valueOf(e, context));
      break;
  }
}

/** A dc:creator: a name, or an edm:Agent of the record (its label, and the ORCID iD its URI is); a URI naming no agent stays Dublin Core. */
function readCreator(d: Draft, e: XmlElement, context: Context): void {
  const r = resourceOf(e);
  const agentEl = r === undefined ? undefined : context.get(r);
  if (r !== undefined && (agentEl === undefined || !is(agentEl, EDM_NS, 'Agent') || labelOf(agentEl) === undefined)) {
    addDc(d, 'creator', r);
    return;
  }
  const agent = toAgent({ name: r === undefined ? text(e) : labelOf(agentEl), ids: r === undefined ? [] : [{ value: r }] });
  if (agent !== undefined) d.creators.push(agent);
}

function readAggregation(d: Draft, aggregation: XmlElement, context: Context): void {
  const shownAtEl = kid(aggregation, 'isShownAt', EDM_NS);
  const shownAt = shownAtEl === undefined ? undefined : resourceOf(shownAtEl);
  if (shownAt !== undefined && !sameIdentifierIn(d.dc.identifier ?? [], shownAt)) addDc(d, 'identifier', shownAt);
  // The object itself first, then its other views (EDM MG: edm:isShownBy, edm:hasView).
  for (const e of [...kids(aggregation, 'isShownBy', EDM_NS), ...kids(aggregation, 'hasView', EDM_NS)]) {
    const r = resourceOf(e);
    if (r === undefined) continue;
    const web = context.get(r);
    const described = web !== undefined && is(web, EDM_NS, 'WebResource') ? web : undefined;
    const rights = described === undefined ? undefined : elements(described).find((x) => is(x, DC_NS, 'rights') && resourceOf(x) !== undefined);
    addFile(d, r, {
      mediaType: described === undefined ? undefined : text(kid(described, 'hasMimeType', EBUCORE_NS)),
      size: described === undefined ? undefined : text(kid(described, 'fileByteSize', EBUCORE_NS)),
      access: rights === undefined ? undefined : resourceOf(rights),
    });
  }
}

/** Whether an identifier is among the values, as written or in another spelling of the same scheme and value. */
function sameIdentifierIn(values: readonly string[], id: string): boolean {
  const c = classifyIdentifier(id);
  return values.some((v) => {
    if (v === id) return true;
    const o = c === null ? null : classifyIdentifier(v);
    return o !== null && c !== null && o.type === c.type && o.value === c.value;
  });
}
