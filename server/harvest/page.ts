/**
 * One page of a source's ListRecords (or ListSets), read with the loader's
 * own reader (server/loader/read-oai-xml.ts) and turned into store items by
 * the loader's own conversion (server/loader/xml-record.ts), then given the
 * hub's identity for the source:
 *
 * - the internal id is `NAME:` followed by the source's oai-identifier, so
 *   it is stable across harvests, never reused by another source, and the
 *   source's identifier can be read back from it;
 * - the record is in the set `source:NAME`, and each set it names at the
 *   source becomes `source:NAME:SPEC` (two sources' `physics` never merge;
 *   as children of `source:NAME`, OAI-PMH 2.0 section 2.7.2);
 * - the provenance about container describing the source
 *   (`withProvenance`, nested on what the record had) is the loader's.
 *
 * Characters XML 1.0 cannot carry (a control character, raw or as a
 * character reference) would make the whole page not well-formed; they are
 * marked before parsing so that only the records holding one are refused.
 */
import type { FormatRegistry } from '../../lib/formats/registry';
import type { ItemInput, SetInput } from '../../lib/store';
import type { Refusal } from '../../lib/model/refusal';
import { readOaiXml } from '../loader/read-oai-xml';
import { type XmlRecord } from '../loader/xml-events';
import { xmlToItem } from '../loader/xml-record';
import { utf8Tail } from '../loader/limits';

/** Stands for a character XML 1.0 cannot carry (a noncharacter, which no record should hold either). */
const MARK = '\uFDD0';
// XML 1.0 section 2.2, Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
const ILLEGAL_RAW = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const CHAR_REF = /&#(?:x([0-9A-Fa-f]+)|([0-9]+));/g;

function legalCodePoint(c: number): boolean {
  return c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
}

/**
 * The page with every character XML 1.0 cannot carry replaced by a mark,
 * and the characters replaced (for messages).
 *
 * @example markIllegalCharacters('<a>x\u0001</a>').text // '<a>x\uFDD0</a>'
 */
