/**
 * The file a staged write keeps its plans in (./staging.ts), and the thread
 * that writes it.
 *
 * A batch's plan is its head (everything but the records' XML, serialized
 * by V8), then each record's XML as UTF-8, then, when the store keeps a
 * publication log, each record's log hash (the hex SHA-256 of its exclusive
 * C14N, lib/tlog/verify.ts `servedRecordHash`):
 *
 *     u32 head length, u32 XML count, u32 flags (1: hashes follow),
 *     u32 × count: each XML's UTF-8 length,
 *     the head, the XML, 64 × count bytes of hex hashes
 *
 * Deciding keeps the loader's thread busy. Canonicalizing and hashing each
 * record and writing the file needs nothing the decision needs, and was
 * 12 of the 91 seconds that thread spent on a load of 100,000 records
 * (bench records, six formats). So from a write's second batch on, a thread
 * of its own does it, on the machine's other core, while the next batch is
 * decided; the loader's thread only encodes the batch into memory that
 * moves to that thread and back, never copied. A write's first batch is
 * written here, so a small write starts no thread. The thread is at most
 * {@link IN_FLIGHT} batches behind, writes batches in the order they come,
 * and ends before the batches are applied.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { servedRecordHash } from '../../lib/tlog/verify';
import { Utf8Text } from '../db/dialect/values';

/** Where a batch's plan is in the file. */
export interface StagedPlace {
  readonly at: number;
  readonly length: number;
}

/** A batch's plan read back: its head, each XML as the bytes it was written as, and the log hashes if taken. */
export interface StagedBatchBytes {
  readonly head: Buffer;
  readonly xml: readonly Utf8Text[];
  readonly logHashes: readonly string[] | null;
}

/** Batches handed to the writing thread and not yet written, at most: memory holds this many encoded plans besides the one being decided. */
const IN_FLIGHT = 3;
const HASH_HEX = 64;
const HAS_HASHES = 1;

/** What the writing thread is started with. */
interface WriterData {
  readonly role: 'oai-steward-staging-writer';
  readonly fd: number;
  /** Where its first batch goes: after the ones written on the loader's thread. */
  readonly at: number;
}

/** A batch asked of the writing thread (encoded, its hashes to be taken), and its answer. */
interface WriteAsk {
  readonly bytes: Uint8Array;
}
/** Where the batch went, and its bytes' memory back, to encode another batch into. */
type WriteAnswer = { readonly place: StagedPlace; readonly bytes: Uint8Array } | { readonly error: { readonly message: string; readonly code?: string } };

/**
 * A batch's plan as the file holds it (see the file's comment), but for the
 * log hashes, which {@link writeBatch} takes from the XML written here: on
 * the writing thread, where it is one.
 */
function encodeBatch(head: Uint8Array, xml: readonly string[], hash: boolean, into: Buffer | undefined): Buffer {
  const lengths = xml.map((x) => Buffer.byteLength(x));
  const preamble = 4 * (3 + xml.length);
  const total = preamble + head.length + lengths.reduce((a, b) => a + b, 0);
  // Memory of its own (allocUnsafeSlow, never a view of a shared pool), to move to the writing thread and back.
  const bytes = (into !== undefined && into.length >= total ? into : Buffer.allocUnsafeSlow(Math.max(total, 2 * (into?.length ?? 0)))).subarray(0, total);
  bytes.writeUInt32LE(head.length, 0);
  bytes.writeUInt32LE(xml.length, 4);
  bytes.writeUInt32LE(hash ? HAS_HASHES : 0, 8);
  lengths.forEach((n, i) => bytes.writeUInt32LE(n, 12 + 4 * i));
  bytes.set(head, preamble);
  let at = preamble + head.length;
  for (const x of xml) at += bytes.write(x, at, 'utf8');
  if (at !== total) throw new Error(`a staged batch encoded to ${at} bytes, not the ${total} measured`);
  return bytes;
}

/**
 * Writes an encoded batch whole at `at`, followed by its log hashes when
 * its head asks for them; returns its length in the file. A regular file
 * takes a whole write or fails (ENOSPC); anything less would be read back
 * wrong.
 */
