/**
 * `rioxx`: the RIOXX application profile v3.0 (root `rioxx` in
 * http://www.rioxx.net/schema/v3.0/rioxx/, properties from Dublin Core,
 * DCTERMS and rioxxterms; profile https://www.rioxx.net/profiles/v3-0-final/),
 * what UK funders and CORE harvest from a UK repository, as DSpace 7+ and
 * EPrints serve it under the metadataPrefix `rioxx`.
 *
 * An item has this format when its record has the profile's five mandatory
 * properties: a landing page (dc:identifier, exactly one: an http(s) URL of
 * the record that is neither a persistent identifier's resolver nor one of
 * its files), a language (dc:language), a title (dc:title, exactly one), a
 * COAR resource type (dc:type, type-facts.ts `coarTypeOfRecord`, else a COAR URI
 * the record's dc:type gives) and a creator (rioxxterms:creator).
 *
 * Crosswalk (record field → RIOXX v3 property):
 *
 * | record                                   | RIOXX v3                                                                 |
 * |------------------------------------------|--------------------------------------------------------------------------|
 * | the first URL identifier (not a file)    | dc:identifier, the landing page                                          |
 * | DOI, Handle, ARK, URN, other URLs; POI, oai-identifier | dc:relation rel="cite-as" (the repository's PIDs; the item's own last) |
 * | files                                    | dc:relation rel="item": @type the media type, @access_rights (COAR; the file's, else the record's), @license_ref (the licence), @coar_type (the record's), @coar_version (a COAR version dc:type names), @resource_exposed_date (the embargo end) |
 * | dc.title (the first)                     | dc:title                                                                 |
 * | language, dc.language                    | dc:language, each once                                                   |
 * | resource type (COAR)                     | dc:type                                                                  |
 * | creators, contributors                   | rioxxterms:creator, rioxxterms:contributor: rioxxterms:name, rioxxterms:id (ORCID iD as https://orcid.org/…, every http(s) name identifier); the first creator first-named-author |
 * | publisher, publisherIdentifier           | rioxxterms:publisher: rioxxterms:name, rioxxterms:id (an http(s) identifier) |
 * | dc.description, dc.subject, dc.coverage  | dc:description, dc:subject, dc:coverage                                  |
 * | the host's ISSN (else dc.source)         | dc:source (0..1: "the ISSN or ISBN of the host", where applicable)       |
 * | dates.accepted                           | dcterms:dateAccepted                                                     |
 * | dates.issued (else publicationYear)      | rioxxterms:publication_date (a dc.date, whose kind is not said, is not taken for it) |
 * | dates.available                          | rioxxterms:record_public_release_date                                    |
 * | fundingReferences with a funder id and an award number | rioxxterms:grant (@funder_name, @funder_id as a URI, the award number) |
 * | fundingReferences' award URI             | rioxxterms:project                                                       |
 * | related identifiers with a URI and a type | rioxxterms:ext_relation rel="cite-as" @coar_type (the type's COAR concept); the others dc:relation |
 * | dc.relation                              | dc:relation (no rel)                                                     |
 *
 * Left out, for RIOXX has no place for them: contributor types, affiliations,
 * the other titles, the format, the relation type of a related identifier.
 * The profile's schema is XSD 1.1 and, as published, refuses every record
 * that follows the profile: records are valid against its errata
 * (schemas/rioxx-3/, docs/metadata-formats.md).
 */
import type { Agent, RecordFields, RecordFile } from '../model/record';
import { ACCESS_RIGHTS, COAR_OF_DATACITE_GENERAL, COAR_RESOURCE_TYPE_PREFIX, COAR_VERSION_TYPES } from '../model/vocabularies';
import {
  accessRightOf,
  contributors,
  creators,
  dcValues,
  fileLinks,
  identifierUri,
  languages,
  licences,
  publisher,
  recordIdentifiers,
  relationUri,
  titles,
} from '../model/facts';
import { coarResourceType, coarTypeOfRecord } from '../model/type-facts';
import { serialIssns } from '../model/citation-facts';
import { isHttpUrl } from '../model/identifiers';
import { normalizeLanguageTag } from '../model/language';
import { DC_NS } from '../xml/namespaces';
import type { CrosswalkContext, CrosswalkResult, MetadataFormat } from './format';
import { leaf, rootOpen, wrap, type Attr } from './xml-out';
import { trimXml } from './xml-in';
import { readRioxx } from './rioxx-read';

