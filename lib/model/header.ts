/**
 * The syntax of what an item's header names besides its identifier and
 * datestamp: the sets it is in and the formats it is disseminated in
 * (OAI-PMH 2.0 sections 2.5 and 2.7). Written once; the request parser, the
 * record readers and the write pipeline all use them.
 */

/** OAI-PMH 3.4 and OAI-PMH.xsd's metadataPrefixType: unreserved URI characters. */
export const METADATA_PREFIX = /^[A-Za-z0-9\-_.!~*'()]+$/;

/** OAI-PMH 2.7 and OAI-PMH.xsd's setSpecType: colon-separated words of unreserved URI characters. */
export const SET_SPEC = /^[A-Za-z0-9\-_.!~*'()]+(:[A-Za-z0-9\-_.!~*'()]+)*$/;

/**
 * Whether a string is a setSpec.
 *
 * @example isValidSetSpec('a:b') // true
 * @example isValidSetSpec('a::b') // false
 */
export function isValidSetSpec(spec: string): boolean {
  return SET_SPEC.test(spec);
}

/**
 * Whether a string is a metadataPrefix.
 *
 * @example isValidMetadataPrefix('oai_dc') // true
 * @example isValidMetadataPrefix('a b') // false
 */
export function isValidMetadataPrefix(prefix: string): boolean {
  return METADATA_PREFIX.test(prefix);
}

/**
 * A set spec and all its ancestors, most general first (OAI-PMH 2.0 section
 * 2.7.2: an item in `a:b:c` is also in `a:b` and `a`).
 *
 * @example withAncestors('a:b:c') // ['a', 'a:b', 'a:b:c']
 */
export function withAncestors(spec: string): string[] {
  const parts = spec.split(':');
  return parts.map((_, i) => parts.slice(0, i + 1).join(':'));
}
