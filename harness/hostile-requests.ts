/**
 * The hostile-request fuzzer:
 * random verbs, argument names and values (empty, huge, repeated, control
 * characters, invalid UTF-8 and percent-encodings, XML metacharacters,
 * array/object-looking keys such as `a[b]=c`, `__proto__`), GET and POST,
 * odd content types, as fast-check arbitraries, and the judge of an answer:
 * HTTP 200 with an XSD-valid OAI-PMH document, or a documented refusal of
 * oversized input (414 for a query over MAX_QUERY_BYTES, 413 for a body over
 * MAX_REQUEST_BYTES, 431 from Node for a request head over 16 KiB). Never a
 * 5xx, never malformed XML.
 *
 * Shared by test/reliability/fuzz.test.ts (a bounded number of cases in the
 * suite) and bench/fuzz.ts (the long run).
 */
import http from 'node:http';
import { httpRequest } from './http-request';
import fc from 'fast-check';
import { MAX_QUERY_BYTES, MAX_REQUEST_BYTES } from '../server/app';

/** One request to send. */
export interface HostileRequest {
  readonly method: 'GET' | 'POST';
  /** The query string, ASCII (what a client can put on a request line). */
  readonly query: string;
  /** The POST body, any bytes; undefined for GET. */
  readonly body?: Buffer;
  readonly contentType?: string;
  readonly acceptEncoding?: string;
}

const VERBS = ['Identify', 'ListMetadataFormats', 'ListSets', 'ListIdentifiers', 'ListRecords', 'GetRecord'];
const NAMES = ['verb', 'metadataPrefix', 'identifier', 'set', 'from', 'until', 'resumptionToken'];
const ODD_NAMES = ['a[b]', 'verb[]', 'verb[0]', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'verb.x', '', ' verb', 'VERB', 'Verb'];

/** Argument values worth trying, as the decoded text the client means to send. */
const valueText = fc.oneof(
  fc.constantFrom(
    '',
    'oai_dc',
    'oai_DC',
    'physics',
    'physics:hep',
    'no:such:set',
    '2024-01-01',
    '2024-01-01T00:00:00Z',
    '2024-13-45',
    '2024-01-01T25:61:61Z',
    '0000-00-00',
    '9999-12-31T23:59:59Z',
    '1.e30.AAAA',
    '1..',
    'oai:demo.oai-steward.org:report%2012',
    'oai:demo.oai-steward.org:a%3Cb',
    'oai:demo.oai-steward.org:100%25%20pure',
    'oai:demo.oai-steward.org:%zz',
    'oai:other.org:x',
    ']]>',
    '</request></OAI-PMH>',
    '<!DOCTYPE x [<!ENTITY a "b">]>&a;',
    '&amp;&lt;&#0;&#xFFFE;',
    '"\'<>&',
    '__proto__',
    'constructor',
    '{"a":1}',
    '\u0000\u0001\u0008\u000B\u001F',
    '\uFFFE\uFFFF',
    '\uD800',
    '\uDFFF\uD800',
    '日本語資料',
    '\u202E\u200B',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer({ min: 1000, max: 6000 }).map((n) => 'x'.repeat(n)),
);

/** Percent-encodes every UTF-8 byte of a string that is not unreserved. */
function encode(s: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
}

/** Fragments that are not a clean encoding: bad escapes, bytes that are not UTF-8, raw metacharacters. */
const rawFragment = fc.constantFrom(
  '%',
  '%G1',
  '%2',
  '%%',
  '%C3%28',
  '%ED%A0%80',
  '%FF%FE',
  '%C0%AF',
  '%00',
  '%0A',
  '+',
  '++',
  '=',
  '==',
  '&',
  ';',
  '%26',
  '%3D',
  '<',
  '>',
  '"',
  "'",
  '[',
  ']',
  '{',
  '}',
  '|',
  '\\',
  '^',
  '`',
  '#',
);

/** One `name=value` pair, encoded cleanly or not, or a bare name. */
const pair = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...NAMES), valueText).map(([n, v]) => `${n}=${encode(v)}`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...ODD_NAMES), valueText).map(([n, v]) => `${encode(n)}=${encode(v)}`) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...NAMES, ...ODD_NAMES), fc.array(rawFragment, { minLength: 1, maxLength: 3 }))
      .map(([n, fs]) => `${encode(n)}=${fs.join('')}`),
  },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 })).map(([n, v]) => `${encode(n)}=${encode(v)}`) },
  { weight: 1, arbitrary: fc.constantFrom(...NAMES, ...ODD_NAMES, '', '&', '=').map((n) => (n === '&' || n === '=' ? n : encode(n))) },
);