export const RIOXX_NS = 'http://www.rioxx.net/schema/v3.0/rioxx/';
export const RIOXX_SCHEMA = 'http://www.rioxx.net/schema/v3.0/rioxx/rioxx.xsd';
export const RIOXXTERMS_NS = 'http://www.rioxx.net/schema/v3.0/rioxxterms/';
export const DCTERMS_NS = 'http://purl.org/dc/terms/';

/** The kinds of identifier a repository cites a record by (dc:relation rel="cite-as"): persistent ones, and other URLs. */
const CITE_AS_TYPES: ReadonlySet<string> = new Set(['DOI', 'Handle', 'ARK', 'URN', 'URL']);

/**
 * The record's landing page: its first http(s) URL identifier that is
 * neither a persistent identifier at its resolver (those are typed DOI,
 * Handle, …) nor one of its files (RIOXX v3 dc:identifier: "the repository
 * 'landing page' describing this resource", not the full text).
 *
 * @example landingPage({ dc: { identifier: ['https://doi.org/10.5555/x', 'https://r.org/items/7'] } }) // 'https://r.org/items/7'
 */
export function landingPage(r: RecordFields): string | undefined {
  const files = new Set(fileLinks(r).map((f) => f.href));
  return recordIdentifiers(r).find((i) => i.type === 'URL' && isHttpUrl(i.value) && !files.has(i.value))?.value;
}

/** The record's COAR resource type URI: its COAR type (given or from its DataCite type or dc:type words), else a COAR URI in dc:type. */
export function rioxxType(r: RecordFields): string | undefined {
  return coarTypeOfRecord(r)?.uri ?? coarResourceType(r);
}

/** The COAR version a record's dc:type names (a COAR version URI, http or https), where OpenAIRE v4 and DRIVER put it. */
export function coarVersionOf(r: RecordFields): string | undefined {
  const known = new Set<string>(Object.values(COAR_VERSION_TYPES).map((v) => v.uri));
  return dcValues(r, 'type')
    .map((v) => v.trim().replace(/^https:/, 'http:'))
    .find((v) => known.has(v));
}

/**
 * Why a record cannot be a RIOXX v3 record (its mandatory properties), or null when it can.
 *
 * @example rioxxLacks({ dc: { title: ['T'] } }) // 'RIOXX v3 needs a landing page (an http(s) URL of the record, not a PID or a file), a language, a COAR resource type, a creator'
 */
export function rioxxLacks(r: RecordFields): string | null {
  const missing = rioxxMissing(r).map(([, what]) => what);
  return missing.length === 0 ? null : `RIOXX v3 needs ${missing.join(', ')}`;
}

/** Each mandatory RIOXX v3 property the record lacks: [property, what it needs]. */
export function rioxxMissing(r: RecordFields): [property: string, what: string][] {
  const out: [string, string][] = [];
  if (landingPage(r) === undefined) out.push(['dc:identifier', 'a landing page (an http(s) URL of the record, not a PID or a file)']);
  if (languages(r).length === 0) out.push(['dc:language', 'a language']);
  if (titles(r).length === 0) out.push(['dc:title', 'a title']);
  if (rioxxType(r) === undefined) out.push(['dc:type', 'a COAR resource type']);
  if (creators(r).length === 0) out.push(['rioxxterms:creator', 'a creator']);
  return out;
}

