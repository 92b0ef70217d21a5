/**
 * The record model of an item the store holds no fields for (loaded as XML
 * before every write lifted its model): lifted from its stored XML by the
 * reader of one of its formats. The one place that choice is made, for every
 * reader of such an item (the record page, Signposting, the readiness check).
 *
 * Pure: no I/O, no clock.
 */
import type { RecordFields } from '../model/record';
import { parseFragment } from '../xml/tree';
import { dublinCoreOf } from './oai-dc';
import type { FormatRegistry } from './registry';

/**
 * The model of an item from its stored metadata (prefix → XML, null for a
 * tombstone's): read by the reader of the first of its formats that has one,
 * in registry order with oai_dc last (it says the least); else the Dublin
 * Core of its oai_dc; else an empty record. XML that cannot be read lifts
 * nothing rather than failing the reader of the page or the check.
 *
 * @example modelFromStoredXml(registry, { oai_dc: '<oai_dc:dc …><dc:title>T</dc:title></oai_dc:dc>' }).dc.title // ['T']
 */
export function modelFromStoredXml(formats: FormatRegistry, metadata: Readonly<Record<string, string | null | undefined>>): RecordFields {
  const readable = formats.all().filter((f) => f.read !== undefined && typeof metadata[f.prefix] === 'string');
  const reader = readable.find((f) => f.prefix !== 'oai_dc') ?? readable[0];
  if (reader?.read) {
    const root = parseFragment(metadata[reader.prefix] as string);
    if (root) {
      try {
        return reader.read(root);
      } catch {
        // A reader refusing stored XML leaves the item with what oai_dc says (below).
      }
    }
  }
  return { dc: dublinCoreOf(metadata.oai_dc ?? null) };
}
