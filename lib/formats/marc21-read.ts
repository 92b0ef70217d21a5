/**
 * The reader beside the `marc21` writer: a MARCXML bibliographic record
 * lifted into the record model, following the Library of Congress "MARC to
 * Dublin Core Crosswalk" (https://www.loc.gov/marc/marc2dc.html) for what
 * becomes Dublin Core and the MARC 21 Format for Bibliographic Data for the
 * typed fields; it reads back everything ./marc21.ts writes.
 *
 * | MARC 21                                          | model                                                        |
 * |--------------------------------------------------|--------------------------------------------------------------|
 * | 020 $a; 022 $a                                   | identifiers ISBN; ISSN (a value the check refuses: dc.identifier) |
 * | 024 7# $a $2 doi, hdl, urn, ark, uri, isbn, issn | identifiers of that scheme; other 024 dc.identifier           |
 * | 041 $a (else 008/35-37)                          | language (BCP 47 syntax; other text dc.language)              |
 * | 100, 110, 111, 700, 710, 711, 720                | creators (no relator, or author/creator); contributors (another relator: its DataCite type, else Other); a relator "funder" is a fundingReference; nameType from the tag and indicator; $u affiliation; an ORCID iD in $0 or $1 |
 * | 245 $a $b $f $g $k $n $p $s; 246 $a $b           | dc.title (245 first)                                          |
 * | 260 $b, 264 #1 $b; 260 $c, 264 #1 $c (else 008/07-10, a year that is known) | publisher; publicationYear (four digits), else dc.date |
 * | Leader/06-07 (unless a 655 names a COAR type or is $2 local) | resourceType (COAR, LoC's word for label), else dc.type; `manuscript`, `collection` dc.type |
 * | 506                                              | accessRights ($u COAR URI), dates.embargoEnd ($g), other text dc.rights |
 * | 536 $a $c                                        | fundingReferences: funder, award number                       |
 * | 540 $a; 540 $u                                   | dc.rights; license (the first URL)                            |
 * | 546 $a                                           | dc.language                                                   |
 * | 530                                              | dc.relation                                                   |
 * | other 5XX                                        | dc.description (520, 500, 502, 505, …)                        |
 * | 600, 610, 611, 630, 650, 653                     | dc.subject (subdivisions joined by "--")                       |
 * | 648, 651, 662                                    | dc.coverage                                                   |
 * | 655 with $0 a COAR type of the OpenAIRE list; other 655 | resourceType (COAR, its label); dc.type                |
 * | the first 773 with $t, $g or $q                  | host: title from $t; volume, issue, pages from $g when every part of it reads as "Vol. …", "no. …", "p. …-…" (a date in parentheses aside), else its enumeration from $q ("23:31<7444"); a $g that does not read so stays dc.relation |
 * | 773, 787 $i $x $z $o                             | relatedIdentifiers: relation from $i (DataCite's words; 773 else IsPartOf), ISSN from $x, ISBN from $z, $o by a DataCite scheme in parentheses before it, else by the scheme its value spells; else dc.relation |
 * | 786 $n $t $o; 787 $n; other 76X-78X $t            | dc.source; dc.relation                                        |
 * | 856 $u with $q or $s; 856 $u; 856 $q             | files (media type, size); dc.identifier; dc.format            |
 *
 * Punctuation: where the leader says the record carries ISBD punctuation
 * (Leader/18 `a` or `i`), the punctuation that closes a title, name, date
 * or subject ("Title /", "Etzioni, Amitai.", "1969.") is not part of the
 * value and is removed; otherwise values are as written.
 *
 * The type of record and bibliographic level (Leader/06-07) give the
 * resource type beside the 655 genre/form terms (unless a 655 names a COAR
 * type or is a local term, the record's own type), and 008's Date 1 the year
 * where 260 and 264 do not, as ./marc-leader.ts reads them (never `9999` or
 * a year with `u` in it).
 *
 * Not lifted, for the model has no place for them: control numbers (001,
 * 010, 035), classification numbers, edition, physical description.
 *
 * Pure and total: an element other than a MARCXML record gives an empty record.
 */
