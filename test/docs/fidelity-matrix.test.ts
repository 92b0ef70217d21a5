/**
 * docs/metadata-formats.md holds the fidelity matrix as the code computes it
 * (lib/formats/fidelity.ts): a change to a writer or reader that moves a cell
 * fails here until `npm run docs:matrix` writes the tables again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { fidelityMatrix, matrixMarkdown, withMatrix, MATRIX_MARKERS } from '../../lib/formats/fidelity';
import { BUILT_IN_FORMATS } from '../../lib/formats/registry';

const DOC = path.resolve(__dirname, '..', '..', 'docs', 'metadata-formats.md');

describe('the fidelity matrix in docs/metadata-formats.md', () => {
  it('is the matrix the writers and readers make today (npm run docs:matrix writes it)', () => {
    const doc = fs.readFileSync(DOC, 'utf8');
    expect(doc).to.contain(MATRIX_MARKERS[0]).and.to.contain(MATRIX_MARKERS[1]);
    const fresh = withMatrix(doc, matrixMarkdown(fidelityMatrix(BUILT_IN_FORMATS)));
    expect(doc === fresh, 'docs/metadata-formats.md holds a stale matrix: run npm run docs:matrix').to.equal(true);
  });

  it('has a row for every field probed, and a column for every built-in format', () => {
    const m = fidelityMatrix(BUILT_IN_FORMATS);
    expect(m.formats).to.deep.equal(BUILT_IN_FORMATS.map((f) => f.prefix));
    expect(new Set(m.rows.map((r) => `${r.field} ${r.when ?? ''}`)).size).to.equal(m.rows.length);
    for (const key of ['dc.title', 'dc.language', 'creators.orcid', 'dates.issued', 'host.title', 'files.url'])
      expect(m.rows.map((r) => r.field)).to.include(key);
  });

  it('fails on a stale document: a cell changed by hand is not the matrix', () => {
    const doc = fs.readFileSync(DOC, 'utf8');
    const forged = doc.replace('| `dc.title` | ✓', '| `dc.title` | –');
    expect(forged).to.not.equal(doc);
    expect(withMatrix(forged, matrixMarkdown(fidelityMatrix(BUILT_IN_FORMATS)))).to.not.equal(forged);
  });
});
