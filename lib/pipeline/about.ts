/**
 * The `about` containers oai-steward writes itself (OAI-PMH 2.0 section 2.5:
 * "an optional and repeatable container to hold data about the metadata
 * part of the record"):
 *
 * - provenance (OAI-PMH implementation guidelines, "XML schema to hold
 *   provenance information in the about part of a record",
 *   provenance.xsd): one `originDescription` per harvest, the earlier
 *   provenance nested inside the latest;
 * - rights (OAI-PMH implementation guidelines for expressing rights,
 *   rights.xsd): a `rightsReference` whose `ref` is the URI of the licence
 *   that applies to the metadata's resource.
 *
 * Pure: strings in, strings out.
 */
import type { AboutInput } from '../store';
import { parseUtcDatetime } from '../oai/dates';
import { escapeAttr, escapeText } from '../xml/chars';
import { parseFragment, type XmlElement } from '../xml/tree';
import { PROVENANCE_NS, PROVENANCE_SCHEMA, RIGHTS_NS, RIGHTS_SCHEMA, XSI_NS } from '../xml/namespaces';

const XSI = `xmlns:xsi="${XSI_NS}"`;

/** What one harvest says about where a record came from (the provenance guidelines' originDescription). */
export interface OriginDescription {
  /** The responseDate of the response the record was read from, as written there (its granularity kept). */
  readonly harvestDate: string;
  /** Whether the metadata disseminated differs from the metadata harvested. */
  readonly altered: boolean;
  /** The baseURL of the repository harvested (the response's `request` element). */
  readonly baseURL: string;
  /** The record's identifier there. */
  readonly identifier: string;
  /**
   * Its datestamp there, as written (its granularity kept) when it is a UTC
   * date or datetime; else what stands for it (see {@link sourceDatestamp}),
   * with the value as written in `givenDatestamp`.
   */
  readonly datestamp: string;
  /** The datestamp as the source wrote it, when it is not one provenance.xsd allows (kept only to compare versions by). */
  readonly givenDatestamp?: string;
  /** The namespace of the metadata format harvested. */
  readonly metadataNamespace: string;
}

function originBody(o: Omit<OriginDescription, 'harvestDate'>, nested: string, datestamp: string = o.datestamp): string {
  return (
    `<baseURL>${escapeText(o.baseURL)}</baseURL><identifier>${escapeText(o.identifier)}</identifier>` +
    `<datestamp>${escapeText(datestamp)}</datestamp><metadataNamespace>${escapeText(o.metadataNamespace)}</metadataNamespace>${nested}`
  );
}

const COMPACT_DAY = /^(\d{4})(\d{2})(\d{2})$/;
const COMPACT_SECOND = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

/**
 * A source's header datestamp as this store reads it: a UTC date or
 * datetime of OAI-PMH 2.0 section 3.3.1 as it is; ISO 8601's basic format of
 * one (`20210311`, `20210311T101500Z`, which a Harvard MODS source writes) as
 * the same instant in the extended format the protocol and provenance.xsd
 * require; anything else (`2024-13-45`, `yesterday`) null. A datestamp is this
 * store's time, never a source's (lib/pipeline/decide.ts `datestampOf`), so
 * null is no reason to refuse a record: the store stamps it, and its
 * provenance says what stands for the value (see {@link provenanceAbout}).
 *
 * @example sourceDatestamp('20210311') // { value: '2021-03-11', seconds: 1615420800 }
 * @example sourceDatestamp('yesterday') // null
 */
export function sourceDatestamp(given: string): { value: string; seconds: number } | null {
  const text = given.trim();
  const day = COMPACT_DAY.exec(text);
  const second = COMPACT_SECOND.exec(text);
  const value = day ? `${day[1]}-${day[2]}-${day[3]}` : second ? `${second[1]}-${second[2]}-${second[3]}T${second[4]}:${second[5]}:${second[6]}Z` : text;
  const parsed = parseUtcDatetime(value);
  return parsed === null ? null : { value, seconds: parsed.start };
}

/**
 * The provenance container of a harvested record: this harvest's
 * originDescription, with `nested` (the serialized originDescription the
 * record already carried, if any) inside it, as the guidelines chain them.
 * `compareAs` leaves out the harvestDate: the same record read again from a
 * later harvest is the same record.
 *
 * provenance.xsd requires `datestamp`, a UTC date or datetime, so a source
 * datestamp {@link sourceDatestamp} cannot read (`yesterday`) cannot stand
 * there as written, and leaving the element out would make every response
 * carrying the record invalid. The caller puts the harvestDate in its place
 * (the response's responseDate: the latest moment the record can have had
 * at its source, since a repository's datestamps are never later than its
 * response) and the value as written in `givenDatestamp`, which the record's
 * content is compared by and the run's warnings name.
 *
 * @example provenanceAbout({ harvestDate: '2002-02-08T08:55:46Z', altered: false, baseURL: 'http://odd.oa.org', identifier: 'oai:odd.oa.org:z1x2y3', datestamp: '1999-08-07', metadataNamespace: 'http://www.openarchives.org/OAI/2.0/oai_dc/' }).xml
 * // '<provenance xmlns="http://www.openarchives.org/OAI/2.0/provenance" …><originDescription harvestDate="2002-02-08T08:55:46Z" altered="false">…'
 */
