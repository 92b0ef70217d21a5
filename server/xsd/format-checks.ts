/**
 * The XSD check of each metadata format, for the store's write gate
 * (lib/pipeline/judge.ts): each format's XML must be one element (no
 * XML declaration or DOCTYPE: it is spliced into responses as it is),
 * well-formed, and valid against that format's XSD, read offline through
 * schemas/catalog.xml.
 *
 * libxmljs2 compiles the schema on every `validate` call (about a
 * millisecond for oai_dc), so records are validated a batch at a time: the
 * batch's elements of one format go into one wrapper document, one per line
 * range, validated once, and each error is traced back to its record by its
 * line number.
 */
import { pathToFileURL } from 'node:url';
import type { Document } from 'libxmljs2';
import type { FormatRegistry } from '../../lib/formats/registry';
import { rootNamespaceOf } from '../../lib/formats/format';
import type { FormatCheck, FormatChecks } from '../../lib/pipeline/judge';
import { parseFragment } from '../../lib/xml/tree';
import {
  BRANDING_NS,
  BRANDING_SCHEMA,
  FRIENDS_NS,
  FRIENDS_SCHEMA,
  PROVENANCE_NS,
  PROVENANCE_SCHEMA,
  RIGHTS_MANIFEST_SCHEMA,
  RIGHTS_NS,
  RIGHTS_SCHEMA,
} from '../../lib/xml/namespaces';
import { libxml } from './libxml';
import { oneLine, schemaFor, WRAPPER_NS as BATCH_NS } from './schemas';

const PROLOG = /^\s*<\?xml|<!DOCTYPE/i;
const SCHEMA_NOTE = /Skipping import of schema/;

/**
 * The checks of the formats of a registry. Each format's schema is found by
 * its schema URL (`MetadataFormat.schema`) through the catalog: a wrapper
 * schema imports the format's namespace from that URL and declares a batch
 * element holding any number of that namespace's global elements (strictly
 * validated). A format whose schema is not in the catalog cannot be written;
 * the refusal says so rather than letting unvalidated XML through.
 *
 * @example createXsdChecks(formats).get('oai_dc')?.check(['<oai_dc:dc …/>']) // [[]] when valid
 */
export function createXsdChecks(formats: FormatRegistry): FormatChecks {
  const checks = new Map<string, FormatCheck>();
  return {
    about: containerCheck(aboutSchema(formats), 'about container', "provenance, rights and the namespaces of this repository's formats"),
    descriptions: containerCheck(
      descriptionSchema(formats),
      'set description',
      "oai_dc and the namespaces of this repository's formats, provenance, rights, rightsManifest, branding and friends",
    ),
    get(prefix) {
      const format = formats.get(prefix);
      if (!format) return undefined;
      let c = checks.get(prefix);
      // A declared format is validated against its own local XSD, not looked up by its published URL.
      const schemaAt = format.localSchema ? pathToFileURL(format.localSchema.xsd).href : format.schema;
      if (!c) {
        const main = xsdCheck(prefix, schemaAt, rootNamespaceOf(format));
        c = format.schemaOfRecord ? byRecordSchema(prefix, main, format.schemaOfRecord, rootNamespaceOf(format)) : main;
        checks.set(prefix, c);
      }
      return c;
    },
  };
}

/**
 * The check of `about` containers: each is valid against the schema of its
 * root element's namespace, which must be known offline: provenance and
 * rights (the OAI-PMH guidelines' containers), or a metadata format of the
 * registry (some repositories put a Dublin Core record about the metadata
 * there). OAI-PMH.xsd validates `about` content strictly, so a container of
 * another namespace could not be served valid: it is refused, naming it.
 *
 * @example createXsdChecks(formats).about?.check(['<provenance xmlns="http://www.openarchives.org/OAI/2.0/provenance">…</provenance>']) // [[]]
 */
function aboutSchema(formats: FormatRegistry): (ns: string, local: string) => string | undefined {
  return (ns) => (ns === PROVENANCE_NS ? PROVENANCE_SCHEMA : ns === RIGHTS_NS ? RIGHTS_SCHEMA : formats.all().find((f) => rootNamespaceOf(f) === ns)?.schema);
}

/**
 * Where a set description's schema is: a `setDescription` holds any element
 * of another namespace, validated strictly (OAI-PMH.xsd `descriptionType`,
 * `processContents="strict"`), so each must be valid against a schema known
 * offline. The rights namespace holds two roots of two schemas (the rights
 * guidelines' section 4 puts a `rightsManifest` in a setDescription).
 */
function descriptionSchema(formats: FormatRegistry): (ns: string, local: string) => string | undefined {
  const about = aboutSchema(formats);
  return (ns, local) => {
    if (ns === RIGHTS_NS && local === 'rightsManifest') return RIGHTS_MANIFEST_SCHEMA;
    if (ns === BRANDING_NS) return BRANDING_SCHEMA;
    if (ns === FRIENDS_NS) return FRIENDS_SCHEMA;
    return about(ns, local);
  };
}

