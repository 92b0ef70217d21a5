/**
 * The README stays a door (small), and the documentation's links lead
 * somewhere: every relative link of README.md, ARCHITECTURE.md and docs/
 * names a file or folder of the project, every `#anchor` a heading of its
 * page, every project path README.md and docs/ show as code exists, and the
 * index of docs/ lists every page there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT, projectPath } from '../../server/paths';
import { anchorsOf, codeOf, documentationFiles, linksOf, readMarkdown } from '../helpers/markdown';

/** README.md is read in five minutes: 15 KB or so, and never 16. */
const README_LIMIT = 16 * 1024;

describe('the documentation', () => {
  it(`keeps README.md under ${README_LIMIT / 1024} KB`, () => {
    expect(fs.statSync(projectPath('README.md')).size).to.be.below(README_LIMIT);
  });

  for (const file of documentationFiles()) {
    it(`links from ${file} only to files, folders and headings that exist`, () => {
      const broken: string[] = [];
      for (const link of linksOf(readMarkdown(file).text)) {
        // A scheme (https:, mailto:) is a link out of the project, not checked here.
        if (/^[a-z][a-z0-9+.-]*:/i.test(link.value)) continue;
        const [target = '', anchor] = link.value.split('#', 2);
        const resolved = target === '' ? projectPath(file) : path.resolve(path.dirname(projectPath(file)), decodeURIComponent(target));
        const inside = path.relative(PROJECT_ROOT, resolved);
        if (inside.startsWith('..') || path.isAbsolute(inside)) broken.push(`${file}:${link.line}: ${link.value} leads out of the project`);
        else if (!fs.existsSync(resolved)) broken.push(`${file}:${link.line}: ${link.value}: no such file`);
        else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(fs.readFileSync(resolved, 'utf8')).has(anchor)) {
          broken.push(`${file}:${link.line}: ${link.value}: no heading makes the anchor #${anchor}`);
        }
      }
      expect(broken).to.deep.equal([]);
    });
  }

  // A file or folder of the project named as code (`server/config.ts`), where a reader would go and look.
  const PROJECT_PATH = /^(?:\.ci|lib|server|seeds|schemas|test|bench|harness|scripts|docs|deploy)\/[\w./-]*$/;

  for (const file of documentationFiles()) {
    it(`names in ${file} only project files and folders that exist`, () => {
      const missing = codeOf(readMarkdown(file).text)
        .filter((c) => PROJECT_PATH.test(c.value) && !fs.existsSync(projectPath(c.value)))
        .map((c) => `${file}:${c.line}: ${c.value}`);
      expect(missing).to.deep.equal([]);
    });
  }

  it('lists every page of docs/ in docs/README.md', () => {
    const index = readMarkdown('docs/README.md').text;
    const linked = new Set(linksOf(index).map((l) => path.normalize(path.join('docs', l.value.split('#')[0] as string))));
    const pages = documentationFiles().filter((f) => f.startsWith('docs/') && f !== 'docs/README.md');
    expect(
      pages.filter((p) => !linked.has(path.normalize(p))),
      'pages of docs/ the index does not link',
    ).to.deep.equal([]);
  });
});
