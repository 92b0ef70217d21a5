/**
 * Whether one XML document says everything another says, order and namespace
 * prefixes aside: every element of the input, with its attributes and its
 * text, has a counterpart in the output at the same place, and so on down.
 * A DataCite round trip is lossless when the input embeds in the output.
 *
 * Canonical form: an element is its local name (in its namespace), its
 * attributes by name (xml:lang kept as xml:lang; namespace declarations and
 * xsi:schemaLocation set aside, they are not content), and, for an element
 * without element children, its text with runs of whitespace made one space
 * and a decimal fraction written as a number (49.2827 and 49.28270 are one
 * latitude). Comments are not content. A blank value is no value, as every
 * reader here takes it (lib/formats/reader-rules.ts): an element with blank
 * text says only its attributes, and one with neither says nothing.
 *
 * `canonical` puts a leaf's text in the form the caller compares, e.g. an
 * identifier in its scheme's normal form.
 */
import type { XmlElement } from '../../lib/xml/tree';
import { checkFunderIdentifier, checkIdentifier, checkRelatedIdentifier, type Checked } from '../../lib/model/identifiers';
import { FUNDER_IDENTIFIER_TYPES } from '../../lib/model/vocabularies';

/** A leaf's text in the form to compare (the element gives its name and attributes); the identity by default. */
export type Canonical = (el: XmlElement, text: string) => string;
const asIs: Canonical = (_el, text) => text;

const collapse = (s: string): string => s.replace(/[ \t\r\n]+/g, ' ').trim();
const canonicalText = (s: string): string => {
  const t = collapse(s);
  return /^[+-]?\d+\.\d+$/.test(t) ? String(Number(t)) : t;
};

function children(el: XmlElement): XmlElement[] {
  return el.children.filter((c): c is XmlElement => c.kind === 'element');
}

function ownText(el: XmlElement): string {
  return canonicalText(el.children.map((c) => (c.kind === 'text' ? c.text : '')).join(''));
}

function attributes(el: XmlElement): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of el.attrs) {
    if (name === 'xmlns' || name.startsWith('xmlns:') || name.startsWith('xsi:')) continue;
    out.set(name === 'xml:lang' ? name : name.replace(/^[^:]+:/, ''), collapse(value));
  }
  return out;
}

/** One line naming an element: its path, attributes and text. */
function describe(path: string, el: XmlElement): string {
  const attrs = [...attributes(el)].map(([k, v]) => ` ${k}="${v}"`).join('');
  const text = children(el).length === 0 ? ownText(el) : '…';
  return `${path}/${el.local}[${attrs.trim()}] ${JSON.stringify(text)}`;
}

/** Whether an element says nothing: no element children, blank text, no attribute with a value. */
function saysNothing(el: XmlElement): boolean {
  return children(el).length === 0 && ownText(el) === '' && [...attributes(el).values()].every((v) => v === '');
}

/** Whether `a` embeds in `b`: the same name and namespace, a's attributes among b's, the same text (unless a's is blank), each child of a embedded in a child of b. */
export function embeds(a: XmlElement, b: XmlElement, canonical: Canonical = asIs): boolean {
  if (a.local !== b.local || a.ns !== b.ns) return false;
  const ba = attributes(b);
  for (const [k, v] of attributes(a)) if (v !== '' && ba.get(k) !== v) return false;
  const ac = children(a).filter((x) => !saysNothing(x));
  const bc = children(b);
  if (ac.length === 0) {
    const t = ownText(a);
    return children(a).length > 0 || t === '' || (bc.length === 0 && canonical(a, t) === canonical(b, ownText(b)));
  }
  return ac.every((x) => bc.some((y) => embeds(x, y, canonical)));
}

/**
 * What of `input` has no counterpart in `output`, one line an element at the
 * deepest place where it goes missing; empty when input embeds in output.
 *
 * @example missingFrom(parse('<r><a x="1"/></r>'), parse('<r><a/></r>')) // ['/r/a[x="1"] ""']
 */
export function missingFrom(input: XmlElement, output: XmlElement, canonical: Canonical = asIs, path = ''): string[] {
  if (input.local !== output.local || input.ns !== output.ns) return [describe(path, input)];
  if (embeds(input, output, canonical)) return [];
  const here = `${path}/${input.local}`;
  const ac = children(input).filter((x) => !saysNothing(x));
  const bc = children(output);
  const ba = attributes(output);
  const attrsDiffer = [...attributes(input)].some(([k, v]) => v !== '' && ba.get(k) !== v);
  if (ac.length === 0 || attrsDiffer) return [describe(path, input)];
  const out: string[] = [];
  for (const x of ac) {
    if (bc.some((y) => embeds(x, y, canonical))) continue;
    // Name the deepest loss under the likeliest counterpart: a child of the same name that keeps most of it.
    const same = bc.filter((y) => y.local === x.local && y.ns === x.ns);
    const best = same.map((y) => ({ y, lost: missingFrom(x, y, canonical, here) })).sort((p, q) => p.lost.length - q.lost.length)[0];
    out.push(...(best === undefined ? [describe(here, x)] : best.lost));
  }
  return out;
}

const normal = (c: Checked, text: string): string => ('value' in c ? c.value : text);

/**
 * DataCite's leaves as the model keeps them: identifiers in their scheme's normal form (lib/model/identifiers.ts:
 * an ISBN without hyphens, a ROR id as its URL), a language tag without regard to case (RFC 5646 section 2.1.1).
 */
export const dataciteCanonical: Canonical = (el, text) => {
  const type = (name: string): string => el.attrs.get(name) ?? '';
  switch (el.local) {
    case 'identifier':
      return type('identifierType') === 'DOI' ? normal(checkIdentifier('DOI', text), text) : text;
    case 'relatedIdentifier':
      return normal(checkRelatedIdentifier(type('relatedIdentifierType'), text), text);
    case 'relatedItemIdentifier':
      return normal(checkRelatedIdentifier(type('relatedItemIdentifierType'), text), text);
    case 'funderIdentifier': {
      const t = FUNDER_IDENTIFIER_TYPES.find((x) => x === type('funderIdentifierType'));
      return t === undefined ? text : normal(checkFunderIdentifier(t, text), text);
    }
    case 'language':
      return text.toLowerCase();
    default:
      return text;
  }
};