/**
 * The check of containers of any namespace (about containers, set
 * descriptions): each is valid against the schema of its root element's
 * namespace, which must be known offline (`schemaOf`). OAI-PMH.xsd validates
 * both strictly, so a container of another namespace could not be served
 * valid: it is refused, naming it.
 */
function containerCheck(schemaOf: (ns: string, local: string) => string | undefined, what: string, knownList: string): FormatCheck {
  return {
    check(xmls) {
      const out: string[][] = xmls.map(() => []);
      // The containers of one namespace are validated together, as a format's records are (see xsdCheck).
      const bySchema = new Map<string, { ns: string; schema: string; indexes: number[] }>();
      xmls.forEach((xml, index) => {
        if (PROLOG.test(xml)) return void out[index]?.push(ONE_ELEMENT);
        // Not well-formed: the caller's well-formedness check names it.
        const root = parseFragment(xml);
        if (root === null) return;
        const schema = schemaOf(root.ns, root.local);
        if (schema === undefined) {
          return void out[index]?.push(
            `no schema is known offline for the namespace ${JSON.stringify(root.ns)}, so the ${what} could not be served valid (known: ${knownList})`,
          );
        }
        const key = `${root.ns} ${schema}`;
        const group = bySchema.get(key) ?? { ns: root.ns, schema, indexes: [] };
        group.indexes.push(index);
        bySchema.set(key, group);
      });
      for (const { ns, schema, indexes } of bySchema.values()) {
        const compiled = schemaFor(ns, schema);
        const errors =
          compiled instanceof Error
            ? indexes.map(() => [`the schema ${schema} cannot be read offline (is it in schemas/catalog.xml?): ${compiled.message}`])
            : batchErrors(
                compiled,
                indexes.map((i) => xmls[i] as string),
              );
        indexes.forEach((index, k) => {
          const list = errors[k] as string[];
          if (list.length === 0) return;
          if (list[0]?.startsWith(NOT_WELL_FORMED)) return void out[index]?.push(...list);
          out[index]?.push(`not valid against ${schema}: ${list.slice(0, 3).join('; ')}`);
        });
      }
      return out;
    },
  };
}

/**
 * A format's check where a record may name another profile's schema
 * (`MetadataFormat.schemaOfRecord`): each record validated against its own,
 * the records of one schema in one batch, reasons index for index.
 */
function byRecordSchema(prefix: string, main: FormatCheck, schemaOf: (xml: string) => string | undefined, namespace: string): FormatCheck {
  const others = new Map<string, FormatCheck>();
  return {
    check(xmls) {
      const groups = new Map<FormatCheck, number[]>();
      xmls.forEach((xml, index) => {
        const url = schemaOf(xml);
        let c = main;
        if (url !== undefined) {
          c = others.get(url) ?? xsdCheck(prefix, url, namespace);
          others.set(url, c);
        }
        groups.set(c, [...(groups.get(c) ?? []), index]);
      });
      const out: (readonly string[])[] = xmls.map(() => []);
      for (const [c, indexes] of groups) {
        const found = c.check(indexes.map((i) => xmls[i] as string));
        indexes.forEach((index, k) => (out[index] = found[k] ?? []));
      }
      return out;
    },
  };
}

function compileSchema(prefix: string, schemaUrl: string, namespace: string): Document | Error {
  const s = schemaFor(namespace, schemaUrl);
  return s instanceof Error ? new Error(`the schema ${schemaUrl} of ${prefix} cannot be read offline (is it in schemas/catalog.xml?): ${s.message}`) : s;
}

function xsdCheck(prefix: string, schemaUrl: string, namespace: string): FormatCheck {
  let schema: Document | Error | undefined;
  return {
    check(xmls) {
      schema ??= compileSchema(prefix, schemaUrl, namespace);
      const compiled = schema;
      if (compiled instanceof Error) return xmls.map(() => [compiled.message]);
      const out: string[][] = xmls.map(() => []);
      const sound: number[] = [];
      xmls.forEach((xml, index) => (PROLOG.test(xml) ? out[index]?.push(ONE_ELEMENT) : sound.push(index)));
      const errors = batchErrors(
        compiled,
        sound.map((i) => xmls[i] as string),
      );
      sound.forEach((index, k) => {
        const list = errors[k] as string[];
        if (list.length === 0) return;
        if (list[0]?.startsWith(NOT_WELL_FORMED)) return void out[index]?.push(...list);
        const more = list.length > 3 ? ` (and ${list.length - 3} more)` : '';
        out[index]?.push(`not valid against ${schemaUrl}: ${list.slice(0, 3).join('; ')}${more}`);
      });
      return out;
    },
  };
}

const ONE_ELEMENT = 'must be one element, without an XML declaration or DOCTYPE (it is embedded in responses as it is)';
const NOT_WELL_FORMED = 'not well-formed XML: ';

