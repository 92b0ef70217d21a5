/**
 * Facts for citing a record and its host: the identifier a citation names,
 * the host's kind and parts (journal, proceedings, book) with its ISSNs, and
 * the citation a source field gives (./facts.ts has the record's own facts).
 */
import type { Host, RecordFields } from './record';
import { type IdentifierType } from './identifiers';
import { dcValues, identifierUri, recordIdentifiers } from './facts';

/**
 * The record's dc:source that is a bibliographic citation of the container
 * it was published in, or undefined: the first that names a volume, an
 * issue or pages ("vol. 12", "12(3)", "pp. 45-67", "45-67"). DSpace writes a
 * journal article's citation there, as the DRIVER and OpenAIRE 3.0
 * guidelines ask (dc:source, "the journal, book or conference the resource
 * was published in"); such a source is the work's host, not its original.
 *
 * @example citationSource({ dc: { source: ['Journal of Ecology, 12(3), 45-67'] } }) // 'Journal of Ecology, 12(3), 45-67'
 * @example citationSource({ dc: { source: ['Sample Source'] } }) // undefined
 */
export function citationSource(record: RecordFields): string | undefined {
  const cite = /\b(?:vol|volume|no|nr|issue|pp?)\.?\s*\d|\d+\s*\(\s*\d+\s*\)|\d+\s*[-–]\s*\d+/i;
  return dcValues(record, 'source').find((s) => cite.test(s));
}

/** What an item is cited by: the scheme, the identifier in its normalized form, and its URI. */
export interface CitationIdentifier {
  readonly scheme: 'DOI' | 'Handle' | 'ARK' | 'URN' | 'POI';
  readonly value: string;
  readonly uri: string;
}

/**
 * The identifier an item is cited by (FAIR Signposting's `cite-as`, RFC 8574:
 * the persistent identifier a reference should use): the record's DOI, else
 * its Handle, else its first ARK or URN, else the item's POI; undefined when
 * there is none of them. A URL is never one: it names a place, which
 * `cite-as` exists to look past.
 *
 * @example citationIdentifier({ dc: { identifier: ['http://hdl.handle.net/1765/315'] } }, 'http://purl.org/poi/x.org/1')
 * // { scheme: 'Handle', value: '1765/315', uri: 'https://hdl.handle.net/1765/315' }
 */
export function citationIdentifier(r: RecordFields, poi?: string): CitationIdentifier | undefined {
  const ids = recordIdentifiers(r);
  const pick = (types: readonly IdentifierType[]): CitationIdentifier | undefined => {
    for (const i of ids) {
      const uri = types.includes(i.type) ? identifierUri(i) : undefined;
      if (uri !== undefined) return { scheme: i.type as CitationIdentifier['scheme'], value: i.value, uri };
    }
    return undefined;
  };
  return pick(['DOI']) ?? pick(['Handle']) ?? pick(['ARK', 'URN']) ?? (poi === undefined ? undefined : { scheme: 'POI', value: poi, uri: poi });
}

/** The relations by which a record names the serial it appears in (DataCite kernel-4 relationType). */
const SERIAL_RELATIONS: ReadonlySet<string> = new Set(['IsPartOf', 'IsPublishedIn']);

/**
 * The ISSNs of the serial the work appears in: the record's own ISSN
 * identifiers (an ISSN names a serial, not an article in it), then the ISSN
 * or EISSN of a related identifier the record `IsPartOf` or `IsPublishedIn`,
 * each once.
 *
 * @example serialIssns({ dc: {}, relatedIdentifiers: [{ identifier: '0317-8471', type: 'ISSN', relation: 'IsPublishedIn' }] }) // ['0317-8471']
 */
export function serialIssns(r: RecordFields): string[] {
  const own = recordIdentifiers(r)
    .filter((i) => i.type === 'ISSN')
    .map((i) => i.value);
  const related = (r.relatedIdentifiers ?? [])
    .filter((i) => (i.type === 'ISSN' || i.type === 'EISSN') && SERIAL_RELATIONS.has(i.relation))
    .map((i) => i.identifier.trim());
  return [...new Set([...own, ...related])];
}

/** The kind of container a work appears in, as citations tell them apart. */
export type HostKind = 'journal' | 'proceedings' | 'book';

/** Where the work was published, as a citation gives it: the container's kind, its parts, its ISSNs and ISBNs. */
export interface HostFacts extends Host {
  readonly kind: HostKind;
  readonly issns: readonly string[];
  readonly isbns: readonly string[];
}

/**
 * The kind of the work's container, from the work's resource type: a book
 * chapter is in a book, a conference paper in proceedings, anything else in
 * a journal (a volume, issue and pages belong to a serial).
 *
 * @example hostKind({ dc: {}, resourceType: { general: 'BookChapter', label: 'chapter' } }) // 'book'
 */
export function hostKind(r: RecordFields): HostKind {
  const g = r.resourceType?.general;
  return g === 'BookChapter' ? 'book' : g === 'ConferencePaper' ? 'proceedings' : 'journal';
}

/**
 * Where the work was published: the `host` field's parts (non-blank,
 * trimmed), the serial's ISSNs (`serialIssns`) and the ISBNs of a related
 * identifier the record `IsPartOf` or `IsPublishedIn`; undefined when the
 * record says none of them.
 *
 * @example hostOf({ dc: {}, host: { title: 'Chemistry', volume: '23' }, relatedIdentifiers: [{ identifier: '0947-6539', type: 'ISSN', relation: 'IsPartOf' }] })
 * // { kind: 'journal', title: 'Chemistry', volume: '23', issns: ['0947-6539'], isbns: [] }
 */
export function hostOf(r: RecordFields): HostFacts | undefined {
  const issns = serialIssns(r);
  const isbns = [...new Set((r.relatedIdentifiers ?? []).filter((i) => i.type === 'ISBN' && SERIAL_RELATIONS.has(i.relation)).map((i) => i.identifier.trim()))];
  const parts: { -readonly [K in keyof Host]: Host[K] } = {};
  for (const [k, v] of Object.entries(r.host ?? {}) as [keyof Host, string | undefined][]) {
    const t = v?.trim();
    if (t !== undefined && t !== '') parts[k] = t;
  }
  if (Object.keys(parts).length === 0 && issns.length === 0 && isbns.length === 0) return undefined;
  return { kind: hostKind(r), ...parts, issns, isbns };
}
