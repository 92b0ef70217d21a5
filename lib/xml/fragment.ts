/**
 * Whether stored XML is exactly one well-formed element (XML 1.0, without a
 * DTD): a single linear pass, no DOM, cheap enough for the hot path of a
 * harvest, where the writer checks stored metadata before splicing it in.
 */
import { MAYBE_NOT_XML, NOT_XML_CHAR } from '../model/text';
import { isKnownPlainFragment, learnShape } from './plain-fragment';
import { MAX_XML_ATTRIBUTES, MAX_XML_NAMESPACES } from './bounds';
import { XML_NAMESPACE, XSI_NS } from './namespaces';

// Only a hit of the cheap pre-test (an astral character, or corrupt data) costs the exact test with
// look-arounds, which is several times slower.
const SUSPECT_CHAR = MAYBE_NOT_XML;
const ANY_NON_XML_CHAR = new RegExp(NOT_XML_CHAR.source);

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x9 || c === 0xa || c === 0xd;
}

/** XML 1.0 section 2.3 [4] NameStartChar, for one UTF-16 unit (a high surrogate stands for an astral character). */
function isNameStart(c: number): boolean {
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a;
  return (
    (c >= 0xc0 && c <= 0xd6) ||
    (c >= 0xd8 && c <= 0xf6) ||
    (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) ||
    (c >= 0x37f && c <= 0x1fff) ||
    c === 0x200c ||
    c === 0x200d ||
    (c >= 0x2070 && c <= 0x218f) ||
    (c >= 0x2c00 && c <= 0x2fef) ||
    (c >= 0x3001 && c <= 0xd7ff) ||
    (c >= 0xf900 && c <= 0xfdcf) ||
    (c >= 0xfdf0 && c <= 0xfffd) ||
    // U+10000..U+EFFFF: high surrogates D800..DB7F (characters were checked before, so a low one follows).
    (c >= 0xd800 && c <= 0xdb7f) ||
    (c >= 0xdc00 && c <= 0xdfff)
  );
}

/** XML 1.0 section 2.3 [4a] NameChar. */
function isNameChar(c: number): boolean {
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x3a) || c === 0x5f || c === 0x2d || c === 0x2e;
  return c === 0xb7 || (c >= 0x300 && c <= 0x36f) || c === 0x203f || c === 0x2040 || isNameStart(c);
}

/** The end of the Name starting at i, or i when none starts there. */
function nameEnd(s: string, i: number): number {
  if (i >= s.length || !isNameStart(s.charCodeAt(i))) return i;
  let j = i + 1;
  while (j < s.length && isNameChar(s.charCodeAt(j))) j++;
  return j;
}

function skipSpace(s: string, i: number): number {
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i;
}

function isXmlCodePoint(n: number): boolean {
  return n === 0x9 || n === 0xa || n === 0xd || (n >= 0x20 && n <= 0xd7ff) || (n >= 0xe000 && n <= 0xfffd) || (n >= 0x10000 && n <= 0x10ffff);
}

/** The namespaces of the prefixes a surrounding document is known to bind: `xml` always (Namespaces 3), `xsi` in an OAI-PMH response. */
const KNOWN_NAMESPACES: ReadonlyMap<string, string> = new Map([
  ['xml', XML_NAMESPACE],
  ['xsi', XSI_NS],
]);

