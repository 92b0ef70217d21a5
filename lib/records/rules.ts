/**
 * The rules a record obeys, written once: which characters XML 1.0 can
 * carry, what a setSpec and a metadataPrefix look like, and which
 * dc:identifier values a piece of metadata XML holds. Pure functions that
 * return values (never messages to be parsed again); the request parser, the
 * record readers and the store's write gate (./gate.ts) all use them.
 */
import { DC_NS } from '../xml/namespaces';

/** XML 1.0 section 2.2 [2] Char, negated: C0 controls but tab/LF/CR, U+FFFE, U+FFFF, lone surrogates. */
export const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A cheap pre-test: true when a string may hold a character XML 1.0 forbids (a C0 control, a surrogate, U+FFFE/U+FFFF). */
export const MAYBE_NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** OAI-PMH 3.4 and OAI-PMH.xsd's metadataPrefixType: unreserved URI characters. */
export const METADATA_PREFIX = /^[A-Za-z0-9\-_.!~*'()]+$/;

/** OAI-PMH 2.7 and OAI-PMH.xsd's setSpecType: colon-separated words of unreserved URI characters. */
export const SET_SPEC = /^[A-Za-z0-9\-_.!~*'()]+(:[A-Za-z0-9\-_.!~*'()]+)*$/;


/** A character XML 1.0 cannot carry, found in a string. */
export interface NonXmlChar {
  /** The character as `U+XXXX` (a lone surrogate as its code unit). */
  readonly codePoint: string;
  /** Its UTF-16 offset in the string. */
  readonly offset: number;
}

/**
 * The first character of `s` that XML 1.0 cannot carry, or null when every
 * character is allowed.
 *
 * @example nonXmlChar('a\u0007b') // { codePoint: 'U+0007', offset: 1 }
 */
export function nonXmlChar(s: string): NonXmlChar | null {
  // Most text has no control character and no surrogate at all: a plain class test settles it.
  if (!MAYBE_NOT_XML.test(s)) return null;
  const m = NOT_XML_CHAR.exec(s);
  if (!m) return null;
  return { codePoint: `U+${(m[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`, offset: m.index };
}

/**
 * Whether a string is a setSpec.
 *
 * @example isValidSetSpec('a:b') // true
 * @example isValidSetSpec('a::b') // false
 */
export function isValidSetSpec(spec: string): boolean {
  return SET_SPEC.test(spec);
}

/**
 * Whether a string is a metadataPrefix.
 *
 * @example isValidMetadataPrefix('oai_dc') // true
 * @example isValidMetadataPrefix('a b') // false
 */
export function isValidMetadataPrefix(prefix: string): boolean {
  return METADATA_PREFIX.test(prefix);
}

/**
 * A set spec and all its ancestors, most general first (OAI-PMH 2.0 section
 * 2.7.2: an item in `a:b:c` is also in `a:b` and `a`).
 *
 * @example withAncestors('a:b:c') // ['a', 'a:b', 'a:b:c']
 */
export function withAncestors(spec: string): string[] {
  const parts = spec.split(':');
  return parts.map((_, i) => parts.slice(0, i + 1).join(':'));
}

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
