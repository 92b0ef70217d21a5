/**
 * The fast path of the outgoing fragment check (./fragment.ts): a proof, in
 * one compiled regular expression, that a stored fragment has a shape already
 * seen and checked in full, so the hot path of a harvest does not walk every
 * tag of every record.
 *
 * Stored metadata of one format nearly always opens with the very same root
 * start tag (the crosswalk writes it, e.g. `<oai_dc:dc xmlns:oai_dc=… …>`)
 * followed by elements nested a few levels deep (MARCXML's datafields and
 * subfields, DataCite's creators, MODS's names). When two fragments with the
 * same root start tag have passed the full check, that tag is learnt as a
 * *shape*: a regular expression that matches the tag literally, then only
 * what is surely well-formed under it. The shapes are a memo of the full
 * check kept in this module (a bounded list, most recently matched first),
 * not a setting. A later fragment matching a shape is accepted without the
 * full check; anything else (another root, nesting deeper than
 * {@link SHAPE_DEPTH}, comments, CDATA, character references, astral
 * characters, more than {@link SHAPE_ATTRIBUTES} attributes on an element, a
 * namespace declaration with a prefix below the root) takes the full check,
 * so the fast path can only say "surely well-formed", never "corrupt".
 *
 * Why a match is well-formed (XML 1.0 and Namespaces in XML 1.0, the rules
 * ./fragment.ts checks): the root start tag is one that passed the full check
 * with the same inherited prefixes; every other character is in an explicit
 * class of legal XML 1.0 characters of the Basic Multilingual Plane, so no
 * control character, U+FFFE/U+FFFF or surrogate gets through (2.2); text
 * holds no `<`, and `&` only as one of the five predefined entities (4.1,
 * 4.6), and no `>` at all, so never `]]>` (2.4); an element below the root
 * has an ASCII name whose prefix, if any, is one the root declares or the
 * envelope inherits (Namespaces 5); its attributes have quoted values without
 * `<` (3.1) and the same references, and are either
 *
 * - one attribute of any such name, or
 * - up to {@link SHAPE_ATTRIBUTES} attributes, each named differently from
 *   the ones before it (a negative look-ahead on each earlier name, 3.1
 *   "Unique Att Spec"), with no prefix (no namespace, Namespaces 6.2) or with
 *   `xml` or a prefix the root binds to a namespace no other prefix the root
 *   declares is bound to and that is not the XML namespace, so no two of them
 *   have one expanded name (Namespaces 6.3); a prefix only the envelope
 *   declares is left out, as its namespace is not known here;
 *
 * never a namespace declaration with a prefix (`xmlns` is no prefix the root
 * may declare, Namespaces 3) but one of the root's own prefixes declared again
 * for the very namespace the root binds it to (a look-ahead pins the value),
 * so the prefixes in scope, and their namespaces, are the root's throughout;
 * each element is empty or closed by its own name (3, "Element
 * Type Match", a named back-reference per level of nesting, reset at each
 * repetition by ECMAScript's RepeatMatcher); the root is closed by its own
 * name and only white space follows.
 */
import { XML_NAMESPACE } from './namespaces';

/** Levels of elements below the root a shape settles (a related item's creator's name in oai_datacite's payload is the seventh). */
export const SHAPE_DEPTH = 7;

/**
 * Attributes one element below the root may have in a shape (MARCXML's datafield has three, DataCite's
 * relatedIdentifier three or four). Each slot lengthens the pattern, and V8 optimizes only short ones.
 */
export const SHAPE_ATTRIBUTES = 4;

/** A learnt shape: one root start tag, with the inherited prefixes it was checked against. */
interface Shape {
  /** The root start tag, as written. */
  readonly tag: string;
  readonly inherited: readonly string[];
  /** Children one level deep, at most one attribute each: most oai_dc, tried first as it is the fastest. */
  readonly flat: RegExp;
  /** Nesting and attributes as the top of this file says. */
  readonly pattern: RegExp;
}

/** Shapes are few (one or two per metadata format); past this many, the least recently matched one goes. */
const MAX_SHAPES = 32;
/** Most recently matched first. */
const shapes: Shape[] = [];
/**
 * Sound root start tags seen once, not yet learnt: a tag is learnt when a
 * second sound fragment has it, so a format whose root differs per record
 * (an id attribute) never pays for compiling patterns it will not reuse.
 */
const seenOnce = new Set<string>();
const MAX_SEEN_ONCE = 1024;

