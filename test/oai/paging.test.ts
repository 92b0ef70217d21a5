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

describe('pages bounded by bytes', () => {
  /**
   * `letters(n)` whose rows each serve `size(row)` bytes, answering as a store
   * answers a budget (lib/store/read.ts `ListPageQuery.budget`): the leading rows
   * that fit together, at least one, then the rest marked past it. Records
   * every `rows` limit it is asked for.
   */
  function sized(n: number, size: (row: string) => number): ReturnType<typeof letters> & { limits: number[] } {
    const base = letters(n);
    const limits: number[] = [];
    const over = new Set<string>();
    return Object.assign(base, {
      limits,
      rows: async (after: string | undefined, limit: number, budget?: number) => {
        limits.push(limit);
        const rows = (await letters(n).rows(after, limit)) as string[];
        let total = 0;
        rows.forEach((row, i) => {
          total += size(row);
          if (budget !== undefined && i > 0 && total > budget) over.add(row);
        });
        return rows;
      },
      overBudget: (row: string) => over.has(row),
    });
  }

  it('serves only the rows that fit, and continues after the last one with the cursor of the rows served', async () => {
    const listing = sized(6, () => 4);
    const ctx = { ...context(100), pageBytes: 10 };
    const page = await readPage(ctx, listing, { cursor: 3, after: 'a', completeListSize: 6 }, NOW);
    expect(page.rows).to.deep.equal(['b', 'c']);
    expect(listing.limits).to.deep.equal([101]);
    expect(page.resumption?.cursor).to.equal(3);
    expect(decodeState(page.resumption?.token ?? '')).to.deep.include({ after: 'c', cursor: 5, completeListSize: 6 });
  });

  it('ends the list with an empty token when the rows that fit are the last ones', async () => {
    const listing = sized(3, () => 4);
    const page = await readPage({ ...context(100), pageBytes: 10 }, listing, { cursor: 1, after: 'a', completeListSize: 3 }, NOW);
    expect(page.rows).to.deep.equal(['b', 'c']);
    expect(page.resumption).to.deep.equal({ token: '', cursor: 1, completeListSize: 3 });
  });

  it('never shows more rows than pageSize, however small they are', async () => {
    const listing = sized(6, () => 1);
    const page = await readPage({ ...context(2), pageBytes: 1000 }, listing, { cursor: 0 }, NOW);
    expect(page.rows).to.deep.equal(['a', 'b']);
    expect(decodeState(page.resumption?.token ?? '')).to.deep.include({ after: 'b', cursor: 2 });
  });
});

function decodeState(token: string): unknown {
  const d = decodeToken(token, 'ListSets', SECRET, NOW);
  return d.ok ? d.state : d.problem;
}
