/**
 * Declaring the sets an input names (a source's ListSets, a saved ListSets
 * response) a batch at a time: one write per batch, not one per set, which
 * on PostgreSQL is one round trip and one commit each. A batch the store
 * refuses (one of its sets is invalid: lib/pipeline/judge.ts `setProblems`)
 * is declared again one set at a time, so the bad set is refused alone and
 * the others declared.
 */
import type { SetInput } from '../store';

/** Sets declared in one write. */
export const SET_BATCH = 1000;

/** What becomes of the sets declared. */
export interface SetDeclaration {
  /** A set description dropped (the store's message, naming the set). */
  readonly dropped: (message: string) => void;
  /** A set not declared, and why. */
  readonly refused: (set: SetInput, err: unknown) => void;
}

/**
 * Declares `sets` through `put` (a store's `putSets`); returns how many were declared.
 *
 * @example await declareInBatches((s) => store.putSets(s), page.sets, { dropped: warn, refused: (s, err) => warn(`${s.spec}: ${String(err)}`) })
 */
export async function declareInBatches(
  put: (sets: readonly SetInput[]) => Promise<readonly string[]>,
  sets: readonly SetInput[],
  on: SetDeclaration,
  batch: number = SET_BATCH,
): Promise<number> {
  let declared = 0;
  for (let i = 0; i < sets.length; i += batch) {
    const part = sets.slice(i, i + batch);
    try {
      for (const d of await put(part)) on.dropped(d);
      declared += part.length;
      continue;
    } catch (err) {
      if (part.length === 1) {
        on.refused(part[0] as SetInput, err);
        continue;
      }
    }
    for (const s of part) {
      try {
        for (const d of await put([s])) on.dropped(d);
        declared++;
      } catch (err) {
        on.refused(s, err);
      }
    }
  }
  return declared;
}
