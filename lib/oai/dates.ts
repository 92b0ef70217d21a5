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

/** `00`…`99`. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
/** 10000-01-01T00:00:00Z: from here on a year has more than four digits. */
const YEAR_10000 = 253402300800;

/**
 * Formats seconds since the epoch as `YYYY-MM-DDThh:mm:ssZ`. Example: `formatDatestamp(0)` is `1970-01-01T00:00:00Z`.
 *
 * It runs once for every header of every harvest, so the common case (whole
 * seconds from 1970 to 9999) is integer arithmetic on the day number, the
 * proleptic Gregorian calendar of ISO 8601 that Date uses too (H. Hinnant,
 * "chrono-Compatible Low-Level Date Algorithms", civil_from_days), without a
 * Date object and the string slicing it needs; anything else goes through Date.
 */
export function formatDatestamp(seconds: number): string {
  if (!(seconds >= 0 && seconds < YEAR_10000 && Number.isInteger(seconds))) {
    return new Date(seconds * 1000).toISOString().slice(0, 19) + 'Z';
  }
  const days = Math.floor(seconds / 86400);
  const time = seconds - days * 86400;
  // civil_from_days: eras of 400 years (146097 days) counted from 0000-03-01, so leap days fall at the end of a year.
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(time / 3600);
  const minute = Math.floor((time - hour * 3600) / 60);
  const second = time - hour * 3600 - minute * 60;
  return `${year}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T${TWO_DIGITS[hour]}:${TWO_DIGITS[minute]}:${TWO_DIGITS[second]}Z`;
}
