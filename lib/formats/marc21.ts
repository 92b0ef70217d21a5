/**
 * `marc21`: MARC 21 bibliographic records in MARCXML (namespace
 * http://www.loc.gov/MARC21/slim, schemas/marcxml/MARC21slim.xsd), following
 * the Library of Congress "Dublin Core to MARC Crosswalk"
 * (https://www.loc.gov/marc/dccross.html) for the Dublin Core fields, and the
 * MARC 21 Format for Bibliographic Data for the structured ones.
 *
 * An item has this format when its record has a title: field 245 is the one
 * field every MARC bibliographic record carries.
 *
 * The leader is "     n?m a22     3u 4500": record length and base address
 * left blank (MARCXML does not need them), status n (new), type of record
 * (Leader/06) from the resource type, else the DCMI Type or MODS
 * typeOfResource words of dc:type (type-facts.ts `bibliographicType`: a
 * photograph k, a manuscript t, mixed material p, software m; `a` only for
 * text or a record that says no type), bibliographic level
 * m, Unicode (a), encoding level 3 (abbreviated), descriptive form u.
 * Fields are written in tag order.
 *
 * | record                                     | MARC 21                                                        |
 * |--------------------------------------------|----------------------------------------------------------------|
 * | identifiers ISBN                           | 020 ## $a                                                      |
 * | identifiers ISSN                           | 022 ## $a                                                      |
 * | identifiers DOI, Handle, URN               | 024 7# $a $2 doi / hdl / urn                                   |
 * | the POI                                    | 024 7# $a $2 uri                                               |
 * | identifiers ARK, the oai-identifier, other dc.identifier | 024 8# $a (LoC: Identifier → 024 8#)              |
 * | language, dc.language codes                | 041 #7 $a each primary language subtag $2 iso639-1 (two letters) / iso639-3 (three): every language |
 * | dc.title                                   | 245 00 $a the first (LoC: Title → 245 00); 246 33 $a the others |
 * | publisher (else dc.publisher); publicationYear (else dates.issued), dc.date | 260 ## $b; $c each date as written (LoC: Publisher → 260 $b, Date → 260 $c) |
 * | dc.coverage                                | 500 ## $a (LoC: Coverage → 500)                                 |
 * | accessRights, dates.embargoEnd             | 506 0# (open) or 1# $a label $g embargo end $u COAR URI          |
 * | dc.description                             | 520 ## $a (LoC: Description → 520)                              |
 * | fundingReferences                          | 536 ## $a funder $c award number                               |
 * | dc.rights; license                         | 540 ## $a (LoC: Rights → 540); 540 ## $u licence URI            |
 * | language, dc.language that is no code      | 546 ## $a (LoC: Language → 546)                                 |
 * | dc.subject                                 | 653 ## $a (LoC: Subject → 653)                                  |
 * | resourceType                               | 655 #7 $a marcgt term $2 marcgt (when the label is COAR's), else the label $2 local, $0 the COAR URI |
 * | dc.type                                    | 655 #7 $a $2 local (LoC: Type → 655 #7 $2 local)                |
 * | creators (else dc.creator)                 | 720 1# (person), 2# (organization) or ## $a $e author (LoC: Creator → 720) |
 * | contributors (else dc.contributor)         | 720 $a $e the contributor type in lower case (LoC: Contributor → 720) |
 * | host                                       | 773 0# $t title $g "Vol. 23, no. 31, p. 7444-7447" (LC's own $g example form: volume, issue, pages; a part holding a comma or parenthesis, or pages a hyphen, would not read back and is left out) |
 * | relatedIdentifiers IsPartOf, IsPublishedIn | 773 08 $i relation $x (ISSN), $z (ISBN) or $o (prefixed "(type)" unless its value spells its scheme) |
 * | dc.source                                  | 786 0# $n (LoC: Source → 786 0# $n)                             |
 * | dc.relation; other relatedIdentifiers      | 787 0# $n (LoC: Relation → 787 0# $n); 787 08 $i relation $x, $z or $o identifier |
 * | identifiers URL; files; dc.format          | 856 40 $u (LoC: Identifier as URI → 856 $u); $u $q media type $s size; $q (LoC: Format → 856 $q) |
 *
 * Not carried: ORCID iDs and affiliations (720 has no subfield for them),
 * award titles and funder identifiers, accepted/available dates.
 */
