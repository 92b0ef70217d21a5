/**
 * Writes the fidelity matrix into docs/metadata-formats.md, between its
 * markers: `npm run docs:matrix` (after `npm run build`). The tables are
 * computed from the built-in writers and readers (lib/formats/fidelity.ts);
 * test/docs/fidelity-matrix.test.ts fails while the document holds others.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { BUILT_IN_FORMATS } = require('../dist/lib/formats/registry');
const { fidelityMatrix, matrixMarkdown, withMatrix } = require('../dist/lib/formats/fidelity');

const doc = path.join(__dirname, '..', 'docs', 'metadata-formats.md');
fs.writeFileSync(doc, withMatrix(fs.readFileSync(doc, 'utf8'), matrixMarkdown(fidelityMatrix(BUILT_IN_FORMATS))));
