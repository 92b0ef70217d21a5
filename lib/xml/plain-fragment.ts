/**
 * The fast path of the outgoing fragment check (./fragment.ts): a proof, in
 * one compiled regular expression, that a stored fragment has a shape already
 * seen and checked in full, so the hot path of a harvest does not walk every
 * tag of every record.
 *
 * Stored metadata of one format nearly always opens with the very same root
 * start tag (the crosswalk writes it, e.g. `<oai_dc:dc xmlns:oai_dc=… …>`)
 * followed by flat children. When two fragments with the same root start tag
 * have passed the full check, that tag is learnt as a *shape*: a regular
 * expression that matches the tag literally, then only what is surely
 * well-formed under it. The shapes are a memo of the full check kept in this
 * module (a bounded list, most recently matched first), not a setting.
 * A later fragment matching a shape is accepted without the full check;
 * anything else (another root, deeper nesting, comments, CDATA, character
 * references, astral characters, a second attribute on a child) takes the
 * full check, so the fast path can only say "surely well-formed", never
 * "corrupt".
 *
 * Why a match is well-formed (XML 1.0 and Namespaces in XML 1.0, the rules
 * ./fragment.ts checks): the root start tag is one that passed the full check
 * with the same inherited prefixes; every other character is in an explicit
 * class of legal XML 1.0 characters of the Basic Multilingual Plane, so no
 * control character, U+FFFE/U+FFFF or surrogate gets through (2.2); text
 * holds no `<`, and `&` only as one of the five predefined entities (4.1,
 * 4.6), and no `>` at all, so never `]]>` (2.4); a child has an ASCII name
 * whose prefix, if any, is one the root declares or the envelope inherits
 * (Namespaces 5), at most one attribute (so none twice, 3.1) whose name obeys
 * the same rule and is never a namespace declaration with a prefix, a quoted
 * value without `<` (3.1) and the same references; each child is empty or
 * closed by its own name (3, "Element Type Match") and holds text only; the
 * root is closed by its own name and only white space follows.
 */

/** A learnt shape: one root start tag, with the inherited prefixes it was checked against. */
interface Shape {
  /** The root start tag, as written. */
  readonly tag: string;
  readonly inherited: readonly string[];
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
const TEXT_CHAR = '\\t\\n\\r\\u0020-\\u0025\\u0027-\\u003B\\u003D\\u003F-\\uD7FF\\uE000-\\uFFFD';
const DQ_CHAR = '\\t\\n\\r\\u0020\\u0021\\u0023-\\u0025\\u0027-\\u003B\\u003D-\\uD7FF\\uE000-\\uFFFD';
const SQ_CHAR = '\\t\\n\\r\\u0020-\\u0025\\u0028-\\u003B\\u003D-\\uD7FF\\uE000-\\uFFFD';
const ENTITY = '&(?:amp|lt|gt|quot|apos);';
const run = (chars: string): string => `[${chars}]*(?:${ENTITY}[${chars}]*)*`;
const TEXT = run(TEXT_CHAR);
const VALUE = `(?:"${run(DQ_CHAR)}"|'${run(SQ_CHAR)}')`;
const S = '[ \\t\\n\\r]';
const NAME = '[A-Za-z_][A-Za-z0-9._-]*';
/** A root start tag whose values hold no `>`, so its end is the first `>` of the fragment. */
const ROOT_START = new RegExp(`^<(${NAME}(?::${NAME})?)(?:${S}+${NAME}(?::${NAME})?${S}*=${S}*(?:"[^"<>&]*"|'[^'<>&]*'))*${S}*>`);
/** One attribute of such a tag, read in turn (a declaration-looking text inside a value is not one). */
const ATTRIBUTE = new RegExp(`${S}+(${NAME}(?::${NAME})?)${S}*=${S}*(?:"[^"<>&]*"|'[^'<>&]*')`, 'y');

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
    if (shape.pattern.test(s)) {
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
  if (shapes.length >= MAX_SHAPES) shapes.pop();
  // The prefixes in scope inside the root: its own declarations, the envelope's, and xml (Namespaces 3).
  const prefixes = new Set(['xml', ...inherited]);
  ATTRIBUTE.lastIndex = 1 + rootName.length;
  for (let a = ATTRIBUTE.exec(tag); a; a = ATTRIBUTE.exec(tag)) {
    const name = a[1] as string;
    if (name.startsWith('xmlns:')) prefixes.add(name.slice(6));
  }
  const qname = `(?:(?:${[...prefixes].map(escapeRegExp).join('|')}):)?${NAME}`;
  const child = `<(${qname})(?:${S}+${qname}${S}*=${S}*${VALUE})?${S}*(?:/>|>${TEXT}</\\1${S}*>)`;
  const pattern = new RegExp(`^${escapeRegExp(tag)}${TEXT}(?:${child}${TEXT})*</${escapeRegExp(rootName)}${S}*>${S}*$`);
  shapes.unshift({ tag, inherited: [...inherited], pattern });
}

/** How many shapes are learnt (for tests and diagnostics). Example: `knownShapeCount()` → `1`. */
export function knownShapeCount(): number {
  return shapes.length;
}
