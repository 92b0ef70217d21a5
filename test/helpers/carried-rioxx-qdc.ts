/**
 * What RIOXX v3.0 and qualified Dublin Core carry of a record, in a form
 * their readers give back (the counterpart of ./carried.ts for the formats of
 * lib/formats/rioxx.ts and lib/formats/qdc.ts, whose tables say what each
 * loses). The item's oai-identifier and POI, which both writers add, are set
 * aside.
 */
import type { CrosswalkContext } from '../../lib/formats/format';
import { coarVersionOf, funderUri, isRioxxUri, landingPage, rioxxType } from '../../lib/formats/rioxx';
import { DCTERMS_RELATIONS } from '../../lib/formats/qdc-read';
import { schemeOfRelated } from '../../lib/formats/qdc';
import type { DcElement } from '../../lib/model/dublin-core';
import {
  accessRightOf,
  contributors,
  creators,
  dcValues,
  dublinCore,
  fileLinks,
  identifierUri,
  licences,
  publisher,
  recordIdentifiers,
  relationUri,
} from '../../lib/model/facts';
import { coarTypeOfRecord } from '../../lib/model/type-facts';
import { serialIssns } from '../../lib/model/citation-facts';
import { classifyIdentifier, isHttpUrl } from '../../lib/model/identifiers';
import { normalizeLanguageTag } from '../../lib/model/language';
import type { Agent, RecordFields } from '../../lib/model/record';
import { ACCESS_RIGHTS, COAR_OF_DATACITE_GENERAL, COAR_RESOURCE_TYPE_PREFIX, COAR_TYPES } from '../../lib/model/vocabularies';

const T = (s: string): string => s.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
const list = (vs: readonly string[] | undefined): string[] => (vs ?? []).map(T).filter((v) => v !== '');
const dcList = (r: RecordFields, e: DcElement): string[] => list(dcValues(r, e));
const sorted = <V>(values: readonly V[]): string[] => [...new Set(values.map((v) => JSON.stringify(v)))].sort();
const undefinedless = <O extends object>(o: O): O => JSON.parse(JSON.stringify(o)) as O;
const calendar = (r: RecordFields): string | undefined => r.dates?.issued ?? r.publicationYear;
const langs = (r: RecordFields): string[] =>
  sorted([...(r.language !== undefined ? [r.language] : []), ...dcList(r, 'language')].map((v) => normalizeLanguageTag(v) ?? v));

/** An agent's identifiers as rioxxterms:id values. */
function agentIds(a: Agent): string[] {
  const ids = a.orcid !== undefined ? [`https://orcid.org/${a.orcid}`] : [];
  for (const n of a.nameIdentifiers ?? []) if (isHttpUrl(T(n.value)) && isRioxxUri(T(n.value)) && !ids.includes(T(n.value))) ids.push(T(n.value));
  return ids;
}

const CITE_AS = new Set(['DOI', 'Handle', 'ARK', 'URN', 'URL']);

/**
 * RIOXX v3.0: the landing page and the PIDs, one title, languages, the COAR
 * type and version, creators and contributors by name and identifiers, the
 * publisher, description, subject, coverage, the host's ISSN (dc:source),
 * dates, files with licence and access, grants, related resources by URI and
 * type. Lost: the other titles, contributor types, affiliations, the relation
 * type of a related resource, a funder without a URI or an award number, Dublin Core text RIOXX has no element for.
 */
export function carriedByRioxx(r: RecordFields, ctx: CrosswalkContext): object {
  const files = (r.files ?? []).filter((f) => isHttpUrl(f.url));
  const fileUrls = new Set(files.map((f) => f.url));
  const landing = landingPage(r);
  const issn = serialIssns(r)[0];
  const plain: string[] = dcList(r, 'relation');
  const ext: string[] = [];
  for (const x of r.relatedIdentifiers ?? []) {
    if ((x.type === 'ISSN' || x.type === 'EISSN') && x.identifier === issn) continue;
    const uri = relationUri(x);
    // A related resource of no type, or of a COAR type the model cannot name again, is a relation as text.
    const coar = x.resourceTypeGeneral === undefined ? undefined : COAR_TYPES.get(COAR_RESOURCE_TYPE_PREFIX + COAR_OF_DATACITE_GENERAL[x.resourceTypeGeneral]);
    if (coar === undefined || !isHttpUrl(uri) || !isRioxxUri(uri)) plain.push(uri);
    else ext.push(`${uri} ${coar.datacite}`);
  }
  for (const f of r.fundingReferences ?? []) if (f.awardUri !== undefined) plain.push(f.awardUri);
  const recordAccess = accessRightOf(r);
  return undefinedless({
    landing,
    ids: sorted(
      recordIdentifiers(r)
        .filter((i) => CITE_AS.has(i.type) && i.value !== ctx.poi && !fileUrls.has(identifierUri(i)))
        .map((i) => `${i.type} ${i.value}`),
    ),
    title: dcList(r, 'title')[0],
    languages: langs(r),
    type: rioxxType(r),
    version: files.length > 0 ? coarVersionOf(r) : undefined,
    creators: creators(r).map((a) => ({ name: T(a.name), ids: agentIds(a) })),
    contributors: contributors(r).map((a) => ({ name: T(a.name), ids: agentIds(a) })),
    publisher: publisher(r) === undefined ? undefined : T(publisher(r)!),
    description: dcList(r, 'description'),
    subject: dcList(r, 'subject'),
    coverage: dcList(r, 'coverage'),
    source: issn ?? dcList(r, 'source')[0],
    accepted: r.dates?.accepted,
    issued: calendar(r),
    available: r.dates?.available,
    files: files.map((f) => undefinedless({ url: f.url, mediaType: f.mediaType, access: f.access ?? recordAccess })),
    licence: files.length > 0 ? licences(r)[0] : undefined,
    grants: (r.fundingReferences ?? []).flatMap((f) => {
      const uri = f.funderIdentifier === undefined ? undefined : funderUri(f.funderIdentifier);
      return uri !== undefined && f.awardNumber !== undefined && isRioxxUri(f.awardNumber)
        ? [{ funder: T(f.funderName), id: uri, award: T(f.awardNumber) }]
        : [];
    }),
    relations: sorted(plain.map(T).filter((v) => v !== '')),
    related: sorted(ext),
  });
}

