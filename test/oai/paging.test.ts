import { expect } from 'chai';
import { readPage, resumeFrom } from '../../lib/oai/paging';
import type { Listing, PageStart } from '../../lib/oai/paging';
import { decodeToken, encodeToken } from '../../lib/oai/token';
import type { ProviderContext } from '../../lib/oai/context';

const SECRET = 'k';
const NOW = 1000;

/** Only what the pager reads from a context: page size, secret, token lifetime. */
function context(pageSize: number): ProviderContext {
  return { pageSize, tokenSecret: SECRET, tokenLifetime: 60, store: {} } as unknown as ProviderContext;
}

/** Set specs a..(a+n) as a listing, counting how often it is counted. */
function letters(n: number): Listing<string, string, 'ListSets'> & { counted: number } {
  const all = Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i));
  const listing = {
    counted: 0,
    rows: async (after: string | undefined, limit: number) => all.filter((s) => after === undefined || s > after).slice(0, limit),
    keyOf: (s: string) => s,
    count: async () => {
      listing.counted++;
      return all.length;
    },
    state: (after: string, cursor: number, completeListSize: number, expires: number) => ({
      verb: 'ListSets' as const,
      after,
      cursor,
      completeListSize,
      expires,
    }),
  };
  return listing;
}

describe('keyset paging', () => {
  const cases: Array<{ name: string; size: number; pageSize: number; start: PageStart<string>; rows: string[]; resumption: unknown; counted: number }> = [
    {
      name: 'a list that fits one page has no resumptionToken',
      size: 3,
      pageSize: 3,
      start: { cursor: 0 },
      rows: ['a', 'b', 'c'],
      resumption: undefined,
      counted: 0,
    },
    {
      name: 'a first page that continues counts the list once and issues a token',
      size: 5,
      pageSize: 2,
      start: { cursor: 0 },
      rows: ['a', 'b'],
      resumption: {
        cursor: 0,
        completeListSize: 5,
        expirationDate: NOW + 60,
        state: { verb: 'ListSets', after: 'b', cursor: 2, completeListSize: 5, expires: NOW + 60 },
      },
      counted: 1,
    },
    {
      name: 'a middle page keeps the size its token carries and does not count again',
      size: 5,
      pageSize: 2,
      start: { after: 'b', cursor: 2, completeListSize: 5 },
      rows: ['c', 'd'],
      resumption: {
        cursor: 2,
        completeListSize: 5,
        expirationDate: NOW + 60,
        state: { verb: 'ListSets', after: 'd', cursor: 4, completeListSize: 5, expires: NOW + 60 },
      },
      counted: 0,
    },
    {
      name: 'the last page of a longer list has an empty token and the final size',
      size: 5,
      pageSize: 2,
      start: { after: 'd', cursor: 4, completeListSize: 5 },
      rows: ['e'],
      resumption: { token: '', cursor: 4, completeListSize: 5 },
      counted: 0,
    },
    {
      name: 'a page after the end is empty',
      size: 5,
      pageSize: 2,
      start: { after: 'e', cursor: 5, completeListSize: 5 },
      rows: [],
      resumption: { token: '', cursor: 5, completeListSize: 5 },
      counted: 0,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const listing = letters(c.size);
      const page = await readPage(context(c.pageSize), listing, c.start, NOW);
      expect(page.rows).to.deep.equal(c.rows);
      const r = page.resumption;
      const shown =
        r && r.token !== '' ? { cursor: r.cursor, completeListSize: r.completeListSize, expirationDate: r.expirationDate, state: decodeState(r.token) } : r;
      expect(shown).to.deep.equal(c.resumption);
      expect(listing.counted).to.equal(c.counted);
    });
  }

  it('resumes from a token of its own verb', () => {
    const state = { verb: 'ListSets' as const, after: 'b', cursor: 2, completeListSize: 5, expires: NOW };
    expect(resumeFrom(context(2), 'ListSets', encodeToken(state, SECRET), NOW)).to.deep.equal({ ok: true, state });
  });

  it('turns a refused token into badResumptionToken saying why', () => {
    const state = { verb: 'ListSets' as const, after: 'b', cursor: 2, completeListSize: 5, expires: NOW - 1 };
    const r = resumeFrom(context(2), 'ListSets', encodeToken(state, SECRET), NOW);
    expect(r).to.deep.equal({ ok: false, errors: [{ code: 'badResumptionToken', message: 'The resumptionToken has expired; start the harvest again.' }] });
  });
});

function decodeState(token: string): unknown {
  const d = decodeToken(token, 'ListSets', SECRET, NOW);
  return d.ok ? d.state : d.problem;
}
