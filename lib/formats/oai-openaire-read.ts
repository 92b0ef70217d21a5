/**
 * The reader beside the `oai_openaire` writer: an OpenAIRE Guidelines for
 * Literature Repositories v4 `resource` lifted into the record model. Its
 * DataCite elements (namespace http://datacite.org/schema/kernel-4) are
 * gathered in DataCite's shape and lifted by ./datacite-lift.ts; its Dublin
 * Core and OpenAIRE elements here:
 *
 * | OpenAIRE v4 field, element                      | model                                                   |
 * |-------------------------------------------------|---------------------------------------------------------|
 * | 1 datacite:title                                | dc.title (the untyped first)                            |
 * | 2, 3 datacite:creator, datacite:contributor     | creators, contributors (ORCID iD, affiliations)         |
 * | 4 oaire:fundingReference                        | fundingReferences (fundingStream has no place)          |
 * | 5 datacite:alternateIdentifier                  | identifiers of the model's schemes (PURL as a URL), else dc.identifier |
 * | 6 datacite:relatedIdentifier                    | relatedIdentifiers (DataCite's types: PISSN and WOS stay dc.relation) |
 * | 7, 10 datacite:date Accepted, Available, Issued | dates.accepted, available (the embargo end when embargoed), issued; others dc.date |
 * | 8 dc:language                                   | language (BCP 47; other text dc.language)               |
 * | 9 dc:publisher                                  | publisher                                               |
 * | 11 oaire:resourceType/@uri                      | resourceType: the COAR type, its DataCite general type, the label |
 * | 12, 13, 16, 19 dc:description, format, source, coverage | dc.description, dc.format, dc.source, dc.coverage |
 * | 14 datacite:identifier                          | identifiers, by its identifierType, first               |
 * | 15 datacite:rights/@rightsURI                   | accessRights (COAR); other text dc.rights               |
 * | 17 datacite:subject                             | dc.subject                                              |
 * | 18 oaire:licenseCondition/@uri                  | license; its text dc.rights                             |
 * | 21 oaire:file                                   | files: URL, mimeType, accessRightsURI                   |
 * | 22 oaire:version/@uri                           | dc.type (where DRIVER and OpenAIRE 3 write the version) |
 * | 24 datacite:geoLocationPlace                    | dc.coverage                                             |
 * | Citation Title, Volume, Issue, Start Page, End Page: oaire:citationTitle … citationEndPage | host: title, volume, issue, startPage, endPage |
 *
 * Not lifted, for the model has no place for them: the citation edition and
 * conference place and date, audience, sizes,
 * oaire:file/@objectType and resourceType/@resourceTypeGeneral (both follow
 * from the COAR type), licenseCondition/@startDate.
 *
 * Pure and total: an element other than oaire:resource gives an empty record.
 */
import type { RecordFields } from '../model/record';
import { DC_NS } from '../xml/namespaces';
import type { XmlElement } from '../xml/tree';
import { liftDatacite } from './datacite-lift';
import { agentOf, alternatesOf, contributorsOf, datesOf, fundingOf, relatedOf, titlesOf } from './datacite-read';
import { addDc, addFile, addRights, draft, finish, setCoarType, setHost } from './reader-rules';
import { attr, kid, kids, listOf, text } from './xml-in';

const OPENAIRE_NS = 'http://namespace.openaire.eu/schema/oaire/';
const DATACITE_NS = 'http://datacite.org/schema/kernel-4';

/**
 * Lifts an OpenAIRE v4 `oaire:resource` into the record model.
 *
 * @example readOpenaire(parseFragment(sampleMinimal)!).resourceType // { coar: 'http://purl.org/coar/resource_type/c_93fc', general: 'Report', label: 'report' }
 */
export function readOpenaire(root: XmlElement): RecordFields {
  const d = draft();
  if (root.ns !== OPENAIRE_NS || root.local !== 'resource') return finish(d);
  // The DataCite elements sit in DataCite's namespace inside the OpenAIRE resource.
  const dc = (local: string): string[] => kids(root, local, DC_NS).map(text);
  const id = kid(root, 'identifier', DATACITE_NS);
  const ns = asDatacite(root);
  liftDatacite(d, {
    ...(id !== undefined && { identifier: { value: text(id), type: attr(id, 'identifierType') } }),
    alternates: alternatesOf(ns),
    creators: listOf(ns, 'creators', 'creator').map((c) => agentOf(c, 'creatorName')),
    contributors: contributorsOf(ns),
    titles: titlesOf(ns),
    publisher: dc('publisher')[0],
    subjects: listOf(ns, 'subjects', 'subject').map(text),
    dates: datesOf(ns),
    language: dc('language')[0],
    related: relatedOf(ns),
    formats: dc('format'),
    rights: kids(ns, 'rights').map((r) => ({ text: text(r), uri: attr(r, 'rightsURI') })),
    descriptions: dc('description'),
    places: listOf(ns, 'geoLocations', 'geoLocation').flatMap((g) => kids(g, 'geoLocationPlace').map(text)),
    funding: fundingOf(kids(root, 'fundingReferences')),
  });
  // A second dc:publisher or dc:language is not schema-valid, but is kept as text rather than lost.
  for (const p of dc('publisher').slice(1)) addDc(d, 'publisher', p);
  for (const l of dc('language').slice(1)) addDc(d, 'language', l);
  for (const s of dc('source')) addDc(d, 'source', s);
  for (const c of dc('coverage')) addDc(d, 'coverage', c);
  const type = kid(root, 'resourceType');
  if (type !== undefined) setCoarType(d, attr(type, 'uri'), text(type));
  for (const l of kids(root, 'licenseCondition')) addRights(d, text(l), attr(l, 'uri'));
  for (const f of kids(root, 'file')) addFile(d, text(f), { mediaType: attr(f, 'mimeType'), access: attr(f, 'accessRightsURI') });
  const cite = (local: string): string | undefined => {
    const el = kid(root, local);
    return el === undefined ? undefined : text(el);
  };
  setHost(d, {
    title: cite('citationTitle'),
    volume: cite('citationVolume'),
    issue: cite('citationIssue'),
    startPage: cite('citationStartPage'),
    endPage: cite('citationEndPage'),
  });
  const version = kid(root, 'version');
  if (version !== undefined) addDc(d, 'type', attr(version, 'uri') ?? text(version));
  return finish(d);
}

/**
 * The OpenAIRE resource seen as a DataCite resource: the same element, in
 * DataCite's namespace, so that the DataCite readers find its DataCite
 * children (they look for children in their parent's namespace).
 */
function asDatacite(root: XmlElement): XmlElement {
  return { ...root, ns: DATACITE_NS };
}
