/**
 * What reading records needs of the configuration, built from the
 * configuration alone: the format registry (the formats a record may give
 * XML in, and their readers) and the id policy (an oai-identifier of this
 * repository's namespace is read back to its internal id). The provider (./provider.ts) builds it once;
 * the loader's reading thread (./loader/read-worker.ts) builds the same from
 * the same plain data, without a database or a server.
 */
import { registryFromDeclarations, type FormatRegistry } from '../lib/formats/registry';
import { createIdPolicy, type IdPolicy } from '../lib/ids/policy';
import type { Config } from './config';

/**
 * The part of the configuration reading is built from: plain data, so it can
 * be handed to another thread (the whole configuration cannot: set rules may
 * hold functions).
 */
export type ReaderConfig = Pick<Config, 'formats' | 'namespace' | 'idPolicy' | 'maxRecordBytes'>;

/**
 * The {@link ReaderConfig} of a configuration.
 *
 * @example readerConfigOf(loadConfig(process.env)).formats
 */
export function readerConfigOf(config: Config): ReaderConfig {
  const { formats, namespace, idPolicy, maxRecordBytes } = config;
  return { formats, namespace, idPolicy, maxRecordBytes };
}

/**
 * The formats a configuration names: built-in ones with their options,
 * declared ones with their local XSD.
 *
 * @example formatsOf(readerConfigOf(config)).get('oai_dc')?.namespace
 */
export function formatsOf(config: ReaderConfig): FormatRegistry {
  return registryFromDeclarations(config.formats);
}

/**
 * The id policy a configuration names.
 *
 * @example policyOf(readerConfigOf(config)).map('report 12').identifier
 */
export function policyOf(config: ReaderConfig): IdPolicy {
  return createIdPolicy({ namespace: config.namespace, mode: config.idPolicy });
}
