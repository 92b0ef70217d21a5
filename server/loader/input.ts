/**
 * Opens the inputs of `oai-steward load`: files, `-` for standard input, and
 * folders of oai_dc files. The kind of a file is recognised from its first
 * non-blank character (`<` XML, `[` a JSON array, anything else NDJSON), not
 * from its name, so `-` works for every kind. Bytes read are counted, for
 * the progress bar's ETA.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';

/** What an input holds. */
export type InputKind = 'ndjson' | 'json-array' | 'xml' | 'dc-folder';

/** An opened input. */
export interface Input {
  /** As given on the command line (`-` for standard input), used in messages. */
  readonly name: string;
  readonly kind: InputKind;
  /** Bytes in all, when known (regular files); null for stdin. For a folder: the sum of its files. */
  readonly size: number | null;
  /** For XML: whether the document is a ListSets response (read before record files, so sets exist first). */
  readonly isListSets: boolean;
  /** The content (not for folders). Reading it adds to `bytesRead`. */
  chunks(): AsyncIterable<Buffer>;
}

/** Counts bytes read over all inputs. */
export interface ByteCounter {
  bytesRead: number;
}

const PEEK = 64 * 1024;

/**
 * Opens one input. Throws an Error naming the input when it cannot be read
 * (a usage error for the CLI).
 *
 * @example const input = await openInput('records.ndjson', process.stdin, counter);
 */
export async function openInput(name: string, stdin: NodeJS.ReadableStream, counter: ByteCounter): Promise<Input> {
  if (name === '-') {
    const it = (stdin as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
    const first: Buffer[] = [];
    let head = '';
    let done = false;
    // Peek until something that is not blank arrives.
    while (head.trim() === '' && !done) {
      const r = await it.next();
      if (r.done) done = true;
      else {
        const b = typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
        first.push(b);
        head = headText(Buffer.concat(first));
      }
    }
    const kind = kindOf(head);
    let used = false;
    return {
      name,
      kind,
      size: null,
      isListSets: kind === 'xml' && /<(?:\w+:)?ListSets[\s>]/.test(head),
      chunks() {
        if (used) throw new Error('standard input can be read only once');
        used = true;
        return (async function* () {
          for (const b of first) {
            counter.bytesRead += b.length;
            yield b;
          }
          if (done) return;
          for (;;) {
            const r = await it.next();
            if (r.done) return;
            const b = typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
            counter.bytesRead += b.length;
            yield b;
          }
        })();
      },
    };
  }
  const stat = await fs.promises.stat(name);
  if (stat.isDirectory()) {
    let size = 0;
    for (const f of await xmlFilesUnder(name)) size += (await fs.promises.stat(f)).size;
    return {
      name,
      kind: 'dc-folder',
      size,
      isListSets: false,
      chunks: () => {
        throw new Error('a folder has no content of its own');
      },
    };
  }
  const fd = await fs.promises.open(name, 'r');
  let head: string;
  try {
    const buf = Buffer.alloc(Math.min(PEEK, stat.size));
    const { bytesRead } = await fd.read(buf, 0, buf.length, 0);
    const start = buf.subarray(0, bytesRead);
    // A gzip file (a bulk dump's, RFC 1952) is told by what it holds once decompressed.
    head = isGzip(start) ? gunzipHead(start) : headText(start);
  } finally {
    await fd.close();
  }
  // A file named .xml is read as XML whatever it begins with, so a broken one is reported as broken XML.
  const kind = /\.xml$/i.test(name) ? 'xml' : kindOf(head);
  return {
    name,
    kind,
    size: stat.size,
    isListSets: kind === 'xml' && /<(?:\w+:)?ListSets[\s>]/.test(head),
    chunks: () => fileChunks(name, counter),
  };
}

/**
 * The content of a file, a chunk at a time, each counted in `counter` as it
 * is read: what an opened file input's `chunks` reads (the loader's reading
 * thread reads a file it was given by name through it too).
 *
 * @example for await (const chunk of fileChunks('records.ndjson', counter)) …
 */
export async function* fileChunks(name: string, counter: ByteCounter): AsyncGenerator<Buffer> {
  const fd = await fs.promises.open(name, 'r');
  const magic = Buffer.alloc(2);
  try {
    await fd.read(magic, 0, 2, 0);
  } finally {
    await fd.close();
  }
  const raw = counted(fs.createReadStream(name, { highWaterMark: PEEK }), counter);
  if (!isGzip(magic)) {
    yield* raw;
    return;
  }
  // Counted before decompressing: progress compares what was read with the file's size.
  try {
    for await (const chunk of Readable.from(raw).pipe(zlib.createGunzip()) as AsyncIterable<Buffer>) yield chunk;
  } catch (err) {
    throw new Error(`${name}: not a readable gzip file (${(err as Error).message})`);
  }
}

/** Whether bytes begin as a gzip member does (RFC 1952 section 2.3.1: ID1 0x1f, ID2 0x8b). */
function isGzip(start: Buffer): boolean {
  return start.length >= 2 && start[0] === 0x1f && start[1] === 0x8b;
}

/** The text the start of a gzip file decompresses to, as far as it goes (enough to tell its kind). */
function gunzipHead(start: Buffer): string {
  try {
    return zlib.gunzipSync(start, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).subarray(0, PEEK).toString('utf8');
  } catch {
    // Not gzip after all: read as it is, and whatever reads it reports what is wrong.
    return start.toString('utf8');
  }
}

/**
 * The start of a content as text for {@link kindOf}: UTF-16 (by its byte
 * order mark, or `<` in two bytes) is decoded as such, so a UTF-16 XML file
 * is recognised as XML; anything else is read as UTF-8.
 */
function headText(b: Buffer): string {
  const le = (b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0x3c && b[1] === 0x00);
  const be = (b[0] === 0xfe && b[1] === 0xff) || (b[0] === 0x00 && b[1] === 0x3c);
  if (le || be) return new TextDecoder(le ? 'utf-16le' : 'utf-16be').decode(b);
  return b.toString('utf8');
}

/** The kind of a content by its first non-blank character (a UTF-8 BOM is skipped). */
export function kindOf(head: string): Exclude<InputKind, 'dc-folder'> {
  const c = head.replace(/^\uFEFF/, '').trimStart()[0];
  if (c === '<') return 'xml';
  if (c === '[') return 'json-array';
  return 'ndjson';
}

async function* counted(stream: fs.ReadStream, counter: ByteCounter): AsyncGenerator<Buffer> {
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    counter.bytesRead += chunk.length;
    yield chunk;
  }
}

