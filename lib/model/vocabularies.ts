/**
 * Controlled vocabularies of the record fields: COAR resource types and
 * access rights, and the DataCite kernel-4 lists a record may name. Each list
 * is copied from the published schema it serves (schemas/SOURCES.md), so a
 * value accepted here is one the crosswalks can write validly.
 *
 * Pure data: no I/O.
 */

/** DataCite kernel-4.7 `resourceTypeGeneral` (schemas/datacite-4/include/datacite-resourceType-v4.xsd). */
export const DATACITE_RESOURCE_TYPES = [
  'Audiovisual',
  'Award',
  'Book',
  'BookChapter',
  'Collection',
  'ComputationalNotebook',
  'ConferencePaper',
  'ConferenceProceeding',
  'DataPaper',
  'Dataset',
  'Dissertation',
  'Event',
  'Image',
  'Instrument',
  'InteractiveResource',
  'Journal',
  'JournalArticle',
  'Model',
  'OutputManagementPlan',
  'PeerReview',
  'PhysicalObject',
  'Poster',
  'Preprint',
  'Presentation',
  'Project',
  'Report',
  'Service',
  'Software',
  'Sound',
  'Standard',
  'StudyRegistration',
  'Text',
  'Workflow',
  'Other',
] as const;
export type DataCiteResourceType = (typeof DATACITE_RESOURCE_TYPES)[number];

/** DataCite kernel-4.7 `relationType` (datacite-relationType-v4.xsd). */
export const DATACITE_RELATION_TYPES = [
  'IsCitedBy',
  'Cites',
  'IsSupplementTo',
  'IsSupplementedBy',
  'IsContinuedBy',
  'Continues',
  'IsNewVersionOf',
  'IsPreviousVersionOf',
  'IsPartOf',
  'HasPart',
  'IsPublishedIn',
  'IsReferencedBy',
  'References',
  'IsDocumentedBy',
  'Documents',
  'IsCompiledBy',
  'Compiles',
  'IsVariantFormOf',
  'IsOriginalFormOf',
  'IsIdenticalTo',
  'HasMetadata',
  'IsMetadataFor',
  'Reviews',
  'IsReviewedBy',
  'IsDerivedFrom',
  'IsSourceOf',
  'Describes',
  'IsDescribedBy',
  'HasVersion',
  'IsVersionOf',
  'Requires',
  'IsRequiredBy',
  'Obsoletes',
  'IsObsoletedBy',
  'Collects',
  'IsCollectedBy',
  'HasTranslation',
  'IsTranslationOf',
  'Other',
] as const;
export type RelationType = (typeof DATACITE_RELATION_TYPES)[number];

/**
 * The relation types the OpenAIRE v4 schema knows (its copy of DataCite 4.1,
 * schemas/openaire-4/datacite-relationType-v4.xsd): a related identifier with
 * another relation is left out of oai_openaire.
 */
export const OPENAIRE_RELATION_TYPES: ReadonlySet<string> = new Set([
  'IsCitedBy',
  'Cites',
  'IsSupplementTo',
  'IsSupplementedBy',
  'IsContinuedBy',
  'Continues',
  'IsDescribedBy',
  'Describes',
  'HasVersion',
  'IsVersionOf',
  'IsNewVersionOf',
  'IsPreviousVersionOf',
  'IsPartOf',
  'HasPart',
  'IsReferencedBy',
  'References',
  'IsDocumentedBy',
  'Documents',
  'IsCompiledBy',
  'Compiles',
  'IsVariantFormOf',
  'IsOriginalFormOf',
  'IsIdenticalTo',
  'HasMetadata',
  'IsMetadataFor',
  'Reviews',
  'IsReviewedBy',
  'IsDerivedFrom',
  'IsSourceOf',
  'IsRequiredBy',
  'Requires',
]);

