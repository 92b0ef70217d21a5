/**
 * Renders a response value as an OAI-PMH 2.0 document, in schema order
 * (OAI-PMH 3.2). The envelope is written as escaped text directly: it is the
 * hot path of every harvest, and the metadata it wraps is already serialized
 * XML, stored at load time, which is spliced in as it is.
 *
 * Output safety: whatever the store holds, nothing but well-formed
 * XML 1.0 leaves the server. Text and attribute values go through
 * escapeText/escapeAttr (characters XML cannot carry become U+FFFD). Every
 * spliced fragment (a record's metadata, a set's or Identify's description)
 * first passes checkFragment, one linear scan (about as costly as encoding
 * the record to UTF-8). A fragment that fails was corrupted behind the write
 * path's back (the write path refuses it): the record is then rendered as its
 * header alone, `<record><header>…</header></record>` (OAI-PMH.xsd allows a
 * record without metadata), the description is left out, and `onCorrupt` is
 * told (the server logs an error naming the identifier) so an operator can
 * reload it. Answering with the header keeps the harvest's paging and
 * cursors intact; dropping the record or failing the whole page would make
 * one bad row hide its neighbours.
 */
import { bytesOf } from '../xml/byte-sink';
import { escapeAttr, escapeText } from '../xml/chars';
import { checkFragment } from '../xml/fragment';
import { isSurelyAnyUri } from '../xml/any-uri';
import { formatDatestamp } from './dates';
import type { OaiResponse, ResumptionInfo } from './response';
import { OAI_NS, OAI_SCHEMA, XSI_NS } from '../xml/namespaces';
import type { ItemHeader, ItemRecord } from '../store';

/** Re-exported for readers that still import it from here; the home is ./namespaces. */
const ROOT = `<OAI-PMH xmlns="${OAI_NS}" xmlns:xsi="${XSI_NS}" xsi:schemaLocation="${OAI_NS} ${OAI_SCHEMA}">`;

/** Options of the writer. */
export interface RenderOptions {
  /**
   * Told about every stored fragment left out because it is not a
   * well-formed XML element: `where` names it (an oai-identifier and prefix,
   * or a set), `reason` says what is wrong.
   */
  readonly onCorrupt?: (where: string, reason: string) => void;
}

/** Prefixes the envelope declares, which spliced fragments may use without declaring them. */
const ENVELOPE_PREFIXES = ['xsi'];

/** The fragment if it can be spliced as it is, else null (after telling `onCorrupt`). */
function safeFragment(xml: string, where: string, options: RenderOptions): string | null {
  const problem = checkFragment(xml, ENVELOPE_PREFIXES);
  if (problem === null) return xml;
  options.onCorrupt?.(where, problem);
  return null;
}

/**
 * Renders a whole response document. Example: an Identify response value
 * becomes `<?xml version="1.0" encoding="UTF-8"?>…<OAI-PMH …><responseDate>…`.
 */
export function renderResponse(res: OaiResponse, options: RenderOptions = {}): string {
  const out: string[] = [];
  writeResponse(out, res, options);
  return out.join('');
}

/**
 * The same document as {@link renderResponse}, as the UTF-8 bytes a server
 * sends, written straight into a buffer (../xml/byte-sink.ts says what that saves).
 *
 * @example renderResponseBytes(response).equals(Buffer.from(renderResponse(response), 'utf8')) // true
 */
export function renderResponseBytes(res: OaiResponse, options: RenderOptions = {}): Buffer {
  return bytesOf((out) => writeResponse(out, res, options));
}

/** Where the writer puts its pieces: an array of strings, or a {@link ByteSink}. */
interface Out {
  push(...pieces: string[]): void;
}

/** What a document says before its body: when it was made, and the request it answers. */
type Envelope = Pick<OaiResponse, 'responseDate' | 'requestArgs' | 'baseURL'>;

function writeEnvelope(out: Out, res: Envelope): void {
  out.push('<?xml version="1.0" encoding="UTF-8"?>\n');
  out.push(ROOT, '\n<responseDate>', formatDatestamp(res.responseDate), '</responseDate>\n<request');
  if (res.requestArgs) {
    for (const [k, v] of Object.entries(res.requestArgs)) {
      // OAI-PMH.xsd: request/@identifier is anyURI. An unknown identifier that is not even a URI is still
      // idDoesNotExist (OAI-PMH 3.6: "unknown or illegal"), but echoing it would make the answer invalid.
      if (v !== undefined && (k !== 'identifier' || isSurelyAnyUri(v))) out.push(' ', k, '="', escapeAttr(v), '"');
    }
  }
  out.push('>', escapeText(res.baseURL), '</request>\n');
}

/**
 * A ListRecords document too long to hold in memory (a bulk dump), in three
 * parts a writer streams one after the other: its opening (the envelope up
 * to `<ListRecords>`), the records a page at a time ({@link recordsBytes}),
 * and {@link LIST_RECORDS_CLOSING}. Together they are exactly what
 * {@link renderResponseBytes} writes for a ListRecords response holding all
 * those records and no resumptionToken (OAI-PMH 3.5: an incomplete list
 * ends with one; a complete list in one response needs none).
 *
 * @example listRecordsOpening({ responseDate: 0, baseURL: 'http://x/oai', requestArgs: { verb: 'ListRecords', metadataPrefix: 'oai_dc' } })
 */
