/**
 * Sending a document that is written as it is read from the store: its
 * validators first (`ETag`, `Last-Modified`), a `304 Not Modified` when the
 * client's copy is current (RFC 9110 section 13), else the body streamed
 * with backpressure, gzip- or deflate-encoded when the client accepts it.
 * Memory holds one piece of the body at a time, however long the document.
 * Used by the ResourceSync documents and the sitemap.
 */
import crypto from 'node:crypto';
import { pipeline, type Writable } from 'node:stream';
import zlib from 'node:zlib';
import type { Request, Response } from 'express';
import { chooseCoding } from './encoding';

/** Where a document's body is written, a piece at a time. */
export interface Output {
  /** Appends text (UTF-8); gathered into larger writes. */
  text(piece: string): Promise<void>;
  /** Appends bytes. */
  bytes(chunk: Buffer): Promise<void>;
}

/** A document ready to be sent: how to describe it, and how to write it. */
export interface Served {
  readonly type: string;
  /** An entity tag, quoted, weak (`W/"…"`) when the bytes may differ while the content is the same. */
  readonly etag: string;
  /** Seconds; none for a document that is not made from the store. */
  readonly lastModified?: number;
  /** Whether a content coding may be applied (not to ZIP packages, nor to records, whose length and MD5 are advertised). */
  readonly compressible: boolean;
  /** The length of the body, when known before it is written. */
  readonly length?: number;
  write(out: Output): Promise<void>;
}

/** What a request gets: a document, or a plain-text reason it has none. */
export type Answer = Served | { readonly status: 404 | 410; readonly message: string };

/**
 * A weak entity tag of what a document is made of, given as the pieces that
 * decide its content (not its bytes: those carry the time it was made).
 *
 * @example weakTag(['resourcelist', 'oai_dc', 3]) // 'W/"…"'
 */
export function weakTag(pieces: readonly (string | number)[]): string {
  return `W/"${crypto.createHash('sha256').update(JSON.stringify(pieces)).digest('base64url').slice(0, 27)}"`;
}

/** Collects the fingerprint of rows as they are read, for {@link weakTag}-like tags of long documents. */
export class Fingerprint {
  private readonly hash = crypto.createHash('sha256');
  private latest = 0;

  /** Adds one row: what decides its part of the document, and its time (for Last-Modified). */
  add(row: string, time: number): void {
    this.hash.update(row).update('\n');
    if (time > this.latest) this.latest = time;
  }

  /** The weak tag and the latest time of everything added. */
  finish(): { etag: string; lastModified: number } {
    return { etag: `W/"${this.hash.digest('base64url').slice(0, 27)}"`, lastModified: this.latest };
  }
}

/** How {@link send} encodes. */
export interface SendOptions {
  /** The content codings offered besides identity (the repository's). */
  readonly codings: readonly ('gzip' | 'deflate')[];
  readonly level: number;
}

/**
 * Sends an answer: a plain-text status, a 304, the headers alone for HEAD,
 * or the document streamed. An error while streaming destroys the response
 * (the headers are gone) and is rethrown for the app's error handler.
 */
export async function send(req: Request, res: Response, answer: Answer, o: SendOptions): Promise<void> {
  if ('status' in answer) {
    res.status(answer.status).type('text/plain').send(answer.message);
    return;
  }
  res.set({ ETag: answer.etag, 'Cache-Control': 'no-cache' });
  if (answer.lastModified !== undefined) res.set('Last-Modified', httpDate(answer.lastModified));
  if (answer.compressible) res.set('Vary', 'Accept-Encoding');
  if (notModified(req, answer.etag, answer.lastModified)) {
    res.status(304).end();
    return;
  }
  const coding = answer.compressible ? chooseCoding(req.headers['accept-encoding'], o.codings) : 'identity';
  res.status(200).set('Content-Type', answer.type);
  if (coding !== 'identity') res.set('Content-Encoding', coding);
  else if (answer.length !== undefined) res.set('Content-Length', String(answer.length));
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  let sink: Writable = res;
  let done: Promise<void> | undefined;
  if (coding !== 'identity') {
    const encoder = coding === 'gzip' ? zlib.createGzip({ level: o.level }) : zlib.createDeflate({ level: o.level });
    done = new Promise((resolve, reject) => pipeline(encoder, res, (err) => (err ? reject(err) : resolve())));
    // Awaited after the writing; until then a failure shows as the encoder closing.
    done.catch(() => undefined);
    sink = encoder;
  }
  const out = new StreamOutput(sink);
  try {
    await answer.write(out);
    await out.end();
    await done;
  } catch (err) {
    // A client that went away is no failure of ours.
    const gone = err instanceof ClosedError || (err as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE' || res.destroyed;
    res.destroy();
    if (!gone) throw err;
  }
}

/**
 * RFC 9110 section 13.2.2: If-None-Match first (weak comparison, section
 * 8.8.3.2), and only without it If-Modified-Since.
 */
export function notModified(req: Request, etag: string, lastModified: number | undefined): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const inm = req.headers['if-none-match'];
  if (inm !== undefined) {
    const opaque = etag.replace(/^W\//, '');
    return inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === opaque);
  }
  const ims = req.headers['if-modified-since'];
  if (ims === undefined || lastModified === undefined) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && lastModified <= Math.floor(since / 1000);
}

/** An IMF-fixdate (RFC 9110 section 5.6.7). @example httpDate(0) // 'Thu, 01 Jan 1970 00:00:00 GMT' */
export function httpDate(seconds: number): string {
  return new Date(seconds * 1000).toUTCString();
}

/** The client went away before the document was written. */
class ClosedError extends Error {
  constructor() {
    super('the client closed the connection');
  }
}

/** Text is gathered up to this many characters before it is written. */
const GATHER = 64 * 1024;

class StreamOutput implements Output {
  private pending = '';

  constructor(private readonly sink: Writable) {}

  async text(piece: string): Promise<void> {
    this.pending += piece;
    if (this.pending.length >= GATHER) await this.flush();
  }

  async bytes(chunk: Buffer): Promise<void> {
    await this.flush();
    await this.put(chunk);
  }

  async end(): Promise<void> {
    await this.flush();
    if (this.sink.destroyed) throw new ClosedError();
    await new Promise<void>((resolve) => this.sink.end(resolve));
  }

  private async flush(): Promise<void> {
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    await this.put(Buffer.from(text, 'utf8'));
  }

  /** Writes a chunk, waiting for the sink to drain when it asks to; a closed sink ends the writing. */
  private put(chunk: Buffer): Promise<void> {
    const sink = this.sink;
    if (sink.destroyed || sink.writableEnded) return Promise.reject(new ClosedError());
    if (sink.write(chunk)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const drained = (): void => {
        sink.off('close', closed);
        resolve();
      };
      const closed = (): void => {
        sink.off('drain', drained);
        reject(new ClosedError());
      };
      sink.once('drain', drained);
      sink.once('close', closed);
    });
  }
}