import type { Agent, Host, RecordFields } from '../model/record';
import { ACCESS_RIGHTS } from '../model/vocabularies';
import { normalizeLanguageTag, primaryLanguage } from '../model/language';
import { classifyIdentifier } from '../model/identifiers';
import { contributors, creators, dcValues, identifiersOf, publisher, titles } from '../model/facts';
import { bibliographicType, coarType } from '../model/type-facts';
import { otherDcIdentifiers, type CrosswalkContext, type CrosswalkResult } from './format';
import type { MetadataFormat } from './format';
import { leaf, rootOpen } from './xml-out';
import { escapeAttr, escapeText } from '../xml/chars';
import { blankUnreadIndicators, marc21OwnId, readMarc21 } from './marc21-read';

export const MARC21_NS = 'http://www.loc.gov/MARC21/slim';
export const MARC21_SCHEMA = 'http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd';

/** One data field: tag, two indicators, subfields (code, value; undefined values left out). */
type Field = readonly [tag: string, ind1: string, ind2: string, subfields: readonly (readonly [string, string | undefined])[]];

/** Why a record cannot be a MARC record (no title), or null. @example marc21Lacks({ dc: {} }) // 'MARC 21 needs a title (field 245)' */
export function marc21Lacks(record: RecordFields): string | null {
  return titles(record).length === 0 ? 'MARC 21 needs a title (field 245)' : null;
}

/**
 * Whether a host part can stand in 773 $g as written, to be read back: no
 * comma (which separates the parts) or parenthesis (which holds a date),
 * and in a page no hyphen or en dash (which joins the first and last).
 *
 * @example relatedPart('Suppl. 2', false) // true
 * @example relatedPart('7444-7447', true) // false
 */
export function relatedPart(v: string, page: boolean): boolean {
  return !/[,()]/.test(v) && !(page && /[-–]/.test(v)) && v.trim() !== '';
}

/**
 * MARC 773 $g, "Related parts", of a host (LC's example: `Vol. 17, no. 98 (Feb. 1948), p. 78-159`), or undefined.
 *
 * @example relatedParts({ volume: '23', issue: '31', startPage: '7444', endPage: '7447' }) // 'Vol. 23, no. 31, p. 7444-7447'
 */
export function relatedParts(h: Host): string | undefined {
  const ok = (v: string | undefined, page: boolean): string | undefined => (v !== undefined && relatedPart(v, page) ? v : undefined);
  const volume = ok(h.volume, false);
  const issue = ok(h.issue, false);
  const start = ok(h.startPage, true);
  const end = ok(h.endPage, true);
  const pages = start !== undefined || end !== undefined ? `p. ${start ?? ''}${end !== undefined ? `-${end}` : ''}` : undefined;
  const parts = [volume && `Vol. ${volume}`, issue && `no. ${issue}`, pages].filter((x): x is string => x !== undefined);
  return parts.length > 0 ? parts.join(', ') : undefined;
}

function agentField(a: Agent, role: string): Field {
  const ind1 = a.nameType === 'person' ? '1' : a.nameType === 'organization' ? '2' : ' ';
  return [
    '720',
    ind1,
    ' ',
    [
      ['a', a.name],
      ['e', role],
    ],
  ];
}

/**
 * Crosswalks a record to a MARCXML record, or says why the item lacks it.
 *
 * @example
 * recordToMarc21({ dc: { title: ['T'] } }, { oaiIdentifier: 'oai:x.org:1', options: {} })
 * // → '<record xmlns="http://www.loc.gov/MARC21/slim" …><leader>     nam a22     3u 4500</leader>…<datafield tag="245" ind1="0" ind2="0"><subfield code="a">T</subfield></datafield></record>'
 */