export function listRecordsOpening(envelope: Envelope): Buffer {
  return bytesOf((out) => {
    writeEnvelope(out, envelope);
    out.push('<ListRecords>\n');
  });
}

/** The records of a ListRecords document, as {@link listRecordsOpening} says. */
export function recordsBytes(records: readonly ItemRecord[], options: RenderOptions = {}): Buffer {
  return bytesOf((out) => {
    for (const r of records) writeRecord(out, r, options);
  });
}

/** The end of a ListRecords document begun with {@link listRecordsOpening}. */
export const LIST_RECORDS_CLOSING = '</ListRecords>\n</OAI-PMH>\n';

function writeResponse(out: Out, res: OaiResponse, options: RenderOptions): void {
  writeEnvelope(out, res);
  const body = res.body;
  switch (body.kind) {
    case 'errors':
      for (const e of body.errors) out.push('<error code="', e.code, '">', escapeText(e.message), '</error>\n');
      break;
    case 'Identify': {
      const i = body.identify;
      out.push('<Identify>\n<repositoryName>', escapeText(i.repositoryName), '</repositoryName>\n');
      out.push('<baseURL>', escapeText(i.baseURL), '</baseURL>\n<protocolVersion>2.0</protocolVersion>\n');
      for (const a of i.adminEmails) out.push('<adminEmail>', escapeText(a), '</adminEmail>\n');
      out.push('<earliestDatestamp>', formatDatestamp(i.earliestDatestamp), '</earliestDatestamp>\n');
      out.push('<deletedRecord>', i.deletedRecord, '</deletedRecord>\n<granularity>YYYY-MM-DDThh:mm:ssZ</granularity>\n');
      for (const c of i.compression) out.push('<compression>', escapeText(c), '</compression>\n');
      for (const d of i.descriptions) {
        const safe = safeFragment(d, 'Identify description', options);
        if (safe !== null) out.push('<description>', safe, '</description>\n');
      }
      out.push('</Identify>\n');
      break;
    }
    case 'GetRecord':
      out.push('<GetRecord>');
      writeRecord(out, body.record, options);
      out.push('</GetRecord>\n');
      break;
    case 'ListRecords':
      out.push('<ListRecords>\n');
      for (const r of body.records) writeRecord(out, r, options);
      writeResumption(out, body.resumption);
      out.push('</ListRecords>\n');
      break;
    case 'ListIdentifiers':
      out.push('<ListIdentifiers>\n');
      for (const h of body.headers) writeHeader(out, h);
      writeResumption(out, body.resumption);
      out.push('</ListIdentifiers>\n');
      break;
    case 'ListSets':
      out.push('<ListSets>\n');
      for (const s of body.sets) {
        out.push('<set><setSpec>', escapeText(s.spec), '</setSpec><setName>', escapeText(s.name), '</setName>');
        for (const d of s.descriptions) {
          const safe = safeFragment(d, `set ${JSON.stringify(s.spec)}`, options);
          if (safe !== null) out.push('<setDescription>', safe, '</setDescription>');
        }
        out.push('</set>\n');
      }
      writeResumption(out, body.resumption);
      out.push('</ListSets>\n');
      break;
    case 'ListMetadataFormats':
      out.push('<ListMetadataFormats>\n');
      for (const f of body.formats) {
        out.push('<metadataFormat><metadataPrefix>', escapeText(f.prefix), '</metadataPrefix><schema>', escapeText(f.schema));
        out.push('</schema><metadataNamespace>', escapeText(f.namespace), '</metadataNamespace></metadataFormat>\n');
      }
      out.push('</ListMetadataFormats>\n');
      break;
  }
  out.push('</OAI-PMH>\n');
}

function writeHeader(out: Out, h: ItemHeader): void {
  out.push(h.deleted ? '<header status="deleted">' : '<header>');
  out.push('<identifier>', escapeText(h.identifier), '</identifier><datestamp>', formatDatestamp(h.datestamp), '</datestamp>');
  for (const s of h.sets) out.push('<setSpec>', escapeText(s), '</setSpec>');
  out.push('</header>\n');
}

function writeRecord(out: Out, r: ItemRecord, options: RenderOptions): void {
  out.push('<record>');
  writeHeader(out, r);
  // OAI-PMH 2.5.1: a deleted record has a header and no metadata. Corrupt metadata: the header alone (see the top).
  if (!r.deleted && r.metadata !== null) {
    // Stored bytes are checked; metadata a writer wrote for this response is well-formed by construction.
    const safe = r.written === true ? r.metadata : safeFragment(r.metadata, `${r.identifier} metadata`, options);
    if (safe !== null) {
      out.push('<metadata>', safe, '</metadata>');
      // OAI-PMH 2.5: about containers follow the metadata they are about.
      for (const a of r.about ?? []) {
        const about = safeFragment(a, `${r.identifier} about`, options);
        if (about !== null) out.push('<about>', about, '</about>');
      }
    }
  }
  out.push('</record>\n');
}

function writeResumption(out: Out, r: ResumptionInfo | undefined): void {
  if (!r) return;
  out.push('<resumptionToken');
  if (r.expirationDate !== undefined) out.push(' expirationDate="', formatDatestamp(r.expirationDate), '"');
  // completeListSize is a positiveInteger in OAI-PMH.xsd: omitted when it would be 0.
  if (r.completeListSize > 0) out.push(' completeListSize="', String(r.completeListSize), '"');
  out.push(' cursor="', String(r.cursor), '">', escapeText(r.token), '</resumptionToken>\n');
}
