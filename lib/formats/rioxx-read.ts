/**
 * The reader beside the `rioxx` writer: a RIOXX v3.0 record lifted into the
 * record model.
 *
 * | RIOXX v3 property                                   | model                                                    |
 * |-----------------------------------------------------|----------------------------------------------------------|
 * | dc:identifier (the landing page)                    | dc.identifier (first), a URL identifier                  |
 * | dc:relation rel="cite-as"                           | identifiers (a DOI, Handle, … at its resolver), else dc.identifier |
 * | dc:relation rel="item"                              | files (URL, @type, @access_rights); @license_ref the licence; @coar_version dc.type |
 * | dc:relation without a rel (or another one)          | dc.relation                                              |
 * | dc:title, dc:description, dc:subject, dc:coverage   | dc.title, dc.description, dc.subject, dc.coverage        |
 * | dc:language                                         | language (BCP 47; other text dc.language)                |
 * | dc:type                                             | resourceType (a COAR type of the OpenAIRE list), else dc.type |
 * | dc:source                                           | an ISSN: a related ISSN the work IsPartOf; else dc.source |
 * | dc:publisher, rioxxterms:publisher                  | publisher; an http(s) rioxxterms:id publisherIdentifier  |
 * | rioxxterms:creator, rioxxterms:contributor          | creators, contributors (type Other): name, ORCID iD, every rioxxterms:id as a name identifier |
 * | dcterms:dateAccepted                                | dates.accepted                                           |
 * | rioxxterms:publication_date                         | dates.issued                                             |
 * | rioxxterms:record_public_release_date               | dates.available                                          |
 * | rioxxterms:grant                                    | fundingReferences: funder name, funder id (its type from its URI), award number |
 * | rioxxterms:project                                  | dc.relation (a project URI names no funder)              |
 * | rioxxterms:ext_relation                             | relatedIdentifiers (References; @coar_type the general type), else (a COAR type the model cannot name) dc.relation |
 * | the files' @access_rights, when they agree          | accessRights                                             |
 *
 * The official examples' published mistakes are read as their authors meant
 * them: the old `docs.rioxx.net` rioxxterms namespace, `rel="cite_as"`, and
 * a value's stray trailing quote are not the record's content.
 *
 * Pure and total: an element other than rioxx gives an empty record.
 */
import type { RecordFields } from '../model/record';
import { COAR_TYPES, COAR_VERSION_TYPES } from '../model/vocabularies';
import { checkIssn, classifyIdentifier, isHttpUrl } from '../model/identifiers';
import { DC_NS } from '../xml/namespaces';
import type { XmlElement } from '../xml/tree';
import { addDc, addFile, addIdentifier, addRights, draft, finish, nonBlank, setCoarType, setDate, setLanguage, setPublisher, type Draft } from './reader-rules';
import { addRelated, toAgent, toFunding } from './reader-entries';
import { attr, elements, kids, text } from './xml-in';

const RIOXX_NS = 'http://www.rioxx.net/schema/v3.0/rioxx/';
const RIOXXTERMS_NS = 'http://www.rioxx.net/schema/v3.0/rioxxterms/';
/** The namespace the profile's own example records and DSpace's rioxx.xsl declare for rioxxterms by mistake. */
const RIOXXTERMS_DOCS_NS = 'http://docs.rioxx.net/schema/v3.0/rioxxterms/';
const DCTERMS_NS = 'http://purl.org/dc/terms/';

