/**
 * A run's report as it is gathered (lib/store/bookkeeping.ts `RunReport`): its warnings
 * and refused records, each kept up to a bound and counted beyond it, so a
 * run refusing a million records holds a thousand of them, not a million.
 */
import type { Refusal } from './model/refusal';
import type { RunCounts, RunOutcome, RunRefusal, RunReport } from './store';
import { shownText } from './shown-text';

/** Refused records a run keeps (the rest are counted). */
export const MAX_RUN_REFUSALS = 1000;
/** Warnings a run keeps (the rest are counted). */
export const MAX_RUN_WARNINGS = 50;
/** Characters kept of one warning, reason, identifier or error: enough for any message of this program, not for a page a source sends. */
export const MAX_RUN_TEXT = 2000;

/** Counts of a run that has done nothing yet. */
export const NO_COUNTS: RunCounts = Object.freeze({
  pages: 0,
  records: 0,
  inserted: 0,
  updated: 0,
  unchanged: 0,
  deleted: 0,
  superseded: 0,
  refused: 0,
  retries: 0,
});

/**
 * `text` cut to `max` characters (never in the middle of a surrogate pair), with `…` when cut.
 *
 * @example clip('abcdef', 4) // 'abc…'
 */
export function clip(text: string, max: number = MAX_RUN_TEXT): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * A refused record as a run reports it. A harvested record's identifier is
 * the source's (its internal id less `NAME:`); a record read without one is
 * named by where it was read when that says it in parentheses.
 *
 * @example runRefusal({ internalId: 'arxiv:oai:x:1', source: 'arxiv page 2 (oai:x:1)', field: 'xml', reason: '…' }, 'arxiv', 2) // { page: 2, identifier: 'oai:x:1', … }
 */
export function runRefusal(r: Refusal, source: string | null, page: number | null): RunRefusal {
  let identifier = r.internalId;
  if (source !== null && identifier.startsWith(`${source}:`)) identifier = identifier.slice(source.length + 1);
  if (identifier === '' && r.source !== undefined) identifier = /\(([^()]*)\)$/.exec(r.source)?.[1] ?? '';
  return { page, identifier: shownText(identifier, MAX_RUN_TEXT), field: shownText(r.field, 200), reason: shownText(r.reason, MAX_RUN_TEXT) };
}

/** A load's figures, as the loader's gauges of `/metrics`, `stats` and `doctor` show the last one. */
export interface LoadFigures {
  /** When it ended, milliseconds since the Unix epoch (whole seconds: what the store keeps). */
  readonly finished: number;
  /** Records it committed: inserted, updated or turned into tombstones (0 when it committed nothing). */
  readonly records: number;
  /** Records it refused. */
  readonly refusals: number;
  /** Records it read, refused ones included. */
  readonly read: number;
  /** How long it took, in seconds. */
  readonly seconds: number;
  readonly outcome: RunOutcome;
  /** Why it did not complete; null when it did. */
  readonly error: string | null;
}

/**
 * A load's figures from its run's report. A load records what it committed
 * and how long it took (lib/store/bookkeeping.ts `RunReport.written`, `seconds`); a
 * report without them committed nothing it told of, and took the whole
 * seconds between its start and end.
 *
 * @example loadFigures(run) // { finished: 1700000012000, records: 3, refusals: 0, read: 3, seconds: 1.25, outcome: 'completed', error: null }
 */
export function loadFigures(run: RunReport): LoadFigures {
  return {
    finished: run.ended * 1000,
    records: run.written ?? 0,
    refusals: run.counts.refused,
    read: run.counts.records,
    seconds: run.seconds ?? run.ended - run.started,
    outcome: run.outcome,
    error: run.error,
  };
}

/** Warnings of one kind a run shows (in its log and its report); the others of that kind are counted. */
export const WARNINGS_SHOWN_PER_KIND = 5;

/**
 * The warnings of one run by kind: the first {@link WARNINGS_SHOWN_PER_KIND}
 * of a kind are shown, the others counted and said in one line at the run's
 * end, so a source with 100,000 invalid set descriptions writes a few lines,
 * not 100,000. A warning given no kind is its own kind (only the very same
 * message repeated is counted).
 *
 * @example const t = new WarningTally(); if (t.shows('set description dropped')) log(message); … for (const line of t.more()) log(line);
 */
export class WarningTally {
  private readonly kinds = new Map<string, { seen: number; first: string }>();

  constructor(private readonly perKind: number = WARNINGS_SHOWN_PER_KIND) {}

  /** Counts a warning of `kind`; whether it is to be shown. */
  shows(kind: string, message: string = kind): boolean {
    const k = this.kinds.get(kind);
    if (k === undefined) this.kinds.set(kind, { seen: 1, first: message });
    else k.seen++;
    return (k?.seen ?? 1) <= this.perKind;
  }

  /** One line per kind with warnings not shown: `… and N more like it`, naming the kind and its first warning. */
  more(): string[] {
    const out: string[] = [];
    for (const [kind, k] of this.kinds)
      if (k.seen > this.perKind) out.push(`${kind}: … and ${k.seen - this.perKind} more like it (the first: ${shownText(k.first, 200)})`);
    return out;
  }
}

/** The warnings and refused records of one run, each kept up to its bound and counted beyond it. */
export class RunLog {
  readonly warnings: string[] = [];
  warningsOmitted = 0;
  readonly refusals: RunRefusal[] = [];
  refusalsOmitted = 0;

  constructor(private readonly bounds: { readonly refusals: number; readonly warnings: number } = { refusals: MAX_RUN_REFUSALS, warnings: MAX_RUN_WARNINGS }) {}

  warning(message: string): void {
    if (this.warnings.length < this.bounds.warnings) this.warnings.push(shownText(message, MAX_RUN_TEXT));
    else this.warningsOmitted++;
  }

  refusal(r: RunRefusal): void {
    if (this.refusals.length < this.bounds.refusals) this.refusals.push(r);
    else this.refusalsOmitted++;
  }

  /** The report of the run with what it gathered. */
  report(run: Omit<RunReport, 'warnings' | 'warningsOmitted' | 'refusals' | 'refusalsOmitted'>): RunReport {
    return {
      ...run,
      error: run.error === null ? null : shownText(run.error, MAX_RUN_TEXT),
      warnings: [...this.warnings],
      warningsOmitted: this.warningsOmitted,
      refusals: [...this.refusals],
      refusalsOmitted: this.refusalsOmitted,
    };
  }
}
