/**
 * The loader: `oai-steward load`, `delete` and `stats`, and the
 * pieces they are made of, for tests and other tools.
 */
export { runLoad, readSetsFile } from './load';
export { readInput, setsFirst } from './read-inputs';
export type { LoadDeps, LoadOptions, LoadSummary } from './load-types';
export { openInput, kindOf } from './input';
export type { Input, InputKind, ByteCounter } from './input';
export { readNdjson, readJsonArray } from './read-json';
export { readOaiXml } from './read-oai-xml';
export { xmlToItem, internalIdFor } from './xml-record';
export { CanonicalXml } from './canonical-xml';
export { formatStats } from './stats';
export { runLoadCommand, runDeleteCommand, runStatsCommand, formatRefusal } from './cli';
