import { oaiError } from '../errors';
import { decodeToken, encodeToken } from '../token';
import { badToken } from './list';
import type { ProviderContext } from '../context';
import type { ResponseBody, ResumptionInfo } from '../response';
import type { SetInfo } from '../../store';

/**
 * ListSets (OAI-PMH 4.6), paged like the other lists: a keyset over setSpec
 * in binary order, with a signed token.
 */
export async function listSets(ctx: ProviderContext, resumptionToken: string | undefined, now: number): Promise<ResponseBody> {
  let after: string | null = null;
  let cursor = 0;
  let known: number | undefined;
  if (resumptionToken !== undefined) {
    const decoded = decodeToken(resumptionToken, 'ListSets', ctx.tokenSecret, now);
    if (!decoded.ok) return { kind: 'errors', errors: [badToken(decoded.problem)] };
    if (decoded.state.verb !== 'ListSets') return { kind: 'errors', errors: [badToken('verb')] };
    ({ after, cursor, completeListSize: known } = decoded.state);
  } else if (!(await ctx.store.hasSets())) {
    return { kind: 'errors', errors: [oaiError('noSetHierarchy', 'This repository does not support sets.')] };
  }
  const rows = await ctx.store.listSets(after, ctx.pageSize + 1);
  // OAI-PMH 4.6 allows no noRecordsMatch here; sets are never removed, so only a token from elsewhere gets this far.
  if (rows.length === 0) return { kind: 'errors', errors: [badToken('malformed')] };
  const more = rows.length > ctx.pageSize;
  const sets = more ? rows.slice(0, ctx.pageSize) : rows;
  let resumption: ResumptionInfo | undefined;
  if (more) {
    const completeListSize = known ?? (await ctx.store.countSets());
    const expires = now + ctx.tokenLifetime;
    const last = sets[sets.length - 1] as SetInfo;
    const token = encodeToken({ verb: 'ListSets', after: last.spec, cursor: cursor + sets.length, completeListSize, expires }, ctx.tokenSecret);
    resumption = { token, cursor, completeListSize, expirationDate: expires };
  } else if (after !== null) {
    resumption = { token: '', cursor, completeListSize: cursor + sets.length };
  }
  return { kind: 'ListSets', sets, ...(resumption && { resumption }) };
}
