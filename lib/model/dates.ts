/**
 * Dates as records write them: W3CDTF (https://www.w3.org/TR/NOTE-datetime),
 * the profile of ISO 8601 that Dublin Core, OAI-PMH's oai_dc guidance, the
 * DRIVER, OpenAIRE and DINI guidelines and DataCite's `date` all name:
 * `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, and a day with a time and a zone
 * designator (`YYYY-MM-DDThh:mm[:ss[.s]]TZD`, TZD `Z` or `±hh:mm`). The
 * calendar is checked (no 30 February); a time keeps the day it was written
 * in, never shifted to another zone.
 *
 * Pure: no I/O, no clock.
 */

/** A W3CDTF value read: the text as written, and its calendar date at the precision it has. */
export interface W3cdtf {
  /** The value as written (trimmed). */
  readonly text: string;
  /** The calendar part: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`. */
  readonly date: string;
  readonly year: string;
  /** Whether it names a time of day as well. */
  readonly hasTime: boolean;
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * An ISO 8601 calendar date (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or only the last
 * with `fullOnly`) that exists, or null.
 *
 * @example calendarDate('2024-02-29') // '2024-02-29'
 * @example calendarDate('2023-02-29') // null
 */
export function calendarDate(s: string, fullOnly = false): string | null {
  const m = (fullOnly ? /^(\d{4})-(\d{2})-(\d{2})$/ : /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/).exec(s);
  if (!m) return null;
  const y = Number(m[1]);
  if (m[2] === undefined) return s;
  const mo = Number(m[2]);
  if (mo < 1 || mo > 12) return null;
  if (m[3] === undefined) return s;
  const d = Number(m[3]);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const max = mo === 2 && !leap ? 28 : (DAYS[mo - 1] as number);
  return d >= 1 && d <= max ? s : null;
}

const TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-](\d{2}):(\d{2}))$/;

/**
 * Reads a W3CDTF value, or null when the text is not one (a value that is
 * present but malformed is not a missing one: callers say which).
 *
 * @example parseW3cdtf('2003-04-15T10:18:51Z')?.date // '2003-04-15'
 * @example parseW3cdtf('15.04.2003') // null
 */
export function parseW3cdtf(value: string): W3cdtf | null {
  const text = value.trim();
  const plain = calendarDate(text);
  if (plain !== null) return { text, date: plain, year: plain.slice(0, 4), hasTime: false };
  const m = TIME.exec(text);
  if (!m) return null;
  const date = calendarDate(m[1] as string, true);
  const [h, min, sec] = [Number(m[2]), Number(m[3]), m[4] === undefined ? 0 : Number(m[4])];
  // W3CDTF: hh 00-23, mm 00-59, ss 00-59 (a leap second 60 is ISO 8601's, not W3CDTF's); zone hours up to 14.
  if (date === null || h > 23 || min > 59 || sec > 59) return null;
  if (m[6] !== undefined && (Number(m[6]) > 14 || Number(m[7]) > 59)) return null;
  return { text, date, year: date.slice(0, 4), hasTime: true };
}

/** info:eu-repo date terms (OpenAIRE 3.0, "Embargo End Date"): dates with a role, not the date of the work. */
export const EU_REPO_DATE = 'info:eu-repo/date/';

/**
 * Which of a record's untyped dates (Dublin Core's `date`, any date of the
 * resource's life) is its publication date, by what each value is:
 *
 * - a W3CDTF date without a time of day (`2000`, `2004-01`, `2004-01-12`), the
 *   first one: a publication date is a day at most;
 * - a timestamp (a day with a time and a zone) is when a system recorded the
 *   item: DSpace writes `dc.date.accessioned` and `dc.date.available` so, and
 *   stock DSpace's oai_dc gives them as `dc:date` beside `dc.date.issued`
 *   (`2004-01-12T15:25:06Z`, `2004-01-12T15:25:06Z`, `2000`), so a timestamp
 *   is never taken for the publication date while another date is there. Only
 *   when every date is the one same instant (DSpace 1 stamped an item not
 *   published before as issued when it accessioned it, and gave the three
 *   dates alike) is that instant the date of issue;
 * - info:eu-repo date terms and text that is not W3CDTF are not.
 *
 * @example publicationDateAmong(['2004-01-12T15:25:06Z', '2004-01-12T15:25:06Z', '2000']) // '2000'
 * @example publicationDateAmong(['2003-04-22T13:13:44Z', '2003-04-22T13:13:44Z']) // '2003-04-22T13:13:44Z'
 * @example publicationDateAmong(['2003-04-22T13:13:44Z', '2003-05-02T09:00:00Z']) // undefined
 */
export function publicationDateAmong(values: readonly string[]): string | undefined {
  const read = values.map((v) => v.trim()).filter((v) => !v.startsWith(EU_REPO_DATE));
  const parsed = read.map(parseW3cdtf).filter((w): w is W3cdtf => w !== null);
  const day = parsed.find((w) => !w.hasTime);
  if (day !== undefined) return day.text;
  const stamps = new Set(parsed.map((w) => w.text));
  return stamps.size === 1 && parsed.length === read.length ? [...stamps][0] : undefined;
}

/** Whether a value is a W3CDTF timestamp (a day with a time of day). @example isTimestamp('2004-02-11T15:07:51Z') // true */
export function isTimestamp(value: string): boolean {
  return parseW3cdtf(value)?.hasTime === true;
}
