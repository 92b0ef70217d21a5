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

/** Canonical text of raw character data: line ends normalized, references decoded, then `&`, `<`, `>` and CR escaped. */
function canonicalText(raw: string): string {
  // Most text has nothing to change: as it is.
  if (!TEXT_SPECIAL.test(raw)) return raw;
  return escapeText(decodeRefs(raw.replace(/\r\n?/g, '\n')));
}

/** Canonical attribute value of a raw one (XML 1.0 section 3.3.3 normalization, then C14N's escapes). */
function canonicalAttr(raw: string): string {
  if (!ATTR_SPECIAL.test(raw)) return raw;
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

function prefixOf(qname: string): string {
  const colon = qname.indexOf(':');
  return colon < 0 ? '' : qname.slice(0, colon);
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
  const stack: Frame[] = [{ scope: new Map([...scope, ['xml', XML_NAMESPACE]]), rendered: { prefix: '', uri: '', up: null } }];
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
    if (xml.startsWith('<!--', lt)) {
      flush();
      const close = xml.indexOf('-->', lt + 4);
      if (close < 0) break;
      i = close + 3;
    } else if (xml.startsWith('<![CDATA[', lt)) {
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
      // The common start tag, `<name>`: as it is, with its namespace declared when the output has not yet.
      let e = lt + 1;
      let colon = -1;
      for (let c = xml.charCodeAt(e); e < n && c !== 0x3e && c !== 0x2f && !isSpace(c); c = xml.charCodeAt(++e)) if (c === 0x3a && colon < 0) colon = e;
      if (xml.charCodeAt(e) === 0x3e) {
        const parent = stack[stack.length - 1] as Frame;
        const prefix = colon < 0 ? '' : xml.slice(lt + 1, colon);
        if (prefix !== 'xml') {
          const uri = parent.scope.get(prefix) ?? '';
          if (renderedUri(parent.rendered, prefix) === uri) {
            out += xml.slice(lt, e + 1);
            stack.push(parent);
          } else {
            out += `${xml.slice(lt, e)}${prefix === '' ? ' xmlns' : ` xmlns:${prefix}`}="${escapeAttr(uri)}">`;
            stack.push({ scope: parent.scope, rendered: { prefix, uri, up: parent.rendered } });
          }
          depth++;
          i = e + 1;
          continue;
        }
      }
      const after = startTag(
        xml,
        lt,
        stack,
        (piece) => (out += piece),
        (opened) => (depth += opened ? 1 : 0),
      );
      if (after < 0) break;
      i = after;
    }
  }
  return out;
}

/**
 * Writes the start tag at `lt` canonically (and its end tag when it is an
 * empty-element tag); pushes its frame when it opens an element. Returns the
 * index after the tag, or -1 (writing nothing) for a tag cut short.
 */
function startTag(xml: string, lt: number, stack: Frame[], write: (piece: string) => void, opened: (open: boolean) => void): number {
  const parent = stack[stack.length - 1] as Frame;
  const n = xml.length;
  let p = lt + 1;
  while (p < n && !isSpace(xml.charCodeAt(p)) && xml[p] !== '/' && xml[p] !== '>') p++;
  const name = xml.slice(lt + 1, p);
  let own: Map<string, string> | null = null;
  const attrs: Attr[] = [];
  for (;;) {
    while (p < n && isSpace(xml.charCodeAt(p))) p++;
    const c = xml[p];
    if (c === '>' || c === '/') break;
    const a = p;
    while (p < n && xml[p] !== '=' && !isSpace(xml.charCodeAt(p))) p++;
    const aname = xml.slice(a, p);
    while (p < n && xml[p] !== '=') p++;
    p++;
    while (p < n && isSpace(xml.charCodeAt(p))) p++;
    const quote = xml[p];
    if (quote !== '"' && quote !== "'") return -1;
    const close = xml.indexOf(quote, p + 1);
    if (close < 0) return -1;
    const rawValue = xml.slice(p + 1, close);
    p = close + 1;
    if (aname === 'xmlns' || aname.startsWith('xmlns:')) {
      own ??= new Map(parent.scope);
      own.set(aname === 'xmlns' ? '' : aname.slice(6), decodeRefs(rawValue.replace(/\r\n?/g, '\n').replace(/[\t\n\r]/g, ' ')));
    } else {
      const prefix = prefixOf(aname);
      attrs.push({ name: aname, prefix, local: prefix === '' ? aname : aname.slice(prefix.length + 1), value: rawValue, ns: '' });
    }
  }
  if (p >= n) return -1;
  const empty = xml[p] === '/';
  const after = xml.indexOf('>', p) + 1;
  if (after === 0) return -1;
  const scopeHere = own ?? parent.scope;
  // The namespaces the element visibly uses: its own prefix's, and its attributes' (xml's is never declared).
  const used: string[] = [prefixOf(name)];
  for (const a of attrs) {
    if (a.prefix === '') continue;
    a.ns = scopeHere.get(a.prefix) ?? '';
    if (!used.includes(a.prefix)) used.push(a.prefix);
  }
  let tag = `<${name}`;
  let rendered = parent.rendered;
  if (used.length > 1) used.sort(byCodePoint);
  for (const prefix of used) {
    if (prefix === 'xml') continue;
    const uri = scopeHere.get(prefix) ?? '';
    if (renderedUri(parent.rendered, prefix) === uri) continue;
    rendered = { prefix, uri, up: rendered };
    tag += prefix === '' ? ` xmlns="${escapeAttr(uri)}"` : ` xmlns:${prefix}="${escapeAttr(uri)}"`;
  }
  if (attrs.length > 1) attrs.sort((a, b) => byCodePoint(a.ns, b.ns) || byCodePoint(a.local, b.local));
  for (const a of attrs) tag += ` ${a.name}="${canonicalAttr(a.value)}"`;
  tag += '>';
  if (empty) tag += `</${name}>`;
  else stack.push({ scope: scopeHere, rendered });
  write(tag);
  opened(!empty);
  return after;
}
