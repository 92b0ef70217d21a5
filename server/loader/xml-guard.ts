/**
 * A tokenizing pass that stands before libxml2's SAX parser and keeps from
 * it what would stop the whole input or cost more than linear time: an
 * element nested deeper than {@link MAX_XML_DEPTH} (libxml2 stops the whole
 * document at its own depth limit, so one deep record would lose its page),
 * and a start tag with more attributes or namespace declarations than the
 * bounds (libxml2 checks each attribute against every other, quadratic in
 * their number). Such an element is left out whole, start tag, content and
 * end tag, and {@link ELIDED} stands in its place as text, so what the
 * parser reads stays well-formed and the reader can refuse the one record
 * that held it. The pass holds no tree: its state is a depth, a count and
 * the start tag being read.
 */
import { MAX_XML_ATTRIBUTES, MAX_XML_DEPTH, MAX_XML_NAMESPACES } from './limits';

/**
 * Stands, as text, for an element left out (a noncharacter, which no
 * record should hold; the page reader's own mark for characters XML cannot
 * carry is U+FDD0).
 */
export const ELIDED = '\uFDD1';

/** The bounds the pass keeps (the defaults in limits.ts unless a test asks for others). */
export interface GuardBounds {
  readonly depth: number;
  readonly attributes: number;
  readonly namespaces: number;
}

const DEFAULT_BOUNDS: GuardBounds = Object.freeze({ depth: MAX_XML_DEPTH, attributes: MAX_XML_ATTRIBUTES, namespaces: MAX_XML_NAMESPACES });

/** Where the pass is: `other` is markup read to its `>` that changes no depth (a declaration the parser will refuse). */
type State = 'text' | 'open' | 'start' | 'end' | 'bang' | 'other' | 'comment' | 'cdata' | 'pi';

const GT = 0x3e;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * Reads XML text piece by piece (a piece may end anywhere) and hands on
 * the text the parser should read, each element past a bound replaced by
 * {@link ELIDED}; `reasons` says, in document order, why each was left out.
 *
 * @example const g = new XmlGuard(); g.write('<a b="1" c="2"/>') // '<a b="1" c="2"/>'
 */
export class XmlGuard {
  /** Why each element was left out, in order; the reader takes them as it meets the marks. */
  readonly reasons: string[] = [];
  private state: State = 'text';
  /** Elements open that were handed on. */
  private depth = 0;
  /** Elements open inside one left out (0: none is being left out). */
  private dropping = 0;
  /** The markup being read (a start tag, or `<!` until it is known which). */
  private tag = '';
  /** The quote that opened the attribute value being read, 0 outside one. */
  private quote = 0;
  private attributes = 0;
  private namespaces = 0;
  /** Why the start tag being read is left out, once it is known. */
  private defect: string | undefined;
  /** The last character of the start tag outside a value (a `/` before `>` closes the element at once). */
  private last = 0;
  /** Of a comment, CDATA section or processing instruction: the last two characters read. */
  private tail = '';

  constructor(private readonly bounds: GuardBounds = DEFAULT_BOUNDS) {}

