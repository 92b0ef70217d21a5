/**
 * `npm run build` starts from an empty dist/ (scripts/clean-dist.js), so a
 * source file removed from the tree does not live on as compiled output.
 * The cleaner runs here on a copy of the project's layout in a temporary
 * folder: the real dist/ may be in use by whoever else runs the suite.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { projectPath } from '../../server/paths';

describe('npm run build', () => {
  it('empties dist/ before it compiles', () => {
    const scripts = (JSON.parse(fs.readFileSync(projectPath('package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.build).to.match(/^node scripts\/clean-dist\.js && tsc -p \.$/);
  });

  it('is what start, test, bench and soak build with', () => {
    const scripts = (JSON.parse(fs.readFileSync(projectPath('package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const name of ['start', 'test', 'bench', 'soak']) expect(scripts[name], name).to.contain('npm run build');
  });

  it('removes dist/ with a stale file of a removed source, and nothing beside it', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-clean-'));
    try {
      fs.mkdirSync(path.join(root, 'scripts'));
      fs.copyFileSync(projectPath('scripts', 'clean-dist.js'), path.join(root, 'scripts', 'clean-dist.js'));
      fs.mkdirSync(path.join(root, 'dist', 'lib', 'records'), { recursive: true });
      fs.writeFileSync(path.join(root, 'dist', 'lib', 'records', 'gate.js'), 'stale');
      fs.writeFileSync(path.join(root, 'package.json'), '{}');
      execFileSync(process.execPath, [path.join(root, 'scripts', 'clean-dist.js')], { cwd: os.tmpdir() });
      expect(fs.existsSync(path.join(root, 'dist'))).to.equal(false);
      expect(fs.readdirSync(root).sort()).to.deep.equal(['package.json', 'scripts']);
      // A second run, with nothing to remove, succeeds too.
      execFileSync(process.execPath, [path.join(root, 'scripts', 'clean-dist.js')], { cwd: os.tmpdir() });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
