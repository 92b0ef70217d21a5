/**
 * The Markdown reader the docs tests stand on: if it missed code, rows,
 * links or anchors, those tests would pass over what they should catch.
 */
import { expect } from 'chai';
import { anchorsOf, codeOf, githubSlug, linksOf, proseOf, tableRows, unquote } from '../helpers/markdown';
import { eachRow } from '../helpers/table';

describe('the Markdown reader of the docs tests', () => {
  describe('githubSlug', () => {
    eachRow(
      [
        ['Two commands', 'two-commands'],
        ['About containers: provenance and rights', 'about-containers-provenance-and-rights'],
        ['`oai_dc` — unqualified Dublin Core', 'oai_dc--unqualified-dublin-core'],
        ['When a crosswalk changes: `oai-steward rebuild-formats`', 'when-a-crosswalk-changes-oai-steward-rebuild-formats'],
        ['Sets by rule (and [presets](sets.md))', 'sets-by-rule-and-presets'],
        ['Métadonnées 2.0', 'métadonnées-20'],
      ] as const,
      ([heading, slug]) => `gives ${JSON.stringify(heading)} the anchor ${slug}`,
      ([heading, slug]) => {
        expect(githubSlug(heading)).to.equal(slug);
      },
    );
  });

  it('numbers a repeated heading the way GitHub does', () => {
    expect([...anchorsOf('# A\n## Notes\n## Notes\n```\n# not a heading\n```\n')]).to.deep.equal(['a', 'notes', 'notes-1']);
  });

  it('finds the code of fenced blocks and inline spans, and nothing else', () => {
    const text = 'Run `npm test` and ``a `b` c``.\n\n  ```sh\n  npm start\n  ```\nnot code\n~~~\nx\n~~~\n';
    expect(codeOf(text).map((c) => [c.value, c.line])).to.deep.equal([
      ['  npm start', 4],
      ['x', 8],
      ['npm test', 1],
      ['a `b` c', 1],
    ]);
  });

  it('blanks code out of the prose, keeping its lines', () => {
    const prose = proseOf('see [a](a.md) `[b](b.md)`\n```\n[c](c.md)\n```\nend');
    expect(prose.split('\n')).to.have.length(5);
    expect(prose).to.contain('[a](a.md)').and.not.contain('b.md').and.not.contain('c.md');
  });

  it('reads the rows of the tables under a header, with escaped pipes kept in their cell', () => {
    const text = '| key | value |\n| --- | --- |\n| `a` | `x\\|y` |\n| b | 2 |\n\n| other | v |\n|---|---|\n| c | 3 |\n';
    expect(tableRows(text, 'key').map((r) => [r.value, r.line])).to.deep.equal([
      [['`a`', '`x|y`'], 3],
      [['b', '2'], 4],
    ]);
    expect(tableRows(text, 'value')).to.deep.equal([]);
    expect(unquote('`a`')).to.equal('a');
  });

  it('finds inline links, images and reference definitions, not links shown as code', () => {
    const text = '[a](docs/a.md#x) ![i](p.png "t")\n[ref]: docs/r.md\n`[no](no.md)`\n[n [b]](c.md)';
    expect(linksOf(text).map((l) => [l.value, l.line])).to.deep.equal([
      ['docs/a.md#x', 1],
      ['p.png', 1],
      ['c.md', 4],
      ['docs/r.md', 2],
    ]);
  });
});
