/**
 * An answer that something is absent, from a store whose reads may lag its
 * primary (a read replica): it stands only once the store has replayed
 * everything its primary had committed when the request came, read again;
 * until then the request fails with `StoreBehindError`, which the server
 * answers 503 with Retry-After. The OAI-PMH verbs do the same
 * (lib/oai/handle.ts); this is it for the other documents a harvester reads
 * (ResourceSync, sitemaps, the POI resolver), so no process contradicts the
 * primary.
 */
import { StoreBehindError, type ReadStore } from '../../lib/store';

/**
 * `answer` as it stands, or, when `absent(answer)` on a store that may lag,
 * the answer `again()` gives once the store has caught up.
 *
 * @example const a = await confirmAbsence(ctx.store, await find(), (x) => x.status === 404, find);
 */
export async function confirmAbsence<T>(store: Pick<ReadStore, 'catchUp'>, answer: T, absent: (a: T) => boolean, again: () => Promise<T>): Promise<T> {
  if (!absent(answer) || !store.catchUp) return answer;
  if (!(await store.catchUp())) throw new StoreBehindError('the read replica has not yet replayed what its primary may hold for this request');
  return again();
}
