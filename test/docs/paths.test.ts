/**
 * A document or a comment that names a file that no longer exists is a
 * wrong map: every Markdown file of the project (bench/results/ aside, the
 * benchmark's dated records) and every comment of the source folders names
 * only repository paths that exist. What counts as a path is strict
 * (test/helpers/repo-paths.ts): a top-level folder of the repository first
 * (`lib/x.ts`, `docs/x.md`), or an explicit relative path ending in a source
 * extension (`./apply.ts`, resolved against the file's folder).
 */
import path from 'node:path';
import { expect } from 'chai';
import { commentsOf, existsInRepository, filesUnder, pathsNamedIn } from '../helpers/repo-paths';
import { readMarkdown } from '../helpers/markdown';

/**
 * Paths named on purpose that are not files of the repository, by the file
 * that names them. Keep it small: each entry says why.
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  // An operator's own XSD in the example of a declared format: a path of their installation.
  'docs/configuration.md': ['schemas/ead/ead.xsd'],
  // A folder of the upstream OpenAIRE guidelines repository the schemas were copied from.
  'schemas/SOURCES.md': ['schemas/4.0/'],
  // The examples the matcher is explained with, in its own documentation and tests.
  'test/helpers/repo-paths.ts': ['lib/x.ts', 'docs/x.md', './apply.ts', '../store/plan.ts'],
  'test/docs/paths.test.ts': ['lib/x.ts', 'docs/x.md', './apply.ts'],
};

/** The source folders whose comments are checked, and the kinds of source file in them. */
const SOURCE_FOLDERS = ['server', 'lib', 'test', 'bench', 'seeds', 'scripts', 'harness'];
const SOURCE_EXTENSIONS = ['.ts', '.js', '.sh', '.py'];

/** `file:line: path` for each path named in `pieces` of `file` that does not exist. */
function missingIn(file: string, pieces: readonly { value: string; line: number }[]): string[] {
  const allowed = new Set(ALLOWED[file] ?? []);
  const folder = path.posix.dirname(file);
  return pieces.flatMap((piece) =>
    pathsNamedIn(piece.value, folder)
      .filter((p) => !allowed.has(p.written) && !existsInRepository(p.resolved))
      .map((p) => `${file}:${piece.line + (piece.value.slice(0, p.index).match(/\n/g) ?? []).length}: ${p.written}`),
  );
}

describe('paths named by documents and comments', () => {
  describe('what the matcher takes for a repository path', () => {
    const cases: { name: string; text: string; folder: string; expected: string[] }[] = [
      {
        name: 'a path from a top-level folder, without the full stop after it',
        text: 'See lib/store/read.ts.',
        folder: 'docs',
        expected: ['lib/store/read.ts'],
      },
      { name: 'a folder', text: 'under server/ops/ and .ci/run', folder: '.', expected: ['server/ops/', '.ci/run'] },
      {
        name: 'an explicit relative path, resolved against the folder',
        text: 'plans (../store/plan.ts) and ./apply.ts',
        folder: 'server/store',
        expected: ['server/store/plan.ts', 'server/store/apply.ts'],
      },
      { name: 'not a URL, an absolute path or build output', text: 'https://example.org/docs/x.md /var/lib/oai dist/server/cli.js', folder: '.', expected: [] },
      { name: 'not an npm package path', text: 'tsx/cjs @types/node node_modules/server/x.js', folder: '.', expected: [] },
      { name: 'not a glob or a placeholder', text: 'test/**/*.test.ts lib/formats/<format>-read.ts bench/results/… scripts/{a,b}', folder: '.', expected: [] },
      { name: 'not a relative path without a source extension', text: './data/oai-steward.sqlite ./dist', folder: '.', expected: [] },
      { name: 'not a relative path leading out of the repository', text: '../shared/STYLE.md', folder: '.', expected: [] },
    ];
    for (const c of cases) {
      it(c.name, () => {
        expect(pathsNamedIn(c.text, c.folder).map((p) => p.resolved)).to.deep.equal(c.expected.map((e) => path.posix.normalize(e)));
      });
    }
  });

  it('names only existing paths in every Markdown file of the project', () => {
    const files = filesUnder(['.'], ['.md'], ['bench/results']);
    expect(files).to.include.members(['README.md', 'ARCHITECTURE.md', 'docs/development.md', 'bench/README.md']);
    expect(files.flatMap((f) => missingIn(f, [{ value: readMarkdown(f).text, line: 1 }]))).to.deep.equal([]);
  });

  for (const folder of SOURCE_FOLDERS) {
    it(`names only existing paths in the comments of ${folder}/`, () => {
      const files = filesUnder([folder], SOURCE_EXTENSIONS);
      expect(files.flatMap((f) => missingIn(f, commentsOf(f)))).to.deep.equal([]);
    });
  }
});
