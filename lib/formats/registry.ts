/**
 * The metadata format registry: metadataPrefix → schema, namespace and, where
 * the format can be made from the record, a crosswalk run once at load time
 * (never per request). A new format plugs in here; its published XSD goes
 * into `schemas/` and `schemas/catalog.xml`.
 *
 * Built-in formats ship with the project and crosswalk from the typed record
 * (lib/model/); formats declared by configuration have no
 * crosswalk and are loaded as XML only.
 */
import type { MetadataFormat } from './format';
import { datacite } from './datacite';
import { edm } from './edm';
import { marc21 } from './marc21';
import { mods } from './mods';
import { oaiDatacite } from './oai-datacite';
import { oaiDc } from './oai-dc';
import { oaiOpenaire } from './oai-openaire';
import { qdc } from './qdc';
import { rioxx } from './rioxx';

/**
 * Every built-in format, oai_dc first. A repository offers oai_dc alone unless
 * it passes more of these to `createFormatRegistry`; the configuration offers
 * all but the opt-in ones (`optIn`: rioxx, qdc) by default.
 */
export const BUILT_IN_FORMATS: readonly MetadataFormat[] = [oaiDc, oaiOpenaire, datacite, oaiDatacite, marc21, mods, edm, rioxx, qdc];

/**
 * The version of what the built-in writers write. A store that writes formats
 * on demand (server/store/on-demand.ts) keeps it in its fingerprint
 * (lib/pipeline/prepare.ts `preparationFingerprint`): a change to any
 * writer's output is a new version, so such a store is rebuilt
 * (`oai-steward rebuild-formats`, which re-stamps exactly what changed)
 * before it serves the new output. test/formats/writers-version.test.ts
 * holds the digest of every writer's output on the test records under this
 * version and fails when the output moves without it.
 */
export const WRITERS_VERSION = 4;

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

/**
 * A metadata format as the repository configuration declares it
 * (server/config.ts `FormatConfig`): a built-in one by prefix
 * with its options, or any other XML format with its namespace, published
 * schema URL and local XSD.
 */
export interface FormatDeclaration {
  /** The metadataPrefix. */
  readonly prefix: string;
  /**
   * `builtin`: one of {@link BUILT_IN_FORMATS}. `declared`: any other XML
   * format, given as XML by the records themselves and validated against `xsd`.
   */
  readonly kind: 'builtin' | 'declared';
  /** Declared formats: the metadataNamespace of ListMetadataFormats. */
  readonly namespace?: string;
  /** Declared formats: the published schema URL of ListMetadataFormats. */
  readonly schema?: string;
  /** Declared formats: a local XSD file (absolute path) the records are validated against, offline. */
  readonly xsd?: string;
  /** Declared formats: an XML catalog (absolute path) that maps the XSD's imports to local files. */
  readonly catalog?: string;
  /** Format options, e.g. `datacentreSymbol` for `oai_datacite`. */
  readonly options: Readonly<Record<string, string>>;
}

/**
 * Makes the registry a configuration declares, in its order (oai_dc first
 * when it is not listed: OAI-PMH 2.0 section 3.4). A built-in format gets its
 * configured options over its defaults; a declared one has no crosswalk and
 * carries its local XSD. An unknown built-in prefix, or a declared format
 * without namespace, schema or XSD, throws.
 *
 * @example registryFromDeclarations([{ prefix: 'oai_datacite', kind: 'builtin', options: { datacentreSymbol: 'X.Y' } }]).get('oai_datacite')?.options // { datacentreSymbol: 'X.Y' }
 */
export function registryFromDeclarations(declarations: readonly FormatDeclaration[]): FormatRegistry {
  const formats = declarations.map((d): MetadataFormat => {
    if (d.kind === 'builtin') {
      const f = BUILT_IN_FORMATS.find((b) => b.prefix === d.prefix);
      if (!f) throw new Error(`${d.prefix} is not a built-in format (${BUILT_IN_FORMATS.map((b) => b.prefix).join(', ')})`);
      return { ...f, options: { ...f.defaultOptions, ...d.options } };
    }
    if (d.namespace === undefined || d.schema === undefined || d.xsd === undefined)
      throw new Error(`the declared format ${d.prefix} needs a namespace, a schema URL and a local XSD`);
    return {
      prefix: d.prefix,
      namespace: d.namespace,
      schema: d.schema,
      localSchema: { xsd: d.xsd, ...(d.catalog !== undefined && { catalog: d.catalog }) },
      options: { ...d.options },
    };
  });
  if (!formats.some((f) => f.prefix === 'oai_dc')) formats.unshift(oaiDc);
  return createFormatRegistry(formats);
}