/**
 * The `.xml` files of a folder, in code point order of their names, read
 * one at a time (a folder of oai_dc files: one record per file).
 *
 * The internal id of each record is its file name without `.xml`,
 * percent-decoded (`report%2012.xml` → `report 12`), so ids holding `/` or
 * other characters a file name cannot carry can still be given.
 *
 * @example for await (const f of folderFiles('export/')) …
 */
export async function* folderFiles(
  dir: string,
  counter: ByteCounter,
): AsyncGenerator<{ file: string; internalId: string | null; chunks: AsyncIterable<Buffer> }> {
  for (const file of await xmlFilesUnder(dir)) {
    yield { file, internalId: idOfFile(file), chunks: counted(fs.createReadStream(file, { highWaterMark: PEEK }), counter) };
  }
}

/**
 * The `.xml` files of a folder and of its subfolders, at any depth, in the
 * binary order of their paths below it (so a load reads them in the same
 * order wherever it runs). An export is often split into folders (by year,
 * by collection); each file is one record whatever folder it is in, named by
 * its own file name. A symbolic link to a folder is not followed (it could
 * lead back up the tree); one to a file is read.
 *
 * @example await xmlFilesUnder('export/') // ['export/2023/a.xml', 'export/b.xml']
 */
export async function xmlFilesUnder(dir: string): Promise<string[]> {
  const out: { rel: string; file: string }[] = [];
  const walk = async (sub: string): Promise<void> => {
    for (const e of await fs.promises.readdir(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub === '' ? e.name : `${sub}/${e.name}`;
      if (e.isDirectory()) await walk(rel);
      else if (e.name.endsWith('.xml') && (e.isFile() || e.isSymbolicLink())) out.push({ rel, file: path.join(dir, rel) });
    }
  };
  await walk('');
  return out.sort((a, b) => Buffer.compare(Buffer.from(a.rel), Buffer.from(b.rel))).map((f) => f.file);
}

/**
 * The internal id a bare metadata file names: its file name without `.xml`,
 * percent-decoded (so `report%2012.xml` is `report 12`); null when the name
 * is not valid percent-encoding.
 *
 * @example idOfFile('/data/report%2012.xml') // 'report 12'
 */
export function idOfFile(file: string): string | null {
  try {
    return decodeURIComponent(path.basename(file).replace(/\.xml$/i, ''));
  } catch {
    return null;
  }
}
