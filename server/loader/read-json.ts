/**
 * Streams JSON records out of an input: NDJSON (one JSON value per line,
 * blank lines skipped), one JSON array of records, or one pretty-printed
 * JSON object. The first two are not read whole:
 * NDJSON goes line by line, and an array is cut into its elements by a small
 * scanner that tracks strings and nesting, so memory holds one record.
 */
import { bytesText, DEFAULT_READ_LIMITS, firstInvalidUtf8, jsonNestingExceeds, MAX_JSON_DEPTH, utf8Tail, type ReadLimits } from './limits';

/** One JSON record as read: its value, or why it could not be parsed. */
export type JsonEntry =
  { readonly line: number; readonly number: number; readonly value: unknown } | { readonly line: number; readonly number: number; readonly error: string };

/** The most text one pretty-printed JSON document may hold (it is read whole, unlike NDJSON). */
export const MAX_JSON_DOCUMENT_BYTES = 64 * 1024 * 1024;

/**
 * Reads NDJSON: every non-blank line is one record. A file whose first
 * non-blank line is a lone `{` is one pretty-printed JSON object instead
 * (how DataCite's API and most tools print a record, and what a person saves
 * from a browser): it is read whole, up to {@link MAX_JSON_DOCUMENT_BYTES},
 * and is one record.
 *
 * Lines are split on bytes, so a line longer than `limits.maxRecordBytes` is
 * refused (and skipped) without being held; a line that is not UTF-8 is
 * refused naming the byte; a record nested deeper than {@link MAX_JSON_DEPTH}
 * is refused before it is parsed.
 *
 * @example for await (const e of readNdjson(fs.createReadStream('records.ndjson'))) …
 */
export async function* readNdjson(chunks: AsyncIterable<Buffer | string>, limits: ReadLimits = DEFAULT_READ_LIMITS): AsyncGenerator<JsonEntry> {
  let line = 0;
  let number = 0;
  let document: { start: number; text: string } | undefined;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let tooLong = false;
  /** Offset in the input of the first byte of the line being read, and of the current chunk. */
  let lineStart = 0;
  let chunkStart = 0;

  const take = (bytes: Buffer): JsonEntry | 'document-too-long' | null => {
    line++;
    if (tooLong) {
      number++;
      return { line, number, error: `record ${number}: the line is longer than ${bytesText(limits.maxRecordBytes)} (maxRecordBytes)` };
    }
    let b = bytes;
    if (b.length > 0 && b[b.length - 1] === 0x0d) b = b.subarray(0, b.length - 1);
    if (line === 1 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) b = b.subarray(3);
    const bad = firstInvalidUtf8(b);
    if (bad >= 0) {
      number++;
      return {
        line,
        number,
        error: `record ${number}: byte ${bad + 1} of the line (byte ${lineStart + bad + 1} of the input) is not UTF-8; the input must be UTF-8 (RFC 8259 8.1)`,
      };
    }
    const t = b.toString('utf8');
    if (document) {
      document.text += `${t}\n`;
      return document.text.length > Math.min(MAX_JSON_DOCUMENT_BYTES, limits.maxRecordBytes) ? 'document-too-long' : null;
    }
    if (t.trim() === '') return null;
    if (number === 0 && t.trim() === '{') {
      document = { start: line, text: `${t}\n` };
      return null;
    }
    number++;
    return parseBounded(t, line, number);
  };

  const lines = async function* (): AsyncGenerator<Buffer> {
    for await (const chunk of chunks) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      let from = 0;
      for (;;) {
        const nl = b.indexOf(0x0a, from);
        const to = nl < 0 ? b.length : nl;
        if (nl >= 0 && !tooLong && pendingBytes === 0 && to - from <= limits.maxRecordBytes) {
          // A line within one chunk is taken as it stands (take() decodes it at once): no copy.
          yield b.subarray(from, to);
          lineStart = chunkStart + nl + 1;
          from = nl + 1;
          continue;
        }
        if (!tooLong) {
          if (pendingBytes + (to - from) > limits.maxRecordBytes) {
            // Not kept: the rest of this line is skipped, and the line refused when it ends.
            tooLong = true;
            pending = [];
            pendingBytes = 0;
          } else if (to > from) {
            pending.push(Buffer.from(b.subarray(from, to)));
            pendingBytes += to - from;
          }
        }
        if (nl < 0) break;
        const whole = Buffer.concat(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
        yield whole;
        tooLong = false;
        lineStart = chunkStart + nl + 1;
        from = nl + 1;
      }
      chunkStart += b.length;
    }
    if (pendingBytes > 0 || tooLong) yield Buffer.concat(pending, pendingBytes);
  };

  for await (const bytes of lines()) {
    const e = take(bytes);
    if (e === 'document-too-long') {
      const limit = Math.min(MAX_JSON_DOCUMENT_BYTES, limits.maxRecordBytes);
      yield {
        line: document?.start ?? line,
        number: 1,
        error: `record 1: a JSON document longer than ${bytesText(limit)}; split it into NDJSON, one record a line`,
      };
      return;
    }
    if (e !== null) yield e;
  }
  if (document) yield parseBounded(document.text, document.start, 1);
}

