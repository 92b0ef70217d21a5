/**
 * `edm`: the Europeana Data Model as Europeana harvests it (RDF/XML, root
 * `rdf:RDF`, schemas/edm/EDM.xsd; metadataNamespace
 * http://www.europeana.eu/schemas/edm/), following the "Europeana Data Model
 * Mapping Guidelines" v2.4 (EDM MG) for what goes where and which properties
 * are mandatory, and Europeana's technical requirements (OAI-PMH, EDM as the
 * format). One record is the provider's aggregation: an `ore:Aggregation`
 * about an `edm:ProvidedCHO` (the work), an `edm:WebResource` per file and an
 * `edm:Agent` per creator with an ORCID iD.
 *
 * | record                                   | EDM                                                                 |
 * |------------------------------------------|---------------------------------------------------------------------|
 * | dc.title; dc.description                 | ProvidedCHO dc:title; dc:description                                |
 * | creators (else dc.creator)               | dc:creator: the name; with an ORCID iD `rdf:resource` the iD's URI, and an edm:Agent of that URI with skos:prefLabel the name (EDM MG: contextual classes) |
 * | contributors (else dc.contributor)       | dc:contributor, the name                                            |
 * | publisher (then dc.publisher)            | dc:publisher                                                        |
 * | dates.issued (else publicationYear); dc.date | dcterms:issued; dc:date                                         |
 * | language, dc.language                    | dc:language (the BCP 47 tag first)                                  |
 * | dc.subject; dc.coverage                  | dc:subject; dc:coverage                                             |
 * | resourceType                             | dc:type `rdf:resource` the COAR concept, then dc:type its label     |
 * | dc.type                                  | dc:type                                                             |
 * | resourceType (COAR's general type first), else dc.type | edm:type: TEXT, IMAGE, SOUND, VIDEO or 3D ({@link edmType}) |
 * | dc.format; dc.source (the host as its citation); dc.relation | dc:format; dc:source; dc:relation                    |
 * | identifiers and dc.identifier            | dc:identifier, as oai_dc writes them (typed ones as URIs)           |
 * | relatedIdentifiers                       | dcterms:isPartOf, hasPart, isVersionOf, hasVersion, references, isReferencedBy, requires, isRequiredBy, replaces, isReplacedBy, isFormatOf, hasFormat with `rdf:resource` the identifier's URI; other relations dc:relation as oai_dc writes it |
 * | dc.rights; accessRights (not embargoed)  | dc:rights; dc:rights `rdf:resource` the COAR access right           |
 * | files                                    | edm:WebResource each: dc:rights the COAR access right, ebucore:hasMimeType, ebucore:fileByteSize; Aggregation edm:isShownBy the first, edm:hasView the others |
 * | a URL identifier, else the DOI, Handle or ARK | Aggregation edm:isShownAt ({@link isShownAt})                   |
 * | licences: the first Europeana accepts    | Aggregation edm:rights ({@link europeanaRights})                    |
 * | options dataProvider, provider           | Aggregation edm:dataProvider, edm:provider                          |
 * | the POI (else the oai-identifier and `#cho`); the oai-identifier | rdf:about of the ProvidedCHO; of the ore:Aggregation    |
 *
 * Not carried: given and family names, affiliations, the name type;
 * contributor types; funding; accepted, available and embargo dates (and so
 * an embargoed access right); the parts of the host (it is dc:source's citation).
 *
 * An item has this format when the repository names its data provider and
 * provider and the record has what Europeana makes mandatory ({@link edmLacks}).
 */
import type { RecordFields, RelatedIdentifier } from '../model/record';
import { ACCESS_RIGHTS, COAR_TYPES, type DataCiteResourceType, type RelationType } from '../model/vocabularies';
import { contributors, creators, dcValues, dublinCore, fileLinks, identifierUri, recordIdentifiers, licences, relationUri, titles } from '../model/facts';
import { coarTypeOfRecord } from '../model/type-facts';
import { isHttpUrl } from '../model/identifiers';
import type { CrosswalkContext, CrosswalkResult, MetadataFormat } from './format';
import { empty, leaf, rootOpen, wrap } from './xml-out';
import { DCTERMS_NS, EBUCORE_NS, EDM_NS, EDM_SCHEMA, ORE_NS, RDF_NS, readEdm, SKOS_NS, type EdmType } from './edm-read';
import { DC_NS } from '../xml/namespaces';

