/**
 * What each built-in format carries of a record: for a record of the model,
 * the values its writer puts into the format in a form its reader gives them
 * back. The round-trip property (test/formats/readers.property.test.ts)
 * holds `carried(read(write(r))) = carried(r)` for random records.
 *
 * Written from the writers' tables (lib/formats/*.ts), field by field, with
 * what each format loses said where it is lost. Shared by all formats:
 * text is compared without surrounding whitespace, and blank values are none
 * (readers trim layout; writers skip blanks); the item's oai-identifier and
 * POI, which every writer adds from the crosswalk context, are set aside.
 */
import type { CrosswalkContext } from '../../lib/formats/format';
import { otherDcIdentifiers } from '../../lib/formats/format';
import { relatedPart } from '../../lib/formats/marc21';
import { DC_ELEMENTS, type DcElement } from '../../lib/model/dublin-core';
import { accessRightOf, contributors, creators, dcValues, doi, dublinCore, formats, publicationYear, publisher, relationUri } from '../../lib/model/facts';
import { bibliographicType, coarType, coarTypeOfRecord } from '../../lib/model/type-facts';
import { citationSource } from '../../lib/model/citation-facts';
import { parseW3cdtf } from '../../lib/model/dates';
import { checkRelatedIdentifier, classifyIdentifier } from '../../lib/model/identifiers';
import { normalizeLanguageTag, primaryLanguage } from '../../lib/model/language';
import type { Agent, Host, RecordFields, RecordFile, RelatedIdentifier } from '../../lib/model/record';
import { COAR_TYPES, OPENAIRE_RELATED_GENERAL_TYPES, OPENAIRE_RELATED_IDENTIFIER_TYPES, OPENAIRE_RELATION_TYPES } from '../../lib/model/vocabularies';
import { DCMI_OF_TYPE_OF_RESOURCE } from '../../lib/model/type-crosswalks';
import { DCTERMS_RELATION, edmCreators, edmType, europeanaRights, relatedUri } from '../../lib/formats/edm';
import { RELATION_OF_DCTERMS } from '../../lib/formats/edm-read';

const T = (s: string): string => s.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
const opt = (s: string | undefined): string | undefined => (s === undefined || T(s) === '' ? undefined : T(s));
/** The non-blank values of an element, trimmed. */
const dcList = (r: RecordFields, e: DcElement): string[] =>
  dcValues(r, e)
    .map(T)
    .filter((v) => v !== '');
const sorted = <V>(values: readonly V[]): string[] => [...new Set(values.map((v) => JSON.stringify(v)))].sort();
const undefinedless = <O extends object>(o: O): O => JSON.parse(JSON.stringify(o)) as O;

/** The record's typed identifiers, without the item's POI (a writer adds it as a PURL or URI), as a set. */
function typedIds(r: RecordFields, ctx: CrosswalkContext, also: readonly { type: string; value: string }[] = []): string[] {
  return sorted([...(r.identifiers ?? []), ...also].filter((i) => i.value !== ctx.poi).map((i) => `${i.type} ${i.value}`));
}

/** The identifiers the MARC and MODS writers write as plain text (otherDcIdentifiers), without those a reader types again. */
function untypedDcIds(r: RecordFields, ctx: CrosswalkContext): { typed: { type: string; value: string }[]; text: string[] } {
  const others = otherDcIdentifiers(r, ctx)
    .map(T)
    .filter((v) => v !== '' && v !== ctx.oaiIdentifier && v !== ctx.poi);
  const typed = others.flatMap((v) => classifyIdentifier(v) ?? []);
  return { typed, text: sorted(others.filter((v) => classifyIdentifier(v) === null)) };
}

function agent(a: Agent, carry: { given: boolean; orcid: boolean; affiliations: 'none' | 'names' | 'ror' }): object {
  return undefinedless({
    name: T(a.name),
    nameType: a.nameType,
    givenName: carry.given ? opt(a.givenName) : undefined,
    familyName: carry.given ? opt(a.familyName) : undefined,
    orcid: carry.orcid ? a.orcid : undefined,
    affiliations:
      carry.affiliations === 'none' || (a.affiliations ?? []).length === 0
        ? undefined
        : a.affiliations!.map((af) => undefinedless({ name: T(af.name), ror: carry.affiliations === 'ror' ? af.ror : undefined })),
  });
}