/** A verb argument first, mostly a legal one, so the requests reach every verb's argument checks. */
const verbPair = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...VERBS).map((v) => `verb=${v}`) },
  { weight: 1, arbitrary: valueText.map((v) => `verb=${encode(v)}`) },
  { weight: 1, arbitrary: fc.constant('') },
);

/** A whole argument string: a verb, then up to six more pairs (repeats happen). */
export const argumentString = fc
  .tuple(verbPair, fc.array(pair, { maxLength: 6 }), fc.constantFrom('&', '&', '&', ';', '&&'))
  .map(([v, rest, sep]) => [v, ...rest].filter((p) => p !== '').join(sep));

/** A request: GET with the arguments in the query, or POST with them in the body (sometimes split, sometimes with an odd type). */
export const hostileRequest: fc.Arbitrary<HostileRequest> = fc.oneof(
  fc
    .tuple(argumentString, fc.constantFrom(undefined, 'gzip', 'deflate', 'br', 'gzip;q=0, identity;q=0', '*'))
    .map(([query, acceptEncoding]): HostileRequest => ({ method: 'GET', query, ...(acceptEncoding !== undefined && { acceptEncoding }) })),
  fc
    .tuple(
      argumentString,
      fc.constantFrom(
        'application/x-www-form-urlencoded',
        'application/x-www-form-urlencoded; charset=UTF-8',
        'APPLICATION/X-WWW-FORM-URLENCODED',
        'text/plain',
        'application/json',
        'multipart/form-data; boundary=x',
        'application/xml',
        '',
        undefined,
      ),
      fc.boolean(),
      fc.option(fc.uint8Array({ maxLength: 64 }), { nil: undefined }),
    )
    .map(([args, contentType, split, junk]): HostileRequest => {
      const cut = split ? args.indexOf('&') : -1;
      const query = cut > 0 ? args.slice(0, cut) : '';
      const bodyText = cut > 0 ? args.slice(cut + 1) : args;
      const body = junk ? Buffer.concat([Buffer.from(bodyText, 'latin1'), Buffer.from(junk)]) : Buffer.from(bodyText, 'latin1');
      return { method: 'POST', query, body, ...(contentType !== undefined && { contentType }) };
    }),
);

/** Node's default limit on a request head (request line and headers). */
export const NODE_MAX_HEADER_BYTES = 16 * 1024;

/** An answer as received. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** Sends a hostile request to 127.0.0.1:port/oai. */
export function send(port: number, r: HostileRequest, path = '/oai'): Promise<RawAnswer> {
  const headers: http.OutgoingHttpHeaders = {};
  if (r.contentType !== undefined) headers['Content-Type'] = r.contentType;
  if (r.acceptEncoding !== undefined) headers['Accept-Encoding'] = r.acceptEncoding;
  return httpRequest({ port, method: r.method, path: r.query === '' ? path : `${path}?${r.query}`, headers, ...(r.body !== undefined && { body: r.body }) });
}

/** Why an answer is not acceptable for the request, or null when it is. `xsdErrors` validates a document against OAI-PMH.xsd. */
export function judge(r: HostileRequest, a: RawAnswer, xsdErrors: (xml: string) => readonly string[]): string | null {
  const head = r.query.length + 200;
  if (a.status === 431) return head > NODE_MAX_HEADER_BYTES - 1024 ? null : `431 for a ${head}-byte head`;
  if (a.status === 414) return r.query.length > MAX_QUERY_BYTES ? null : `414 for a ${r.query.length}-byte query`;
  if (a.status === 413) return (r.body?.length ?? 0) > MAX_REQUEST_BYTES ? null : `413 for a ${r.body?.length ?? 0}-byte body`;
  if (a.status !== 200) return `HTTP ${a.status}: ${a.body.slice(0, 300)}`;
  if (!/^text\/xml; charset=utf-8$/i.test(String(a.headers['content-type']))) return `Content-Type ${String(a.headers['content-type'])}`;
  const errors = xsdErrors(a.body);
  return errors.length === 0 ? null : `not XSD-valid: ${errors.slice(0, 5).join('; ')}\n${a.body.slice(0, 1500)}`;
}

/** Describes a request for a failure message. */
export function describeRequest(r: HostileRequest): string {
  return `${r.method} ?${JSON.stringify(r.query)}${r.body ? ` body ${JSON.stringify(r.body.toString('latin1'))} (${r.contentType ?? 'no type'})` : ''}`;
}
