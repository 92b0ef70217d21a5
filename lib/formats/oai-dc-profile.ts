/**
 * oai_dc by profile. With the DRIVER / OpenAIRE v3 profile (`oaiDcProfile:
 * openaire3`), the Dublin Core of a record also carries the info:eu-repo
 * terms of the OpenAIRE Guidelines for Literature Repository Managers 3.0
 * (which keep the DRIVER Guidelines 2.0 vocabularies), derived from the
 * typed record fields:
 *
 * | guideline field (OpenAIRE 3.0) | DC element | term | from |
 * | --- | --- | --- | --- |
 * | Publication Type (M) | `dc:type`, first occurrence | `info:eu-repo/semantics/<type>` | `resourceType` ({@link EU_REPO_TYPE_OF_COAR}), else an info:eu-repo type the record's dc:type already gives |
 * | Publication Version (R) | `dc:type` | `info:eu-repo/semantics/<version>` | a version the record's dc:type gives: an info:eu-repo version term, a COAR version URI or its label (AO, SMUR, AM, P, VoR, CVoR, EVoR) |
 * | Access Level (M) | `dc:rights` | `info:eu-repo/semantics/{open,embargoed,restricted,closed}Access` | `accessRights` (metadataOnly is closedAccess), else a COAR access right URI in dc:rights |
 * | License Condition (R) | `dc:rights` | the licence URI | `license` |
 * | Embargo End Date (MA) | `dc:date` | `info:eu-repo/date/embargoEnd/YYYY-MM-DD` | `dates.embargoEnd`, when access is embargoed |
 *
 * The record's own values stay after the derived ones (the guidelines'
 * second `dc:type` is the free-text type), without repeating a value.
 *
 * Pure: no I/O, no clock.
 */
import type { RecordFields } from '../model/record';
import { COAR_RESOURCE_TYPE_PREFIX, type AccessRight, type DataCiteResourceType } from '../model/vocabularies';
import { accessRightOf } from '../model/facts';
import type { DublinCore } from '../model/dublin-core';
import { own } from '../model/own';

/** The oai_dc profiles a repository can choose (`oaiDcProfile`). */
export type OaiDcProfile = 'plain' | 'openaire3';

const EU_REPO = 'info:eu-repo/semantics/';

/** OpenAIRE 3.0 "Publication Type": the info:eu-repo-publication-type-terms (DRIVER 2.0). */
export const EU_REPO_TYPES = [
  'article',
  'bachelorThesis',
  'masterThesis',
  'doctoralThesis',
  'book',
  'bookPart',
  'review',
  'conferenceObject',
  'lecture',
  'workingPaper',
  'preprint',
  'report',
  'annotation',
  'contributionToPeriodical',
  'patent',
  'other',
] as const;
export type EuRepoType = (typeof EU_REPO_TYPES)[number];

/**
 * COAR resource type (suffix of http://purl.org/coar/resource_type/) →
 * info:eu-repo publication type, for every type of the OpenAIRE v4 list
 * (lib/model/vocabularies.ts). The COAR concept is matched to the
 * narrowest info:eu-repo term whose scope note contains it:
 *
 * - articles of every kind published in a journal (journal, research,
 *   review and data paper articles) are `article`; other contributions to a
 *   journal (editorials, letters to the editor, the generic "contribution to
 *   journal") are `contributionToPeriodical`;
 * - theses by level; a thesis of unstated level is `other` (info:eu-repo has
 *   no generic thesis and guessing the level would mislead);
 * - every conference concept (proceedings, paper, poster, object) is
 *   `conferenceObject`; every report concept is `report`;
 * - what is not a publication (datasets, software, images, sound, maps,
 *   websites, workflows) and publications info:eu-repo has no term for
 *   (bibliography, letter, research proposal, technical documentation,
 *   journal, periodical, plain text) are `other`.
 */
export const EU_REPO_TYPE_OF_COAR: Readonly<Record<string, EuRepoType>> = {
  c_6501: 'article',
  c_2df8fbb1: 'article',
  c_dcae04bc: 'article',
  c_beb9: 'article',
  c_3e5a: 'contributionToPeriodical',
  c_b239: 'contributionToPeriodical',
  c_545b: 'contributionToPeriodical',
  c_7a1f: 'bachelorThesis',
  c_bdcc: 'masterThesis',
  c_db06: 'doctoralThesis',
  c_2f33: 'book',
  c_3248: 'bookPart',
  c_efa0: 'review',
  c_ba08: 'review',
  c_f744: 'conferenceObject',
  c_c94f: 'conferenceObject',
  c_5794: 'conferenceObject',
  c_6670: 'conferenceObject',
  c_18cp: 'conferenceObject',
  c_18co: 'conferenceObject',
  c_8544: 'lecture',
  c_8042: 'workingPaper',
  c_816b: 'preprint',
  c_93fc: 'report',
  c_ba1f: 'report',
  c_18ww: 'report',
  c_18wz: 'report',
  c_18wq: 'report',
  c_186u: 'report',
  c_18op: 'report',
  c_18hj: 'report',
  c_18ws: 'report',
  c_18gh: 'report',
  c_1162: 'annotation',
  c_15cd: 'patent',
};

/** For a record typed only by DataCite resourceTypeGeneral: the info:eu-repo type, where one fits. */
const EU_REPO_TYPE_OF_GENERAL: Partial<Record<DataCiteResourceType, EuRepoType>> = {
  JournalArticle: 'article',
  Book: 'book',
  BookChapter: 'bookPart',
  ConferencePaper: 'conferenceObject',
  ConferenceProceeding: 'conferenceObject',
  Poster: 'conferenceObject',
  Preprint: 'preprint',
  Report: 'report',
  PeerReview: 'review',
  Presentation: 'lecture',
  DataPaper: 'article',
};

