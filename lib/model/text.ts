/**
 * The text a record may hold: the characters XML 1.0 can carry (section 2.2,
 * production [2] Char). Every value of the model is text some format will
 * write as XML, so the model refuses what no format could carry; escaping
 * for the wire lives with the XML writer (lib/xml/chars.ts).
 */

/** XML 1.0 section 2.2 [2] Char, negated: C0 controls but tab/LF/CR, U+FFFE, U+FFFF, lone surrogates. */
export const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A cheap pre-test: true when a string may hold a character XML 1.0 forbids (a C0 control, a surrogate, U+FFFE/U+FFFF). */
export const MAYBE_NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** A character XML 1.0 cannot carry, found in a string. */
export interface NonXmlChar {
  /** The character as `U+XXXX` (a lone surrogate as its code unit). */
  readonly codePoint: string;
  /** Its UTF-16 offset in the string. */
  readonly offset: number;
}

/**
 * The first character of `s` that XML 1.0 cannot carry, or null when every
 * character is allowed.
 *
 * @example nonXmlChar('a\u0007b') // { codePoint: 'U+0007', offset: 1 }
 */
export function nonXmlChar(s: string): NonXmlChar | null {
  // Most text has no control character and no surrogate at all: a plain class test settles it.
  if (!MAYBE_NOT_XML.test(s)) return null;
  const m = NOT_XML_CHAR.exec(s);
  if (!m) return null;
  return { codePoint: `U+${(m[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`, offset: m.index };
}

/**
 * Describes the first character XML 1.0 cannot carry, for a message, or
 * returns null when there is none.
 *
 * @example findNonXmlChar('a\u0007b') // 'U+0007 at offset 1'
 */
export function findNonXmlChar(s: string): string | null {
  const found = nonXmlChar(s);
  return found === null ? null : `${found.codePoint} at offset ${found.offset}`;
}