function writeBatch(fd: number, bytes: Buffer, at: number): number {
  const count = bytes.readUInt32LE(4);
  let tail = Buffer.alloc(0);
  if ((bytes.readUInt32LE(8) & HAS_HASHES) !== 0) {
    tail = Buffer.allocUnsafe(HASH_HEX * count);
    let x = 4 * (3 + count) + bytes.readUInt32LE(0);
    for (let i = 0; i < count; i++) {
      const n = bytes.readUInt32LE(12 + 4 * i);
      tail.write(servedRecordHash(bytes.toString('utf8', x, x + n)), HASH_HEX * i, 'latin1');
      x += n;
    }
  }
  const length = bytes.length + tail.length;
  const wrote = fs.writevSync(fd, [bytes, tail], at);
  if (wrote !== length) throw new Error(`the staging file beside the store took ${wrote} of ${length} bytes`);
  return length;
}

/** The batch {@link encodeBatch} wrote; its XML and head are views of `bytes`. */
function decodeBatch(bytes: Buffer): StagedBatchBytes {
  const fail = (why: string): never => {
    throw new Error(`a staged batch read back from the staging file is not as written: ${why}`);
  };
  if (bytes.length < 12) fail(`${bytes.length} bytes`);
  const headLength = bytes.readUInt32LE(0);
  const count = bytes.readUInt32LE(4);
  const hashed = (bytes.readUInt32LE(8) & HAS_HASHES) !== 0;
  const preamble = 4 * (3 + count);
  if (bytes.length < preamble + headLength) fail(`${bytes.length} bytes, its head ends at ${preamble + headLength}`);
  const xml: Utf8Text[] = [];
  let at = preamble + headLength;
  for (let i = 0; i < count; i++) {
    const n = bytes.readUInt32LE(12 + 4 * i);
    xml.push(new Utf8Text(bytes.subarray(at, at + n)));
    at += n;
  }
  const logHashes: string[] | null = hashed ? [] : null;
  for (let i = 0; logHashes !== null && i < count; i++, at += HASH_HEX) logHashes.push(bytes.toString('latin1', at, at + HASH_HEX));
  if (at !== bytes.length) fail(`${bytes.length} bytes, its parts end at ${at}`);
  return { head: bytes.subarray(preamble, preamble + headLength), xml, logHashes };
}

/** An error as it crosses threads: its message and its code (ENOSPC is reported as a full disk, ../db/errors.ts). */
function errorOf(e: { readonly message: string; readonly code?: string }): Error {
  return Object.assign(new Error(e.message), e.code === undefined ? {} : { code: e.code });
}

/**
 * The staging file of one write: made in `folder` and unlinked at once, so
 * the system removes it when the process ends, however it ends.
 */
export class StagingFile {
  private readonly fd: number;
  private size = 0;
  private worker: Worker | undefined;
  /** Why the writing thread stopped, once it has. */
  private failure: Error | undefined;
  /** The answers awaited from the writing thread, oldest first. */
  private readonly waiting: { resolve(p: StagedPlace): void; reject(e: Error): void }[] = [];
  private readonly inFlight: Promise<StagedPlace>[] = [];
  /**
   * Memory to encode batches into, come back from the writing thread: reused, for memory a batch had
   * freed only when the other thread's collector ran would grow by megabytes a batch meanwhile.
   */
  private readonly spare: Buffer[] = [];
  private closed = false;
  private buffer: Buffer = Buffer.alloc(0);

  constructor(folder: string) {
    const dir = fs.mkdtempSync(path.join(folder, '.oai-steward-staged-'));
    const file = path.join(dir, 'plans');
    this.fd = fs.openSync(file, 'w+', 0o600);
    fs.unlinkSync(file);
    fs.rmdirSync(dir);
  }

  /**
   * Stages a batch's plan: its head, its records' XML, their log hashes
   * when `hash`. Returns where it will be, once written; waits while the
   * writing thread is {@link IN_FLIGHT} batches behind, and throws its
   * failure, if any, then.
   */
  async append(head: Uint8Array, xml: readonly string[], hash: boolean): Promise<{ readonly place: Promise<StagedPlace> }> {
    const bytes = encodeBatch(head, xml, hash, this.spare.pop());
    if (this.size === 0 && this.worker === undefined) {
      this.size = writeBatch(this.fd, bytes, 0);
      this.spare.push(Buffer.from(bytes.buffer as ArrayBuffer));
      return { place: Promise.resolve({ at: 0, length: this.size }) };
    }
    while (this.inFlight.length >= IN_FLIGHT) await this.inFlight.shift();
    if (this.failure) throw this.failure;
    const worker = (this.worker ??= this.startWorker());
    const place = new Promise<StagedPlace>((resolve, reject) => this.waiting.push({ resolve, reject }));
    // Awaited by whoever reads the batch, and by the waits above; never an unhandled rejection before.
    place.catch(() => undefined);
    this.inFlight.push(place);
    // The bytes move to the thread, not copied, and come back with the answer.
    worker.postMessage({ bytes } satisfies WriteAsk, [bytes.buffer as ArrayBuffer]);
    return { place };
  }