/**
 * Whether a value can be what RIOXX types xs:anyURI (rioxxterms:id, grant, project, ext_relation,
 * grant/@funder_id): a URI of RFC 3986 has square brackets only around an IP literal, and a `%`
 * only before two hex digits; a value that breaks either is left out rather than written invalid.
 *
 * @example isRioxxUri('EP/P010288/1') // true
 * @example isRioxxUri('grant[2]') // false
 */
export function isRioxxUri(v: string): boolean {
  return !/[[\]]/.test(v) && !/%(?![0-9A-Fa-f]{2})/.test(v);
}

/** The record's languages: the typed one, then each dc:language that says another, as given. */
function rioxxLanguages(r: RecordFields): string[] {
  const key = (v: string): string => normalizeLanguageTag(v) ?? trimXml(v);
  const out: string[] = r.language !== undefined ? [r.language] : [];
  for (const v of dcValues(r, 'language')) if (!out.some((l) => key(l) === key(v))) out.push(v);
  return out;
}

/** An agent's identifiers as RIOXX writes them (rioxxterms:id, an HTTP(S) URI): the ORCID iD, then each http(s) name identifier. */
function agentIds(a: Agent): string[] {
  const ids = a.orcid !== undefined ? [`https://orcid.org/${a.orcid}`] : [];
  for (const n of a.nameIdentifiers ?? []) {
    const v = trimXml(n.value);
    if (isHttpUrl(v) && isRioxxUri(v) && !ids.includes(v)) ids.push(v);
  }
  return ids;
}

function agent(name: string, a: Agent, ...attributes: Attr[]): string {
  return wrap(`rioxxterms:${name}`, [leaf('rioxxterms:name', a.name), ...agentIds(a).map((id) => leaf('rioxxterms:id', id))], ...attributes);
}

/** A funder identifier as the URI rioxxterms:grant/@funder_id takes. */
export function funderUri(f: { readonly type: string; readonly value: string }): string | undefined {
  if (f.type === 'ISNI') return `https://isni.org/isni/${f.value}`;
  return isHttpUrl(f.value) && isRioxxUri(f.value) ? f.value : undefined;
}

function fileRelation(f: RecordFile, r: RecordFields, type: string | undefined, version: string | undefined): string {
  const access = f.access ?? accessRightOf(r);
  const embargoEnd = access === 'embargoed' ? r.dates?.embargoEnd : undefined;
  return leaf(
    'dc:relation',
    f.url,
    ['rel', 'item'],
    ['type', f.mediaType],
    ['coar_type', type],
    ['coar_version', version],
    ['resource_exposed_date', embargoEnd],
    ['access_rights', access !== undefined ? ACCESS_RIGHTS[access].uri : undefined],
    ['license_ref', licences(r)[0]],
  );
}

/**
 * Crosswalks a record to RIOXX v3, or says why the item lacks it.
 *
 * @example recordToRioxx({ dc: { title: ['T'] } }, { oaiIdentifier: 'oai:x.org:1', options: {} }) // { notOffered: 'RIOXX v3 needs …' }
 */