  /** The text to hand on for the next piece of input. */
  write(s: string): string {
    let out = '';
    let i = 0;
    const n = s.length;
    while (i < n) {
      if (this.state === 'text') {
        const lt = s.indexOf('<', i);
        const end = lt < 0 ? n : lt;
        if (this.dropping === 0) out += s.slice(i, end);
        if (lt < 0) return out;
        i = lt + 1;
        this.state = 'open';
        this.tag = '<';
        continue;
      }
      const c = s.charCodeAt(i);
      if (this.state === 'open') {
        if (c !== 0x2f && c !== 0x21 && c !== 0x3f) {
          // A start tag: its first character is read as part of it.
          this.startTag();
          continue;
        }
        this.state = c === 0x2f ? 'end' : c === 0x21 ? 'bang' : 'pi';
        this.tail = '';
        this.tag += s[i];
        i++;
        if (this.dropping === 0) out += this.tag;
        // `<!` is kept until it is known to open a comment or a CDATA section.
        if (this.state !== 'bang') this.tag = '';
        continue;
      }
      if (this.state === 'start') {
        if (this.quote !== 0) {
          const q = s.indexOf(String.fromCharCode(this.quote), i);
          const end = q < 0 ? n : q + 1;
          if (this.defect === undefined) this.tag += s.slice(i, end);
          if (q >= 0) this.quote = 0;
          i = end;
          continue;
        }
        i++;
        if (this.defect === undefined) this.tag += s[i - 1];
        if (c === 0x22 || c === 0x27) {
          this.quote = c;
        } else if (c === 0x3d) {
          if (this.defect === undefined) this.countAttribute();
        } else if (c === GT) {
          out += this.endStartTag(this.last === 0x2f);
          continue;
        }
        if (!isSpace(c)) this.last = c;
        continue;
      }
      // An end tag, a comment, a CDATA section, a processing instruction, or `<!` not yet known.
      i++;
      if (this.dropping === 0) out += s[i - 1];
      if (this.state === 'bang') {
        this.tag += s[i - 1];
        if (this.tag === '<!--') this.state = 'comment';
        else if (this.tag === '<![CDATA[') this.state = 'cdata';
        else if (!'<![CDATA['.startsWith(this.tag) && !'<!--'.startsWith(this.tag)) this.state = 'other';
        if (this.state !== 'bang') this.tag = '';
        continue;
      }
      if (this.state === 'other') {
        if (c === GT) this.state = 'text';
        continue;
      }
      if (this.state === 'end') {
        if (c === GT) {
          this.state = 'text';
          if (this.dropping > 0) this.dropping--;
          else this.depth--;
        }
        continue;
      }
      this.tail = (this.tail + s[i - 1]).slice(-3);
      if (
        (this.state === 'comment' && this.tail === '-->') ||
        (this.state === 'cdata' && this.tail === ']]>') ||
        (this.state === 'pi' && this.tail.endsWith('?>'))
      ) {
        this.state = 'text';
      }
    }
    return out;
  }

  /** A start tag begins (its `<` read). */
  private startTag(): void {
    this.state = 'start';
    this.quote = 0;
    this.attributes = 0;
    this.namespaces = 0;
    this.last = 0;
    this.defect = this.dropping > 0 ? '' : this.depth >= this.bounds.depth ? `elements nested deeper than ${this.bounds.depth} levels` : undefined;
    if (this.defect !== undefined) this.tag = '';
  }

  /** An `=` outside a value: an attribute, or a namespace declaration (Namespaces in XML 1.0 section 3), counted. */
  private countAttribute(): void {
    let j = this.tag.length - 2;
    while (j > 0 && isSpace(this.tag.charCodeAt(j))) j--;
    const end = j + 1;
    while (j > 0 && !isSpace(this.tag.charCodeAt(j))) j--;
    const name = this.tag.slice(j + 1, end);
    if (name === 'xmlns' || name.startsWith('xmlns:')) {
      if (++this.namespaces > this.bounds.namespaces) this.defect = `an element declaring more than ${this.bounds.namespaces} namespaces`;
    } else if (++this.attributes > this.bounds.attributes) {
      this.defect = `an element with more than ${this.bounds.attributes} attributes`;
    }
    if (this.defect !== undefined) this.tag = '';
  }

  /** The start tag read to its `>`: handed on, or left out with its content. */
  private endStartTag(empty: boolean): string {
    this.state = 'text';
    const tag = this.tag;
    this.tag = '';
    if (this.defect === undefined) {
      if (!empty) this.depth++;
      return tag;
    }
    if (!empty) this.dropping++;
    if (this.defect === '') return '';
    this.reasons.push(this.defect);
    return ELIDED;
  }
}