/**
 * Each element's problems against one compiled schema: one "not well-formed
 * XML" message, or its validation errors, each with the line within the
 * element. The elements go into a wrapper document, one per line range (as
 * many documents as {@link BATCH_CHARS} asks), each validated once, and each
 * error is traced back to its element by its line number. The joined document is parsed first: when it holds exactly one
 * element starting on each element's first line and nothing else, each
 * element is well-formed on its own, and the one parse does for all;
 * otherwise every element is parsed alone, and one that is not well-formed
 * (or not one element) is named and left out.
 */
function batchErrors(schema: Document, xmls: readonly string[]): string[][] {
  const out: string[][] = [];
  // Batches under a size budget, so a page of large records is never one document past libxml2's limits.
  for (let start = 0; start < xmls.length;) {
    let end = start + 1;
    let chars = (xmls[start] as string).length;
    while (end < xmls.length && chars + (xmls[end] as string).length <= BATCH_CHARS) chars += (xmls[end++] as string).length;
    out.push(...oneBatchErrors(schema, xmls.slice(start, end)));
    start = end;
  }
  return out;
}

/**
 * The most text (UTF-16 code units) joined into one document: at most 6 MB
 * of UTF-8 (three bytes a unit at worst), under libxml2's 10,000,000-byte
 * input lookup limit (XML_MAX_LOOKUP_LIMIT, "Huge input lookup"), which a
 * document of a whole page of rich records (MARC, METS, full-text abstracts)
 * passes. An element larger than this is checked in a document of its own.
 */
const BATCH_CHARS = 2_000_000;

/** {@link batchErrors} over one batch, checked in one document. */
function oneBatchErrors(schema: Document, xmls: readonly string[]): string[][] {
  const out: string[][] = xmls.map(() => []);
  let sound = xmls.map((xml, index) => ({ index, xml }));
  // An element using the wrapper's prefix would find it declared only inside the wrapper.
  let batch = sound.some((r) => r.xml.includes(BATCH_PREFIX)) ? undefined : soundBatch(sound);
  if (!batch) {
    sound = sound.filter(({ index, xml }) => {
      try {
        libxml().parseXml(xml, { nonet: true });
        return true;
      } catch (err) {
        out[index]?.push(`${NOT_WELL_FORMED}${oneLine((err as Error).message)}`);
        return false;
      }
    });
    if (sound.length === 0) return out;
    const joined = joinBatch(sound);
    batch = { doc: libxml().parseXml(joined.text, { nonet: true }), starts: joined.starts };
  }
  const { doc, starts } = batch;
  if (doc.validate(schema)) return out;
  for (const e of doc.validationErrors) {
    // libxml2 adds its schema-compilation notes (a namespace imported twice) to a failed validation's errors: they say nothing about the record.
    if (SCHEMA_NOTE.test(e.message)) continue;
    const at = e.line ?? 0;
    // The last element starting at or before the error's line.
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= at) lo = mid;
      else hi = mid - 1;
    }
    const k = sound[lo];
    if (k) out[k.index]?.push(`line ${at - (starts[lo] as number) + 1}: ${oneLine(e.message)}`);
  }
  return out;
}

/** The wrapper element's prefix; an element's own XML never declares it (see batchErrors). */
const BATCH_PREFIX = 'oai-steward-batch';

/** The elements, each starting a line of its own, in one wrapper element, and the line each starts on. */
function joinBatch(elements: readonly { xml: string }[]): { text: string; starts: number[] } {
  const starts: number[] = [];
  // A prefixed wrapper: an unprefixed element must not inherit a default namespace.
  const parts = [`<${BATCH_PREFIX}:batch xmlns:${BATCH_PREFIX}="${BATCH_NS}">\n`];
  let line = 2;
  for (const r of elements) {
    starts.push(line);
    parts.push(r.xml, '\n');
    line += countNewlines(r.xml) + 1;
  }
  parts.push(`</${BATCH_PREFIX}:batch>`);
  return { text: parts.join(''), starts };
}

/**
 * The joined document when it parses and its wrapper holds exactly one
 * element starting on each element's first line, with only whitespace
 * between: then each element was one well-formed element on its own (two
 * halves of one element, trailing text or a second element would show as
 * another count, line or node). Undefined otherwise.
 */
function soundBatch(elements: readonly { xml: string }[]): { doc: Document; starts: number[] } | undefined {
  const joined = joinBatch(elements);
  let doc: Document;
  try {
    doc = libxml().parseXml(joined.text, { nonet: true });
  } catch {
    return undefined;
  }
  const root = doc.root();
  if (!root) return undefined;
  let k = 0;
  for (const node of root.childNodes()) {
    const type = node.type();
    if (type === 'element') {
      if (node.line() !== joined.starts[k]) return undefined;
      k++;
    } else if (type !== 'text' || (node as unknown as { text(): string }).text().trim() !== '') {
      return undefined;
    }
  }
  return k === elements.length ? { doc, starts: joined.starts } : undefined;
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}
