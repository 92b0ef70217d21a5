/**
 * A reader of the Markdown the project's documentation is written in, for the
 * tests that keep the docs true: its code (fenced blocks and inline spans),
 * its tables, its links and the anchors its headings make. It reads the
 * CommonMark / GitHub subset the docs use, not every corner of the grammar.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../server/paths';

/** A piece of a document with the line (1-based) it starts on. */
export interface Located<T> {
  readonly value: T;
  readonly line: number;
}

/** A Markdown file of the project, by its path relative to the project root. */
export interface MarkdownFile {
  readonly path: string;
  readonly text: string;
}

/** Reads one Markdown file of the project. Example: `readMarkdown('docs/configuration.md')`. */
export function readMarkdown(relative: string): MarkdownFile {
  return { path: relative, text: fs.readFileSync(path.join(PROJECT_ROOT, relative), 'utf8') };
}

/**
 * The documentation the tests hold to the code: README.md, ARCHITECTURE.md and
 * every `.md` under docs/ (paths relative to the project root, docs/ sorted).
 */
export function documentationFiles(): string[] {
  const docs: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.md')) docs.push(rel);
    }
  };
  walk('docs');
  return ['README.md', 'ARCHITECTURE.md', ...docs.sort()];
}

// A fence opens with three or more backticks or tildes (CommonMark 4.5); list items indent it.
const FENCE = /^\s*(`{3,}|~{3,})/;

/** Splits a document into its fenced code lines and the rest, with fenced lines blanked in the rest (line numbers kept). */
function split(text: string): { fenced: Located<string>[]; prose: string } {
  const fenced: Located<string>[] = [];
  const prose: string[] = [];
  let open: string | null = null;
  text.split('\n').forEach((line, i) => {
    const m = FENCE.exec(line);
    if (open === null && m) {
      open = (m[1] as string)[0] as string;
      prose.push('');
    } else if (open !== null && m && (m[1] as string)[0] === open) {
      open = null;
      prose.push('');
    } else if (open !== null) {
      fenced.push({ value: line, line: i + 1 });
      prose.push('');
    } else {
      prose.push(line);
    }
  });
  return { fenced, prose: prose.join('\n') };
}

// An inline code span: a run of backticks, then anything up to a run of the same length (CommonMark 6.1).
const CODE_SPAN = /(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Every piece of code in a document: each line of a fenced block, and each
 * inline code span of the prose (its content, spaces trimmed).
 *
 * @example codeOf('Run `npm test`.\n```sh\nnpm start\n```').map((c) => c.value) // ['npm start', 'npm test']
 */
export function codeOf(text: string): Located<string>[] {
  const { fenced, prose } = split(text);
  const spans: Located<string>[] = [];
  for (const m of prose.matchAll(CODE_SPAN)) spans.push({ value: (m[2] as string).trim(), line: lineAt(prose, m.index) });
  return [...fenced, ...spans];
}

/** The document without its code: fenced lines empty, inline spans blanked to spaces, so line numbers stay. */
export function proseOf(text: string): string {
  return split(text).prose.replace(CODE_SPAN, (span) => span.replace(/[^\n]/g, ' '));
}

/** Splits a table line into cells at every `|` not escaped (GFM tables split before code spans are read). */
function cells(line: string): string[] {
  const out: string[] = [];
  let cell = '';
  const body = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === '\\' && body[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (c === '|') {
      out.push(cell.trim());
      cell = '';
    } else {
      cell += c;
    }
  }
  out.push(cell.trim());
  return out;
}

/** A cell's text without the backticks of a code span around it: "`pageSize`" → "pageSize". */
export function unquote(cell: string): string {
  const m = /^(`+)\s*([\s\S]*?)\s*\1$/.exec(cell.trim());
  return m ? (m[2] as string) : cell.trim();
}

/**
 * The body rows of every table (outside code) whose first header cell is
 * `header` (backticks ignored), each as its cells.
 *
 * @example tableRows('| key | x |\n|---|---|\n| `a` | 1 |', 'key') // [{ value: ['`a`', '1'], line: 3 }]
 */
export function tableRows(text: string, header: string): Located<string[]>[] {
  const lines = split(text).prose.split('\n');
  const rows: Located<string[]>[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const head = lines[i] as string;
    if (!head.trim().startsWith('|') || !/^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(lines[i + 1] as string)) continue;
    if (unquote(cells(head)[0] ?? '') !== header) continue;
    for (let j = i + 2; j < lines.length && (lines[j] as string).trim().startsWith('|'); j++) {
      rows.push({ value: cells(lines[j] as string), line: j + 1 });
    }
  }
  return rows;
}

/**
 * Every link target of the prose: inline links and images `[text](target)`,
 * `![alt](target)`, and reference definitions `[label]: target`. Links shown
 * as code are not links.
 */
export function linksOf(text: string): Located<string>[] {
  const prose = proseOf(text);
  const out: Located<string>[] = [];
  for (const m of prose.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) {
    out.push({ value: m[1] as string, line: lineAt(prose, m.index) });
  }
  for (const m of prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) out.push({ value: m[1] as string, line: lineAt(prose, m.index) });
  return out;
}

/**
 * The anchor GitHub gives a heading: its text as rendered (code and link
 * markup gone), lower-cased, with everything but letters, marks, digits,
 * `_`, `-` and spaces removed, and each space a `-`.
 *
 * @example githubSlug('`oai_dc` — unqualified Dublin Core') // 'oai_dc--unqualified-dublin-core'
 */
export function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '');
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor the headings of a document make, a repeated one numbered `-1`, `-2`, … as GitHub does. */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of split(text).prose.split('\n')) {
    const m = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (!m) continue;
    const base = githubSlug(m[1] as string);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}