/** DataCite kernel-4.7 `relatedIdentifierType` (datacite-relatedIdentifierType-v4.xsd). */
export const DATACITE_RELATED_IDENTIFIER_TYPES = [
  'ARK',
  'arXiv',
  'bibcode',
  'CSTR',
  'DOI',
  'EAN13',
  'EISSN',
  'Handle',
  'IGSN',
  'ISBN',
  'ISSN',
  'ISTC',
  'LISSN',
  'LSID',
  'PMID',
  'PURL',
  'RAiD',
  'RRID',
  'SWHID',
  'UPC',
  'URL',
  'URN',
  'w3id',
] as const;
export type RelatedIdentifierType = (typeof DATACITE_RELATED_IDENTIFIER_TYPES)[number];

/** The related identifier types of the OpenAIRE v4 schema (its DataCite 4.1 copy). */
export const OPENAIRE_RELATED_IDENTIFIER_TYPES: ReadonlySet<string> = new Set([
  'ARK',
  'arXiv',
  'bibcode',
  'DOI',
  'EAN13',
  'EISSN',
  'Handle',
  'IGSN',
  'ISBN',
  'ISSN',
  'ISTC',
  'LISSN',
  'LSID',
  'PISSN',
  'PMID',
  'PURL',
  'UPC',
  'URL',
  'URN',
  'WOS',
]);

/** The relatedIdentifier/@resourceTypeGeneral values of the OpenAIRE v4 schema (its DataCite 4.1 list). */
export const OPENAIRE_RELATED_GENERAL_TYPES: ReadonlySet<string> = new Set([
  'Audiovisual',
  'Collection',
  'DataPaper',
  'Dataset',
  'Event',
  'Image',
  'InteractiveResource',
  'Model',
  'PhysicalObject',
  'Service',
  'Software',
  'Sound',
  'Text',
  'Workflow',
  'Other',
]);

/** DataCite kernel-4.7 `contributorType` (datacite-contributorType-v4.xsd). */
export const DATACITE_CONTRIBUTOR_TYPES = [
  'ContactPerson',
  'DataCollector',
  'DataCurator',
  'DataManager',
  'Distributor',
  'Editor',
  'HostingInstitution',
  'Other',
  'Producer',
  'ProjectLeader',
  'ProjectManager',
  'ProjectMember',
  'RegistrationAgency',
  'RegistrationAuthority',
  'RelatedPerson',
  'ResearchGroup',
  'RightsHolder',
  'Researcher',
  'Sponsor',
  'Supervisor',
  'Translator',
  'WorkPackageLeader',
] as const;
export type ContributorType = (typeof DATACITE_CONTRIBUTOR_TYPES)[number];

/** DataCite kernel-4.7 `titleType` (datacite-titleType-v4.xsd). */
export const DATACITE_TITLE_TYPES = ['AlternativeTitle', 'Subtitle', 'TranslatedTitle', 'Other'] as const;
export type DataCiteTitleType = (typeof DATACITE_TITLE_TYPES)[number];

/** DataCite kernel-4.7 `dateType` (datacite-dateType-v4.xsd; Coverage is new in 4.6). */
export const DATACITE_DATE_TYPES = [
  'Accepted',
  'Available',
  'Collected',
  'Copyrighted',
  'Coverage',
  'Created',
  'Issued',
  'Other',
  'Submitted',
  'Updated',
  'Valid',
  'Withdrawn',
] as const;
export type DataCiteDateType = (typeof DATACITE_DATE_TYPES)[number];

/** DataCite kernel-4.7 `descriptionType` (datacite-descriptionType-v4.xsd). */
export const DATACITE_DESCRIPTION_TYPES = ['Abstract', 'Methods', 'SeriesInformation', 'TableOfContents', 'TechnicalInfo', 'Other'] as const;
export type DataCiteDescriptionType = (typeof DATACITE_DESCRIPTION_TYPES)[number];

