/**
 * Fedora PIDs (`namespace-id:object-id`) and `info:fedora/` object and
 * dissemination URIs (specs/fedora-identifiers.txt).
 *
 * The regular expression printed in the spec copy is garbled; the ABNF and
 * the normalization rules are the rule (specs/README.md). A normalized PID
 * matches Fedora's own `^([A-Za-z0-9]|-|\.)+:(([A-Za-z0-9])|-|\.|~|_|(%[0-9A-F]{2}))+$`.
 *
 * Pure: no I/O, no clock.
 */
import { isWellFormedUtf16, percentDecodeUtf8 } from './uric';

/** Fedora: "The maximum length of a PID is 64 characters." Checked after normalization. */
export const MAX_PID_LENGTH = 64;
/** Fedora: datastream IDs "must not exceed 64 characters in length". */
export const MAX_DATASTREAM_ID_LENGTH = 64;

/** The regular expression Fedora itself uses for a normalized PID. */
export const NORMALIZED_PID_RE = /^([A-Za-z0-9]|-|\.)+:(([A-Za-z0-9])|-|\.|~|_|(%[0-9A-F]{2}))+$/;

/** A parsed PID: `normalized` is the canonical form, `isNormalized` whether the input already was. */
export interface ParsedFedoraPid {
  readonly ok: true;
  readonly namespaceId: string;
  readonly objectId: string;
  readonly normalized: string;
  readonly isNormalized: boolean;
}

/** A failed parse with every fault found. */
export interface InvalidFedoraId {
  readonly ok: false;
  readonly errors: string[];
}

// ABNF: namespace-id = 1*( ALPHA / DIGIT / "-" / "." ). The separator may be
// ":" or "%3A"/"%3a" before normalization; a namespace-id never holds ":" or
// "%", so the first of them is the separator.
const PID_SPLIT_RE = /^([^:%]*)(:|%3[Aa])(.*)$/s;
const NAMESPACE_ID_RE = /^[A-Za-z0-9.-]+$/;
// ABNF: object-id = 1*( ALPHA / DIGIT / "-" / "." / "~" / "_" / escaped-octet );
// ABNF HEXDIG is case-insensitive, so lowercase escapes are valid (and normalized away).
const OBJECT_ID_RE = /^(?:[A-Za-z0-9\-.~_]|%[0-9A-Fa-f]{2})+$/;

/**
 * Parses a Fedora PID by its ABNF, normalizing it (hex digits of escapes
 * uppercased, a `%3A`/`%3a` separator turned into `:`) and checking the
 * 64-character limit on the normalized form.
 *
 * @example parseFedoraPid('demo%3aA-B.C_D%3ae') // { ok: true, normalized: 'demo:A-B.C_D%3AE', isNormalized: false, ... }
 */
export function parseFedoraPid(s: string): ParsedFedoraPid | InvalidFedoraId {
  const m = PID_SPLIT_RE.exec(s);
  if (!m) return { ok: false, errors: ['not a PID: expected "namespace-id:object-id"'] };
  const namespaceId = m[1] as string;
  const rawObjectId = m[3] as string;
  const errors: string[] = [];
  if (!NAMESPACE_ID_RE.test(namespaceId)) {
    errors.push(namespaceId.length === 0 ? 'PID namespace-id is empty' : `PID namespace-id "${namespaceId}" may contain only letters, digits, "-" and "."`);
  }
  if (rawObjectId.length === 0) {
    errors.push('PID object-id is empty');
  } else if (!OBJECT_ID_RE.test(rawObjectId)) {
    errors.push(`PID object-id "${rawObjectId}" may contain only letters, digits, "-", ".", "~", "_" and %XX escapes`);
  }
  if (errors.length > 0) return { ok: false, errors };
  const objectId = rawObjectId.replace(/%([0-9A-Fa-f]{2})/g, (_e, h: string) => '%' + h.toUpperCase());
  const normalized = `${namespaceId}:${objectId}`;
  if (normalized.length > MAX_PID_LENGTH) {
    return { ok: false, errors: [`PID is ${normalized.length} characters long after normalization; the maximum is ${MAX_PID_LENGTH}`] };
  }
  return { ok: true, namespaceId, objectId, normalized, isNormalized: normalized === s };
}

/**
 * Whether a string is a valid Fedora PID (in any of its unnormalized forms).
 *
 * @example isValidFedoraPid('demo:1') // true
 */
export function isValidFedoraPid(s: string): boolean {
  return parseFedoraPid(s).ok;
}

/**
 * Whether a string is a valid PID already in normalized form, i.e. equal to
 * its own normalization.
 *
 * @example isNormalizedFedoraPid('demo:a%3ab') // false
 */
export function isNormalizedFedoraPid(s: string): boolean {
  const p = parseFedoraPid(s);
  return p.ok && p.isNormalized;
}

