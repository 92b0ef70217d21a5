/**
 * Content negotiation on `Accept` (RFC 9110 section 12.5.1): whether a
 * request prefers an HTML page to XML, and whether it asks for a linkset.
 *
 * The rule of the endpoint: HTML only when `text/html` gets a strictly
 * higher weight than both XML types. A tie, `*∕*`, no `Accept` at all, or
 * anything unparsable gets XML, exactly as before pages existed, so no
 * harvester can be surprised by HTML.
 */

/** One media range of an `Accept` header with its weight. */
interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  /** Parameters other than the weight (they make a range more specific). */
  readonly params: number;
  readonly q: number;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const QVALUE = /^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The media ranges of an `Accept` value, in order. A range whose syntax or
 * weight is broken is dropped (it cannot be understood, so it asks for nothing).
 * Example: `parseAccept('text/html, application/xml;q=0.8')` → two ranges, weights 1 and 0.8.
 */
export function parseAccept(header: string | undefined): MediaRange[] {
  if (header === undefined) return [];
  const out: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [range, ...rawParams] = part.split(';').map((s) => s.trim());
    if (!range) continue;
    const slash = range.indexOf('/');
    const type = range.slice(0, slash).toLowerCase();
    const subtype = range.slice(slash + 1).toLowerCase();
    if (slash < 0 || !TOKEN.test(type) || !TOKEN.test(subtype) || (type === '*' && subtype !== '*')) continue;
    let q = 1;
    let params = 0;
    let broken = false;
    for (const p of rawParams) {
      const eq = p.indexOf('=');
      const name = (eq < 0 ? p : p.slice(0, eq)).trim().toLowerCase();
      const value = eq < 0 ? '' : p.slice(eq + 1).trim();
      if (name === 'q') {
        // RFC 9110 12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ).
        if (!QVALUE.test(value)) broken = true;
        else q = Number(value);
      } else if (name !== '') params++;
    }
    if (!broken) out.push({ type, subtype, params, q });
  }
  return out;
}

/**
 * The weight a parsed `Accept` gives one media type: that of the most
 * specific range matching it (RFC 9110 12.5.1: type/subtype over type/*
 * over *∕*), 0 when none does. Ranges with parameters (e.g. `text/html;level=1`)
 * name a narrower variant than the plain type this server sends, so they do not match it.
 * `explicitOnly` ignores wildcard ranges.
 */
export function weightOf(ranges: readonly MediaRange[], mediaType: string, explicitOnly = false): number {
  const [type, subtype] = mediaType.split('/') as [string, string];
  let best = -1;
  let q = 0;
  for (const r of ranges) {
    if (r.params > 0) continue;
    const specificity = r.type === type && r.subtype === subtype ? 3 : r.type === type && r.subtype === '*' ? 2 : r.type === '*' ? 1 : 0;
    if (specificity === 0 || (explicitOnly && specificity < 3)) continue;
    // Equally specific ranges repeated: the highest weight counts.
    if (specificity > best || (specificity === best && r.q > q)) {
      best = specificity;
      q = r.q;
    }
  }
  return q;
}

/**
 * Whether a request should get an HTML page rather than XML: `text/html`
 * weighs strictly more than `text/xml` and `application/xml`.
 *
 * @example prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*∕*;q=0.8') // true (browsers)
 * @example prefersHtml('*∕*') // false (curl, python-requests)
 * @example prefersHtml(undefined) // false (most harvesters)
 */
export function prefersHtml(accept: string | undefined): boolean {
  const ranges = parseAccept(accept);
  const html = weightOf(ranges, 'text/html');
  return html > 0 && html > Math.max(weightOf(ranges, 'text/xml'), weightOf(ranges, 'application/xml'));
}

/**
 * Which linkset format a request names explicitly (RFC 9264 section 4): the
 * JSON one (`application/linkset+json`) or the text one
 * (`application/linkset`), the heavier of the two, JSON on a tie; null when
 * neither is named (wildcards do not count: a browser's `*∕*` wants the page).
 *
 * @example wantsLinkset('application/linkset+json') // 'json'
 */
export function wantsLinkset(accept: string | undefined): 'json' | 'text' | null {
  const ranges = parseAccept(accept);
  const json = weightOf(ranges, 'application/linkset+json', true);
  const text = weightOf(ranges, 'application/linkset', true);
  if (json === 0 && text === 0) return null;
  return json >= text ? 'json' : 'text';
}
