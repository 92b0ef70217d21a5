/**
 * Which reader lifts a piece of XML into the record model: chosen by the
 * namespace of its root element, never by the metadataPrefix it came under.
 * A metadataPrefix is a repository's own name for a format, while the
 * namespace is the format's global name (OAI-PMH 2.0 section 3.4: "the
 * metadataNamespace ... specifies the XML namespace URI"), so Invenio's,
 * INSPIRE's and CERN CDS's `marcxml` is MARCXML as `marc21` is, and
 * DataCite under any prefix is DataCite. A format declared by configuration
 * under a namespace a built-in reader knows is read by that reader, too: a
 * declaration names a prefix and a schema, it never hides a reader.
 *
 * Pure: no I/O, no clock.
 */
import { rootNamespaceOf, type MetadataFormat } from './format';
import { BUILT_IN_FORMATS } from './registry';

/** A format with its reader. */
export type ReadingFormat = MetadataFormat & { readonly read: NonNullable<MetadataFormat['read']> };

/**
 * The built-in format whose reader lifts XML whose root element is in
 * `namespace` (the format's root namespace, or one it also reads, like
 * DataCite kernel-3), or undefined when none does.
 *
 * @example readerOf('http://www.loc.gov/MARC21/slim')?.prefix // 'marc21'
 * @example readerOf('http://example.org/unknown/') // undefined
 */
export function readerOf(namespace: string): ReadingFormat | undefined {
  const found = BUILT_IN_FORMATS.find((f) => f.read !== undefined && (rootNamespaceOf(f) === namespace || f.alsoReads?.includes(namespace) === true));
  return found as ReadingFormat | undefined;
}
