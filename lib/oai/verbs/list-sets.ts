import { oaiError } from '../errors';
import { badToken } from '../token';
import { readPage, resumeFrom } from '../paging';
import type { Listing, PageStart } from '../paging';
import type { ProviderContext } from '../context';
import type { ResponseBody } from '../response';
import { StoreBehindError, type SetInfo } from '../../store';

/**
 * ListSets (OAI-PMH 4.6), paged like the other lists: a keyset over setSpec
 * in binary order, with a signed token.
 */
export async function listSets(ctx: ProviderContext, resumptionToken: string | undefined, now: number): Promise<ResponseBody> {
  let start: PageStart<string> = { cursor: 0 };
  let position: string | undefined;
  if (resumptionToken !== undefined) {
    const resumed = resumeFrom(ctx, 'ListSets', resumptionToken, now);
    if (!resumed.ok) return { kind: 'errors', errors: resumed.errors };
    const { after, cursor, completeListSize } = resumed.state;
    start = { after, cursor, completeListSize };
    position = resumed.state.position;
  } else if (!(await ctx.store.hasSets())) {
    return { kind: 'errors', errors: [oaiError('noSetHierarchy', 'This repository does not support sets.')], absent: true };
  }
  // As for the item lists (./list.ts): a read replica first replays what the harvest has seen, or, for a
  // first page, everything committed when it was asked, so no set its primary held is missing from a page.
  if (ctx.store.catchUp && !(await ctx.store.catchUp(position))) {
    throw new StoreBehindError('the read replica has not yet replayed what this harvest has already seen');
  }
  const page = await readPage(ctx, setListing(ctx), start, now);
  // OAI-PMH 4.6 allows no noRecordsMatch here; sets are never removed, so only a token from elsewhere gets this far,
  // or one from a process whose store held sets this one (a read replica behind it) does not yet.
  if (page.rows.length === 0) return { kind: 'errors', errors: [badToken('malformed')], absent: true };
  return { kind: 'ListSets', sets: page.rows, ...(page.resumption && { resumption: page.resumption }) };
}

function setListing(ctx: ProviderContext): Listing<SetInfo, string, 'ListSets'> {
  return {
    rows: (after, limit) => ctx.store.listSets(after ?? null, limit),
    keyOf: (set) => set.spec,
    count: () => ctx.store.countSets(),
    state: (after, cursor, completeListSize, expires, position) => ({
      verb: 'ListSets',
      after,
      cursor,
      completeListSize,
      expires,
      ...(position !== undefined && { position }),
    }),
  };
}