/** An element's text, as written. */
const value = (e: XmlElement | undefined): string | undefined => nonBlank(text(e));
/** A URI without the stray quote the profile's examples leave after some (a quote is not a URI character, RFC 3986). */
const uri = (e: XmlElement | undefined): string | undefined => {
  const t = text(e);
  return nonBlank(/^https?:\/\/[^\s"]+"+$/.test(t) ? t.replace(/"+$/, '') : t);
};

/** The scheme a name identifier's URI names, for the model's name identifiers. */
function schemeOfUri(uri: string): string {
  const host = /^https?:\/\/(?:www\.)?([^/]+)/i.exec(uri)?.[1]?.toLowerCase() ?? '';
  const known: Record<string, string> = { 'orcid.org': 'ORCID', 'isni.org': 'ISNI', 'viaf.org': 'VIAF', 'wikidata.org': 'Wikidata', 'ror.org': 'ROR' };
  return known[host] ?? 'URI';
}

/** The DataCite funderIdentifierType a funder URI names. */
function funderTypeOf(uri: string): string {
  if (/^https?:\/\/(?:dx\.)?doi\.org\/10\.13039\//i.test(uri)) return 'Crossref Funder ID';
  if (/^https?:\/\/(?:www\.)?ror\.org\//i.test(uri)) return 'ROR';
  if (/^https?:\/\/(?:www\.)?isni\.org\//i.test(uri)) return 'ISNI';
  return 'Other';
}

function agentOf(e: XmlElement, ns: string): ReturnType<typeof toAgent> {
  const ids = kids(e, 'id', ns).flatMap((i) => {
    const v = uri(i);
    return v === undefined ? [] : [{ value: v, scheme: schemeOfUri(v) }];
  });
  return toAgent({ name: value(kids(e, 'name', ns)[0]), ids });
}

function addCiteAs(d: Draft, v: string): void {
  const c = classifyIdentifier(v);
  if (c !== null && c.type !== 'URL') addIdentifier(d, c.type, c.value);
  else addDc(d, 'identifier', v);
}

/**
 * Lifts a RIOXX v3 `rioxx` element into the record model.
 *
 * @example readRioxx(parseFragment('<rioxx xmlns="http://www.rioxx.net/schema/v3.0/rioxx/" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title></rioxx>')!) // { dc: { title: ['T'] } }
 */
export function readRioxx(root: XmlElement): RecordFields {
  const d = draft();
  if (root.ns !== RIOXX_NS || root.local !== 'rioxx') return finish(d);
  const all = elements(root);
  const terms = all.some((e) => e.ns === RIOXXTERMS_DOCS_NS) ? RIOXXTERMS_DOCS_NS : RIOXXTERMS_NS;
  const dc = (local: string): XmlElement[] => all.filter((e) => e.ns === DC_NS && e.local === local);
  const rt = (local: string): XmlElement[] => all.filter((e) => e.ns === terms && e.local === local);
  const dct = (local: string): XmlElement[] => all.filter((e) => e.ns === DCTERMS_NS && e.local === local);

  // The landing page first, so it stays the record's first URL.
  for (const e of dc('identifier')) addDc(d, 'identifier', uri(e));
  for (const e of dc('title')) addDc(d, 'title', value(e));
  for (const e of dc('language')) setLanguage(d, value(e));
  for (const e of dc('type')) setCoarType(d, value(e), undefined);
  for (const local of ['description', 'subject', 'coverage'] as const) for (const e of dc(local)) addDc(d, local, value(e));
  for (const e of dc('source')) {
    const v = value(e);
    const issn = v === undefined ? undefined : checkIssn(v);
    if (issn !== undefined && 'value' in issn) addRelated(d, { identifier: issn.value, type: 'ISSN', relation: 'IsPartOf' });
    else addDc(d, 'source', v);
  }
  for (const e of dc('publisher')) setPublisher(d, value(e));
  let publisherId: string | undefined;
  for (const e of rt('publisher')) {
    setPublisher(d, value(kids(e, 'name', terms)[0]));
    publisherId ??= kids(e, 'id', terms)
      .map(uri)
      .find((v) => v !== undefined && isHttpUrl(v));
  }
  for (const e of rt('creator')) {
    const a = agentOf(e, terms);
    if (a !== undefined) d.creators.push(a);
  }
  for (const e of rt('contributor')) {
    const a = agentOf(e, terms);
    if (a !== undefined) d.contributors.push({ ...a, type: 'Other' });
  }
  for (const e of dct('dateAccepted')) setDate(d, 'accepted', value(e));
  for (const e of rt('publication_date')) setDate(d, 'issued', value(e));
  for (const e of rt('record_public_release_date')) setDate(d, 'available', value(e));

  const versions = new Set<string>();
  const knownVersions = new Set<string>(Object.values(COAR_VERSION_TYPES).map((v) => v.uri));
  for (const e of dc('relation')) {
    const v = uri(e);
    if (v === undefined) continue;
    const rel = attr(e, 'rel')?.toLowerCase().replace('_', '-');
    if (rel === 'cite-as') addCiteAs(d, v);
    else if (rel === 'item') {
      addFile(d, v, { mediaType: attr(e, 'type'), access: attr(e, 'access_rights') });
      const licence = attr(e, 'license_ref');
      if (licence !== undefined && d.license !== licence && !(d.dc.rights ?? []).includes(licence)) addRights(d, undefined, licence);
      const version = attr(e, 'coar_version')?.replace(/^https:/, 'http:');
      if (version !== undefined && !versions.has(version)) {
        versions.add(version);
        if (knownVersions.has(version)) addDc(d, 'type', version);
      }
    } else addDc(d, 'relation', v);
  }
  for (const e of rt('ext_relation')) {
    const v = uri(e);
    const c = v === undefined ? null : classifyIdentifier(v);
    const coar = attr(e, 'coar_type')?.replace(/^https:/, 'http:');
    const general = coar === undefined ? undefined : COAR_TYPES.get(coar)?.datacite;
    // A related resource of a COAR type the model cannot name (its required coar_type would be lost) stays a relation as text.
    if (c !== null && c.type !== 'ISSN' && c.type !== 'ISBN' && general !== undefined)
      addRelated(d, { identifier: c.type === 'URL' ? v : c.value, type: c.type, relation: 'References', resourceTypeGeneral: general });
    else addDc(d, 'relation', v);
  }
  // RIOXX says access per file: when every file says the same, it is the record's.
  const access = new Set(d.files.map((f) => f.access));
  const [only] = access;
  if (d.accessRights === undefined && access.size === 1 && only !== undefined) d.accessRights = only;
  for (const e of rt('grant')) {
    const id = attr(e, 'funder_id');
    const f = toFunding({
      funderName: attr(e, 'funder_name'),
      funderIdentifier: id,
      funderIdentifierType: id === undefined ? undefined : funderTypeOf(id),
      awardNumber: value(e),
    });
    if (f !== undefined) d.fundingReferences.push(f);
  }
  for (const e of rt('project')) addDc(d, 'relation', uri(e));
  const out = finish(d);
  return publisherId !== undefined && out.publisher !== undefined ? { ...out, publisherIdentifier: { value: publisherId } } : out;
}
