/**
 * How a command reports refusals as they come: one line each, except that
 * refusals sharing a cause (`Refusal.cause`: a metadata format the
 * configuration does not declare) are reported once, with the remedy, and
 * the other records it refused are counted in one line at the end. 162
 * records of an undeclared format make two lines, not 162 alike. Every line
 * is shown text (lib/shown-text.ts): a record's id or a reason quoting its
 * input never reaches the terminal with a control character, nor unbounded.
 * Counting holds at most {@link MAX_COUNTED_KEYS} records' keys per cause,
 * so a load refusing millions of records for one cause counts them in
 * bounded memory; and past {@link MAX_SHOWN_REFUSALS} lines refusals are
 * counted, not shown, so a run's output stays bounded however bad its input
 * (the loader's `--refusals FILE` keeps every one).
 */
import type { Refusal } from '../../lib/model/refusal';
import { shownText } from '../../lib/shown-text';

/**
 * Records remembered per cause to count a record refused twice for one
 * cause once; past them a refusal is counted unless it is of the record
 * counted just before (a record's refusals come together).
 */
export const MAX_COUNTED_KEYS = 10_000;

/** Refusal lines a report writes before it counts the rest: a line is at most ~2 KB (lib/shown-text.ts), so ≤ ~1 MB. */
export const MAX_SHOWN_REFUSALS = 500;

/** A refusal report writing lines through `write`. */
export interface RefusalReport {
  /** Reports one refusal (or counts it, when its cause was reported already). */
  refuse(r: Refusal): void;
  /** Writes the counts of the refusals left unreported for a cause reported once. */
  finish(): void;
}

/** Formats one refusal as a line: `file:line: record "id", field F: why`. */
export function formatRefusal(r: Refusal): string {
  const where = r.source ? `${r.source}: ` : '';
  const record = r.internalId === '' ? '' : `record ${JSON.stringify(r.internalId)}, `;
  return `${where}${record}field ${r.field}: ${r.reason}`;
}

/**
 * Starts a report whose lines (`refused: …`, without their newline) go to `write`.
 *
 * @example const report = refusalReport((l) => process.stderr.write(`${l}\n`)); … report.refuse(r); … report.finish();
 */
export function refusalReport(write: (line: string) => void, options: { readonly maxLines?: number; readonly everyOne?: string } = {}): RefusalReport {
  const repeats = new Map<string, { first: Refusal; keys: Set<string>; last: string; more: number }>();
  const maxLines = options.maxLines ?? MAX_SHOWN_REFUSALS;
  let shown = 0;
  let hidden = 0;
  const line = (r: Refusal): void => {
    if (shown < maxLines) {
      shown++;
      write(`refused: ${shownText(formatRefusal(r))}`);
    } else hidden++;
  };
  return {
    refuse(r) {
      if (r.cause === undefined) {
        line(r);
        return;
      }
      const seen = repeats.get(r.cause);
      if (seen === undefined) {
        repeats.set(r.cause, { first: r, keys: new Set(), last: '', more: 0 });
        line(r);
      } else if (r.internalId !== seen.first.internalId || r.source !== seen.first.source) {
        // Counted by record: a record refused twice for one cause is one record.
        const key = `${r.source ?? ''}\u0000${r.internalId}`;
        if (seen.keys.has(key) || key === seen.last) return;
        if (seen.keys.size < MAX_COUNTED_KEYS) seen.keys.add(key);
        seen.last = key;
        seen.more++;
      }
    },
    finish() {
      for (const [cause, { more }] of repeats) {
        if (more === 0) continue;
        write(`refused: ${more} more record${more === 1 ? '' : 's'} for the same reason (${shownText(cause, 200)}), each as above`);
      }
      repeats.clear();
      if (hidden > 0)
        write(`refused: ${hidden} more refusal${hidden === 1 ? '' : 's'} not shown${options.everyOne === undefined ? '' : ` (${options.everyOne})`}`);
      hidden = 0;
    },
  };
}
