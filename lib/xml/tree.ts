/**
 * Reads one stored XML fragment into a small tree with namespaces resolved,
 * for the pages and Signposting, which need the values of a record (titles,
 * identifiers, rights, file links) rather than its text.
 *
 * Only fragments that pass `checkFragment` (well-formed, one root element,
 * no DTD) are read, so the reader can stay small: it never meets an
 * entity declaration, and only the five predefined entities and character
 * references exist (XML 1.0 section 4.1, 4.6). Comments and processing
 * instructions are skipped; CDATA sections become text.
 */
import { checkFragment } from './fragment';
import { XML_NAMESPACE, XSI_NS } from './namespaces';

/** An element: its namespace, local name, attributes and children in document order. */
export interface XmlElement {
  readonly kind: 'element';
  /** The namespace URI, or '' for none. */
  readonly ns: string;
  readonly local: string;
  /** The qualified name as written, e.g. `dc:title`. */
  readonly name: string;
  /** Attributes other than namespace declarations, by qualified name. */
  readonly attrs: ReadonlyMap<string, string>;
  /** `xml:lang` in scope (inherited), or '' when none. */
  readonly lang: string;
  readonly children: readonly XmlNode[];
}

/** A text node (character data, entities already replaced). */
export interface XmlText {
  readonly kind: 'text';
  readonly text: string;
}

export type XmlNode = XmlElement | XmlText;

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(lt|gt|amp|quot|apos));/g, (_m, hex?: string, dec?: string, name?: string) =>
    hex !== undefined ? String.fromCodePoint(parseInt(hex, 16)) : dec !== undefined ? String.fromCodePoint(Number(dec)) : (PREDEFINED[name ?? ''] ?? ''),
  );
}

/** Attribute value normalization (XML 1.0 section 3.3.3): literal whitespace becomes a space before references are replaced. */
function decodeAttr(s: string): string {
  return decode(s.replace(/[\t\n\r]/g, ' '));
}

interface Open {
  readonly name: string;
  readonly attrs: Map<string, string>;
  readonly scope: Map<string, string>;
  readonly lang: string;
  readonly children: XmlNode[];
}

const TOKEN =
  /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<\/([^\s>]+)\s*>|<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]{1,65536})/g;
const ATTR = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/**
 * Parses a stored fragment into its root element, or returns null when the
 * fragment is not one well-formed element (the same judgement the XML writer
 * makes before splicing it). Example: `parseFragment('<a xmlns="urn:x">1</a>')`
 * → `{ kind: 'element', ns: 'urn:x', local: 'a', children: [{ kind: 'text', text: '1' }], … }`.
 */
export function parseFragment(xml: string): XmlElement | null {
  if (checkFragment(xml, ['xsi']) !== null) return null;
  const rootScope = new Map<string, string>([
    ['xml', XML_NAMESPACE],
    ['xsi', XSI_NS],
  ]);
  const stack: Open[] = [{ name: '', attrs: new Map(), scope: rootScope, lang: '', children: [] }];
  const finish = (o: Open): XmlElement => {
    const colon = o.name.indexOf(':');
    const prefix = colon < 0 ? '' : o.name.slice(0, colon);
    return {
      kind: 'element',
      ns: o.scope.get(prefix) ?? '',
      local: colon < 0 ? o.name : o.name.slice(colon + 1),
      name: o.name,
      attrs: o.attrs,
      lang: o.lang,
      children: o.children,
    };
  };
  // A run of text is matched a piece at a time (TOKEN's last group is bounded), so a text of megabytes never makes
  // the expression keep a backtracking point per character (V8 throws "Maximum call stack size exceeded"); the pieces
  // are joined and decoded as one text, an entity never split.
  let raw = '';
  const flushText = (top: Open): void => {
    if (raw === '') return;
    top.children.push({ kind: 'text', text: decode(raw.replace(/\r\n?/g, '\n')) });
    raw = '';
  };
  for (const m of xml.matchAll(TOKEN)) {
    const top = stack[stack.length - 1] as Open;
    if (m[6] !== undefined) {
      raw += m[6];
      continue;
    }
    flushText(top);
    if (m[1] !== undefined) top.children.push({ kind: 'text', text: m[1] });
    else if (m[2] !== undefined) {
      const done = stack.pop() as Open;
      (stack[stack.length - 1] as Open).children.push(finish(done));
    } else if (m[3] !== undefined) {
      // An element shares its parent's namespace scope unless it declares one of its own: a copy per element
      // made a record of many elements allocate a map for each.
      let scope = top.scope;
      const attrs = new Map<string, string>();
      for (const a of (m[4] ?? '').matchAll(ATTR)) {
        const name = a[1] as string;
        const value = decodeAttr(a[2] ?? a[3] ?? '');
        if (name === 'xmlns' || name.startsWith('xmlns:')) {
          if (scope === top.scope) scope = new Map(top.scope);
          scope.set(name === 'xmlns' ? '' : name.slice(6), value);
        } else attrs.set(name, value);
      }
      const open: Open = { name: m[3], attrs, scope, lang: attrs.get('xml:lang') ?? top.lang, children: [] };
      if (m[5] === '/') top.children.push(finish(open));
      else stack.push(open);
    }
  }
  flushText(stack[stack.length - 1] as Open);
  const root = (stack[0] as Open).children.find((n): n is XmlElement => n.kind === 'element');
  return root ?? null;
}

/** The text content of a node and its descendants, whitespace collapsed. Example: `textOf(parseFragment('<a> x <b>y</b></a>')!)` → `'x y'`. */
export function textOf(node: XmlNode): string {
  const parts: string[] = [];
  const walk = (n: XmlNode): void => {
    if (n.kind === 'text') parts.push(n.text);
    else for (const c of n.children) walk(c);
  };
  walk(node);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/**
 * Every descendant element (root included) with this namespace and local name, in document order.
 * Example: `findAll(parseFragment('<a xmlns="urn:x"><b/><c><b/></c></a>')!, 'urn:x', 'b').length` → `2`.
 */
export function findAll(root: XmlElement, ns: string, local: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (e: XmlElement): void => {
    if (e.ns === ns && e.local === local) out.push(e);
    for (const c of e.children) if (c.kind === 'element') walk(c);
  };
  walk(root);
  return out;
}
