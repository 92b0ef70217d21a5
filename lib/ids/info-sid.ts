/**
 * `info:sid/` identifiers for collections (specs/info-sid-namespace.txt,
 * Table F.1): `info:sid/` DNS-identifier [ ":" collection-string ].
 *
 * The DNS-identifier is case-insensitive and the collection-string
 * case-sensitive, so the canonical form lowercases the first and keeps the
 * second. The `info` scheme and the `sid` namespace are case-insensitive too
 * (RFC 4452), so they are accepted in any case and written lowercase.
 *
 * Pure: no I/O, no clock.
 */
import { uricErrors } from './uric';

/** A parsed `info:sid/` identifier. */
export interface ParsedInfoSid {
  readonly ok: true;
  readonly scheme: 'info-sid';
  readonly dnsIdentifier: string;
  readonly collection: string | null;
  /** `info:sid/` + lowercased DNS-identifier + the collection-string as written. */
  readonly canonical: string;
}

/** A failed parse with every fault found. */
export interface InvalidInfoSid {
  readonly ok: false;
  readonly errors: string[];
}

const PREFIX = 'info:sid/';
// Table F.1: domainlabel = alphanum | alphanum *( alphanum | "-" ) alphanum
const DOMAIN_LABEL_RE = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
// Table F.1: toplabel = alpha | alpha *( alphanum | "-" ) alphanum
const TOP_LABEL_RE = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

/**
 * Parses an `info:sid/` identifier by the grammar of Table F.1. The
 * DNS-identifier ends at the first `:`; the rest, if any, is the
 * collection-string (`1*uric`, RFC 2396 escapes in either hex case).
 *
 * @example parseInfoSid('info:sid/OCLC.org:inspec') // { ok: true, dnsIdentifier: 'OCLC.org', collection: 'inspec', canonical: 'info:sid/oclc.org:inspec', ... }
 */
export function parseInfoSid(s: string): ParsedInfoSid | InvalidInfoSid {
  if (s.slice(0, PREFIX.length).toLowerCase() !== PREFIX) return { ok: false, errors: [`an info:sid identifier starts with "${PREFIX}"`] };
  const rest = s.slice(PREFIX.length);
  const colon = rest.indexOf(':');
  const dns = colon < 0 ? rest : rest.slice(0, colon);
  const collection = colon < 0 ? null : rest.slice(colon + 1);
  const errors: string[] = [];
  if (dns.length === 0) {
    errors.push('the DNS-identifier is empty');
  } else {
    // DNS-identifier = *( domainlabel "." ) toplabel [ "." ]
    const labels = (dns.endsWith('.') ? dns.slice(0, -1) : dns).split('.');
    const top = labels.pop() ?? '';
    for (const l of labels) {
      if (!DOMAIN_LABEL_RE.test(l)) errors.push(`domain label "${l}" must be letters, digits and inner hyphens`);
    }
    if (!TOP_LABEL_RE.test(top)) errors.push(`top label "${top}" must start with a letter and be letters, digits and inner hyphens`);
  }
  if (collection !== null) errors.push(...uricErrors(collection, 'collection-string', false));
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    scheme: 'info-sid',
    dnsIdentifier: dns,
    collection,
    canonical: PREFIX + dns.toLowerCase() + (collection === null ? '' : ':' + collection),
  };
}

/**
 * Whether a string is a valid `info:sid/` identifier.
 *
 * @example isValidInfoSid('info:sid/amazon.co.uk:books') // true
 */
export function isValidInfoSid(s: string): boolean {
  return parseInfoSid(s).ok;
}

/**
 * The canonical form of an `info:sid/` identifier (DNS-identifier
 * lowercased, collection-string kept). Throws a `RangeError` when invalid.
 *
 * @example canonicalInfoSid('INFO:SID/CNN.com') // 'info:sid/cnn.com'
 */
export function canonicalInfoSid(s: string): string {
  const p = parseInfoSid(s);
  if (!p.ok) throw new RangeError(p.errors.join('; '));
  return p.canonical;
}
