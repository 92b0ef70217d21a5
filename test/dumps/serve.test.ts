/**
 * The dump folder as a mirror downloads it (`dumpDir`, served at /dumps/):
 * the folder answers with its manifest; each file comes as it is on disk
 * (its size and SHA-256 are the manifest's); a byte range answers 206, a
 * matching ETag 304; a file being written is never served; Identify names
 * the folder in a description valid against the schemas. Without a dump
 * folder nothing is served there and Identify says nothing of it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { forEachProvider, oaiGet } from '../helpers/server';
import { writeDump } from '../../server/dump/write';

/** A GET whose body is kept as bytes, whatever its type. */
function get(
  port: number,
  pathname: string,
  headers: http.OutgoingHttpHeaders = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: pathname, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const sha256 = (b: Buffer): string => crypto.createHash('sha256').update(b).digest('hex');

describe('the dump folder, served', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-dumps-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  forEachProvider({ app: { dumpDir: dir }, env: { OAI_DUMP_DIR: dir } }, (p) => {
    let manifest: { readonly files: readonly { name: string; bytes: number; sha256: string }[] };
    before(async function () {
      this.timeout(60_000);
      fs.rmSync(dir, { recursive: true, force: true });
      manifest = await writeDump(p().store, { dir, baseURL: 'http://localhost/oai', prefixes: ['oai_dc', 'marc21'], now: () => Math.floor(Date.now() / 1000) });
      // A dump being written: a dot file.
      fs.writeFileSync(path.join(dir, '.records-x.jsonl.gz.1.partial'), 'half');
    });

    it('answers the folder with its manifest, never cached without asking again', async () => {
      const a = await get(p().port, '/dumps/');
      expect(a.status).to.equal(200);
      expect(a.headers['content-type']).to.match(/^application\/json/);
      expect(a.headers['cache-control']).to.equal('no-cache');
      expect(JSON.parse(a.body.toString('utf8'))).to.deep.equal(manifest);
    });

    it('serves each file as it is on disk, with the size and SHA-256 of the manifest', async () => {
      for (const f of manifest.files) {
        const a = await get(p().port, `/dumps/${f.name}`, { 'Accept-Encoding': 'gzip' });
        expect(a.status, f.name).to.equal(200);
        expect(a.headers['content-type']).to.equal('application/gzip');
        expect(a.headers['content-encoding']).to.equal(undefined);
        expect(a.headers['accept-ranges']).to.equal('bytes');
        expect(a.body.length).to.equal(f.bytes);
        expect(sha256(a.body)).to.equal(f.sha256);
      }
    });

    it('answers a byte range with 206 and those bytes, so a download resumes', async () => {
      const f = manifest.files[0] as { name: string; bytes: number };
      const whole = fs.readFileSync(path.join(dir, f.name));
      const a = await get(p().port, `/dumps/${f.name}`, { Range: 'bytes=100-' });
      expect(a.status).to.equal(206);
      expect(a.headers['content-range']).to.equal(`bytes 100-${f.bytes - 1}/${f.bytes}`);
      expect(a.body.equals(whole.subarray(100))).to.equal(true);
      const b = await get(p().port, `/dumps/${f.name}`, { Range: 'bytes=0-9' });
      expect(b.status).to.equal(206);
      expect(b.body.equals(whole.subarray(0, 10))).to.equal(true);
      const c = await get(p().port, `/dumps/${f.name}`, { Range: `bytes=${f.bytes + 10}-` });
      expect(c.status).to.equal(416);
      expect(c.headers['content-range']).to.equal(`bytes */${f.bytes}`);
    });

    it('answers 304 to a request naming the ETag it has, and the whole file to a stale one', async () => {
      const f = manifest.files[0] as { name: string };
      const a = await get(p().port, `/dumps/${f.name}`);
      const etag = a.headers.etag;
      expect(etag).to.be.a('string');
      const b = await get(p().port, `/dumps/${f.name}`, { 'If-None-Match': etag as string });
      expect(b.status).to.equal(304);
      expect(b.body.length).to.equal(0);
      const c = await get(p().port, `/dumps/${f.name}`, { 'If-None-Match': '"stale"' });
      expect(c.status).to.equal(200);
    });

    it('never serves a file being written, nor anything outside the folder', async () => {
      expect((await get(p().port, '/dumps/.records-x.jsonl.gz.1.partial')).status).to.equal(404);
      expect((await get(p().port, '/dumps/%2e%2e/package.json')).status).to.be.oneOf([403, 404]);
      expect((await get(p().port, '/dumps/nothing.gz')).status).to.equal(404);
    });

    it('names the folder in Identify, in a description valid against the schemas', async () => {
      const xml = await oaiGet(p().port, 'verb=Identify');
      expect(xml).to.match(/<description><oai_dc:dc [^>]*>.*<dc:identifier>http:\/\/localhost\/dumps\/<\/dc:identifier>.*<\/oai_dc:dc><\/description>/);
    });
  });

  forEachProvider({}, (p) => {
    it('serves nothing at /dumps/ and names no dumps in Identify when no folder is configured', async () => {
      expect((await get(p().port, '/dumps/')).status).to.equal(404);
      expect(await oaiGet(p().port, 'verb=Identify')).to.not.include('/dumps/');
    });
  });
});
