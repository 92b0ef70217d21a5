/**
 * The staging file of a staged write (server/store/staging-file.ts): every
 * batch but the first is written on a thread of its own, and is read back
 * as it was given, with each record's log hash taken there.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { StagingFile, type StagedPlace } from '../../../server/store/staging-file';
import { servedRecordHash } from '../../../lib/tlog/verify';
import { ROOT } from '../../loader/helpers';

/** A batch's XML: `n` records, some with characters beyond Latin-1 and beyond the BMP, as records have them. */
function xmlOf(batch: number, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `<dc xmlns="http://purl.org/dc/elements/1.1/"><title a="${batch}">Tür ${i} 学 𝄞 &amp; x</title></dc>`);
}

describe('the staging file', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'staging-file-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads back every batch as it was given, in the order given, with the log hash of each record, leaving nothing in its folder', async () => {
    const file = new StagingFile(dir);
    try {
      // More batches than the thread may be behind, so some wait for it; with and without hashes.
      const batches = Array.from({ length: 9 }, (_, b) => ({ head: Buffer.from(`head ${b} ü`), xml: xmlOf(b, 5 + b), hash: b % 3 !== 1 }));
      const places: Promise<StagedPlace>[] = [];
      for (const b of batches) places.push((await file.append(new Uint8Array(b.head), b.xml, b.hash)).place);
      expect(fs.readdirSync(dir)).to.deep.equal([]);
      await file.flushed();
      let end = 0;
      for (const [i, b] of batches.entries()) {
        const place = await (places[i] as Promise<StagedPlace>);
        // Written one after another, in the order given: each batch where the one before it ends.
        expect(place.at, `batch ${i}`).to.equal(end);
        end = place.at + place.length;
        const read = file.read(place);
        expect(read.head.toString(), `batch ${i}`).to.equal(b.head.toString());
        expect(
          read.xml.map((x) => x.bytes.toString('utf8')),
          `batch ${i}`,
        ).to.deep.equal(b.xml);
        expect(read.logHashes, `batch ${i}`).to.deep.equal(b.hash ? b.xml.map(servedRecordHash) : null);
      }
    } finally {
      await file.close();
    }
  });

  it('ends a write whose batch the system would not take whole with why, from the thread that wrote it', async function () {
    this.timeout(60_000);
    const big = `<a>${'x'.repeat(30_000)}</a>`;
    // Its preamble (three numbers and the XML's length), its head, its XML and the XML's hash.
    const batchLength = 4 * 4 + 'head'.length + big.length + 64;
    // A file size limit of 64 KiB (ulimit counts 1,024-byte blocks): the first batch (written on the loader's
    // thread) and the second fit; the third is cut short on the writing thread.
    const script = `
      const { StagingFile } = require(${JSON.stringify(path.join(ROOT, 'server/store/staging-file.ts'))});
      (async () => {
        const file = new StagingFile(${JSON.stringify(dir)});
        const xml = [${JSON.stringify(big)}];
        const out = [];
        try {
          for (let i = 0; i < 6; i++) {
            const { place } = await file.append(new Uint8Array(Buffer.from('head')), xml, true);
            place.then((p) => out.push('placed ' + i + ' at ' + p.at), () => out.push('not placed ' + i));
          }
          await file.flushed();
          out.push('flushed');
        } catch (err) {
          out.push('failed: ' + err.message);
        } finally {
          await file.close();
        }
        console.log(JSON.stringify(out));
      })();
    `;
    const { stdout } = await promisify(execFile)('bash', ['-c', 'ulimit -f 64 && exec "$0" -r tsx/cjs -e "$1"', process.execPath, script], { cwd: ROOT });
    const said = JSON.parse(stdout) as string[];
    expect(said.slice(0, 2)).to.deep.equal(['placed 0 at 0', `placed 1 at ${batchLength}`]);
    expect(said).to.include('not placed 2');
    expect(said.at(-1)).to.equal(`failed: the staging file beside the store took ${64 * 1024 - 2 * batchLength} of ${batchLength} bytes`);
    expect(said).not.to.include('flushed');
  });
});
