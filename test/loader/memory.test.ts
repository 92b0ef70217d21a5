/**
 * The loader keeps nothing per record in memory. Two loads of
 * different lengths run in child processes with `--expose-gc` and
 * `OAI_STEWARD_REPORT_MEMORY=1`; just before its commit each load reports
 * the JavaScript heap still reachable after a full collection. That figure
 * varies by under a megabyte between runs, unlike timings or the
 * resident set size, so the test holds on a busy machine. Keeping even the
 * internal ids of the extra records (a Set of 80,000 strings, about 4 MB)
 * fails it; keeping the records themselves fails it by far.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { cli, forEachCliDatabase, summaryOf, type CliDb } from './helpers';
import { openThrowawayDatabase } from '../helpers/db';

const SMALL = 10_000;
const LARGE = 90_000;
/**
 * Retained heap the larger load may add. Measured: the same two loads differ
 * by up to about 0.9 MB between runs (functions first run late in a long
 * load, such as the progress line, keep their bytecode and feedback), while
 * a Set of the 80,000 extra ids alone adds about 4 MB.
 */
const BOUND = 1.5 * 1024 * 1024;

/** Writes `n` small but valid NDJSON records (ids of equal length, so only their number differs). */
function writeRecords(file: string, n: number): void {
  const fd = fs.openSync(file, 'w');
  try {
    let lines: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = `mem-${String(i).padStart(7, '0')}`;
      lines.push(JSON.stringify({ id, dc: { title: [`Record ${i} of a long export`], creator: ['Müller, Jürgen'], date: ['2024-05-01'] } }));
      if (lines.length === 5000) {
        fs.writeSync(fd, `${lines.join('\n')}\n`);
        lines = [];
      }
    }
    if (lines.length > 0) fs.writeSync(fd, `${lines.join('\n')}\n`);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes `n` records of another repository as a saved ListRecords response,
 * each of the first half twice (an older and a newer version, as incremental
 * harvests give them), so the load stages versions and supersedes some.
 */
function writeHarvest(file: string, n: number): void {
  const fd = fs.openSync(file, 'w');
  const record = (i: number, day: string): string =>
    `<record><header><identifier>oai:other.example.org:mem-${String(i).padStart(7, '0')}</identifier><datestamp>2024-05-${day}</datestamp></header>` +
    `<metadata><oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">` +
    `<dc:title>Record ${i} of a long harvest, version ${day}</dc:title><dc:creator>Müller, Jürgen</dc:creator></oai_dc:dc></metadata></record>\n`;
  try {
    fs.writeSync(
      fd,
      '<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2024-06-01T00:00:00Z</responseDate>',
    );
    fs.writeSync(fd, '<request verb="ListRecords" metadataPrefix="oai_dc">http://other.example.org/oai</request><ListRecords>\n');
    let chunk = '';
    for (let i = 0; i < n; i++) {
      chunk += record(i, '01');
      if (i < n / 2) chunk += record(i, '02');
      if (chunk.length > 1 << 20) {
        fs.writeSync(fd, chunk);
        chunk = '';
      }
    }
    fs.writeSync(fd, `${chunk}</ListRecords></OAI-PMH>\n`);
  } finally {
    fs.closeSync(fd);
  }
}

/** Loads `n` records into the store and returns the heap the load still held before its commit. */
async function retainedHeap(db: CliDb, n: number, kind: 'ndjson' | 'xml' = 'ndjson'): Promise<number> {
  const file = path.join(db.dir, `records-${n}.${kind}`);
  if (kind === 'ndjson') writeRecords(file, n);
  else writeHarvest(file, n);
  const run = await cli(db, ['load', '--json', '--delete-missing', file], { env: { OAI_STEWARD_REPORT_MEMORY: '1', NODE_OPTIONS: '--expose-gc' } });
  expect(run.code, run.stderr).to.equal(0);
  expect(summaryOf(run)).to.include(kind === 'ndjson' ? { records: n, refused: 0, committed: true } : { records: n + n / 2, refused: 0, committed: true });
  const m = /^memory: heapUsed (\d+) bytes/m.exec(run.stderr);
  expect(m, `a memory line in\n${run.stderr}`).to.not.equal(null);
  return Number(m?.[1]);
}

/**
 * How much more heap the larger load held than the smaller, the least of two
 * tries, the second on a fresh store of the same kind: one try of a suite
 * running two files at a time once measured 2.0 MB where its reruns measured
 * under 0.1 (the other file's work moving when a late function is compiled),
 * while what the test is for, records kept per load, grows every try alike.
 */
async function growth(db: CliDb, kind: 'ndjson' | 'xml'): Promise<{ grew: number; small: number; large: number }> {
  const small = await retainedHeap(db, SMALL, kind);
  const large = await retainedHeap(db, LARGE, kind);
  if (large - small < BOUND) return { grew: large - small, small, large };
  const fresh = await openThrowawayDatabase(db.name);
  try {
    const small2 = await retainedHeap(fresh, SMALL, kind);
    const large2 = await retainedHeap(fresh, LARGE, kind);
    return large2 - small2 < large - small ? { grew: large2 - small2, small: small2, large: large2 } : { grew: large - small, small, large };
  } finally {
    await fresh.close();
  }
}

forEachCliDatabase((db) => {
  it(`holds no more memory for ${LARGE} records than for ${SMALL}`, async function () {
    this.timeout(300000);
    // The larger load finds the smaller one's records unchanged and inserts the rest; --delete-missing scans them all.
    const { grew, small, large } = await growth(db(), 'ndjson');
    process.stderr.write(`      (retained heap before commit: ${small} bytes for ${SMALL} records, ${large} for ${LARGE})\n`);
    expect(grew, `retained heap ${small} bytes for ${SMALL} records, ${large} for ${LARGE}`).to.be.below(BOUND);
  });

  it(`holds no more memory for ${LARGE} harvested records, half of them in two versions, than for ${SMALL}`, async function () {
    this.timeout(300000);
    const { grew, small, large } = await growth(db(), 'xml');
    process.stderr.write(`      (retained heap before commit, XML: ${small} bytes for ${SMALL} records, ${large} for ${LARGE})\n`);
    expect(grew, `retained heap ${small} bytes for ${SMALL} records, ${large} for ${LARGE}`).to.be.below(BOUND);
  });
});
