/**
 * Typed identifiers of a record and of the people, organisations and funders
 * it names: each scheme's syntax, check digits where the scheme has them, and
 * one normalized form, so every crosswalk writes the same spelling.
 *
 * Pure: no I/O, no network (nothing is resolved).
 */

/** A normalized value, or the reason the input is not one. */
export type Checked = { readonly value: string } | { readonly error: string };

/** The identifier schemes a record's `identifiers` may carry. */
export const IDENTIFIER_TYPES = ['DOI', 'Handle', 'URN', 'ARK', 'URL', 'ISBN', 'ISSN'] as const;
export type IdentifierType = (typeof IDENTIFIER_TYPES)[number];

const ok = (value: string): Checked => ({ value });
const bad = (error: string): Checked => ({ error });

/**
 * A DOI (ISO 26324; DOI Handbook 2.2): `10.` + registrant code + `/` + suffix.
 * Accepts the `doi:`, `info:doi/` and resolver URL spellings (https://doi.org/,
 * http, dx.doi.org, www.doi.org, with or without the scheme; percent-encoding
 * decoded) and keeps the bare form; case is kept (DOIs compare
 * case-insensitively, but the registrant's spelling is the one to show).
 *
 * @example checkDoi('https://doi.org/10.1000/182') // { value: '10.1000/182' }
 */
export function checkDoi(s: string): Checked {
  const t = s.trim();
  const url = DOI_RESOLVER.exec(t);
  // A resolver URL is a URI, percent-encoded (DOI Handbook 3.8.3); the DOI name is what it encodes.
  const bare = url ? decodePercent(t.slice(url[0].length)) : t.replace(/^(?:doi:|info:doi\/)/i, '');
  if (!/^10\.\d{4,9}(?:\.\d+)*\/\S+$/.test(bare)) return bad('not a DOI (10.NNNN/suffix, optionally as doi: or https://doi.org/)');
  return ok(bare);
}

// https://doi.org/, its older dx.doi.org and www.doi.org hosts, with or without the scheme.
const DOI_RESOLVER = /^(?:https?:\/\/)?(?:dx\.|www\.)?doi\.org\//i;

