/**
 * Exclusive XML Canonicalization 1.0 without comments (W3C, 2002), of one
 * stored fragment as it is served: the element inside an OAI-PMH
 * `<metadata>`, whose in-scope namespaces there are the envelope's (a
 * default namespace of OAI-PMH and `xsi`, lib/oai/render.ts). What the
 * publication log hashes, so that a harvester recomputes the same bytes from
 * what it harvested with any C14N library.
 *
 * Only fragments that pass `checkFragment` are read (well-formed, one root
 * element, no DTD), so only the five predefined entities and character
 * references occur. The canonical form (C14N 1.0 section 2.3, exclusive
 * C14N section 3):
 *
 * - an empty element is written as a start and an end tag; comments are
 *   left out; a CDATA section becomes its text; processing instructions stay;
 * - text escapes `&`, `<`, `>` and CR; attribute values `&`, `<`, `"`, TAB,
 *   LF and CR, after XML 1.0 section 3.3.3 normalization (each literal white
 *   space character becomes a space);
 * - an element declares exactly the namespaces it visibly uses (its own
 *   prefix, or the default namespace when it has none, and its attributes'
 *   prefixes) that its nearest output ancestor has not declared with the
 *   same value: prefixes sorted, the default first; `xmlns=""` only where an
 *   ancestor declared a non-empty default;
 * - attributes sorted by namespace URI, then local name.
 */
import { OAI_NS, XML_NAMESPACE, XSI_NS } from './namespaces';

/** The namespaces in scope around a record's metadata in an OAI-PMH response. */
export const SERVED_SCOPE: ReadonlyMap<string, string> = new Map([
  ['', OAI_NS],
  ['xsi', XSI_NS],
]);

const ATTR_SPECIAL = /[&<"\t\n\r]/;
const TEXT_SPECIAL = /[&>\r]/;
const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeRefs(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    return PREDEFINED[ref] ?? whole;
  });
}

/**
 * Whether `s` holds a character the canonical form changes: `&`, `>` or CR
 * in text, `&`, `<`, `"`, TAB, LF or CR in an attribute value. A loop, not
 * a regular expression for short ones: most attribute values are a few
 * characters long, where running a regular expression cost more than the
 * rest of the tag; over longer text the expression is the faster.
 */
function hasSpecial(s: string, attr: boolean): boolean {
  if (s.length > 24) return (attr ? ATTR_SPECIAL : TEXT_SPECIAL).test(s);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x3e) continue;
    if (c === 0x26 || c === 0x0d || (attr ? c === 0x3c || c === 0x22 || c === 0x09 || c === 0x0a : c === 0x3e)) return true;
  }
  return false;
}

/** Canonical text of raw character data: line ends normalized, references decoded, then `&`, `<`, `>` and CR escaped. */
function canonicalText(raw: string): string {
  // Most text has nothing to change: as it is.
  if (!hasSpecial(raw, false)) return raw;
  return escapeText(decodeRefs(raw.replace(/\r\n?/g, '\n')));
}

/** Canonical attribute value of a raw one (XML 1.0 section 3.3.3 normalization, then C14N's escapes). */
function canonicalAttr(raw: string): string {
  if (!hasSpecial(raw, true)) return raw;
  return escapeAttr(decodeRefs(raw.replace(/\r\n?/g, '\n').replace(/[\t\n\r]/g, ' ')));
}

function escapeText(s: string): string {
  return s.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#xD;'));
}

const ATTR_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '"': '&quot;', '\t': '&#x9;', '\n': '&#xA;', '\r': '&#xD;' };

