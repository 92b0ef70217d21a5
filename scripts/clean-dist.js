/**
 * Empties the build output before `npm run build` compiles: a source file
 * removed or renamed must not live on in dist/ as a stale .js that
 * `oai-steward`, `npm run bench` or a test still loads. fs.rmSync rather than
 * `rm -rf`, which not every shell npm runs scripts in has.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

fs.rmSync(path.join(__dirname, '..', 'dist'), { recursive: true, force: true });