/** DataCite kernel-4.7 `numberType` of a related item (datacite-numberType-v4.xsd). */
export const DATACITE_NUMBER_TYPES = ['Article', 'Chapter', 'Report', 'Other'] as const;
export type DataCiteNumberType = (typeof DATACITE_NUMBER_TYPES)[number];

/** DataCite `funderIdentifierType` (the same five values in kernel-4.7 and in OpenAIRE v4). */
export const FUNDER_IDENTIFIER_TYPES = ['Crossref Funder ID', 'ROR', 'ISNI', 'GRID', 'Other'] as const;
export type FunderIdentifierType = (typeof FUNDER_IDENTIFIER_TYPES)[number];

/**
 * The four COAR access rights (COAR Controlled Vocabularies, Access Rights
 * v1.0, http://purl.org/coar/access_right/), the values OpenAIRE v4 allows in
 * `datacite:rights/@rightsURI` (openaire-4/oaire-accessRight-v4.xsd).
 */
export const ACCESS_RIGHTS = {
  open: { uri: 'http://purl.org/coar/access_right/c_abf2', label: 'open access' },
  embargoed: { uri: 'http://purl.org/coar/access_right/c_f1cf', label: 'embargoed access' },
  restricted: { uri: 'http://purl.org/coar/access_right/c_16ec', label: 'restricted access' },
  metadataOnly: { uri: 'http://purl.org/coar/access_right/c_14cb', label: 'metadata only access' },
} as const;
export type AccessRight = keyof typeof ACCESS_RIGHTS;

/** The prefix of every COAR resource type concept URI. */
export const COAR_RESOURCE_TYPE_PREFIX = 'http://purl.org/coar/resource_type/';

/** The OpenAIRE v4 `resourceTypeGeneral` (openaire-4/oaire.xsd). */
export type OpenAireResourceType = 'literature' | 'dataset' | 'software' | 'other research product';

/** How one COAR resource type maps to the other formats' vocabularies. */
export interface CoarType {
  /** The COAR concept URI. */
  readonly uri: string;
  /** The COAR preferred label (English). */
  readonly label: string;
  /** DataCite `resourceTypeGeneral`. */
  readonly datacite: DataCiteResourceType;
  /** OpenAIRE v4 `resourceTypeGeneral`. */
  readonly openaire: OpenAireResourceType;
  /** MARC 21 Leader/06, type of record (a language material, c notated music, e cartographic, g projected medium, i nonmusical sound, k 2D graphic, m computer file, p mixed, r 3D artefact). */
  readonly leader06: string;
  /** MODS `typeOfResource` (the MODS 3.6 list, which 3.7 still recommends). */
  readonly typeOfResource: string;
  /** A MARC Genre Term List (marcgt) term for MODS `genre` and MARC 655, where one fits. */
  readonly marcgt?: string;
}

