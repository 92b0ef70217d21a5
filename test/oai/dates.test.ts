import { expect } from 'chai';
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
  const invalid = ['2002-02-30', '1900-02-29', '2002-13-01', '2002-00-10', '2002-02-05T23:60:00Z', '2002-02-05T12:00:00+01:00', '2002-2-5', '02-02-05', ' 2002-02-05', '2002-02-05T12:00Z', '0099-01-01', '2002-02-05t12:00:00z'];
  for (const s of invalid) {
    it(`refuses ${JSON.stringify(s)}`, () => expect(parseUtcDatetime(s)).to.equal(null));
  }
  it('formats seconds as YYYY-MM-DDThh:mm:ssZ', () => {
    expect(formatDatestamp(Date.UTC(2024, 11, 31, 23, 59, 59) / 1000)).to.equal('2024-12-31T23:59:59Z');
  });
});
