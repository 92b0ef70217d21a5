/**
 * How a command reports refusals as they come: one line each, except that
 * refusals sharing a cause (`Refusal.cause`: a metadata format the
 * configuration does not declare) are reported once, with the remedy, and
 * the other records it refused are counted in one line at the end. 162
 * records of an undeclared format make two lines, not 162 alike.
 */
import type { Refusal } from '../../lib/model/refusal';

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
export function refusalReport(write: (line: string) => void): RefusalReport {
  const repeats = new Map<string, { first: Refusal; more: Set<string> }>();
  return {
    refuse(r) {
      if (r.cause === undefined) {
        write(`refused: ${formatRefusal(r)}`);
        return;
      }
      const seen = repeats.get(r.cause);
      if (seen === undefined) {
        repeats.set(r.cause, { first: r, more: new Set() });
        write(`refused: ${formatRefusal(r)}`);
      } else if (r.internalId !== seen.first.internalId || r.source !== seen.first.source) {
        // Counted by record: a record refused twice for one cause is one record.
        seen.more.add(`${r.source ?? ''}\u0000${r.internalId}`);
      }
    },
    finish() {
      for (const [cause, { more }] of repeats) {
        if (more.size === 0) continue;
        write(`refused: ${more.size} more record${more.size === 1 ? '' : 's'} for the same reason (${cause}), each as above`);
      }
      repeats.clear();
    },
  };
}
