/**
 * The counts a load's or a harvest's summary gives, one item one outcome:
 * what each write did (lib/store/write.ts `WriteResult`), with the updates a
 * person tells apart (`revived`, `formatAdded`) counted apart from
 * `updated`, and the line they are shown in.
 *
 * Pure: no I/O, no clock.
 */
import type { SummaryCounts, WriteResult } from './store';

/**
 * Counts one write's result into `counts` (`by` -1 takes it back out).
 *
 * @example countResult(counts, { internalId: 'a', identifier: 'oai:x:a', outcome: 'updated', update: 'revived' }) // counts.revived + 1
 */
export function countResult(counts: SummaryCounts, r: WriteResult, by: 1 | -1 = 1): void {
  if (r.outcome === 'updated' && r.update !== undefined) counts[r.update] += by;
  else counts[r.outcome] += by;
}

/**
 * The counts as a summary shows them: the kinds of update and `superseded`
 * only when there were any.
 *
 * @example countsText({ inserted: 1, updated: 0, revived: 1, formatAdded: 0, unchanged: 2, deleted: 0, superseded: 0, refused: 0 })
 * // 'inserted 1, updated 0, revived 1, unchanged 2, deleted 0, refused 0'
 */
export function countsText(c: SummaryCounts & { readonly refused: number }): string {
  return [
    `inserted ${c.inserted}`,
    `updated ${c.updated}`,
    ...(c.revived > 0 ? [`revived ${c.revived}`] : []),
    ...(c.formatAdded > 0 ? [`format added ${c.formatAdded}`] : []),
    `unchanged ${c.unchanged}`,
    `deleted ${c.deleted}`,
    ...(c.superseded > 0 ? [`superseded ${c.superseded}`] : []),
    `refused ${c.refused}`,
  ].join(', ');
}
