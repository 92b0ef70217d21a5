/**
 * Readiness rules: what each aggregator's guideline asks of every record,
 * written as pure functions over one item: its record model (typed fields
 * first, their Dublin Core counterparts second, lib/model/facts.ts), the
 * Dublin Core it disseminates as oai_dc (what the oai_dc guidelines judge,
 * made from the model by the oai_dc writer), its header and the formats it
 * is disseminated in. No rule parses XML: a record judged by OpenAIRE v4 is
 * judged by what its model says, whatever format it came in.
 * `oai-steward check --profile NAME` runs a profile's rules over the store
 * and reports, rule by rule, how many records satisfy it and examples of
 * those that do not.
 *
 * Each rule names the guideline section it comes from. Requirement levels
 * are the guidelines' own: M (mandatory) and MA (mandatory if applicable:
 * checked only on the items it applies to, and a failure fails the check)
 * are `mandatory`; R (recommended) is `recommended`. Dates are W3CDTF in
 * every rule, the profile of ISO 8601 the guidelines name; a date that is
 * present but not W3CDTF is reported as malformed, not as missing.
 *
 * Pure: no I/O, no clock.
 */
import type { DcElement, DublinCore } from '../model/dublin-core';
import { EU_REPO_TYPES } from '../formats/oai-dc-profile';
import type { RecordFields } from '../model/record';
import type { DataCiteResourceType } from '../model/vocabularies';
import { withAncestors } from '../model/header';
import {
  accessRightOf,
  coarTypeOfRecord,
  creators,
  embargoEnd,
  fileLinks,
  hasResourceIdentifier,
  identifierUri,
  isFunded,
  languages,
  licences,
  openAireType,
  publicationDate,
  doi,
  publisher,
  recordIdentifiers,
  titles,
  type DateFact,
} from '../model/facts';
import { computedSets, PRESETS, type SetDefinitions } from '../sets/rules';
import { parseSetDefinitions } from '../sets/parse';
import { isHttpUrl } from '../model/identifiers';
import { isValidPoi } from '../ids/poi';
import { edmType, europeanaRights, hasSubjectOrType, isShownAt, isShownBy } from '../formats/edm';
import { rioxxRules } from './core-rioxx';

/** What the rules see of one item. */
export interface CheckItem {
  readonly internalId: string;
  readonly identifier: string;
  /** Seconds since the epoch. */
  readonly datestamp: number;
  readonly deleted: boolean;
  /** The sets the item is in directly. */
  readonly sets: readonly string[];
  /** The record model: as stored, or lifted from the item's stored XML when the store holds none (lib/pipeline/lift.ts `liftStored`). */
  readonly fields: RecordFields;
  /** The Dublin Core the item disseminates as oai_dc, made from its model; absent when it has no oai_dc. */
  readonly oaiDc?: DublinCore;
  /** The metadataPrefixes the item is disseminated in (with metadata: a tombstone has none). */
  readonly formats: readonly string[];
}

/** Why an item fails a rule: the field at fault and the reason. */
export interface Finding {
  readonly field: string;
  readonly reason: string;
}

export type Level = 'mandatory' | 'recommended';

/** One rule of a profile. */
export interface ProfileRule {
  /** Short, stable name (for --json and tests). */
  readonly id: string;
  /** The guideline section, as a reader finds it. */
  readonly source: string;
  readonly level: Level;
  /** Whether the rule concerns the item (MA rules, rules on live items); a rule that does not apply is not counted. */
  readonly applies: (item: CheckItem) => boolean;
  /** Null when the item satisfies the rule. */
  readonly check: (item: CheckItem) => Finding | null;
}

/** A profile: the guideline and its rules. */
export interface Profile {
  readonly name: ProfileName;
  readonly title: string;
  readonly rules: readonly ProfileRule[];
}