const REFINES: ReadonlyMap<string, string> = new Map(DCTERMS_RELATIONS);
const RELATION_OF: ReadonlyMap<string, string> = new Map(DCTERMS_RELATIONS.map(([relation, term]) => [term, relation]));
const classified = (uri: string): string | undefined => {
  const c = classifyIdentifier(uri.replace(/^urn:e?issn:/i, 'ISSN '));
  return c === null ? undefined : `${c.type} ${c.value}`;
};
const ACCESS_URIS = new Set<string>(Object.values(ACCESS_RIGHTS).map((a) => a.uri));

/**
 * Qualified Dublin Core: every Dublin Core value the model says (its
 * dublinCore), titles in order, abstracts with their language, dates typed
 * as issued, accepted, available and the embargo's end, the COAR type, file
 * URLs, related resources by refinement, the licence and access right.
 * Lost: name identifiers and affiliations, contributor types, funding,
 * file media types and sizes, the host's parts (a citation instead).
 */
export function carriedByQdc(r: RecordFields, ctx: CrosswalkContext): object {
  const dc = dublinCore(r);
  const coar = r.resourceType !== undefined ? coarTypeOfRecord(r)?.uri : dcList(r, 'type').find((t) => COAR_TYPES.has(t.replace(/^https:/, 'http:')));
  const coarLabel = coar === undefined ? undefined : COAR_TYPES.get(coar.replace(/^https:/, 'http:'))?.label;
  const typed: string[] = [];
  const typedUris = new Set<string>();
  const untyped: string[] = [];
  for (const x of r.relatedIdentifiers ?? []) {
    const uri = T(relationUri(x));
    const term = REFINES.get(x.relation);
    const c = classified(uri);
    if (term !== undefined && c !== undefined && schemeOfRelated(uri) === x.type) {
      typed.push(`${RELATION_OF.get(term)} ${c}`);
      typedUris.add(uri);
    } else untyped.push(uri);
  }
  const licence = licences(r)[0];
  const access = accessRightOf(r);
  const d = r.dates ?? {};
  return undefinedless({
    title: dcList(r, 'title'),
    creator: list(dc.creator),
    contributor: list(dc.contributor),
    subject: dcList(r, 'subject'),
    coverage: dcList(r, 'coverage'),
    description: sorted([...dcList(r, 'description'), ...list((r.descriptions ?? []).filter((x) => x.type === 'Abstract').map((x) => x.value))]),
    abstracts: (r.descriptions ?? []).filter((x) => x.type === 'Abstract' && T(x.value) !== '').map((x) => undefinedless({ value: T(x.value), lang: x.lang })),
    publisher: sorted(list(dc.publisher)),
    issued: calendar(r),
    accepted: d.accepted,
    available: d.available,
    embargoEnd: access === 'embargoed' ? d.embargoEnd : undefined,
    date: dcList(r, 'date'),
    coar,
    types: sorted(list(dc.type).filter((t) => !t.replace(/^https:/, 'http:').startsWith(COAR_RESOURCE_TYPE_PREFIX) && t !== coarLabel)),
    format: sorted(list(dc.format)),
    identifier: sorted(list(dc.identifier).filter((v) => v !== ctx.oaiIdentifier && v !== ctx.poi)),
    files: fileLinks(r)
      .map((f) => f.href)
      .filter((u) => !typedUris.has(u) && !untyped.includes(u)),
    source: sorted(list(dc.source)),
    languages: langs(r),
    related: sorted(typed),
    relation: sorted([...dcList(r, 'relation'), ...untyped].filter((v) => !typedUris.has(v))),
    rights: sorted(dcList(r, 'rights').filter((v) => v !== licence && !ACCESS_URIS.has(v))),
    licence,
    access,
  });
}