function escapeAttr(s: string): string {
  return s.replace(/[&<"\t\n\r]/g, (c) => ATTR_ESCAPES[c] as string);
}

/**
 * Orders strings by Unicode code point (C14N 1.0 section 2.2: lexicographic
 * on UCS code points): UTF-16 code units order them the same but for a
 * surrogate against U+E000..U+FFFF, which comes first by code point.
 */
function byCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** A namespace declared in the output, and those declared above it: each element adds to its parent's, sharing the rest. */
interface Rendered {
  readonly prefix: string;
  readonly uri: string;
  readonly up: Rendered | null;
}

/** The namespace the output has `prefix` bound to where `r` stands (none but the empty default at the top). */
function renderedUri(r: Rendered | null, prefix: string): string | undefined {
  for (let at = r; at !== null; at = at.up) if (at.prefix === prefix) return at.uri;
  return undefined;
}

/** An open element: its namespace scope and what it (or its nearest output ancestor) declared in the output. */
interface Frame {
  readonly scope: ReadonlyMap<string, string>;
  readonly rendered: Rendered;
}

interface Attr {
  readonly name: string;
  readonly prefix: string;
  readonly local: string;
  readonly value: string;
  ns: string;
}

/** XML white space (XML 1.0 production S). */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * The exclusive canonical form of `xml`, one element, with `scope` the
 * namespaces in scope where it stands (by default as served in OAI-PMH).
 * A scan of the fragment, which passed `checkFragment` (well-formed, no DTD).
 *
 * @example excC14n('<a:x xmlns:a="urn:a" xmlns:b="urn:b" z="1"  y="2"/>') // '<a:x xmlns:a="urn:a" y="2" z="1"></a:x>'
 */
export function excC14n(xml: string, scope: ReadonlyMap<string, string> = SERVED_SCOPE): string {
  let out = '';
  let top = topFrames.get(scope);
  if (top === undefined) {
    top = { scope: new Map([...scope, ['xml', XML_NAMESPACE]]), rendered: { prefix: '', uri: '', up: null } };
    topFrames.set(scope, top);
  }
  const stack: Frame[] = [top];
  // Character data of the element being written, gathered across the pieces comments and PIs cut it into.
  let raw = '';
  const flush = (): void => {
    if (raw !== '') out += canonicalText(raw);
    raw = '';
  };
  let depth = 0;
  const n = xml.length;
  let i = 0;
  while (i < n) {
    const lt = xml.indexOf('<', i);
    const end = lt < 0 ? n : lt;
    // Text outside the element (white space around it) is not part of it.
    if (end > i && depth > 0) raw += xml.slice(i, end);
    if (lt < 0) break;
    const next = xml.charCodeAt(lt + 1);
    // A fragment cut short (only one edited behind the write path can be: ./fragment.ts refuses it) ends here.
    if (next === 0x21 /* ! */ && xml.startsWith('<!--', lt)) {
      flush();
      const close = xml.indexOf('-->', lt + 4);
      if (close < 0) break;
      i = close + 3;
    } else if (next === 0x21 && xml.startsWith('<![CDATA[', lt)) {
      flush();
      const close = xml.indexOf(']]>', lt + 9);
      if (close < 0) break;
      out += escapeText(xml.slice(lt + 9, close).replace(/\r\n?/g, '\n'));
      i = close + 3;
    } else if (next === 0x3f /* ? */) {
      flush();
      const close = xml.indexOf('?>', lt + 2);
      if (close < 0) break;
      let t = lt + 2;
      while (t < close && !isSpace(xml.charCodeAt(t))) t++;
      const target = xml.slice(lt + 2, t);
      while (t < close && isSpace(xml.charCodeAt(t))) t++;
      const data = xml.slice(t, close);
      if (depth > 0) out += data === '' ? `<?${target}?>` : `<?${target} ${data.replace(/\r\n?/g, '\n')}?>`;
      i = close + 2;
    } else if (next === 0x2f /* / */) {
      flush();
      const close = xml.indexOf('>', lt + 2);
      if (close < 0) break;
      let e = lt + 2;
      while (e < close && !isSpace(xml.charCodeAt(e))) e++;
      out += e === close ? xml.slice(lt, close + 1) : `</${xml.slice(lt + 2, e)}>`;
      stack.pop();
      depth--;
      i = close + 1;
    } else {
      flush();
      const parent = stack[stack.length - 1] as Frame;
      const key = memoKey(xml, lt);
      const known = key === null ? undefined : memos.get(parent)?.get(key);
      if (known !== undefined) {
        out += known.tag;
        if (known.frame !== null) {
          stack.push(known.frame);
          depth++;
        }
        i = lt + (key as string).length;
        continue;
      }
      let tag: string | null = null;
      let frame: Frame | null = null;
      // The common start tag, `<name>`: as it is, with its namespace declared when the output has not yet.
      let e = lt + 1;
      let colon = -1;
      for (let c = xml.charCodeAt(e); e < n && c !== 0x3e && c !== 0x2f && !isSpace(c); c = xml.charCodeAt(++e)) if (c === 0x3a && colon < 0) colon = e;
      if (xml.charCodeAt(e) === 0x3e) {
        const prefix = colon < 0 ? '' : xml.slice(lt + 1, colon);
        if (prefix !== 'xml') {
          const uri = parent.scope.get(prefix) ?? '';
          if (renderedUri(parent.rendered, prefix) === uri) {
            tag = xml.slice(lt, e + 1);
            frame = parent;
          } else {
            tag = `${xml.slice(lt, e)}${declaration(prefix, uri)}>`;
            frame = { scope: parent.scope, rendered: { prefix, uri, up: parent.rendered } };
          }
          tagEnd = e + 1;
        }
      }
      if (tag === null) {
        const open = stack.length;
        tag = startTag(xml, lt, stack);
        if (tag === null) break;
        if (stack.length > open) frame = stack.pop() as Frame;
      }
      out += tag;
      if (frame !== null) {
        stack.push(frame);
        depth++;
      }
      if (key !== null) remember(parent, key, { tag, frame });
      i = tagEnd;
    }
  }
  return out;
}

/** The frame a fragment starts in, one per scope, so that what is remembered below holds from one fragment to the next. */
let topFrames = new WeakMap<ReadonlyMap<string, string>, Frame>();

/** A start tag made canonical: its canonical text (with its end tag for an empty element), and the frame it opens (null: none). */
interface Known {
  readonly tag: string;
  readonly frame: Frame | null;
}

/**
 * Start tags made canonical, by the frame they stand in and their text. A start tag's canonical form and
 * the frame it opens depend on nothing else, and a writer writes the same tags record after record (a
 * format's root, MARCXML's datafields and subfields, Dublin Core's elements): a tag seen before in the
 * same frame is taken from here. Frames are never changed, and a known tag opens the very frame it opened
 * before, so its children are found here too.
 */
let memos = new WeakMap<Frame, Map<string, Known>>();

/**
 * Tags remembered at most, in all frames, before all are forgotten and remembering starts again (what
 * stored XML of other sources holds may vary from record to record: memory stays a few megabytes), and
 * the longest tag remembered.
 */
const MEMO_TAGS = 10_000;
const MEMO_TAG_LENGTH = 512;
let remembered = 0;

/**
 * A copy of `s` that holds no other string: V8 makes a slice of a long string a view that keeps the whole
 * alive, and what is remembered would keep the record it was read from (a concatenation is made flat,
 * and the slice of it holds only that).
 */
function detached(s: string): string {
  return ` ${s}`.slice(1);
}

function remember(parent: Frame, key: string, known: Known): void {
  if (remembered >= MEMO_TAGS) {
    memos = new WeakMap();
    topFrames = new WeakMap();
    remembered = 0;
    // The fragment being read goes on in frames no longer remembered: what it remembers now is lost with them.
  }
  let memo = memos.get(parent);
  if (memo === undefined) memos.set(parent, (memo = new Map()));
  memo.set(detached(key), { tag: detached(known.tag), frame: known.frame });
  remembered++;
}

/**
 * The text of the start tag at `lt`, up to its first `>`, when that `>` surely ends it: no `'` in it, and
 * an even number of `"` (a `>` inside a value would leave one open); else null, and the tag is read in full.
 */
function memoKey(xml: string, lt: number): string | null {
  const gt = xml.indexOf('>', lt);
  if (gt < 0 || gt - lt >= MEMO_TAG_LENGTH) return null;
  const key = xml.slice(lt, gt + 1);
  if (key.includes("'")) return null;
  let quotes = 0;
  for (let q = key.indexOf('"'); q >= 0; q = key.indexOf('"', q + 1)) quotes++;
  return quotes % 2 === 0 ? key : null;
}

/** The last declaration written, and what it was written for: a record declares one namespace on element after element. */
let lastDeclared = { prefix: '', uri: '', text: ' xmlns=""' };

/** A namespace declaration as the canonical form writes it, with a space before it. */
function declaration(prefix: string, uri: string): string {
  if (lastDeclared.prefix === prefix && lastDeclared.uri === uri) return lastDeclared.text;
  const value = hasSpecial(uri, true) ? escapeAttr(uri) : uri;
  lastDeclared = { prefix, uri, text: prefix === '' ? ` xmlns="${value}"` : ` xmlns:${prefix}="${value}"` };
  return lastDeclared.text;
}

function attrOrder(x: Attr, y: Attr): number {
  return x.ns === y.ns ? byCodePoint(x.local, y.local) : byCodePoint(x.ns, y.ns);
}

/** Where the tag {@link startTag} last read ends: the index after its `>`. */
let tagEnd = 0;

/**
 * The canonical start tag at `lt` (and its end tag when it is an
 * empty-element tag), pushing its frame when it opens an element, and
 * setting {@link tagEnd}; null, pushing nothing, for a tag cut short. Read
 * by character codes, with objects made only for attributes and
 * declarations: MARCXML's tags, three attributes each, were half the time
 * the log's hash of a written record took.
 */
function startTag(xml: string, lt: number, stack: Frame[]): string | null {
  const parent = stack[stack.length - 1] as Frame;
  const n = xml.length;
  let p = lt + 1;
  let c = xml.charCodeAt(p);
  let colon = -1;
  while (p < n && c !== 0x3e && c !== 0x2f && !isSpace(c)) {
    if (c === 0x3a && colon < 0) colon = p;
    c = xml.charCodeAt(++p);
  }
  const name = xml.slice(lt + 1, p);
  const elementPrefix = colon < 0 ? '' : xml.slice(lt + 1, colon);
  let own: Map<string, string> | null = null;
  let attrs: Attr[] | null = null;
  let prefixed = false;
  for (;;) {
    while (isSpace(c)) c = xml.charCodeAt(++p);
    if (p >= n) return null;
    if (c === 0x3e || c === 0x2f) break;
    const a = p;
    colon = -1;
    while (p < n && c !== 0x3d && !isSpace(c)) {
      if (c === 0x3a && colon < 0) colon = p;
      c = xml.charCodeAt(++p);
    }
    const aname = xml.slice(a, p);
    while (p < n && c !== 0x3d) c = xml.charCodeAt(++p);
    c = xml.charCodeAt(++p);
    while (isSpace(c)) c = xml.charCodeAt(++p);
    if (c !== 0x22 && c !== 0x27) return null;
    const close = xml.indexOf(c === 0x22 ? '"' : "'", p + 1);
    if (close < 0) return null;
    const rawValue = xml.slice(p + 1, close);
    p = close + 1;
    c = xml.charCodeAt(p);
    if (aname === 'xmlns' || (colon === a + 5 && aname.startsWith('xmlns'))) {
      own ??= new Map(parent.scope);
      // Frames are remembered with their tags: a namespace name must not keep the record it was read from.
      own.set(colon < 0 ? '' : aname.slice(6), detached(decodeRefs(rawValue.replace(/\r\n?/g, '\n').replace(/[\t\n\r]/g, ' '))));
    } else {
      const prefix = colon < 0 ? '' : aname.slice(0, colon - a);
      prefixed ||= colon >= 0;
      (attrs ??= []).push({ name: aname, prefix, local: colon < 0 ? aname : aname.slice(colon - a + 1), value: rawValue, ns: '' });
    }
  }
  const empty = c === 0x2f;
  const after = xml.indexOf('>', p) + 1;
  if (after === 0) return null;
  tagEnd = after;
  const scopeHere = own ?? parent.scope;
  let tag = `<${name}`;
  let rendered = parent.rendered;
  // The namespaces the element visibly uses, in order: its own prefix's, and its attributes' (xml's is never declared).
  let used: readonly string[] = [elementPrefix];
  if (prefixed) {
    const all = [elementPrefix];
    for (const at of attrs as Attr[]) {
      if (at.prefix === '') continue;
      at.ns = scopeHere.get(at.prefix) ?? '';
      if (!all.includes(at.prefix)) all.push(at.prefix);
    }
    if (all.length > 1) all.sort(byCodePoint);
    used = all;
  }
  for (const prefix of used) {
    if (prefix === 'xml') continue;
    const uri = scopeHere.get(prefix) ?? '';
    if (renderedUri(parent.rendered, prefix) === uri) continue;
    rendered = { prefix, uri, up: rendered };
    tag += declaration(prefix, uri);
  }
  if (attrs !== null) {
    // By namespace URI, then local name (C14N 1.0 section 2.2): an insertion sort, as a tag has few.
    for (let k = 1; k < attrs.length; k++) {
      const at = attrs[k] as Attr;
      let j = k - 1;
      for (; j >= 0 && attrOrder(attrs[j] as Attr, at) > 0; j--) attrs[j + 1] = attrs[j] as Attr;
      attrs[j + 1] = at;
    }
    for (const at of attrs) tag += ` ${at.name}="${canonicalAttr(at.value)}"`;
  }
  tag += '>';
  // A frame that declares nothing new is its parent's (frames are never changed).
  if (empty) tag += `</${name}>`;
  else stack.push(own === null && rendered === parent.rendered ? parent : { scope: scopeHere, rendered });
  return tag;
}