/** Percent-decoding of the path of a resolver URL; text that is not valid percent-encoding is kept as written. */
function decodePercent(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * A Handle (RFC 3650): a numeric naming authority with dot-separated
 * segments, `/`, a local name. Accepts the `hdl:`, `info:hdl/` and
 * https://hdl.handle.net/ spellings (http, www., with or without the scheme).
 *
 * @example checkHandle('hdl:20.500.12345/678') // { value: '20.500.12345/678' }
 */
export function checkHandle(s: string): Checked {
  const t = s.trim();
  const url = /^(?:https?:\/\/)?(?:www\.)?hdl\.handle\.net\//i.exec(t);
  const bare = url ? decodePercent(t.slice(url[0].length)) : t.replace(/^(?:hdl:|info:hdl\/)/i, '');
  if (!/^\d+(?:\.\d+)*\/\S+$/.test(bare)) return bad('not a Handle (prefix/suffix with a numeric prefix, optionally as hdl: or https://hdl.handle.net/)');
  return ok(bare);
}

/**
 * A URN (RFC 8141): `urn:` + namespace identifier + `:` + namespace-specific
 * string. The `urn:` and the NID are case-insensitive and normalized to lower
 * case; the NSS is kept as given. A resolver URL is read for the URN it
 * names, as the last segment of its path (https://nbn-resolving.org/urn:nbn:…,
 * https://urn.fi/URN:NBN:…) or as a query value (http://urn.kb.se/resolve?urn=urn:nbn:…):
 * checkUrn is asked of a value a format has already typed as a URN.
 *
 * @example checkUrn('URN:NBN:de:101-1234') // { value: 'urn:nbn:de:101-1234' }
 * @example checkUrn('http://urn.kb.se/resolve?urn=urn:nbn:se:uu:diva-160648') // { value: 'urn:nbn:se:uu:diva-160648' }
 */
export function checkUrn(s: string): Checked {
  const t = s.trim();
  const m = /^urn:([a-z0-9][a-z0-9-]{0,30}[a-z0-9]):(\S+)$/i.exec(/^https?:\/\//i.test(t) ? (urnOfResolverUrl(t) ?? t) : t);
  if (!m || (m[1] as string).toLowerCase() === 'urn') return bad('not a URN (urn:NID:NSS, RFC 8141)');
  return ok(`urn:${(m[1] as string).toLowerCase()}:${m[2] as string}`);
}

/** The URN a resolver URL names in its path or its query, or null. */
function urnOfResolverUrl(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const last = decodePercent(u.pathname.slice(u.pathname.lastIndexOf('/') + 1));
  if (/^urn:/i.test(last)) return last;
  for (const v of u.searchParams.values()) if (/^urn:/i.test(v)) return v;
  return null;
}

/**
 * An ARK (ARK Identifier Scheme, IETF draft-kunze-ark): `ark:` + NAAN + `/` +
 * name; accepts `ark:/NAAN/…`, `ark:NAAN/…` and a resolver URL
 * (https://n2t.net/ark:/…), and keeps the `ark:/NAAN/name` form.
 *
 * @example checkArk('https://n2t.net/ark:/13030/tf5p30086k') // { value: 'ark:/13030/tf5p30086k' }
 */
export function checkArk(s: string): Checked {
  const m = /^(?:https?:\/\/[^/\s]+\/)?ark:\/?([0-9bcdfghjkmnpqrstvwxz]{5,})\/(\S+)$/.exec(s.trim());
  if (!m) return bad('not an ARK (ark:/NAAN/name, the NAAN of five or more betanumeric characters)');
  return ok(`ark:/${m[1] as string}/${m[2] as string}`);
}

/**
 * An absolute http or https URL (WHATWG URL), in its serialized form.
 *
 * @example checkUrl('https://example.org/a b') // an error: whitespace
 */
export function checkUrl(s: string): Checked {
  const t = s.trim();
  if (/\s/.test(t)) return bad('not a URL (holds whitespace)');
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    return bad('not an absolute URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return bad('not an http or https URL');
  return ok(u.href);
}

/**
 * An ISBN-10 or ISBN-13 (ISO 2108) with a correct check digit; hyphens and
 * spaces are dropped.
 *
 * @example checkIsbn('978-3-16-148410-0') // { value: '9783161484100' }
 */
export function checkIsbn(s: string): Checked {
  const d = s
    .trim()
    .replace(/^ISBN(?:-1[03])?:?\s*/i, '')
    .replace(/[-\s]/g, '')
    .toUpperCase();
  if (/^\d{9}[\dX]$/.test(d)) {
    let sum = 0;
    for (let i = 0; i < 10; i++) sum += (10 - i) * (d[i] === 'X' ? 10 : Number(d[i]));
    return sum % 11 === 0 ? ok(d) : bad('ISBN-10 check digit does not match');
  }
  if (/^97[89]\d{10}$/.test(d)) {
    let sum = 0;
    for (let i = 0; i < 13; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(d[i]);
    return sum % 10 === 0 ? ok(d) : bad('ISBN-13 check digit does not match');
  }
  return bad('not an ISBN (10 or 13 digits, ISBN-13 starting 978 or 979)');
}

/**
 * An ISSN (ISO 3297): `NNNN-NNNC`, the check character by modulus 11, `X`
 * for ten.
 *
 * @example checkIssn('0317-8471') // { value: '0317-8471' }
 */
export function checkIssn(s: string): Checked {
  const d = s
    .trim()
    .replace(/^(?:e?ISSN:?\s*)/i, '')
    .replace('-', '')
    .toUpperCase();
  if (!/^\d{7}[\dX]$/.test(d)) return bad('not an ISSN (NNNN-NNNC)');
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += (8 - i) * Number(d[i]);
  const check = (11 - (sum % 11)) % 11;
  if ((check === 10 ? 'X' : String(check)) !== d[7]) return bad('ISSN check character does not match');
  return ok(`${d.slice(0, 4)}-${d.slice(4)}`);
}

/** Checks a value against the scheme of a typed identifier. @example checkIdentifier('ISSN', '03178471') // { value: '0317-8471' } */
export function checkIdentifier(type: IdentifierType, s: string): Checked {
  switch (type) {
    case 'DOI':
      return checkDoi(s);
    case 'Handle':
      return checkHandle(s);
    case 'URN':
      return checkUrn(s);
    case 'ARK':
      return checkArk(s);
    case 'URL':
      return checkUrl(s);
    case 'ISBN':
      return checkIsbn(s);
    case 'ISSN':
      return checkIssn(s);
  }
}

/**
 * Checks the identifier of a related resource by its DataCite
 * `relatedIdentifierType`: a scheme the record's own identifiers use is
 * checked as those are, EISSN and LISSN as ISSNs; any other type (arXiv,
 * PMID, SWHID, …) is kept as given.
 *
 * @example checkRelatedIdentifier('EISSN', '15213765') // { value: '1521-3765' }
 */
export function checkRelatedIdentifier(type: string, s: string): Checked {
  if ((IDENTIFIER_TYPES as readonly string[]).includes(type)) return checkIdentifier(type as IdentifierType, s);
  if (type === 'EISSN' || type === 'LISSN') return checkIssn(s);
  return ok(s);
}

/** ISO 7064 MOD 11-2 check character of a string of digits (ORCID, ISNI). */
function mod11_2(digits: string): string {
  let total = 0;
  for (const c of digits) total = (total + Number(c)) * 2;
  const check = (12 - (total % 11)) % 11;
  return check === 10 ? 'X' : String(check);
}

/** A 16-character ISO 27729 / ORCID number with its MOD 11-2 check character, hyphens and spaces dropped. */
function sixteen(s: string): string | null {
  const d = s.replace(/[-\s]/g, '').toUpperCase();
  if (!/^\d{15}[\dX]$/.test(d)) return null;
  return mod11_2(d.slice(0, 15)) === d[15] ? d : null;
}

/**
 * An ORCID iD (ORCID "Structure of the ORCID Identifier"): sixteen
 * characters, the last an ISO 7064 MOD 11-2 check character. Accepts the
 * bare or URL form (https://orcid.org/…, http, www., with or without the
 * scheme) and keeps the bare hyphenated form.
 *
 * @example checkOrcid('https://orcid.org/0000-0002-1825-0097') // { value: '0000-0002-1825-0097' }
 */
export function checkOrcid(s: string): Checked {
  const bare = s.trim().replace(/^(?:https?:\/\/)?(?:www\.)?orcid\.org\//i, '');
  if (!/^\d{4}-?\d{4}-?\d{4}-?\d{3}[\dXx]$/.test(bare)) return bad('not an ORCID iD (0000-0000-0000-000X, optionally as https://orcid.org/…)');
  const d = sixteen(bare);
  if (!d) return bad('ORCID iD check character does not match');
  return ok(d.replace(/(.{4})(?=.)/g, '$1-'));
}

/**
 * An ISNI (ISO 27729): sixteen characters with the same MOD 11-2 check
 * character as ORCID; kept as sixteen characters without spaces. Accepts the
 * digits with or without spaces, after `ISNI` or in the URL form
 * (http(s)://(www.)isni.org/isni/…, spaces percent-encoded or not).
 *
 * @example checkIsni('0000 0001 2281 955X') // { value: '000000012281955X' }
 * @example checkIsni('http://www.isni.org/isni/0000000119587073') // { value: '0000000119587073' }
 */
export function checkIsni(s: string): Checked {
  const t = s.trim();
  const url = /^(?:https?:\/\/)?(?:www\.)?isni\.org\/isni\//i.exec(t);
  const bare = url ? decodePercent(t.slice(url[0].length)) : t.replace(/^ISNI:?\s*/i, '');
  const d = sixteen(bare);
  return d ? ok(d) : bad('not an ISNI (sixteen characters with a valid check character)');
}

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * A ROR identifier (ror.org "ROR identifier pattern"): `0`, six Crockford
 * base-32 characters, and two check digits, ISO 7064 MOD 97-10 of the number
 * the first seven characters encode. Accepts the bare or URL form
 * (https://ror.org/…, http, www., with or without the scheme) and keeps the
 * URL form, as DataCite and ROR write it.
 *
 * @example checkRor('04wxnsj81') // { value: 'https://ror.org/04wxnsj81' }
 */
export function checkRor(s: string): Checked {
  const bare = s
    .trim()
    .replace(/^(?:https?:\/\/)?(?:www\.)?ror\.org\//i, '')
    .toLowerCase();
  if (!/^0[0-9a-hjkmnp-tv-z]{6}\d{2}$/.test(bare)) return bad('not a ROR id (0 + six base-32 characters + two digits, optionally as https://ror.org/…)');
  let n = 0;
  for (const c of bare.slice(0, 7)) n = n * 32 + CROCKFORD.indexOf(c);
  // n < 32^7 < 2^35, so n * 100 stays exact in a double.
  const check = 98 - ((n * 100) % 97);
  if (String(check).padStart(2, '0') !== bare.slice(7)) return bad('ROR id check digits do not match');
  return ok(`https://ror.org/${bare}`);
}

/**
 * A funder identifier of the given DataCite `funderIdentifierType`: a
 * Crossref Funder ID is a DOI under 10.13039 (kept as https://doi.org/…, as
 * the Crossref Funder Registry writes it), a ROR id or an ISNI is checked by
 * its scheme, a GRID id by its syntax, `Other` only for being non-empty.
 *
 * @example checkFunderIdentifier('Crossref Funder ID', '10.13039/501100000780') // { value: 'https://doi.org/10.13039/501100000780' }
 */
export function checkFunderIdentifier(type: string, s: string): Checked {
  switch (type) {
    case 'Crossref Funder ID': {
      const t = s.trim();
      const doi = checkDoi(/^\d+$/.test(t) ? `10.13039/${t}` : t);
      if ('error' in doi || !doi.value.startsWith('10.13039/')) return bad('not a Crossref Funder ID (a DOI under 10.13039/)');
      return ok(`https://doi.org/${doi.value}`);
    }
    case 'ROR':
      return checkRor(s);
    case 'ISNI':
      return checkIsni(s);
    case 'GRID':
      return /^grid\.\d+\.[0-9a-f]+$/.test(s.trim()) ? ok(s.trim()) : bad('not a GRID id (grid.NNNN.x)');
    default:
      return s.trim() === '' ? bad('must not be empty') : ok(s.trim());
  }
}

const DOI_URL = /^https?:\/\/(?:dx\.)?doi\.org\/(10\.[0-9]+(?:\.[0-9]+)*\/\S+)$/i;
const DOI_URN = /^doi:\s*(10\.[0-9]+(?:\.[0-9]+)*\/\S+)$/i;
const DOI_BARE = /^(10\.[0-9]{4,}(?:\.[0-9]+)*\/\S+)$/;

/**
 * The DOI of an identifier value as an https URL (the form DOI's display
 * guidelines recommend), or null when the value is not a DOI: accepts
 * `https://doi.org/10.…` (also http and dx.doi.org), `doi:10.…` and a bare
 * `10.NNNN/…`. Characters a URI cannot hold are percent-encoded.
 *
 * @example normalizeDoi('doi:10.5555/ABC def') // 'https://doi.org/10.5555/ABC%20def'
 */
export function normalizeDoi(value: string): string | null {
  const v = value.trim();
  const url = DOI_URL.exec(v);
  const doi = url ? url[1] : (DOI_URN.exec(v)?.[1] ?? DOI_BARE.exec(v)?.[1]);
  if (doi === undefined) return null;
  // An URL form is already encoded; a doi: or bare DOI is a name whose "%", "#", "?" must be escaped.
  const encoded = url ? doi.replace(/[^\x21-\x7e]|["<>\\^`{|}]/gu, percentEncode) : encodeUriName(doi);
  return `https://doi.org/${encoded}`;
}

/**
 * A name (a DOI, a Handle, an ARK) as the path of a resolver URL: every
 * character outside RFC 3986's `pchar` and `/` is percent-encoded as UTF-8,
 * `%` included (the name is not yet a URI, so none of its `%` is an escape).
 *
 * @example encodeUriName('1765/a b#c') // '1765/a%20b%23c'
 */
export function encodeUriName(name: string): string {
  return name.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/gu, percentEncode);
}

/** Percent-encodes one character as UTF-8; a lone surrogate (not a character) becomes U+FFFD. */
export function percentEncode(c: string): string {
  try {
    return encodeURIComponent(c);
  } catch {
    return '%EF%BF%BD';
  }
}

/** Whether a value is an absolute http(s) URL, the only links a page or a header makes from metadata. */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\/[^\s<>"]+$/i.test(value)) return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * What kind of identifier a free-text identifier value is (a dc:identifier,
 * an OpenAIRE alternateIdentifier, a MARC 024), in the normalized form of its
 * scheme, or null when it names no scheme the model knows. Only an explicit
 * spelling is read (a resolver URL, a `doi:`/`hdl:`/`urn:`/`ark:` prefix, a
 * bare `10.NNNN/…` DOI, `ISBN`/`ISSN` before the number): a bare `1765/315`
 * may be a Handle or anything else, and is not guessed.
 *
 * @example classifyIdentifier('http://hdl.handle.net/1765/315') // { type: 'Handle', value: '1765/315' }
 * @example classifyIdentifier('https://doi.org/10.5555/x') // { type: 'DOI', value: '10.5555/x' }
 * @example classifyIdentifier('local-7') // null
 */
export function classifyIdentifier(value: string): { readonly type: IdentifierType; readonly value: string } | null {
  const v = value.trim();
  const as = (type: IdentifierType, c: Checked): { type: IdentifierType; value: string } | null => ('value' in c ? { type, value: c.value } : null);
  if (/^(?:doi:|info:doi\/|https?:\/\/(?:dx\.|www\.)?doi\.org\/|10\.\d{4,9}(?:\.\d+)*\/)/i.test(v)) return as('DOI', checkDoi(v));
  if (/^(?:hdl:|info:hdl\/|https?:\/\/(?:www\.)?hdl\.handle\.net\/)/i.test(v)) return as('Handle', checkHandle(v));
  if (/^urn:/i.test(v)) return as('URN', checkUrn(v));
  if (/^(?:ark:|https?:\/\/[^/\s]+\/ark:)/i.test(v)) return as('ARK', checkArk(v));
  if (/^ISBN(?:-1[03])?:?\s/i.test(v) || /^ISBN(?:-1[03])?:/i.test(v)) return as('ISBN', checkIsbn(v));
  if (/^e?ISSN:?\s*\d/i.test(v)) return as('ISSN', checkIssn(v));
  if (/^https?:\/\//i.test(v)) return as('URL', checkUrl(v));
  return null;
}
