/**
 * The OAI identifier format (`oai:namespace-identifier:local-identifier`),
 * from "Specification and XML Schema for the OAI Identifier Format"
 * (specs/oai-identifier-format-original.txt).
 *
 * Validation follows the ABNF of section 2.1, not the XSD pattern of section
 * 3: the XSD lets through lowercase and malformed escapes (`%3c`, `%zz`) that
 * section 2.6 calls invalid (specs/README.md). Equivalence is string identity
 * (section 2.3): nothing here ever unescapes an identifier to compare it.
 *
 * Pure: no I/O, no clock.
 */
import { escapeUtf8, isReservedOrUnreserved, percentDecodeUtf8, uricErrors } from './uric';

/** A successfully parsed oai-identifier. */
export interface ParsedOaiIdentifier {
  readonly ok: true;
  readonly scheme: 'oai';
  readonly namespace: string;
  readonly local: string;
}

/** A failed parse, with every fault found (human-readable, one per line). */
export interface InvalidIdentifier {
  readonly ok: false;
  readonly errors: string[];
}

/** The result of {@link parseOaiIdentifier}. */
export type OaiIdentifierParse = ParsedOaiIdentifier | InvalidIdentifier;

// oai-identifier 2.1: domainname-word = alpha *( alphanum | "-" ), and a
// namespace-identifier has at least two words. Single-letter words are valid
// (the ABNF and the 2007 XSD agree; only the 2002 XSD pattern disagreed).
const DOMAIN_WORD_RE = /^[A-Za-z][A-Za-z0-9-]*$/;

/**
 * Lists why a string is not a namespace-identifier (oai-identifier 2.1: a
 * domain name of at least two dot-separated words, each starting with a
 * letter). Empty when valid. Shared with the POI module.
 *
 * @example namespaceIdentifierErrors('wibble') // ['namespace-identifier "wibble" must have at least two dot-separated words (a domain name)']
 */
export function namespaceIdentifierErrors(ns: string): string[] {
  if (ns.length === 0) return ['namespace-identifier is empty'];
  const words = ns.split('.');
  const errors: string[] = [];
  if (words.length < 2) errors.push(`namespace-identifier "${ns}" must have at least two dot-separated words (a domain name)`);
  for (const w of words) {
    if (w.length === 0) {
      errors.push(`namespace-identifier "${ns}" has an empty word`);
    } else if (!DOMAIN_WORD_RE.test(w)) {
      errors.push(
        /^[A-Za-z]/.test(w)
          ? `namespace-identifier word "${w}" may contain only letters, digits and "-"`
          : `namespace-identifier word "${w}" must start with a letter`,
      );
    }
  }
  return errors;
}

/**
 * Whether a string is a namespace-identifier by the ABNF of oai-identifier
 * 2.1 (case is preserved and significant, section 2.2).
 *
 * @example isValidNamespaceIdentifier('arXiv.org') // true
 * @example isValidNamespaceIdentifier('999') // false
 */
export function isValidNamespaceIdentifier(ns: string): boolean {
  return namespaceIdentifierErrors(ns).length === 0;
}

/**
 * Lists why a string is not a local-identifier (`1*uric` with uppercase hex
 * escapes, oai-identifier 2.1). Empty when valid. Shared with the POI module.
 *
 * @example localIdentifierErrors('ab cd') // ['local-identifier: character " " at position 2 is not permitted unescaped']
 */
export function localIdentifierErrors(local: string): string[] {
  return uricErrors(local, 'local-identifier', true);
}

/**
 * Parses an oai-identifier by the ABNF of oai-identifier 2.1: scheme `oai`
 * (case-sensitive), a namespace-identifier, and a local-identifier of
 * `uric` characters with uppercase-hex escapes. The namespace ends at the
 * second colon; the local-identifier may contain further colons. Returns
 * every fault found, not just the first.
 *
 * @example parseOaiIdentifier('oai:arXiv.org:hep-th/9901001') // { ok: true, scheme: 'oai', namespace: 'arXiv.org', local: 'hep-th/9901001' }
 */
export function parseOaiIdentifier(s: string): OaiIdentifierParse {
  const first = s.indexOf(':');
  if (first < 0) return { ok: false, errors: ['not an oai-identifier: expected "oai:namespace-identifier:local-identifier"'] };
  const scheme = s.slice(0, first);
  const errors: string[] = [];
  if (scheme !== 'oai') errors.push(`scheme must be "oai" (lowercase), found "${scheme}"`);
  const second = s.indexOf(':', first + 1);
  if (second < 0) {
    errors.push('missing ":" between namespace-identifier and local-identifier');
    return { ok: false, errors };
  }
  const namespace = s.slice(first + 1, second);
  const local = s.slice(second + 1);
  errors.push(...namespaceIdentifierErrors(namespace), ...localIdentifierErrors(local));
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, scheme: 'oai', namespace, local };
}

/**
 * Whether a string is a valid oai-identifier (oai-identifier 2.1).
 *
 * @example isValidOaiIdentifier('oai:wibble.org:ab%3ccd') // false: lowercase hex
 */
