/**
 * UTCdatetime values of OAI-PMH 3.3. The repository's granularity is seconds;
 * datestamps travel through the code as integer seconds since the epoch.
 */

/** How precise a request's `from`/`until` was (OAI-PMH 3.3.2). */
export type Granularity = 'day' | 'second';

/** A parsed `from` or `until` argument. */
export interface ParsedDatetime {
  readonly granularity: Granularity;
  /** The first second the value denotes. */
  readonly start: number;
  /** The last second the value denotes (the end of the day for a date). */
  readonly end: number;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const SECOND = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/**
 * Parses `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ssZ`; null for anything else,
 * including impossible dates such as `2002-02-30` or `2002-02-05T24:00:00Z`.
 * Example: `parseUtcDatetime('2002-02-05').end` is 2002-02-05T23:59:59Z.
 */
export function parseUtcDatetime(value: string): ParsedDatetime | null {
  const day = DAY.exec(value);
  if (day) {
    const start = toSeconds(Number(day[1]), Number(day[2]), Number(day[3]), 0, 0, 0);
    return start === null ? null : { granularity: 'day', start, end: start + 86399 };
  }
  const sec = SECOND.exec(value);
  if (sec) {
    const start = toSeconds(Number(sec[1]), Number(sec[2]), Number(sec[3]), Number(sec[4]), Number(sec[5]), Number(sec[6]));
    return start === null ? null : { granularity: 'second', start, end: start };
  }
  return null;
}

function toSeconds(y: number, mo: number, d: number, h: number, mi: number, s: number): number | null {
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  // Date.UTC rolls 2002-02-30 over into March; a round trip catches it. It also
  // maps years 0-99 to 1900-1999, which the same check refuses.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return Math.floor(ms / 1000);
}

/** Formats seconds since the epoch as `YYYY-MM-DDThh:mm:ssZ`. Example: `formatDatestamp(0)` is `1970-01-01T00:00:00Z`. */
export function formatDatestamp(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19) + 'Z';
}
