/**
 * The pure parts of a run's report: text clipped to a bound, a refused
 * record named by the source's identifier, a log that keeps the first
 * warnings and refusals and counts the rest, and the words an operator
 * reads for a database failure (and none for anything else).
 */
import { expect } from 'chai';
import { clip, RunLog, runRefusal } from '../../lib/run-report';
import { storeFailure } from '../../server/db/errors';

describe('a run report', () => {
  it('clips text to its bound, never between the halves of a surrogate pair', () => {
    expect(clip('abcdef', 10)).to.equal('abcdef');
    expect(clip('abcdef', 4)).to.equal('abc…');
    expect(clip('ab\u{1F600}cd', 4)).to.equal('ab…');
  });

  const refusals = [
    { name: 'a harvested record by its identifier at the source', r: { internalId: 'arxiv:oai:x:1', field: 'xml', reason: 'r' }, id: 'oai:x:1' },
    {
      name: 'a record without an internal id by where it was read',
      r: { internalId: '', source: 'arxiv page 2 (oai:x:9)', field: 'header', reason: 'r' },
      id: 'oai:x:9',
    },
    { name: "another source's id as it is", r: { internalId: 'other:1', field: 'xml', reason: 'r' }, id: 'other:1' },
  ];
  for (const c of refusals)
    it(`names ${c.name}`, () => {
      expect(runRefusal(c.r, 'arxiv', 2)).to.deep.equal({ page: 2, identifier: c.id, field: c.r.field, reason: 'r' });
    });

  it('keeps the first warnings and refusals of a run and counts the rest', () => {
    const log = new RunLog({ refusals: 2, warnings: 1 });
    for (let i = 0; i < 5; i++) log.refusal({ page: i, identifier: `id${i}`, field: 'xml', reason: 'r' });
    log.warning('first');
    log.warning('second');
    const report = log.report({
      kind: 'harvest',
      source: 's',
      started: 1,
      ended: 2,
      outcome: 'completed',
      counts: { pages: 1, records: 5, inserted: 0, updated: 0, unchanged: 0, deleted: 0, superseded: 0, refused: 5, retries: 0 },
      error: null,
    });
    expect(report.refusals.map((r) => r.identifier)).to.deep.equal(['id0', 'id1']);
    expect(report).to.include({ refusalsOmitted: 3, warningsOmitted: 1 });
    expect(report.warnings).to.deep.equal(['first']);
  });
});

describe('a database failure in words', () => {
  const cases: { name: string; err: unknown; says: string | null }[] = [
    {
      name: 'a full SQLite disk',
      err: Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
      says: "the database's disk is full (database or disk is full)",
    },
    {
      name: 'a full PostgreSQL disk, its statement left out',
      err: Object.assign(new Error('insert into "items" ("a") values ($1) - could not extend file: No space left on device'), { code: '53100' }),
      says: "the database's disk is full (could not extend file: No space left on device)",
    },
    {
      name: 'a connection the server terminated',
      err: Object.assign(new Error('select 1 - terminating connection due to administrator command'), { code: '57P01' }),
      says: 'the connection to the database was lost or could not be made (terminating connection due to administrator command)',
    },
    {
      name: 'a refused connection',
      err: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      says: 'the connection to the database was lost or could not be made (connect ECONNREFUSED 127.0.0.1:5432)',
    },
    {
      name: 'a SQLite write refused because another connection committed since its transaction read (an extended busy code)',
      err: Object.assign(new Error('update `harvest_state` set `token` = 1 - database is locked'), { code: 'SQLITE_BUSY_SNAPSHOT' }),
      says: 'the database stayed locked by another process (database is locked)',
    },
    { name: 'a bug: nothing', err: new TypeError('x is undefined'), says: null },
    { name: 'a constraint: nothing', err: Object.assign(new Error('duplicate key'), { code: '23505' }), says: null },
  ];
  for (const c of cases)
    it(`says ${c.name}`, () => {
      expect(storeFailure(c.err)).to.equal(c.says);
    });
});
