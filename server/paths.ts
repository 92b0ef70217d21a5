/**
 * Where the project's own files are, whether the code runs compiled from
 * `dist/` or directly from TypeScript sources (tests).
 */
import fs from 'node:fs';
import path from 'node:path';

function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'schemas'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`cannot find the oai-steward project root above ${start}`);
    dir = up;
  }
}

/** The folder holding package.json, schemas/, seeds/ and lib/. */
export const PROJECT_ROOT = findRoot(__dirname);

/** A path inside the project. Example: `projectPath('schemas', 'catalog.xml')`. */
export function projectPath(...parts: string[]): string {
  return path.join(PROJECT_ROOT, ...parts);
}
