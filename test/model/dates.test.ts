import { expect } from 'chai';
import { calendarDate, parseW3cdtf } from '../../lib/model/dates';
import { eachRow } from '../helpers/table';

describe('W3CDTF dates', () => {
  eachRow(
    [
      ['2003', '2003'],
      ['2003-04', '2003-04'],
      ['2003-04-15', '2003-04-15'],
      ['2003-04-15T10:18Z', '2003-04-15'],
      ['2003-04-15T10:18:51Z', '2003-04-15'],
      ['2003-04-15T10:18:51.25+01:00', '2003-04-15'],
      ['  2024-02-29T23:59:59-05:00 ', '2024-02-29'],
    ] as const,
    ([text, date]) => `reads ${JSON.stringify(text)} as the date ${date}`,
    ([text, date]) => {
      expect(parseW3cdtf(text)?.date).to.equal(date);
    },
  );
  eachRow(
    [
      '15.04.2003',
      '2003-4-15',
      '2003-02-30',
      '2003-13',
      '2003-04-15T10:18:51',
      '2003-04-15 10:18:51Z',
      '2003-04-15T24:00Z',
      '2003-04-15T10:18+15:00',
      'spring 2003',
      '',
    ],
    (text) => `does not take ${JSON.stringify(text)} for a W3CDTF date`,
    (text) => {
      expect(parseW3cdtf(text)).to.equal(null);
    },
  );
  it('says whether a value names a time of day', () => {
    expect(parseW3cdtf('2003-04-15')?.hasTime).to.equal(false);
    expect(parseW3cdtf('2003-04-15T10:18Z')?.hasTime).to.equal(true);
  });
  it('checks the calendar of a plain date, a full one only when asked', () => {
    expect(calendarDate('2023-02-29')).to.equal(null);
    expect(calendarDate('2024-02-29')).to.equal('2024-02-29');
    expect(calendarDate('2024', true)).to.equal(null);
  });
});
