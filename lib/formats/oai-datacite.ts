/**
 * `oai_datacite`: DataCite's OAI-PMH wrapper 1.1 (namespace
 * http://schema.datacite.org/oai/oai-1.1/, schemas/oai_datacite-1.1/oai.xsd)
 * around the same kernel-4 `resource` as the `datacite` format.
 *
 * | wrapper element    | from                                                              |
 * |--------------------|-------------------------------------------------------------------|
 * | schemaVersion      | "4.7", the kernel-4 version the payload is valid against          |
 * | datacentreSymbol   | the `datacentreSymbol` option (repository configuration)          |
 * | payload            | the kernel-4 `resource` of datacite.ts, unaltered                 |
 *
 * An item has this format when it has `datacite` (the same six mandatory
 * properties) and the repository configures a data centre symbol.
 */
import type { RecordFields } from '../model/record';
import type { CrosswalkContext, CrosswalkResult } from './format';
import { dataciteLacks, dataciteResource } from './datacite';
import type { MetadataFormat } from './format';
import { leaf, rootOpen } from './xml-out';
import { OAI_DATACITE_1_0_NS, readOaiDatacite } from './oai-datacite-read';

export const OAI_DATACITE_NS = 'http://schema.datacite.org/oai/oai-1.1/';
export const OAI_DATACITE_SCHEMA = 'http://schema.datacite.org/oai/oai-1.1/oai.xsd';
/** The DataCite Metadata Schema version of the payload (schemas/datacite-4 is 4.7). */
export const DATACITE_SCHEMA_VERSION = '4.7';

/**
 * Why an item cannot have oai_datacite (no data centre symbol, or not a DataCite resource), or null.
 *
 * @example oaiDataciteLacks(record, { oaiIdentifier: 'oai:x.org:1', options: {} }) // 'oai_datacite needs a data centre symbol (option datacentreSymbol)'
 */
export function oaiDataciteLacks(record: RecordFields, ctx: CrosswalkContext): string | null {
  const symbol = ctx.options.datacentreSymbol;
  if (symbol === undefined || symbol.trim() === '') return 'oai_datacite needs a data centre symbol (option datacentreSymbol)';
  return dataciteLacks(record);
}

/**
 * Crosswalks a record to an oai_datacite wrapper, or says why the item lacks it.
 *
 * @example
 * recordToOaiDatacite(record, { oaiIdentifier: 'oai:x.org:1', options: {} })
 * // → { notOffered: 'oai_datacite needs a data centre symbol (option datacentreSymbol)' }
 */
export function recordToOaiDatacite(record: RecordFields, ctx: CrosswalkContext): CrosswalkResult {
  const lacks = oaiDataciteLacks(record, ctx);
  if (lacks !== null) return { notOffered: lacks };
  const symbol = ctx.options.datacentreSymbol as string;
  return (
    rootOpen('oai_datacite', [['xmlns', OAI_DATACITE_NS]], `${OAI_DATACITE_NS} ${OAI_DATACITE_SCHEMA}`) +
    leaf('schemaVersion', DATACITE_SCHEMA_VERSION) +
    leaf('datacentreSymbol', symbol) +
    `<payload>${dataciteResource(record, ctx)}</payload></oai_datacite>`
  );
}

/** The oai_datacite entry of the format registry. */
export const oaiDatacite: MetadataFormat = {
  prefix: 'oai_datacite',
  schema: OAI_DATACITE_SCHEMA,
  namespace: OAI_DATACITE_NS,
  builtIn: true,
  fromRecord: recordToOaiDatacite,
  lacks: oaiDataciteLacks,
  read: readOaiDatacite,
  alsoReads: [OAI_DATACITE_1_0_NS],
  // The symbol of the data centre that registered the records; the demo's own by default.
  defaultOptions: { datacentreSymbol: 'OAISTEWARD.DEMO' },
};
