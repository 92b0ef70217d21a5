/**
 * DataCite's properties lifted into the record model, whatever they were
 * read from: kernel-4 or kernel-3 XML (./datacite-read.ts), DataCite JSON
 * (./datacite-json.ts), or the DataCite elements of an OpenAIRE v4 record
 * (./oai-openaire-read.ts). Each reader first gathers the properties into
 * `DataciteProps`, the shape DataCite's own JSON serialization gives them;
 * `liftDatacite` says what they mean in the model, once.
 *
 * | DataCite property (4.7 numbering)    | model                                                            |
 * |--------------------------------------|------------------------------------------------------------------|
 * | 1 identifier                         | identifiers (DOI; in OpenAIRE the identifierType names the scheme) |
 * | 2 creator                            | creators: name, nameType, given/family name, ORCID iD, affiliations with ROR id |
 * | 3 title                              | dc.title (untyped titles first; subtitles, translated and alternative titles after) |
 * | 4 publisher                          | publisher                                                        |
 * | 5 publicationYear                    | publicationYear (four digits; other text dc.date)                 |
 * | 6 subject                            | dc.subject                                                       |
 * | 7 contributor                        | contributors with contributorType (kernel-3's Funder: a fundingReference) |
 * | 8 date Issued, Accepted, Available   | dates.issued, accepted, available (the embargo end when the access right is embargoed); Coverage dc.coverage; other dates dc.date |
 * | 9 language                           | language (BCP 47; other text dc.language)                         |
 * | 10 resourceType                      | resourceType: general, label                                      |
 * | 11 alternateIdentifier               | identifiers of the model's schemes; others dc.identifier          |
 * | 12 relatedIdentifier; 20 relatedItem | relatedIdentifiers (a related item's identifier too); a related item's title dc.relation |
 * | 20 relatedItem the work is published in (`isHostItem`) | host: title, volume, issue, firstPage, lastPage (the first such item) |
 * | 14 format                            | dc.format                                                         |
 * | 16 rights                            | accessRights (COAR URI), license (the first other URI), dc.rights (text) |
 * | 17 description                       | dc.description                                                    |
 * | 18 geoLocationPlace                  | dc.coverage                                                       |
 * | 19 fundingReference                  | fundingReferences                                                 |
 *
 * Name identifiers of every scheme, affiliation identifiers, the language of
 * a name, the scheme URI of a funder identifier, the language of an award
 * title and what a related identifier says beyond its type and relation are
 * kept on the fields above (./reader-rules.ts). What the shared fields have
 * no place for (titles and descriptions with their type and language,
 * subjects with their scheme, every date with its type, sizes, version,
 * rights statements whole, geolocations, related items with every property)
 * the XML reader keeps as given beside them (./datacite-detail.ts).
 *
 * Pure: no I/O, no clock.
 */
import {
  addDc,
  addIdentifier,
  addRights,
  schemeOf,
  setDate,
  setGeneralType,
  setLanguage,
  setPublisher,
  setYear,
  setHost,
  type Draft,
  type HostInput,
} from './reader-rules';
import { addRelated, contributorType, toAgent, toFunding, type AgentInput, type FundingInput, type RelatedInput } from './reader-entries';
import { calendarDate } from '../model/dates';

/** DataCite's properties as read, before the model's checks (text as written; absent or empty where not given). */
export interface DataciteProps {
  /** The identifier and its type (always DOI in DataCite itself). */
  readonly identifier?: { readonly value: string; readonly type?: string | undefined };
  readonly alternates?: readonly { readonly value: string; readonly type?: string | undefined }[];
  readonly creators?: readonly AgentInput[];
  readonly contributors?: readonly (AgentInput & { readonly type?: string | undefined })[];
  readonly titles?: readonly { readonly title: string; readonly type?: string | undefined }[];
  readonly publisher?: string | undefined;
  readonly publicationYear?: string | undefined;
  readonly subjects?: readonly string[];
  readonly dates?: readonly { readonly date: string; readonly type?: string | undefined }[];
  readonly language?: string | undefined;
  readonly resourceType?: { readonly general?: string | undefined; readonly label?: string | undefined };
  readonly related?: readonly RelatedInput[];
  /** Titles of related items (DataCite 4.4 relatedItem) other than the host, for dc.relation. */
  readonly relatedTitles?: readonly string[];
  /** The related item the work is published in (`isHostItem`). */
  readonly host?: HostInput;
  readonly formats?: readonly string[];
  readonly rights?: readonly { readonly text?: string | undefined; readonly uri?: string | undefined }[];
  readonly descriptions?: readonly string[];
  readonly places?: readonly string[];
  readonly funding?: readonly FundingInput[];
}