// XML 1.0 section 2.2 [2] Char, in the BMP and without surrogates, less the characters markup gives meaning to.
// Written with the printable ASCII characters themselves (U+0020-U+0025 is ` -%`, U+0027-U+003B is `'-;`, …):
// a shape's pattern repeats these classes many times, and V8 optimizes only patterns short enough.
const TEXT_CHAR = "\\t\\n\\r -%'-;=?-\\uD7FF\\uE000-\\uFFFD";
const DQ_CHAR = "\\t\\n\\r !#-%'-;=-\\uD7FF\\uE000-\\uFFFD";
const SQ_CHAR = '\\t\\n\\r -%(-;=-\\uD7FF\\uE000-\\uFFFD';
const ENTITY = '&(?:amp|lt|gt|quot|apos);';
const run = (chars: string): string => `[${chars}]*(?:${ENTITY}[${chars}]*)*`;
const TEXT = run(TEXT_CHAR);
// Double quotes only, as every writer here quotes: a value in single quotes takes the full check.
const VALUE = `"${run(DQ_CHAR)}"`;
const S = '[ \\t\\n\\r]';
const NAME = '[A-Za-z_][A-Za-z0-9._-]*';
/** A root start tag whose values hold no `>`, so its end is the first `>` of the fragment. */
const ROOT_START = new RegExp(`^<(${NAME}(?::${NAME})?)(?:${S}+${NAME}(?::${NAME})?${S}*=${S}*(?:"[^"<>&]*"|'[^'<>&]*'))*${S}*>`);
/** One attribute of such a tag, read in turn (a declaration-looking text inside a value is not one). */
const ATTRIBUTE = new RegExp(`${S}+(${NAME}(?::${NAME})?)${S}*=${S}*(?:"[^"<>&]*"|'[^'<>&]*')`, 'y');

