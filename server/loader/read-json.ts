/**
 * Streams JSON records out of an input: NDJSON (one JSON value per line,
 * blank lines skipped), one JSON array of records, or one pretty-printed
 * JSON object. The first two are not read whole:
 * NDJSON goes line by line, and an array is cut into its elements by a small
 * scanner that tracks strings and nesting, so memory holds one record.
 */
import readline from 'node:readline';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** One JSON record as read: its value, or why it could not be parsed. */
export type JsonEntry =
  | { readonly line: number; readonly number: number; readonly value: unknown }
  | { readonly line: number; readonly number: number; readonly error: string };

/** The most text one pretty-printed JSON document may hold (it is read whole, unlike NDJSON). */
export const MAX_JSON_DOCUMENT_BYTES = 64 * 1024 * 1024;

/**
 * Reads NDJSON: every non-blank line is one record. A file whose first
 * non-blank line is a lone `{` is one pretty-printed JSON object instead
 * (how DataCite's API and most tools print a record, and what a person saves
 * from a browser): it is read whole, up to {@link MAX_JSON_DOCUMENT_BYTES},
 * and is one record.
 *
 * @example for await (const e of readNdjson(fs.createReadStream('records.ndjson'))) …
 */
export async function* readNdjson(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<JsonEntry> {
  const rl = readline.createInterface({ input: Readable.from(chunks), crlfDelay: Infinity });
  let line = 0;
  let number = 0;
  let document: { start: number; text: string } | undefined;
  for await (const text of rl) {
    line++;
    const t = line === 1 ? text.replace(/^\uFEFF/, '') : text;
    if (document) {
      document.text += `${t}\n`;
      if (document.text.length > MAX_JSON_DOCUMENT_BYTES) {
        rl.close();
        yield { line: document.start, number: 1, error: `a JSON document longer than ${MAX_JSON_DOCUMENT_BYTES} bytes; split it into NDJSON, one record a line` };
        return;
      }
      continue;
    }
    if (t.trim() === '') continue;
    if (number === 0 && t.trim() === '{') {
      document = { start: line, text: `${t}\n` };
      continue;
    }
    number++;
    yield parse(t, line, number);
  }
  if (document) yield parse(document.text, document.start, 1);
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
export async function* readJsonArray(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<JsonEntry> {
  const decoder = new StringDecoder('utf8');
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
          continue;
        }
        if (c === '"') inString = true;
        else if (c === '{' || c === '[') depth++;
        else if (c === '}' || c === ']' || c === ',') {
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

  for await (const chunk of chunks) {
    const problem = scan(typeof chunk === 'string' ? chunk : decoder.write(chunk));
    yield* out.splice(0);
    if (problem) {
      yield { line, number: number + 1, error: problem };
      return;
    }
  }
  const problem = scan(decoder.end());
  yield* out.splice(0);
  if (problem) yield { line, number: number + 1, error: problem };
  else if ((state as string) !== 'after') yield { line, number: number + 1, error: 'the JSON array is not closed (the input ends early)' };
}