/**
 * The info:eu-repo publication type of a record: from its COAR type, else
 * its DataCite general type, else an info:eu-repo type its dc:type gives,
 * else `other` (the term is mandatory, so a record always has one).
 *
 * @example euRepoType({ dc: {}, resourceType: { coar: 'http://purl.org/coar/resource_type/c_db06', general: 'Dissertation', label: 'doctoral thesis' } }) // 'doctoralThesis'
 */
export function euRepoType(r: RecordFields): EuRepoType {
  const coar = r.resourceType?.coar;
  if (coar !== undefined && coar.startsWith(COAR_RESOURCE_TYPE_PREFIX)) {
    const t = own(EU_REPO_TYPE_OF_COAR, coar.slice(COAR_RESOURCE_TYPE_PREFIX.length));
    if (t) return t;
    return 'other';
  }
  if (r.resourceType) return own(EU_REPO_TYPE_OF_GENERAL, r.resourceType.general) ?? 'other';
  for (const v of r.dc.type ?? []) {
    const t = v.trim();
    if (t.startsWith(EU_REPO) && (EU_REPO_TYPES as readonly string[]).includes(t.slice(EU_REPO.length))) return t.slice(EU_REPO.length) as EuRepoType;
  }
  return 'other';
}

/** OpenAIRE 3.0 "Publication Version": the DRIVER version terms. */
const EU_REPO_VERSIONS = ['draft', 'submittedVersion', 'acceptedVersion', 'publishedVersion', 'updatedVersion'] as const;

/**
 * COAR Version Types (the vocabulary of OpenAIRE v4 "Version", http://purl.org/coar/version/)
 * → the DRIVER version term. Proof and "not applicable" have none.
 */
const VERSION_OF_COAR: Readonly<Record<string, (typeof EU_REPO_VERSIONS)[number]>> = {
  c_b1a7d7d4d402bcce: 'draft',
  AO: 'draft',
  c_71e4c1898caa6e32: 'submittedVersion',
  SMUR: 'submittedVersion',
  c_ab4af688f83e57aa: 'acceptedVersion',
  AM: 'acceptedVersion',
  c_970fb48d4fbd8a85: 'publishedVersion',
  VoR: 'publishedVersion',
  c_e19f295774971610: 'updatedVersion',
  CVoR: 'updatedVersion',
  c_dc82b40f9837b551: 'updatedVersion',
  EVoR: 'updatedVersion',
};

/**
 * The version a record says it is, as a DRIVER version term, or undefined.
 *
 * @example euRepoVersion({ dc: { type: ['VoR'] } }) // 'publishedVersion'
 */
export function euRepoVersion(r: RecordFields): string | undefined {
  for (const v of r.dc.type ?? []) {
    const t = v.trim();
    if (t.startsWith(EU_REPO) && (EU_REPO_VERSIONS as readonly string[]).includes(t.slice(EU_REPO.length))) return t.slice(EU_REPO.length);
    const key = t.replace(/^https?:\/\/purl\.org\/coar\/version\//, '');
    const found = Object.hasOwn(VERSION_OF_COAR, key) ? VERSION_OF_COAR[key] : undefined;
    if (found) return found;
  }
  return undefined;
}

/** OpenAIRE 3.0 "Access Level": the info:eu-repo-Access-Terms. */
export const EU_REPO_ACCESS_OF: Readonly<Record<AccessRight, string>> = {
  open: `${EU_REPO}openAccess`,
  embargoed: `${EU_REPO}embargoedAccess`,
  restricted: `${EU_REPO}restrictedAccess`,
  metadataOnly: `${EU_REPO}closedAccess`,
};

const merge = (first: readonly string[], rest: readonly string[] | undefined): string[] => [...new Set([...first, ...(rest ?? [])])];

/**
 * The Dublin Core a record disseminates as oai_dc under a profile: as given
 * (`plain`), or with the info:eu-repo terms of OpenAIRE 3.0 (`openaire3`).
 *
 * @example
 * profileDublinCore({ dc: { title: ['T'] }, accessRights: 'embargoed', dates: { embargoEnd: '2030-01-31' } }, 'openaire3')
 * // → { title: ['T'], type: ['info:eu-repo/semantics/other'], rights: ['info:eu-repo/semantics/embargoedAccess'],
 * //     date: ['info:eu-repo/date/embargoEnd/2030-01-31'] }
 */
export function profileDublinCore(r: RecordFields, profile: OaiDcProfile): DublinCore {
  if (profile === 'plain') return r.dc;
  const dc: Record<string, readonly string[]> = { ...r.dc };
  // Publication Type first (OpenAIRE 3.0: "The first occurrence of the DC Element type is mandatory"), then the version.
  const version = euRepoVersion(r);
  dc.type = merge([`${EU_REPO}${euRepoType(r)}`, ...(version !== undefined ? [`${EU_REPO}${version}`] : [])], r.dc.type);
  const access = accessRightOf(r);
  const rights = [...(access !== undefined ? [EU_REPO_ACCESS_OF[access]] : []), ...(r.license !== undefined ? [r.license] : [])];
  if (rights.length > 0) dc.rights = merge(rights, r.dc.rights);
  if (access === 'embargoed' && r.dates?.embargoEnd !== undefined) dc.date = merge(r.dc.date ?? [], [`info:eu-repo/date/embargoEnd/${r.dates.embargoEnd}`]);
  return dc as DublinCore;
}
