/**
 * What an item's metadata says about it that a machine or a person looking
 * for links needs: its DOI, its other identifiers, its licence URLs, its
 * kind of work and its files. Read from the parsed records of every format
 * the item has; the first format (oai_dc, which every item has: OAI-PMH 3.4)
 * decides the order.
 */
import { isHttpUrl, normalizeDoi } from '../model/identifiers';
import { DC_NS } from '../xml/namespaces';
import { findAll, textOf } from '../xml/tree';
import type { XmlElement } from '../xml/tree';

/** A file of the item: where it is and, when the metadata says, its media type. */
export interface FileLink {
  readonly href: string;
  readonly type?: string;
}

/** What {@link itemFacts} found. */
export interface ItemFacts {
  /** The first DOI among the identifiers, as `https://doi.org/…`. */
  readonly doi?: string;
  /** Every dc:identifier value, as written, without repeats. */
  readonly identifiers: readonly string[];
  /** Licence URLs (dc:rights values that are http(s) URLs, OpenAIRE licenseCondition/@uri). */
  readonly licenses: readonly string[];
  /** schema.org type URLs of the work, known ones only (may be empty). */
  readonly types: readonly string[];
  readonly files: readonly FileLink[];
}

const OAIRE_NS = 'http://namespace.openaire.eu/schema/oaire/';
const DATACITE_NS = 'http://datacite.org/schema/kernel-4';
const MODS_NS = 'http://www.loc.gov/mods/v3';

/** Dublin Core, DCMI Type and info:eu-repo type words → schema.org types (lower case keys). */
const SCHEMA_ORG_TYPES: Readonly<Record<string, string>> = {
  dataset: 'Dataset',
  software: 'SoftwareSourceCode',
  sound: 'AudioObject',
  stillimage: 'ImageObject',
  image: 'ImageObject',
  movingimage: 'VideoObject',
  collection: 'Collection',
  event: 'Event',
  article: 'ScholarlyArticle',
  'journal article': 'ScholarlyArticle',
  book: 'Book',
  bookpart: 'Chapter',
  'book part': 'Chapter',
  thesis: 'Thesis',
  doctoralthesis: 'Thesis',
  masterthesis: 'Thesis',
  bachelorthesis: 'Thesis',
  report: 'Report',
  map: 'Map',
};

/**
 * The schema.org type URL of a type value (a DCMI Type such as `Dataset`, a
 * word such as `journal article`, or an info:eu-repo/semantics term), or
 * null when it is not one known here. `Text` maps to nothing: it says no
 * more than schema.org's CreativeWork.
 *
 * @example schemaOrgType('StillImage') // 'https://schema.org/ImageObject'
 */
export function schemaOrgType(value: string): string | null {
  const word = value.trim().replace(/^info:eu-repo\/semantics\//i, '').replace(/^https?:\/\/purl\.org\/dc\/dcmitype\//i, '').toLowerCase();
  const t = SCHEMA_ORG_TYPES[word];
  return t ? `https://schema.org/${t}` : null;
}

function unique<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}

/**
 * Gathers the facts of an item from the parsed metadata of each of its
 * formats (null entries, for records left out as corrupt, are skipped).
 *
 * @example itemFacts([parseFragment(oaiDcXml)]).doi // 'https://doi.org/10.5555/demo.2024.0001'
 */
export function itemFacts(records: readonly (XmlElement | null)[]): ItemFacts {
  const roots = records.filter((r): r is XmlElement => r !== null);
  const all = (ns: string, local: string): XmlElement[] => roots.flatMap((r) => findAll(r, ns, local));
  const identifiers = unique(all(DC_NS, 'identifier').map(textOf).filter((v) => v !== ''));
  const dataciteDois = all(DATACITE_NS, 'identifier').filter((e) => e.attrs.get('identifierType') === 'DOI').map(textOf);
  const doi = [...identifiers, ...dataciteDois].map(normalizeDoi).find((d): d is string => d !== null);
  const licenses = unique([
    ...all(DC_NS, 'rights').map(textOf),
    ...all(OAIRE_NS, 'licenseCondition').map((e) => e.attrs.get('uri') ?? ''),
  ].filter(isHttpUrl));
  const types = unique(
    [...all(DC_NS, 'type').map(textOf), ...all(DATACITE_NS, 'resourceType').map((e) => e.attrs.get('resourceTypeGeneral') ?? '')]
      .map(schemaOrgType)
      .filter((t): t is string => t !== null),
  );
  const files: FileLink[] = [];
  const seen = new Set<string>();
  const addFile = (href: string, type: string | undefined): void => {
    if (!isHttpUrl(href) || seen.has(href)) return;
    seen.add(href);
    files.push({ href, ...(type && { type }) });
  };
  // OpenAIRE Guidelines v4, field "File Location" (oaire:file, with mimeType).
  for (const e of all(OAIRE_NS, 'file')) addFile(textOf(e), e.attrs.get('mimeType'));
  // MODS 3.7 location/url with access="raw object": the file itself, not a page about it.
  for (const e of all(MODS_NS, 'url')) if (e.attrs.get('access') === 'raw object') addFile(textOf(e), undefined);
  return { ...(doi !== undefined && { doi }), identifiers, licenses, types, files };
}