export function recordToRioxx(r: RecordFields, ctx: CrosswalkContext): CrosswalkResult {
  const lacks = rioxxLacks(r);
  if (lacks !== null) return { notOffered: lacks };
  const landing = landingPage(r) as string;
  const type = rioxxType(r) as string;
  const version = coarVersionOf(r);
  const citeAs = recordIdentifiers(r)
    .filter((i) => CITE_AS_TYPES.has(i.type) && !(i.type === 'URL' && i.value === landing))
    .map(identifierUri);
  // The item's own identifiers last: its POI, and its oai-identifier (the profile names a CORE OAI id among the values of cite-as).
  if (ctx.poi !== undefined) citeAs.push(ctx.poi);
  citeAs.push(ctx.oaiIdentifier);
  const dates = r.dates ?? {};
  const issued = r.dates?.issued ?? r.publicationYear;
  const pub = publisher(r);
  const pubId = r.publisherIdentifier?.value;
  const issn = serialIssns(r)[0];
  const source = issn ?? dcValues(r, 'source')[0];
  const files = (r.files ?? []).filter((f) => isHttpUrl(f.url));
  const funding = r.fundingReferences ?? [];
  const fileUrls = new Set(files.map((f) => f.url));
  // A related resource is outside the repository's custody: an ext_relation, whose coar_type is required; one of no known type is a plain dc:relation.
  const related = (r.relatedIdentifiers ?? []).flatMap((x) => {
    const uri = relationUri(x);
    if ((x.type === 'ISSN' || x.type === 'EISSN') && x.identifier === issn) return [];
    if (x.resourceTypeGeneral === undefined || !isHttpUrl(uri) || !isRioxxUri(uri)) return [leaf('dc:relation', uri)];
    return [
      leaf('rioxxterms:ext_relation', uri, ['rel', 'cite-as'], ['coar_type', COAR_RESOURCE_TYPE_PREFIX + COAR_OF_DATACITE_GENERAL[x.resourceTypeGeneral]]),
    ];
  });
  return [
    rootOpen(
      'rioxx',
      [
        ['xmlns', RIOXX_NS],
        ['xmlns:dc', DC_NS],
        ['xmlns:dcterms', DCTERMS_NS],
        ['xmlns:rioxxterms', RIOXXTERMS_NS],
      ],
      `${RIOXX_NS} ${RIOXX_SCHEMA}`,
    ),
    leaf('dc:title', titles(r)[0] as string),
    ...creators(r).map((c, i) => agent('creator', c, ['first-named-author', i === 0 ? 'true' : undefined])),
    ...contributors(r).map((c) => agent('contributor', c)),
    ...rioxxLanguages(r).map((l) => leaf('dc:language', l)),
    leaf('dc:type', type),
    leaf('dc:identifier', landing),
    ...files.map((f) => fileRelation(f, r, type, version)),
    ...[...new Set(citeAs)].filter((u) => !fileUrls.has(u)).map((u) => leaf('dc:relation', u, ['rel', 'cite-as'])),
    ...dcValues(r, 'relation').map((v) => leaf('dc:relation', v)),
    ...related,
    ...dcValues(r, 'description').map((d) => leaf('dc:description', d)),
    ...dcValues(r, 'subject').map((s) => leaf('dc:subject', s)),
    ...dcValues(r, 'coverage').map((c) => leaf('dc:coverage', c)),
    source !== undefined ? leaf('dc:source', source) : '',
    pub !== undefined
      ? wrap('rioxxterms:publisher', [
          leaf('rioxxterms:name', pub),
          pubId !== undefined && isHttpUrl(pubId) && isRioxxUri(pubId) ? leaf('rioxxterms:id', pubId) : '',
        ])
      : '',
    dates.accepted !== undefined ? leaf('dcterms:dateAccepted', dates.accepted) : '',
    issued !== undefined ? leaf('rioxxterms:publication_date', issued) : '',
    dates.available !== undefined ? leaf('rioxxterms:record_public_release_date', dates.available) : '',
    ...funding.flatMap((f) => {
      const id = f.funderIdentifier !== undefined ? funderUri(f.funderIdentifier) : undefined;
      return id !== undefined && f.awardNumber !== undefined && isRioxxUri(f.awardNumber)
        ? [leaf('rioxxterms:grant', f.awardNumber, ['funder_name', f.funderName], ['funder_id', id])]
        : [];
    }),
    ...funding.flatMap((f) =>
      f.awardUri === undefined ? [] : [isRioxxUri(f.awardUri) ? leaf('rioxxterms:project', f.awardUri) : leaf('dc:relation', f.awardUri)],
    ),
    '</rioxx>',
  ].join('');
}

/** The rioxx entry of the format registry (offered when the configuration lists it). */
export const rioxx: MetadataFormat = {
  prefix: 'rioxx',
  schema: RIOXX_SCHEMA,
  namespace: RIOXX_NS,
  builtIn: true,
  optIn: true,
  fromRecord: recordToRioxx,
  lacks: rioxxLacks,
  read: readRioxx,
};
