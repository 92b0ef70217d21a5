/**
 * Characters and escaping for XML 1.0 (section 2.2 of the XML 1.0 spec):
 * what may appear in a document at all, and how text and attribute values
 * are escaped on the way out.
 */

import { NOT_XML_CHAR } from '../model/text';

// The character class is defined once, with the record model's text (lib/model/text.ts).
const NOT_XML_CHAR_G = new RegExp(NOT_XML_CHAR.source, 'g');

/** Replaces every character XML 1.0 cannot carry with U+FFFD (the last line of defence on output). */
export function replaceNonXmlChars(s: string): string {
  return s.replace(NOT_XML_CHAR_G, '\uFFFD');
}

const TEXT = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
const ATTR = /[&<>"\t\n\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/**
 * Escapes text content. `>` is escaped too, so `]]>` never appears. Characters
 * XML cannot carry become U+FFFD: nothing but XML 1.0 reaches the wire.
 */
export function escapeText(s: string): string {
  if (!TEXT.test(s)) return s;
  // CR as a reference: a parser turns a literal CR into LF (XML 1.0 section 2.11).
  return replaceNonXmlChars(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

/** Escapes an attribute value (double-quoted); tab, LF and CR as character references so they survive normalization. */
export function escapeAttr(s: string): string {
  if (!ATTR.test(s)) return s;
  return replaceNonXmlChars(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}