/** The host's parts, trimmed, those `keep` keeps; undefined when none is left. */
function hostParts(r: RecordFields, keep: (part: keyof Host, value: string) => boolean = () => true): object | undefined {
  const out = Object.fromEntries(
    Object.entries(r.host ?? {})
      .filter(([k, v]) => opt(v) !== undefined && keep(k as keyof Host, v))
      .map(([k, v]) => [k, T(v)]),
  );
  return Object.keys(out).length > 0 ? out : undefined;
}

/** oai_dc: the fifteen Dublin Core elements, nothing else (lib/formats/oai-dc.ts). */
export function carriedByOaiDc(r: RecordFields): object {
  return Object.fromEntries(DC_ELEMENTS.map((e) => [e, dcList(r, e)]).filter(([, v]) => v!.length > 0));
}

/**
 * DataCite kernel-4 (and oai_datacite, which wraps it): every property of
 * lib/formats/datacite.ts's table. Lost: a COAR type (DataCite has its
 * general type only), an available date under an embargo (the Available date
 * is the embargo's end), file URLs and sizes, Dublin Core type, source,
 * relation, coverage, date and identifier text.
 */
export function carriedByDatacite(r: RecordFields, ctx: CrosswalkContext): object {
  const d = r.dates ?? {};
  const rt = r.resourceType;
  return undefinedless({
    doi: doi(r),
    identifiers: typedIds(r, ctx),
    creators: creators(r).map((a) => agent(a, { given: true, orcid: true, affiliations: 'ror' })),
    contributors: contributors(r).map((c) => ({ ...agent(c, { given: true, orcid: true, affiliations: 'ror' }), type: c.type })),
    title: dcList(r, 'title'),
    publisher: opt(publisher(r)),
    publicationYear: publicationYear(r),
    resourceType: rt === undefined ? undefined : { general: rt.general, label: T(rt.label) },
    subject: dcList(r, 'subject'),
    dates: { issued: d.issued, accepted: d.accepted, available: d.embargoEnd ?? d.available },
    language: r.language,
    related: sorted((r.relatedIdentifiers ?? []).map((x) => undefinedless({ ...x, identifier: T(x.identifier) }))),
    formats: [...new Set(formats(r).map(T))],
    license: r.license,
    accessRights: r.accessRights,
    rights: dcList(r, 'rights'),
    description: dcList(r, 'description'),
    funding: (r.fundingReferences ?? []).map((f) =>
      undefinedless({ ...f, funderName: T(f.funderName), awardNumber: opt(f.awardNumber), awardTitle: opt(f.awardTitle) }),
    ),
    host: hostParts(r),
  });
}

/**
 * OpenAIRE v4 (lib/formats/oai-openaire.ts): its DataCite parts and its own
 * fields. Lost: ROR ids of affiliations and the contributor type Translator
 * (its DataCite 4.1 copy has neither), related identifiers of types and
 * relations that copy does not list, file sizes, the DataCite general type
 * (OpenAIRE says its own, from the COAR type), the second dc:language
 * (the schema takes one), Dublin Core rights text.
 */
export function carriedByOpenaire(r: RecordFields, ctx: CrosswalkContext): object {
  const d = r.dates ?? {};
  const coar = coarTypeOfRecord(r);
  const language = r.language ?? dcValues(r, 'language')[0];
  const issued = d.issued ?? r.publicationYear ?? dcValues(r, 'date').find((x) => parseW3cdtf(x) !== null) ?? publicationYear(r);
  return undefinedless({
    identifiers: typedIds(r, ctx),
    creators: creators(r).map((a) => agent(a, { given: true, orcid: true, affiliations: 'names' })),
    contributors: contributors(r).map((c) => ({
      ...agent(c, { given: true, orcid: true, affiliations: 'names' }),
      type: c.type === 'Translator' ? 'Other' : c.type,
    })),
    funding: (r.fundingReferences ?? []).map((f) =>
      undefinedless({ ...f, funderName: T(f.funderName), awardNumber: opt(f.awardNumber), awardTitle: opt(f.awardTitle) }),
    ),
    related: sorted(
      (r.relatedIdentifiers ?? [])
        .filter((x) => OPENAIRE_RELATED_IDENTIFIER_TYPES.has(x.type) && OPENAIRE_RELATION_TYPES.has(x.relation))
        .map((x) =>
          undefinedless({
            ...x,
            identifier: T(x.identifier),
            resourceTypeGeneral:
              x.resourceTypeGeneral !== undefined && OPENAIRE_RELATED_GENERAL_TYPES.has(x.resourceTypeGeneral) ? x.resourceTypeGeneral : undefined,
          }),
        ),
    ),
    dates: { accepted: d.accepted, available: d.embargoEnd ?? d.available, issued: issued === undefined ? undefined : T(issued) },
    language: language === undefined ? undefined : (normalizeLanguageTag(language) ?? T(language)),
    publisher: opt(publisher(r)),
    resourceType: coar === undefined ? undefined : { coar: coar.uri, label: T(r.resourceType?.coar !== undefined ? r.resourceType.label : coar.label) },
    title: dcList(r, 'title'),
    description: dcList(r, 'description'),
    formats: [...new Set(formats(r).map(T))],
    accessRights: accessRightOf(r),
    source: dcList(r, 'source'),
    subject: dcList(r, 'subject'),
    license: r.license,
    coverage: dcList(r, 'coverage'),
    files: (r.files ?? []).map((f) => undefinedless({ url: f.url, mediaType: f.mediaType, access: f.access })),
    host: hostParts(r),
  });
}

