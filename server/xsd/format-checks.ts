/**
 * The XSD check of each metadata format, for the store's write gate
 * (lib/records/gate.ts, stage 2): each format's XML must be one element (no
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
import type { FormatCheck, FormatChecks } from '../../lib/pipeline/judge';
import { aboutNamespace } from '../../lib/pipeline/about';
import { PROVENANCE_NS, PROVENANCE_SCHEMA, RIGHTS_NS, RIGHTS_SCHEMA } from '../../lib/xml/namespaces';
import { libxml } from './libxml';
import { elementErrors, oneLine, schemaFor, WRAPPER_NS as BATCH_NS } from './schemas';

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
    about: aboutCheck(formats),
    get(prefix) {
      const format = formats.get(prefix);
      if (!format) return undefined;
      let c = checks.get(prefix);
      // A declared format is validated against its own local XSD, not looked up by its published URL.
      const schemaAt = format.localSchema ? pathToFileURL(format.localSchema.xsd).href : format.schema;
      if (!c) checks.set(prefix, (c = xsdCheck(prefix, schemaAt, format.namespace)));
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
function aboutCheck(formats: FormatRegistry): FormatCheck {
  const known = (ns: string): string | undefined =>
    ns === PROVENANCE_NS ? PROVENANCE_SCHEMA : ns === RIGHTS_NS ? RIGHTS_SCHEMA : formats.all().find((f) => f.namespace === ns)?.schema;
  return {
    check(xmls) {
      return xmls.map((xml) => {
        if (PROLOG.test(xml)) return ['must be one element, without an XML declaration or DOCTYPE (it is embedded in responses as it is)'];
        const ns = aboutNamespace(xml);
        if (ns === null) return [];
        const schema = known(ns);
        if (schema === undefined) {
          return [`no schema is known offline for the namespace ${JSON.stringify(ns)}, so the about container could not be served valid (known: provenance, rights and the namespaces of this repository's formats)`];
        }
        const errors = elementErrors(xml, ns, schema);
        return errors.length === 0 ? [] : [`not valid against ${schema}: ${errors.slice(0, 3).join('; ')}`];
      });
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
      const out: string[][] = xmls.map(() => []);
      if (schema instanceof Error) {
        for (const list of out) list.push(schema.message);
        return out;
      }
      // The well-formed records: index, xml
      const sound: { index: number; xml: string }[] = [];
      xmls.forEach((xml, index) => {
        if (PROLOG.test(xml)) {
          out[index]?.push('must be one element, without an XML declaration or DOCTYPE (it is embedded in responses as it is)');
          return;
        }
        try {
          libxml().parseXml(xml, { nonet: true });
          sound.push({ index, xml });
        } catch (err) {
          out[index]?.push(`not well-formed XML: ${oneLine((err as Error).message)}`);
        }
      });
      if (sound.length === 0) return out;
      // Each record starts on its own line; remember where, to trace errors back.
      const starts: number[] = [];
      // A prefixed wrapper: an unprefixed record element must not inherit a default namespace.
      const parts = [`<b:batch xmlns:b="${BATCH_NS}">\n`];
      let line = 2;
      for (const r of sound) {
        starts.push(line);
        parts.push(r.xml, '\n');
        line += countNewlines(r.xml) + 1;
      }
      parts.push('</b:batch>');
      const doc = libxml().parseXml(parts.join(''), { nonet: true });
      if (doc.validate(schema)) return out;
      const errors = new Map<number, string[]>();
      for (const e of doc.validationErrors) {
        // libxml2 adds its schema-compilation notes (a namespace imported twice) to a failed validation's errors: they say nothing about the record.
        if (SCHEMA_NOTE.test(e.message)) continue;
        const at = e.line ?? 0;
        // The last record starting at or before the error's line.
        let lo = 0;
        let hi = starts.length - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if ((starts[mid] as number) <= at) lo = mid;
          else hi = mid - 1;
        }
        const k = sound[lo];
        if (!k) continue;
        const msgs = errors.get(k.index) ?? [];
        msgs.push(`line ${at - (starts[lo] as number) + 1}: ${oneLine(e.message)}`);
        errors.set(k.index, msgs);
      }
      for (const [index, msgs] of errors) {
        const more = msgs.length > 3 ? ` (and ${msgs.length - 3} more)` : '';
        out[index]?.push(`not valid against ${schemaUrl}: ${msgs.slice(0, 3).join('; ')}${more}`);
      }
      return out;
    },
  };
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}
