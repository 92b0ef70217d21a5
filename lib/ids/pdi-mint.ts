/**
 * Minting a PDI (section 3.6.1): a new identifier in a document series, for
 * a format, dated and numbered by the store's per-series, per-day counter,
 * parsed by ./pdi.ts before it is given out.
 */
import { WILDCARD, parsePdi } from './pdi';

/** What minting needs: the store supplies `nextSerial` from its per-series, per-day counter. */
export interface MintPdiInput {
  /** Document series, e.g. `pubs.example.us`: components and a two-letter country code. */
  readonly series: string;
  /** Format (media-type token), e.g. `html`, `text`, `pdf`. */
  readonly format: string;
  /** The GMT calendar date of minting, `YYYY-MM-DD` (2.3). */
  readonly date: string;
  /** The daily serial number: 1 for the first PDI of the series on that day (2.4). */
  readonly nextSerial: number;
  /** `urn` (default) gives `urn:pdi://…`; `url` gives `pdi://…` (3.8). */
  readonly form?: 'urn' | 'url';
}

/**
 * Mints a PDI as section 3.6.1 requires: fully specified, with a format and
 * version 1, no wildcards, a daily serial number as unique-id (2.4), the GMT
 * date of minting (2.3), in canonical form (series and format lowercased).
 * The caller supplies the next serial from its counter for that series and
 * day, which starts at 1 each GMT day. Throws a `RangeError` for an invalid
 * series, format, date or serial.
 *
 * @example mintPdi({ series: 'pubs.example.us', format: 'html', date: '2024-03-01', nextSerial: 1 }) // 'urn:pdi://pubs.example.us/2024/03/01/1.html.1'
 */
export function mintPdi(input: MintPdiInput): string {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(input.date);
  if (!m) throw new RangeError(`date "${input.date}" must be YYYY-MM-DD (GMT)`);
  if (!Number.isSafeInteger(input.nextSerial) || input.nextSerial < 1) {
    throw new RangeError(`serial ${input.nextSerial} must be an integer from 1 (2.4)`);
  }
  if (input.format === WILDCARD || input.series.includes(WILDCARD)) throw new RangeError('a minted PDI must not contain wildcards (3.6.1)');
  const prefix = input.form === 'url' ? 'pdi:' : 'urn:pdi:';
  const candidate = `${prefix}//${input.series}/${m[1]}/${m[2]}/${m[3]}/${input.nextSerial}.${input.format}.1`;
  const p = parsePdi(candidate);
  if (!p.ok) throw new RangeError(p.errors.join('; '));
  return p.canonical;
}
