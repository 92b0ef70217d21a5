/**
 * The reader beside the `mods` writer: a MODS 3.x record (namespace
 * http://www.loc.gov/mods/v3, the same for every 3.x version) lifted into the
 * record model, following the Library of Congress "MODS to Dublin Core
 * Metadata Element Set Mapping" (https://www.loc.gov/standards/mods/mods-dcsimple.html)
 * for what becomes Dublin Core; it reads back everything ./mods.ts writes.
 *
 * | MODS                                             | model                                                        |
 * |--------------------------------------------------|--------------------------------------------------------------|
 * | titleInfo (nonSort, title, subTitle, partNumber, partName) | dc.title (titles without a type first)              |
 * | name/@type personal, corporate                   | creators (role creator or author, or no role); contributors (another role: its DataCite type, else Other); role funder a fundingReference; namePart given, family; displayForm; nameIdentifier orcid; affiliation |
 * | genre with the COAR authorityURI and valueURI    | resourceType (COAR, its label)                               |
 * | other genre                                      | dc.type (a marcgt term that only restates the COAR type is not repeated) |
 * | originInfo/publisher                             | publisher                                                    |
 * | originInfo/dateIssued                            | dates.issued (the first W3CDTF date), else dc.date           |
 * | originInfo/dateOther accepted, available         | dates.accepted, available; other dates dc.date (LoC: dateIssued, dateCreated, dateCaptured, dateOther → date) |
 * | a date with @point start and end                 | one value start/end (ISO 8601 interval; an open end `..`), never two years |
 * | typeOfResource, @collection, @manuscript         | dc.type first: its DCMI Type (LoC: typeOfResource → type, DCMI Type Vocabulary), Collection, manuscript; none when the COAR genre says the same typeOfResource |
 * | language/languageTerm code; text                 | language (BCP 47); dc.language                               |
 * | physicalDescription internetMediaType, form, extent | dc.format                                                 |
 * | abstract, tableOfContents, note                  | dc.description                                               |
 * | subject topic, name, titleInfo, occupation, genre; classification | dc.subject                                   |
 * | subject geographic, temporal, hierarchicalGeographic, cartographics | dc.coverage                                |
 * | identifier/@type doi, hdl, urn, ark, uri, isbn, issn | identifiers of that scheme; other identifiers (oai, local, untyped) dc.identifier, "displayLabel: value" when labelled (a URL stays bare); @invalid="yes" none |
 * | location/url @access "raw object"; other url     | files; dc.identifier                                         |
 * | relatedItem with an identifier                   | relatedIdentifiers: relation from @otherType (DataCite's words) or @type (host IsPartOf, constituent HasPart, otherVersion IsVersionOf, …) |
 * | the first relatedItem/@type="host" with a titleInfo or part: titleInfo; part detail volume, issue (number); extent unit pages (or page) start, end | host: title, volume, issue, startPage, endPage |
 * | relatedItem/@type="original" titleInfo; other relatedItem titleInfo | dc.source; dc.relation                    |
 * | accessCondition restriction on access, @xlink:href a COAR URI | accessRights; "… until YYYY-MM-DD" dates.embargoEnd |
 * | accessCondition use and reproduction, @xlink:href | license; its text dc.rights                                 |
 *
 * Not lifted: place, edition,
 * issuance, the record's own part (outside a host), a host's other parts
 * (a chapter, a total, a date), record information, extensions.
 *
 * Pure and total: an element other than mods (or a modsCollection's first
 * mods) gives an empty record.
 */
import type { RecordFields } from '../model/record';
import { COAR_RESOURCE_TYPE_PREFIX, COAR_TYPES, DATACITE_RELATED_IDENTIFIER_TYPES, DATACITE_RELATION_TYPES } from '../model/vocabularies';
import { DCMI_OF_TYPE_OF_RESOURCE } from '../model/type-crosswalks';
import { bibliographicType } from '../model/type-facts';
import type { XmlElement } from '../xml/tree';
import {
  accessOf,
  addDc,
  addFile,
  addIdentifier,
  addRights,
  draft,
  finish,
  schemeOf,
  setCoarType,
  setDate,
  setHost,
  setLanguage,
  setPublisher,
  type Draft,
} from './reader-rules';
import { addRelated, contributorType, toAgent, toFunding } from './reader-entries';
import { attr, elements, kid, kids, prefixedAttr, text } from './xml-in';

