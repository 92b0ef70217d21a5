/**
 * The dc:identifier values inside a piece of metadata XML, read without
 * building a tree: the write pipeline asks it of XML a record gives in a
 * format it has no reader for.
 */
import { DC_NS } from './namespaces';

// One token of well-formed XML: a comment, a CDATA section, a PI, a tag, or text.
const TOKEN = /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<\?[\s\S]*?\?>|<(\/?)([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const REFERENCE = /&(?:#([0-9]+)|#x([0-9a-fA-F]+)|(lt|gt|amp|quot|apos));/g;
const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function unescape(s: string): string {
  return s.replace(REFERENCE, (_m, dec?: string, hex?: string, name?: string) =>
    dec !== undefined ? String.fromCodePoint(Number(dec)) : hex !== undefined ? String.fromCodePoint(parseInt(hex, 16)) : (PREDEFINED[name ?? ''] ?? ''),
  );
}

/**
 * The text of every element named `identifier` in the Dublin Core elements
 * namespace (whatever prefix binds it) inside one piece of well-formed
 * metadata XML, in document order; an element's text includes that of its
 * children, as XPath's string value does. Malformed XML yields what could
 * be read: the write gate checks well-formedness before it asks.
 *
 * @example dcIdentifiers('<oai_dc:dc xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier>urn:x:1</dc:identifier></oai_dc:dc>') // ['urn:x:1']
 */
export function dcIdentifiers(xml: string): string[] {
  const out: string[] = [];
  // One frame per open element: its prefix bindings and whether it is a dc:identifier.
  const stack: { readonly bindings: ReadonlyMap<string, string>; readonly identifier: boolean }[] = [];
  let bindings: ReadonlyMap<string, string> = new Map();
  let depth = 0;
  let text = '';
  for (const m of xml.matchAll(TOKEN)) {
    const [token, cdata, close, name, attrs, selfClosing, chars] = m;
    if (chars !== undefined) {
      if (depth > 0) text += unescape(chars);
    } else if (cdata !== undefined) {
      if (depth > 0) text += cdata;
    } else if (name !== undefined && close === '/') {
      const frame = stack.pop();
      if (!frame) break;
      if (frame.identifier && --depth === 0) out.push(text);
      bindings = stack[stack.length - 1]?.bindings ?? new Map();
    } else if (name !== undefined && !token.startsWith('<!') && !token.startsWith('<?')) {
      const own = new Map(bindings);
      for (const a of (attrs ?? '').matchAll(ATTRIBUTE)) {
        const attr = a[1] as string;
        if (attr === 'xmlns' || attr.startsWith('xmlns:')) own.set(attr.slice(6), unescape(a[2] ?? a[3] ?? ''));
      }
      const colon = name.indexOf(':');
      const ns = own.get(colon < 0 ? '' : name.slice(0, colon));
      const identifier = ns === DC_NS && name.slice(colon + 1) === 'identifier';
      if (identifier && depth++ === 0) text = '';
      if (selfClosing === '/') {
        if (identifier && --depth === 0) out.push(text);
      } else {
        stack.push({ bindings: own, identifier });
        bindings = own;
      }
    }
  }
  return out;
}