export function provenanceAbout(origin: OriginDescription, nested = ''): AboutInput {
  const open = `<provenance xmlns="${PROVENANCE_NS}" ${XSI} xsi:schemaLocation="${PROVENANCE_NS} ${PROVENANCE_SCHEMA}">`;
  const body = originBody(origin, nested);
  // A datestamp that stands for one the source wrote malformed (the harvestDate) compares as the value
  // written, so the same record harvested again, its datestamp as malformed as before, is no change.
  const compared = origin.givenDatestamp === undefined ? body : originBody(origin, nested, origin.givenDatestamp);
  return {
    xml: `${open}<originDescription harvestDate="${escapeAttr(origin.harvestDate)}" altered="${String(origin.altered)}">${body}</originDescription></provenance>`,
    compareAs: `${open}<originDescription altered="${String(origin.altered)}">${compared}</originDescription></provenance>`,
  };
}

/**
 * The originDescription of a provenance container, serialized to be nested
 * in a new one (with the namespace declared on it), or null when the
 * container is not provenance.
 *
 * @example nestedOrigin('<provenance xmlns="http://www.openarchives.org/OAI/2.0/provenance"><originDescription …>…</originDescription></provenance>')
 */
export function nestedOrigin(xml: string): string | null {
  const root = parseFragment(xml);
  if (!root || root.ns !== PROVENANCE_NS || root.local !== 'provenance') return null;
  const origin = root.children.find((c): c is XmlElement => c.kind === 'element' && c.ns === PROVENANCE_NS && c.local === 'originDescription');
  return origin ? serialize(origin, true) : null;
}

/**
 * Where a harvested record came from: the baseURL and the identifier of the
 * latest originDescription of its provenance container; null for a record
 * without one.
 *
 * @example harvestedFrom([provenanceXml]) // { baseURL: 'http://odd.oa.org', identifier: 'oai:odd.oa.org:z1x2y3' }
 */
export function harvestedFrom(about: readonly string[]): { baseURL: string; identifier: string } | null {
  for (const xml of about) {
    const root = parseFragment(xml);
    if (!root || root.ns !== PROVENANCE_NS || root.local !== 'provenance') continue;
    const origin = root.children.find((c): c is XmlElement => c.kind === 'element' && c.ns === PROVENANCE_NS && c.local === 'originDescription');
    const text = (local: string): string =>
      origin?.children
        .find((c): c is XmlElement => c.kind === 'element' && c.local === local)
        ?.children.map((c) => (c.kind === 'text' ? c.text : ''))
        .join('')
        .trim() ?? '';
    const baseURL = text('baseURL');
    const identifier = text('identifier');
    if (baseURL !== '' && identifier !== '') return { baseURL, identifier };
  }
  return null;
}

/** Writes a parsed element again, every element in the provenance namespace unprefixed. */
function serialize(e: XmlElement, root: boolean): string {
  const attrs = [...e.attrs].map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join('');
  const ns = root ? ` xmlns="${PROVENANCE_NS}"` : '';
  const inner = e.children.map((c) => (c.kind === 'text' ? escapeText(c.text) : serialize(c, false))).join('');
  return `<${e.local}${ns}${attrs}>${inner}</${e.local}>`;
}

/**
 * A rights container referring to a licence (rights.xsd, `rightsReference`).
 *
 * @example rightsAbout('https://creativecommons.org/licenses/by/4.0/').xml
 * // '<rights xmlns="http://www.openarchives.org/OAI/2.0/rights/" …><rightsReference ref="https://creativecommons.org/licenses/by/4.0/"/></rights>'
 */
export function rightsAbout(licence: string): AboutInput {
  return {
    xml: `<rights xmlns="${RIGHTS_NS}" ${XSI} xsi:schemaLocation="${RIGHTS_NS} ${RIGHTS_SCHEMA}"><rightsReference ref="${escapeAttr(licence)}"></rightsReference></rights>`,
  };
}

/** The namespace of an about container's root element, or null when it is not one well-formed element. */
export function aboutNamespace(xml: string): string | null {
  return parseFragment(xml)?.ns ?? null;
}
