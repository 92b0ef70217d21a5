/**
 * A dump keeps nothing per record in memory: two dumps of stores of
 * different sizes run as the CLI in child processes with `--expose-gc` and
 * `OAI_STEWARD_REPORT_MEMORY=1`, and each reports the most JavaScript heap
 * reachable after a full collection while it wrote. That figure is
 * deterministic up to a few hundred kilobytes, unlike timings or the
 * resident set size, so the test holds on a busy machine; holding the
 * records of one format file in memory (40,000 oai_dc records, several MB)
 * fails it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { cli, forEachCliDatabase, type CliDb } from '../loader/helpers';

const SMALL = 10_000;
const LARGE = 50_000;
/** Reachable heap the larger dump may add (measured: 22.5 MB for both 5,000 and 50,000 records). */
const BOUND = 1024 * 1024;

/** Writes records `from` to `to` - 1 as NDJSON (ids of equal length). */
function writeRecords(file: string, from: number, to: number): void {
  const lines: string[] = [];
  for (let i = from; i < to; i++) {
    lines.push(
      JSON.stringify({
        id: `mem-${String(i).padStart(7, '0')}`,
        sets: [i % 2 === 0 ? 'even' : 'odd:x'],
        dc: { title: [`Record ${i} of a long export`], creator: ['Müller, Jürgen'] },
      }),
    );
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

/** Grows the store to `n` records, dumps it, and returns the most heap the dump held. */
async function dumpHeap(db: CliDb, had: number, n: number): Promise<number> {
  const file = path.join(db.dir, `records-${n}.ndjson`);
  writeRecords(file, had, n);
  const load = await cli(db, ['load', file], { env: { OAI_SEED_DEMO: 'false' } });
  expect(load.code, load.stderr).to.equal(0);
  const out = path.join(db.dir, `dump-${n}`);
  const run = await cli(db, ['dump', out, '--json'], { env: { OAI_SEED_DEMO: 'false', OAI_STEWARD_REPORT_MEMORY: '1', NODE_OPTIONS: '--expose-gc' } });
  expect(run.code, run.stderr).to.equal(0);
  expect((JSON.parse(run.stdout) as { items: number }).items).to.equal(n);
  const m = /^memory: heapUsed (\d+) bytes/m.exec(run.stderr);
  expect(m, `a memory line in\n${run.stderr}`).to.not.equal(null);
  expect(Number(m?.[1])).to.be.greaterThan(0);
  return Number(m?.[1]);
}

forEachCliDatabase((db) => {
  it(`holds no more memory dumping ${LARGE} records than ${SMALL}`, async function () {
    this.timeout(600_000);
    const small = await dumpHeap(db(), 0, SMALL);
    const large = await dumpHeap(db(), SMALL, LARGE);
    process.stderr.write(`      (most reachable heap while dumping: ${small} bytes for ${SMALL} records, ${large} for ${LARGE})\n`);
    expect(large - small, `heap ${small} bytes for ${SMALL} records, ${large} for ${LARGE}`).to.be.below(BOUND);
  });
});
