/**
 * Escaping for HTML pages. Every value that reaches a page (names,
 * identifiers, metadata, messages, tokens) goes through {@link esc}: text
 * and attribute values alike, since attributes are always double-quoted.
 */

// C0 controls but tab, LF, FF and CR; DEL and the C1 controls; lone surrogates; the two noncharacters XML also refuses.
const CONTROL = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const SPECIAL = /[&<>"']/g;
const ENTITY: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes a value for HTML text or a double-quoted attribute. Control
 * characters (HTML 13.2.5: parse errors, invisible, or able to reorder
 * text) become U+FFFD, so a value shows what it holds without acting on
 * the page. Example: `esc('<a href="x">')` → `'&lt;a href=&quot;x&quot;&gt;'`.
 */
export function esc(value: string): string {
  return value.replace(CONTROL, '\uFFFD').replace(SPECIAL, (c) => ENTITY[c] ?? c);
}

/**
 * A BCP 47 language tag as far as a page needs one (`en`, `el`, `zh-Hant`),
 * or '' when the value is not shaped like one (then no `lang` is written).
 * Example: `langTag('ja')` → `'ja'`; `langTag('Japanese')` → `''`.
 */
export function langTag(value: string): string {
  const v = value.trim();
  return /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(v) ? v : '';
}

/** ` lang="…"` for a tag, or nothing. Example: `langAttr('el')` → `' lang="el"'`; `langAttr('')` → `''`. */
export function langAttr(tag: string): string {
  return tag === '' ? '' : ` lang="${esc(tag)}"`;
}
