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
import { OAI_NS, XSI_NS } from './namespaces';

const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** The namespaces in scope around a record's metadata in an OAI-PMH response. */
export const SERVED_SCOPE: ReadonlyMap<string, string> = new Map([
  ['', OAI_NS],
  ['xsi', XSI_NS],
]);

const TOKEN =
  /<!--[\s\S]*?-->|<\?([^\s?]+)(?:\s+([\s\S]*?))?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<\/([^\s>]+)\s*>|<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]{1,65536})/g;
const ATTR = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeRefs(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    return PREDEFINED[ref] ?? whole;
  });
}

/** XML 1.0 section 3.3.3: line ends normalized, then every literal white space character a space, then references. */
function attrValue(raw: string): string {
  return decodeRefs(raw.replace(/\r\n?/g, '\n').replace(/[\t\n\r]/g, ' '));
}

function escapeText(s: string): string {
  return s.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#xD;'));
}

function escapeAttr(s: string): string {
  const map: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '"': '&quot;', '\t': '&#x9;', '\n': '&#xA;', '\r': '&#xD;' };
  return s.replace(/[&<"\t\n\r]/g, (c) => map[c] as string);
}

/** Orders strings by Unicode code point (C14N 1.0 section 2.2: lexicographic on UCS code points). */
function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i] as string).codePointAt(0)! - (y[i] as string).codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

function prefixOf(qname: string): string {
  const colon = qname.indexOf(':');
  return colon < 0 ? '' : qname.slice(0, colon);
}

function localOf(qname: string): string {
  return qname.slice(qname.indexOf(':') + 1);
}

/** An open element: its namespace scope and what it (or its nearest output ancestor) declared in the output. */
interface Frame {
  readonly scope: ReadonlyMap<string, string>;
  readonly rendered: ReadonlyMap<string, string>;
}

/**
 * The exclusive canonical form of `xml`, one element, with `scope` the
 * namespaces in scope where it stands (by default as served in OAI-PMH).
 *
 * @example excC14n('<a:x xmlns:a="urn:a" xmlns:b="urn:b" z="1"  y="2"/>') // '<a:x xmlns:a="urn:a" y="2" z="1"></a:x>'
 */
export function excC14n(xml: string, scope: ReadonlyMap<string, string> = SERVED_SCOPE): string {
  const out: string[] = [];
  const stack: Frame[] = [{ scope: new Map([...scope, ['xml', XML_NS]]), rendered: new Map([['', '']]) }];
  let raw = '';
  const flush = (): void => {
    if (raw !== '') out.push(escapeText(decodeRefs(raw.replace(/\r\n?/g, '\n'))));
    raw = '';
  };
  let depth = 0;
  for (const m of xml.matchAll(TOKEN)) {
    if (m[8] !== undefined) {
      // Text outside the element (white space around it) is not part of it.
      if (depth > 0) raw += m[8];
      continue;
    }
    flush();
    if (m[1] !== undefined) {
      if (depth > 0) out.push(m[2] === undefined || m[2] === '' ? `<?${m[1]}?>` : `<?${m[1]} ${m[2].replace(/\r\n?/g, '\n')}?>`);
    } else if (m[3] !== undefined) {
      out.push(escapeText(m[3].replace(/\r\n?/g, '\n')));
    } else if (m[4] !== undefined) {
      out.push(`</${m[4]}>`);
      stack.pop();
      depth--;
    } else if (m[5] !== undefined) {
      const parent = stack[stack.length - 1] as Frame;
      const name = m[5];
      let own: Map<string, string> | null = null;
      const attrs: { name: string; ns: string; local: string; value: string }[] = [];
      for (const a of (m[6] ?? '').matchAll(ATTR)) {
        const aname = a[1] as string;
        const value = attrValue(a[2] ?? a[3] ?? '');
        if (aname === 'xmlns' || aname.startsWith('xmlns:')) {
          own ??= new Map(parent.scope);
          own.set(aname === 'xmlns' ? '' : aname.slice(6), value);
        } else attrs.push({ name: aname, ns: '', local: localOf(aname), value });
      }
      const scopeHere = own ?? parent.scope;
      for (const a of attrs) a.ns = prefixOf(a.name) === '' ? '' : (scopeHere.get(prefixOf(a.name)) ?? '');
      const used = new Set<string>([prefixOf(name)]);
      for (const a of attrs) if (prefixOf(a.name) !== '') used.add(prefixOf(a.name));
      used.delete('xml');
      let rendered: Map<string, string> | null = null;
      const decls: string[] = [];
      for (const p of [...used].sort(byCodePoint)) {
        const uri = scopeHere.get(p) ?? '';
        if ((parent.rendered.get(p) ?? (p === '' ? '' : undefined)) === uri) continue;
        rendered ??= new Map(parent.rendered);
        rendered.set(p, uri);
        decls.push(p === '' ? ` xmlns="${escapeAttr(uri)}"` : ` xmlns:${p}="${escapeAttr(uri)}"`);
      }
      attrs.sort((a, b) => byCodePoint(a.ns, b.ns) || byCodePoint(a.local, b.local));
      out.push(`<${name}`, ...decls, ...attrs.map((a) => ` ${a.name}="${escapeAttr(a.value)}"`), '>');
      if (m[7] === '/') out.push(`</${name}>`);
      else {
        stack.push({ scope: scopeHere, rendered: rendered ?? parent.rendered });
        depth++;
      }
    }
  }
  return out.join('');
}
