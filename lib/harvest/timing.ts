/**
 * The harvester's arithmetic of time, pure (no clock: "now" is passed in):
 * the `from` of an incremental harvest, how long a provider asks to be left
 * alone (`Retry-After`), and the backoff between attempts.
 */
import { formatDatestamp, parseUtcDatetime, type Granularity } from '../oai/dates';

/**
 * The `from` of an incremental list: the responseDate of the last list
 * harvested to its end, less one granule of the source's granularity
 * (OAI-PMH 2.0 section 3.3.1: a record changed in the same second, or on
 * the same day, as that response may not have been in it), written in that
 * granularity (a day-granularity repository refuses seconds, `badArgument`).
 * Null when the responseDate cannot be read (then the list is harvested in full).
 *
 * @example incrementalFrom('2024-03-05T10:00:00Z', 'second') // '2024-03-05T09:59:59Z'
 * @example incrementalFrom('2024-03-05T10:00:00Z', 'day') // '2024-03-04'
 */
export function incrementalFrom(lastResponseDate: string, granularity: Granularity): string | null {
  const p = parseUtcDatetime(lastResponseDate.trim());
  if (!p) return null;
  if (granularity === 'second') return formatDatestamp(Math.max(0, p.start - 1));
  const dayStart = p.start - (p.start % 86400);
  return formatDatestamp(Math.max(0, dayStart - 86400)).slice(0, 10);
}

/** How far ahead of this side's clock a source's responseDate may be before the run says so: clocks drift. */
export const CLOCK_AHEAD_WARNING_SECONDS = 300;

/**
 * The time a run's list is taken to have been harvested up to, for the next
 * run's `from` ({@link incrementalFrom}): the source's responseDate, but never
 * later than this side's clock, since a source whose clock runs ahead (a
 * responseDate of 2030) would otherwise make every later run ask `from` a
 * time still to come, and miss every change made before it. `aheadSeconds`:
 * how far the source's clock ran ahead (0 when it did not); null when the
 * responseDate cannot be read.
 *
 * @example harvestedUpTo('2030-01-01T00:00:00Z', Date.parse('2026-11-27T16:00:00Z') / 1000) // { at: '2026-11-27T16:00:00Z', aheadSeconds: 97_315_200 }
 */
export function harvestedUpTo(responseDate: string, nowSeconds: number): { at: string; aheadSeconds: number } | null {
  const p = parseUtcDatetime(responseDate.trim());
  if (!p) return null;
  return p.start > nowSeconds ? { at: formatDatestamp(nowSeconds), aheadSeconds: p.start - nowSeconds } : { at: responseDate.trim(), aheadSeconds: 0 };
}

/**
 * The granularity an Identify response declares (`YYYY-MM-DD` or
 * `YYYY-MM-DDThh:mm:ssZ`, OAI-PMH 2.0 section 4.2); day when it says nothing usable,
 * since every repository must accept days.
 */
export function granularityOf(declared: string | undefined): Granularity {
  return declared?.trim() === 'YYYY-MM-DDThh:mm:ssZ' ? 'second' : 'day';
}

/**
 * A `from` or `until` given by a person, brought to the source's
 * granularity: a day stays a day; seconds are cut to their day for a
 * day-granularity source. Null when it is not a UTCdatetime.
 *
 * @example inGranularity('2024-03-05T10:00:00Z', 'day') // '2024-03-05'
 */
export function inGranularity(value: string, granularity: Granularity): string | null {
  const p = parseUtcDatetime(value.trim());
  if (!p) return null;
  if (p.granularity === 'day' || granularity === 'second') return value.trim();
  return value.trim().slice(0, 10);
}

/**
 * Milliseconds a `Retry-After` header asks for (RFC 9110 section 10.2.3:
 * delay-seconds or an HTTP-date), at most `capMs`; undefined when there is no
 * usable header. A date in the past asks for no wait.
 *
 * @example retryAfterMs('120', 0, 60_000) // 60000
 * @example retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('2015-10-21T07:27:50Z'), 60_000) // 10000
 */
export function retryAfterMs(header: string | undefined, nowMs: number, capMs: number): number | undefined {
  if (header === undefined) return undefined;
  const v = header.trim();
  if (/^\d+$/.test(v)) return Math.min(Number(v) * 1000, capMs);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - nowMs), capMs);
}

/**
 * Exponential backoff with full jitter (attempt 1, 2, …): a random wait
 * between half of `baseMs · 2^(attempt-1)` (capped at `maxMs`) and all of it,
 * so harvesters that failed together do not come back together.
 *
 * @example backoffMs(3, 1000, 30_000, () => 1) // 4000
 */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