  /**
   * Waits for every batch appended to be written, and ends the writing
   * thread: what it held is not held while the batches are applied. Throws
   * why a batch was not written.
   */
  async flushed(): Promise<void> {
    for (const place of this.inFlight.splice(0)) await place;
    if (this.failure) throw this.failure;
    const worker = this.worker;
    this.worker = undefined;
    this.spare.length = 0;
    await worker?.terminate();
  }

  private startWorker(): Worker {
    const data: WriterData = { role: 'oai-steward-staging-writer', fd: this.fd, at: this.size };
    // From the TypeScript sources (tests run through tsx) the worker needs tsx's loader too.
    const fromSource = __filename.endsWith('.ts');
    const worker = new Worker(__filename, { workerData: data, ...(fromSource && { execArgv: ['--require', 'tsx/cjs'] }) });
    const stop = (err: Error): void => {
      this.failure ??= err;
      for (const w of this.waiting.splice(0)) w.reject(this.failure);
    };
    worker.on('message', (answer: WriteAnswer) => {
      const w = this.waiting.shift();
      if ('place' in answer) {
        this.spare.push(Buffer.from(answer.bytes.buffer as ArrayBuffer));
        this.size = answer.place.at + answer.place.length;
        w?.resolve(answer.place);
      } else {
        const err = errorOf(answer.error);
        w?.reject(err);
        stop(err);
      }
    });
    worker.on('error', stop);
    worker.on('exit', (code: number) => {
      if (!this.closed && this.worker === worker) stop(new Error(`the thread writing the staging file stopped (exit status ${code})`));
    });
    return worker;
  }

  /**
   * The batch at `place`: its parts are views of one buffer, read into again
   * at the next read, so a batch is used before the next is read (SQLite
   * copies what it binds). One buffer for every batch: a new one each would
   * be memory outside the heap, which the collector counts late.
   */
  read(place: StagedPlace): StagedBatchBytes {
    if (this.buffer.length < place.length) this.buffer = Buffer.allocUnsafeSlow(Math.max(place.length, 2 * this.buffer.length));
    const read = fs.readSync(this.fd, this.buffer, 0, place.length, place.at);
    if (read !== place.length) throw new Error(`the staging file beside the store gave back ${read} of ${place.length} bytes`);
    return decodeBatch(this.buffer.subarray(0, place.length));
  }

  /** Ends the writing thread and closes the file (freeing what it held). */
  async close(): Promise<void> {
    this.closed = true;
    await this.worker?.terminate();
    // Closing the last descriptor of an unlinked file frees its pages: a second or so for a load of 100,000 records,
    // left to the thread pool.
    fs.close(this.fd, () => undefined);
  }
}

/** The writing thread: writes each batch asked, in order, at the end of the file, and answers where. */
function serveWrites(data: WriterData): void {
  const port = parentPort;
  if (!port) return;
  let at = data.at;
  port.on('message', (ask: WriteAsk) => {
    try {
      const length = writeBatch(data.fd, Buffer.from(ask.bytes.buffer, ask.bytes.byteOffset, ask.bytes.byteLength), at);
      port.postMessage({ place: { at, length }, bytes: ask.bytes } satisfies WriteAnswer, [ask.bytes.buffer as ArrayBuffer]);
      at += length;
    } catch (err) {
      const e = err as { message?: unknown; code?: unknown };
      port.postMessage({
        error: { message: String(e.message ?? err), ...(typeof e.code === 'string' && { code: e.code }) },
      } satisfies WriteAnswer);
    }
  });
}

if (!isMainThread && (workerData as Partial<WriterData> | null)?.role === 'oai-steward-staging-writer') serveWrites(workerData as WriterData);
