/**
 * `mods`: MODS 3.7 (namespace http://www.loc.gov/mods/v3,
 * schemas/mods-3.7/mods-3-7.xsd), following the Library of Congress
 * "Dublin Core Metadata Element Set Mapping to MODS Version 3"
 * (https://www.loc.gov/standards/mods/dcsimple-mods.html) for the Dublin Core
 * fields and the MODS 3.7 User Guidelines for the structured ones.
 *
 * An item has this format when its record has a title: MODS needs at least
 * one element, and a record without `titleInfo` identifies nothing.
 *
 * | record                                   | MODS 3.7                                                          |
 * |------------------------------------------|-------------------------------------------------------------------|
 * | dc.title                                 | titleInfo/title (the others titleInfo/@type="alternative")        |
 * | creators (else dc.creator)               | name/@type personal or corporate: namePart (given, family, else the whole name), displayForm, nameIdentifier/@type="orcid", affiliation, role/roleTerm "creator" (LoC: creator → name, role creator) |
 * | contributors (else dc.contributor)       | name …, role/roleTerm the contributor type in lower case (LoC: contributor → name) |
 * | resourceType (else the DCMI Type words of dc.type) | typeOfResource (vocabularies.ts; none when the record says no type), @manuscript="yes" for a dc:type manuscript; genre/@authority="marcgt"; genre with the COAR @authorityURI and @valueURI |
 * | dc.type                                  | genre (LoC: type → genre), but the DCMI Type the typeOfResource says |
 * | publisher (else dc.publisher)            | originInfo/publisher (LoC: publisher → originInfo/publisher)      |
 * | dates issued (else publicationYear, else the dc.date that is the publication date: never a timestamp beside another date, ../model/dates.ts) | originInfo/dateIssued/@encoding="w3cdtf" @keyDate="yes", in its precision |
 * | dc.date, the others                      | originInfo/dateOther (LoC: date → originInfo/dateIssued, dateOther), every one in its precision; a range start/end as two with @point start and end |
 * | dates accepted, available                | originInfo/dateOther/@type accepted, available (w3cdtf)          |
 * | language                                 | language/languageTerm/@type="code" @authority="rfc5646" (the BCP 47 tag) |
 * | dc.language                              | language/languageTerm (LoC: language → languageTerm): a code @type="code" @authority iso639-2b (three letters) or rfc5646, a name @type="text" |
 * | files mediaType, dc.format               | physicalDescription/internetMediaType; physicalDescription/form (LoC: format → physicalDescription) |
 * | dc.description                           | abstract (LoC: description → abstract)                             |
 * | dc.subject; dc.coverage                  | subject/topic; subject/geographic (LoC: coverage → subject)        |
 * | identifiers; the oai-identifier; the POI; other dc.identifier | identifier/@type doi, hdl, urn, ark, uri, isbn, issn; @type="oai"; @type="uri"; untyped (LoC: identifier → identifier) |
 * | identifiers URL; files                   | location/url/@access "object in context"; location/url/@access "raw object" |
 * | dc.source                                | relatedItem/@type="original" titleInfo/title (LoC: source → relatedItem original); a bibliographic citation (citation-facts.ts `citationSource`: volume, issue or pages, as DSpace and the DRIVER guidelines write the journal there) of a record without `host` is the host, relatedItem/@type="host" |
 * | dc.relation; relatedIdentifiers          | relatedItem titleInfo/title (LoC: relation → relatedItem); relatedItem/@type from the relation (host, constituent, otherVersion, …), and @otherType @otherTypeAuth="datacite" the relation where @type does not say it alone, identifier/@type |
 * | host                                     | relatedItem/@type="host": titleInfo/title; part: detail/@type volume and issue (number), extent/@unit="pages" start, end (MODS User Guidelines, relatedItem and part) |
 * | dc.rights; license                       | accessCondition/@type="use and reproduction" (LoC: rights → accessCondition); with @xlink:href the licence URI |
 * | accessRights, dates.embargoEnd           | accessCondition/@type="restriction on access" @xlink:href the COAR URI, text the label (and "until" the embargo end) |
 * | fundingReferences                        | name/@type="corporate" role "funder" (MARC relator fnd); note/@type="funding" the award number, the award title, each as given |
 */