export const PROFILE_NAMES = ['openaire4', 'openaire3', 'driver', 'base', 'dini', 'europeana', 'core'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

// ------------------------------------------------------------------ what an item says

/** The item's oai_dc as a record of Dublin Core alone, for the facts the oai_dc guidelines judge. */
const servedRecord = (item: CheckItem): RecordFields => ({ dc: item.oaiDc ?? {} });

/** The non-blank values of one element of the Dublin Core the item disseminates as oai_dc. */
function served(item: CheckItem, element: DcElement): string[] {
  return (item.oaiDc?.[element] ?? []).map((v) => v.trim()).filter((v) => v !== '');
}

const live = (i: CheckItem): boolean => !i.deleted;
const missing = (field: string, what: string): Finding => ({ field, reason: `missing: ${what}` });

/** The sets an item is in, ancestors included. */
function inSets(item: CheckItem): Set<string> {
  return new Set(item.sets.flatMap(withAncestors));
}

const PRESET_SETS: SetDefinitions = parseSetDefinitions(Object.keys(PRESETS).map((preset) => ({ preset })));
const presetMember = new WeakMap<CheckItem, string[]>();
/** The ready-made sets the item's fields qualify it for (lib/sets/rules.ts). */
function qualifiesFor(item: CheckItem): string[] {
  let s = presetMember.get(item);
  if (!s) {
    s = computedSets(PRESET_SETS, item.fields, []);
    presetMember.set(item, s);
  }
  return s;
}

/** A rule about one set: items that qualify for it are in it, and items in it qualify. */
function setRules(spec: string, source: string, level: Level, what: string): ProfileRule[] {
  return [
    {
      id: `set-${spec}-complete`,
      source,
      level,
      applies: (i) => live(i) && qualifiesFor(i).includes(spec),
      check: (i) => (inSets(i).has(spec) ? null : { field: 'sets', reason: `${what}, but not in set ${spec}` }),
    },
    {
      id: `set-${spec}-content`,
      source,
      level,
      applies: (i) => live(i) && inSets(i).has(spec),
      check: (i) => (qualifiesFor(i).includes(spec) ? null : { field: 'sets', reason: `in set ${spec}, but its fields do not say ${what}` }),
    },
  ];
}

/** A live item's record must carry a value: the typed field or its Dublin Core counterpart. */
function present(
  id: string,
  source: string,
  level: Level,
  field: string,
  has: (i: CheckItem) => boolean,
  what: string,
  applies: (i: CheckItem) => boolean = live,
): ProfileRule {
  return { id, source, level, applies, check: (i) => (has(i) ? null : missing(field, what)) };
}

/**
 * A live item's record must carry a W3CDTF date (W3C, "Date and Time
 * Formats", the profile of ISO 8601 every guideline here names): none is
 * missing, one that is not W3CDTF is malformed.
 */
function dated(
  id: string,
  source: string,
  level: Level,
  field: string,
  date: (i: CheckItem) => DateFact,
  what: string,
  applies: (i: CheckItem) => boolean = live,
): ProfileRule {
  return {
    id,
    source,
    level,
    applies,
    check: (i) => {
      const d = date(i);
      if ('date' in d) return null;
      if ('missing' in d) return missing(field, what);
      return {
        field,
        reason: `malformed: ${JSON.stringify(d.malformed)} is not a W3CDTF date (YYYY, YYYY-MM, YYYY-MM-DD, or a day with a time and a zone such as 2003-04-15T10:18:51Z)`,
      };
    },
  };
}

/** The format must be offered for every live item. */
function offers(prefix: string, source: string, level: Level): ProfileRule {
  return {
    id: `format-${prefix}`,
    source,
    level,
    applies: live,
    check: (i) => (i.formats.includes(prefix) ? null : { field: `metadata.${prefix}`, reason: `the item is not disseminated as ${prefix}` }),
  };
}

const isEmbargoed = (i: CheckItem): boolean => live(i) && accessRightOf(i.fields) === 'embargoed';
const isOpen = (i: CheckItem): boolean => live(i) && accessRightOf(i.fields) === 'open';
const isFundedItem = (i: CheckItem): boolean => live(i) && isFunded(i.fields);
/** Text: a language of its content applies (OpenAIRE v4, Language: "A specific resource … is either written in one human language or more"). */
const isText = (i: CheckItem): boolean => live(i) && openAireType(i.fields) === 'literature';

/** Kinds of work that exist only as published by someone (a journal's, a book's, proceedings'): Publisher applies to them. */
const PUBLISHED_KINDS: ReadonlySet<DataCiteResourceType> = new Set(['JournalArticle', 'DataPaper', 'Journal', 'Book', 'BookChapter', 'ConferenceProceeding']);
const isPublishedKind = (i: CheckItem): boolean => live(i) && i.fields.resourceType !== undefined && PUBLISHED_KINDS.has(i.fields.resourceType.general);

/**
 * A dc:identifier the item serves that links to the resource: an http(s) URL,
 * or a persistent identifier with a resolver (doi:, hdl:, …). DRIVER, BASE
 * and DINI ask for one. A POI (http://purl.org/poi/…, which a repository may
 * add to oai_dc) is not one: it names the OAI record, the metadata, not the
 * full text or a landing page of the resource.
 */
function hasLink(i: CheckItem): boolean {
  return recordIdentifiers(servedRecord(i)).some((id) => {
    const uri = identifierUri(id);
    return isHttpUrl(uri) && !isValidPoi(uri);
  });
}

const EU_REPO = 'info:eu-repo/semantics/';
const servedStartsWith =
  (element: DcElement, prefix: string) =>
  (i: CheckItem): boolean =>
    served(i, element).some((v) => v.startsWith(prefix));
const servedDate = (i: CheckItem): DateFact => publicationDate(servedRecord(i));

// ------------------------------------------------------------------ the profiles

const OA4 = 'OpenAIRE Guidelines for Literature Repository Managers v4';
const OA3 = 'OpenAIRE Guidelines for Literature Repository Managers 3.0';
const DRIVER = 'DRIVER Guidelines 2.0';
const BASE = 'BASE, Golden Rules for Repository Managers';
const DINI = 'DINI-Zertifikat für Open-Access-Publikationsdienste 2016 (DINI Schriften 3, version 5.0)';

// OpenAIRE v4's other (MA) fields are not judged: whether Contributor, Description or Subject apply cannot be
// told from a record that lacks them, and the only sign a record is funded is its Funding Reference itself.
const openaire4: Profile = {
  name: 'openaire4',
  title: OA4,
  rules: [
    offers('oai_openaire', `${OA4}, "Use of OAI-PMH", Metadata Format (metadataPrefix oai_openaire)`, 'mandatory'),
    present('title', `${OA4}, Title (M)`, 'mandatory', 'titles', (i) => titles(i.fields).length > 0, 'a title'),
    present('creator', `${OA4}, Creator (M)`, 'mandatory', 'creators', (i) => creators(i.fields).length > 0, 'a creator'),
    present(
      'resource-type',
      `${OA4}, Resource Type (M): COAR Resource Type Vocabulary`,
      'mandatory',
      'resourceType.coar',
      // What oai_openaire is written from: the COAR type, else the COAR concept of the DataCite or dc:type words.
      (i) => coarTypeOfRecord(i.fields) !== undefined,
      'a COAR resource type',
    ),
    present(
      'access-rights',
      `${OA4}, Access Rights (M): COAR Access Right Vocabulary`,
      'mandatory',
      'accessRights',
      (i) => accessRightOf(i.fields) !== undefined,
      'an access right',
    ),
    dated(
      'publication-date',
      `${OA4}, Publication Date (M): W3CDTF`,
      'mandatory',
      'dates.issued',
      (i) => publicationDate(i.fields),
      'a publication date (datacite:date dateType="Issued")',
    ),
    present(
      'resource-identifier',
      `${OA4}, Resource Identifier (M)`,
      'mandatory',
      'identifiers',
      (i) => hasResourceIdentifier(i.fields),
      'an identifier of the resource (DOI, Handle, URN, ARK or URL)',
    ),
    dated(
      'embargo-end',
      `${OA4}, Embargo Period Date (MA): W3CDTF`,
      'mandatory',
      'dates.embargoEnd',
      (i) => embargoEnd(i.fields),
      'the embargo end date of an embargoed item',
      isEmbargoed,
    ),
    present(
      'file-location',
      `${OA4}, File Location (MA)`,
      'mandatory',
      'files',
      (i) => fileLinks(i.fields).length > 0,
      'the location of the file of an open access item',
      isOpen,
    ),
    present(
      'language',
      `${OA4}, Language (MA): applies to text`,
      'mandatory',
      'language',
      (i) => languages(i.fields).length > 0,
      'the language of a text',
      isText,
    ),
    present(
      'publisher',
      `${OA4}, Publisher (MA): applies to journal articles, books, chapters and proceedings`,
      'mandatory',
      'publisher',
      (i) => publisher(i.fields) !== undefined,
      'the publisher of a published work',
      isPublishedKind,
    ),
    present('license', `${OA4}, License Condition (R)`, 'recommended', 'license', (i) => licences(i.fields).length > 0, 'a licence URI'),
  ],
};

const openaire3: Profile = {
  name: 'openaire3',
  title: OA3,
  rules: [
    ...setRules(
      'openaire',
      `${OA3}, "Use of OAI-PMH", OpenAIRE OAI Set and Set content`,
      'mandatory',
      'it is an open access publication or the outcome of a funded project',
    ),
    present('title', `${OA3}, Title (M)`, 'mandatory', 'dc.title', (i) => served(i, 'title').length > 0, 'dc:title in oai_dc'),
    present('creator', `${OA3}, Creator (M)`, 'mandatory', 'dc.creator', (i) => served(i, 'creator').length > 0, 'dc:creator in oai_dc'),
    present(
      'publication-type',
      `${OA3}, Publication Type (M): info:eu-repo-publication-type-terms`,
      'mandatory',
      'dc.type',
      (i) => served(i, 'type').some((v) => v.startsWith(EU_REPO) && (EU_REPO_TYPES as readonly string[]).includes(v.slice(EU_REPO.length))),
      'an info:eu-repo/semantics publication type in dc:type (oaiDcProfile: openaire3 derives it)',
    ),
    present(
      'access-level',
      `${OA3}, Access Level (M): info:eu-repo-Access-Terms`,
      'mandatory',
      'dc.rights',
      (i) => served(i, 'rights').some((v) => /^info:eu-repo\/semantics\/(open|embargoed|restricted|closed)Access$/.test(v)),
      'an info:eu-repo access term in dc:rights (oaiDcProfile: openaire3 derives it from accessRights)',
    ),
    dated(
      'embargo-end',
      `${OA3}, Embargo End Date (MA): info:eu-repo/date/embargoEnd/YYYY-MM-DD`,
      'mandatory',
      'dc.date',
      (i) => embargoEnd(servedRecord(i)),
      'info:eu-repo/date/embargoEnd/YYYY-MM-DD in dc:date of an embargoed item',
      isEmbargoed,
    ),
    present(
      'project-identifier',
      `${OA3}, Project Identifier (MA)`,
      'mandatory',
      'dc.relation',
      servedStartsWith('relation', 'info:eu-repo/grantAgreement/'),
      'an info:eu-repo/grantAgreement/… dc:relation of a funded item',
      isFundedItem,
    ),
    dated('publication-date', `${OA3}, Publication Date (M): ISO 8601 (W3CDTF)`, 'mandatory', 'dc.date', servedDate, 'a dc:date'),
    present('language', `${OA3}, Language (R)`, 'recommended', 'dc.language', (i) => served(i, 'language').length > 0, 'dc:language'),
    present(
      'publication-version',
      `${OA3}, Publication Version (R)`,
      'recommended',
      'dc.type',
      (i) => served(i, 'type').some((v) => /^info:eu-repo\/semantics\/(draft|submittedVersion|acceptedVersion|publishedVersion|updatedVersion)$/.test(v)),
      'an info:eu-repo version term in dc:type',
    ),
    present('license', `${OA3}, License Condition (R)`, 'recommended', 'dc.rights', (i) => licences(servedRecord(i)).length > 0, 'a licence URL in dc:rights'),
  ],
};

const driver: Profile = {
  name: 'driver',
  title: DRIVER,
  rules: [
    ...setRules('driver', `${DRIVER}, "DRIVER Set naming" and "DRIVER Set Content definitions"`, 'mandatory', 'it is open access full text'),
    present('title', `${DRIVER}, Use of OAI_DC, Title (M)`, 'mandatory', 'dc.title', (i) => served(i, 'title').length > 0, 'dc:title'),
    present('creator', `${DRIVER}, Use of OAI_DC, Creator (M)`, 'mandatory', 'dc.creator', (i) => served(i, 'creator').length > 0, 'dc:creator'),
    dated('date', `${DRIVER}, Use of OAI_DC, Date (M): ISO 8601 (W3CDTF)`, 'mandatory', 'dc.date', servedDate, 'a dc:date'),
    present(
      'type',
      `${DRIVER}, Use of OAI_DC, Type (M): info:eu-repo/semantics`,
      'mandatory',
      'dc.type',
      servedStartsWith('type', EU_REPO),
      'an info:eu-repo/semantics dc:type',
    ),
    present(
      'identifier',
      `${DRIVER}, Use of OAI_DC, Identifier (M): a URI linking to a persistent identifier, the full text or the start page`,
      'mandatory',
      'dc.identifier',
      hasLink,
      'a dc:identifier that links to the resource',
    ),
    present(
      'format',
      `${DRIVER}, Use of OAI_DC, Format (R): IANA media types`,
      'recommended',
      'dc.format',
      (i) => served(i, 'format').some((v) => /^[a-z]+\/[^\s]+$/i.test(v)),
      'a media type in dc:format',
    ),
    present('language', `${DRIVER}, Use of OAI_DC, Language (R)`, 'recommended', 'dc.language', (i) => served(i, 'language').length > 0, 'dc:language'),
  ],
};

const base: Profile = {
  name: 'base',
  title: BASE,
  rules: [
    offers('oai_dc', `${BASE}: metadata in Dublin Core (oai_dc)`, 'mandatory'),
    present(
      'identifier-link',
      `${BASE}: dc:identifier links to the full text or the landing page`,
      'mandatory',
      'dc.identifier',
      hasLink,
      'a dc:identifier link to the full text or landing page',
    ),
    present('title', `${BASE}: descriptive metadata (dc:title)`, 'mandatory', 'dc.title', (i) => served(i, 'title').length > 0, 'dc:title'),
    present('type', `${BASE}: document type (dc:type)`, 'recommended', 'dc.type', (i) => served(i, 'type').length > 0, 'dc:type'),
    present('rights', `${BASE}: access and licence (dc:rights)`, 'recommended', 'dc.rights', (i) => served(i, 'rights').length > 0, 'dc:rights'),
    present('language', `${BASE}: language (dc:language)`, 'recommended', 'dc.language', (i) => served(i, 'language').length > 0, 'dc:language'),
    dated('date', `${BASE}: date (dc:date, W3CDTF)`, 'recommended', 'dc.date', servedDate, 'dc:date'),
  ],
};

const dini: Profile = {
  name: 'dini',
  title: DINI,
  rules: [
    ...setRules('open_access', `${DINI}, Anhang A.2.1 "Set für Open-Access-Dokumente"`, 'mandatory', 'it is open access'),
    {
      id: 'set-ddc',
      source: `${DINI}, Anhang A.2.2 "Sets für DDC-Gruppen"`,
      level: 'mandatory',
      applies: (i) => live(i) && qualifiesFor(i).some((s) => s.startsWith('ddc:')),
      check: (i) => {
        const want = qualifiesFor(i).filter((s) => s.startsWith('ddc:'));
        const lacking = want.filter((s) => !inSets(i).has(s));
        return lacking.length === 0
          ? null
          : { field: 'sets', reason: `has dc:subject ${lacking.join(', ')}, but is not in ${lacking.length === 1 ? 'that set' : 'those sets'}` };
      },
    },
    present('title', `${DINI}, Anhang A.3 Metadaten-Anforderungen (dc:title)`, 'mandatory', 'dc.title', (i) => served(i, 'title').length > 0, 'dc:title'),
    present(
      'identifier',
      `${DINI}, Anhang A.3 Metadaten-Anforderungen (dc:identifier)`,
      'mandatory',
      'dc.identifier',
      hasLink,
      'a dc:identifier that resolves',
    ),
    present(
      'creator',
      `${DINI}, Anhang A.3 Metadaten-Anforderungen (dc:creator)`,
      'recommended',
      'dc.creator',
      (i) => served(i, 'creator').length > 0,
      'dc:creator',
    ),
    present('type', `${DINI}, Anhang A.3 Metadaten-Anforderungen (dc:type)`, 'recommended', 'dc.type', (i) => served(i, 'type').length > 0, 'dc:type'),
    dated('date', `${DINI}, Anhang A.3 Metadaten-Anforderungen (dc:date, W3CDTF)`, 'recommended', 'dc.date', servedDate, 'dc:date'),
    present(
      'language',
      `${DINI}, Anhang A.3 Metadaten-Anforderungen (dc:language)`,
      'recommended',
      'dc.language',
      (i) => served(i, 'language').length > 0,
      'dc:language',
    ),
  ],
};

const EDM_MG = 'Europeana Data Model Mapping Guidelines v2.4';
const EPF = 'Europeana Publishing Framework';
const EUROPEANA_TR = 'Europeana, technical requirements for data providers';

/** A text: Europeana asks its language (EDM MG: dc:language is mandatory for edm:type TEXT). */
const isEdmText = (i: CheckItem): boolean => live(i) && edmType(i.fields) === 'TEXT';

// Europeana's mandatory properties (EDM MG, "mandatory properties" of edm:ProvidedCHO and ore:Aggregation), judged
// on the model as the edm writer reads it (lib/formats/edm.ts): a record that meets them all is written as edm once
// the repository names its data provider and provider (the format rule says so for every item).
const europeana: Profile = {
  name: 'europeana',
  title: `${EDM_MG}, with the ${EPF}`,
  rules: [
    offers(
      'edm',
      `${EUROPEANA_TR}: OAI-PMH, with the metadata in EDM (metadataPrefix edm; the options dataProvider and provider name the institutions)`,
      'mandatory',
    ),
    present(
      'rights',
      `${EDM_MG}, ore:Aggregation edm:rights (M): one of the rights statements Europeana accepts`,
      'mandatory',
      'license',
      (i) => europeanaRights(i.fields) !== undefined,
      'a rights statement Europeana accepts (a Creative Commons licence or public domain tool, or a rightsstatements.org statement)',
    ),
    present(
      'edm-type',
      `${EDM_MG}, edm:ProvidedCHO edm:type (M): TEXT, IMAGE, SOUND, VIDEO or 3D`,
      'mandatory',
      'resourceType',
      (i) => edmType(i.fields) !== undefined,
      'a resource type (or dc:type) EDM names: text, image, sound, video or 3D',
    ),
    present(
      'title-or-description',
      `${EDM_MG}, edm:ProvidedCHO dc:title or dc:description (M)`,
      'mandatory',
      'dc.title',
      (i) => titles(i.fields).length > 0 || (i.fields.dc.description ?? []).some((d) => d.trim() !== ''),
      'a title or a description',
    ),
    present(
      'subject-or-type',
      `${EDM_MG}, edm:ProvidedCHO dc:subject, dc:type, dcterms:spatial or dcterms:temporal (M)`,
      'mandatory',
      'dc.subject',
      (i) => hasSubjectOrType(i.fields),
      'a subject or a type',
    ),
    present(
      'link',
      `${EDM_MG}, ore:Aggregation edm:isShownAt or edm:isShownBy (M)`,
      'mandatory',
      'identifiers',
      (i) => isShownAt(i.fields) !== undefined || isShownBy(i.fields) !== undefined,
      'a link to the object: a landing page (a URL, DOI, Handle or ARK) or a file',
    ),
    present(
      'language',
      `${EDM_MG}, edm:ProvidedCHO dc:language (MA): mandatory for edm:type TEXT`,
      'mandatory',
      'language',
      (i) => languages(i.fields).length > 0,
      'the language of a text',
      isEdmText,
    ),
    present(
      'is-shown-by',
      `${EPF}, content tier 1 and above: edm:isShownBy, a direct link to the media file (R)`,
      'recommended',
      'files',
      (i) => isShownBy(i.fields) !== undefined,
      'a file Europeana can show (edm:isShownBy)',
    ),
    present('creator', `${EDM_MG}, edm:ProvidedCHO dc:creator (R)`, 'recommended', 'creators', (i) => creators(i.fields).length > 0, 'a creator'),
  ],
};

const CORE = "CORE, Data Provider's Guide (core.ac.uk/documentation/data-providers-guide)";

/** The record's files CORE could harvest: its http(s) files. */
const hasFile = (i: CheckItem): boolean => live(i) && fileLinks(i.fields).length > 0;

/**
 * Whether the Dublin Core the item serves links its full text as CORE asks: a
 * dc:identifier that is one of its files' absolute URLs; a relative one
 * (`/bitstream/…`) is named as such.
 */
function fullTextLink(i: CheckItem): Finding | null {
  const files = new Set(fileLinks(i.fields).map((f) => f.href));
  const ids = served(i, 'identifier');
  if (ids.some((v) => files.has(v) && isHttpUrl(v))) return null;
  const relative = ids.find((v) => /^\.{0,2}\/[^/]/.test(v));
  if (relative !== undefined) return { field: 'dc.identifier', reason: `relative: ${JSON.stringify(relative)} is not an absolute URL of the full text` };
  return missing('dc.identifier', `a dc:identifier with the absolute URL of the full text (the record's file ${[...files][0] ?? ''})`);
}

// CORE harvests oai_dc and reads the full text from the link it finds there, and RIOXX where a repository offers it (./core-rioxx.ts). Its other requirement, that robots.txt
// lets its harvester fetch the files, is the web server's, not a record's: this check cannot see it (docs/readiness-check.md).
const core: Profile = {
  name: 'core',
  title: CORE,
  rules: [
    offers('oai_dc', `${CORE}: metadata in Dublin Core (oai_dc) over OAI-PMH`, 'mandatory'),
    {
      id: 'fulltext-link',
      source: `${CORE}: a direct, absolute link to the full text in dc:identifier`,
      level: 'mandatory',
      applies: hasFile,
      check: fullTextLink,
    },
    present('title', `${CORE}: descriptive metadata (dc:title)`, 'mandatory', 'dc.title', (i) => served(i, 'title').length > 0, 'dc:title'),
    present('creator', `${CORE}: descriptive metadata (dc:creator)`, 'recommended', 'dc.creator', (i) => served(i, 'creator').length > 0, 'dc:creator'),
    dated('date', `${CORE}: descriptive metadata (dc:date, W3CDTF)`, 'recommended', 'dc.date', servedDate, 'dc:date'),
    present(
      'doi',
      `${CORE}: the DOI in dc:identifier, to match the record with its publisher's`,
      'recommended',
      'dc.identifier',
      (i) => recordIdentifiers(servedRecord(i)).some((x) => x.type === 'DOI'),
      'the DOI in dc:identifier',
      (i) => live(i) && doi(i.fields) !== undefined,
    ),
    present(
      'license',
      `${CORE}: the licence in dc:rights`,
      'recommended',
      'dc.rights',
      (i) => licences(servedRecord(i)).length > 0,
      'a licence URL in dc:rights',
    ),
    ...rioxxRules(CORE),
  ],
};

/** Every profile by name. */
export const PROFILES: Readonly<Record<ProfileName, Profile>> = { openaire4, openaire3, driver, base, dini, europeana, core };

// ------------------------------------------------------------------ tallying

/** One rule's result over the records checked. */
export interface RuleResult {
  readonly id: string;
  readonly source: string;
  readonly level: Level;
  /** Items the rule applies to. */
  checked: number;
  /** Of those, items that satisfy it. */
  satisfied: number;
  /** Up to `examples` items that do not: identifier, field, reason. */
  readonly failures: { identifier: string; field: string; reason: string }[];
}

/** A profile's report: every rule, and whether a mandatory one failed. */
export interface CheckReport {
  readonly profile: ProfileName;
  readonly title: string;
  items: number;
  readonly rules: RuleResult[];
  /** True when no mandatory rule failed. */
  passed: boolean;
}

/**
 * A tally that takes items a batch at a time (memory holds the counts and
 * at most `examples` failures per rule, however large the store).
 *
 * @example const t = new CheckTally(PROFILES.dini); t.add(items); t.report().passed
 */
export class CheckTally {
  private readonly result: CheckReport;

  constructor(
    private readonly profile: Profile,
    private readonly examples = 5,
  ) {
    this.result = {
      profile: profile.name,
      title: profile.title,
      items: 0,
      rules: profile.rules.map((r) => ({ id: r.id, source: r.source, level: r.level, checked: 0, satisfied: 0, failures: [] })),
      passed: true,
    };
  }

  /** Runs every rule over a batch of items. */
  add(items: readonly CheckItem[]): void {
    for (const item of items) {
      this.result.items++;
      this.profile.rules.forEach((rule, k) => {
        if (!rule.applies(item)) return;
        const r = this.result.rules[k] as RuleResult;
        r.checked++;
        const finding = rule.check(item);
        if (finding === null) r.satisfied++;
        else if (r.failures.length < this.examples) r.failures.push({ identifier: item.identifier, ...finding });
      });
    }
  }

  /** The report so far. */
  report(): CheckReport {
    this.result.passed = this.result.rules.every((r) => r.level !== 'mandatory' || r.satisfied === r.checked);
    return this.result;
  }
}

/**
 * The report as a table a person reads: one line per rule (its status,
 * satisfied of checked, level, id, guideline section), then up to five
 * records that fail it, each with the field and the reason.
 *
 * @example formatReport(tally.report()) // 'OpenAIRE … v4: 285 records\nFAIL  120/275  mandatory    format-oai_openaire  …'
 */
export function formatReport(r: CheckReport): string {
  const lines = [`${r.title}: ${r.items} record${r.items === 1 ? '' : 's'} checked`, ''];
  const width = Math.max(...r.rules.map((x) => x.id.length), 4);
  const counts = r.rules.map((x) => `${x.satisfied}/${x.checked}`);
  const cw = Math.max(...counts.map((c) => c.length), 5);
  lines.push(`${'status'.padEnd(6)}  ${'ok'.padStart(cw)}  ${'level'.padEnd(11)}  ${'rule'.padEnd(width)}  guideline`);
  r.rules.forEach((x, k) => {
    const status = x.checked === 0 ? 'n/a' : x.satisfied === x.checked ? 'ok' : x.level === 'mandatory' ? 'FAIL' : 'warn';
    lines.push(`${status.padEnd(6)}  ${(counts[k] as string).padStart(cw)}  ${x.level.padEnd(11)}  ${x.id.padEnd(width)}  ${x.source}`);
    for (const f of x.failures) lines.push(`${' '.repeat(8)}${f.identifier}: ${f.field}: ${f.reason}`);
  });
  const failed = r.rules.filter((x) => x.level === 'mandatory' && x.satisfied < x.checked).length;
  lines.push('', r.passed ? 'passed: every mandatory rule is met' : `failed: ${failed} mandatory rule${failed === 1 ? '' : 's'} not met`);
  return `${lines.join('\n')}\n`;
}
