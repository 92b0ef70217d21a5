/**
 * XSD validation, offline: every schema is resolved through
 * schemas/catalog.xml (set in test/setup.ts before libxmljs2 loads).
 *
 * - `xsdErrors(response)` validates an OAI-PMH response against
 *   schemas/oai-pmh-all.xsd, which imports every namespace a response embeds
 *   with oai_dc; `xsdErrors(response, prefix)` validates a response whose
 *   metadata is of another format, against OAI-PMH plus that format.
 * - `validate(metadata, prefix)` validates one metadata element on its own
 *   against its format's published schema.
 *
 * Each format has its own schema set: the OpenAIRE v4 schema declares its own
 * variant of the DataCite kernel-4 namespace, and libxml2 keeps the first
 * schema it meets for a namespace, so the two cannot share one compiled set.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as libxml from 'libxmljs2';
import { RS_NS, SITEMAP_NS } from '../../lib/xml/namespaces';

const SCHEMAS = path.resolve(__dirname, '..', '..', 'schemas');

/** The metadata formats the helper knows: prefix → the namespace of their root element and published schema address (resolved by the catalog). */
export const FORMAT_SCHEMAS = {
  oai_dc: { namespace: 'http://www.openarchives.org/OAI/2.0/oai_dc/', schema: 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd' },
  oai_openaire: { namespace: 'http://namespace.openaire.eu/schema/oaire/', schema: 'https://www.openaire.eu/schema/repo-lit/4.0/openaire.xsd' },
  datacite: { namespace: 'http://datacite.org/schema/kernel-4', schema: 'http://schema.datacite.org/meta/kernel-4/metadata.xsd' },
  oai_datacite: { namespace: 'http://schema.datacite.org/oai/oai-1.1/', schema: 'http://schema.datacite.org/oai/oai-1.1/oai.xsd' },
  marc21: { namespace: 'http://www.loc.gov/MARC21/slim', schema: 'http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd' },
  mods: { namespace: 'http://www.loc.gov/mods/v3', schema: 'http://www.loc.gov/standards/mods/v3/mods-3-7.xsd' },
  // EDM's records are rdf:RDF: their root's namespace is RDF's, whose schema is EDM.xsd (the metadataNamespace is EDM's).
  edm: { namespace: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#', schema: 'http://www.europeana.eu/schemas/edm/EDM.xsd' },
  // RIOXX's schema is XSD 1.1: libxml2 checks what it can (the catalog's rioxx-gate.xsd); schemas/rioxx-3/validate.py the rest.
  rioxx: { namespace: 'http://www.rioxx.net/schema/v3.0/rioxx/', schema: 'http://www.rioxx.net/schema/v3.0/rioxx/rioxx.xsd' },
  // qdc's records are qdc:qualifieddc in DSpace's namespace (the metadataNamespace is DCTERMS').
  qdc: { namespace: 'http://dspace.org/qualifieddc/', schema: 'http://www.ukoln.ac.uk/metadata/dcmi/xmlschema/qualifieddc.xsd' },
} as const;
export type FormatPrefix = keyof typeof FORMAT_SCHEMAS;

// The OAI-PMH namespaces of oai-pmh-all.xsd other than oai_dc: the envelope of a response in any format.
const ENVELOPE = [
  ['http://www.openarchives.org/OAI/2.0/', 'http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd'],
  ['http://www.openarchives.org/OAI/2.0/oai-identifier', 'http://www.openarchives.org/OAI/2.0/oai-identifier.xsd'],
  ['http://www.openarchives.org/OAI/2.0/friends/', 'http://www.openarchives.org/OAI/2.0/friends.xsd'],
  ['http://www.openarchives.org/OAI/2.0/branding/', 'http://www.openarchives.org/OAI/2.0/branding.xsd'],
  ['http://www.openarchives.org/OAI/1.1/eprints', 'http://www.openarchives.org/OAI/1.1/eprints.xsd'],
  ['http://www.openarchives.org/OAI/2.0/rights/', 'http://www.openarchives.org/OAI/2.0/rightsManifest.xsd'],
  ['http://www.openarchives.org/OAI/2.0/provenance', 'http://www.openarchives.org/OAI/2.0/provenance.xsd'],
  ['http://www.openarchives.org/OAI/2.0/gateway/', 'http://www.openarchives.org/OAI/2.0/gateway.xsd'],
  ['https://oai-steward.org/ns/publication-log/1.0/', 'https://oai-steward.org/ns/publication-log/1.0/publication-log.xsd'],
] as const;

const compiled = new Map<string, libxml.Document>();

function checkCatalog(): void {
  if (!process.env.XML_CATALOG_FILES) throw new Error('XML_CATALOG_FILES must be set before libxmljs2 loads (test/setup.ts)');
}

/** A driver schema importing the given namespaces by their published addresses (the catalog maps them to local files). */
function driver(key: string, imports: readonly (readonly [string, string])[]): libxml.Document {
  let s = compiled.get(key);
  if (!s) {
    checkCatalog();
    const body = imports.map(([ns, url]) => `<xs:import namespace="${ns}" schemaLocation="${url}"/>`).join('');
    s = libxml.parseXml(
      `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:local:driver:${key}" elementFormDefault="qualified">${body}</xs:schema>`,
      { nonet: true },
    );
    compiled.set(key, s);
  }
  return s;
}

function loadSchema(): libxml.Document {
  let s = compiled.get('oai-pmh-all');
  if (!s) {
    checkCatalog();
    const file = path.join(SCHEMAS, 'oai-pmh-all.xsd');
    s = libxml.parseXml(fs.readFileSync(file, 'utf8'), { baseUrl: file, nonet: true });
    compiled.set('oai-pmh-all', s);
  }
  return s;
}

function errorsAgainst(xml: string, schema: libxml.Document): string[] {
  let doc: libxml.Document;
  try {
    doc = libxml.parseXml(xml, { nonet: true });
  } catch (err) {
    return [`not well-formed: ${(err as Error).message}`];
  }
  if (doc.validate(schema)) return [];
  // libxml2 adds its schema-compilation warnings (a namespace imported twice, e.g. xml.xsd under two
  // addresses) to the list of a failed validation: they say nothing about the document.
  return doc.validationErrors.filter((e) => !/Skipping import of schema/.test(e.message)).map((e) => `${e.line}:${e.column} ${e.message.trim()}`);
}

/**
 * The validation errors of an OAI-PMH response and everything it embeds; empty
 * when valid. With a metadataPrefix other than oai_dc, the response's metadata
 * is validated against that format's schema instead of oai_dc's.
 */
export function xsdErrors(xml: string, prefix: FormatPrefix = 'oai_dc'): string[] {
  if (prefix === 'oai_dc') return errorsAgainst(xml, loadSchema());
  return errorsAgainst(xml, driver(`oai-pmh+${prefix}`, [...ENVELOPE, ...imports(prefix)]));
}

// oai_datacite's payload is xs:anyType (lax): the kernel-4 schema must be known for the resource inside to be checked.
const ALSO: Partial<Record<FormatPrefix, FormatPrefix>> = { oai_datacite: 'datacite' };

function imports(prefix: FormatPrefix): [string, string][] {
  const f = FORMAT_SCHEMAS[prefix];
  const also = ALSO[prefix];
  return [[f.namespace, f.schema], ...(also ? imports(also) : [])];
}

/**
 * The validation errors of a response whose metadata is of a format declared
 * in a test configuration: OAI-PMH plus that format's local XSD.
 */
export function xsdErrorsDeclared(xml: string, namespace: string, xsdFile: string): string[] {
  return errorsAgainst(xml, driver(`oai-pmh+${namespace}`, [...ENVELOPE, [namespace, pathToFileURL(xsdFile).href]]));
}

/** The validation errors of one metadata element (a document whose root is the format's root element) against its format's schema; empty when valid. */
export function validate(xml: string, prefix: FormatPrefix): string[] {
  return errorsAgainst(xml, driver(prefix, imports(prefix)));
}

/**
 * The format of the metadata a response carries, from the namespace of its
 * first `metadata` element's root (oai_dc when there is none, or when the
 * namespace is not one of {@link FORMAT_SCHEMAS}).
 */
export function formatOfResponse(xml: string): FormatPrefix {
  const m = /<metadata>(?:\s*<!--[\s\S]*?-->)*\s*<(?:([\w.-]+):)?[\w.-]+((?:\s+[^\s=>]+="[^"]*")*)\s*\/?>/.exec(xml);
  if (!m) return 'oai_dc';
  const own = m[1];
  const decl = new RegExp(`xmlns${own === undefined ? '' : `:${own}`}="([^"]*)"`).exec(m[2] ?? '');
  const ns = decl?.[1];
  const found = (Object.keys(FORMAT_SCHEMAS) as FormatPrefix[]).find((p) => FORMAT_SCHEMAS[p].namespace === ns);
  return found ?? 'oai_dc';
}

const RS_IMPORT = [RS_NS, 'http://www.openarchives.org/rs/1.1/resourcesync.xsd'] as const;

/**
 * The validation errors of a sitemap or ResourceSync document (a `urlset` or a
 * `sitemapindex`, with the `rs:` extensions) against the published Sitemaps
 * 0.9 schemas and the ResourceSync 1.1 schema; empty when valid. The two
 * sitemap schemas declare one namespace, so each root has a schema set of its own.
 */
export function sitemapErrors(xml: string): string[] {
  const index = /^(?:<\?xml[^>]*\?>\s*)?<sitemapindex[\s>]/.test(xml);
  const schema = index ? 'siteindex' : 'sitemap';
  return errorsAgainst(xml, driver(`sitemaps-${schema}`, [[SITEMAP_NS, `${SITEMAP_NS}/${schema}.xsd`], RS_IMPORT]));
}

/** Throws, with the errors and the start of the document, unless it is a valid sitemap or ResourceSync document. */
export function assertValidSitemap(xml: string): void {
  const errors = sitemapErrors(xml);
  if (errors.length > 0) throw new Error(`not valid against the sitemap and ResourceSync schemas:\n${errors.join('\n')}\n---\n${xml.slice(0, 2000)}`);
}

/** Throws, with the errors and the start of the document, unless the response is XSD-valid (its metadata against its own format's schema). */
export function assertValid(xml: string, prefix: FormatPrefix = formatOfResponse(xml)): void {
  const errors = xsdErrors(xml, prefix);
  if (errors.length > 0) throw new Error(`response is not valid against OAI-PMH.xsd and ${prefix}:\n${errors.join('\n')}\n---\n${xml.slice(0, 2000)}`);
}
