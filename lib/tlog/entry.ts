/**
 * One entry of the publication log: a publication event of one item, as a
 * full snapshot of the item as served after it (UTF-8, each line ending LF):
 *
 * ```
 * oai-pmh-event/v1
 * identifier <oai-identifier>
 * status new|changed|deleted
 * datestamp <header datestamp>
 * set <setSpec>                                    0..n, sorted by their UTF-8 bytes
 * record <metadataPrefix> <datestamp> <sha256 hex> 1..n for a live item, sorted by prefix; none when deleted
 * ```
 *
 * `new` is the first entry of an identifier ever, `changed` any later live
 * state (a revival included), `deleted` a tombstone. An entry longer than an
 * entry bundle can carry (65,535 bytes, C2SP tlog-tiles) gives, instead of
 * its set lines, one line `sets-sha256 <hex>`: the SHA-256 of the set lines
 * it would have had, concatenated.
 */
import crypto from 'node:crypto';

/** The first line of every entry. */
export const ENTRY_MAGIC = 'oai-pmh-event/v1';
/** The longest entry an entry bundle carries. */
export const MAX_ENTRY_BYTES = 0xffff;

export type EntryStatus = 'new' | 'changed' | 'deleted';

/** A record line: a format the item is disseminated in, its datestamp and record hash. */
export interface EntryRecord {
  readonly prefix: string;
  /** As served in the header (lib/oai/dates.ts `formatDatestamp`). */
  readonly datestamp: string;
  /** Hex SHA-256 of the exclusive C14N of the element inside `<metadata>` (lib/xml/exc-c14n.ts). */
  readonly hash: string;
}

/** A publication event, as its entry says it. */
export interface LogEntry {
  readonly identifier: string;
  readonly status: EntryStatus;
  readonly datestamp: string;
  readonly sets: readonly string[];
  /** The set lines' hash, when the entry gives it instead of the sets (read back only). */
  readonly setsHash?: string;
  readonly records: readonly EntryRecord[];
}

/** Compares strings by their UTF-8 bytes. */
export function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function lineSafe(what: string, value: string): string {
  if (value === '' || /[\s]/u.test(value)) throw new Error(`a log entry's ${what} ${JSON.stringify(value)} is empty or holds white space`);
  return value;
}

/**
 * An event's entry bytes, sets and records sorted as above.
 *
 * @example encodeEntry({ identifier: 'oai:x:1', status: 'new', datestamp: '2026-01-01T00:00:00Z', sets: [], records: [] })
 */
export function encodeEntry(e: LogEntry): Buffer {
  const head = [ENTRY_MAGIC, `identifier ${lineSafe('identifier', e.identifier)}`, `status ${e.status}`, `datestamp ${e.datestamp}`];
  const setLines = [...e.sets].sort(byBytes).map((s) => `set ${lineSafe('setSpec', s)}\n`);
  const records = e.status === 'deleted' ? [] : [...e.records].sort((a, b) => byBytes(a.prefix, b.prefix));
  const recordLines = records.map((r) => `record ${lineSafe('metadataPrefix', r.prefix)} ${r.datestamp} ${r.hash}\n`);
  const text = (sets: string): Buffer => Buffer.from(`${head.join('\n')}\n${sets}${recordLines.join('')}`, 'utf8');
  const whole = text(setLines.join(''));
  if (whole.length <= MAX_ENTRY_BYTES) return whole;
  const setsHash = crypto.createHash('sha256').update(setLines.join(''), 'utf8').digest('hex');
  const short = text(`sets-sha256 ${setsHash}\n`);
  if (short.length > MAX_ENTRY_BYTES) throw new Error(`the log entry of ${e.identifier} is over ${MAX_ENTRY_BYTES} bytes even without its sets`);
  return short;
}

/** Reads an entry back; throws naming the line that is wrong. */
export function decodeEntry(bytes: Uint8Array): LogEntry {
  const text = Buffer.from(bytes).toString('utf8');
  if (!text.endsWith('\n')) throw new Error('a log entry ends with a newline');
  const lines = text.slice(0, -1).split('\n');
  const at = (i: number, key: string): string => {
    const line = lines[i];
    if (line === undefined || !line.startsWith(`${key} `)) throw new Error(`line ${i + 1} of a log entry is not "${key} …"`);
    return line.slice(key.length + 1);
  };
  if (lines[0] !== ENTRY_MAGIC) throw new Error(`a log entry begins with "${ENTRY_MAGIC}"`);
  const identifier = at(1, 'identifier');
  const status = at(2, 'status');
  if (status !== 'new' && status !== 'changed' && status !== 'deleted') throw new Error(`a log entry's status is ${status}`);
  const datestamp = at(3, 'datestamp');
  const sets: string[] = [];
  const records: EntryRecord[] = [];
  let setsHash: string | undefined;
  for (let i = 4; i < lines.length; i++) {
    const [key, ...rest] = (lines[i] as string).split(' ');
    if (key === 'set' && rest.length === 1 && records.length === 0) sets.push(rest[0] as string);
    else if (key === 'sets-sha256' && rest.length === 1 && records.length === 0) setsHash = rest[0] as string;
    else if (key === 'record' && rest.length === 3) records.push({ prefix: rest[0] as string, datestamp: rest[1] as string, hash: rest[2] as string });
    else throw new Error(`line ${i + 1} of a log entry is not a set or record line: ${lines[i]}`);
  }
  return { identifier, status, datestamp, sets, records, ...(setsHash !== undefined && { setsHash }) };
}
