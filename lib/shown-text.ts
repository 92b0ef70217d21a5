/**
 * Text from a source (an error body, a resumption token, a set description's
 * reason, a URL carrying either) as it may be shown on a terminal, in a log
 * line or in a stored run report: its control characters written out and its
 * length bounded. A terminal obeys ESC and CSI sequences (ECMA-48), so a
 * source that could reach it raw could clear the screen, retitle the window or
 * hide lines; and a source may send megabytes where a line is expected.
 */

/** Characters of source text shown in one message (beyond them the text is cut and its length said). */
export const MAX_SHOWN_TEXT = 2000;

/**
 * What a terminal or a reader of a log line could be fooled by: C0 controls
 * (newline and tab too: one message stays one line), DEL, C1 controls
 * (U+0080–U+009F, among them CSI U+009B), the line and paragraph separators,
 * the bidirectional marks and overrides (which reorder what is shown), and
 * lone surrogates.
 */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `12345678` as `12,345,678`, the same on every locale. */
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * `text` safe to show: cut to `max` characters (never inside a surrogate
 * pair) with `…(N characters)` saying the whole length when it is longer,
 * then every unsafe character written as an escape (`\x1b`, `\x7f`,
 * `\u009b`, `\u202e`). Text that is already safe and short comes back as it
 * is, so showing shown text again changes nothing.
 *
 * @example shownText('\x1b[2Jhello') // '\\x1b[2Jhello'
 * @example shownText('a'.repeat(8_388_608), 10) // 'aaaaaaaaaa…(8,388,608 characters)'
 */
export function shownText(text: string, max: number = MAX_SHOWN_TEXT): string {
  let kept = text;
  let said = '';
  if (text.length > max) {
    let end = max;
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    kept = text.slice(0, end);
    said = `…(${grouped(text.length)} characters)`;
  }
  return `${kept.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  })}${said}`;
}

/**
 * `value` as JSON whose every string is {@link shownText}: what a command's
 * `--json` prints, so an 8 MB token or an escape sequence from a source is
 * bounded and written out there too (JSON escapes C0 controls but passes C1
 * controls and bidirectional overrides through as they are).
 *
 * @example shownJson({ error: '\u009b2J' }) // '{"error":"\\\\u009b2J"}'
 */
export function shownJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? shownText(v) : v));
}
