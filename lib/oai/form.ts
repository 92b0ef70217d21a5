/**
 * Strict `application/x-www-form-urlencoded` decoding for OAI-PMH requests.
 *
 * OAI-PMH 3.1.1 has keys and values URL-encoded and decoded exactly once. The
 * usual parsers are lenient in ways a protocol cannot be: they merge repeated
 * keys, build objects from `a[b]=c`, and pass malformed escapes through. This
 * one keeps every pair in order and reports what it could not decode.
 */

/** The pairs of a query string or form body, in order, or why it could not be decoded. */
export type DecodedForm = { readonly ok: true; readonly pairs: ReadonlyArray<readonly [string, string]> } | { readonly ok: false; readonly message: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes `a=1&b=x%20y` into pairs. The input is a binary string (one char
 * per byte, as Node hands over request lines; `Buffer#toString('latin1')` for
 * bodies), so raw non-ASCII bytes are decoded as UTF-8 like escaped ones. `+` is a space, as the form encoding says;
 * a `%` not followed by two hex digits, or escapes that are not UTF-8, make the
 * whole input undecodable. Empty segments (`a=1&&b=2`) are ignored.
 * Example: `decodeForm('verb=Identify')` → `{ ok: true, pairs: [['verb', 'Identify']] }`.
 */
export function decodeForm(raw: string): DecodedForm {
  const pairs: Array<readonly [string, string]> = [];
  if (raw === '') return { ok: true, pairs };
  for (const segment of raw.split('&')) {
    if (segment === '') continue;
    const eq = segment.indexOf('=');
    const rawKey = eq < 0 ? segment : segment.slice(0, eq);
    const rawValue = eq < 0 ? '' : segment.slice(eq + 1);
    const key = decodeComponent(rawKey);
    const value = decodeComponent(rawValue);
    if (key === null || value === null) {
      return { ok: false, message: 'The request is not correctly URL-encoded (a malformed %-escape or bytes that are not UTF-8).' };
    }
    pairs.push([key, value]);
  }
  return { ok: true, pairs };
}

function decodeComponent(s: string): string | null {
  if (/^[\x00-\x24\x26-\x2a\x2c-\x7f]*$/.test(s)) return s;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return null;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (c === 0x2b) {
      bytes.push(0x20);
    } else if (c < 0x100) {
      // Node hands over request lines and bodies as binary strings: one char per byte.
      bytes.push(c);
    } else {
      // A string that did not come off the wire: take the character's UTF-8 bytes.
      const cp = s.codePointAt(i) ?? c;
      if (cp > 0xffff) i++;
      for (const b of Buffer.from(String.fromCodePoint(cp), 'utf8')) bytes.push(b);
    }
  }
  try {
    return utf8.decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
}
