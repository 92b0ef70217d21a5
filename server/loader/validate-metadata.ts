/**
 * Checks the metadata of records before they are written (issue 4,
 * "Validated before anything is written"): each format's XML must be one
 * well-formed element (no XML declaration or DOCTYPE: it is spliced into
 * responses as it is) and valid against that format's XSD, read offline
 * through schemas/catalog.xml.
 *
 * libxmljs2 compiles the schema on every `validate` call (about a
 * millisecond for oai_dc), so records are validated a batch at a time: the
 * batch's elements of one format go into one wrapper document, one per line
 * range, validated once, and each error is traced back to its record by its
 * line number.
 */
import type { Document } from 'libxmljs2';
import type { FormatRegistry } from '../../lib/formats/registry';
import type { ItemInput, Refusal } from '../../lib/store';
import { libxml } from './libxml';

/** Validates serialized metadata per metadataPrefix. */
export interface MetadataValidator {
  /**
   * The refusals of each item of a batch, by its index (items without
   * refusal are absent), and the dc:identifier values found in each item's
   * oai_dc metadata: identifier governance checks a record's own identifier
   * fields, whether they came as `dc` fields or inside metadata XML.
   */
  check(items: readonly ItemInput[]): { refusals: Map<number, Refusal[]>; dcIdentifiers: Map<number, string[]> };
}

const DC_NS = 'http://purl.org/dc/elements/1.1/';

const BATCH_NS = 'urn:oai-steward:loader-batch';
const PROLOG = /^\s*<\?xml|<!DOCTYPE/i;

/**
 * Makes a validator for the formats of a registry. Each format's schema is
 * found by its schema URL (`MetadataFormat.schema`) through the catalog: a
 * wrapper schema imports the format's namespace from that URL and declares a
 * batch element holding any number of that namespace's global elements
 * (strictly validated). A format whose schema is not in the catalog cannot
 * be loaded; the refusal says so rather than letting unvalidated XML through.
 *
 * @example createMetadataValidator(formats).check(items).refusals.size // 0 when all are valid
 */
export function createMetadataValidator(formats: FormatRegistry): MetadataValidator {
  const schemas = new Map<string, Document | Error>();
  const schemaOf = (prefix: string): Document | Error | undefined => {
    const format = formats.get(prefix);
    if (!format) return undefined;
    let s = schemas.get(prefix);
    if (!s) {
      const wrapper =
        `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${BATCH_NS}" elementFormDefault="qualified">` +
        `<xs:import namespace="${format.namespace}" schemaLocation="${format.schema}"/>` +
        `<xs:element name="batch"><xs:complexType><xs:sequence>` +
        `<xs:any namespace="${format.namespace}" processContents="strict" minOccurs="0" maxOccurs="unbounded"/>` +
        `</xs:sequence></xs:complexType></xs:element></xs:schema>`;
      try {
        s = libxml().parseXml(wrapper, { nonet: true });
        // Compile once now, so a missing schema is one clear error, not one per record.
        libxml().parseXml(`<b:batch xmlns:b="${BATCH_NS}"/>`, { nonet: true }).validate(s);
      } catch (err) {
        s = new Error(`the schema ${format.schema} of ${prefix} cannot be read offline (is it in schemas/catalog.xml?): ${(err as Error).message}`);
      }
      schemas.set(prefix, s);
    }
    return s;
  };

  return {
    check(items) {
      const out = new Map<number, Refusal[]>();
      const dcIdentifiers = new Map<number, string[]>();
      const refuse = (index: number, field: string, reason: string): void => {
        const item = items[index] as ItemInput;
        const list = out.get(index) ?? [];
        list.push({ internalId: item.internalId, ...(item.source !== undefined && { source: item.source }), field, reason });
        out.set(index, list);
      };
      // prefix → the well-formed records of that format: index, xml
      const byPrefix = new Map<string, { index: number; xml: string }[]>();
      items.forEach((item, index) => {
        for (const [prefix, xml] of Object.entries(item.metadata)) {
          const field = `metadata.${prefix}`;
          const schema = schemaOf(prefix);
          if (!schema) refuse(index, field, 'unknown metadataPrefix (not in the format registry)');
          else if (schema instanceof Error) refuse(index, field, schema.message);
          else if (PROLOG.test(xml)) refuse(index, field, 'must be one element, without an XML declaration or DOCTYPE (it is embedded in responses as it is)');
          else {
            try {
              const doc = libxml().parseXml(xml, { nonet: true });
              if (prefix === 'oai_dc') {
                const values = doc.find('//dc:identifier', { dc: DC_NS }).map((n) => (n as unknown as { text(): string }).text());
                if (values.length > 0) dcIdentifiers.set(index, values);
              }
              const list = byPrefix.get(prefix) ?? [];
              list.push({ index, xml });
              byPrefix.set(prefix, list);
            } catch (err) {
              refuse(index, field, `not well-formed XML: ${oneLine((err as Error).message)}`);
            }
          }
        }
      });
      for (const [prefix, list] of byPrefix) {
        const schema = schemaOf(prefix) as Document;
        // Each record starts on its own line; remember where, to trace errors back.
        const starts: number[] = [];
        // A prefixed wrapper: an unprefixed record element must not inherit a default namespace.
        const parts = [`<b:batch xmlns:b="${BATCH_NS}">\n`];
        let line = 2;
        for (const r of list) {
          starts.push(line);
          parts.push(r.xml, '\n');
          line += countNewlines(r.xml) + 1;
        }
        parts.push('</b:batch>');
        const doc = libxml().parseXml(parts.join(''), { nonet: true });
        if (doc.validate(schema)) continue;
        const errors = new Map<number, string[]>();
        for (const e of doc.validationErrors) {
          const at = e.line ?? 0;
          // The last record starting at or before the error's line.
          let lo = 0;
          let hi = starts.length - 1;
          while (lo < hi) {
            const mid = (lo + hi + 1) >> 1;
            if ((starts[mid] as number) <= at) lo = mid;
            else hi = mid - 1;
          }
          const k = list[lo];
          if (!k) continue;
          const msgs = errors.get(k.index) ?? [];
          msgs.push(`line ${at - (starts[lo] as number) + 1}: ${oneLine(e.message)}`);
          errors.set(k.index, msgs);
        }
        for (const [index, msgs] of errors) {
          const more = msgs.length > 3 ? ` (and ${msgs.length - 3} more)` : '';
          refuse(index, `metadata.${prefix}`, `not valid against ${formats.get(prefix)?.schema ?? prefix}: ${msgs.slice(0, 3).join('; ')}${more}`);
        }
      }
      return { refusals: out, dcIdentifiers };
    },
  };
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