// [suffix, label, DataCite, OpenAIRE, Leader/06, MODS typeOfResource, marcgt]
// Every concept of the OpenAIRE v4 resource type list (openaire-4/oaire-resourceType-v4.xsd).
// Theses map to DataCite Dissertation, as DataCite's own COAR mapping does; lectures to Presentation (kernel 4.7).
const L = 'literature';
const O = 'other research product';
const ROWS: readonly (readonly [string, string, DataCiteResourceType, OpenAireResourceType, string, string, string?])[] = [
  ['c_1162', 'annotation', 'Text', L, 'a', 'text'],
  ['c_0640', 'journal', 'Journal', L, 'a', 'text', 'journal'],
  ['c_6501', 'journal article', 'JournalArticle', L, 'a', 'text', 'article'],
  ['c_b239', 'editorial', 'Text', L, 'a', 'text', 'article'],
  ['c_7a1f', 'bachelor thesis', 'Dissertation', L, 'a', 'text', 'thesis'],
  ['c_86bc', 'bibliography', 'Text', L, 'a', 'text', 'bibliography'],
  ['c_2f33', 'book', 'Book', L, 'a', 'text', 'book'],
  ['c_3248', 'book part', 'BookChapter', L, 'a', 'text', 'book'],
  ['c_ba08', 'book review', 'PeerReview', L, 'a', 'text', 'review'],
  ['c_7ad9', 'website', 'InteractiveResource', O, 'm', 'software, multimedia', 'web site'],
  ['c_e9a0', 'interactive resource', 'InteractiveResource', O, 'm', 'software, multimedia'],
  ['c_f744', 'conference proceedings', 'ConferenceProceeding', L, 'a', 'text', 'conference publication'],
  ['c_c94f', 'conference object', 'ConferencePaper', L, 'a', 'text', 'conference publication'],
  ['c_5794', 'conference paper', 'ConferencePaper', L, 'a', 'text', 'conference publication'],
  ['c_6670', 'conference poster', 'Poster', L, 'a', 'text', 'conference publication'],
  ['c_3e5a', 'contribution to journal', 'JournalArticle', L, 'a', 'text', 'article'],
  ['c_beb9', 'data paper', 'DataPaper', L, 'a', 'text', 'article'],
  ['c_ddb1', 'dataset', 'Dataset', 'dataset', 'm', 'software, multimedia'],
  ['c_db06', 'doctoral thesis', 'Dissertation', L, 'a', 'text', 'thesis'],
  ['c_c513', 'image', 'Image', O, 'k', 'still image', 'picture'],
  ['c_8544', 'lecture', 'Presentation', L, 'a', 'text', 'speech'],
  ['c_0857', 'letter', 'Text', L, 'a', 'text', 'letter'],
  ['c_bdcc', 'master thesis', 'Dissertation', L, 'a', 'text', 'thesis'],
  ['c_8a7e', 'moving image', 'Audiovisual', O, 'g', 'moving image', 'videorecording'],
  ['c_2659', 'periodical', 'Journal', L, 'a', 'text', 'periodical'],
  ['c_545b', 'letter to the editor', 'Text', L, 'a', 'text', 'letter'],
  ['c_1843', 'other', 'Other', O, 'p', 'mixed material'],
  ['c_15cd', 'patent', 'Text', L, 'a', 'text', 'patent'],
  ['c_816b', 'preprint', 'Preprint', L, 'a', 'text', 'article'],
  ['c_93fc', 'report', 'Report', L, 'a', 'text', 'technical report'],
  ['c_ba1f', 'report part', 'Report', L, 'a', 'text', 'technical report'],
  ['c_baaf', 'research proposal', 'Text', L, 'a', 'text'],
  ['c_efa0', 'review', 'PeerReview', L, 'a', 'text', 'review'],
  ['c_5ce6', 'software', 'Software', 'software', 'm', 'software, multimedia'],
  ['c_ecc8', 'still image', 'Image', O, 'k', 'still image', 'picture'],
  ['c_71bd', 'technical documentation', 'Text', L, 'a', 'text', 'handbook'],
  ['c_393c', 'workflow', 'Workflow', O, 'm', 'software, multimedia'],
  ['c_8042', 'working paper', 'Preprint', L, 'a', 'text', 'technical report'],
  ['c_46ec', 'thesis', 'Dissertation', L, 'a', 'text', 'thesis'],
  ['c_12cc', 'cartographic material', 'Image', O, 'e', 'cartographic', 'map'],
  ['c_12cd', 'map', 'Image', O, 'e', 'cartographic', 'map'],
  ['c_12ce', 'video', 'Audiovisual', O, 'g', 'moving image', 'videorecording'],
  ['c_18cc', 'sound', 'Sound', O, 'i', 'sound recording', 'sound'],
  ['c_18cd', 'musical composition', 'Other', O, 'c', 'notated music'],
  ['c_18cf', 'text', 'Text', L, 'a', 'text'],
  ['c_18cp', 'conference paper not in proceedings', 'ConferencePaper', L, 'a', 'text', 'conference publication'],
  ['c_18co', 'conference poster not in proceedings', 'Poster', L, 'a', 'text', 'conference publication'],
  ['c_18cw', 'musical notation', 'Other', O, 'c', 'notated music'],
  ['c_18ww', 'internal report', 'Report', L, 'a', 'text', 'technical report'],
  ['c_18wz', 'memorandum', 'Report', L, 'a', 'text'],
  ['c_18wq', 'other type of report', 'Report', L, 'a', 'text', 'technical report'],
  ['c_186u', 'policy report', 'Report', L, 'a', 'text', 'technical report'],
  ['c_18op', 'project deliverable', 'Report', L, 'a', 'text', 'technical report'],
  ['c_18hj', 'report to funding agency', 'Report', L, 'a', 'text', 'technical report'],
  ['c_18ws', 'research report', 'Report', L, 'a', 'text', 'technical report'],
  ['c_18gh', 'technical report', 'Report', L, 'a', 'text', 'technical report'],
  ['c_dcae04bc', 'review article', 'JournalArticle', L, 'a', 'text', 'article'],
  ['c_2df8fbb1', 'research article', 'JournalArticle', L, 'a', 'text', 'article'],
];

