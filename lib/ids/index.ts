/**
 * The public API of the identifier layer: one pure module per scheme
 * (oai-identifier, POI, Fedora PID and info:fedora URIs, info:sid, urn:pdi),
 * the mapping policy, and the `oai-steward id` command.
 */
export {
  parseOaiIdentifier,
  isValidOaiIdentifier,
  isValidNamespaceIdentifier,
  escapeLocalIdentifier,
  unescapeLocalIdentifier,
  isEscapedForm,
  needlessEscapes,
  buildOaiIdentifier,
  toRequestArgument,
  type ParsedOaiIdentifier,
  type OaiIdentifierParse,
  type InvalidIdentifier,
} from './oai-identifier';
export { POI_PREFIX, parsePoi, isValidPoi, poiFromOaiIdentifier, oaiIdentifierFromPoi, type ParsedPoi } from './poi';
export {
  MAX_PID_LENGTH,
  NORMALIZED_PID_RE,
  INFO_FEDORA_PREFIX,
  parseFedoraPid,
  isValidFedoraPid,
  isNormalizedFedoraPid,
  normalizeFedoraPid,
  parseInfoFedora,
  isValidInfoFedora,
  normalizeInfoFedora,
  isNcName,
  type ParsedFedoraPid,
  type ParsedInfoFedora,
} from './fedora-pid';
export { parseInfoSid, isValidInfoSid, canonicalInfoSid, type ParsedInfoSid } from './info-sid';
export { parsePdi, isValidPdi, canonicalPdi, pdiEquivalent, canonicalSeries, gmtDate, nextPdiVersion, checkVersionIncrement, type ParsedPdi } from './pdi';
export { mintPdi, type MintPdiInput } from './pdi-mint';
export { createIdPolicy, IdMappingError, type IdPolicy, type IdPolicyOptions, type IdMappingMode, type MappedId } from './policy';
export {
  ID_SCHEMES,
  detectScheme,
  inspectIdentifier,
  mapResult,
  unmapResult,
  type IdScheme,
  type InspectResult,
  type MapResult,
  type MapFailure,
} from './inspect';
