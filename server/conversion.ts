/**
 * How records of the project's format become items under a configuration:
 * the id policy, the format registry and the record conversion, built from
 * the configuration alone. The provider (./provider.ts) builds them once;
 * the loader's reading thread (./loader/read-worker.ts) builds the same
 * from the same configuration, without a database or a server.
 */
import { registryFromDeclarations, type FormatRegistry } from '../lib/formats/registry';
import { createIdPolicy, type IdPolicy } from '../lib/ids/policy';
import { poiFromOaiIdentifier } from '../lib/ids/poi';
import type { RecordConversion } from '../lib/records/json-record';
import type { Config } from './config';

/**
 * The part of the configuration the conversion is built from: plain data,
 * so it can be handed to another thread (the whole configuration cannot:
 * set rules may hold functions).
 */
export type ConversionConfig = Pick<Config, 'namespace' | 'idPolicy' | 'formats' | 'oaiDcProfile' | 'poiInDublinCore'>;

/**
 * The {@link ConversionConfig} of a configuration.
 *
 * @example conversionConfigOf(loadConfig(process.env)).formats
 */
export function conversionConfigOf(config: Config): ConversionConfig {
  const { namespace, idPolicy, formats, oaiDcProfile, poiInDublinCore } = config;
  return { namespace, idPolicy, formats, oaiDcProfile, poiInDublinCore };
}

/**
 * How records of the project's format become items under this configuration.
 *
 * @example recordConversion(config, createIdPolicy({ namespace: 'example.org' }), registryFromDeclarations(config.formats)).formats.get('oai_dc')
 */
export function recordConversion(config: ConversionConfig, policy: IdPolicy, formats: FormatRegistry): RecordConversion {
  return {
    formats,
    oaiDcProfile: config.oaiDcProfile,
    // Each record's POI as a dc:identifier, where harvesters look for links.
    ...(config.poiInDublinCore && { extraIdentifiers: (id: string) => [poiFromOaiIdentifier(policy.map(id).identifier)] }),
    // The crosswalks write the oai-identifier and POI wherever their format has a place for them.
    itemIdentifiers: (id: string) => {
      const oaiIdentifier = policy.map(id).identifier;
      return { oaiIdentifier, poi: poiFromOaiIdentifier(oaiIdentifier) };
    },
  };
}

/**
 * The id policy, the formats the configuration names (or `formats`, a
 * registry given in code) and the record conversion over them.
 *
 * @example conversionOf(conversionConfigOf(loadConfig(process.env))).conversion
 */
export function conversionOf(
  config: ConversionConfig,
  formats: FormatRegistry = registryFromDeclarations(config.formats),
): { policy: IdPolicy; formats: FormatRegistry; conversion: RecordConversion } {
  const policy = createIdPolicy({ namespace: config.namespace, mode: config.idPolicy });
  return { policy, formats, conversion: recordConversion(config, policy, formats) };
}
