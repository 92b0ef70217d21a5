/**
 * The small XML reader the format readers share, over the tree of
 * lib/xml/tree.ts: an element's children by local name in its own
 * namespace, its text, its attributes. The counterpart of ./xml-out.ts.
 *
 * Text is taken as written (entities replaced, line breaks and inner spaces
 * kept), without the whitespace around it: a pretty-printed record indents
 * its values, and that indentation is layout, not content.
 */
import type { XmlElement, XmlNode } from '../xml/tree';

const AROUND = /^[ \t\r\n]+|[ \t\r\n]+$/g;

/** XML's own whitespace (XML 1.0 section 2.3 [3] S) around a value, removed; other spaces (no-break) are content. @example trimXml('\n  a b \n') // 'a b' */
export function trimXml(s: string): string {
  return s.replace(AROUND, '');
}

/**
 * The text of an element and its descendants, as written, trimmed of
 * surrounding whitespace; '' for no element.
 *
 * @example text(parseFragment('<a>\n  x <b>y</b>\n</a>')!) // 'x y'
 */
export function text(el: XmlElement | undefined): string {
  if (el === undefined) return '';
  let out = '';
  const walk = (n: XmlNode): void => {
    if (n.kind === 'text') out += n.text;
    else for (const c of n.children) walk(c);
  };
  walk(el);
  return trimXml(out);
}

/** The element children of an element, in document order. @example elements(parseFragment('<a><b/>t<c/></a>')!).length // 2 */
export function elements(el: XmlElement): XmlElement[] {
  return el.children.filter((c): c is XmlElement => c.kind === 'element');
}

/**
 * The child elements with a local name, in a namespace (the parent's own by
 * default), in document order.
 *
 * @example kids(parseFragment('<r xmlns="urn:x"><t/><t/></r>')!, 't').length // 2
 */
export function kids(el: XmlElement | undefined, local: string, ns: string = el?.ns ?? ''): XmlElement[] {
  if (el === undefined) return [];
  return el.children.filter((c): c is XmlElement => c.kind === 'element' && c.local === local && c.ns === ns);
}

/** The first child element with a local name (in the parent's namespace by default). @example kid(root, 'publisher') */
export function kid(el: XmlElement | undefined, local: string, ns?: string): XmlElement | undefined {
  return kids(el, local, ns)[0];
}

/** The children of the first `wrapper` child, named `item`: DataCite's `<creators><creator/>…</creators>`. @example listOf(resource, 'titles', 'title') */
export function listOf(el: XmlElement | undefined, wrapper: string, item: string, ns?: string): XmlElement[] {
  return kids(el, wrapper, ns).flatMap((w) => kids(w, item, ns));
}

/** An attribute by its qualified name, trimmed, or undefined when absent or blank. @example attr(el, 'identifierType') // 'DOI' */
export function attr(el: XmlElement | undefined, name: string): string | undefined {
  const v = el?.attrs.get(name);
  if (v === undefined) return undefined;
  const t = trimXml(v);
  return t === '' ? undefined : t;
}

/**
 * An attribute by its local name under any prefix (`xlink:href`, whatever
 * prefix binds the XLink namespace): the tree keeps attributes by their
 * qualified name, and the formats read here have one attribute of each such name.
 *
 * @example prefixedAttr(el, 'href') // the value of xlink:href
 */
export function prefixedAttr(el: XmlElement | undefined, local: string): string | undefined {
  if (el === undefined) return undefined;
  for (const name of el.attrs.keys()) if (name.endsWith(`:${local}`)) return attr(el, name);
  return undefined;
}
