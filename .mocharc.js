// Mocha's configuration for `npm test`: every test/**/*.test.ts, two files at a time (one per core), each in
// a worker process of its own. Files share nothing: each opens its own throwaway databases (a SQLite file in a
// folder of its own, a PostgreSQL schema of its own), its own temporary folders, and servers on free ports.
// test/setup.ts is a `require`, which every worker runs too; no test file has a root hook.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/**
 * The files that take longest, started first so the two workers finish together rather than one running a
 * long file alone at the end. A guess from the timeouts they set; a file missing here only starts later.
 */
const LONGEST_FIRST = [
  'test/reliability/visibility.test.ts',
  'test/reliability/sqlite-writers.test.ts',
  'test/reliability/loader.test.ts',
  'test/server/db/version-skew.test.ts',
  'test/loader/interrupt.test.ts',
  'test/dumps/memory.test.ts',
  'test/resourcesync/valid.test.ts',
  'test/loader/memory.test.ts',
  'test/loader/corpus.test.ts',
  'test/server/http/formats.test.ts',
  'test/formats/fidelity.property.test.ts',
  'test/dumps/delta.test.ts',
  'test/dumps/roundtrip.test.ts',
  'test/reliability/fuzz.test.ts',
  'test/bench/bench-smoke.test.ts',
  'test/deploy/nginx.test.ts',
  'test/deploy/restart.test.ts',
  'test/server/ops/backup.test.ts',
  'test/server/demo-guard.test.ts',
  'test/reliability/outage.test.ts',
  'test/browser/browser.test.ts',
];

/** Every test file under `dir`, as a path from the project's root, sorted. */
function testFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(path.join(__dirname, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...testFiles(relative));
    else if (entry.name.endsWith('.test.ts')) out.push(relative);
  }
  return out.sort();
}

const all = testFiles('test');
const first = LONGEST_FIRST.filter((f) => all.includes(f));

module.exports = {
  require: ['tsx/cjs', 'test/setup.ts'],
  extension: ['ts'],
  spec: [...first, ...all.filter((f) => !first.includes(f))],
  timeout: 20000,
  parallel: true,
  jobs: 2,
  reporter: './test/reporter.js',
};