/** The related item types that contain a work published in them. */
const CONTAINER_TYPES = new Set(['journal', 'book', 'conferenceproceeding']);

/**
 * Whether a DataCite related item is where the work was published: its
 * relationType is IsPublishedIn (DataCite 4.4: "A is published inside B"),
 * or IsPartOf a Journal, Book or ConferenceProceeding.
 *
 * @example isHostItem('IsPartOf', 'Journal') // true
 * @example isHostItem('IsPartOf', 'Collection') // false
 */
export function isHostItem(relation: string | undefined, itemType: string | undefined): boolean {
  const r = relation?.trim().toLowerCase();
  return r === 'ispublishedin' || (r === 'ispartof' && CONTAINER_TYPES.has(itemType?.trim().toLowerCase() ?? ''));
}

const DATE_KINDS = { issued: 'issued', accepted: 'accepted', available: 'available' } as const;

/**
 * Lifts DataCite's properties into a draft record (./reader-rules.ts `finish` makes
 * the model of it).
 *
 * @example
 * const d = draft(); liftDatacite(d, { identifier: { value: '10.5438/4K3M-NYVG', type: 'DOI' }, titles: [{ title: 'Eating your own Dog Food' }] });
 * finish(d) // { dc: { title: ['Eating your own Dog Food'] }, identifiers: [{ type: 'DOI', value: '10.5438/4K3M-NYVG' }] }
 */
export function liftDatacite(d: Draft, p: DataciteProps): void {
  if (p.identifier !== undefined) {
    const scheme = schemeOf(p.identifier.type ?? 'DOI');
    if (scheme !== undefined) addIdentifier(d, scheme, p.identifier.value);
    else addDc(d, 'identifier', p.identifier.value);
  }
  for (const a of p.alternates ?? []) {
    const scheme = schemeOf(a.type);
    if (scheme !== undefined) addIdentifier(d, scheme, a.value);
    else addDc(d, 'identifier', a.value);
  }
  for (const c of p.creators ?? []) {
    const agent = toAgent(c);
    if (agent) d.creators.push(agent);
  }
  for (const c of p.contributors ?? []) {
    // Kernel-3's Funder contributor became kernel-4's fundingReference.
    if (c.type?.trim().toLowerCase() === 'funder') {
      const f = toFunding({ funderName: toAgent(c)?.name });
      if (f) d.fundingReferences.push(f);
      continue;
    }
    const agent = toAgent(c);
    // contributorType is mandatory in DataCite: a value outside its list is a type the model cannot name.
    if (agent) d.contributors.push({ ...agent, type: contributorType(c.type) ?? 'Other' });
  }
  const titles = p.titles ?? [];
  for (const t of [...titles.filter((x) => x.type === undefined), ...titles.filter((x) => x.type !== undefined)]) addDc(d, 'title', t.title);
  setPublisher(d, p.publisher);
  setYear(d, p.publicationYear);
  for (const s of p.subjects ?? []) addDc(d, 'subject', s);
  for (const date of p.dates ?? []) {
    const type = date.type?.trim().toLowerCase() ?? '';
    const kind = DATE_KINDS[type as keyof typeof DATE_KINDS];
    if (kind !== undefined) setDate(d, kind, date.date);
    // DataCite to Dublin Core Mapping (4.4, and dateType Coverage of 4.6): a Coverage date is the temporal
    // coverage of the resource (dcterms:temporal, a refinement of dc:coverage), not a date of the resource.
    else if (type === 'coverage') addDc(d, 'coverage', date.date);
    else addDc(d, 'date', date.date);
  }
  setLanguage(d, p.language);
  if (p.resourceType !== undefined) setGeneralType(d, p.resourceType.general, p.resourceType.label);
  for (const r of p.related ?? []) addRelated(d, r);
  for (const t of p.relatedTitles ?? []) addDc(d, 'relation', t);
  if (p.host !== undefined) setHost(d, p.host);
  for (const f of p.formats ?? []) addDc(d, 'format', f);
  for (const r of p.rights ?? []) addRights(d, r.text, r.uri);
  for (const t of p.descriptions ?? []) addDc(d, 'description', t);
  for (const t of p.places ?? []) addDc(d, 'coverage', t);
  for (const f of p.funding ?? []) {
    const ref = toFunding(f);
    if (ref) d.fundingReferences.push(ref);
  }
  // DataCite's dateType guidance and OpenAIRE v4 (field 7): under embargo, the Available date is when it ends.
  const available = d.dates.available;
  if (d.accessRights === 'embargoed' && d.dates.embargoEnd === undefined && available !== undefined && calendarDate(available, true) !== null) {
    d.dates.embargoEnd = available;
    delete d.dates.available;
  }
}
