/**
 * The metadata format registry: metadataPrefix → schema, namespace and, where
 * the format can be made from the record, a crosswalk run once at load time
 * (never per request). A new format plugs in here; its published XSD goes
 * into `schemas/` and `schemas/catalog.xml`.
 *
 * Built-in formats ship with the project and crosswalk from the typed record
 * (lib/records/fields.ts); formats declared by configuration have no
 * crosswalk and are loaded as XML only.
 */
import type { RecordFields } from '../records/fields';
import type { CrosswalkContext, RecordCrosswalk } from './crosswalk';
import { datacite } from './datacite';
import { marc21 } from './marc21';
import { mods } from './mods';
import { oaiDatacite } from './oai-datacite';
import { oaiDc } from './oai-dc';
import type { DublinCore } from './oai-dc';
import { oaiOpenaire } from './oai-openaire';

/** One metadata format as ListMetadataFormats shows it. */
export interface MetadataFormat {
  readonly prefix: string;
  /** The published schema address (schemaLocation); schemas/catalog.xml maps it to the local copy. */
  readonly schema: string;
  readonly namespace: string;
  /** Shipped with the project, its schema in schemas/ (as opposed to declared in the repository configuration). */
  readonly builtIn?: boolean;
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
}

/**
 * Every built-in format, oai_dc first. A repository offers oai_dc alone unless
 * it passes more of these to `createFormatRegistry`.
 */
export const BUILT_IN_FORMATS: readonly MetadataFormat[] = [oaiDc, oaiOpenaire, datacite, oaiDatacite, marc21, mods];

/** A lookup of the formats a repository offers. */
export interface FormatRegistry {
  get(prefix: string): MetadataFormat | undefined;
  all(): readonly MetadataFormat[];
}

/**
 * Makes a registry of the given formats (oai_dc first by default). Example:
 * `createFormatRegistry().get('oai_dc')?.namespace` is `http://www.openarchives.org/OAI/2.0/oai_dc/`.
 */
export function createFormatRegistry(formats: readonly MetadataFormat[] = [oaiDc]): FormatRegistry {
  const byPrefix = new Map(formats.map((f) => [f.prefix, f]));
  if (!byPrefix.has('oai_dc')) throw new Error('OAI-PMH 3.4: oai_dc must be supported for every item');
  return { get: (p) => byPrefix.get(p), all: () => [...byPrefix.values()] };
}