/** The ISO 639 code MARC 041 holds for a language tag or code (its primary subtag), or undefined for a language's name. */
function marcLanguageCode(v: string): string | undefined {
  const tag = normalizeLanguageTag(v);
  const code = tag === null ? undefined : primaryLanguage(tag);
  return code !== undefined && /^[a-z]{2,3}$/.test(code) ? code : undefined;
}

/** The related identifier MARC's reader makes of one written in 773/787: an ISSN in $x, an ISBN in $z, else in $o by its value or the scheme before it. */
function marcRelated(x: RelatedIdentifier): RelatedIdentifier | null {
  const id = T(x.identifier);
  if (x.type === 'ISSN' || x.type === 'ISBN') return { identifier: id, type: x.type, relation: x.relation };
  const c = classifyIdentifier(x.identifier);
  if (c !== null && c.type === x.type) return { identifier: c.value, type: c.type, relation: x.relation };
  const checked = checkRelatedIdentifier(x.type, id);
  return { identifier: 'value' in checked ? checked.value : id, type: x.type, relation: x.relation };
}

/**
 * MARC 21 (lib/formats/marc21.ts): Dublin Core by LoC's crosswalk, and the
 * typed fields MARC has a place for. Lost: given and family names, ORCID
 * iDs, affiliations; funder identifiers, award URIs and titles; accepted
 * and available dates, and which of the dates is typed (260 $c holds each as
 * written: the year is read typed, the others as dc:date); the BCP 47 tag
 * beyond its primary language subtag, and which language is the typed one
 * (041 holds every code); the general type of a record without a COAR type
 * of the list (its label is a 655 like a dc:type); a related identifier's
 * resource type; a file's access, and a file
 * without media type or size (a bare 856 $u is an identifier). Coverage is a
 * general note (500), read back as a description. A host's volume, issue
 * or page that 773 $g could not hold as written (a comma, a parenthesis, a
 * dash in a page) is lost.
 */
export function carriedByMarc21(r: RecordFields, ctx: CrosswalkContext): object {
  const coar = coarType(r);
  const rt = r.resourceType;
  const files = r.files ?? [];
  const bareFiles = files.filter((f) => f.mediaType === undefined && f.size === undefined);
  const others = untypedDcIds(r, ctx);
  const related = (r.relatedIdentifiers ?? []).map(marcRelated);
  const typedDate = r.publicationYear ?? r.dates?.issued;
  const dates = [...(typedDate !== undefined ? [typedDate] : []), ...dcList(r, 'date')];
  return undefinedless({
    identifiers: typedIds(r, ctx, [...others.typed, ...bareFiles.map((f) => ({ type: 'URL', value: f.url }))]),
    otherIdentifiers: others.text,
    languages: sorted([...(r.language !== undefined ? [r.language] : []), ...dcList(r, 'language')].map((v) => marcLanguageCode(v) ?? v)),
    title: dcList(r, 'title'),
    publisher: opt(publisher(r)),
    dates: sorted(dates),
    description: [...dcList(r, 'coverage'), ...dcList(r, 'description')],
    accessRights: r.accessRights,
    embargoEnd: r.accessRights === undefined ? undefined : r.dates?.embargoEnd,
    funding: (r.fundingReferences ?? []).map((f) => undefinedless({ funderName: T(f.funderName), awardNumber: opt(f.awardNumber) })),
    rights: dcList(r, 'rights'),
    license: r.license,
    subject: dcList(r, 'subject'),
    resourceType: coar === undefined ? undefined : { coar: coar.uri, general: coar.datacite, label: T(rt!.label) },
    type: [...(rt !== undefined && coar === undefined ? [T(rt.label), ...(rt.coar !== undefined ? [rt.coar] : [])] : []), ...dcList(r, 'type')],
    creators: creators(r).map((a) => agent(a, { given: false, orcid: false, affiliations: 'none' })),
    contributors: contributors(r).map((c) => ({ ...agent(c, { given: false, orcid: false, affiliations: 'none' }), type: c.type })),
    related: sorted(related.filter((x) => x !== null)),
    relation: sorted([...dcList(r, 'relation'), ...(r.relatedIdentifiers ?? []).filter((_, i) => related[i] === null).map((x) => T(x.identifier))]),
    source: dcList(r, 'source'),
    files: files
      .filter((f) => f.mediaType !== undefined || f.size !== undefined)
      .map((f) => undefinedless({ url: f.url, mediaType: f.mediaType, size: f.size })),
    format: dcList(r, 'format'),
    host: hostParts(r, (k, v) => k === 'title' || relatedPart(v, k === 'startPage' || k === 'endPage')),
  });
}

