/**
 * Text and attribute values for xmlbuilder2, the builder of Identify and its
 * description containers. Its `txt()` and `att()` keep `&name;` and `&#N;`
 * as they are (they take them for references already escaped): a literal
 * `&amp;` would read back as `&`, and `&foo;` would make the document
 * ill-formed (an undefined entity, XML 1.0 section 4.1). Escaping `&` first
 * makes every value read back exactly as given.
 */
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';

/**
 * Appends `value` as the text of `el`, exactly as given.
 *
 * @example text(root.ele('sampleIdentifier'), 'oai:x.org:a&amp;b') // reads back as 'oai:x.org:a&amp;b'
 */
export function text(el: XMLBuilder, value: string): XMLBuilder {
  return el.txt(value.replace(/&/g, '&amp;'));
}

/**
 * Sets an attribute of `el` to `value`, exactly as given (a URL's query string holds `&`).
 *
 * @example attr(el, 'ref', 'https://example.org/?a=1&b=2')
 */
export function attr(el: XMLBuilder, name: string, value: string): XMLBuilder {
  return el.att(name, value.replace(/&/g, '&amp;'));
}
