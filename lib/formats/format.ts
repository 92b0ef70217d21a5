/**
 * What a metadata format is: its place in ListMetadataFormats (prefix,
 * schema, namespace) and, for the built-in ones, its writer (the crosswalk
 * from the record model, run once when a record is written, never per
 * request) with the context a writer gets. Each format's module exports one
 * of these; ./registry.ts lists them.
 *
 * Pure: no I/O, no clock.
 */
import type { DublinCore } from '../model/dublin-core';
import type { RecordFields } from '../model/record';
import { dcValues } from '../model/facts';
import { classifyIdentifier } from '../model/identifiers';
import type { XmlElement } from '../xml/tree';

/** Per-format settings from the repository configuration. */
export interface CrosswalkOptions {
  /** The DataCite data centre (repository) symbol oai_datacite names, e.g. "TIB.EXAMPLE". */
  readonly datacentreSymbol?: string;
  /** The institution whose records `edm` disseminates (edm:dataProvider), the name Europeana shows. */
  readonly dataProvider?: string;
  /** The aggregator or institution Europeana receives `edm` records from (edm:provider). */
  readonly provider?: string;
}

/** The item a record is crosswalked for: its identifiers under governance, and the format's options. */
export interface CrosswalkContext {
  /** The item's oai-identifier (written into every format that has a place for it). */
  readonly oaiIdentifier: string;
  /** The item's POI (http://purl.org/poi/…), when the repository assigns POIs. */
  readonly poi?: string;
  readonly options: CrosswalkOptions;
}

/** The outcome for a record that lacks the format's mandatory content. */
export interface NotOffered {
  readonly notOffered: string;
}

/** One metadata element serialized (no XML declaration), or why the item does not have the format. */
export type CrosswalkResult = string | NotOffered;

/** A crosswalk from the typed record to one format. */
export type RecordCrosswalk = (record: RecordFields, ctx: CrosswalkContext) => CrosswalkResult;

/** Whether a crosswalk result is a refusal to offer the format. @example isNotOffered({ notOffered: 'no DOI' }) // true */
export function isNotOffered(r: CrosswalkResult): r is NotOffered {
  return typeof r !== 'string';
}

/**
 * The values of `dc.identifier` that no typed identifier (in any spelling its scheme has) or governance identifier already says.
 *
 * @example otherDcIdentifiers({ dc: { identifier: ['oai:x.org:1', 'local-7'] } }, { oaiIdentifier: 'oai:x.org:1', options: {} }) // ['local-7']
 */
export function otherDcIdentifiers(record: RecordFields, ctx: CrosswalkContext): string[] {
  const known = new Set<string>([ctx.oaiIdentifier, ...(ctx.poi !== undefined ? [ctx.poi] : [])]);
  const typed = new Set((record.identifiers ?? []).map((i) => `${i.type} ${i.value}`));
  for (const i of record.identifiers ?? []) {
    known.add(i.value);
    if (i.type === 'DOI') {
      known.add(`https://doi.org/${i.value}`);
      known.add(`doi:${i.value}`);
    }
  }
  // A typed identifier in another spelling (http://hdl.handle.net/1765/315 of the Handle 1765/315) is that identifier, written once.
  const spelled = (v: string): boolean => {
    const c = classifyIdentifier(v);
    return c !== null && c.type !== 'URL' && typed.has(`${c.type} ${c.value}`);
  };
  return [...new Set(dcValues(record, 'identifier'))].filter((v) => !known.has(v) && !spelled(v));
}