/**
 * Normalizes a PID (uppercase hex, `:` separator). Throws a `RangeError`
 * for an invalid PID.
 *
 * @example normalizeFedoraPid('demo%3A1') // 'demo:1'
 */
export function normalizeFedoraPid(s: string): string {
  const p = parseFedoraPid(s);
  if (!p.ok) throw new RangeError(p.errors.join('; '));
  return p.normalized;
}

/** The prefix of Fedora object and dissemination URIs. */
export const INFO_FEDORA_PREFIX = 'info:fedora/';

/** A parsed `info:fedora/` URI: an object, a datastream dissemination, or a method-call dissemination. */
export type ParsedInfoFedora =
  | { readonly ok: true; readonly scheme: 'info-fedora'; readonly kind: 'object'; readonly pid: string; readonly normalized: string }
  | {
      readonly ok: true;
      readonly scheme: 'info-fedora';
      readonly kind: 'datastream';
      readonly pid: string;
      readonly datastreamId: string;
      readonly normalized: string;
    }
  | {
      readonly ok: true;
      readonly scheme: 'info-fedora';
      readonly kind: 'method';
      readonly pid: string;
      readonly sDefPid: string;
      readonly methodName: string;
      readonly params: ReadonlyArray<readonly [string, string]>;
      readonly normalized: string;
    };

// XML 1.0 (5th ed.) NameStartChar and NameChar, without ":" (Namespaces in XML: NCName).
const NAME_START =
  'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
// The class lists code points one by one, so U+0300-U+036F after U+00B7 combines with nothing.
// eslint-disable-next-line no-misleading-character-class
const NCNAME_RE = new RegExp(`^[${NAME_START}][${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040]*$`, 'u');

/**
 * Whether a string is an XML NCName (Namespaces in XML 1.0), the syntax of
 * Fedora datastream IDs and method names.
 *
 * @example isNcName('DC') // true
 * @example isNcName('1abc') // false
 */
export function isNcName(s: string): boolean {
  return NCNAME_RE.test(s);
}

// RFC 3986 unreserved / sub-delims / ":" / "@" / "/" / "?": what an info URI
// (RFC 4452) allows unescaped. Inside a parameter the delimiters "&", "=",
// and "+" (a space in form encoding) stay escaped so the structure survives.
const INFO_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?";
const PARAM_KEEP_ESCAPED = '&=+';

/** Normalization steps 2 and 3 on one component: unescape what need not be escaped, uppercase the rest. */
function normalizeEscapes(s: string, keepEscaped: string): string {
  return s.replace(/%([0-9A-Fa-f]{2})/g, (_m, h: string) => {
    const ch = String.fromCharCode(parseInt(h, 16));
    return INFO_SAFE.includes(ch) && !keepEscaped.includes(ch) ? ch : '%' + h.toUpperCase();
  });
}

const COMPONENT_CHARS_RE = /^(?:[A-Za-z0-9\-._~!$'()*,;:@]|%[0-9A-Fa-f]{2})+$/;

/** Validates a datastream id or method name as written in a URI: URI-safe characters and escapes decoding to a UTF-8 NCName of at most 64 characters. */
function nameErrors(raw: string, what: string): string[] {
  if (!COMPONENT_CHARS_RE.test(raw)) return [`${what} "${raw}" contains characters that must be escaped`];
  const decoded = percentDecodeUtf8(raw);
  if (decoded === null) return [`${what} "${raw}" does not decode to UTF-8`];
  if (!isNcName(decoded)) return [`${what} "${decoded}" is not an XML NCName`];
  if (what === 'datastream ID' && [...decoded].length > MAX_DATASTREAM_ID_LENGTH) {
    return [`datastream ID is ${[...decoded].length} characters long; the maximum is ${MAX_DATASTREAM_ID_LENGTH}`];
  }
  return [];
}

function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(percentDecodeUtf8(a) ?? a, 'utf8'), Buffer.from(percentDecodeUtf8(b) ?? b, 'utf8'));
}

/**
 * Parses, validates and normalizes an `info:fedora/` URI: an object URI
 * (`info:fedora/` PID) or a dissemination URI, datastream form
 * (`info:fedora/demo:1/DC`) or method-call form
 * (`info:fedora/demo:1/demo:MySDef/method?a=1&b=2`). Normalization follows
 * the four steps of the spec: PIDs normalized; escapes of characters the
 * info scheme allows unescaped are undone (in parameters `&`, `=` and `+`
 * stay escaped, since they delimit or mean a space); remaining escapes in
 * uppercase; parameters sorted by name, then value, by UTF-8 octets.
 *
 * @example parseInfoFedora('info:fedora/demo%3a1/demo:MySDef/method?b=2&a=1').normalized // 'info:fedora/demo:1/demo:MySDef/method?a=1&b=2'
 */