import type { Agent, RecordFields, RelatedIdentifier } from '../model/record';
import { ACCESS_RIGHTS, COAR_RESOURCE_TYPE_PREFIX } from '../model/vocabularies';
import { DCMI_OF_TYPE_OF_RESOURCE } from '../model/type-crosswalks';
import { contributors, creators, dcValues, formats, publisher, titles } from '../model/facts';
import { bibliographicType, coarType } from '../model/type-facts';
import { citationSource } from '../model/citation-facts';
import { isTimestamp, parseW3cdtf, publicationDateAmong } from '../model/dates';
import { normalizeLanguageTag } from '../model/language';
import { otherDcIdentifiers, type CrosswalkContext, type CrosswalkResult } from './format';
import type { MetadataFormat } from './format';
import { leaf, rootOpen, wrap } from './xml-out';
import { modsOwnId, readMods, RELATION_OF_ITEM_TYPE } from './mods-read';

export const MODS_NS = 'http://www.loc.gov/mods/v3';
export const MODS_SCHEMA = 'http://www.loc.gov/standards/mods/v3/mods-3-7.xsd';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

// MODS identifier/@type: the Standard Identifier Source Codes the MODS guidelines point to.
const ID_TYPE = { DOI: 'doi', Handle: 'hdl', URN: 'urn', ARK: 'ark', URL: 'uri', ISBN: 'isbn', ISSN: 'issn' } as const;

/** relatedItem/@type for a DataCite relation, where MODS has one; the others go in @otherType. */
export const RELATED_ITEM_TYPE: Partial<Record<RelatedIdentifier['relation'], string>> = {
  IsPartOf: 'host',
  IsPublishedIn: 'host',
  HasPart: 'constituent',
  Continues: 'preceding',
  IsContinuedBy: 'succeeding',
  IsVersionOf: 'otherVersion',
  HasVersion: 'otherVersion',
  IsNewVersionOf: 'otherVersion',
  IsPreviousVersionOf: 'otherVersion',
  IsVariantFormOf: 'original',
  IsOriginalFormOf: 'otherFormat',
  IsDerivedFrom: 'original',
  References: 'references',
  Cites: 'references',
  IsReferencedBy: 'isReferencedBy',
  IsCitedBy: 'isReferencedBy',
  Reviews: 'reviewOf',
};

/** identifier/@type of a related identifier (the Standard Identifier Source Codes); a type they do not name (EISSN, PURL, arXiv, …) is written in DataCite's word, which the reader takes back. */
const RELATED_ID_TYPE: Partial<Record<RelatedIdentifier['type'], string>> = {
  DOI: 'doi',
  Handle: 'hdl',
  URN: 'urn',
  ARK: 'ark',
  URL: 'uri',
  ISBN: 'isbn',
  ISSN: 'issn',
  LISSN: 'issn-l',
};

/**
 * The host of a record as a MODS relatedItem of type host, where a journal
 * article's citation goes: the container's title, and the part it takes
 * there (volume and issue details, the page extent); '' without `host`.
 *
 * @example hostItem({ dc: {}, host: { title: 'Chemistry', volume: '23', startPage: '7444' } })
 * // '<relatedItem type="host"><titleInfo><title>Chemistry</title></titleInfo><part><detail type="volume"><number>23</number></detail><extent unit="pages"><start>7444</start></extent></part></relatedItem>'
 */
export function hostItem(record: RecordFields): string {
  const h = record.host;
  if (h === undefined) return '';
  const detail = (type: string, v: string | undefined): string => (v !== undefined ? wrap('detail', [leaf('number', v)], ['type', type]) : '');
  return wrap(
    'relatedItem',
    [
      h.title !== undefined ? wrap('titleInfo', [leaf('title', h.title)]) : '',
      wrap('part', [
        detail('volume', h.volume),
        detail('issue', h.issue),
        wrap('extent', [h.startPage !== undefined ? leaf('start', h.startPage) : '', h.endPage !== undefined ? leaf('end', h.endPage) : ''], ['unit', 'pages']),
      ]),
    ],
    ['type', 'host'],
  );
}

