/**
 * XSD validation of OAI-PMH responses, offline: every namespace a response
 * embeds is imported by schemas/oai-pmh-all.xsd and resolved through
 * schemas/catalog.xml (set in test/setup.ts before libxmljs2 loads).
 */
import fs from 'node:fs';
import path from 'node:path';
import * as libxml from 'libxmljs2';

const SCHEMAS = path.resolve(__dirname, '..', '..', 'schemas');
let schema: libxml.Document | undefined;

function loadSchema(): libxml.Document {
  if (!schema) {
    if (!process.env.XML_CATALOG_FILES) throw new Error('XML_CATALOG_FILES must be set before libxmljs2 loads (test/setup.ts)');
    const file = path.join(SCHEMAS, 'oai-pmh-all.xsd');
    schema = libxml.parseXml(fs.readFileSync(file, 'utf8'), { baseUrl: file, nonet: true });
  }
  return schema;
}

/** The validation errors of a document against OAI-PMH and everything it embeds; empty when valid. */
export function xsdErrors(xml: string): string[] {
  let doc: libxml.Document;
  try {
    doc = libxml.parseXml(xml, { nonet: true });
  } catch (err) {
    return [`not well-formed: ${(err as Error).message}`];
  }
  if (doc.validate(loadSchema())) return [];
  return doc.validationErrors.map((e) => `${e.line}:${e.column} ${e.message.trim()}`);
}

/** Throws, with the errors and the start of the document, unless the response is XSD-valid. */
export function assertValid(xml: string): void {
  const errors = xsdErrors(xml);
  if (errors.length > 0) throw new Error(`response is not valid against OAI-PMH.xsd:\n${errors.join('\n')}\n---\n${xml.slice(0, 2000)}`);
}