export function isValidOaiIdentifier(s: string): boolean {
  return parseOaiIdentifier(s).ok;
}

/**
 * Escapes an internal id into a local-identifier: its UTF-8 octets, with
 * exactly the characters that are neither reserved nor unreserved escaped as
 * `%XX` in uppercase hex, `%` itself included (oai-identifier 2.1, 2.4).
 * Because `%` is always escaped the result decodes unambiguously, so the
 * escaping is injective. Throws a `RangeError` for the empty string (a
 * local-identifier has at least one character) and for a lone surrogate
 * (no UTF-8 encoding exists, so no escaping could round-trip).
 *
 * @example escapeLocalIdentifier('ab<cd') // 'ab%3Ccd'
 * @example escapeLocalIdentifier('100%') // '100%25'
 */
export function escapeLocalIdentifier(internalId: string): string {
  if (internalId.length === 0) throw new RangeError('an empty internal id cannot become a local-identifier (1*uric)');
  return escapeUtf8(internalId);
}

/**
 * The inverse of {@link escapeLocalIdentifier}: decodes the `%XX` escapes of
 * a local-identifier and reads the octets as UTF-8. Throws a `RangeError`
 * when the string is not a valid local-identifier, when the octets are not
 * UTF-8, or when the local-identifier is not exactly what
 * `escapeLocalIdentifier` produces (an escaped reserved/unreserved character
 * such as `%3A`), since then the result would not escape back to the input.
 *
 * @example unescapeLocalIdentifier('ab%20cd') // 'ab cd'
 */
export function unescapeLocalIdentifier(local: string): string {
  const errors = localIdentifierErrors(local);
  if (errors.length > 0) throw new RangeError(errors.join('; '));
  const decoded = percentDecodeUtf8(local);
  if (decoded === null) throw new RangeError(`local-identifier "${local}" does not decode to UTF-8`);
  if (escapeUtf8(decoded) !== local) {
    throw new RangeError(`local-identifier "${local}" escapes characters that must not be escaped, so it is not the escaping of any internal id`);
  }
  return decoded;
}

/**
 * Whether a valid local-identifier is exactly the output of
 * {@link escapeLocalIdentifier} for some internal id: its escapes encode only
 * octets that must be escaped and those octets are UTF-8. The mapping policy
 * uses this to keep opaque ids and Fedora PIDs apart.
 *
 * @example isEscapedForm('ab%20cd') // true
 * @example isEscapedForm('demo:A%3AB') // false: ":" must not be escaped
 */
export function isEscapedForm(local: string): boolean {
  try {
    unescapeLocalIdentifier(local);
    return true;
  } catch {
    return false;
  }
}

/**
 * Lists the escapes of a valid local-identifier that encode a reserved or
 * unreserved character, which oai-identifier 2.1 says must not be escaped.
 * They are still syntactically valid (a normalized Fedora PID such as
 * `demo:A-B.C_D%3AE` relies on it), so this is advice, not validation.
 *
 * @example needlessEscapes('a%41%20') // ['%41']
 */
export function needlessEscapes(local: string): string[] {
  const found: string[] = [];
  for (const m of local.matchAll(/%([0-9A-Fa-f]{2})/g)) {
    const ch = String.fromCharCode(parseInt(m[1] as string, 16));
    if (isReservedOrUnreserved(ch)) found.push(m[0]);
  }
  return found;
}

/**
 * Builds an oai-identifier from a namespace-identifier and an opaque
 * internal id, escaping the id with {@link escapeLocalIdentifier}. Throws a
 * `RangeError` for an invalid namespace-identifier, an empty id or a lone
 * surrogate.
 *
 * @example buildOaiIdentifier('wibble.org', 'ab cd') // 'oai:wibble.org:ab%20cd'
 */
export function buildOaiIdentifier(namespace: string, internalId: string): string {
  const nsErrors = namespaceIdentifierErrors(namespace);
  if (nsErrors.length > 0) throw new RangeError(nsErrors.join('; '));
  return `oai:${namespace}:${escapeLocalIdentifier(internalId)}`;
}

/**
 * Encodes an oai-identifier as the value of an OAI-PMH request argument
 * (oai-identifier 2.5): the colons and the `%` of escapes are URL-encoded,
 * as is every other reserved character, so the value survives a query string
 * (`+` becomes `%2B`, never a space; `&` and `=` cannot split arguments).
 * Decoding the value once (`decodeURIComponent`) gives back the identifier.
 * Throws a `RangeError` for an invalid oai-identifier.
 *
 * @example toRequestArgument('oai:an.oai.org:ab%3Ccd') // 'oai%3Aan.oai.org%3Aab%253Ccd'
 */
export function toRequestArgument(oaiIdentifier: string): string {
  const parsed = parseOaiIdentifier(oaiIdentifier);
  if (!parsed.ok) throw new RangeError(parsed.errors.join('; '));
  // encodeURIComponent keeps exactly the unreserved marks and alphanumerics,
  // and escapes with uppercase hex: the example of section 2.5 verbatim.
  return encodeURIComponent(oaiIdentifier);
}