/** One metadata format as ListMetadataFormats shows it. */
export interface MetadataFormat {
  readonly prefix: string;
  /** The published schema address (schemaLocation); schemas/catalog.xml maps it to the local copy. */
  readonly schema: string;
  readonly namespace: string;
  /**
   * The namespace of the format's root element, when it is not `namespace`:
   * EDM's metadataNamespace is the EDM namespace, its records' root is
   * `rdf:RDF`. Records are recognized, and their XSD found, by it ({@link rootNamespaceOf}).
   */
  readonly rootNamespace?: string;
  /** Shipped with the project, its schema in schemas/ (as opposed to declared in the repository configuration). */
  readonly builtIn?: boolean;
  /**
   * Built-in formats offered only when the configuration lists them (`formats`), never by default: a
   * format added in an upgrade must not change what a repository configured by default serves.
   */
  readonly optIn?: boolean;
  /** Builds the serialized metadata from Dublin Core fields; absent for formats loaded as XML only. */
  readonly fromDublinCore?: (dc: DublinCore) => string;
  /**
   * Builds the serialized metadata from the typed record, or says why the
   * item does not have this format (`{ notOffered }`); deterministic, run at
   * load time.
   */
  readonly fromRecord?: RecordCrosswalk;
  /**
   * Why a record lacks this format's mandatory content, or null when the
   * crosswalk can make it: the validity predicate `fromRecord` applies first.
   */
  readonly lacks?: (record: RecordFields, ctx: CrosswalkContext) => string | null;
  /**
   * The reader beside the writer: lifts this format's XML (its root element,
   * parsed by lib/xml/tree.ts) into the record model. It says what the
   * format says and nothing more (what the format cannot say stays absent,
   * never guessed); a value the model's checks refuse stays Dublin Core text
   * rather than a typed field. Absent for formats declared by configuration,
   * which stay opaque.
   */
  readonly read?: (root: XmlElement) => RecordFields;
  /**
   * Namespaces besides `namespace` whose XML this format's reader also lifts
   * (e.g. DataCite kernel-3 for `datacite`): read into the model, never
   * served as this format.
   */
  readonly alsoReads?: readonly string[];
  /**
   * The XML with what its reader reads as absent, where the schema refuses
   * the value written, written as absent in the schema's own terms (MARCXML:
   * an indicator outside LoC's `[\da-z ]`, which the reader takes as none of
   * the values it tests, becomes blank). Given XML that passes its schema so
   * and lifts to the same model breaks the schema only where the model does
   * not look: the record is kept without serving that XML
   * (lib/pipeline/withhold.ts). Absent: every schema error counts.
   */
  readonly blankUnread?: (xml: string) => string;
  /**
   * The published schema a record given in this format is validated against,
   * when it is not `schema`: a format published in two profiles of one
   * namespace names the other profile's schema for the records that are in
   * it (EDM as Europeana itself publishes it, with ore:Proxy, is valid
   * against EDM-INTERNAL.xsd, which EDM.xsd alone refuses). Undefined: `schema`.
   */
  readonly schemaOfRecord?: (xml: string) => string | undefined;
  /** Built-in formats: the options the format takes, with their defaults (the configuration may override them). */
  readonly defaultOptions?: Readonly<Record<string, string>>;
  /** The options this repository configured for the format (merged over `defaultOptions`); passed to `fromRecord`. */
  readonly options?: CrosswalkOptions;
  /**
   * Declared formats: the local XSD (absolute path) their XML is validated
   * against offline, and optionally an XML catalog for the XSD's imports.
   */
  readonly localSchema?: { readonly xsd: string; readonly catalog?: string };
  /**
   * How one document holds several records of this format (MARCXML's
   * `collection` of `record`s, MODS's `modsCollection` of `mods`): the loader
   * splits such a file into one item per record. Absent when the format has
   * no such container.
   */
  readonly collection?: FormatCollection;
}

/**
 * The namespace a format's records have at their root: `rootNamespace`, else
 * the metadataNamespace.
 *
 * @example rootNamespaceOf(edm) // 'http://www.w3.org/1999/02/22-rdf-syntax-ns#'
 */
export function rootNamespaceOf(f: Pick<MetadataFormat, 'namespace' | 'rootNamespace'>): string {
  return f.rootNamespace ?? f.namespace;
}

/** A format's container of records, and how each record names itself. */
export interface FormatCollection {
  /** The container's local name, in the format's namespace. */
  readonly container: string;
  /** A record's local name, in the format's namespace: each child of the container is one. */
  readonly record: string;
  /**
   * The record's own identifier (its root element given), trimmed, and
   * where in the record it was found (for messages); undefined when the
   * record names none. Deterministic: the first candidate in document order.
   */
  readonly ownId: (root: XmlElement) => { readonly id: string; readonly from: string } | undefined;
}
