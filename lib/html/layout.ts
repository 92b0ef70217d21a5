/**
 * The frame every page shares: head, site header with the verbs, the raw
 * XML link, the request form and the one stylesheet. No script that runs (a
 * record page's JSON-LD is a data block), no external
 * asset: the stylesheet is inline and allowed by its hash in the
 * Content-Security-Policy the server sends ({@link PAGE_CSS}).
 */
import { esc } from './escape';
import { oaiUrl } from '../oai-url';
import type { MetadataFormat } from '../formats/format';

/**
 * The stylesheet of every page. Fluid (no fixed widths, long identifiers
 * wrap anywhere), readable on a phone, contrast at least WCAG AA. Fonts
 * are the system's, so CJK, Arabic, Hebrew and combining marks use the
 * fonts the reader's system has for them.
 */
export const PAGE_CSS = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#1f2328;background:#f6f8fa}
a{color:#0550ae}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #bf3989;outline-offset:2px}
code{overflow-wrap:anywhere}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em}
.site{background:#24292f;color:#fff;padding:.6rem 1rem}
.site a{color:#fff}
.site .repo{margin:0;font-weight:600;font-size:1.1rem}
.site nav ul{list-style:none;margin:.3rem 0 0;padding:0;display:flex;flex-wrap:wrap;gap:.2rem 1rem}
.site nav a[aria-current]{text-decoration-thickness:3px}
main,footer{max-width:60rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.4rem 0 .6rem;overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:1.6rem 0 .5rem}
h3{font-size:1.05rem;margin:.2rem 0}
.raw{font-size:.9rem;color:#57606a;margin:.2rem 0 1rem}
.box{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:.7rem 1rem;margin:0 0 1rem}
.deleted{background:#fff5f5;border-color:#cf222e}
.badge{display:inline-block;font-size:.8rem;font-weight:600;padding:0 .5rem;border-radius:1rem;background:#cf222e;color:#fff}
.meta{color:#57606a;font-size:.92rem;margin:.2rem 0}
dl.facts{display:grid;grid-template-columns:minmax(7rem,12rem) 1fr;gap:.3rem 1rem;margin:.4rem 0}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0;overflow-wrap:anywhere;min-width:0}
dl.facts dd span{display:block}
dl.facts dd span.meta{display:inline}
.box>h2:first-child{margin-top:.2rem}
@media (max-width:34rem){dl.facts{grid-template-columns:1fr}dl.facts dd{margin:0 0 .4rem}}
table{border-collapse:collapse;width:100%;background:#fff;margin:.4rem 0 1rem}
th,td{text-align:start;vertical-align:top;padding:.35rem .5rem;border:1px solid #d0d7de;overflow-wrap:anywhere}
th{background:#f0f3f6}
ol.items{padding-inline-start:2.5rem}
ol.items>li{margin:0 0 .6rem}
.item h2{font-size:1.05rem;margin:0 0 .2rem}
.item p{margin:.15rem 0}
ul.tree,ul.tree ul{list-style:none;padding-inline-start:1.2rem;margin:.2rem 0}
ul.tree{padding-inline-start:0}
ul.tree li{margin:.3rem 0}
ul.xml,ul.xml ul{padding-inline-start:1.2rem;margin:.1rem 0}
/* Long URLs in file lists and in the outline of the richer formats (schemaLocation, file links) wrap rather than widen a phone's page. */
ul.xml li,ul.files li,.format .meta{overflow-wrap:anywhere}
.el{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:#6639ba}
.pager{display:flex;flex-wrap:wrap;gap:1rem;align-items:center}
.pager .next{font-weight:600}
.error h2{color:#a40e26;margin-top:.2rem}
form.build .grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(11rem,1fr));gap:.6rem 1rem;align-items:end}
form.build label{display:block;font-weight:600;font-size:.92rem}
form.build input,form.build select,form.build button{width:100%;font:inherit;padding:.3rem .4rem;border:1px solid #8c959f;border-radius:4px;background:#fff;color:#1f2328}
form.build button{background:#0550ae;color:#fff;border-color:#0550ae;font-weight:600}
fieldset{border:1px solid #d0d7de;border-radius:6px;background:#fff;padding:.6rem 1rem 1rem}
legend{font-weight:600;padding:0 .3rem}
`.trim();

/** The paths a page links to (relative to the host, so any proxy in front keeps working). */
export interface PagePaths {
  /** The OAI-PMH endpoint, e.g. `/oai`. */
  readonly endpoint: string;
  /** The same request answered as XML, e.g. `/oai/xml?verb=Identify`. */
  readonly rawXml: string;
  /** Where the request form is sent; the server turns it into a clean request, e.g. `/oai/form`. */
  readonly form: string;
}

/** What the shell needs to know. */
export interface ShellInput {
  readonly title: string;
  readonly repositoryName: string;
  readonly paths: PagePaths;
  readonly formats: readonly MetadataFormat[];
  /** The verb of the request, to mark the current navigation link. */
  readonly verb?: string;
  /** Values the form starts with (the request's own arguments). */
  readonly args: Readonly<Record<string, string | undefined>>;
  /** The page's content (already escaped HTML). */
  readonly main: string;
  /** What the page says about itself to machines, inside `<head>` (already escaped HTML): meta tags, a canonical link, JSON-LD. */
  readonly head?: string;
}

const NAV: ReadonlyArray<readonly [string, string, string | undefined]> = [
  ['Home', 'Identify', undefined],
  ['Sets', 'ListSets', undefined],
  ['Records', 'ListRecords', 'oai_dc'],
  ['Identifiers', 'ListIdentifiers', 'oai_dc'],
  ['Formats', 'ListMetadataFormats', undefined],
];

const VERB_OPTIONS = ['Identify', 'ListSets', 'ListMetadataFormats', 'ListIdentifiers', 'ListRecords', 'GetRecord'] as const;

/**
 * A whole HTML document around a page's content. Example:
 * `shell({ title: 'Sets', repositoryName: 'R', paths, formats, args: {}, main: '<h1>Sets</h1>' })`.
 */
export function shell(p: ShellInput): string {
  const nav = NAV.map(([label, verb, prefix]) => {
    const current = p.verb === verb ? ' aria-current="page"' : '';
    return `<li><a href="${esc(
      oaiUrl(p.paths.endpoint, [
        ['verb', verb],
        ['metadataPrefix', prefix],
      ]),
    )}"${current}>${label}</a></li>`;
  }).join('');
  return (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<title>${esc(p.title)} · ${esc(p.repositoryName)}</title>\n` +
    `<style>${PAGE_CSS}</style>\n` +
    `<link rel="alternate" type="text/xml" href="${esc(p.paths.rawXml)}">\n` +
    (p.head !== undefined && p.head !== '' ? `${p.head}\n` : '') +
    '</head>\n<body>\n' +
    `<header class="site"><p class="repo"><a href="${esc(oaiUrl(p.paths.endpoint, [['verb', 'Identify']]))}" dir="auto">${esc(p.repositoryName)}</a></p>` +
    `<nav aria-label="Repository"><ul>${nav}</ul></nav></header>\n` +
    `<main>\n<p class="raw">The OAI-PMH answer to this request, as a page for people. ` +
    `<a class="raw-xml" href="${esc(p.paths.rawXml)}">View it as XML</a>, as harvesters get it.</p>\n${p.main}\n</main>\n` +
    `<footer>\n${requestForm(p)}\n</footer>\n</body>\n</html>\n`
  );
}

function option(value: string, label: string, selected: string | undefined): string {
  return `<option value="${esc(value)}"${value === selected ? ' selected' : ''}>${esc(label)}</option>`;
}

/** A date input's value from a request argument (its day part, the form only offers day granularity). */
function dayOf(v: string | undefined): string {
  return v !== undefined && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : '';
}

/**
 * The small form that builds a request: the server keeps only the
 * arguments the chosen verb takes and drops empty fields, so what it sends
 * on is a valid OAI-PMH request (or one whose error page says what is missing).
 */
function requestForm(p: ShellInput): string {
  const a = p.args;
  const verbs = VERB_OPTIONS.map((v) => option(v, v, a.verb ?? 'ListRecords')).join('');
  const prefixes = [option('', '(none)', a.metadataPrefix ?? 'oai_dc'), ...p.formats.map((f) => option(f.prefix, f.prefix, a.metadataPrefix ?? 'oai_dc'))].join(
    '',
  );
  const field = (id: string, label: string, input: string): string => `<div><label for="${id}">${label}</label>${input}</div>`;
  return (
    `<form class="build" method="get" action="${esc(p.paths.form)}">\n<fieldset>\n<legend>Build a request</legend>\n` +
    '<p class="meta">Selective harvesting: choose a verb, a format, a set and a date range. Fields a verb does not take are left out.</p>\n' +
    `<div class="grid">` +
    field('f-verb', 'Verb', `<select id="f-verb" name="verb">${verbs}</select>`) +
    field('f-prefix', 'Format', `<select id="f-prefix" name="metadataPrefix">${prefixes}</select>`) +
    field('f-set', 'Set (setSpec)', `<input type="text" id="f-set" name="set" value="${esc(a.set ?? '')}" autocomplete="off" spellcheck="false">`) +
    field('f-from', 'From', `<input id="f-from" name="from" type="date" value="${esc(dayOf(a.from))}">`) +
    field('f-until', 'Until', `<input id="f-until" name="until" type="date" value="${esc(dayOf(a.until))}">`) +
    field('f-id', 'Identifier', `<input type="text" id="f-id" name="identifier" value="${esc(a.identifier ?? '')}" autocomplete="off" spellcheck="false">`) +
    '<div><button type="submit">Send request</button></div></div>\n</fieldset>\n</form>'
  );
}
