import { expect } from 'chai';
import fc from 'fast-check';
import { formatDatestamp, parseUtcDatetime } from '../../lib/oai/dates';

describe('UTCdatetime', () => {
  const valid: Array<[string, number, number]> = [
    ['2002-02-05', Date.UTC(2002, 1, 5) / 1000, Date.UTC(2002, 1, 5, 23, 59, 59) / 1000],
    ['2000-02-29', Date.UTC(2000, 1, 29) / 1000, Date.UTC(2000, 1, 29, 23, 59, 59) / 1000],
    ['2002-02-05T13:14:15Z', Date.UTC(2002, 1, 5, 13, 14, 15) / 1000, Date.UTC(2002, 1, 5, 13, 14, 15) / 1000],
    ['1970-01-01T00:00:00Z', 0, 0],
  ];
  for (const [s, start, end] of valid) {
    it(`parses ${s}`, () => {
      const p = parseUtcDatetime(s);
      expect(p && [p.start, p.end]).to.deep.equal([start, end]);
    });
  }
  const invalid = [
    '2002-02-30',
    '1900-02-29',
    '2002-13-01',
    '2002-00-10',
    '2002-02-05T23:60:00Z',
    '2002-02-05T12:00:00+01:00',
    '2002-2-5',
    '02-02-05',
    ' 2002-02-05',
    '2002-02-05T12:00Z',
    '0099-01-01',
    '2002-02-05t12:00:00z',
  ];
  for (const s of invalid) {
    it(`refuses ${JSON.stringify(s)}`, () => expect(parseUtcDatetime(s)).to.equal(null));
  }
  it('formats seconds as YYYY-MM-DDThh:mm:ssZ', () => {
    expect(formatDatestamp(Date.UTC(2024, 11, 31, 23, 59, 59) / 1000)).to.equal('2024-12-31T23:59:59Z');
  });

  const formatted: Array<[string, number]> = [
    ['1970-01-01T00:00:00Z', 0],
    ['1972-02-29T12:00:00Z', Date.UTC(1972, 1, 29, 12) / 1000],
    ['2000-02-29T23:59:59Z', Date.UTC(2000, 1, 29, 23, 59, 59) / 1000],
    ['2000-03-01T00:00:00Z', Date.UTC(2000, 2, 1) / 1000],
    ['2100-02-28T23:59:59Z', Date.UTC(2100, 1, 28, 23, 59, 59) / 1000],
    ['2100-03-01T00:00:00Z', Date.UTC(2100, 2, 1) / 1000],
    ['9999-12-31T23:59:59Z', Date.UTC(9999, 11, 31, 23, 59, 59) / 1000],
    ['1969-12-31T23:59:59Z', -1],
  ];
  for (const [text, seconds] of formatted) {
    it(`formats ${seconds} as ${text}`, () => expect(formatDatestamp(seconds)).to.equal(text));
  }

  it('formats every second from 1970 to 9999 as Date does (random seconds)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59) / 1000 }), (seconds) => {
        expect(formatDatestamp(seconds)).to.equal(new Date(seconds * 1000).toISOString().slice(0, 19) + 'Z');
      }),
      { numRuns: 20000 },
    );
  });
});
