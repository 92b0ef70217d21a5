/**
 * The metadata format registry: metadataPrefix → schema, namespace and, where
 * the format can be made from the record format's Dublin Core fields, a
 * crosswalk run once at load time (never per request). A new format plugs in
 * here; its published XSD goes into `schemas/` and `schemas/oai-pmh-all.xsd`.
 */
import { oaiDc } from './oai-dc';
import type { DublinCore } from './oai-dc';

/** One metadata format as ListMetadataFormats shows it. */
export interface MetadataFormat {
  readonly prefix: string;
  readonly schema: string;
  readonly namespace: string;
  /** Builds the serialized metadata from Dublin Core fields; absent for formats loaded as XML only. */
  readonly fromDublinCore?: (dc: DublinCore) => string;
}

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