const XSD_LONG = 'http://www.w3.org/2001/XMLSchema#long';

/** edm:type of a DataCite general type: the kinds of work that are text, image, sound or moving image. */
const EDM_TYPE_OF_GENERAL: Partial<Record<DataCiteResourceType, EdmType>> = {
  Text: 'TEXT',
  Book: 'TEXT',
  BookChapter: 'TEXT',
  ConferencePaper: 'TEXT',
  ConferenceProceeding: 'TEXT',
  DataPaper: 'TEXT',
  Dissertation: 'TEXT',
  Journal: 'TEXT',
  JournalArticle: 'TEXT',
  OutputManagementPlan: 'TEXT',
  PeerReview: 'TEXT',
  Preprint: 'TEXT',
  Report: 'TEXT',
  Standard: 'TEXT',
  Image: 'IMAGE',
  Sound: 'SOUND',
  Audiovisual: 'VIDEO',
};

/** edm:type of a dc:type: Europeana's own words, and the DCMI Type Vocabulary's (by name or URI). */
const EDM_TYPE_OF_WORD: Readonly<Record<string, EdmType>> = {
  text: 'TEXT',
  image: 'IMAGE',
  stillimage: 'IMAGE',
  sound: 'SOUND',
  video: 'VIDEO',
  movingimage: 'VIDEO',
  '3d': '3D',
};

/**
 * The record's edm:type: from its resource type (the COAR concept's general
 * type, else the general type given), else from the COAR concept its dc:type
 * words name (info:eu-repo → COAR), else from the first dc:type that is
 * one of Europeana's five words or a DCMI type (Text, Image, StillImage,
 * Sound, MovingImage); undefined when neither says (a dataset, software).
 *
 * @example edmType({ dc: {}, resourceType: { general: 'JournalArticle', label: 'article' } }) // 'TEXT'
 * @example edmType({ dc: { type: ['http://purl.org/dc/dcmitype/StillImage'] } }) // 'IMAGE'
 */
