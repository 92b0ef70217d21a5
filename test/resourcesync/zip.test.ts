/**
 * The ZIP writer of Resource Dumps (lib/resourcesync/zip.ts), read back by
 * the tests' own reader and by Info-ZIP's unzip (Debian's `unzip`, installed
 * by scripts/system-deps.sh), with and without ZIP64 records.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ZipWriter } from '../../lib/resourcesync/zip';
import { readZip } from '../helpers/zip';

const FILES: readonly { name: string; data: Buffer }[] = [
  { name: 'manifest.xml', data: Buffer.from('<urlset/>\n') },
  { name: 'resources/empty.xml', data: Buffer.alloc(0) },
  { name: 'resources/oai%3Ax.org%3Arepeat.xml', data: Buffer.from('<r>'.padEnd(20_000, 'ab') + '</r>') },
  { name: 'resources/non-ascii.xml', data: Buffer.from('<t>Μουσείο – Müller 😀</t>', 'utf8') },
  { name: 'resources/random.bin', data: Buffer.from(Array.from({ length: 4096 }, (_v, k) => (k * 7919 + 13) % 251)) },
];
const MTIME = 1_764_000_000; // 2025-11-24T16:00:00Z

/** A file written piece by piece, longer than zlib's buffers, after the others. */
const STREAMED = { name: 'streamed.xml', data: Buffer.from(Array.from({ length: 30_000 }, (_v, k) => `<url><loc>http://x.org/${k}</loc></url>\n`).join('')) };
const ALL = [...FILES, STREAMED];

async function write(zip64: 'auto' | 'always'): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const zip = new ZipWriter(async (chunk) => void chunks.push(chunk), { level: 6, zip64 });
  for (const f of FILES) await zip.add(f.name, f.data, MTIME);
  await zip.addStream(STREAMED.name, MTIME, async (put) => {
    for (let k = 0; k < STREAMED.data.length; k += 7_777) await put(STREAMED.data.subarray(k, k + 7_777));
  });
  await zip.finish();
  return Buffer.concat(chunks);
}

/** Runs `unzip OPTIONS ZIPFILE [NAMES]` on the bytes of a ZIP and returns what it printed. */
function unzip(zip: Buffer, options: string[], names: string[] = []): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-zip-'));
  try {
    const file = path.join(dir, 'dump.zip');
    fs.writeFileSync(file, zip);
    return execFileSync('unzip', [...options, file, ...names], { maxBuffer: 1 << 26 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('ZIP writer', () => {
  for (const mode of ['auto', 'always'] as const) {
    describe(`with ZIP64 ${mode === 'auto' ? 'only where needed' : 'records for every file'}`, () => {
      let zip: Buffer;
      before(async () => {
        zip = await write(mode);
      });

      it('gives back every file, byte for byte, in order, the streamed one after a data descriptor', () => {
        const files = readZip(zip);
        expect(files.map((f) => f.name)).to.deep.equal(ALL.map((f) => f.name));
        files.forEach((f, k) => expect(f.data.equals(ALL[k]?.data as Buffer), f.name).to.equal(true));
        expect(files.every((f) => f.zip64 === (mode === 'always'))).to.equal(true);
        expect(files.map((f) => f.described)).to.deep.equal(ALL.map((f) => f === STREAMED));
      });

      it('deflates what shrinks and stores what does not', () => {
        const files = readZip(zip);
        expect(files.find((f) => f.name.includes('repeat'))?.deflated).to.equal(true);
        expect(files.find((f) => f.name.endsWith('empty.xml'))?.deflated).to.equal(false);
        expect(files.find((f) => f.name === STREAMED.name)?.deflated).to.equal(true);
        expect(zip.length).to.be.lessThan(ALL.reduce((n, f) => n + f.data.length, 0));
      });

      it("passes Info-ZIP's test of every file and extracts the same bytes", () => {
        expect(unzip(zip, ['-t']).toString('latin1')).to.match(/No errors detected/);
        for (const f of ALL) expect(unzip(zip, ['-p'], [f.name]).equals(f.data), f.name).to.equal(true);
      });

      it('dates every file at its modification time (UTC, in two-second steps)', () => {
        const listing = unzip(zip, ['-Z', '-T']).toString('latin1');
        expect(listing.match(/20251124\.160000/g)?.length).to.equal(ALL.length);
      });
    });
  }
});