export function markIllegalCharacters(page: string): { text: string; found: string[] } {
  const found = new Set<string>();
  const name = (c: number): string => `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
  let text = page.replace(ILLEGAL_RAW, (m) => {
    found.add(name(m.charCodeAt(0)));
    return MARK;
  });
  text = text.replace(CHAR_REF, (m, hex: string | undefined, dec: string | undefined) => {
    const c = hex !== undefined ? parseInt(hex, 16) : Number(dec);
    if (legalCodePoint(c)) return m;
    found.add(name(c));
    return MARK;
  });
  return { text, found: [...found] };
}

/** Where a page of a list harvest comes from. */
/** What {@link decodeMarkingInvalid} puts for each byte sequence that is not UTF-8, in UTF-8. */
const MARK_BYTES = Buffer.from(MARK, 'utf8');
const FATAL_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A page's bytes as text. Each byte sequence that is not UTF-8 (RFC 3629
 * section 4: overlong forms, surrogates, code points past U+10FFFF, stray
 * or missing continuation bytes) becomes the mark, so the record holding it
 * is refused alone, never stored with U+FFFD in place of what the source
 * meant (`load` refuses the same bytes). A page that is all UTF-8, as nearly
 * every page is, is decoded once, in native code.
 *
 * @example decodeMarkingInvalid(Buffer.from([0x61, 0xff, 0x62])) // { text: 'a\uFDD0b', invalid: true }
 */
export function decodeMarkingInvalid(body: Buffer): { text: string; invalid: boolean } {
  try {
    return { text: FATAL_UTF8.decode(body), invalid: false };
  } catch {
    const parts: Buffer[] = [];
    let start = 0;
    let i = 0;
    while (i < body.length) {
      const n = utf8SequenceLength(body, i);
      if (n > 0) {
        i += n;
        continue;
      }
      parts.push(body.subarray(start, i), MARK_BYTES);
      i += 1;
      start = i;
    }
    parts.push(body.subarray(start));
    return { text: Buffer.concat(parts).toString('utf8'), invalid: true };
  }
}

/** The length of the well-formed UTF-8 sequence at `i` (RFC 3629 section 4, Table 3-7 of Unicode), 0 when there is none. */
function utf8SequenceLength(b: Buffer, i: number): number {
  const c = b[i] as number;
  if (c < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < b.length && (b[i + k] as number) >= lo && (b[i + k] as number) <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((c >= 0xe1 && c <= 0xec) || c === 0xee || c === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (c === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (c === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

export interface PageContext {
  readonly source: string;
  /** The largest record read (its metadata, an about container, a header's text); a larger one is refused alone. */
  readonly maxRecordBytes: number;
  readonly sourceBaseUrl: string;
  readonly prefix: string;
  /** The page's number in the list (1-based), for messages. */
  readonly page: number;
  readonly formats: FormatRegistry;
}

/** A page read: its items, the refusals of its records, its token and responseDate, or a fault. */
export interface ReadPage {
  readonly items: ItemInput[];
  readonly refusals: Refusal[];
  /** Records read (refused ones too). */
  readonly records: number;
  readonly sets: SetInput[];
  /** The resumptionToken; '' or absent: the list is complete. */
  readonly token?: string;
  readonly completeListSize?: number;
  readonly responseDate?: string;
  /** The page cannot be used: not well-formed, not OAI-PMH, or an OAI-PMH error (`code`). */
  readonly fault?: { readonly reason: string; readonly code?: string; readonly malformed: boolean };
}

/** The internal id of a source's record. */
export function harvestedId(source: string, identifier: string): string {
  return `${source}:${identifier}`;
}

/** The hub's spec for a set of a source (or the source's own set, without `spec`). */
export function harvestedSet(source: string, spec?: string): string {
  return spec === undefined ? `source:${source}` : `source:${source}:${spec}`;
}

/** What the loader's conversion needs to treat every record as another repository's. */
const FOREIGN = { namespace: '', unmap: (): null => null };

/**
 * A page's bytes, as they arrive, as text marked as {@link decodeMarkingInvalid}
 * and {@link markIllegalCharacters} mark it; `found` gathers what was marked
 * so far. A UTF-8 sequence or a character reference cut by the end of a
 * chunk waits for the next.
 */
async function* markedText(body: AsyncIterable<Buffer>, found: Set<string>): AsyncGenerator<string> {
  let carry: Buffer = Buffer.alloc(0);
  let pending = '';
  const text = (bytes: Buffer, last: boolean): string => {
    const decoded = decodeMarkingInvalid(bytes);
    if (decoded.invalid) found.add('bytes that are not UTF-8');
    let t = pending + decoded.text;
    pending = '';
    if (!last) {
      // A character reference is at most `&#x10FFFF;` and some leading zeros: an `&` near the end without its `;` waits.
      const amp = t.lastIndexOf('&');
      if (amp >= 0 && amp >= t.length - 32 && !t.includes(';', amp)) {
        pending = t.slice(amp);
        t = t.slice(0, amp);
      }
    }
    const marked = markIllegalCharacters(t);
    for (const f of marked.found) found.add(f);
    return marked.text;
  };
  for await (const chunk of body) {
    const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const keep = utf8Tail(bytes);
    carry = Buffer.from(bytes.subarray(bytes.length - keep));
    const t = text(bytes.subarray(0, bytes.length - keep), false);
    if (t !== '') yield t;
  }
  const t = text(carry, true);
  if (t !== '') yield t;
}

/**
 * Reads one page as it arrives (a whole page, or the chunks of an answer
 * being received): the loader's streaming reader splits it into records,
 * so nothing holds the page's bytes or text whole. Records that cannot be
 * stored (too large, not UTF-8, a character XML cannot carry, refused by
 * the conversion) are refused here, each alone, named by source, page and
 * identifier; the rest become items.
 */
