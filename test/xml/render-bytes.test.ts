/**
 * The server sends `renderResponseBytes`, written straight into a buffer
 * (lib/xml/byte-sink.ts); everything else, the suite's XSD checks included,
 * reads `renderResponse`. They must be the same document to the byte, for
 * any text the store may hold: hostile, astral, lone surrogates, pieces
 * longer and shorter than the sink gathers, pages larger than its first
 * buffer.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { OaiResponse } from '../../lib/oai/response';
import { bytesOf } from '../../lib/xml/byte-sink';
import { escapeText } from '../../lib/xml/chars';
import { renderResponse, renderResponseBytes } from '../../lib/oai/render';
import type { ItemRecord } from '../../lib/store';

const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('é', '山', '📚', '\uD800', '\uDC00x', '&<>"\'', ''));
const long = fc.tuple(text, fc.integer({ min: 0, max: 3000 })).map(([t, n]) => t.repeat(Math.max(1, Math.ceil(n / Math.max(1, t.length)))).slice(0, n));
const record: fc.Arbitrary<ItemRecord> = fc.record({
  pk: fc.nat(),
  internalId: text,
  identifier: text,
  datestamp: fc.integer({ min: 0, max: 4e9 }),
  deleted: fc.boolean(),
  sets: fc.array(text, { maxLength: 3 }),
  // Stored metadata: well-formed with any text inside, or whatever the store was made to hold.
  metadata: fc.oneof(
    long.map((t) => `<x:a xmlns:x="urn:x">${escapeText(t)}</x:a>`),
    text,
    fc.constant(null),
  ),
  about: fc.array(
    text.map((t) => `<p xmlns="urn:p">${escapeText(t)}</p>`),
    { maxLength: 2 },
  ),
});
const response: fc.Arbitrary<OaiResponse> = fc.record({
  responseDate: fc.integer({ min: 0, max: 4e9 }),
  baseURL: text,
  requestArgs: fc.record({ verb: fc.constant('ListRecords' as const), metadataPrefix: text, set: text }),
  body: fc.oneof(
    fc.record({
      kind: fc.constant('ListRecords' as const),
      records: fc.array(record, { maxLength: 120 }),
      resumption: fc.record({ token: text, cursor: fc.nat(), completeListSize: fc.nat() }),
    }),
    fc.record({
      kind: fc.constant('errors' as const),
      errors: fc.array(fc.record({ code: fc.constant('badArgument' as const), message: text }), { minLength: 1, maxLength: 3 }),
    }),
  ),
}) as fc.Arbitrary<OaiResponse>;

describe('a response rendered as bytes', () => {
  it('is the UTF-8 of the rendered string, byte for byte', () => {
    fc.assert(
      fc.property(response, (res) => {
        expect(renderResponseBytes(res).equals(Buffer.from(renderResponse(res), 'utf8'))).to.equal(true);
      }),
      { numRuns: 300 },
    );
  });

  it('grows past its first buffer and gives each response bytes of its own', () => {
    const big = 'é'.repeat(200_000);
    const first = bytesOf((out) => out.push('<a>', big, '</a>'));
    const second = bytesOf((out) => out.push('<b/>'));
    expect(first.equals(Buffer.from(`<a>${big}</a>`, 'utf8'))).to.equal(true);
    expect(second.toString('utf8')).to.equal('<b/>');
    expect(first.subarray(0, 3).toString()).to.equal('<a>');
  });
});