/** A root start tag's namespace declarations with prefixes, in order: prefix and namespace name (values hold no `&`, so as written). */
function rootDeclarations(tag: string, rootName: string): { prefix: string; uri: string }[] {
  const out: { prefix: string; uri: string }[] = [];
  ATTRIBUTE.lastIndex = 1 + rootName.length;
  for (let a = ATTRIBUTE.exec(tag); a; a = ATTRIBUTE.exec(tag)) {
    const name = a[1] as string;
    const value = a[0]
      .slice(a[0].indexOf('=') + 1)
      .trim()
      .slice(1, -1);
    if (name.startsWith('xmlns:')) out.push({ prefix: name.slice(6), uri: value });
  }
  return out;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether the pattern matches; a match the engine gives up on (its backtracking stack full, a huge fragment) is no proof. */
function matches(pattern: RegExp, s: string): boolean {
  try {
    return pattern.test(s);
  } catch {
    return false;
  }
}

/**
 * Whether `s` matches a learnt shape, which proves it is one well-formed
 * element (see the top of this file). False says nothing: the caller runs
 * the full check.
 *
 * @example
 * learnShape('<r xmlns:p="urn:p"><p:a>1</p:a></r>', []); // twice: a sound tag is learnt on its second sighting
 * learnShape('<r xmlns:p="urn:p"><p:a>1</p:a></r>', []);
 * isKnownPlainFragment('<r xmlns:p="urn:p"><p:a>2 &amp; 3</p:a><p:b/></r>', []); // true
 */
export function isKnownPlainFragment(s: string, inherited: readonly string[]): boolean {
  for (let i = 0; i < shapes.length; i++) {
    const shape = shapes[i] as Shape;
    if (!sameNames(shape.inherited, inherited)) continue;
    if (matches(shape.flat, s) || matches(shape.pattern, s)) {
      // Most recently matched first: a harvest reads one format page after page.
      if (i > 0) shapes.unshift(...shapes.splice(i, 1));
      return true;
    }
  }
  return false;
}

/**
 * Learns the shape of `s`, which the full check has just accepted with these
 * inherited prefixes: its root start tag, when that is plain enough (no `>`,
 * `<` or `&` in attribute values) and the second sound fragment to have it.
 * Does nothing for other fragments or for a shape already known.
 *
 * @example learnShape(s, ['xsi']); learnShape(s, ['xsi']); // now a shape
 */
export function learnShape(s: string, inherited: readonly string[]): void {
  const root = ROOT_START.exec(s);
  if (!root) return;
  const tag = root[0];
  const rootName = root[1] as string;
  for (const shape of shapes) if (shape.tag === tag && sameNames(shape.inherited, inherited)) return;
  const key = `${inherited.join(' ')}\n${tag}`;
  if (!seenOnce.has(key)) {
    if (seenOnce.size >= MAX_SEEN_ONCE) seenOnce.clear();
    seenOnce.add(key);
    return;
  }
  seenOnce.delete(key);
  const declared = rootDeclarations(tag, rootName);
  // The prefixes in scope inside the root: its own declarations, the envelope's, and xml (Namespaces 3).
  const inScope = new Set(['xml', ...inherited, ...declared.map((d) => d.prefix)]);
  const pattern = shapePattern(tag, rootName, declared, inScope);
  if (pattern === null) return;
  if (shapes.length >= MAX_SHAPES) shapes.pop();
  shapes.unshift({ tag, inherited: [...inherited], flat: flatPattern(tag, rootName, inScope), pattern });
}

/** A QName whose prefix, if any, is one of `prefixes`. */
function qnameOf(prefixes: Iterable<string>): string {
  return `(?:(?:${[...prefixes].map(escapeRegExp).join('|')}):)?${NAME}`;
}

/**
 * The fast pattern of a shape: children of the root one level deep, each
 * with at most one attribute of any name in scope (so none twice, and no two
 * with one expanded name), holding text only.
 */
function flatPattern(tag: string, rootName: string, inScope: ReadonlySet<string>): RegExp {
  const qname = qnameOf(inScope);
  const value = `(?:${VALUE}|'${run(SQ_CHAR)}')`;
  const child = `<(${qname})(?:${S}+${qname}${S}*=${S}*${value})?${S}*(?:/>|>${TEXT}</\\1${S}*>)`;
  return new RegExp(`^${escapeRegExp(tag)}${TEXT}(?:${child}${TEXT})*</${escapeRegExp(rootName)}${S}*>${S}*$`);
}

/**
 * The pattern of a shape (the top of this file says why a match is
 * well-formed): the root start tag as written, then elements nested up to
 * {@link SHAPE_DEPTH} levels, closed by the root's end tag.
 */
function shapePattern(tag: string, rootName: string, declared: readonly { prefix: string; uri: string }[], inScope: ReadonlySet<string>): RegExp | null {
  // Prefixes of attributes several of which one element may carry: each bound to a namespace of its own.
  const uriCount = new Map<string, number>();
  for (const d of declared) uriCount.set(d.uri, (uriCount.get(d.uri) ?? 0) + 1);
  const distinct = new Set(['xml', ...declared.filter((d) => uriCount.get(d.uri) === 1 && d.uri !== XML_NAMESPACE).map((d) => d.prefix)]);
  const qname = qnameOf(inScope);
  // A root's prefix declared again below it for the very namespace it is bound to changes no scope (DataCite's
  // resource inside oai_datacite's payload declares its xsi again); the look-ahead pins the value.
  const again = declared
    .filter((d) => distinct.has(d.prefix))
    .map((d) => `|xmlns:${escapeRegExp(d.prefix)}(?=${S}*=${S}*"${escapeRegExp(d.uri)}")`)
    .join('');
  const distinctName = `(?:${qnameOf(distinct)}${again})`;
  // The one attribute of the other form has a prefix of the rest, so the two forms never match the same
  // text: a fragment that fails is refused in one pass, never by trying both forms at every element.
  const others = [...inScope].filter((p) => !distinct.has(p));
  const single = others.length > 0 ? `|${S}+(?:${others.map(escapeRegExp).join('|')}):${NAME}${S}*=${S}*${VALUE}` : '';
  const attributes = (level: number): string => {
    // Slot k is tried only after slots 1..k-1 matched, its name differing from each of theirs.
    let slots = '';
    for (let k = SHAPE_ATTRIBUTES; k >= 1; k--) {
      const earlier = Array.from({ length: k - 1 }, (_, j) => `\\k<a${level}_${j + 1}>`);
      const unlike = earlier.length > 0 ? `(?!(?:${earlier.join('|')})${S}*=)` : '';
      slots = `(?:${S}+${unlike}(?<a${level}_${k}>${distinctName})${S}*=${S}*${VALUE}${slots === '' ? '' : `${slots}?`})`;
    }
    return `(?:${slots}${single})?`;
  };
  const element = (level: number): string => {
    const content = level < SHAPE_DEPTH ? `${TEXT}(?:${element(level + 1)}${TEXT})*` : TEXT;
    return `<(?<e${level}>${qname})${attributes(level)}${S}*(?:/>|>${content}</\\k<e${level}>${S}*>)`;
  };
  try {
    return new RegExp(`^${escapeRegExp(tag)}${TEXT}(?:${element(1)}${TEXT})*</${escapeRegExp(rootName)}${S}*>${S}*$`);
  } catch {
    // A pattern the engine cannot compile is a shape not learnt: the full check goes on settling these fragments.
    return null;
  }
}

/** How many shapes are learnt (for tests and diagnostics). Example: `knownShapeCount()` → `1`. */
export function knownShapeCount(): number {
  return shapes.length;
}
