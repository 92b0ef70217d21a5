/**
 * The house's layers, checked on the source: `lib/` is pure (no database
 * driver, no knex, no Express, nothing of `server/`), knex and the drivers
 * never leave `server/store/` and `server/db/` (the store is a door,
 * ARCHITECTURE.md), and no two folders of `server/` and `lib/` import each
 * other, directly or round a longer circle (a circle of folders is a
 * circle of files waiting to happen, and a layer that is not one).
 */
import path from 'node:path';
import fs from 'node:fs';
import { expect } from 'chai';
import ts from 'typescript';
import { PROJECT_ROOT } from '../../server/paths';
import { filesUnder } from '../helpers/repo-paths';

/** The packages that reach a database: only the store and the database layer import them. */
const DATABASE_PACKAGES = ['knex', 'pg', 'better-sqlite3'];

/** Where the database packages may be imported. */
const DATABASE_FOLDERS = ['server/store/', 'server/db/'];

/** What `lib/` never imports besides the database packages: a web framework. */
const FRAMEWORK_PACKAGES = ['express'];

/** The TypeScript files of `server/` and `lib/`, relative to the project root. */
const SOURCES = filesUnder(['server', 'lib'], ['.ts']);

/** The module specifiers a file imports (static, type-only, dynamic, `require`, re-exports), read with the TypeScript scanner. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8'), true, true);
  return info.importedFiles.map((f) => f.fileName);
}

/** The package a bare specifier names (`knex`, `@scope/name`), or null for a relative one. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? null);
}

/**
 * The folder a file of `server/` or `lib/` belongs to, as the layers count
 * them: `server/store`, `lib/oai`; a file at the top of `server/` or `lib/`
 * is a room of its own (`server/provider.ts`, `lib/run-report.ts`).
 */
function folderOf(file: string): string {
  const parts = file.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : file;
}

/** `folder → folders it imports from`, over the relative imports of every source file (a resolved import names its target file). */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of SOURCES) {
    for (const specifier of importsOf(file)) {
      if (packageOf(specifier) !== null) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      if (!target.startsWith('server/') && !target.startsWith('lib/')) continue;
      const candidates = [`${target}.ts`, `${target}/index.ts`, target];
      const resolved = candidates.find((c) => SOURCES.includes(c)) ?? `${target}.ts`;
      const from = folderOf(file);
      const to = folderOf(resolved);
      if (from === to) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${file} imports ${specifier}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** The circles of the graph: each strongly connected component of more than one folder (Tarjan's algorithm), with the imports that close it. */
function circles(graph: Map<string, Map<string, string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) {
      const members = new Set(component);
      out.push(component.sort().flatMap((from) => [...(graph.get(from) ?? [])].filter(([to]) => members.has(to)).map(([, why]) => why)));
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('the layers of server/ and lib/', () => {
  it('imports knex, pg and better-sqlite3 only in server/store/ and server/db/', () => {
    const outside = SOURCES.filter((f) => !DATABASE_FOLDERS.some((d) => f.startsWith(d))).flatMap((file) =>
      importsOf(file)
        .filter((s) => DATABASE_PACKAGES.includes(packageOf(s) ?? ''))
        .map((s) => `${file} imports ${s}`),
    );
    expect(outside).to.deep.equal([]);
  });

  it('keeps lib/ free of Express and of anything in server/', () => {
    const found = SOURCES.filter((f) => f.startsWith('lib/')).flatMap((file) =>
      importsOf(file)
        .filter(
          (s) =>
            FRAMEWORK_PACKAGES.includes(packageOf(s) ?? '') || (packageOf(s) === null && path.posix.join(path.posix.dirname(file), s).startsWith('server/')),
        )
        .map((s) => `${file} imports ${s}`),
    );
    expect(found).to.deep.equal([]);
  });

  it('has no circle of imports between the folders of server/ and lib/', () => {
    expect(circles(folderGraph())).to.deep.equal([]);
  });

  it('sees the imports it checks: the store imports knex, and the loader imports the store interface', () => {
    // Guards the checks above against passing because they read nothing.
    expect(importsOf('server/store/knex-store.ts')).to.include('knex');
    expect(folderGraph().get('server/loader')?.has('lib/store')).to.equal(true);
  });
});
