/**
 * One OAI-PMH request, end to end and without HTTP: decoded pairs →
 * `parseRequest` → the verb's handler → a response value for the writer.
 */
import { hidesRequestArguments, oaiError } from './errors';
import { parseRequest } from './request';
import type { OaiRequest } from './request';
import type { ProviderContext } from './context';
import type { OaiResponse, ResponseBody } from './response';
import { identify } from './verbs/identify';
import { getRecord } from './verbs/get-record';
import { listMetadataFormats } from './verbs/list-metadata-formats';
import { listItems } from './verbs/list';
import { listSets } from './verbs/list-sets';
import { StoreBehindError } from '../store';

/**
 * Answers a request given as decoded key/value pairs (or as a decoding
 * failure message) at time `now` (seconds). Store failures propagate as
 * exceptions: they are infrastructure errors, not protocol errors; so does
 * a store whose reads lag its primary and cannot yet say that something is
 * absent (`StoreBehindError`).
 * Example: `await handleRequest(ctx, [['verb', 'Identify']], 1700000000)`.
 */
export async function handleRequest(
  ctx: ProviderContext,
  pairs: ReadonlyArray<readonly [string, string]> | { readonly undecodable: string },
  now: number,
): Promise<OaiResponse> {
  const base = { responseDate: now, baseURL: ctx.repository.baseURL };
  if ('undecodable' in pairs) {
    return { ...base, body: { kind: 'errors', errors: [oaiError('badArgument', pairs.undecodable)] } };
  }
  const parsed = parseRequest(pairs);
  if (!parsed.ok) return { ...base, body: { kind: 'errors', errors: parsed.errors } };
  const req = parsed.request;
  let body = await dispatch(ctx, req, now);
  // A read replica behind its primary must not deny what the primary holds: an answer that something is
  // absent stands only once the store has replayed everything committed before it was asked, read again.
  if (body.kind === 'errors' && body.absent && ctx.store.catchUp) {
    if (!(await ctx.store.catchUp())) throw new StoreBehindError('the read replica has not yet replayed what its primary may hold for this request');
    body = await dispatch(ctx, req, now);
  }
  const echo = body.kind !== 'errors' || !hidesRequestArguments(body.errors);
  return { ...base, ...(echo && { requestArgs: { verb: req.verb, ...req.args } }), body };
}

function dispatch(ctx: ProviderContext, req: OaiRequest, now: number): Promise<ResponseBody> {
  switch (req.verb) {
    case 'Identify':
      return identify(ctx);
    case 'GetRecord':
      return getRecord(ctx, req.identifier, req.metadataPrefix);
    case 'ListMetadataFormats':
      return listMetadataFormats(ctx, req.identifier);
    case 'ListIdentifiers':
    case 'ListRecords':
      return listItems(ctx, req, now);
    case 'ListSets':
      return listSets(ctx, req.resumptionToken, now);
  }
}