export function recordToMarc21(record: RecordFields, ctx: CrosswalkContext): CrosswalkResult {
  const lacks = marc21Lacks(record);
  if (lacks !== null) return { notOffered: lacks };
  const fields: Field[] = [];
  for (const v of identifiersOf(record, 'ISBN')) fields.push(['020', ' ', ' ', [['a', v]]]);
  for (const v of identifiersOf(record, 'ISSN')) fields.push(['022', ' ', ' ', [['a', v]]]);
  for (const [type, source] of [
    ['DOI', 'doi'],
    ['Handle', 'hdl'],
    ['URN', 'urn'],
  ] as const) {
    for (const v of identifiersOf(record, type))
      fields.push([
        '024',
        '7',
        ' ',
        [
          ['a', v],
          ['2', source],
        ],
      ]);
  }
  if (ctx.poi !== undefined)
    fields.push([
      '024',
      '7',
      ' ',
      [
        ['a', ctx.poi],
        ['2', 'uri'],
      ],
    ]);
  for (const v of [...identifiersOf(record, 'ARK'), ctx.oaiIdentifier]) fields.push(['024', '8', ' ', [['a', v]]]);
  const urls = identifiersOf(record, 'URL');
  for (const v of otherDcIdentifiers(record, ctx)) {
    if (/^https?:\/\//.test(v)) urls.push(v);
    else fields.push(['024', '8', ' ', [['a', v]]]);
  }
  // MARC 041 holds language codes, not tags: the primary subtag of a BCP 47 tag (en of en-US) is an ISO 639 code.
  // Every language is one $a (041 $a is repeatable): a record in Latin and Old English says both; one field per code list ($2).
  const codeOf = (v: string): string | undefined => {
    const tag = normalizeLanguageTag(v);
    const code = tag === null ? undefined : primaryLanguage(tag);
    return code !== undefined && /^[a-z]{2,3}$/.test(code) ? code : undefined;
  };
  const coded = new Set<string>();
  for (const v of [...(record.language !== undefined ? [record.language] : []), ...dcValues(record, 'language')]) {
    const code = codeOf(v);
    if (code !== undefined) coded.add(code);
  }
  for (const size of [2, 3]) {
    const codes = [...coded].filter((c) => c.length === size);
    if (codes.length > 0) fields.push(['041', ' ', '7', [...codes.map((c) => ['a', c] as const), ['2', size === 2 ? 'iso639-1' : 'iso639-3']]]);
  }
  const [title, ...others] = titles(record);
  fields.push(['245', '0', '0', [['a', title]]]);
  for (const t of others) fields.push(['246', '3', '3', [['a', t]]]);
  const pub = publisher(record);
  // LoC: Date → 260 $c, every date in its precision ($c is repeatable): the typed one first, then the record's dc:date.
  const typedDate = record.publicationYear ?? record.dates?.issued;
  const dates = [...new Set([...(typedDate !== undefined ? [typedDate] : []), ...dcValues(record, 'date')])];
  // LoC: Publisher → 260 $b, every one ($b is repeatable).
  const pubs = [...new Set([...(pub !== undefined ? [pub] : []), ...dcValues(record, 'publisher')])];
  if (pubs.length > 0 || dates.length > 0) fields.push(['260', ' ', ' ', [...pubs.map((b) => ['b', b] as const), ...dates.map((c) => ['c', c] as const)]]);
  for (const c of dcValues(record, 'coverage')) fields.push(['500', ' ', ' ', [['a', c]]]);
  if (record.accessRights !== undefined) {
    const a = ACCESS_RIGHTS[record.accessRights];
    // MARC 506 first indicator: 0 no restrictions, 1 restrictions apply.
    fields.push([
      '506',
      record.accessRights === 'open' ? '0' : '1',
      ' ',
      [
        ['a', a.label],
        ['g', record.dates?.embargoEnd],
        ['u', a.uri],
      ],
    ]);
  }
  for (const d of dcValues(record, 'description')) fields.push(['520', ' ', ' ', [['a', d]]]);
  for (const f of record.fundingReferences ?? [])
    fields.push([
      '536',
      ' ',
      ' ',
      [
        ['a', f.funderName],
        ['c', f.awardNumber],
      ],
    ]);
  for (const r of dcValues(record, 'rights')) fields.push(['540', ' ', ' ', [['a', r]]]);
  if (record.license !== undefined) fields.push(['540', ' ', ' ', [['u', record.license]]]);
  // A language without an ISO 639 code (a name, a private-use tag) is a language note.
  for (const l of [...(record.language !== undefined ? [record.language] : []), ...dcValues(record, 'language')])
    if (codeOf(l) === undefined) fields.push(['546', ' ', ' ', [['a', l]]]);
  for (const s of dcValues(record, 'subject')) fields.push(['653', ' ', ' ', [['a', s]]]);
  if (record.resourceType) {
    const c = coarType(record);
    // The marcgt term stands for the COAR label; a label of the record's own is kept as written instead.
    const term = c !== undefined && record.resourceType.label === c.label ? c.marcgt : undefined;
    fields.push([
      '655',
      ' ',
      '7',
      [
        ['a', term ?? record.resourceType.label],
        ['2', term !== undefined ? 'marcgt' : 'local'],
        ['0', record.resourceType.coar],
      ],
    ]);
  }
  for (const t of dcValues(record, 'type'))
    fields.push([
      '655',
      ' ',
      '7',
      [
        ['a', t],
        ['2', 'local'],
      ],
    ]);
  for (const c of creators(record)) fields.push(agentField(c, 'author'));
  for (const c of contributors(record)) fields.push(agentField(c, c.type.toLowerCase()));
  if (record.host !== undefined) {
    const g = relatedParts(record.host);
    if (record.host.title !== undefined || g !== undefined)
      fields.push([
        '773',
        '0',
        ' ',
        [
          ['t', record.host.title],
          ['g', g],
        ],
      ]);
  }
  for (const r of record.relatedIdentifiers ?? []) {
    // 76X-78X: $x an ISSN, $z an ISBN, $o any other identifier; $i the relationship, in DataCite's words. In $o, an
    // identifier whose value does not spell its scheme carries the scheme in parentheses first, as MARC writes a
    // source there ("(OCoLC)…"): (arXiv)0706.0001, (EISSN)1562-6865.
    const code = r.type === 'ISSN' ? 'x' : r.type === 'ISBN' ? 'z' : 'o';
    const spelled = classifyIdentifier(r.identifier)?.type === r.type;
    const host = r.relation === 'IsPartOf' || r.relation === 'IsPublishedIn';
    fields.push([
      host ? '773' : '787',
      '0',
      '8',
      [
        ['i', r.relation],
        [code, code !== 'o' || spelled ? r.identifier : `(${r.type})${r.identifier}`],
      ],
    ]);
  }
  for (const s of dcValues(record, 'source')) fields.push(['786', '0', ' ', [['n', s]]]);
  for (const r of dcValues(record, 'relation')) fields.push(['787', '0', ' ', [['n', r]]]);
  for (const u of urls) fields.push(['856', '4', '0', [['u', u]]]);
  for (const f of record.files ?? [])
    fields.push([
      '856',
      '4',
      '0',
      [
        ['u', f.url],
        ['q', f.mediaType],
        ['s', f.size?.toString()],
      ],
    ]);
  for (const f of dcValues(record, 'format')) fields.push(['856', '4', '0', [['q', f]]]);

  // MARC fields in tag order; a stable sort keeps the order above within one tag.
  fields.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const leader = `     n${bibliographicType(record).leader06}m a22     3u 4500`;
  return (
    rootOpen('record', [['xmlns', MARC21_NS]], `${MARC21_NS} ${MARC21_SCHEMA}`, ['type', 'Bibliographic']) +
    leaf('leader', leader) +
    fields.map(datafield).join('') +
    '</record>'
  );
}

/**
 * One data field as MARCXML, its subfields with a value in order; nothing for a field whose every value is
 * undefined. Written with one string and no arrays: it runs for every field of every record a load writes.
 */
function datafield([tag, ind1, ind2, subs]: Field): string {
  let body = '';
  for (const [code, v] of subs) if (v !== undefined) body += `<subfield code="${escapeAttr(code)}">${escapeText(v)}</subfield>`;
  return body === '' ? '' : `<datafield tag="${escapeAttr(tag)}" ind1="${escapeAttr(ind1)}" ind2="${escapeAttr(ind2)}">${body}</datafield>`;
}

/** The marc21 entry of the format registry. */
export const marc21: MetadataFormat = {
  prefix: 'marc21',
  schema: MARC21_SCHEMA,
  namespace: MARC21_NS,
  builtIn: true,
  fromRecord: recordToMarc21,
  lacks: marc21Lacks,
  read: readMarc21,
  blankUnread: blankUnreadIndicators,
  collection: { container: 'collection', record: 'record', ownId: marc21OwnId },
};
