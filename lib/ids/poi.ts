/**
 * The PURL-based Object Identifier (POI), `http://purl.org/poi/` +
 * namespace-identifier + `/` + local-identifier, and its two-way mapping to
 * oai-identifiers (specs/poi-purl-based-object-identifier.txt, sections 2
 * and 4). The spec copy lost the prefix; the original reads
 * `http://purl.org/poi/` (specs/README.md).
 *
 * Pure: no I/O, no clock.
 */
import { localIdentifierErrors, namespaceIdentifierErrors, parseOaiIdentifier } from './oai-identifier';

/** The PURL prefix every POI starts with (POI 2, 4). */
export const POI_PREFIX = 'http://purl.org/poi/';

/** A parsed POI. */
export interface ParsedPoi {
  readonly ok: true;
  readonly scheme: 'poi';
  readonly namespace: string;
  readonly local: string;
  /** The oai-identifier the POI maps to (POI 4, reverse algorithm). */
  readonly oaiIdentifier: string;
}

/** A failed parse with every fault found. */
export interface InvalidPoi {
  readonly ok: false;
  readonly errors: string[];
}

/**
 * Parses and validates a POI (POI 2): the exact prefix, a namespace-identifier
 * (same ABNF as the oai-identifier's), `/`, and a local-identifier of `uric`
 * with uppercase-hex escapes. A namespace-identifier holds no `/`, so the
 * first `/` after the prefix is the separator (POI 4).
 *
 * @example parsePoi('http://purl.org/poi/arXiv.org/hep-th/9901001').oaiIdentifier // 'oai:arXiv.org:hep-th/9901001'
 */
export function parsePoi(s: string): ParsedPoi | InvalidPoi {
  if (!s.startsWith(POI_PREFIX)) return { ok: false, errors: [`a POI must start with "${POI_PREFIX}"`] };
  const rest = s.slice(POI_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash < 0) return { ok: false, errors: ['missing "/" between namespace-identifier and local-identifier'] };
  const namespace = rest.slice(0, slash);
  const local = rest.slice(slash + 1);
  const errors = [...namespaceIdentifierErrors(namespace), ...localIdentifierErrors(local)];
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, scheme: 'poi', namespace, local, oaiIdentifier: `oai:${namespace}:${local}` };
}

/**
 * Whether a string is a valid POI.
 *
 * @example isValidPoi('http://purl.org/poi/foo.org/some-local-id-53') // true
 */
export function isValidPoi(s: string): boolean {
  return parsePoi(s).ok;
}

/**
 * Derives the POI of an oai-identifier (POI 4: strip `oai:`, turn the
 * separating colon into `/`, prepend the prefix). Throws a `RangeError` for
 * an invalid oai-identifier.
 *
 * @example poiFromOaiIdentifier('oai:arXiv.org:hep-th/9901001') // 'http://purl.org/poi/arXiv.org/hep-th/9901001'
 */
export function poiFromOaiIdentifier(oaiIdentifier: string): string {
  const p = parseOaiIdentifier(oaiIdentifier);
  if (!p.ok) throw new RangeError(p.errors.join('; '));
  return `${POI_PREFIX}${p.namespace}/${p.local}`;
}

/**
 * Derives the oai-identifier of a POI (POI 4, reverse algorithm: strip the
 * prefix, turn the first `/` into `:`, prepend `oai:`). Throws a
 * `RangeError` for an invalid POI.
 *
 * @example oaiIdentifierFromPoi('http://purl.org/poi/arXiv.org/hep-th/9901001') // 'oai:arXiv.org:hep-th/9901001'
 */
export function oaiIdentifierFromPoi(poi: string): string {
  const p = parsePoi(poi);
  if (!p.ok) throw new RangeError(p.errors.join('; '));
  return p.oaiIdentifier;
}
