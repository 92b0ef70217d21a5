/**
 * The Resource Dump of a scope (ResourceSync 1.1 section 11): a document
 * naming ZIP packages of the records, and the packages, made as they are
 * sent. Each package holds one file per record (the bytes its URL serves)
 * and, last, `manifest.xml`, the Resource Dump Manifest (section 11.2) with
 * each file's URL, path, length and MD5. A scope of at most `partSize`
 * records is one package; a larger one has a package per run of `partSize`
 * pks, like its Resource List, so a package never holds more than
 * `partSize` files (memory keeps a few small values per file until the end:
 * the ZIP's central directory and the manifest need them).
 */
import crypto from 'node:crypto';
import type { SyncScope } from '../../lib/store';
import { closeDocument, entry, openDocument, packagedName, resourceBytes, XML_TYPE, ZipWriter } from '../../lib/resourcesync';
import type { Answer } from './served';
import { weakTag } from './served';
import { ALL_PKS, fingerprintResources, listLinks, offered, partRange, soundRecords, syncUrl, type PkRange, type SyncContext } from './sync-scan';

const ZIP_TYPE = 'application/zip';

/** `resourcedump.xml`: the packages of a scope's records. */
export async function resourceDumpAnswer(c: SyncContext, scope: SyncScope): Promise<Answer> {
  if (!offered(c, scope)) return { status: 404, message: 'No such format here.\n' };
  const store = c.ctx.store;
  const count = await store.syncCount(scope, c.partSize + 1);
  if (count === 0) return { status: 404, message: 'No live record of this format or set to dump.\n' };
  const parts = count <= c.partSize ? [undefined] : (await store.syncParts(scope, c.partSize)).map((p) => p.part);
  return {
    type: XML_TYPE,
    etag: weakTag(['resourcedump', scope.metadataPrefix, scope.set ?? '', ...parts.map((p) => p ?? -1)]),
    lastModified: await store.syncLatest(scope),
    compressible: true,
    async write(out) {
      await out.text(openDocument('urlset', { capability: 'resourcedump', at: c.now }, listLinks(c, scope)));
      for (const part of parts) {
        const loc = syncUrl(c, { kind: 'package', scope, ...(part !== undefined && { part }) });
        await out.text(entry('urlset', { loc, md: { type: ZIP_TYPE, at: c.now } }));
      }
      await out.text(closeDocument('urlset'));
    },
  };
}

/** `resourcedump.zip` (every record, while there are at most `partSize`) or `resourcedump/{n}.zip` (one run of pks). */
export async function packageAnswer(c: SyncContext, scope: SyncScope, part: number | undefined): Promise<Answer> {
  if (!offered(c, scope)) return { status: 404, message: 'No such format here.\n' };
  if (part === undefined && (await c.ctx.store.syncCount(scope, c.partSize + 1)) > c.partSize) {
    return { status: 404, message: 'The dump of this many records comes in parts: see resourcedump.xml.\n' };
  }
  const range = part === undefined ? ALL_PKS : partRange(part, c.partSize);
  const first = await fingerprintResources(c, scope, range);
  if (first.count === 0) return { status: 404, message: 'No live record here.\n' };
  return {
    type: ZIP_TYPE,
    etag: first.etag,
    lastModified: first.lastModified,
    compressible: false,
    write: (out) => writePackage(c, scope, range, (chunk) => out.bytes(chunk)),
  };
}

/** What the manifest says of one packed record, kept small until the manifest is written. */
type Packed = readonly [identifier: string, loc: string, datestamp: number, md5: string, length: number];

/**
 * Writes the ZIP package of the records of a range: their files, then the
 * manifest, written entry by entry as it is compressed. Memory keeps a few
 * numbers and the identifier per file until the end.
 */
async function writePackage(c: SyncContext, scope: SyncScope, range: PkRange, sink: (chunk: Buffer) => Promise<void>): Promise<void> {
  const zip = new ZipWriter(sink, { level: c.level, zip64: c.zip64 });
  const packed: Packed[] = [];
  for await (const { identifier, loc, datestamp, xml } of soundRecords(c, scope, range)) {
    const bytes = resourceBytes(xml);
    await zip.add(packagedName(identifier), bytes, datestamp);
    packed.push([identifier, loc, datestamp, crypto.createHash('md5').update(bytes).digest('hex'), bytes.length]);
  }
  await zip.addStream('manifest.xml', c.now, async (put) => {
    let text = openDocument('urlset', { capability: 'resourcedump-manifest', at: c.now }, listLinks(c, scope));
    for (const [identifier, loc, datestamp, md5, length] of packed) {
      text += entry('urlset', { loc, lastmod: datestamp, md: { hash: `md5:${md5}`, length, type: XML_TYPE, path: `/${packagedName(identifier)}` } });
      if (text.length >= MANIFEST_PIECE) {
        await put(Buffer.from(text, 'utf8'));
        text = '';
      }
    }
    await put(Buffer.from(text + closeDocument('urlset'), 'utf8'));
  });
  await zip.finish();
}

/** Characters of manifest text compressed at a time. */
const MANIFEST_PIECE = 64 * 1024;
