/**
 * The `publication log` check of `doctor`: the log's tiles against its
 * entries and head, and every item's latest entry against the item as the
 * store serves it (server/db/log/inspect.ts); a problem names the first
 * disagreement, which a change made behind the write path leaves.
 */
import type { DoctorContext, Finding } from './doctor-findings';

/** The check. */
export async function publicationLog(ctx: DoctorContext): Promise<readonly Finding[]> {
  if (ctx.inspection === null) return [];
  const { size, problem } = await ctx.inspection.publicationLog();
  if (problem !== null) {
    return [
      {
        check: 'log',
        severity: 'problem',
        message: `the publication log disagrees with the store: ${problem} (a change made behind oai-steward's write path; docs/identifiers.md#the-publication-log)`,
        data: { size, problem },
      },
    ];
  }
  return [
    { check: 'log', severity: 'ok', message: `the publication log's ${size} entries agree with its tiles, its head and every item served`, data: { size } },
  ];
}