const MODS_NS = 'http://www.loc.gov/mods/v3';

/** relatedItem/@type → the DataCite relation it says (the inverse of ./mods.ts's table: one relation for each MODS type). */
export const RELATION_OF_ITEM_TYPE: Readonly<Record<string, string>> = {
  host: 'IsPartOf',
  series: 'IsPartOf',
  constituent: 'HasPart',
  preceding: 'Continues',
  succeeding: 'IsContinuedBy',
  otherVersion: 'IsVersionOf',
  original: 'IsVariantFormOf',
  otherFormat: 'IsOriginalFormOf',
  references: 'References',
  isReferencedBy: 'IsReferencedBy',
  reviewOf: 'Reviews',
};

// MARC relator codes (roleTerm type code, authority marcrelator) for the roles DataCite names.
const RELATOR_CODES: Readonly<Record<string, string>> = {
  aut: 'author',
  cre: 'creator',
  ctb: 'contributor',
  edt: 'Editor',
  trl: 'Translator',
  ths: 'Supervisor',
  dgs: 'Supervisor',
  his: 'HostingInstitution',
  res: 'Researcher',
  cph: 'RightsHolder',
  spn: 'Sponsor',
  dst: 'Distributor',
  pro: 'Producer',
  fnd: 'funder',
};