/** The related identifier MODS's reader makes of one written as a relatedItem. */
function modsRelated(x: RelatedIdentifier): object {
  const relation = x.relation;
  const type = x.type === 'PURL' ? 'URL' : x.type === 'EISSN' || x.type === 'LISSN' ? 'ISSN' : x.type;
  const checked = checkRelatedIdentifier(type, T(x.identifier));
  return { identifier: 'value' in checked ? checked.value : T(x.identifier), type, relation };
}

/**
 * MODS 3.7 (lib/formats/mods.ts): Dublin Core by LoC's mapping, and the
 * typed fields MODS has a place for. Lost: ROR ids of affiliations; a
 * related item's resource type,
 * PURL (a URI), EISSN and LISSN (ISSNs); the general type of a record
 * without a COAR type of the list (its label is a genre like a dc:type);
 * funding but its funder (a name of role funder): the award number and title are notes, read back as descriptions; a file's media type, size
 * and access.
 */
export function carriedByMods(r: RecordFields, ctx: CrosswalkContext): object {
  const coar = coarType(r);
  const rt = r.resourceType;
  const d = r.dates ?? {};
  const issued = d.issued ?? r.publicationYear;
  const others = untypedDcIds(r, ctx);
  const bt = bibliographicType(r);
  const restates = bt.typeOfResource !== undefined && coar?.typeOfResource !== bt.typeOfResource;
  const dcmi = restates ? DCMI_OF_TYPE_OF_RESOURCE[bt.typeOfResource!] : undefined;
  const citation = r.host === undefined ? citationSource(r) : undefined;
  const funding = (r.fundingReferences ?? []).flatMap((f) => [f.awardNumber, f.awardTitle].map(opt).filter((x) => x !== undefined));
  return undefinedless({
    title: dcList(r, 'title'),
    creators: creators(r).map((a) => agent(a, { given: true, orcid: true, affiliations: 'names' })),
    contributors: contributors(r).map((c) => ({ ...agent(c, { given: true, orcid: true, affiliations: 'names' }), type: c.type })),
    resourceType: coar === undefined ? undefined : { coar: coar.uri, general: coar.datacite, label: T(rt!.label) },
    type: sorted([
      ...(rt !== undefined && coar === undefined ? [T(rt.label), ...(rt.coar !== undefined ? [rt.coar] : [])] : []),
      ...dcList(r, 'type'),
      ...(dcmi !== undefined ? [dcmi] : []),
      ...(restates && bt.manuscript === true ? ['manuscript'] : []),
    ]),
    publisher: opt(publisher(r)),
    dates: { accepted: d.accepted, available: d.available, embargoEnd: r.accessRights === undefined ? undefined : d.embargoEnd },
    date: sorted([...(issued !== undefined ? [issued] : []), ...dcList(r, 'date')]),
    languages: sorted([...(r.language !== undefined ? [r.language] : []), ...dcList(r, 'language').map((v) => normalizeLanguageTag(v) ?? v)]),
    formats: [...new Set(formats(r).map(T))],
    description: [...dcList(r, 'description'), ...funding],
    funders: (r.fundingReferences ?? []).map((f) => T(f.funderName)),
    subject: dcList(r, 'subject'),
    coverage: dcList(r, 'coverage'),
    identifiers: typedIds(r, ctx, others.typed),
    otherIdentifiers: others.text,
    files: (r.files ?? []).map((f) => f.url),
    source: dcList(r, 'source').filter((x) => x !== citation),
    relation: dcList(r, 'relation'),
    related: sorted((r.relatedIdentifiers ?? []).map(modsRelated)),
    rights: dcList(r, 'rights'),
    license: r.license,
    accessRights: r.accessRights,
    host: citation !== undefined ? { title: citation } : hostParts(r),
  });
}

