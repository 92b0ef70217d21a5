/**
 * ListIdentifiers and ListRecords (OAI-PMH 4.3, 4.5): one paging function
 * for both, a keyset scan over `(datestamp, pk)`.
 *
 * Harvest consistency (OAI-PMH 3.5.1): the first page fixes the upper bound
 * of the harvest at the request time. A record changed or deleted later gets
 * a newer datestamp and leaves the range; a record added later is outside it.
 * So the rows that stay unchanged keep their order and their place relative
 * to the cursor, and none of them is skipped or repeated.
 */
import { oaiError } from '../errors';
import type { OaiError } from '../errors';
import { decodeToken, encodeToken } from '../token';
import type { ListTokenState } from '../token';
import type { ProviderContext } from '../context';
import type { ResponseBody, ResumptionInfo } from '../response';
import type { ItemHeader, ListFilter, ListPageQuery, Keyset } from '../../store';
import type { OaiRequest } from '../request';

type ListVerb = 'ListIdentifiers' | 'ListRecords';

/** The state of a harvest at a page: the filter and where the page starts. */
interface PagePlan {
  readonly filter: ListFilter;
  readonly after?: Keyset;
  readonly cursor: number;
  /** Known from the token; counted on demand for the first page. */
  readonly completeListSize?: number;
}

/** Answers a list verb, first page or continuation. */
export async function listItems(ctx: ProviderContext, verb: ListVerb, req: OaiRequest, now: number): Promise<ResponseBody> {
  const plan = req.resumptionToken !== undefined ? resumePlan(ctx, verb, req.resumptionToken, now) : await firstPlan(ctx, req, now);
  if ('errors' in plan) return { kind: 'errors', errors: plan.errors };

  const query: ListPageQuery = { ...plan.filter, ...(plan.after && { after: plan.after }), limit: ctx.pageSize + 1 };
  const rows = verb === 'ListRecords' ? await ctx.store.listRecords(query) : await ctx.store.listHeaders(query);
  if (rows.length === 0) {
    const message = plan.after
      ? 'No records remain: every record after this point changed since the harvest began; harvest again from the last responseDate.'
      : 'No records match the request.';
    return { kind: 'errors', errors: [oaiError('noRecordsMatch', message)] };
  }
  const more = rows.length > ctx.pageSize;
  const page = more ? rows.slice(0, ctx.pageSize) : rows;
  const resumption = await resumptionFor(ctx, verb, plan, page, more, now);
  return verb === 'ListRecords'
    ? { kind: 'ListRecords', records: page as ListPageRecords, ...(resumption && { resumption }) }
    : { kind: 'ListIdentifiers', headers: page, ...(resumption && { resumption }) };
}

type ListPageRecords = Extract<ResponseBody, { kind: 'ListRecords' }>['records'];

async function firstPlan(ctx: ProviderContext, req: OaiRequest, now: number): Promise<PagePlan | { errors: OaiError[] }> {
  const metadataPrefix = req.metadataPrefix as string;
  const errors: OaiError[] = [];
  if (!ctx.formats.get(metadataPrefix)) {
    errors.push(oaiError('cannotDisseminateFormat', `The metadata format ${JSON.stringify(metadataPrefix)} is not supported by this repository.`));
  }
  if (req.set !== undefined && !(await ctx.store.hasSets())) {
    errors.push(oaiError('noSetHierarchy', 'This repository does not support sets.'));
  }
  if (errors.length > 0) return { errors };
  const until = Math.min(req.until ?? now, now);
  if (req.from !== undefined && req.from > until) return { errors: [oaiError('noRecordsMatch', 'No records match the request.')] };
  return {
    filter: { metadataPrefix, until, ...(req.from !== undefined && { from: req.from }), ...(req.set !== undefined && { set: req.set }) },
    cursor: 0,
  };
}

function resumePlan(ctx: ProviderContext, verb: ListVerb, token: string, now: number): PagePlan | { errors: OaiError[] } {
  const decoded = decodeToken(token, verb, ctx.tokenSecret, now);
  if (!decoded.ok) return { errors: [badToken(decoded.problem)] };
  const s = decoded.state as ListTokenState;
  if (!ctx.formats.get(s.metadataPrefix)) return { errors: [badToken('malformed')] };
  return {
    filter: { metadataPrefix: s.metadataPrefix, until: s.until, ...(s.from !== undefined && { from: s.from }), ...(s.set !== undefined && { set: s.set }) },
    after: s.after,
    cursor: s.cursor,
    completeListSize: s.completeListSize,
  };
}

async function resumptionFor(
  ctx: ProviderContext,
  verb: ListVerb,
  plan: PagePlan,
  page: readonly ItemHeader[],
  more: boolean,
  now: number,
): Promise<ResumptionInfo | undefined> {
  // A list that fits one page needs no resumptionToken element at all.
  if (!more && plan.after === undefined) return undefined;
  if (!more) return { token: '', cursor: plan.cursor, completeListSize: plan.cursor + page.length };
  const last = page[page.length - 1] as ItemHeader;
  const completeListSize = plan.completeListSize ?? (await ctx.store.count(plan.filter));
  const expires = now + ctx.tokenLifetime;
  const f = plan.filter;
  const state: ListTokenState = {
    verb,
    metadataPrefix: f.metadataPrefix,
    ...(f.set !== undefined && { set: f.set }),
    ...(f.from !== undefined && { from: f.from }),
    until: f.until,
    after: { datestamp: last.datestamp, pk: last.pk },
    cursor: plan.cursor + page.length,
    completeListSize,
    expires,
  };
  return { token: encodeToken(state, ctx.tokenSecret), cursor: plan.cursor, completeListSize, expirationDate: expires };
}

const TOKEN_MESSAGES = {
  malformed: 'The resumptionToken is not one this repository issued.',
  signature: 'The resumptionToken is not one this repository issued (its signature does not match).',
  expired: 'The resumptionToken has expired; start the harvest again.',
  verb: 'The resumptionToken belongs to another verb.',
} as const;

/** badResumptionToken with a message saying which check failed. */
export function badToken(problem: keyof typeof TOKEN_MESSAGES): OaiError {
  return oaiError('badResumptionToken', TOKEN_MESSAGES[problem]);
}
