/**
 * Finding the repository paths a text names, for the test that fails when a
 * document or a comment names a file that no longer exists
 * (test/docs/paths.test.ts): the Markdown files of the project, and the
 * comments of its source files (read with the TypeScript scanner, so a
 * `//` inside a string or a URL is not taken for a comment).
 *
 * The matcher is strict so that it finds wrong maps, not prose: a path
 * counts when it starts at a top-level folder of the repository (`lib/…`,
 * `server/…`, `docs/…`) or is an explicit relative path (`./apply.ts`,
 * `../store/plan.ts`) ending in a source extension. Not a path: anything
 * glued to a word, a slash, a dot or an `@` before it (URLs, `/var/lib/…`,
 * `dist/server/…`, `@types/node`), a glob or a placeholder (`*`, `<format>`,
 * `{a,b}`, `…` or `$` right after it), and a relative path that leads out
 * of the repository (`../shared/…`, a sibling checkout).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { PROJECT_ROOT } from '../../server/paths';
import type { Located } from './markdown';

/** The top-level folders a repository path starts with. */
export const ROOT_FOLDERS = ['lib', 'server', 'test', 'bench', 'harness', 'seeds', 'docs', 'schemas', 'deploy', 'scripts', '.ci'] as const;

/** The extensions an explicit relative path must end in to be taken for a file of the repository. */
const SOURCE_EXTENSIONS = ['ts', 'js', 'json', 'md', 'sh', 'xsd', 'xml', 'yaml', 'yml'];

// Not glued to what comes before: a URL, an absolute path, `dist/…`, an npm scope.
const BEFORE = String.raw`(?<![\w./@~$:-])`;
// `@` belongs to a systemd template's name (deploy/systemd/oai-steward@.service).
const ROOTED = new RegExp(`${BEFORE}(?:${ROOT_FOLDERS.map((f) => f.replace('.', '\\.')).join('|')})/[\\w./@-]*`, 'g');
const RELATIVE = new RegExp(`${BEFORE}\\.\\.?/[\\w./-]*\\.(?:${SOURCE_EXTENSIONS.join('|')})\\b`, 'g');
// A glob, a placeholder or an elision right after: the token is a pattern, not a path.
const PATTERN_AFTER = /^[*<{…$]/;

/** A path a text names: as written, as a path relative to the project root, and where in the text. */
export interface NamedPath {
  readonly written: string;
  readonly resolved: string;
  readonly index: number;
}

/**
 * The repository paths `text` names, with relative ones resolved against
 * `folder` (relative to the project root); paths leading out of the
 * repository are left out.
 *
 * @example pathsNamedIn('see lib/store/read.ts and ./apply.ts.', 'server/store').map((p) => p.resolved) // ['lib/store/read.ts', 'server/store/apply.ts']
 */
export function pathsNamedIn(text: string, folder: string): NamedPath[] {
  const out: NamedPath[] = [];
  const take = (m: RegExpMatchArray, relative: boolean): void => {
    const after = text.slice((m.index ?? 0) + m[0].length);
    if (PATTERN_AFTER.test(after)) return;
    // A sentence's full stop or a dash after a path is not part of it.
    const written = m[0].replace(/[.-]+$/, '');
    const resolved = relative ? path.posix.normalize(path.posix.join(folder, written)) : path.posix.normalize(written);
    if (resolved.startsWith('../') || resolved === '..') return;
    out.push({ written, resolved, index: m.index ?? 0 });
  };
  for (const m of text.matchAll(ROOTED)) take(m, false);
  for (const m of text.matchAll(RELATIVE)) take(m, true);
  return out;
}

/**
 * Whether a path relative to the project root exists: a file or a folder,
 * or a module named as an import names it (`lib/xml/chars` for
 * `lib/xml/chars.ts`); an `#anchor` after it is not part of the path.
 *
 * @example existsInRepository('docs/operations.md#backup-and-restore') // true
 */
export function existsInRepository(relative: string): boolean {
  const file = path.join(PROJECT_ROOT, relative.split('#')[0] as string);
  return ['', '.ts', '.js', '/index.ts'].some((suffix) => fs.existsSync(file + suffix));
}

/** Every file under `folders` (relative to the project root) whose name ends in one of `extensions`, sorted. */
export function filesUnder(folders: readonly string[], extensions: readonly string[], skip: readonly string[] = []): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    if (!fs.existsSync(path.join(PROJECT_ROOT, dir))) return;
    for (const entry of fs.readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true })) {
      const rel = dir === '.' ? entry.name : `${dir}/${entry.name}`;
      if (entry.name === 'node_modules' || entry.name === '.git' || entry.name === 'dist' || skip.includes(rel)) continue;
      if (entry.isDirectory()) walk(rel);
      else if (extensions.some((e) => entry.name.endsWith(e))) out.push(rel);
    }
  };
  for (const f of folders) walk(f);
  return out.sort();
}

/**
 * The comments of a source file with the line each starts on: TypeScript and
 * JavaScript through the TypeScript scanner (strings, template literals and
 * regular expressions are not comments), shell and Python by their `#` lines.
 *
 * @example commentsOf('server/serve.ts')[0]?.value // '/**\n * `oai-steward serve`: …'
 */
export function commentsOf(relative: string): Located<string>[] {
  const text = fs.readFileSync(path.join(PROJECT_ROOT, relative), 'utf8');
  if (/\.(?:sh|py)$/.test(relative) || !/\.[cm]?[jt]s$/.test(relative)) {
    return text.split('\n').flatMap((line, i) => (/^\s*#/.test(line) ? [{ value: line, line: i + 1 }] : []));
  }
  const source = ts.createSourceFile(relative, text, ts.ScriptTarget.Latest, false);
  const seen = new Map<number, Located<string>>();
  const lineOf = (pos: number): number => source.getLineAndCharacterOfPosition(pos).line + 1;
  const collect = (ranges: readonly ts.CommentRange[] | undefined): void => {
    for (const r of ranges ?? []) if (!seen.has(r.pos)) seen.set(r.pos, { value: text.slice(r.pos, r.end), line: lineOf(r.pos) });
  };
  const visit = (node: ts.Node): void => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    // Children with their tokens, so a comment before a closing brace or after a comma is found too.
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  collect(ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()));
  return [...seen.values()].sort((a, b) => a.line - b.line);
}