/** COAR resource type URI → its mappings, for every type of the OpenAIRE v4 list. */
export const COAR_TYPES: ReadonlyMap<string, CoarType> = new Map(
  ROWS.map(([suffix, label, datacite, openaire, leader06, typeOfResource, marcgt]) => {
    const uri = COAR_RESOURCE_TYPE_PREFIX + suffix;
    return [uri, { uri, label, datacite, openaire, leader06, typeOfResource, ...(marcgt !== undefined && { marcgt }) }];
  }),
);

/**
 * The COAR resource type of each DataCite 4.7 `resourceTypeGeneral`: the
 * concept of COAR Resource Types 3.2 (http://purl.org/coar/resource_type/)
 * that matches it, among the concepts the OpenAIRE v4 schema accepts
 * (openaire-4/oaire-resourceType-v4.xsd), so that every DataCite record with a
 * type can be written as oai_openaire. Where COAR has no concept for the
 * general type (Award, Collection, Event, Instrument, Model, Output
 * Management Plan, Physical Object, Project, Service, Standard, Study
 * Registration), it is COAR's "other" (c_1843), which says no more than
 * DataCite did. A COAR type the record gives wins over this table (facts.ts
 * `coarTypeOfRecord`). Held against COAR 3.2's own SKOS matches to DataCite
 * (test/model/coar-datacite.test.ts): COAR's exact match wherever OpenAIRE v4
 * accepts it, except JournalArticle, which COAR 3.2 matches to its data paper
 * (c_beb9, DataCite's DataPaper) and which is COAR's journal article here.
 */
export const COAR_OF_DATACITE_GENERAL: Readonly<Record<DataCiteResourceType, string>> = {
  Audiovisual: 'c_8a7e',
  Award: 'c_1843',
  Book: 'c_2f33',
  BookChapter: 'c_3248',
  Collection: 'c_1843',
  ComputationalNotebook: 'c_5ce6',
  ConferencePaper: 'c_5794',
  ConferenceProceeding: 'c_f744',
  DataPaper: 'c_beb9',
  Dataset: 'c_ddb1',
  Dissertation: 'c_46ec',
  Event: 'c_1843',
  Image: 'c_c513',
  Instrument: 'c_1843',
  InteractiveResource: 'c_e9a0',
  Journal: 'c_0640',
  JournalArticle: 'c_6501',
  Model: 'c_1843',
  OutputManagementPlan: 'c_1843',
  PeerReview: 'c_efa0',
  PhysicalObject: 'c_1843',
  Poster: 'c_6670',
  Preprint: 'c_816b',
  Presentation: 'c_8544',
  Project: 'c_1843',
  Report: 'c_93fc',
  Service: 'c_1843',
  Software: 'c_5ce6',
  Sound: 'c_18cc',
  Standard: 'c_1843',
  StudyRegistration: 'c_1843',
  Text: 'c_18cf',
  Workflow: 'c_393c',
  Other: 'c_1843',
};