/**
 * A date element in W3CDTF (MODS `encoding="w3cdtf"`), or a range
 * `start/end` (ISO 8601 time interval, as a reader of MODS writes a range
 * given by `point`) as two elements with `point="start"` and `point="end"`
 * (MODS User Guidelines, originInfo: "point").
 */
function modsDate(element: string, value: string, key: boolean): string {
  const w3cdtf = (d: string): string | undefined => (parseW3cdtf(d) !== null ? 'w3cdtf' : undefined);
  const range = /^([^/]+)\/([^/]+)$/.exec(value);
  if (range !== null && parseW3cdtf(range[1]!) !== null && parseW3cdtf(range[2]!) !== null)
    return (
      leaf(element, range[1]!, ['encoding', 'w3cdtf'], ['point', 'start'], ['keyDate', key ? 'yes' : undefined]) +
      leaf(element, range[2]!, ['encoding', 'w3cdtf'], ['point', 'end'])
    );
  return leaf(element, value, ['encoding', w3cdtf(value)], ['keyDate', key ? 'yes' : undefined]);
}

/**
 * A dc:language value as a MODS languageTerm: a language code as a code
 * (`type="code"`; three letters `authority="iso639-2b"`, MARC's and MODS's
 * list, any other BCP 47 tag `authority="rfc5646"`), a language's name as
 * text.
 *
 * @example languageTerm('en') // '<languageTerm type="code" authority="rfc5646">en</languageTerm>'
 */
export function languageTerm(value: string): string {
  const tag = normalizeLanguageTag(value);
  if (tag === null) return leaf('languageTerm', value, ['type', 'text']);
  return leaf('languageTerm', tag, ['type', 'code'], ['authority', /^[a-z]{3}$/.test(tag) ? 'iso639-2b' : 'rfc5646']);
}

/**
 * The dc:type values the typeOfResource already says, in the words the
 * reader (./mods-read.ts) gives back for it: the DCMI Type of the
 * typeOfResource (LC's MODS to Dublin Core mapping) and `manuscript`, unless
 * the COAR genre restates that typeOfResource (then the reader reads none).
 */
function restatedTypes(record: RecordFields, bt: { typeOfResource?: string; manuscript?: boolean }): ReadonlySet<string> {
  // A COAR type gives the typeOfResource (bibliographicType), which its genre then restates.
  if (bt.typeOfResource === undefined || coarType(record) !== undefined) return new Set();
  const dcmi = DCMI_OF_TYPE_OF_RESOURCE[bt.typeOfResource];
  return new Set([...(dcmi !== undefined ? [dcmi] : []), ...(bt.manuscript === true ? ['manuscript'] : [])]);
}

/** Why a record cannot be a MODS record (no title), or null. @example modsLacks({ dc: { title: ['T'] } }) // null */
export function modsLacks(record: RecordFields): string | null {
  return titles(record).length === 0 ? 'MODS needs a title (titleInfo)' : null;
}

function name(a: Agent, role: string): string {
  const type = a.nameType === 'person' ? 'personal' : a.nameType === 'organization' ? 'corporate' : undefined;
  const parts =
    a.givenName !== undefined || a.familyName !== undefined
      ? [
          a.familyName !== undefined ? leaf('namePart', a.familyName, ['type', 'family']) : '',
          a.givenName !== undefined ? leaf('namePart', a.givenName, ['type', 'given']) : '',
          leaf('displayForm', a.name),
        ]
      : [leaf('namePart', a.name)];
  return wrap(
    'name',
    [
      ...parts,
      a.orcid !== undefined ? leaf('nameIdentifier', `https://orcid.org/${a.orcid}`, ['type', 'orcid']) : '',
      ...(a.affiliations ?? []).map((af) => leaf('affiliation', af.name)),
      wrap('role', [leaf('roleTerm', role, ['type', 'text'])]),
    ],
    ['type', type],
  );
}

