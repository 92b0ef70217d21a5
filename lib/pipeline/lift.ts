/**
 * Lift, the second stage of the write pipeline (ARCHITECTURE.md): a record
 * that comes as XML only (a harvested page, a DataCite or OpenAIRE file) is
 * read into the record model by the reader of its format
 * (`MetadataFormat.read`), so that it gets every other format its fields
 * allow, oai_dc always (OAI-PMH 2.0 section 3.4), and so that sets by rule,
 * the readiness check, Signposting and the pages know what it says. A record
 * that brings its model (the project's JSON record format with `dc` or a
 * structured field) is not lifted; one of that format that gives XML only is
 * (./json-record.ts leaves its `fields` out).
 *
 * Pure: no I/O, no clock.
 */
import type { FormatRegistry } from '../formats/registry';
import type { RecordFields } from '../model/record';
import type { ItemInput } from '../store';
import { readerOf, type ReadingFormat } from '../formats/readers';
import { parseFragment, type XmlElement } from '../xml/tree';

/** The model of a record lifted from its XML, and what it was lifted from (a metadataPrefix, or a namespace read but not served). */
export interface Lifted {
  readonly fields: RecordFields;
  readonly from: string;
}

/**
 * The order in which the XML a record gives is lifted when it gives several
 * formats, by default: the richest first, so the model holds the most the
 * record says. DataCite says the most (typed creators, identifiers, funding,
 * relations), Dublin Core the least. A repository can give its own
 * (`liftOrder`, docs/configuration.md); formats it leaves out come after, in
 * the registry's order.
 */
export const DEFAULT_LIFT_ORDER: readonly string[] = ['datacite', 'oai_datacite', 'oai_openaire', 'mods', 'marc21', 'oai_dc'];

/**
 * The record's model read from its XML, or undefined when it brings its own
 * model, is deleted, or gives no XML a reader can read. Each given format is
 * read by the reader of its root element's namespace, whatever prefix it is
 * given under (../formats/readers.ts): a format declared by configuration is
 * lifted when its namespace is a built-in reader's, and stays opaque
 * otherwise. Of several, the one whose reader comes first in `liftOrder`.
 * XML that is not well-formed is refused by the judge, with the reason, not
 * here.
 *
 * @example liftFields({ internalId: 'a', metadata: { oai_dc: '<oai_dc:dc …><dc:title>T</dc:title></oai_dc:dc>' } }, registry)
 * // → { fields: { dc: { title: ['T'] } }, from: 'oai_dc' }
 */
export function liftFields(item: ItemInput, formats: FormatRegistry, liftOrder: readonly string[] = DEFAULT_LIFT_ORDER): Lifted | undefined {
  if (item.deleted === true || item.fields !== undefined) return undefined;
  if (item.readFrom !== undefined) {
    const { namespace, xml } = item.readFrom;
    const reader = readerOf(namespace);
    const root = reader ? parseFragment(xml) : null;
    if (reader && root && root.ns === namespace) return { fields: reader.read(root), from: namespace };
    return undefined;
  }
  const order = [
    ...liftOrder,
    ...formats
      .all()
      .map((f) => f.prefix)
      .filter((p) => !liftOrder.includes(p)),
  ];
  const rank = (prefix: string): number => (order.includes(prefix) ? order.indexOf(prefix) : order.length);
  // Each given format with the reader of its root element's namespace, whatever its prefix: a format
  // declared as `marcxml` is read as the MARCXML it is (../formats/readers.ts).
  const candidates: { prefix: string; reader: ReadingFormat; root: XmlElement }[] = [];
  for (const [prefix, xml] of Object.entries(item.metadata)) {
    const root = parseFragment(xml);
    const reader = root ? readerOf(root.ns) : undefined;
    if (root && reader) candidates.push({ prefix, reader, root });
  }
  const best = candidates.sort((a, b) => rank(a.reader.prefix) - rank(b.reader.prefix))[0];
  return best && { fields: best.reader.read(best.root), from: best.prefix };
}

/**
 * The model of a stored item the store holds none for (written as XML before
 * the pipeline lifted every record): lifted from its stored XML as the
 * pipeline lifts a record's (`liftFields`), or an empty record when no
 * reader can read it. The one place the record page, Signposting and the
 * readiness check get such an item's model.
 *
 * @example liftStored({ oai_dc: '<oai_dc:dc …><dc:title>T</dc:title></oai_dc:dc>' }, registry).dc.title // ['T']
 */
export function liftStored(metadata: Readonly<Record<string, string | null | undefined>>, formats: FormatRegistry): RecordFields {
  const given: Record<string, string> = {};
  for (const [prefix, xml] of Object.entries(metadata)) if (typeof xml === 'string') given[prefix] = xml;
  return liftFields({ internalId: '', metadata: given }, formats)?.fields ?? { dc: {} };
}
