/**
 * Re-serializes an XML fragment from SAX events in one canonical form, so
 * that metadata read out of an OAI-PMH response (or a file) is stored the
 * same way every time it is loaded, and a second load of the same input is
 * `unchanged`.
 *
 * The form (close to what the oai_dc crosswalk writes, so a harvested record
 * of this provider comes back byte-identical):
 * - the fragment's root element declares every namespace the fragment uses
 *   that was declared outside it (e.g. on `OAI-PMH` or `metadata`), after its
 *   own declarations, in order of first use; a descendant keeps a
 *   declaration only when it changes a binding;
 * - namespace declarations come before attributes, both in document order;
 * - empty elements are written `<a></a>`; text escapes `&`, `<`, `>` (and CR
 *   as `&#13;`), attributes escape `&`, `<`, `>`, `"`, TAB, LF, CR;
 * - comments are kept; processing instructions are dropped (libxmljs2's SAX
 *   parser does not report them); CDATA sections become escaped text.
 */
import { escapeAttr } from '../../lib/xml/chars';

/** Namespace bindings in scope: prefix (`''` for the default namespace) → URI. */
export type NsScope = ReadonlyMap<string, string>;

/** One attribute as libxmljs2 reports it: `[localname, prefix, uri, value]`. */
export type SaxAttribute = readonly [string, string | null | undefined, string | null | undefined, string];
/** One declaration as libxmljs2 reports it: `[prefix or null, uri]`. */
export type SaxNamespace = readonly [string | null, string];

type Token =
  | { readonly kind: 'start'; readonly qname: string; readonly decls: [string, string][]; readonly attrs: [string, string][] }
  | { readonly kind: 'end'; readonly qname: string }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'comment'; readonly text: string };

/**
 * Collects the events of one element and everything inside it, then writes
 * the canonical string. Feed it the root's start event first; `done` turns
 * true when the matching end event arrives.
 *
 * @example
 * const c = new CanonicalXml(outerScope);
 * c.start('dc', [], 'oai_dc', OAI_DC_NS, [['oai_dc', OAI_DC_NS]]); c.text('…'); c.end();
 * c.result() // '<oai_dc:dc xmlns:oai_dc="…">…</oai_dc:dc>'
 */
export class CanonicalXml {
  private readonly tokens: Token[] = [];
  private depth = 0;
  /** About the characters collected so far: names, attribute values, text and comments. */
  size = 0;
  /** Bindings declared outside the fragment that the fragment uses, in first-use order. */
  private readonly hoisted = new Map<string, string>();
  /** Scopes inside the fragment, innermost last (what the source declared). */
  private readonly scopes: Map<string, string>[] = [];
  /** Text of the elements named by `watch`, keyed by `{uri}local`. */
  readonly watched: { key: string; text: string }[] = [];
  private watching: { key: string; depth: number; text: string } | undefined;

  /**
   * @param outer the bindings in scope where the fragment starts
   * @param watch `{uri}local` names of simple elements whose text to keep
   *   (e.g. dc:identifier, for identifier governance)
   */
  constructor(
    private readonly outer: NsScope,
    private readonly watch: ReadonlySet<string> = new Set(),
  ) {}

  /** How deep the fragment is open right now. */
  get level(): number {
    return this.depth;
  }

  get done(): boolean {
    return this.depth === 0 && this.tokens.length > 0;
  }

  start(local: string, attrs: readonly SaxAttribute[], prefix: string | null | undefined, uri: string | null | undefined, ns: readonly SaxNamespace[]): void {
    const scope = new Map<string, string>();
    for (const [p, u] of ns) scope.set(p ?? '', u);
    this.scopes.push(scope);
    this.use(prefix ?? '', uri ?? '');
    const outAttrs: [string, string][] = [];
    for (const [aLocal, aPrefix, aUri, value] of attrs) {
      if (aPrefix) this.use(aPrefix, aUri ?? '');
      outAttrs.push([aPrefix ? `${aPrefix}:${aLocal}` : aLocal, value]);
    }
    const qname = prefix ? `${prefix}:${local}` : local;
    this.size += qname.length * 2 + 5;
    for (const [n, v] of outAttrs) this.size += n.length + v.length + 4;
    for (const [p, u] of scope) this.size += p.length + u.length + 10;
    this.tokens.push({ kind: 'start', qname, decls: [...scope.entries()], attrs: outAttrs });
    this.depth++;
    const key = `{${uri ?? ''}}${local}`;
    if (!this.watching && this.watch.has(key)) this.watching = { key, depth: this.depth, text: '' };
  }

  end(qnameLocal: string, prefix: string | null | undefined): void {
    if (this.watching && this.watching.depth === this.depth) {
      this.watched.push({ key: this.watching.key, text: this.watching.text });
      this.watching = undefined;
    }
    this.scopes.pop();
    this.depth--;
    this.tokens.push({ kind: 'end', qname: prefix ? `${prefix}:${qnameLocal}` : qnameLocal });
  }

  text(s: string): void {
    this.size += s.length;
    if (this.watching) this.watching.text += s;
    const last = this.tokens[this.tokens.length - 1];
    if (last && last.kind === 'text') this.tokens[this.tokens.length - 1] = { kind: 'text', text: last.text + s };
    else this.tokens.push({ kind: 'text', text: s });
  }

  comment(s: string): void {
    this.size += s.length + 7;
    this.tokens.push({ kind: 'comment', text: s });
  }

  /** Notes a prefix in use; a binding from outside the fragment is declared on its root. */
  private use(prefix: string, uri: string): void {
    for (let i = this.scopes.length - 1; i >= 0; i--) if (this.scopes[i]?.has(prefix)) return;
    if (prefix === 'xml') return;
    if (!this.hoisted.has(prefix) && (this.outer.get(prefix) ?? '') === uri && !(prefix === '' && uri === '')) this.hoisted.set(prefix, uri);
  }

  /** The canonical serialization of the collected fragment. */
  result(): string {
    const out: string[] = [];
    const scopes: Map<string, string>[] = [];
    const inScope = (p: string): string | undefined => {
      for (let i = scopes.length - 1; i >= 0; i--) {
        const v = scopes[i]?.get(p);
        if (v !== undefined) return v;
      }
      return undefined;
    };
    let open = false;
    const closeStart = (): void => {
      if (open) out.push('>');
      open = false;
    };
    let first = true;
    for (const t of this.tokens) {
      switch (t.kind) {
        case 'start': {
          closeStart();
          let decls = t.decls;
          if (first) {
            const own = new Set(decls.map(([p]) => p));
            decls = [...decls, ...[...this.hoisted].filter(([p]) => !own.has(p))];
            first = false;
          } else {
            decls = decls.filter(([p, u]) => inScope(p) !== u);
          }
          scopes.push(new Map(decls));
          out.push('<', t.qname);
          for (const [p, u] of decls) out.push(p === '' ? ' xmlns="' : ` xmlns:${p}="`, escapeAttr(u), '"');
          for (const [n, v] of t.attrs) out.push(' ', n, '="', escapeAttr(v), '"');
          open = true;
          break;
        }
        case 'end':
          closeStart();
          scopes.pop();
          out.push('</', t.qname, '>');
          break;
        case 'text':
          closeStart();
          out.push(t.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;'));
          break;
        case 'comment':
          closeStart();
          out.push('<!--', t.text, '-->');
          break;
      }
    }
    return out.join('');
  }
}