/**
 * The COAR Version Types 1.0 (http://purl.org/coar/version/), the values
 * OpenAIRE v4 allows in `oaire:version/@uri` (openaire-4/oaire-versions-v4.xsd).
 */
export const COAR_VERSION_TYPES = {
  AO: { uri: 'http://purl.org/coar/version/c_b1a7d7d4d402bcce', label: "author's original" },
  SMUR: { uri: 'http://purl.org/coar/version/c_71e4c1898caa6e32', label: 'submitted manuscript under review' },
  AM: { uri: 'http://purl.org/coar/version/c_ab4af688f83e57aa', label: 'accepted manuscript' },
  P: { uri: 'http://purl.org/coar/version/c_fa2ee174bc00049f', label: 'proof' },
  VoR: { uri: 'http://purl.org/coar/version/c_970fb48d4fbd8a85', label: 'version of record' },
  CVoR: { uri: 'http://purl.org/coar/version/c_e19f295774971610', label: 'corrected version of record' },
  EVoR: { uri: 'http://purl.org/coar/version/c_dc82b40f9837b551', label: 'enhanced version of record' },
  NA: { uri: 'http://purl.org/coar/version/c_be7fb7dd8ff6fe43', label: 'not applicable (or unknown)' },
} as const;

/**
 * The version of each controlled vocabulary above and where its values were
 * copied from: the audit table of docs/metadata-formats.md, which a test holds
 * to this list.
 */
export const VOCABULARY_VERSIONS: readonly { readonly vocabulary: string; readonly version: string; readonly source: string }[] = [
  { vocabulary: 'DataCite resourceTypeGeneral', version: '4.7', source: 'datacite-4/include/datacite-resourceType-v4.xsd' },
  { vocabulary: 'DataCite relationType', version: '4.7', source: 'datacite-4/include/datacite-relationType-v4.xsd' },
  { vocabulary: 'DataCite relatedIdentifierType', version: '4.7', source: 'datacite-4/include/datacite-relatedIdentifierType-v4.xsd' },
  { vocabulary: 'DataCite contributorType', version: '4.7', source: 'datacite-4/include/datacite-contributorType-v4.xsd' },
  { vocabulary: 'DataCite dateType', version: '4.7', source: 'datacite-4/include/datacite-dateType-v4.xsd' },
  { vocabulary: 'DataCite descriptionType', version: '4.7', source: 'datacite-4/include/datacite-descriptionType-v4.xsd' },
  { vocabulary: 'DataCite titleType', version: '4.7', source: 'datacite-4/include/datacite-titleType-v4.xsd' },
  { vocabulary: 'DataCite numberType', version: '4.7', source: 'datacite-4/include/datacite-numberType-v4.xsd' },
  { vocabulary: 'DataCite funderIdentifierType', version: '4.7', source: 'datacite-4/include/datacite-funderIdentifierType-v4.xsd' },
  {
    vocabulary: 'COAR Resource Types',
    version: '3.2 (the concepts OpenAIRE v4 accepts; mapping to DataCite resourceTypeGeneral both ways)',
    source: 'openaire-4/oaire-resourceType-v4.xsd; http://purl.org/coar/resource_type/',
  },
  { vocabulary: 'COAR Access Rights', version: '1.0', source: 'openaire-4/oaire-accessRight-v4.xsd; http://purl.org/coar/access_right/' },
  { vocabulary: 'COAR Version Types', version: '1.0', source: 'openaire-4/oaire-versions-v4.xsd; http://purl.org/coar/version/' },
];
