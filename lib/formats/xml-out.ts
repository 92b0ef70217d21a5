/**
 * The small XML writer the crosswalks share: elements as strings, every text
 * and attribute value escaped (lib/xml/chars), attributes in the order given.
 * Strings rather than a DOM for the reason oai-dc.ts gives: crosswalks run
 * once per record of every load and their shapes are fixed; and xmlbuilder2's
 * `txt()` leaves entity-like text (`&amp;`) unescaped.
 */
import { escapeAttr, escapeText } from '../xml/chars';

/** An attribute: name and value; an undefined value leaves the attribute out. */
export type Attr = readonly [name: string, value: string | undefined];

function attrs(list: readonly Attr[]): string {
  let out = '';
  for (const [name, value] of list) if (value !== undefined) out += ` ${name}="${escapeAttr(value)}"`;
  return out;
}

/**
 * One element holding escaped text.
 *
 * @example leaf('dc:title', 'R&D <1>', ['xml:lang', 'en']) // '<dc:title xml:lang="en">R&amp;D &lt;1&gt;</dc:title>'
 */
export function leaf(name: string, text: string, ...attributes: Attr[]): string {
  return `<${name}${attrs(attributes)}>${escapeText(text)}</${name}>`;
}

/**
 * One element around already serialized children; nothing at all when there
 * are no children (the formats' optional wrappers, e.g. DataCite `subjects`,
 * are left out rather than written empty).
 *
 * @example wrap('titles', [leaf('title', 'A')]) // '<titles><title>A</title></titles>'
 */
export function wrap(name: string, children: readonly string[], ...attributes: Attr[]): string {
  const body = children.join('');
  return body === '' ? '' : `<${name}${attrs(attributes)}>${body}</${name}>`;
}

/** An empty element with attributes only. @example empty('x', ['a', '1']) // '<x a="1"/>' */
export function empty(name: string, ...attributes: Attr[]): string {
  return `<${name}${attrs(attributes)}/>`;
}

/**
 * The opening tag of a root element with its namespace declarations and schemaLocation.
 *
 * @example rootOpen('mods', [['xmlns', 'http://www.loc.gov/mods/v3']], 'http://www.loc.gov/mods/v3 http://www.loc.gov/standards/mods/v3/mods-3-7.xsd')
 */
export function rootOpen(name: string, namespaces: readonly Attr[], schemaLocation: string, ...attributes: Attr[]): string {
  return `<${name}${attrs(namespaces)} xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${escapeAttr(schemaLocation)}"${attrs(attributes)}>`;
}