export async function readPage(body: Buffer | AsyncIterable<Buffer>, ctx: PageContext): Promise<ReadPage> {
  const found = new Set<string>();
  const text = markedText(Buffer.isBuffer(body) ? once(body) : body, found);
  const items: ItemInput[] = [];
  const refusals: Refusal[] = [];
  const sets: SetInput[] = [];
  let records = 0;
  let token: string | undefined;
  let completeListSize: number | undefined;
  let origin: { baseURL?: string; responseDate?: string } = {};
  for await (const ev of readOaiXml(text, 'response', { maxRecordBytes: ctx.maxRecordBytes }, [], { refuseOversizedRecords: true })) {
    if (ev.kind === 'fault') {
      return {
        items: [],
        refusals: [],
        records: 0,
        sets: [],
        fault: { reason: `line ${ev.line}: ${ev.reason}`, ...(ev.code !== undefined && { code: ev.code }), malformed: ev.code === undefined },
      };
    }
    if (ev.kind === 'request') {
      // The provenance names the base URL this harvest asked, never what the response says it was asked at:
      // a source cannot choose whose records it serves (OAI-PMH 2.0 section 3.2, the request element echoes the request).
      origin = { baseURL: ctx.sourceBaseUrl, ...(ev.responseDate !== undefined && { responseDate: ev.responseDate }) };
    } else if (ev.kind === 'resumption') {
      token = ev.token;
      completeListSize = ev.completeListSize;
    } else if (ev.kind === 'set') {
      sets.push({ ...ev.set, spec: harvestedSet(ctx.source, ev.set.spec) });
    } else {
      records++;
      // The records are in the format this harvest asked for: a source's <request> echo cannot change it.
      const r = convert(ev, ctx, origin, ctx.prefix, [...found]);
      if ('item' in r) items.push(r.item);
      else refusals.push(...r.refusals);
    }
  }
  return {
    items,
    refusals,
    records,
    sets,
    ...(token !== undefined && { token }),
    ...(completeListSize !== undefined && { completeListSize }),
    ...(origin.responseDate !== undefined && { responseDate: origin.responseDate }),
  };
}

async function* once(body: Buffer): AsyncGenerator<Buffer> {
  yield body;
}

function convert(
  rec: XmlRecord,
  ctx: PageContext,
  origin: { baseURL?: string; responseDate?: string },
  prefix: string,
  found: readonly string[],
): { item: ItemInput } | { refusals: Refusal[] } {
  const identifier = rec.identifier?.trim() ?? '';
  const where = `${ctx.source} page ${ctx.page} (${identifier === '' ? `record ${rec.number}` : identifier})`;
  const internalId = identifier === '' ? '' : harvestedId(ctx.source, identifier);
  const marked = [rec.identifier, rec.datestamp, rec.metadata, ...rec.sets, ...rec.about].some((s) => s?.includes(MARK) === true);
  if (marked) {
    return {
      refusals: [
        {
          internalId,
          source: where,
          field: 'xml',
          reason: `holds what an XML 1.0 document in UTF-8 cannot carry (${found.join(', ')} on this page; XML 1.0 section 2.2, RFC 3629)`,
        },
      ],
    };
  }
  // What was not kept of it cannot be judged: why it was cut is the one reason given.
  if (rec.cut === true) return { refusals: rec.problems.map((p) => ({ internalId, source: where, field: p.field, reason: p.reason })) };
  const r = xmlToItem({ ...rec, ...(identifier !== '' && { identifier }) }, { policy: FOREIGN, formats: ctx.formats, requestPrefix: prefix, origin }, where);
  if ('refusals' in r) return { refusals: r.refusals.map((x) => ({ ...x, internalId })) };
  return {
    item: {
      ...r.item,
      internalId,
      harvestedFrom: ctx.source,
      sets: [harvestedSet(ctx.source), ...(r.item.sets ?? []).map((s) => harvestedSet(ctx.source, s))],
    },
  };
}
