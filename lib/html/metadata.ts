/**
 * A record's metadata made readable: Dublin Core as labelled values, any
 * other format as an outline of its elements. Values keep their own
 * direction (`dir="auto"`) and, when the record says, their language.
 */
import { DC_ELEMENTS } from '../model/dublin-core';
import { DC_NS, OAI_DC_NS } from '../xml/namespaces';
import { isHttpUrl } from '../model/identifiers';
import { textOf } from '../xml/tree';
import type { XmlElement, XmlNode } from '../xml/tree';
import { esc, langAttr, langTag } from './escape';

/**
 * A value as HTML: a link when it is an http(s) URL (never another scheme), else text.
 * Example: `valueHtml('javascript:x')` → `'javascript:x'`; `valueHtml('https://a.org/')` → `'<a href="https://a.org/" rel="nofollow">https://a.org/</a>'`.
 */
export function valueHtml(value: string): string {
  return isHttpUrl(value) ? `<a href="${esc(value)}" rel="nofollow">${esc(value)}</a>` : esc(value);
}

/**
 * How many values of one repeated field a page shows before it says how many
 * more there are. A page is for people reading about a work, not the record
 * itself: the XML view it links to carries every value, and a harvested record
 * may repeat a field thousands of times, which no reader scrolls through and
 * every page view would pay for.
 */
export const SHOWN_VALUES = 50;

/**
 * The first `SHOWN_VALUES` of a field's values, each drawn by `draw` and joined by `separator`, then, when there are
 * more, `more` of a sentence saying how many (the sentence is plain text, for `more` to wrap in an element).
 *
 * @example shownValues(['a', 'b'], (v) => `<span>${v}</span>`, (t) => `<span>${t}</span>`)
 * // '<span>a</span><span>b</span>'; with 60 values, the first 50 and then '<span>… and 10 more</span>'
 */
export function shownValues<T>(values: readonly T[], draw: (value: T) => string, more: (text: string) => string, separator = ''): string {
  const shown: string[] = [];
  for (let i = 0; i < values.length && i < SHOWN_VALUES; i++) shown.push(draw(values[i] as T));
  if (values.length > SHOWN_VALUES) shown.push(more(`… and ${(values.length - SHOWN_VALUES).toLocaleString('en')} more`));
  return shown.join(separator);
}

/**
 * Dublin Core values of a parsed oai_dc record, by element name, in record order (empty when it is not oai_dc).
 * Example: `dublinCore(parseFragment(dublinCoreToOaiDc({ title: ['T'] }))).get('title')` → `[{ value: 'T', lang: '' }]`.
 */
export function dublinCore(tree: XmlElement | null): Map<string, { value: string; lang: string }[]> {
  const out = new Map<string, { value: string; lang: string }[]>();
  if (!tree || tree.ns !== OAI_DC_NS || tree.local !== 'dc') return out;
  for (const c of tree.children) {
    if (c.kind !== 'element' || c.ns !== DC_NS) continue;
    const value = textOf(c);
    if (value === '') continue;
    // Appended in place: copying the list for every value made a record with thousands of one element quadratic.
    const values = out.get(c.local);
    if (values) values.push({ value, lang: langTag(c.lang) });
    else out.set(c.local, [{ value, lang: langTag(c.lang) }]);
  }
  return out;
}

/**
 * The language a record's text is in when it says so once (a single
 * dc:language value that is a language tag), for values without xml:lang.
 * Example: `recordLanguage(dublinCore(tree))` → `'el'` for a record whose only dc:language is `el`.
 */
export function recordLanguage(dc: Map<string, { value: string; lang: string }[]>): string {
  const langs = dc.get('language') ?? [];
  return langs.length === 1 ? langTag((langs[0] as { value: string }).value) : '';
}

/** Elements whose text is in the record's language (titles, descriptions, subjects), not codes or names. */
const PROSE = new Set(['title', 'description', 'subject', 'coverage']);

function dcLabel(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** Dublin Core as a labelled list. */
function dublinCoreHtml(dc: Map<string, { value: string; lang: string }[]>): string {
  const recordLang = recordLanguage(dc);
  const rows: string[] = [];
  for (const name of DC_ELEMENTS) {
    const values = dc.get(name);
    if (!values) continue;
    const spans = shownValues(
      values,
      (v) => `<span dir="auto"${langAttr(v.lang || (PROSE.has(name) ? recordLang : ''))}>${valueHtml(v.value)}</span>`,
      (more) => `<span class="more">${more}</span>`,
    );
    rows.push(`<dt>${dcLabel(name)}</dt><dd>${spans}</dd>`);
  }
  return `<dl class="facts dc">${rows.join('')}</dl>`;
}

function outline(node: XmlElement, depth: number): string {
  const attrs = [...node.attrs]
    .filter(([k]) => !k.startsWith('xsi:'))
    .map(([k, v]) => ` <span class="meta">${esc(k)}="${valueHtml(v)}"</span>`)
    .join('');
  const elements = node.children.filter((c): c is XmlElement => c.kind === 'element');
  const text = node.children
    .filter((c: XmlNode) => c.kind === 'text')
    .map((c) => (c as { text: string }).text)
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  const own = text === '' ? '' : ` <span dir="auto"${langAttr(langTag(node.lang))}>${valueHtml(text)}</span>`;
  // Deep trees and long runs of elements are cut off: a page shows the shape, the XML link shows everything.
  const kids =
    elements.length === 0
      ? ''
      : depth >= 12
        ? ' …'
        : `<ul>${shownValues(
            elements,
            (e) => outline(e, depth + 1),
            (more) => `<li class="meta">${more}</li>`,
          )}</ul>`;
  return `<li><span class="el">${esc(node.local)}</span>${attrs}${own}${kids}</li>`;
}

/**
 * A parsed record as HTML: labelled Dublin Core for oai_dc, an outline of
 * elements for any other format, or a sentence when it could not be read.
 * Example: `readableMetadata(parseFragment(oaiDcXml))` starts `<dl class="facts dc">`.
 */
export function readableMetadata(tree: XmlElement | null): string {
  if (!tree) return '<p class="meta">The stored metadata could not be read; the XML view shows what the repository holds.</p>';
  const dc = dublinCore(tree);
  if (dc.size > 0 || (tree.ns === OAI_DC_NS && tree.local === 'dc')) return dublinCoreHtml(dc);
  return `<ul class="xml">${outline(tree, 0)}</ul>`;
}

/**
 * The title of a record (first dc:title, or the first text of another format's title element), or ''.
 * Example: `recordTitle(parseFragment('<r xmlns="urn:x"><title>T</title></r>'))` → `{ text: 'T', lang: '' }`.
 */
export function recordTitle(tree: XmlElement | null): { text: string; lang: string } {
  if (!tree) return { text: '', lang: '' };
  const dc = dublinCore(tree);
  const t = dc.get('title')?.[0];
  if (t) return { text: t.value, lang: t.lang || recordLanguage(dc) };
  const found = findTitle(tree);
  return found ? { text: textOf(found), lang: langTag(found.lang) } : { text: '', lang: '' };
}

function findTitle(e: XmlElement): XmlElement | null {
  if (/^title$/i.test(e.local) && textOf(e) !== '') return e;
  for (const c of e.children) {
    if (c.kind !== 'element') continue;
    const t = findTitle(c);
    if (t) return t;
  }
  return null;
}
