/**
 * What reading an input may cost, whatever the input: the bounds every
 * reader keeps, and the byte-level checks they share (UTF-8, JSON nesting).
 * Each bound is checked as the input is read, in time linear in its size,
 * so a hostile file is refused after reading at most one record past the
 * bound, never expanded or parsed whole first (docs/security.md says what
 * each refusal means, and what memory a load holds).
 */
import { isUtf8 } from 'node:buffer';

/** The bounds of reading. */
export interface ReadLimits {
  /**
   * The largest record read, in bytes: an NDJSON line, an element of a JSON
   * array, a pretty-printed JSON document, the metadata (or an about
   * container, or a set description) of an XML record, and any text of an
   * OAI-PMH header. Configurable (`maxRecordBytes`).
   */
  readonly maxRecordBytes: number;
}

/** The default largest record: far above any real record (a long MODS or MARC record is about 100 KB). */
export const DEFAULT_MAX_RECORD_BYTES = 8 * 1024 * 1024;

/** The bounds a load keeps unless the configuration says otherwise. */
export const DEFAULT_READ_LIMITS: ReadLimits = Object.freeze({ maxRecordBytes: DEFAULT_MAX_RECORD_BYTES });

/**
 * Input bytes one batch of records may take, whatever its count: a batch
 * ends at `--batch-size` records or once this much more of the input has been
 * read, so large records make smaller batches and a load holds about two
 * batches of input at once (bytes as read: a gzip file's compressed).
 */
export const MAX_BATCH_INPUT_BYTES = 16 * 1024 * 1024;

/**
 * The deepest nesting of XML elements read, counting from the document's
 * root (the OAI-PMH envelope takes 5 levels). libxml2's own default limit;
 * real metadata nests fewer than 20.
 */
export const MAX_XML_DEPTH = 256;

// The bounds on one element's attributes and namespace declarations are the store's too (its fragment check keeps them).
export { MAX_XML_ATTRIBUTES, MAX_XML_NAMESPACES } from '../../lib/xml/bounds';

/** The deepest nesting of JSON arrays and objects in one record (the record format nests 4). */
export const MAX_JSON_DEPTH = 64;

/**
 * The offset of the first byte of `buf` that is not part of a well-formed
 * UTF-8 sequence (RFC 3629 section 4: no overlong forms, no surrogates,
 * nothing above U+10FFFF), or -1 when every byte is. With `partialEnd`, a
 * sequence cut off by the end of `buf` is not an error (the next chunk may
 * complete it); see {@link utf8Tail}.
 *
 * @example firstInvalidUtf8(Buffer.from([0x63, 0x61, 0x66, 0xe9])) // 3
 */
export function firstInvalidUtf8(buf: Uint8Array, partialEnd = false): number {
  if (!partialEnd && isUtf8(buf)) return -1;
  let i = 0;
  const n = buf.length;
  while (i < n) {
    const b = buf[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    if (i + need >= n) {
      // Cut off by the end of the buffer: an error unless the next chunk may complete it.
      if (!partialEnd) return i;
      for (let k = 1; i + k < n; k++) if (((buf[i + k] as number) & 0xc0) !== 0x80) return i;
      return -1;
    }
    let cp = b & (0xff >> (need + 2));
    for (let k = 1; k <= need; k++) {
      const c = buf[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/**
 * How many bytes at the end of `buf` begin a UTF-8 sequence the buffer cuts
 * off (0 to 3): what a streaming reader keeps for the next chunk.
 *
 * @example utf8Tail(Buffer.from([0x61, 0xc3])) // 1
 */
export function utf8Tail(buf: Uint8Array): number {
  for (let k = 1; k <= 3 && k <= buf.length; k++) {
    const b = buf[buf.length - k] as number;
    if ((b & 0xc0) === 0x80) continue;
    const len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return len > k ? k : 0;
  }
  return 0;
}

/**
 * Whether the JSON text nests arrays and objects deeper than `max`, found in
 * one pass that skips strings (so a record is refused before JSON.parse
 * and the readers behind it recurse into it).
 *
 * @example jsonNestingExceeds('[[[1]]]', 2) // true
 */
export function jsonNestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** A size for messages: `8388608 bytes (8 MiB)`. */
export function bytesText(n: number): string {
  return n >= 1024 * 1024 && n % (1024 * 1024) === 0 ? `${n} bytes (${n / 1024 / 1024} MiB)` : `${n} bytes`;
}
