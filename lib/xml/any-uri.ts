/**
 * Whether a string is surely accepted as `xs:anyURI` by schema validators,
 * so it can be echoed in an attribute the OAI-PMH schema types that way.
 */

// What libxml2 (the validator of the suite, and of many harvesters) does before it parses an anyURI:
// every byte under 0x21 or over 0x7E and these characters become "_" (xmlschemastypes.c).
const URI_LAX_CHARS = /[\u0000-\u0020<>"{}|\\^`'\u007F-\uFFFF]/g;
const URI_CHARS = /^[A-Za-z0-9\-._~!$&()*+,;=:@/?#%]*$/;
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const URI_AUTHORITY = /^(?:[A-Za-z0-9\-._~!$&()*+,;=:%]*@)?[A-Za-z0-9\-._~%]+(?::[0-9]+)?$/;

/**
 * Whether a string is surely a valid xs:anyURI as schema validators check
 * it: an RFC 3986 URI-reference once the characters validators tolerate
 * (space, `<`, `"`, non-ASCII…) are set aside, with no brackets, well-formed
 * `%` escapes, at most one `#`, an authority of a plain host and a
 * non-empty numeric port, and no `:` in the first segment (nor `//` later)
 * of a relative reference. Conservative: a string it accepts is
 * valid, one it refuses may still be. The writer echoes a request's
 * `identifier` attribute only when this holds (OAI-PMH.xsd identifierType is
 * anyURI), so an unknown identifier that is not even a URI still gets a
 * valid idDoesNotExist answer.
 *
 * @example isSurelyAnyUri('oai:arXiv.org:hep-th/9901001') // true
 * @example isSurelyAnyUri('2024-01-01T25:61:61Z') // false (not a scheme, and ':' in a relative path)
 */
export function isSurelyAnyUri(s: string): boolean {
  const t = s.replace(URI_LAX_CHARS, '_');
  if (!URI_CHARS.test(t) || /%(?![0-9A-Fa-f]{2})/.test(t)) return false;
  const hash = t.indexOf('#');
  if (hash >= 0 && t.indexOf('#', hash + 1) >= 0) return false;
  const scheme = URI_SCHEME.exec(t);
  const rest = scheme ? t.slice(scheme[0].length) : t;
  if (!scheme && (/^[^/?#]*:/.test(rest) || rest.indexOf('//', 1) > 0)) return false;
  if (rest.startsWith('//')) {
    const authority = /^\/\/([^/?#]*)/.exec(rest)?.[1] ?? '';
    if (!URI_AUTHORITY.test(authority)) return false;
  }
  return true;
}