// Section 4.1 [66]/[68]: without a DTD only the five predefined entities exist.
const REFERENCE_Y = /&(?:#([0-9]{1,7})|#x([0-9a-fA-F]{1,6})|(lt|gt|amp|quot|apos));/y;

/**
 * Checks every `&` in s[from, to): each must start a predefined entity or a
 * reference to a legal character. `amp` is the position of the first `&` at or
 * after `from` (or s.length), so a whole document costs one pass; returns the
 * problem, or the first `&` at or after `to`.
 */
function checkReferences(s: string, from: number, to: number, amp: number): string | number {
  let i = amp < from ? s.indexOf('&', from) : amp;
  if (i < 0) return s.length;
  while (i < to) {
    REFERENCE_Y.lastIndex = i;
    const m = REFERENCE_Y.exec(s);
    if (!m || REFERENCE_Y.lastIndex > to) return `a bare "&" or an undefined entity at offset ${i}`;
    const code = m[1] !== undefined ? Number(m[1]) : m[2] !== undefined ? parseInt(m[2], 16) : -1;
    if (code !== -1 && !isXmlCodePoint(code)) return `a character reference to a character XML 1.0 forbids at offset ${i}`;
    i = s.indexOf('&', i + 1);
    if (i < 0) return s.length;
  }
  return i;
}

/** Whether s[a, a+len) equals s[b, b+len). */
function sameRange(s: string, a: number, b: number, len: number): boolean {
  for (let k = 0; k < len; k++) if (s.charCodeAt(a + k) !== s.charCodeAt(b + k)) return false;
  return true;
}

/**
 * Decides whether a string is exactly one well-formed, namespace-well-formed
 * XML 1.0 element (optionally with white space, comments and processing
 * instructions around it), so it can be spliced into a document as it is.
 * Returns null when it is, else a short reason. `inherited` names the
 * namespace prefixes the surrounding document declares (`xml` always is).
 *
 * This is the output guard of stored metadata (see lib/oai/render.ts): it
 * runs for every record on the hot path. A fragment whose shape an earlier
 * fragment proved sound is settled by one regular expression
 * (./plain-fragment.ts, about 0.7 µs for a 1.3 kB oai_dc record); any other
 * takes the full check, one linear pass over character codes, with `indexOf`
 * across text, no DOM and no allocation per character (about 6 µs). It
 * checks what splicing can break: characters (XML 1.0 section 2.2), tag nesting and names
 * (section 3, "Element Type Match"), attribute syntax and uniqueness (3.1),
 * references (4.1; only the predefined entities, as there is no DTD), `]]>`
 * in text (2.4), CDATA sections, comments (no `--`, 2.5), PI targets (not
 * `xml`, 2.6), and that every prefix used is declared (Namespaces in XML 1.0
 * section 5). No DOCTYPE, no second root, nothing after the root but white
 * space, comments and PIs: text that tries to close the envelope
 * (`</metadata></record>`) fails.
 *
 * @example checkFragment('<a xmlns="urn:x"><b>1 &amp; 2</b></a>') // null
 * @example checkFragment('<a/></metadata>') // 'an end tag </metadata> without a start tag at offset 4'
 */
export function checkFragment(s: string, inherited: readonly string[] = []): string | null {
  // Most stored fragments have a shape a full check has already proven sound: one regular expression settles them.
  if (isKnownPlainFragment(s, inherited)) return null;
  const problem = checkInFull(s, inherited);
  if (problem === null) learnShape(s, inherited);
  return problem;
}

/** The full check of checkFragment, tag by tag. */
function checkInFull(s: string, inherited: readonly string[]): string | null {
  if (SUSPECT_CHAR.test(s)) {
    const bad = ANY_NON_XML_CHAR.exec(s);
    if (bad) return `a character XML 1.0 forbids (U+${(bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}) at offset ${bad.index}`;
  }
  const n = s.length;
  // The next `&` and `]]>` at or after the scan, found once each: indexOf per text run would be quadratic.
  let amp = s.indexOf('&');
  if (amp < 0) amp = n;
  let cdataEnd = s.indexOf(']]>');
  if (cdataEnd < 0) cdataEnd = n;
  // Everything is kept as offsets into s, in arrays used as stacks with explicit
  // counts: no substring, and no `length =` (a slow path in V8), per tag.
  const openStart: number[] = [];
  const openEnd: number[] = [];
  const scopes: number[] = [];
  let depth = 0;
  // Declared prefixes: offsets of their names in s, or an inherited name (start -1).
  const prefixStart: number[] = [];
  const prefixEnd: number[] = [];
  // The namespace name each declared prefix is bound to, as offsets of its value.
  const uriStart: number[] = [];
  const uriEnd: number[] = [];
  let prefixCount = 0;
  const inheritedNames = ['xml', ...inherited];
  const attrStart: number[] = [];
  const attrEnd: number[] = [];
  // The innermost declaration in scope of the prefix s[from, to), or -1.
  const declarationOf = (from: number, to: number): number => {
    for (let p = prefixCount - 1; p >= 0; p--) {
      const ps = prefixStart[p] as number;
      if ((prefixEnd[p] as number) - ps === to - from && sameRange(s, ps, from, to - from)) return p;
    }
    return -1;
  };
  const isDeclared = (from: number, to: number): boolean => {
    if (declarationOf(from, to) >= 0) return true;
    for (const name of inheritedNames) if (name.length === to - from && s.startsWith(name, from)) return true;
    return false;
  };
  // Namespaces in XML 1.0 sections 4-5: a QName (at most one colon, not first or last) whose prefix is declared.
  const qnameProblem = (from: number, to: number): string | null => {
    let colon = -1;
    for (let k = from; k < to; k++) {
      if (s.charCodeAt(k) !== 0x3a) continue;
      if (colon >= 0) return `the name ${s.slice(from, to)} is not a QName at offset ${from}`;
      colon = k;
    }
    if (colon < 0) return null;
    if (colon === from || colon === to - 1) return `the name ${s.slice(from, to)} is not a QName at offset ${from}`;
    if (colon - from === 5 && s.startsWith('xmlns', from)) return null;
    if (!isDeclared(from, colon)) return `the prefix of ${s.slice(from, to)} is not declared at offset ${from}`;
    return null;
  };
  // The namespace name a prefix in s[from, to) is bound to here: a declaration's value as written, an
  // inherited prefix's when this module knows it, else null (not known).
  const namespaceOf = (from: number, to: number): string | null => {
    const p = declarationOf(from, to);
    if (p >= 0) return s.slice(uriStart[p] as number, uriEnd[p] as number);
    return KNOWN_NAMESPACES.get(s.slice(from, to)) ?? null;
  };
  // The colon of the name s[from, to), or -1 (searched within the name: indexOf could run to the document's end).
  const colonIn = (from: number, to: number): number => {
    for (let k = from; k < to; k++) if (s.charCodeAt(k) === 0x3a) return k;
    return -1;
  };
  // Namespaces in XML 1.0 section 6.3: no two attributes of an element have one expanded name, which two
  // prefixes bound to one namespace give with one local name.
  const expandedNameClash = (count: number): string | null => {
    for (let a = 0; a < count; a++) {
      const as = attrStart[a] as number;
      const ae = attrEnd[a] as number;
      const ca = colonIn(as, ae);
      if (ca < 0 || (ca - as === 5 && s.startsWith('xmlns', as))) continue;
      for (let b = a + 1; b < count; b++) {
        const bs = attrStart[b] as number;
        const be = attrEnd[b] as number;
        const cb = colonIn(bs, be);
        if (cb < 0 || (cb - bs === 5 && s.startsWith('xmlns', bs))) continue;
        if (ae - ca !== be - cb || !sameRange(s, ca, cb, ae - ca)) continue;
        const na = namespaceOf(as, ca);
        const nb = namespaceOf(bs, cb);
        // A namespace not known, or written with references, may be the other: refused rather than let through.
        if (na === null || nb === null || na === nb || na.includes('&') || nb.includes('&')) {
          return `attributes ${s.slice(as, ae)} and ${s.slice(bs, be)} of one expanded name at offset ${as}`;
        }
      }
    }
    return null;
  };
  let roots = 0;
  let i = 0;
  while (i < n) {
    if (s.charCodeAt(i) !== 0x3c /* < */) {
      // Character data runs to the next "<"; outside the root only white space may appear.
      let end = s.indexOf('<', i);
      if (end < 0) end = n;
      if (depth === 0) {
        if (skipSpace(s, i) < end) return `text outside the root element at offset ${i}`;
      } else {
        if (amp < end) {
          const r = checkReferences(s, i, end, amp);
          if (typeof r === 'string') return r;
          amp = r;
        }
        if (cdataEnd < i) {
          cdataEnd = s.indexOf(']]>', i);
          if (cdataEnd < 0) cdataEnd = n;
        }
        if (cdataEnd + 3 <= end) return `"]]>" in text at offset ${cdataEnd}`;
      }
      i = end;
      continue;
    }
    const next = s.charCodeAt(i + 1);
    if (next === 0x21 /* ! */) {
      if (s.startsWith('<!--', i)) {
        const close = s.indexOf('--', i + 4);
        if (close < 0 || s.charCodeAt(close + 2) !== 0x3e) return `a comment that is not closed properly (or contains "--") at offset ${i}`;
        i = close + 3;
        continue;
      }
      if (s.startsWith('<![CDATA[', i)) {
        if (depth === 0) return `a CDATA section outside the root element at offset ${i}`;
        const close = s.indexOf(']]>', i + 9);
        if (close < 0) return `an unclosed CDATA section at offset ${i}`;
        i = close + 3;
        continue;
      }
      return `a markup declaration (e.g. DOCTYPE) at offset ${i}`;
    }
    if (next === 0x3f /* ? */) {
      const end = nameEnd(s, i + 2);
      if (end === i + 2 || (end - i - 2 === 3 && s.slice(i + 2, end).toLowerCase() === 'xml'))
        return `a processing instruction without a legal target at offset ${i}`;
      const close = s.indexOf('?>', end);
      if (close < 0) return `an unclosed processing instruction at offset ${i}`;
      if (close !== end && !isSpace(s.charCodeAt(end))) return `a malformed processing instruction at offset ${i}`;
      i = close + 2;
      continue;
    }
    if (next === 0x2f /* / */) {
      const end = nameEnd(s, i + 2);
      if (depth === 0) return `an end tag </${s.slice(i + 2, end)}> without a start tag at offset ${i}`;
      depth--;
      const os = openStart[depth] as number;
      const len = (openEnd[depth] as number) - os;
      if (end - i - 2 !== len || !sameRange(s, os, i + 2, len)) {
        return `an end tag </${s.slice(i + 2, end)}> where </${s.slice(os, os + len)}> belongs at offset ${i}`;
      }
      const gt = skipSpace(s, end);
      if (s.charCodeAt(gt) !== 0x3e) return `a malformed end tag at offset ${i}`;
      prefixCount = scopes[depth] as number;
      i = gt + 1;
      continue;
    }
    // A start tag or an empty-element tag: '<' Name (S Attribute)* S? '/'? '>' (section 3.1 [40], [44]).
    const nameStop = nameEnd(s, i + 1);
    if (nameStop === i + 1) return `a "<" that starts no tag at offset ${i}`;
    if (depth === 0 && roots++ > 0) return `a second root element <${s.slice(i + 1, nameStop)}> at offset ${i}`;
    const scope = prefixCount;
    let attrCount = 0;
    let namespaceCount = 0;
    let j = nameStop;
    let empty = false;
    for (;;) {
      const k = skipSpace(s, j);
      const c = s.charCodeAt(k);
      if (c === 0x3e /* > */) {
        j = k + 1;
        break;
      }
      if (c === 0x2f /* / */ && s.charCodeAt(k + 1) === 0x3e) {
        j = k + 2;
        empty = true;
        break;
      }
      // Attribute [41]: S Name Eq AttValue; a value never holds "<", references must be legal.
      const attrStop = k > j ? nameEnd(s, k) : k;
      if (attrStop === k) return `a malformed start tag <${s.slice(i + 1, nameStop)}> at offset ${i}`;
      let q = skipSpace(s, attrStop);
      if (s.charCodeAt(q) !== 0x3d /* = */) return `attribute ${s.slice(k, attrStop)} without a value at offset ${k}`;
      q = skipSpace(s, q + 1);
      const quote = s.charCodeAt(q);
      if (quote !== 0x22 && quote !== 0x27) return `attribute ${s.slice(k, attrStop)} with an unquoted value at offset ${k}`;
      const valueEnd = s.indexOf(quote === 0x22 ? '"' : "'", q + 1);
      if (valueEnd < 0) return `attribute ${s.slice(k, attrStop)} with an unclosed value at offset ${k}`;
      // The next "<" is at most the next tag away, so this search stays short.
      const lt = s.indexOf('<', q + 1);
      if (lt >= 0 && lt < valueEnd) return `a "<" in an attribute value at offset ${lt}`;
      if (amp < valueEnd) {
        const r = checkReferences(s, q + 1, valueEnd, amp);
        if (typeof r === 'string') return r;
        amp = r;
      }
      for (let a = 0; a < attrCount; a++) {
        const as = attrStart[a] as number;
        if ((attrEnd[a] as number) - as === attrStop - k && sameRange(s, as, k, attrStop - k)) return `attribute ${s.slice(k, attrStop)} twice at offset ${k}`;
      }
      attrStart[attrCount] = k;
      attrEnd[attrCount] = attrStop;
      attrCount++;
      // Checked as each is read, so the pairwise checks above and below stay bounded (./bounds.ts).
      if (s.startsWith('xmlns', k) && (attrStop - k === 5 || s.charCodeAt(k + 5) === 0x3a)) {
        if (++namespaceCount > MAX_XML_NAMESPACES) return `an element declaring more than ${MAX_XML_NAMESPACES} namespaces at offset ${i}`;
      } else if (attrCount - namespaceCount > MAX_XML_ATTRIBUTES) {
        return `an element with more than ${MAX_XML_ATTRIBUTES} attributes at offset ${i}`;
      }
      if (attrStop - k > 6 && s.startsWith('xmlns:', k)) {
        // Namespaces in XML 1.0 section 3: a prefix is never undeclared, and `xmlns` is never bound.
        if (valueEnd === q + 1 || (attrStop - k === 11 && s.startsWith('xmlns:xmlns', k))) return `an illegal namespace declaration at offset ${k}`;
        prefixStart[prefixCount] = k + 6;
        prefixEnd[prefixCount] = attrStop;
        uriStart[prefixCount] = q + 1;
        uriEnd[prefixCount] = valueEnd;
        prefixCount++;
      }
      j = valueEnd + 1;
    }
    // Namespaces in XML 1.0 section 5: checked after the tag's own declarations are in scope.
    const problem = qnameProblem(i + 1, nameStop);
    if (problem) return problem;
    for (let a = 0; a < attrCount; a++) {
      const attrProblem = qnameProblem(attrStart[a] as number, attrEnd[a] as number);
      if (attrProblem) return attrProblem;
    }
    if (attrCount > 1) {
      const clash = expandedNameClash(attrCount);
      if (clash) return clash;
    }
    if (empty) {
      prefixCount = scope;
    } else {
      openStart[depth] = i + 1;
      openEnd[depth] = nameStop;
      scopes[depth] = scope;
      depth++;
    }
    i = j;
  }
  if (depth > 0) return `<${s.slice(openStart[depth - 1] as number, openEnd[depth - 1] as number)}> is not closed`;
  if (roots === 0) return 'no element';
  return null;
}