export function edmType(r: RecordFields): EdmType | undefined {
  const rt = r.resourceType;
  // Untyped, a record's dc:type words may still name a COAR concept (an info:eu-repo publication type, a COAR
  // URI or label: ../model/type-facts.ts `coarTypeOfRecord`, what oai_openaire is written from), whose general type is its kind.
  const general = rt === undefined ? coarTypeOfRecord(r)?.datacite : ((rt.coar !== undefined ? COAR_TYPES.get(rt.coar)?.datacite : undefined) ?? rt.general);
  const fromGeneral = general === undefined ? undefined : EDM_TYPE_OF_GENERAL[general];
  if (fromGeneral !== undefined) return fromGeneral;
  for (const t of dcValues(r, 'type')) {
    const word = t
      .trim()
      .replace(/^https?:\/\/purl\.org\/dc\/dcmitype\//i, '')
      .toLowerCase();
    // Own keys only: a dc:type of `__proto__` or `constructor` names no edm:type.
    if (Object.hasOwn(EDM_TYPE_OF_WORD, word)) return EDM_TYPE_OF_WORD[word];
  }
  return undefined;
}

// Europeana's rights statements, as the Schematron of EDM-EXTERNAL-MAIN.xsd lists them (its `license_patterns`).
const EUROPEANA_RIGHTS: readonly RegExp[] = [
  /^http:\/\/creativecommons\.org\/licenses\/(by|by-sa|by-nd|by-nc|by-nc-sa|by-nc-nd|by-nd-nc)\/1\.0\/((fi|il|nl)\/)?$/,
  /^http:\/\/creativecommons\.org\/licenses\/(by|by-sa|by-nd|by-nc|by-nc-sa|by-nc-nd)\/2\.0\/((au|at|be|br|ca|cl|hr|uk|fr|de|it|jp|nl|pl|kr|es|tw)\/)?$/,
  /^http:\/\/creativecommons\.org\/licenses\/(by|by-sa|by-nd|by-nc|by-nc-sa|by-nc-nd)\/2\.1\/((au|es|jp)\/)$/,
  /^http:\/\/creativecommons\.org\/licenses\/(by|by-sa|by-nd|by-nc|by-nc-sa|by-nc-nd)\/2\.5\/((ar|au|br|bg|ca|cn|co|hr|dk|hu|in|il|it|mk|my|mt|mx|nl|pe|pl|pt|scotland|si|za|es|se|ch|tw)\/)?$/,
  /^http:\/\/creativecommons\.org\/licenses\/(by|by-sa|by-nd|by-nc|by-nc-sa|by-nc-nd)\/3\.0\/((au|at|br|cl|cn|cr|hr|cz|ec|eg|ee|fr|de|gr|gt|hk|igo|ie|it|lu|nl|nz|no|ph|pl|pt|pr|ro|rs|sg|za|es|ch|tw|th|ug|us|ve|vn)\/)?$/,
  /^http:\/\/creativecommons\.org\/licenses\/(by|by-sa|by-nd|by-nc|by-nc-sa|by-nc-nd)\/4\.0\/$/,
  /^http:\/\/creativecommons\.org\/publicdomain\/(zero|mark)\/1\.0\/$/,
  /^http:\/\/rightsstatements\.org\/vocab\/(NoC-NC|NoC-OKLR|InC|InC-EDU|InC-OW-EU|CNE)\/1\.0\/$/,
];

/**
 * A licence URI in the form Europeana accepts for edm:rights, or undefined
 * when it names none of Europeana's statements. The spellings a repository
 * writes of the same statement are taken: https, `www.`, a missing final
 * slash, a `legalcode` or `deed.xx` page, rightsstatements.org's `page/`
 * address; the result is the `http://…/` form of Europeana's list.
 *
 * @example europeanaStatement('https://creativecommons.org/licenses/by/4.0/legalcode') // 'http://creativecommons.org/licenses/by/4.0/'
 * @example europeanaStatement('https://opensource.org/licenses/MIT') // undefined
 */
export function europeanaStatement(uri: string): string | undefined {
  const m = /^https?:\/\/(?:www\.)?(creativecommons\.org|rightsstatements\.org)\/(.*)$/i.exec(uri.trim());
  if (!m) return undefined;
  let path = (m[2] as string).replace(/[?#].*$/, '').replace(/(?:legalcode(?:\.[a-z-]+)?|deed\.[a-z-]+)$/i, '');
  if (!path.endsWith('/')) path += '/';
  const host = (m[1] as string).toLowerCase();
  if (host === 'rightsstatements.org') path = path.replace(/^page\//, 'vocab/');
  else path = path.toLowerCase();
  const candidate = `http://${host}/${path}`;
  return EUROPEANA_RIGHTS.some((p) => p.test(candidate)) ? candidate : undefined;
}

/**
 * The record's edm:rights: the first of its licences (lib/model/facts.ts
 * `licences`) that is one of Europeana's rights statements, in Europeana's
 * form; undefined when none is (EDM MG, ore:Aggregation edm:rights, mandatory).
 *
 * @example europeanaRights({ dc: {}, license: 'https://creativecommons.org/licenses/by/4.0/' }) // 'http://creativecommons.org/licenses/by/4.0/'
 */
export function europeanaRights(r: RecordFields): string | undefined {
  for (const l of licences(r)) {
    const s = europeanaStatement(l);
    if (s !== undefined) return s;
  }
  return undefined;
}

/**
 * Where the object is shown in its full context (edm:isShownAt, EDM MG: the
 * provider's web page of the object): the record's first URL, else its DOI,
 * Handle or ARK at its resolver; undefined when it has none.
 *
 * @example isShownAt({ dc: { identifier: ['https://repo.example.org/items/7'] } }) // 'https://repo.example.org/items/7'
 */
export function isShownAt(r: RecordFields): string | undefined {
  const ids = recordIdentifiers(r);
  const url = ids.find((i) => i.type === 'URL' && isHttpUrl(i.value));
  if (url !== undefined) return url.value;
  for (const type of ['DOI', 'Handle', 'ARK'] as const) {
    const id = ids.find((i) => i.type === type);
    if (id !== undefined) return identifierUri(id);
  }
  return undefined;
}

/** The object itself (edm:isShownBy, EDM MG: a direct link to the digital object): the record's first file. @example isShownBy({ dc: {}, files: [{ url: 'https://r.org/a.jpg' }] }) // 'https://r.org/a.jpg' */
export function isShownBy(r: RecordFields): string | undefined {
  return fileLinks(r)[0]?.href;
}

/** Whether the record names a subject, a type or a resource type: what EDM MG asks of a ProvidedCHO (dc:subject, dc:type, dcterms:spatial or dcterms:temporal). */
export function hasSubjectOrType(r: RecordFields): boolean {
  return dcValues(r, 'subject').length > 0 || dcValues(r, 'type').length > 0 || r.resourceType !== undefined;
}

/** Whether the record says the language of its content (typed, or dc.language). */
function hasLanguage(r: RecordFields): boolean {
  return r.language !== undefined || dcValues(r, 'language').length > 0;
}

/**
 * What a record lacks of what Europeana makes mandatory (EDM MG v2.4,
 * "mandatory properties"), the first thing missing, or null: a rights
 * statement Europeana accepts, an edm:type, a title or a description, a
 * subject or type, a link to the object (isShownAt or isShownBy), and the
 * language of a text.
 *
 * @example edmRecordLacks({ dc: { title: ['T'] } }) // 'edm needs a rights statement Europeana accepts …'
 */
export function edmRecordLacks(r: RecordFields): string | null {
  if (europeanaRights(r) === undefined)
    return 'edm needs a rights statement Europeana accepts for edm:rights (a Creative Commons licence or public domain tool, or a rightsstatements.org statement)';
  const type = edmType(r);
  if (type === undefined) return 'edm needs an edm:type (TEXT, IMAGE, SOUND, VIDEO or 3D) that the resource type or a dc:type names';
  if (titles(r).length === 0 && dcValues(r, 'description').length === 0) return 'edm needs a title or a description';
  if (!hasSubjectOrType(r)) return 'edm needs a subject or a type';
  if (isShownAt(r) === undefined && isShownBy(r) === undefined)
    return 'edm needs a link to the object: a landing page (a URL, DOI, Handle or ARK: edm:isShownAt) or a file (edm:isShownBy)';
  if (type === 'TEXT' && !hasLanguage(r)) return 'edm needs the language of a text (dc:language)';
  return null;
}

/**
 * Why an item cannot have edm, or null: the institutions Europeana names
 * (options dataProvider and provider, EDM MG: mandatory in ore:Aggregation),
 * then what the record lacks ({@link edmRecordLacks}).
 *
 * @example edmLacks(record, { oaiIdentifier: 'oai:x.org:1', options: {} }) // 'edm needs the name of the institution providing the data (option dataProvider)'
 */
export function edmLacks(r: RecordFields, ctx: CrosswalkContext): string | null {
  if ((ctx.options.dataProvider ?? '').trim() === '') return 'edm needs the name of the institution providing the data (option dataProvider)';
  if ((ctx.options.provider ?? '').trim() === '')
    return 'edm needs the name of the aggregator or institution Europeana receives the data from (option provider)';
  return edmRecordLacks(r);
}

/**
 * The creators as dc:creator writes them: a name, and the ORCID iD's URI of
 * the first creator with that iD (the edm:Agent it names; a second creator
 * with the same iD is written by name alone, as one URI names one agent).
 *
 * @example edmCreators({ dc: {}, creators: [{ name: 'Curie, Marie', orcid: '0000-0002-1825-0097' }] }) // [{ name: 'Curie, Marie', agent: 'https://orcid.org/0000-0002-1825-0097' }]
 */
export function edmCreators(r: RecordFields): { name: string; agent?: string }[] {
  const seen = new Set<string>();
  return creators(r)
    .filter((a) => a.name.trim() !== '')
    .map((a) => {
      if (a.orcid === undefined || seen.has(a.orcid)) return { name: a.name };
      seen.add(a.orcid);
      return { name: a.name, agent: `https://orcid.org/${a.orcid}` };
    });
}

/** The dcterms property of a DataCite relation, where Dublin Core has one (DCMI Metadata Terms, the relation refinements). */
export const DCTERMS_RELATION: Partial<Record<RelationType, string>> = {
  IsPartOf: 'isPartOf',
  HasPart: 'hasPart',
  IsVersionOf: 'isVersionOf',
  HasVersion: 'hasVersion',
  References: 'references',
  Cites: 'references',
  IsReferencedBy: 'isReferencedBy',
  IsCitedBy: 'isReferencedBy',
  Requires: 'requires',
  IsRequiredBy: 'isRequiredBy',
  Obsoletes: 'replaces',
  IsObsoletedBy: 'isReplacedBy',
  IsVariantFormOf: 'isFormatOf',
  IsOriginalFormOf: 'hasFormat',
};

/**
 * A related identifier as a URI an `rdf:resource` can name: a DOI, Handle
 * or ARK at its resolver, a URN, a URL or PURL as it is; undefined for the
 * schemes without one (ISSN, ISBN, arXiv, …).
 *
 * @example relatedUri({ identifier: '10.5555/x', type: 'DOI', relation: 'IsPartOf' }) // 'https://doi.org/10.5555/x'
 */
export function relatedUri(x: RelatedIdentifier): string | undefined {
  const id = x.identifier.trim();
  if (x.type === 'DOI' || x.type === 'Handle' || x.type === 'ARK' || x.type === 'URN') return identifierUri({ type: x.type, value: id });
  if ((x.type === 'URL' || x.type === 'PURL') && isHttpUrl(id)) return id;
  return undefined;
}

const resource = (name: string, uri: string): string => empty(name, ['rdf:resource', uri]);

/**
 * Crosswalks a record to an EDM record, or says why the item lacks it.
 *
 * @example
 * recordToEdm(record, { oaiIdentifier: 'oai:x.org:1', options: { dataProvider: 'Example Museum', provider: 'Example Aggregator' } })
 * // → '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" …><edm:ProvidedCHO rdf:about="oai:x.org:1#cho">…</rdf:RDF>'
 */
export function recordToEdm(r: RecordFields, ctx: CrosswalkContext): CrosswalkResult {
  const lacks = edmLacks(r, ctx);
  if (lacks !== null) return { notOffered: lacks };
  // The work is the item's POI, else the record's oai-identifier with #cho; the aggregation is the
  // record this repository serves, its oai-identifier.
  const cho = ctx.poi ?? `${ctx.oaiIdentifier}#cho`;
  const rt = r.resourceType;
  const issued = r.dates?.issued ?? r.publicationYear;
  const access = r.accessRights === undefined || r.accessRights === 'embargoed' ? undefined : ACCESS_RIGHTS[r.accessRights].uri;
  const byCreator = edmCreators(r);
  const files = r.files ?? [];
  const shownAt = isShownAt(r);
  const dc = (name: string, values: readonly string[]): string[] => values.map((v) => leaf(`dc:${name}`, v));
  const relations = (r.relatedIdentifiers ?? []).map((x) => {
    const property = DCTERMS_RELATION[x.relation];
    const uri = relatedUri(x);
    // Another relation is a dc:relation as oai_dc writes it (facts.ts `relationUri`): a URI, else the value after its scheme.
    return property !== undefined && uri !== undefined ? resource(`dcterms:${property}`, uri) : leaf('dc:relation', relationUri(x));
  });
  const providedCho = [
    ...dc('title', titles(r)),
    ...dc('description', dcValues(r, 'description')),
    ...byCreator.map((c) => (c.agent !== undefined ? resource('dc:creator', c.agent) : leaf('dc:creator', c.name))),
    ...dc(
      'contributor',
      contributors(r)
        .map((c) => c.name)
        .filter((n) => n.trim() !== ''),
    ),
    ...(r.publisher !== undefined ? [leaf('dc:publisher', r.publisher)] : []),
    ...dc('publisher', dcValues(r, 'publisher')),
    ...(issued !== undefined ? [leaf('dcterms:issued', issued)] : []),
    ...dc('date', dcValues(r, 'date')),
    ...(r.language !== undefined ? [leaf('dc:language', r.language)] : []),
    ...dc('language', dcValues(r, 'language')),
    ...dc('subject', dcValues(r, 'subject')),
    ...(rt?.coar !== undefined ? [resource('dc:type', rt.coar)] : []),
    ...(rt !== undefined && rt.label.trim() !== '' ? [leaf('dc:type', rt.label)] : []),
    ...dc('type', dcValues(r, 'type')),
    ...dc('coverage', dcValues(r, 'coverage')),
    ...dc('format', dcValues(r, 'format')),
    ...dc(
      'identifier',
      (dublinCore(r).identifier ?? []).filter((v) => v.trim() !== ''),
    ),
    // The record's Dublin Core source with the host as its citation, as oai_dc writes it (facts.ts `dublinCore`).
    ...dc('source', dublinCore(r).source ?? []),
    ...dc('relation', dcValues(r, 'relation')),
    ...relations,
    ...dc('rights', dcValues(r, 'rights')),
    ...(access !== undefined ? [resource('dc:rights', access)] : []),
    leaf('edm:type', edmType(r) as EdmType),
  ];
  // One edm:WebResource a URL: an RDF resource is described once (a file the record lists twice keeps its first description).
  const webResources = files
    .filter((f, k) => files.findIndex((g) => g.url === f.url) === k)
    .map(
      (f) =>
        wrap(
          'edm:WebResource',
          [
            f.access !== undefined ? resource('dc:rights', ACCESS_RIGHTS[f.access].uri) : '',
            f.mediaType !== undefined ? leaf('ebucore:hasMimeType', f.mediaType) : '',
            f.size !== undefined ? leaf('ebucore:fileByteSize', String(f.size), ['rdf:datatype', XSD_LONG]) : '',
          ],
          ['rdf:about', f.url],
        ) || empty('edm:WebResource', ['rdf:about', f.url]),
    );
  const agents = byCreator.flatMap((c) => (c.agent !== undefined ? [wrap('edm:Agent', [leaf('skos:prefLabel', c.name)], ['rdf:about', c.agent])] : []));
  const aggregation = [
    resource('edm:aggregatedCHO', cho),
    leaf('edm:dataProvider', (ctx.options.dataProvider as string).trim()),
    ...files.slice(1).map((f) => resource('edm:hasView', f.url)),
    shownAt !== undefined ? resource('edm:isShownAt', shownAt) : '',
    files[0] !== undefined ? resource('edm:isShownBy', files[0].url) : '',
    leaf('edm:provider', (ctx.options.provider as string).trim()),
    resource('edm:rights', europeanaRights(r) as string),
  ];
  return [
    rootOpen(
      'rdf:RDF',
      [
        ['xmlns:rdf', RDF_NS],
        ['xmlns:dc', DC_NS],
        ['xmlns:dcterms', DCTERMS_NS],
        ['xmlns:edm', EDM_NS],
        ['xmlns:ore', ORE_NS],
        ['xmlns:skos', SKOS_NS],
        ['xmlns:ebucore', EBUCORE_NS],
      ],
      `${RDF_NS} ${EDM_SCHEMA}`,
    ),
    wrap('edm:ProvidedCHO', providedCho, ['rdf:about', cho]),
    ...webResources,
    ...agents,
    wrap('ore:Aggregation', aggregation, ['rdf:about', ctx.oaiIdentifier]),
    '</rdf:RDF>',
  ].join('');
}

/** EDM as Europeana's own services publish it (OAI-PMH, API): proxies and Europeana's aggregation, EDM-INTERNAL.xsd of the schema set Europeana ingests with (europeana/metis-schema). */
export const EDM_INTERNAL_SCHEMA = 'http://www.europeana.eu/schemas/edm/EDM-INTERNAL.xsd';

/**
 * The schema of a given EDM record: EDM-INTERNAL.xsd for one in the profile
 * Europeana's own services publish, whose proxies say whose they are
 * (`edm:europeanaProxy`, a property only that profile has), else EDM.xsd
 * (`schema`), which also takes a provider's record with an ore:Proxy.
 *
 * @example edmSchemaOf('<rdf:RDF …><ore:Proxy rdf:about="p"><edm:europeanaProxy>false</edm:europeanaProxy>…</ore:Proxy></rdf:RDF>') // EDM_INTERNAL_SCHEMA
 */
export function edmSchemaOf(xml: string): string | undefined {
  return xml.includes(EDM_NS) && /<(?:[A-Za-z_][\w.-]*:)?europeanaProxy[\s>]/.test(xml) ? EDM_INTERNAL_SCHEMA : undefined;
}

/** The edm entry of the format registry. */
export const edm: MetadataFormat = {
  prefix: 'edm',
  schema: EDM_SCHEMA,
  schemaOfRecord: edmSchemaOf,
  namespace: EDM_NS,
  rootNamespace: RDF_NS,
  builtIn: true,
  fromRecord: recordToEdm,
  lacks: edmLacks,
  read: readEdm,
  // The names Europeana shows for the records (edm:dataProvider, edm:provider): no default can be a real
  // institution's, so a repository offers edm records once it names both.
  defaultOptions: { dataProvider: '', provider: '' },
};