/** A titleInfo as one title: nonSort, title, ": " subtitle, ". " part number and name. */
function titleOf(t: XmlElement): string {
  const nonSort = text(kid(t, 'nonSort'));
  let out = text(kid(t, 'title'));
  if (nonSort !== '') out = /['’-]$/.test(nonSort) ? `${nonSort}${out}` : `${nonSort} ${out}`;
  const sub = text(kid(t, 'subTitle'));
  if (sub !== '') out += `: ${sub}`;
  for (const p of [...kids(t, 'partNumber'), ...kids(t, 'partName')]) out += `. ${text(p)}`;
  return out;
}

/**
 * Lifts a MODS `mods` element into the record model.
 *
 * @example readMods(parseFragment('<mods xmlns="http://www.loc.gov/mods/v3"><titleInfo><title>T</title></titleInfo></mods>')!) // { dc: { title: ['T'] } }
 */
export function readMods(root: XmlElement): RecordFields {
  const d = draft();
  const mods = root.local === 'modsCollection' ? kid(root, 'mods') : root;
  if (mods === undefined || mods.ns !== MODS_NS || mods.local !== 'mods') return finish(d);
  const titles = kids(mods, 'titleInfo');
  for (const t of [...titles.filter((x) => attr(x, 'type') === undefined), ...titles.filter((x) => attr(x, 'type') !== undefined)])
    addDc(d, 'title', titleOf(t));
  for (const n of kids(mods, 'name')) readName(d, n);
  readGenres(d, kids(mods, 'genre'));
  readTypeOfResource(d, kids(mods, 'typeOfResource'));
  for (const o of kids(mods, 'originInfo')) readOrigin(d, o);
  for (const l of kids(mods, 'language')) {
    for (const t of kids(l, 'languageTerm')) {
      if (attr(t, 'type') === 'text') addDc(d, 'language', text(t));
      else setLanguage(d, text(t));
    }
  }
  for (const p of kids(mods, 'physicalDescription')) {
    for (const e of elements(p)) if (['internetMediaType', 'form', 'extent'].includes(e.local)) addDc(d, 'format', text(e));
  }
  for (const e of elements(mods)) if (['abstract', 'tableOfContents', 'note'].includes(e.local)) addDc(d, 'description', text(e));
  for (const s of kids(mods, 'subject')) {
    for (const e of elements(s)) {
      const coverage = ['geographic', 'temporal', 'hierarchicalGeographic', 'cartographics'].includes(e.local);
      addDc(d, coverage ? 'coverage' : 'subject', e.local === 'name' ? kids(e, 'namePart').map(text).join(' ') : text(e));
    }
  }
  for (const c of kids(mods, 'classification')) addDc(d, 'subject', text(c));
  for (const i of kids(mods, 'identifier')) {
    if (attr(i, 'invalid') === 'yes') continue;
    const scheme = schemeOf(attr(i, 'type'));
    if (scheme !== undefined) addIdentifier(d, scheme, text(i));
    else addDc(d, 'identifier', labelled(text(i), attr(i, 'displayLabel')));
  }
  for (const u of kids(mods, 'location').flatMap((l) => kids(l, 'url'))) {
    const access = attr(u, 'access');
    if (access === 'raw object') addFile(d, text(u));
    else if (access !== 'preview') addDc(d, 'identifier', text(u));
  }
  for (const r of kids(mods, 'relatedItem')) readRelatedItem(d, r);
  for (const a of kids(mods, 'accessCondition')) readAccessCondition(d, a);
  return finish(d);
}

function readName(d: Draft, n: XmlElement): void {
  const parts = kids(n, 'namePart');
  const plain = parts
    .filter((p) => attr(p, 'type') === undefined)
    .map(text)
    .filter((s) => s !== '')
    .join(' ');
  const part = (type: string): string | undefined => parts.filter((p) => attr(p, 'type') === type).map(text)[0];
  const type = attr(n, 'type');
  const display = text(kid(n, 'displayForm'));
  const agent = toAgent({
    name: display !== '' ? display : plain,
    nameType: type === 'personal' ? 'person' : type === 'corporate' ? 'organization' : undefined,
    givenName: part('given'),
    familyName: part('family'),
    ids: kids(n, 'nameIdentifier').map((i) => ({ value: text(i), scheme: attr(i, 'type') })),
    affiliations: kids(n, 'affiliation').map((a) => ({ name: text(a) })),
  });
  if (agent === undefined) return;
  const roles = kids(n, 'role')
    .flatMap((r) => kids(r, 'roleTerm'))
    .map((t) => {
      const v = text(t);
      return attr(t, 'type') === 'code' ? (RELATOR_CODES[v.toLowerCase()] ?? v) : v;
    });
  const words = roles.map((r) => r.toLowerCase());
  // LoC's mapping makes a name of role creator a dc:creator; authors are creators, and so is a name without a role.
  if (words.includes('funder')) {
    const ref = toFunding({ funderName: agent.name });
    if (ref) d.fundingReferences.push(ref);
  } else if (words.length === 0 || words.some((w) => w === 'creator' || w === 'author')) d.creators.push(agent);
  else d.contributors.push({ ...agent, type: roles.map(contributorType).find((t) => t !== undefined) ?? 'Other' });
}

/** The COAR genre first (the resource type), then the others as dc:type, without the marcgt term that restates the COAR type. */
function readGenres(d: Draft, genres: readonly XmlElement[]): void {
  const isCoar = (g: XmlElement): boolean =>
    (attr(g, 'valueURI') ?? '').startsWith(COAR_RESOURCE_TYPE_PREFIX) || attr(g, 'authorityURI') === COAR_RESOURCE_TYPE_PREFIX;
  const coar = genres.find(isCoar);
  if (coar !== undefined) setCoarType(d, attr(coar, 'valueURI'), text(coar));
  const restated = d.resourceType?.coar === undefined ? undefined : COAR_TYPES.get(d.resourceType.coar)?.marcgt;
  for (const g of genres) {
    if (g === coar) continue;
    if (attr(g, 'authority') === 'marcgt' && restated !== undefined && text(g) === restated) continue;
    addDc(d, 'type', text(g));
  }
}

/**
 * typeOfResource as Dublin Core type, by LC's MODS to Dublin Core mapping
 * (typeOfResource → Type, in the DCMI Type Vocabulary:
 * type-crosswalks.ts `DCMI_OF_TYPE_OF_RESOURCE`; @collection="yes" Collection),
 * and @manuscript="yes" as the type `manuscript` (MARC Leader/06 t, f, d):
 * first among the types, unless the COAR genre already says the same kind of
 * material (then it restates what the resource type says).
 */
function readTypeOfResource(d: Draft, types: readonly XmlElement[]): void {
  const said: string[] = [];
  // What the COAR genre says, a finer kind its label names included (sound recording-musical).
  const implied = d.resourceType?.coar === undefined ? undefined : bibliographicType({ dc: {}, resourceType: d.resourceType }).typeOfResource;
  for (const t of types) {
    const value = text(t).toLowerCase();
    const dcmi = Object.hasOwn(DCMI_OF_TYPE_OF_RESOURCE, value) ? DCMI_OF_TYPE_OF_RESOURCE[value] : undefined;
    if (value === implied) continue;
    if (attr(t, 'collection') === 'yes') said.push('Collection');
    if (dcmi !== undefined) said.push(dcmi);
    if (attr(t, 'manuscript') === 'yes') said.push('manuscript');
  }
  const fresh = [...new Set(said)].filter((v) => !(d.dc.type ?? []).includes(v));
  if (fresh.length > 0) d.dc.type = [...fresh, ...(d.dc.type ?? [])];
}

/**
 * The dates of an originInfo, each element with the value it holds; a date
 * given as a range (`point="start"` then `point="end"`, MODS User
 * Guidelines, originInfo) is one value, start/end (an ISO 8601 time
 * interval), never two dates.
 */
function datesOf(o: XmlElement): { local: string; type: string | undefined; value: string }[] {
  const out: { local: string; type: string | undefined; value: string }[] = [];
  const es = elements(o);
  for (let i = 0; i < es.length; i++) {
    const e = es[i]!;
    const next = es[i + 1];
    if (attr(e, 'point') === 'start' && next !== undefined && next.local === e.local && attr(next, 'point') === 'end') {
      out.push({ local: e.local, type: attr(e, 'type'), value: `${text(e)}/${text(next)}` });
      i++;
    } else if (attr(e, 'point') === 'end' && text(e) !== '') out.push({ local: e.local, type: attr(e, 'type'), value: `../${text(e)}` });
    else if (attr(e, 'point') === 'start' && text(e) !== '') out.push({ local: e.local, type: attr(e, 'type'), value: `${text(e)}/..` });
    else out.push({ local: e.local, type: attr(e, 'type'), value: text(e) });
  }
  return out;
}

function readOrigin(d: Draft, o: XmlElement): void {
  for (const p of kids(o, 'publisher')) setPublisher(d, text(p));
  for (const e of datesOf(o)) {
    // A typed date is a calendar date: a date with its time stays as written, in dc:date, keeping its precision.
    const dated = ['dateIssued', 'dateCreated', 'dateCaptured', 'dateValid', 'dateModified', 'copyrightDate', 'dateOther'].includes(e.local);
    if (dated && /^\d{4}-\d{2}-\d{2}T/.test(e.value)) addDc(d, 'date', e.value);
    else if (e.local === 'dateIssued') setDate(d, 'issued', e.value);
    else if (e.local === 'dateOther' && (e.type === 'accepted' || e.type === 'available')) setDate(d, e.type, e.value);
    else if (['dateCreated', 'dateCaptured', 'dateValid', 'dateModified', 'copyrightDate', 'dateOther'].includes(e.local)) addDc(d, 'date', e.value);
  }
}

function readRelatedItem(d: Draft, r: XmlElement): void {
  const type = attr(r, 'type');
  const other = attr(r, 'otherType');
  const relation = DATACITE_RELATION_TYPES.find((x) => x === other) ?? (type === undefined ? undefined : RELATION_OF_ITEM_TYPE[type]);
  for (const i of kids(r, 'identifier')) {
    const idType = attr(i, 'type');
    // A DataCite type name as ./mods.ts writes it (EISSN, PURL, arXiv, PMID, …), else the MODS identifier types of the model's schemes.
    const scheme =
      idType !== undefined && (DATACITE_RELATED_IDENTIFIER_TYPES as readonly string[]).includes(idType)
        ? idType
        : idType?.toLowerCase() === 'issn-l'
          ? 'LISSN'
          : (schemeOf(idType) ?? idType);
    if (relation !== undefined && scheme !== undefined) addRelated(d, { identifier: text(i), type: scheme, relation });
    else addDc(d, 'relation', text(i));
  }
  const titles = kids(r, 'titleInfo');
  if (type === 'host' && readHost(d, r)) titles.shift();
  for (const t of titles) addDc(d, type === 'original' ? 'source' : 'relation', titleOf(t));
}

/** A relatedItem of type host as the record's host, when it is the first with a title or a part (MODS User Guidelines: a journal article's citation). */
function readHost(d: Draft, r: XmlElement): boolean {
  const title = kid(r, 'titleInfo');
  const parts = kids(r, 'part');
  if (title === undefined && parts.length === 0) return false;
  const detail = (type: string): string | undefined => {
    const el = parts.flatMap((p) => kids(p, 'detail')).find((x) => attr(x, 'type')?.toLowerCase() === type);
    return el === undefined ? undefined : text(kid(el, 'number'));
  };
  const pages = parts.flatMap((p) => kids(p, 'extent')).find((x) => ['pages', 'page'].includes(attr(x, 'unit')?.toLowerCase() ?? ''));
  return setHost(d, {
    title: title === undefined ? undefined : titleOf(title),
    volume: detail('volume'),
    issue: detail('issue'),
    startPage: text(kid(pages, 'start')),
    endPage: text(kid(pages, 'end')),
  });
}

function readAccessCondition(d: Draft, a: XmlElement): void {
  const type = attr(a, 'type')?.toLowerCase().replace(/\s+/g, '');
  const href = prefixedAttr(a, 'href');
  const words = text(a);
  if (type === 'restrictiononaccess' && accessOf(href) === undefined) {
    addDc(d, 'rights', words);
    addDc(d, 'rights', href);
    return;
  }
  // ./mods.ts writes an embargo as "<label> until <end>".
  const until = accessOf(href) === undefined ? null : /^(.*) until (\d{4}-\d{2}-\d{2})$/.exec(words);
  addRights(d, until ? until[1] : words, href);
  if (until) setDate(d, 'embargoEnd', until[2]);
}

/**
 * A MODS record's own identifier: the first non-empty
 * `recordInfo/recordIdentifier` (MODS User Guidelines 3: the system control
 * number assigned by the organization creating the record), else the first
 * non-empty top-level `identifier` not marked `invalid="yes"` (the resource's,
 * which names one record of it as well), in document order; an identifier
 * inside a `relatedItem` names another resource and is never taken.
 * Undefined when the record has neither.
 *
 * @example modsOwnId(parseFragment('<mods xmlns="http://www.loc.gov/mods/v3"><recordInfo><recordIdentifier>rec-1</recordIdentifier></recordInfo></mods>')!) // { id: 'rec-1', from: 'its recordInfo/recordIdentifier' }
 */
export function modsOwnId(root: XmlElement): { id: string; from: string } | undefined {
  if (root.ns !== MODS_NS || root.local !== 'mods') return undefined;
  for (const r of kids(root, 'recordInfo').flatMap((i) => kids(i, 'recordIdentifier'))) {
    const id = text(r);
    if (id !== '') return { id, from: 'its recordInfo/recordIdentifier' };
  }
  for (const i of kids(root, 'identifier')) {
    const id = attr(i, 'invalid') === 'yes' ? '' : text(i);
    if (id !== '') return { id, from: 'its identifier' };
  }
  return undefined;
}

/**
 * A local identifier with the label MODS gives it (`displayLabel`, MODS 3.7 identifier): a shelf mark
 * "342, 19. 9" means nothing without "Signatur". A URL stays bare, so it is still one.
 *
 * @example labelled('342, 19. 9', 'Signatur') // 'Signatur: 342, 19. 9'
 */
function labelled(value: string, label: string | undefined): string {
  const l = label?.replace(/\s+/g, ' ').trim().replace(/:$/, '') ?? '';
  return l === '' || value === '' || /^https?:\/\//i.test(value) ? value : `${l}: ${value}`;
}