export function parseInfoFedora(s: string): ParsedInfoFedora | InvalidFedoraId {
  if (!s.startsWith(INFO_FEDORA_PREFIX)) return { ok: false, errors: [`an info:fedora URI starts with "${INFO_FEDORA_PREFIX}"`] };
  if (!isWellFormedUtf16(s)) return { ok: false, errors: ['contains a lone surrogate'] };
  const rest = s.slice(INFO_FEDORA_PREFIX.length);
  // The query may hold "/" and "?", so it is cut off before splitting the path.
  const qpos = rest.indexOf('?');
  const query = qpos < 0 ? null : rest.slice(qpos + 1);
  const segments = (qpos < 0 ? rest : rest.slice(0, qpos)).split('/');
  if (query !== null && segments.length !== 3) {
    return { ok: false, errors: ['only a method-call dissemination URI may have "?" parameters'] };
  }
  const pid = parseFedoraPid(segments[0] ?? '');
  const errors: string[] = pid.ok ? [] : pid.errors.map((e) => `object PID: ${e}`);
  const base = pid.ok ? INFO_FEDORA_PREFIX + pid.normalized : '';

  if (segments.length === 1) {
    if (!pid.ok) return { ok: false, errors };
    return { ok: true, scheme: 'info-fedora', kind: 'object', pid: pid.normalized, normalized: base };
  }
  if (segments.length === 2) {
    const ds = segments[1] as string;
    errors.push(...nameErrors(ds, 'datastream ID'));
    if (errors.length > 0 || !pid.ok) return { ok: false, errors };
    const datastreamId = normalizeEscapes(ds, '');
    return { ok: true, scheme: 'info-fedora', kind: 'datastream', pid: pid.normalized, datastreamId, normalized: `${base}/${datastreamId}` };
  }
  if (segments.length === 3) {
    const sdef = parseFedoraPid(segments[1] as string);
    if (!sdef.ok) errors.push(...sdef.errors.map((e) => `service definition PID: ${e}`));
    const method = segments[2] as string;
    errors.push(...nameErrors(method, 'method name'));
    const params: Array<[string, string]> = [];
    if (query !== null) {
      for (const p of query.split('&')) {
        const eq = p.indexOf('=');
        // param = paramName "=" paramValue
        if (eq <= 0) {
          errors.push(`parameter "${p}" must be name=value`);
          continue;
        }
        const name = p.slice(0, eq);
        const value = p.slice(eq + 1);
        if (!/^(?:[A-Za-z0-9\-._~!$'()*,;:@/?]|%[0-9A-Fa-f]{2})+$/.test(name)) errors.push(`parameter name "${name}" contains characters that must be escaped`);
        if (!/^(?:[A-Za-z0-9\-._~!$'()*,;:@/?=+]|%[0-9A-Fa-f]{2})*$/.test(value))
          errors.push(`parameter value "${value}" contains characters that must be escaped`);
        params.push([normalizeEscapes(name, PARAM_KEEP_ESCAPED), normalizeEscapes(value, PARAM_KEEP_ESCAPED)]);
      }
    }
    if (errors.length > 0 || !pid.ok || !sdef.ok) return { ok: false, errors };
    // Step 4: alphabetize by name, then value, in UTF-8 order.
    params.sort((a, b) => compareUtf8(a[0], b[0]) || compareUtf8(a[1], b[1]));
    const methodName = normalizeEscapes(method, '');
    const queryText = params.length > 0 ? '?' + params.map(([n, v]) => `${n}=${v}`).join('&') : '';
    return {
      ok: true,
      scheme: 'info-fedora',
      kind: 'method',
      pid: pid.normalized,
      sDefPid: sdef.normalized,
      methodName,
      params,
      normalized: `${base}/${sdef.normalized}/${methodName}${queryText}`,
    };
  }
  errors.push('a dissemination URI is "info:fedora/" pid "/" (datastream-id / sDef-pid "/" method-name [params])');
  return { ok: false, errors };
}

/**
 * Whether a string is a valid `info:fedora/` object or dissemination URI.
 *
 * @example isValidInfoFedora('info:fedora/demo:1/DC') // true
 */
export function isValidInfoFedora(s: string): boolean {
  return parseInfoFedora(s).ok;
}

/**
 * The normalized form of an `info:fedora/` URI. Throws a `RangeError` when invalid.
 *
 * @example normalizeInfoFedora('info:fedora/demo%3AA-B.C_D%3ae') // 'info:fedora/demo:A-B.C_D%3AE'
 */
export function normalizeInfoFedora(s: string): string {
  const p = parseInfoFedora(s);
  if (!p.ok) throw new RangeError(p.errors.join('; '));
  return p.normalized;
}
