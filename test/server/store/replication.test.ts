/**
 * A primary's WAL insert position read as a replica's replay position
 * reads: the end of the last record, never a point past a page header no
 * replay ever reports.
 */
import { expect } from 'chai';
import { recordEnd } from '../../../server/store/replication';

const PAGE = 8192;
const SEGMENT = 16 * 1024 * 1024;

const cases: Array<{ name: string; position: string; end: string }> = [
  { name: 'a position inside a page is the end of the last record as it is', position: '0/3015FE0', end: '0/3015FE0' },
  { name: 'a position just past a segment’s first page header (after a WAL switch) is the segment’s start', position: '0/4000028', end: '0/4000000' },
  { name: 'a position just past a page header is the page’s start', position: '0/4002018', end: '0/4002000' },
  { name: 'a position past a page header and a record’s continuation stays', position: '0/4002028', end: '0/4002028' },
  { name: 'a position past the header of a segment of a later log file keeps its high half', position: '1A/28', end: '1A/0' },
  { name: 'a position at a page boundary stays', position: '0/4002000', end: '0/4002000' },
];

describe('the end of what a primary has inserted into its WAL', () => {
  for (const c of cases) it(c.name, () => expect(recordEnd(c.position, PAGE, SEGMENT)).to.equal(c.end));
});
