/**
 * The loader (issue 4): `oai-steward load`, `delete` and `stats`, and the
 * pieces they are made of, for tests and other tools.
 */
export { runLoad, readSetsFile } from './load';
export type { LoadDeps, LoadOptions, LoadSummary } from './load';
export { openInput, kindOf } from './input';
export type { Input, InputKind, ByteCounter } from './input';
export { readNdjson, readJsonArray } from './read-json';
export { readOaiXml } from './read-oai-xml';
export { xmlToItem, internalIdFor } from './xml-record';
export { CanonicalXml } from './canonical-xml';
export { createMetadataValidator } from './validate-metadata';
export { storeStats, formatStats } from './stats';
export type { StoreStats } from './stats';
export { runLoadCommand, runDeleteCommand, runStatsCommand, formatRefusal } from './cli';
