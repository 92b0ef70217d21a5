/**
 * ListIdentifiers and ListRecords (OAI-PMH 4.3, 4.5): one function for
 * both, a keyset scan over `(datestamp, pk)` paged by ../paging.
 *
 * Harvest consistency (OAI-PMH 3.5.1): the first page fixes the upper bound
 * of the harvest at the request time. A record changed or deleted later gets
 * a newer datestamp and leaves the range; a record added later is outside it.
 * So the rows that stay unchanged keep their order and their place relative
 * to the cursor, and none of them is skipped or repeated.
 */
import { oaiError } from '../errors';
import type { OaiError } from '../errors';
import { badToken } from '../token';
import { readPage, resumeFrom } from '../paging';
import type { Listing, PageStart } from '../paging';
import type { ProviderContext } from '../context';
import type { ResponseBody } from '../response';
import { StoreBehindError, type ItemHeader, type Keyset, type ListFilter, type ListPageQuery } from '../../store';
import type { ListRequest, ListSelection, ListVerb } from '../request';

/** The state of a harvest at a page: the filter and where the page starts. */
interface PagePlan extends PageStart<Keyset> {
  readonly filter: ListFilter;
  /** Where the previous page's reads stood (its token's), for a store whose reads may lag. */
  readonly position?: string;
}

/** Answers a list verb, first page or continuation. */
export async function listItems(ctx: ProviderContext, req: ListRequest, now: number): Promise<ResponseBody> {
  const plan = req.resumptionToken !== undefined ? resumePlan(ctx, req.verb, req.resumptionToken, now) : await firstPlan(ctx, req, now);
  if ('errors' in plan) return { kind: 'errors', ...plan };
  // A store whose reads may lag its primary (a read replica) first catches up with what the harvest
  // has seen: the previous page's position, or for a first page everything committed when it was asked,
  // so no record at or before the harvest's upper bound is missing from the pages (OAI-PMH 2.0 section 3.5.1).
  if (ctx.store.catchUp && !(await ctx.store.catchUp(plan.position))) {
    throw new StoreBehindError('the read replica has not yet replayed what this harvest has already seen');
  }
  if (req.verb === 'ListRecords') {
    const page = await readPage(
      ctx,
      items(
        ctx,
        req.verb,
        plan.filter,
        (q) => ctx.store.listRecords(q),
        (r) => r.overBudget === true,
      ),
      plan,
      now,
    );
    if (page.rows.length === 0) return noRecords(plan);
    return { kind: 'ListRecords', records: page.rows, ...(page.resumption && { resumption: page.resumption }) };
  }
  const page = await readPage(
    ctx,
    items(ctx, req.verb, plan.filter, (q) => ctx.store.listHeaders(q)),
    plan,
    now,
  );
  if (page.rows.length === 0) return noRecords(plan);
  return { kind: 'ListIdentifiers', headers: page.rows, ...(page.resumption && { resumption: page.resumption }) };
}

/** The items of one filter, in `(datestamp, pk)` order, as the pager reads them. */
function items<R extends ItemHeader>(
  ctx: ProviderContext,
  verb: ListVerb,
  filter: ListFilter,
  read: (q: ListPageQuery) => Promise<readonly R[]>,
  overBudget?: (row: R) => boolean,
): Listing<R, Keyset, ListVerb> {
  return {
    rows: (after, limit, budget) => read({ ...filter, ...(after && { after }), limit, ...(budget !== undefined && { budget }) }),
    // A record's size is what bounds a ListRecords page by bytes (../paging); a header is small and has none.
    ...(overBudget && { overBudget }),
    keyOf: (row) => ({ datestamp: row.keyDatestamp ?? row.datestamp, pk: row.pk }),
    count: () => ctx.store.count(filter),
    state: (after, cursor, completeListSize, expires, position) => ({
      verb,
      metadataPrefix: filter.metadataPrefix,
      ...(filter.set !== undefined && { set: filter.set }),
      ...(filter.from !== undefined && { from: filter.from }),
      until: filter.until,
      after,
      cursor,
      completeListSize,
      expires,
      ...(position !== undefined && { position }),
    }),
  };
}

function noRecords(plan: PagePlan): ResponseBody {
  const message = plan.after
    ? 'No records remain: every record after this point changed since the harvest began; harvest again from the last responseDate.'
    : 'No records match the request.';
  return { kind: 'errors', errors: [oaiError('noRecordsMatch', message)] };
}

async function firstPlan(ctx: ProviderContext, req: ListSelection, now: number): Promise<PagePlan | { errors: OaiError[]; absent?: true }> {
  const { metadataPrefix } = req;
  const errors: OaiError[] = [];
  if (!ctx.formats.get(metadataPrefix)) {
    errors.push(oaiError('cannotDisseminateFormat', `The metadata format ${JSON.stringify(metadataPrefix)} is not supported by this repository.`));
  }
  // Read before the store catches up with its primary: a set hierarchy it lacks is `absent` (../response.ts).
  const noSets = req.set !== undefined && !(await ctx.store.hasSets());
  if (noSets) errors.push(oaiError('noSetHierarchy', 'This repository does not support sets.'));
  if (errors.length > 0) return { errors, ...(noSets && { absent: true as const }) };
  // `now` (this response's responseDate) was read before this wait: a write still publishing is visible once it
  // ends, and one that publishes after is stamped at or after `now`, so a harvest from this responseDate finds it
  // (OAI-PMH 2.0 section 3.3; lib/store/read.ts `settle`).
  await ctx.store.settle?.();
  const until = Math.min(req.until ?? now, now);
  if (req.from !== undefined && req.from > until) return { errors: [oaiError('noRecordsMatch', 'No records match the request.')] };
  return {
    filter: { metadataPrefix, until, ...(req.from !== undefined && { from: req.from }), ...(req.set !== undefined && { set: req.set }) },
    cursor: 0,
  };
}

function resumePlan(ctx: ProviderContext, verb: ListVerb, token: string, now: number): PagePlan | { errors: readonly OaiError[] } {
  const resumed = resumeFrom(ctx, verb, token, now);
  if (!resumed.ok) return { errors: resumed.errors };
  const s = resumed.state;
  if (!ctx.formats.get(s.metadataPrefix)) return { errors: [badToken('malformed')] };
  return {
    filter: { metadataPrefix: s.metadataPrefix, until: s.until, ...(s.from !== undefined && { from: s.from }), ...(s.set !== undefined && { set: s.set }) },
    after: s.after,
    cursor: s.cursor,
    completeListSize: s.completeListSize,
    ...(s.position !== undefined && { position: s.position }),
  };
}