/**
 * EDM (lib/formats/edm.ts): Dublin Core, dates issued, the language, the COAR
 * type with its label, the edm:type, creators' names and the ORCID iD of
 * each edm:Agent, files, the access right, the licence as Europeana's
 * statement, and the relations dcterms names with a URI. Lost: given and
 * family names, affiliations and name types; contributor types; the
 * general type beside a COAR concept (edm:type says the kind); accepted,
 * available and embargo dates (and so an embargoed access right); funding;
 * the host's parts (dc:source holds its citation); a licence Europeana does not list, beside the one it does.
 */
export function carriedByEdm(r: RecordFields): object {
  return edmCarried(r, r);
}

/**
 * The same of a record lifted from EDM: the reader sets a resource type from
 * edm:type when no COAR concept says it, which is that edm:type and no dc:type.
 */
export function carriedBackFromEdm(b: RecordFields): object {
  const rt = b.resourceType;
  return edmCarried(rt !== undefined && rt.coar === undefined ? ({ ...b, resourceType: undefined } as unknown as RecordFields) : b, b);
}

function edmCarried(r: RecordFields, typed: RecordFields): object {
  const rt = r.resourceType;
  const coar = rt?.coar === undefined ? undefined : COAR_TYPES.get(rt.coar);
  const publishers = [...(r.publisher !== undefined ? [r.publisher] : []), ...dcValues(r, 'publisher')].map(T).filter((v) => v !== '');
  const related = (r.relatedIdentifiers ?? []).map((x) => {
    const property = DCTERMS_RELATION[x.relation];
    const uri = property !== undefined ? relatedUri(x) : undefined;
    const c = uri === undefined ? null : classifyIdentifier(uri);
    return c === null || property === undefined
      ? { text: T(uri ?? relationUri(x)) }
      : { related: { identifier: c.value, type: c.type, relation: RELATION_OF_DCTERMS[property] } };
  });
  // A file's attributes are its URL's first edm:WebResource's: one URI names one resource.
  const files = r.files ?? [];
  const first = (url: string): RecordFile => files.find((f) => f.url === url)!;
  return undefinedless({
    title: dcList(r, 'title'),
    description: dcList(r, 'description'),
    creators: edmCreators(r).map((c) => undefinedless({ name: T(c.name), orcid: c.agent?.replace('https://orcid.org/', '') })),
    contributors: contributors(r)
      .map((c) => T(c.name))
      .filter((n) => n !== ''),
    publishers,
    issued: r.dates?.issued ?? r.publicationYear,
    date: dcList(r, 'date'),
    languages: sorted([...(r.language !== undefined ? [r.language] : []), ...dcList(r, 'language')].map((l) => normalizeLanguageTag(l) ?? l)),
    subject: dcList(r, 'subject'),
    coverage: dcList(r, 'coverage'),
    coar: coar === undefined ? undefined : { coar: coar.uri, label: T(rt!.label) === '' ? coar.label : T(rt!.label) },
    types: sorted(
      [...(rt !== undefined && coar === undefined ? [T(rt.label), ...(rt.coar !== undefined ? [rt.coar] : [])] : []), ...dcList(r, 'type')].filter(
        (v) => v !== '',
      ),
    ),
    edmType: edmType(typed),
    format: dcList(r, 'format'),
    identifiers: sorted((dublinCore(r).identifier ?? []).map(T).filter((v) => v !== '')),
    // The host as its citation, as oai_dc writes it.
    source: (dublinCore(r).source ?? []).map(T).filter((v) => v !== ''),
    relation: sorted([...dcList(r, 'relation'), ...related.flatMap((x) => ('text' in x ? [x.text] : []))]),
    related: sorted(related.flatMap((x) => ('related' in x ? [x.related] : []))),
    rights: dcList(r, 'rights'),
    accessRights: r.accessRights === 'embargoed' ? undefined : r.accessRights,
    license: europeanaRights(r),
    files: files.map((f) => {
      const w = first(f.url);
      return undefinedless({ url: f.url, mediaType: w.mediaType, size: w.size, access: w.access });
    }),
  });
}