import type { RecordFields } from '../model/record';
import { classifyIdentifier, type IdentifierType } from '../model/identifiers';
import { DATACITE_RELATED_IDENTIFIER_TYPES, DATACITE_RELATION_TYPES } from '../model/vocabularies';
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
  setYear,
  type Draft,
  type HostInput,
} from './reader-rules';
import { addRelated, contributorType, toAgent, toFunding } from './reader-entries';
import { dateOne, leaderType } from './marc-leader';
import { kids, text, trimXml } from './xml-in';

const MARC21_NS = 'http://www.loc.gov/MARC21/slim';

/** One data field: tag, indicators, subfields in order. */
interface Field {
  readonly tag: string;
  readonly ind1: string;
  readonly ind2: string;
  readonly subs: readonly (readonly [code: string, value: string])[];
}

function fieldsOf(root: XmlElement): Field[] {
  return kids(root, 'datafield').map((f) => ({
    tag: f.attrs.get('tag') ?? '',
    ind1: f.attrs.get('ind1') ?? ' ',
    ind2: f.attrs.get('ind2') ?? ' ',
    subs: kids(f, 'subfield').map((s) => [s.attrs.get('code') ?? '', text(s)] as const),
  }));
}

/** An indicator as LoC's MARC21slim.xsd allows it (`indicatorDataType`). */
const INDICATOR = /^[\da-z ]$/;
/** An indicator attribute of a data field, its value between either quotes. */
const INDICATOR_ATTR = /(\sind[12]\s*=\s*)(["'])([^"']*)\2/g;

/**
 * MARCXML with every indicator outside LoC's pattern `[\da-z ]` blank: the
 * reader tests an indicator only for values of that pattern (`0`-`3`, `7`,
 * …), so one outside it (CERN CDS writes `C` in field 690) reads as none of
 * them, as a blank does (format.ts `MetadataFormat.blankUnread`).
 *
 * @example blankUnreadIndicators('<datafield tag="690" ind1="C" ind2=" ">') // '<datafield tag="690" ind1=" " ind2=" ">'
 */
export function blankUnreadIndicators(xml: string): string {
  return xml.replace(INDICATOR_ATTR, (whole: string, name: string, quote: string, value: string) =>
    INDICATOR.test(value) ? whole : `${name}${quote} ${quote}`,
  );
}

const all = (f: Field, codes: string): string[] => f.subs.filter(([c]) => codes.includes(c)).map(([, v]) => v);
const first = (f: Field, code: string): string | undefined => all(f, code)[0];

/** The text of a fixed-length field as written, its spaces kept. */
const rawText = (e: XmlElement | undefined): string => (e?.children ?? []).map((c) => (c.kind === 'text' ? c.text : '')).join('');

/** The ISBD punctuation that closes an element ("Title /", "Name,", "1969."), removed; an initial's full stop ("J.") is kept. */
function chopIsbd(s: string): string {
  let t = s.replace(/\s*[,;:/=]+$/, '');
  if (/\.$/.test(t) && !/(?:^|[\s.])\p{Lu}\.$/u.test(t) && !/\.\.\.$/.test(t)) t = t.slice(0, -1);
  return t.trimEnd();
}

// MARC relator codes (https://id.loc.gov/vocabulary/relators) for the roles DataCite names.
const RELATOR_CODES: Readonly<Record<string, string>> = {
  aut: 'author',
  cre: 'creator',
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
  dtm: 'DataManager',
  fnd: 'funder',
};

/** The 5XX notes that are not descriptions (LoC MARC to DC: access 506, relation 530, funding 536, rights 540, language 546). */
const NOT_DESCRIPTION = new Set(['506', '530', '536', '540', '546']);

/**
 * Lifts a MARCXML `record` into the record model.
 *
 * @example readMarc21(parseFragment('<record xmlns="http://www.loc.gov/MARC21/slim"><datafield tag="245" ind1="1" ind2="0"><subfield code="a">Readings on modern organizations.</subfield></datafield></record>')!)
 * // → { dc: { title: ['Readings on modern organizations.'] } }
 */
export function readMarc21(root: XmlElement): RecordFields {
  const d = draft();
  if (root.ns !== MARC21_NS || root.local !== 'record') return finish(d);
  // Positions count: the leader is read as written, its spaces kept (a leader may begin with a blank record length).
  const leader = rawText(kids(root, 'leader')[0]);
  // Leader/18, descriptive cataloging form: a AACR 2, i ISBD punctuation included. Positions mean something only in a full leader.
  const isbd = leader.length === 24 && (leader[18] === 'a' || leader[18] === 'i');
  const clean = (s: string | undefined): string | undefined => (s === undefined || !isbd ? s : chopIsbd(s));
  const fields = fieldsOf(root);
  for (const f of fields) readField(d, f, clean);
  // 008 (fixed-length data elements, 40 positions): the language and the first date, when the fields do not say them.
  // Positions count, so the field is read as written, its spaces kept.
  const f008 = rawText(kids(root, 'controlfield').find((c) => c.attrs.get('tag') === '008'));
  if (f008.length === 40) {
    const lang = f008.slice(35, 38);
    if (d.language === undefined && /^[a-z]{3}$/.test(lang) && lang !== 'und') setLanguage(d, lang);
    const year = dateOne(f008);
    if (d.publicationYear === undefined && year !== undefined) setYear(d, year);
  }
  // Leader/06-07: the type (./marc-leader.ts) beside the 655 genre/form terms, as both LoC crosswalks read it:
  // MARC to MODS takes typeOfResource from Leader/06 whatever the 655s say ("Maps" $2 fast, "Feature films"
  // $2 lcgft are genre), MARC to DC maps Leader/06 and 655 each to Type. The leader adds nothing where a 655
  // already gives the record's type: one names a COAR type, or one is a local term ($2 local), as ./marc21.ts
  // writes the record's own type words (its leader then derived from them, `a` when they name no material).
  const type = leaderType(leader);
  const ownType = fields.some((f) => f.tag === '655' && first(f, '2') === 'local');
  if (type !== undefined && d.resourceType === undefined && !ownType) {
    // A word a 655 already gave is not repeated.
    const addWord = (w: string): void => {
      if (!(d.dc.type ?? []).includes(w)) addDc(d, 'type', w);
    };
    if (type.coar !== undefined) setCoarType(d, type.coar, type.word);
    else addWord(type.word);
    if (type.manuscript) addWord('manuscript');
    if (type.collection) addWord('collection');
  }
  return finish(d);
}

/** The 024 source codes ($2, Standard Identifier Source Codes) of the model's schemes. */
function sourceScheme(source: string | undefined): IdentifierType | undefined {
  const s = source?.trim().toLowerCase();
  if (s === 'handle') return 'Handle';
  return s === undefined ? undefined : schemeOf(s);
}

function readField(d: Draft, f: Field, clean: (s: string | undefined) => string | undefined): void {
  const { tag } = f;
  switch (tag) {
    case '020':
      for (const v of all(f, 'a')) addIdentifier(d, 'ISBN', v.split(/\s/)[0]);
      return;
    case '022':
      for (const v of all(f, 'a')) addIdentifier(d, 'ISSN', v);
      return;
    case '024': {
      const scheme = f.ind1 === '7' ? sourceScheme(first(f, '2')) : undefined;
      for (const v of all(f, 'a')) {
        if (scheme !== undefined) addIdentifier(d, scheme, v);
        else addDc(d, 'identifier', v);
      }
      return;
    }
    case '041':
      for (const v of all(f, 'a')) setLanguage(d, v);
      return;
    case '245':
      addDc(d, 'title', clean(all(f, 'abfgknps').join(' ')));
      return;
    case '246':
      addDc(d, 'title', clean(all(f, 'ab').join(' ')));
      return;
    case '260':
    case '264': {
      // 264 second indicator 1: publication (0 production, 2 distribution, 3 manufacture, 4 copyright date).
      const publication = tag === '260' || f.ind2 === '1';
      for (const b of all(f, 'b')) (publication ? setPublisher : (x: Draft, v: string | undefined) => addDc(x, 'publisher', v))(d, clean(b));
      for (const c of all(f, 'c')) (publication ? setYear : (x: Draft, v: string | undefined) => addDc(x, 'date', v))(d, clean(c));
      return;
    }
    case '506': {
      // Restrictions on access: a COAR access right in $u is the record's; any other text or link stays dc.rights (it is no licence).
      const uri = first(f, 'u');
      if (accessOf(uri) !== undefined) addRights(d, all(f, 'a').join(' '), uri);
      else for (const v of [all(f, 'abcf').join(' '), ...all(f, 'u')]) addDc(d, 'rights', v);
      const until = first(f, 'g');
      if (until !== undefined) setDate(d, 'embargoEnd', until);
      return;
    }
    case '530':
      addDc(d, 'relation', all(f, 'abcd').join(' '));
      return;
    case '536': {
      const ref = toFunding({ funderName: first(f, 'a'), awardNumber: first(f, 'c') });
      if (ref) d.fundingReferences.push(ref);
      return;
    }
    case '540': {
      addDc(d, 'rights', all(f, 'abcd').join(' '));
      for (const u of all(f, 'u')) addRights(d, undefined, u);
      return;
    }
    case '546':
      addDc(d, 'language', all(f, 'ab').join(' '));
      return;
    case '653':
      for (const v of all(f, 'a')) addDc(d, 'subject', v);
      return;
    case '655': {
      const coar = all(f, '0').find((v) => /^https?:\/\/purl\.org\/coar\/resource_type\//.test(v));
      // A marcgt term ($2 marcgt) names the genre in MARC's words, not the record's label: the COAR label stands.
      if (coar !== undefined && d.resourceType === undefined) setCoarType(d, coar, first(f, '2') === 'marcgt' ? undefined : first(f, 'a'));
      else addDc(d, 'type', clean(first(f, 'a')));
      return;
    }
    case '773':
    case '787':
      readLink(d, f, clean);
      return;
    case '786':
      for (const v of all(f, 'nto')) addDc(d, 'source', clean(v));
      return;
    case '856': {
      const url = first(f, 'u');
      const mediaType = first(f, 'q');
      const size = first(f, 's');
      if (url !== undefined && (mediaType !== undefined || size !== undefined)) addFile(d, url, { mediaType, size });
      else if (url !== undefined) for (const u of all(f, 'u')) addDc(d, 'identifier', u);
      else addDc(d, 'format', mediaType);
      return;
    }
  }
  if (['100', '110', '111', '700', '710', '711', '720'].includes(tag)) readName(d, f, clean);
  else if (['600', '610', '611', '630', '650'].includes(tag)) addDc(d, 'subject', subjectOf(f, clean));
  else if (['648', '651', '662'].includes(tag)) addDc(d, 'coverage', subjectOf(f, clean));
  else if (tag.startsWith('5') && !NOT_DESCRIPTION.has(tag)) addDc(d, 'description', all(f, 'abcdefghijklmnopqrstuvwxyz').join(' '));
  else if (/^7[6-8]\d$/.test(tag)) addDc(d, 'relation', clean(first(f, 't')));
}

/** A subject heading: its main part, then its subdivisions ($v form, $x general, $y chronological, $z geographic) after "--". */
function subjectOf(f: Field, clean: (s: string | undefined) => string | undefined): string | undefined {
  const main = f.subs
    .filter(([c]) => /^[a-u]$/.test(c) && c !== 'e')
    .map(([, v]) => v)
    .join(' ');
  const subdivisions = all(f, 'vxyz');
  return clean([main, ...subdivisions].filter((s) => s !== '').join('--'));
}

function readName(d: Draft, f: Field, clean: (s: string | undefined) => string | undefined): void {
  // 100/700 first indicator: 0 forename, 1 surname (persons), 3 family name (neither a person nor an organization).
  const personal = f.tag.endsWith('00') ? (f.ind1 === '0' || f.ind1 === '1' ? 'person' : undefined) : undefined;
  const corporate = f.tag === '110' || f.tag === '710' || f.tag === '111' || f.tag === '711' ? 'organization' : undefined;
  const uncontrolled = f.tag === '720' ? (f.ind1 === '1' ? 'person' : f.ind1 === '2' ? 'organization' : undefined) : undefined;
  const name = clean(all(f, f.tag === '720' ? 'a' : 'ab').join(' '));
  const roles = [...all(f, 'e').map((r) => clean(r) ?? r), ...all(f, '4').map((c) => RELATOR_CODES[c.trim().toLowerCase()] ?? c)];
  const ids = all(f, '01').map((v) => ({ value: v.replace(/^\(orcid\)/i, ''), scheme: /^\(orcid\)/i.test(v) ? 'ORCID' : undefined }));
  const agent = toAgent({ name, nameType: personal ?? corporate ?? uncontrolled, ids, affiliations: all(f, 'u').map((u) => ({ name: u })) });
  if (agent === undefined) return;
  const words = roles.map((r) => r.trim().toLowerCase());
  if (words.includes('funder')) {
    const ref = toFunding({ funderName: agent.name });
    if (ref) d.fundingReferences.push(ref);
  } else if (words.length === 0 || words.some((w) => w === 'author' || w === 'creator')) d.creators.push(agent);
  else d.contributors.push({ ...agent, type: roles.map(contributorType).find((t) => t !== undefined) ?? 'Other' });
}

/** 773 (host item) and 787 (other relationship): a related identifier where the field says its scheme, else the identifier or title as dc.relation. */
function readLink(d: Draft, f: Field, clean: (s: string | undefined) => string | undefined): void {
  if (f.tag === '787' && first(f, 'n') !== undefined) {
    for (const n of all(f, 'n')) addDc(d, 'relation', n);
    return;
  }
  const said = first(f, 'i');
  const relation = DATACITE_RELATION_TYPES.find((r) => r.toLowerCase() === said?.trim().toLowerCase()) ?? (f.tag === '773' ? 'IsPartOf' : undefined);
  const related = (identifier: string, type: string | undefined): void => {
    if (relation !== undefined && type !== undefined) addRelated(d, { identifier, type, relation });
    else addDc(d, 'relation', identifier);
  };
  for (const x of all(f, 'x')) related(x, 'ISSN');
  for (const z of all(f, 'z')) related(z, 'ISBN');
  for (const o of all(f, 'o')) {
    // "(arXiv)0706.0001": the scheme in parentheses first, as ./marc21.ts writes an identifier whose value does not spell it.
    const said = /^\(([^()]+)\)(.+)$/s.exec(o);
    if (said !== null && (DATACITE_RELATED_IDENTIFIER_TYPES as readonly string[]).includes(said[1]!)) {
      related(said[2]!, said[1]);
      continue;
    }
    const c = classifyIdentifier(o);
    related(c === null ? o : c.value, c?.type);
  }
  if (f.tag === '773' && readHost(d, f, clean)) return;
  addDc(d, 'relation', clean(first(f, 't')));
}

/**
 * The parts of a host in 773 $g, "Related parts" (LC's examples: `Vol. 17,
 * no. 98 (Feb. 1948), p. 78-159`), or undefined unless every part reads as
 * a volume, an issue or pages, each once: a $g in other words is kept as
 * text rather than guessed at.
 *
 * @example relatedPartsOf('Vol. 2, no. 2 (Feb. 1976), p. 195-230') // { volume: '2', issue: '2', startPage: '195', endPage: '230' }
 * @example relatedPartsOf('Jan. 1992, p. 38-50') // undefined
 */
export function relatedPartsOf(g: string): HostInput | undefined {
  const out: { volume?: string | undefined; issue?: string | undefined; startPage?: string | undefined; endPage?: string | undefined } = {};
  // XML's whitespace only (a no-break space is content), and a value may span lines.
  for (const raw of g.split(/,[ \t\r\n]*/)) {
    const piece = trimXml(raw.replace(/[ \t\r\n]*\([^()]*\)[ \t\r\n]*$/, ''));
    if (piece === '') continue;
    const volume = /^(?:vol\.|v\.)[ \t\r\n]*(.+)$/is.exec(piece);
    const issue = /^(?:no\.|nr\.|issue)[ \t\r\n]*(.+)$/is.exec(piece);
    const pages = /^pp?\.[ \t\r\n]*([^-–]*?)[ \t\r\n]*(?:[-–][ \t\r\n]*(.*))?$/is.exec(piece);
    if (volume && out.volume === undefined) out.volume = volume[1];
    else if (issue && out.issue === undefined) out.issue = issue[1];
    else if (pages && out.startPage === undefined && out.endPage === undefined && (pages[1] !== '' || (pages[2] ?? '') !== '')) {
      if (pages[1] !== '') out.startPage = pages[1];
      if (pages[2] !== undefined && pages[2] !== '') out.endPage = pages[2];
    } else return undefined;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The first 773 naming a title or parts as the record's host (its $t then not a dc:relation); false when there is already one. */
function readHost(d: Draft, f: Field, clean: (s: string | undefined) => string | undefined): boolean {
  const t = first(f, 't');
  // ISBD punctuation closes the last part ("p. 1-10.") as it closes a title.
  const g = clean(all(f, 'g').join(', ')) ?? '';
  const q = first(f, 'q');
  if (d.host !== undefined || (t === undefined && g === '' && q === undefined)) return false;
  const fromG = g === '' ? undefined : relatedPartsOf(g);
  // A $g in words this reader does not know stays text.
  if (g !== '' && fromG === undefined) addDc(d, 'relation', g);
  // $q, "Enumeration and first page": volume:issue<page, as SICI writes it.
  const m = fromG === undefined && q !== undefined ? /^([^:<]+)(?::([^:<]+))?(?:<(.+))?$/.exec(q.trim()) : null;
  const parts: HostInput | undefined = fromG ?? (m ? { volume: m[1], issue: m[2], startPage: m[3] } : undefined);
  if (parts === undefined && t === undefined) return false;
  setHost(d, { title: clean(t), ...parts });
  return true;
}

/**
 * A MARCXML record's own identifier: its control number, the first
 * non-empty 001 control field (MARC 21 Bibliographic, 001 Control Number:
 * the number the creating organization assigned; 003 names that
 * organization). Undefined when the record has none.
 *
 * @example marc21OwnId(parseFragment('<record xmlns="http://www.loc.gov/MARC21/slim"><controlfield tag="001">991000000269703811</controlfield></record>')!) // { id: '991000000269703811', from: 'its 001 control field' }
 */
export function marc21OwnId(root: XmlElement): { id: string; from: string } | undefined {
  if (root.ns !== MARC21_NS || root.local !== 'record') return undefined;
  for (const c of kids(root, 'controlfield')) {
    const id = c.attrs.get('tag') === '001' ? text(c) : '';
    if (id !== '') return { id, from: 'its 001 control field' };
  }
  return undefined;
}
