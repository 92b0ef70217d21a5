/**
 * The rules' building blocks: what an item serves, whether it is live, open,
 * funded or embargoed, the findings a missing field gives, the sets a profile
 * asks for, and the guidelines each rule cites (./profiles.ts, ./profile-definitions.ts).
 */
import type { DcElement } from '../model/dublin-core';
import type { RecordFields } from '../model/record';
import type { DataCiteResourceType } from '../model/vocabularies';
import { withAncestors } from '../model/header';
import { accessRightOf, fileLinks, identifierUri, isFunded, publicationDate, recordIdentifiers, type DateFact } from '../model/facts';
import { openAireType } from '../model/type-facts';
import { computedSets, PRESETS, type SetDefinitions } from '../sets/rules';
import { parseSetDefinitions } from '../sets/parse';
import { isHttpUrl } from '../model/identifiers';
import { isValidPoi } from '../ids/poi';
import { edmType } from '../formats/edm';
import type { CheckItem, Finding, Level, ProfileRule } from './profiles';

/** The item's oai_dc as a record of Dublin Core alone, for the facts the oai_dc guidelines judge. */
export const servedRecord = (item: CheckItem): RecordFields => ({ dc: item.oaiDc ?? {} });

/** The non-blank values of one element of the Dublin Core the item disseminates as oai_dc. */
export function served(item: CheckItem, element: DcElement): string[] {
  return (item.oaiDc?.[element] ?? []).map((v) => v.trim()).filter((v) => v !== '');
}

export const live = (i: CheckItem): boolean => !i.deleted;

const missing = (field: string, what: string): Finding => ({ field, reason: `missing: ${what}` });

/** The sets an item is in, ancestors included. */
export function inSets(item: CheckItem): Set<string> {
  return new Set(item.sets.flatMap(withAncestors));
}

const PRESET_SETS: SetDefinitions = parseSetDefinitions(Object.keys(PRESETS).map((preset) => ({ preset })));

const presetMember = new WeakMap<CheckItem, string[]>();

/** The ready-made sets the item's fields qualify it for (lib/sets/rules.ts). */
export function qualifiesFor(item: CheckItem): string[] {
  let s = presetMember.get(item);
  if (!s) {
    s = computedSets(PRESET_SETS, item.fields, []);
    presetMember.set(item, s);
  }
  return s;
}

/** A rule about one set: items that qualify for it are in it, and items in it qualify. */
export function setRules(spec: string, source: string, level: Level, what: string): ProfileRule[] {
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
export function present(
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
export function dated(
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
export function offers(prefix: string, source: string, level: Level): ProfileRule {
  return {
    id: `format-${prefix}`,
    source,
    level,
    applies: live,
    check: (i) => (i.formats.includes(prefix) ? null : { field: `metadata.${prefix}`, reason: `the item is not disseminated as ${prefix}` }),
  };
}

export const isEmbargoed = (i: CheckItem): boolean => live(i) && accessRightOf(i.fields) === 'embargoed';

export const isOpen = (i: CheckItem): boolean => live(i) && accessRightOf(i.fields) === 'open';

export const isFundedItem = (i: CheckItem): boolean => live(i) && isFunded(i.fields);

/** Text: a language of its content applies (OpenAIRE v4, Language: "A specific resource … is either written in one human language or more"). */
export const isText = (i: CheckItem): boolean => live(i) && openAireType(i.fields) === 'literature';

/** Kinds of work that exist only as published by someone (a journal's, a book's, proceedings'): Publisher applies to them. */
const PUBLISHED_KINDS: ReadonlySet<DataCiteResourceType> = new Set(['JournalArticle', 'DataPaper', 'Journal', 'Book', 'BookChapter', 'ConferenceProceeding']);

export const isPublishedKind = (i: CheckItem): boolean => live(i) && i.fields.resourceType !== undefined && PUBLISHED_KINDS.has(i.fields.resourceType.general);

/**
 * A dc:identifier the item serves that links to the resource: an http(s) URL,
 * or a persistent identifier with a resolver (doi:, hdl:, …). DRIVER, BASE
 * and DINI ask for one. A POI (http://purl.org/poi/…, which a repository may
 * add to oai_dc) is not one: it names the OAI record, the metadata, not the
 * full text or a landing page of the resource.
 */
export function hasLink(i: CheckItem): boolean {
  return recordIdentifiers(servedRecord(i)).some((id) => {
    const uri = identifierUri(id);
    return isHttpUrl(uri) && !isValidPoi(uri);
  });
}

export const EU_REPO = 'info:eu-repo/semantics/';

export const servedStartsWith =
  (element: DcElement, prefix: string) =>
  (i: CheckItem): boolean =>
    served(i, element).some((v) => v.startsWith(prefix));

export const servedDate = (i: CheckItem): DateFact => publicationDate(servedRecord(i));

export const OA4 = 'OpenAIRE Guidelines for Literature Repository Managers v4';

export const OA3 = 'OpenAIRE Guidelines for Literature Repository Managers 3.0';

export const DRIVER = 'DRIVER Guidelines 2.0';

export const BASE = 'BASE, Golden Rules for Repository Managers';

export const DINI = 'DINI-Zertifikat für Open-Access-Publikationsdienste 2016 (DINI Schriften 3, version 5.0)';

export const EDM_MG = 'Europeana Data Model Mapping Guidelines v2.4';

export const EPF = 'Europeana Publishing Framework';

export const EUROPEANA_TR = 'Europeana, technical requirements for data providers';

/** A text: Europeana asks its language (EDM MG: dc:language is mandatory for edm:type TEXT). */
export const isEdmText = (i: CheckItem): boolean => live(i) && edmType(i.fields) === 'TEXT';

export const CORE = "CORE, Data Provider's Guide (core.ac.uk/documentation/data-providers-guide)";

/** The record's files CORE could harvest: its http(s) files. */
export const hasFile = (i: CheckItem): boolean => live(i) && fileLinks(i.fields).length > 0;

/**
 * Whether the Dublin Core the item serves links its full text as CORE asks: a
 * dc:identifier that is one of its files' absolute URLs; a relative one
 * (`/bitstream/…`) is named as such.
 */
export function fullTextLink(i: CheckItem): Finding | null {
  const files = new Set(fileLinks(i.fields).map((f) => f.href));
  const ids = served(i, 'identifier');
  if (ids.some((v) => files.has(v) && isHttpUrl(v))) return null;
  const relative = ids.find((v) => /^\.{0,2}\/[^/]/.test(v));
  if (relative !== undefined) return { field: 'dc.identifier', reason: `relative: ${JSON.stringify(relative)} is not an absolute URL of the full text` };
  return missing('dc.identifier', `a dc:identifier with the absolute URL of the full text (the record's file ${[...files][0] ?? ''})`);
}