/** Parses one record's text, refusing first what nests deeper than {@link MAX_JSON_DEPTH}. */
function parseBounded(text: string, line: number, number: number): JsonEntry {
  if (jsonNestingExceeds(text, MAX_JSON_DEPTH))
    return { line, number, error: `record ${number}: arrays and objects nested deeper than ${MAX_JSON_DEPTH} levels` };
  return parse(text, line, number);
}

function parse(text: string, line: number, number: number): JsonEntry {
  try {
    return { line, number, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { line, number, error: `not valid JSON: ${(err as Error).message}` };
  }
}

/**
 * Reads one JSON array of records, element by element. Each element is
 * parsed on its own with JSON.parse; the scanner only finds where it ends.
 * Anything but an array at the top level, or a truncated array, is reported
 * as an error entry at the line where it was found.
 *
 * @example for await (const e of readJsonArray(fs.createReadStream('records.json'))) …
 */
export async function* readJsonArray(chunks: AsyncIterable<Buffer | string>, limits: ReadLimits = DEFAULT_READ_LIMITS): AsyncGenerator<JsonEntry> {
  let carry: Buffer = Buffer.alloc(0);
  let offset = 0;
  let state: 'before' | 'between' | 'element' | 'after' = 'before';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let buf = '';
  let line = 1;
  let startLine = 1;
  let number = 0;
  let expectValue = true;
  const out: JsonEntry[] = [];

  const scan = (s: string): string | null => {
    for (let i = 0; i < s.length; i++) {
      const c = s[i] as string;
      if (c === '\n') line++;
      if (state === 'element') {
        if (inString) {
          if (escaped) escaped = false;
          else if (c === '\\') escaped = true;
          else if (c === '"') inString = false;
          buf += c;
          if (buf.length > limits.maxRecordBytes)
            return `record ${number + 1}, starting on line ${startLine}, is longer than ${bytesText(limits.maxRecordBytes)} (maxRecordBytes)`;
          continue;
        }
        if (c === '"') inString = true;
        else if (c === '{' || c === '[') {
          if (++depth > MAX_JSON_DEPTH) return `record ${number + 1}: arrays and objects nested deeper than ${MAX_JSON_DEPTH} levels`;
        } else if (c === '}' || c === ']' || c === ',') {
          if (depth === 0) {
            // The element ends here; `,` or `]` belongs to the array.
            out.push(parse(buf, startLine, ++number));
            buf = '';
            state = c === ']' ? 'after' : 'between';
            expectValue = c === ',';
            continue;
          }
          if (c !== ',') depth--;
        }
        buf += c;
        // A JavaScript string's length counts UTF-16 units: at most the UTF-8 bytes of the same text.
        if (buf.length > limits.maxRecordBytes)
          return `record ${number + 1}, starting on line ${startLine}, is longer than ${bytesText(limits.maxRecordBytes)} (maxRecordBytes)`;
        continue;
      }
      if (c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\uFEFF') continue;
      if (state === 'before') {
        if (c !== '[') return `the input is not a JSON array (it starts with ${JSON.stringify(c)})`;
        state = 'between';
        expectValue = true;
      } else if (state === 'between') {
        if (c === ']' && !(expectValue && number > 0)) {
          state = 'after';
        } else if (c === ',' && !expectValue) {
          expectValue = true;
        } else if (expectValue) {
          state = 'element';
          startLine = line;
          depth = 0;
          buf = '';
          expectValue = false;
          i--; // read the first character again as part of the element
          if (c === '\n') line--;
        } else {
          return `expected , or ] between records, found ${JSON.stringify(c)}`;
        }
      } else {
        return `unexpected ${JSON.stringify(c)} after the end of the array`;
      }
    }
    return null;
  };

  /** The chunk's text, UTF-8 checked (a sequence the chunk cuts off waits for the next); or why not. */
  const decode = (chunk: Buffer | string, last: boolean): { text: string } | { problem: string } => {
    if (typeof chunk === 'string') return { text: chunk };
    const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const keep = last ? 0 : utf8Tail(bytes);
    const whole = bytes.subarray(0, bytes.length - keep);
    const bad = firstInvalidUtf8(whole);
    if (bad >= 0) {
      const lineOfBad = line + (whole.subarray(0, bad).toString('utf8').match(/\n/g)?.length ?? 0);
      return { problem: `line ${lineOfBad}: byte ${offset + bad + 1} of the input is not UTF-8; the input must be UTF-8 (RFC 8259 8.1)` };
    }
    carry = Buffer.from(bytes.subarray(bytes.length - keep));
    offset += whole.length;
    return { text: whole.toString('utf8') };
  };
  for await (const chunk of chunks) {
    const text = decode(chunk, false);
    const problem = 'problem' in text ? text.problem : scan(text.text);
    yield* out.splice(0);
    if (problem) {
      yield { line, number: number + 1, error: problem };
      return;
    }
  }
  const rest = decode(Buffer.alloc(0), true);
  const problem = 'problem' in rest ? rest.problem : scan(rest.text);
  yield* out.splice(0);
  if (problem) yield { line, number: number + 1, error: problem };
  else if ((state as string) !== 'after') yield { line, number: number + 1, error: 'the JSON array is not closed (the input ends early)' };
}
