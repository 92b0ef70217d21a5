/**
 * Renders a response value as an OAI-PMH 2.0 document, in schema order
 * (OAI-PMH 3.2). The envelope is written as escaped text directly: it is the
 * hot path of every harvest, and the metadata it wraps is already serialized
 * XML, stored at load time, which is spliced in as it is.
 */
import { escapeAttr, escapeText } from './chars';
import { formatDatestamp } from '../oai/dates';
import type { OaiResponse, ResumptionInfo } from '../oai/response';
import type { ItemHeader, ItemRecord } from '../store';

const OAI_NS = 'http://www.openarchives.org/OAI/2.0/';
const ROOT =
  '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' +
  ' xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">';

/** Options of the writer. */
export interface RenderOptions {
  /** href of an XSLT stylesheet for browsers; harvesters ignore the processing instruction. */
  readonly stylesheet?: string;
}

/**
 * Renders a whole response document. Example: an Identify response value
 * becomes `<?xml version="1.0" encoding="UTF-8"?>…<OAI-PMH …><responseDate>…`.
 */
export function renderResponse(res: OaiResponse, options: RenderOptions = {}): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  if (options.stylesheet) out.push(`<?xml-stylesheet type="text/xsl" href="${escapeAttr(options.stylesheet)}"?>\n`);
  out.push(ROOT, '\n<responseDate>', formatDatestamp(res.responseDate), '</responseDate>\n<request');
  if (res.requestArgs) {
    for (const [k, v] of Object.entries(res.requestArgs)) {
      if (v !== undefined) out.push(' ', k, '="', escapeAttr(v), '"');
    }
  }
  out.push('>', escapeText(res.baseURL), '</request>\n');
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
      for (const d of i.descriptions) out.push('<description>', d, '</description>\n');
      out.push('</Identify>\n');
      break;
    }
    case 'GetRecord':
      out.push('<GetRecord>');
      writeRecord(out, body.record);
      out.push('</GetRecord>\n');
      break;
    case 'ListRecords':
      out.push('<ListRecords>\n');
      for (const r of body.records) writeRecord(out, r);
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
        for (const d of s.descriptions) out.push('<setDescription>', d, '</setDescription>');
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
  return out.join('');
}

function writeHeader(out: string[], h: ItemHeader): void {
  out.push(h.deleted ? '<header status="deleted">' : '<header>');
  out.push('<identifier>', escapeText(h.identifier), '</identifier><datestamp>', formatDatestamp(h.datestamp), '</datestamp>');
  for (const s of h.sets) out.push('<setSpec>', escapeText(s), '</setSpec>');
  out.push('</header>\n');
}

function writeRecord(out: string[], r: ItemRecord): void {
  out.push('<record>');
  writeHeader(out, r);
  // OAI-PMH 2.5.1: a deleted record has a header and no metadata.
  if (!r.deleted && r.metadata !== null) out.push('<metadata>', r.metadata, '</metadata>');
  out.push('</record>\n');
}

function writeResumption(out: string[], r: ResumptionInfo | undefined): void {
  if (!r) return;
  out.push('<resumptionToken');
  if (r.expirationDate !== undefined) out.push(' expirationDate="', formatDatestamp(r.expirationDate), '"');
  // completeListSize is a positiveInteger in OAI-PMH.xsd: omitted when it would be 0.
  if (r.completeListSize > 0) out.push(' completeListSize="', String(r.completeListSize), '"');
  out.push(' cursor="', String(r.cursor), '">', escapeText(r.token), '</resumptionToken>\n');
}

export { OAI_NS };
