/**
 * The readiness profiles, each rule naming the guideline it comes from:
 * OpenAIRE 4 and 3, DRIVER, BASE, DINI, Europeana and CORE (./profiles.ts
 * `PROFILES` lists them; ./profile-rules.ts has their building blocks).
 */
import { EU_REPO_TYPES } from '../formats/oai-dc-profile';
import {
  accessRightOf,
  creators,
  embargoEnd,
  fileLinks,
  hasResourceIdentifier,
  languages,
  licences,
  publicationDate,
  doi,
  publisher,
  recordIdentifiers,
  titles,
} from '../model/facts';
import { coarTypeOfRecord } from '../model/type-facts';
import { edmType, europeanaRights, hasSubjectOrType, isShownAt, isShownBy } from '../formats/edm';
import { rioxxRules } from './core-rioxx';
import {
  BASE,
  CORE,
  DINI,
  DRIVER,
  EDM_MG,
  EPF,
  EUROPEANA_TR,
  EU_REPO,
  OA3,
  OA4,
  dated,
  fullTextLink,
  hasFile,
  hasLink,
  inSets,
  isEdmText,
  isEmbargoed,
  isFundedItem,
  isOpen,
  isPublishedKind,
  isText,
  live,
  offers,
  present,
  qualifiesFor,
  served,
  servedDate,
  servedRecord,
  servedStartsWith,
  setRules,
} from './profile-rules';
import type { Profile } from './profiles';

// OpenAIRE v4's other (MA) fields are not judged: whether Contributor, Description or Subject apply cannot be
// told from a record that lacks them, and the only sign a record is funded is its Funding Reference itself.
export const openaire4: Profile = {
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

export const openaire3: Profile = {
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

export const driver: Profile = {
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

export const base: Profile = {
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

export const dini: Profile = {
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

// Europeana's mandatory properties (EDM MG, "mandatory properties" of edm:ProvidedCHO and ore:Aggregation), judged
// on the model as the edm writer reads it (lib/formats/edm.ts): a record that meets them all is written as edm once
// the repository names its data provider and provider (the format rule says so for every item).
export const europeana: Profile = {
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

// CORE harvests oai_dc and reads the full text from the link it finds there, and RIOXX where a repository offers it (./core-rioxx.ts). Its other requirement, that robots.txt
// lets its harvester fetch the files, is the web server's, not a record's: this check cannot see it (docs/readiness-check.md).
export const core: Profile = {
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
