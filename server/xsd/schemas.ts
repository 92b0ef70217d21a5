/**
 * XSD validation of one element against a published schema, offline: the
 * schema is found by its URL through the XML catalog (schemas/catalog.xml),
 * never fetched. A small wrapper schema imports the element's namespace from
 * that URL and accepts any global element of it, strictly validated, so the
 * caller need not know which element is the root.
 */
import type { Document } from 'libxmljs2';
import { libxml } from './libxml';

/** The namespace of the wrapper schemas' `batch` element; never seen outside validation. */
export const WRAPPER_NS = 'urn:oai-steward:loader-batch';

const compiled = new Map<string, Document | Error>();

/**
 * The compiled wrapper schema for a namespace and schema URL, or an Error
 * whose message is libxml2's reason it cannot be read offline (the caller
 * says what it was for). Compiled once per process.
 *
 * @example schemaFor('http://www.openarchives.org/OAI/2.0/friends/', 'http://www.openarchives.org/OAI/2.0/friends.xsd')
 */
export function schemaFor(namespace: string, schemaUrl: string): Document | Error {
  const key = `${namespace} ${schemaUrl}`;
  let s = compiled.get(key);
  if (s) return s;
  const wrapper =
    `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${WRAPPER_NS}" elementFormDefault="qualified">` +
    `<xs:import namespace="${attr(namespace)}" schemaLocation="${attr(schemaUrl)}"/>` +
    `<xs:element name="batch"><xs:complexType><xs:sequence>` +
    `<xs:any namespace="${attr(namespace)}" processContents="strict" minOccurs="0" maxOccurs="unbounded"/>` +
    `</xs:sequence></xs:complexType></xs:element></xs:schema>`;
  try {
    s = libxml().parseXml(wrapper, { nonet: true });
    // Compile now, so a schema missing from the catalog is one clear error.
    libxml().parseXml(`<b:batch xmlns:b="${WRAPPER_NS}"/>`, { nonet: true }).validate(s);
  } catch (err) {
    s = new Error(oneLine((err as Error).message));
  }
  compiled.set(key, s);
  return s;
}

/**
 * Every problem of one serialized element against the schema of its
 * namespace: not well-formed, not valid, or a schema that cannot be read.
 * Empty when valid.
 *
 * @example elementErrors('<friends xmlns="http://www.openarchives.org/OAI/2.0/friends/"/>', FRIENDS_NS, FRIENDS_XSD) // []
 */
export function elementErrors(xml: string, namespace: string, schemaUrl: string): string[] {
  const schema = schemaFor(namespace, schemaUrl);
  if (schema instanceof Error) return [`the schema ${schemaUrl} cannot be read offline (is it in schemas/catalog.xml?): ${schema.message}`];
  let doc: Document;
  try {
    // A prefixed wrapper element: an unprefixed root must not inherit a default namespace.
    doc = libxml().parseXml(`<b:batch xmlns:b="${WRAPPER_NS}">${xml}</b:batch>`, { nonet: true });
  } catch (err) {
    return [`not well-formed XML: ${oneLine((err as Error).message)}`];
  }
  if (doc.validate(schema)) return [];
  // libxml2 adds its schema-compilation notes (a namespace imported twice) to a failed validation's errors.
  return doc.validationErrors.filter((e) => !/Skipping import of schema/.test(e.message)).map((e) => oneLine(e.message));
}

function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** libxml2's messages end with a newline and sometimes span lines. */
export function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
