/**
 * RFC 2396 character classes shared by the schemes that reuse its `uric`
 * production (oai-identifier, POI, info:sid), and the UTF-8 percent-escaping
 * they are built with.
 *
 * Internal to `lib/ids/`: the public API is chosen in `index.ts`.
 */

/** RFC 2396 section 2.2 `reserved`. */
export const RESERVED = ';/?:@&=+$,';
/** RFC 2396 section 2.3 `mark` (with `alphanum`, the `unreserved` set). */
export const MARK = "-_.!~*'()";

/**
 * Whether a single character (one UTF-16 code unit) is in RFC 2396's
 * `reserved` or `unreserved` set: exactly the characters an oai-identifier
 * local-identifier must not escape (oai-identifier 2.1).
 *
 * @example isReservedOrUnreserved('?') // true
 */
export function isReservedOrUnreserved(ch: string): boolean {
  if (ch.length !== 1) return false;
  const c = ch.charCodeAt(0);
  if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) return true;
  return RESERVED.includes(ch) || MARK.includes(ch);
}

/** `uric` with uppercase-only hex escapes (oai-identifier 2.1, POI 2). */
export const URIC_UPPER_RE = /^(?:[A-Za-z0-9;/?:@&=+$,\-_.!~*'()]|%[0-9A-F]{2})+$/;
/** `uric` with RFC 2396 hex escapes, either case (info:sid). */
export const URIC_ANY_CASE_RE = /^(?:[A-Za-z0-9;/?:@&=+$,\-_.!~*'()]|%[0-9A-Fa-f]{2})+$/;

/**
 * Describes why a string is not `1*uric`, one message per kind of fault, for
 * error lists. `upperHexOnly` selects the oai-identifier restriction on
 * escapes. Returns an empty list when the string is valid.
 *
 * @example uricErrors('ab%3ccd', 'local-identifier', true) // ['local-identifier: escape "%3c" must use uppercase hex (%3C)']
 */
export function uricErrors(s: string, what: string, upperHexOnly: boolean): string[] {
  if (s.length === 0) return [`${what} is empty (at least one character is required)`];
  const errors: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    if (ch === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (/^[0-9A-F]{2}$/.test(hex)) {
        i += 2;
        continue;
      }
      if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
        if (upperHexOnly) errors.push(`${what}: escape "%${hex}" must use uppercase hex (%${hex.toUpperCase()})`);
        i += 2;
        continue;
      }
      errors.push(`${what}: "%" at position ${i} does not start an escape of two hex digits ("%" itself must be written %25)`);
      continue;
    }
    if (!isReservedOrUnreserved(ch)) {
      const cp = s.codePointAt(i) ?? 0;
      const shown = cp < 0x20 || cp === 0x7f ? `U+${cp.toString(16).toUpperCase().padStart(4, '0')}` : String.fromCodePoint(cp);
      errors.push(`${what}: character "${shown}" at position ${i} is not permitted unescaped`);
      if (cp > 0xffff) i++;
    }
  }
  return errors;
}

/**
 * Whether a string is well-formed UTF-16 (no lone surrogates), i.e. encodable
 * as UTF-8 without loss. `String.prototype.isWellFormed` is ES2024 and not in
 * this project's `lib`, hence the loop.
 *
 * @example isWellFormedUtf16('\uD800') // false
 */
export function isWellFormedUtf16(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return false;
    }
  }
  return true;
}

/**
 * Percent-escapes the UTF-8 octets of a string, leaving exactly the
 * `reserved` and `unreserved` characters as they are and writing every other
 * octet (`%` included) as `%XX` with uppercase hex (oai-identifier 2.1).
 * Throws a `RangeError` on a lone surrogate, which has no UTF-8 encoding.
 *
 * @example escapeUtf8('ab<cd é') // 'ab%3Ccd%20%C3%A9'
 */
export function escapeUtf8(s: string): string {
  if (!isWellFormedUtf16(s)) {
    throw new RangeError('contains a lone surrogate (U+D800..U+DFFF), which cannot be encoded as UTF-8');
  }
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && isReservedOrUnreserved(ch) ? ch : '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/**
 * Decodes `%XX` escapes (either hex case) into octets and reads the octets as
 * UTF-8. Returns `null` when an escape is malformed or the octets are not
 * valid UTF-8, so callers can decide whether that is an error.
 *
 * @example percentDecodeUtf8('ab%3Ccd') // 'ab<cd'
 */
export function percentDecodeUtf8(s: string): string | null {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    if (ch === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return null;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      const cp = s.codePointAt(i) ?? 0;
      if (cp > 0xffff) i++;
      for (const b of Buffer.from(String.fromCodePoint(cp), 'utf8')) bytes.push(b);
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
}