/**
 * Crosswalks a record to a MODS 3.7 record, or says why the item lacks it.
 *
 * @example
 * recordToMods({ dc: { title: ['T'] } }, { oaiIdentifier: 'oai:x.org:1', options: {} })
 * // → '<mods xmlns="http://www.loc.gov/mods/v3" … version="3.7"><titleInfo><title>T</title></titleInfo>…</mods>'
 */
export function recordToMods(record: RecordFields, ctx: CrosswalkContext): CrosswalkResult {
  const lacks = modsLacks(record);
  if (lacks !== null) return { notOffered: lacks };
  const ts = titles(record);
  const rt = record.resourceType;
  const coar = coarType(record);
  const dates = record.dates ?? {};
  // The typed date or year, else the dc:date that is the publication date by what it is (never a system's
  // timestamp beside it: ../model/dates.ts); a year derived from a dc:date would cut that date to its year.
  const typedIssued = dates.issued ?? record.publicationYear;
  const issued = typedIssued ?? publicationDateAmong(dcValues(record, 'date'));
  const dcDates = dcValues(record, 'date').filter((d) => d !== issued);
  const lead = issued === undefined ? dcDates.find((d) => !isTimestamp(d)) : undefined;
  const bt = bibliographicType(record);
  const restated = restatedTypes(record, bt);
  const pub = publisher(record);
  const access = record.accessRights === undefined ? undefined : ACCESS_RIGHTS[record.accessRights];
  const urls = (record.identifiers ?? []).filter((i) => i.type === 'URL').map((i) => i.value);
  const otherIds = otherDcIdentifiers(record, ctx);
  return [
    rootOpen(
      'mods',
      [
        ['xmlns', MODS_NS],
        ['xmlns:xlink', XLINK_NS],
      ],
      `${MODS_NS} ${MODS_SCHEMA}`,
      ['version', '3.7'],
    ),
    ...ts.map((t, i) => wrap('titleInfo', [leaf('title', t)], ['type', i === 0 ? undefined : 'alternative'])),
    ...creators(record).map((c) => name(c, 'creator')),
    ...contributors(record).map((c) => name(c, c.type === 'Other' ? 'contributor' : c.type.toLowerCase())),
    // The funder as a name in the role funder (MARC relator fnd), as the reader takes it.
    ...(record.fundingReferences ?? []).map((f) => name({ name: f.funderName, nameType: 'organization' }, 'funder')),
    bt.typeOfResource !== undefined ? leaf('typeOfResource', bt.typeOfResource, ['manuscript', bt.manuscript === true ? 'yes' : undefined]) : '',
    coar?.marcgt !== undefined ? leaf('genre', coar.marcgt, ['authority', 'marcgt']) : '',
    rt?.coar !== undefined
      ? leaf('genre', rt.label, ['authorityURI', COAR_RESOURCE_TYPE_PREFIX], ['valueURI', rt.coar])
      : rt !== undefined
        ? leaf('genre', rt.label)
        : '',
    ...dcValues(record, 'type')
      .filter((t) => !restated.has(t))
      .map((t) => leaf('genre', t)),
    wrap('originInfo', [
      // LoC: Publisher → originInfo/publisher, every one.
      ...[...new Set([...(pub !== undefined ? [pub] : []), ...dcValues(record, 'publisher')])].map((p) => leaf('publisher', p)),
      issued !== undefined ? modsDate('dateIssued', issued, true) : '',
      // LC's Dublin Core to MODS mapping: Date → dateIssued, dateOther. The publication date is dateIssued, the
      // key date; every other date (an accession timestamp, DataCite's Created or Updated) is dateOther.
      // With no publication date known, the first date that is not a timestamp (a range, text) is dateIssued as
      // LoC maps it, and the key date; a timestamp never is.
      ...dcDates.map((d) => (d === lead ? modsDate('dateIssued', d, true) : modsDate('dateOther', d, false))),
      dates.accepted !== undefined ? leaf('dateOther', dates.accepted, ['type', 'accepted'], ['encoding', 'w3cdtf']) : '',
      dates.available !== undefined ? leaf('dateOther', dates.available, ['type', 'available'], ['encoding', 'w3cdtf']) : '',
    ]),
    record.language !== undefined ? wrap('language', [leaf('languageTerm', record.language, ['type', 'code'], ['authority', 'rfc5646'])]) : '',
    ...dcValues(record, 'language')
      .filter((l) => l !== record.language)
      .map((l) => wrap('language', [languageTerm(l)])),
    wrap('physicalDescription', [...formats(record).map((f) => (/^[\w.+-]+\/[\w.+-]+$/.test(f) ? leaf('internetMediaType', f) : leaf('form', f)))]),
    ...dcValues(record, 'description').map((d) => leaf('abstract', d)),
    ...dcValues(record, 'subject').map((s) => wrap('subject', [leaf('topic', s)])),
    ...dcValues(record, 'coverage').map((c) => wrap('subject', [leaf('geographic', c)])),
    ...(record.identifiers ?? []).map((i) => leaf('identifier', i.value, ['type', ID_TYPE[i.type]])),
    leaf('identifier', ctx.oaiIdentifier, ['type', 'oai']),
    ctx.poi !== undefined ? leaf('identifier', ctx.poi, ['type', 'uri']) : '',
    ...otherIds.map((v) => leaf('identifier', v)),
    wrap('location', [
      ...urls.map((u) => leaf('url', u, ['access', 'object in context'])),
      ...(record.files ?? []).map((f) => leaf('url', f.url, ['access', 'raw object'])),
    ]),
    ...dcValues(record, 'source').map((s) =>
      wrap('relatedItem', [wrap('titleInfo', [leaf('title', s)])], ['type', record.host === undefined && s === citationSource(record) ? 'host' : 'original']),
    ),
    ...dcValues(record, 'relation').map((r) => wrap('relatedItem', [wrap('titleInfo', [leaf('title', r)])])),
    ...(record.relatedIdentifiers ?? []).map((r) => {
      const type = RELATED_ITEM_TYPE[r.relation];
      // Where @type stands for several relations (host for IsPartOf and IsPublishedIn), @otherType keeps DataCite's word
      // (MODS 3.6+: otherType with otherTypeAuth names the relationship in another vocabulary).
      const exact = type !== undefined && RELATION_OF_ITEM_TYPE[type] === r.relation;
      return wrap(
        'relatedItem',
        [leaf('identifier', r.identifier, ['type', RELATED_ID_TYPE[r.type] ?? r.type])],
        ['type', type],
        ['otherType', exact ? undefined : r.relation],
        ['otherTypeAuth', exact ? undefined : 'datacite'],
      );
    }),
    hostItem(record),
    ...dcValues(record, 'rights').map((r) => leaf('accessCondition', r, ['type', 'use and reproduction'])),
    record.license !== undefined ? leaf('accessCondition', record.license, ['type', 'use and reproduction'], ['xlink:href', record.license]) : '',
    access !== undefined
      ? leaf(
          'accessCondition',
          dates.embargoEnd !== undefined ? `${access.label} until ${dates.embargoEnd}` : access.label,
          ['type', 'restriction on access'],
          ['xlink:href', access.uri],
        )
      : '',
    // Each value as given, never joined into one: MODS has no award element, so the award's number and title are funding notes.
    ...(record.fundingReferences ?? []).flatMap((f) =>
      [f.awardNumber, f.awardTitle].filter((x) => x !== undefined).map((x) => leaf('note', x, ['type', 'funding'])),
    ),
    '</mods>',
  ].join('');
}

/** The mods entry of the format registry. */
export const mods: MetadataFormat = {
  prefix: 'mods',
  schema: MODS_SCHEMA,
  namespace: MODS_NS,
  builtIn: true,
  fromRecord: recordToMods,
  lacks: modsLacks,
  read: readMods,
  collection: { container: 'modsCollection', record: 'mods', ownId: modsOwnId },
};
