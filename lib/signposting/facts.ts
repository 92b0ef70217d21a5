/**
 * What an item's record model says about it that a machine or a person
 * looking for links needs: the identifier to cite it by, its other
 * identifiers, its licence URLs, its kind of work and its files. Computed
 * from the model (lib/model/facts.ts), never from the XML of a format.
 */
import { dcValues, fileLinks, identifierUri, licences, recordIdentifiers, type FileLink } from '../model/facts';
import { schemaOrgTypes } from '../model/type-facts';
import { citationIdentifier, type CitationIdentifier } from '../model/citation-facts';
import { classifyIdentifier } from '../model/identifiers';
import type { RecordFields } from '../model/record';

export type { FileLink };

/** What {@link itemFacts} found. */
export interface ItemFacts {
  /** What the item is cited by (`cite-as`): the record's DOI, Handle, ARK or URN, else the item's POI; absent with neither. */
  readonly citation?: CitationIdentifier;
  /**
   * The record's other identifiers, each once: those of a known scheme in
   * their URI form (an ISBN or ISSN as its URN), then the
   * `dc:identifier` values of no known scheme as written.
   */
  readonly identifiers: readonly string[];
  /** Licence URLs. */
  readonly licenses: readonly string[];
  /** schema.org type URLs of the work, known ones only (may be empty). */
  readonly types: readonly string[];
  readonly files: readonly FileLink[];
}

/**
 * Gathers the facts of an item from its record model; `poi` is the item's
 * POI, cited when the record has no persistent identifier of its own.
 *
 * @example itemFacts({ dc: { identifier: ['http://hdl.handle.net/1765/315'] } }).citation?.uri // 'https://hdl.handle.net/1765/315'
 */
export function itemFacts(record: RecordFields, poi?: string): ItemFacts {
  const citation = citationIdentifier(record, poi);
  const known = recordIdentifiers(record).map(identifierUri);
  const plain = dcValues(record, 'identifier')
    .map((v) => v.trim())
    .filter((v) => classifyIdentifier(v) === null);
  const identifiers = [...new Set([...known, ...plain])].filter((v) => v !== citation?.uri && v !== poi);
  return {
    ...(citation !== undefined && { citation }),
    identifiers,
    licenses: licences(record),
    types: schemaOrgTypes(record),
    files: fileLinks(record),
  };
}
