/**
 * Checking a publication log from what anyone can download: its entries
 * against its tiles and its signed checkpoint, its history (each
 * identifier's first entry `new`, never again), and harvested records
 * against their identifiers' latest entries. Pure: the caller fetches.
 */
import crypto from 'node:crypto';
import { decodeEntry, type LogEntry } from './entry';
import { HASH_SIZE, leafHash, rootOf } from './merkle';
import { hashesAtLevel, TILE_WIDTH } from './tiles';
import { excC14n } from '../xml/exc-c14n';

/** The hex SHA-256 of a served metadata element's exclusive C14N: what a record line says. */
export function servedRecordHash(metadataElement: string): string {
  // One-shot: a Hash object fed once cost 4.2 µs a 3 KB record against 2.7.
  return crypto.hash('sha256', excC14n(metadataElement), 'hex');
}

/**
 * The first way the stored hashes of level `level` (each tile's, in order,
 * concatenated) disagree with the leaves, or null. Level 0 holds the leaf
 * hashes; level L the roots of runs of 256^L leaves.
 */
export function tileLevelProblem(level: number, stored: Buffer, leaves: readonly Buffer[]): string | null {
  const count = hashesAtLevel(leaves.length, level);
  if (stored.length !== count * HASH_SIZE) return `level ${level} of the tiles holds ${stored.length / HASH_SIZE} hashes, the entries give ${count}`;
  const span = TILE_WIDTH ** level;
  for (let i = 0; i < count; i++) {
    const want = level === 0 ? (leaves[i] as Buffer) : rootOf(leaves, i * span, (i + 1) * span);
    if (!stored.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE).equals(want)) {
      return `tile ${level}/${Math.floor(i / TILE_WIDTH)} hash ${i % TILE_WIDTH} disagrees with entries ${i * span}..${(i + 1) * span - 1}`;
    }
  }
  return null;
}

/** An identifier's entries: its latest, at which leaf. */
export interface Latest {
  readonly index: number;
  readonly entry: LogEntry;
}

/**
 * Reads every entry and checks the log's history: an identifier's first
 * entry is `new` and no later one is. Returns each identifier's latest
 * entry, or the first problem.
 */
export function historyOf(entries: readonly Buffer[]): { latest: Map<string, Latest> } | { problem: string } {
  const latest = new Map<string, Latest>();
  for (let i = 0; i < entries.length; i++) {
    let entry: LogEntry;
    try {
      entry = decodeEntry(entries[i] as Buffer);
    } catch (err) {
      return { problem: `entry ${i}: ${(err as Error).message}` };
    }
    const before = latest.get(entry.identifier);
    if (before === undefined && entry.status !== 'new') return { problem: `entry ${i}: the first entry of ${entry.identifier} is ${entry.status}, not new` };
    if (before !== undefined && entry.status === 'new') return { problem: `entry ${i}: ${entry.identifier} is new again (first at entry ${before.index})` };
    latest.set(entry.identifier, { index: i, entry });
  }
  return { latest };
}

/** The leaf hashes of entries, and the root they make. */
export function treeOf(entries: readonly Buffer[]): { leaves: Buffer[]; root: Buffer } {
  const leaves = entries.map((e) => leafHash(e));
  return { leaves, root: rootOf(leaves) };
}

/** A record as a harvester saw it. */
export interface HarvestedRecord {
  readonly identifier: string;
  readonly prefix: string;
  readonly datestamp: string;
  readonly deleted: boolean;
  readonly sets: readonly string[];
  /** The element inside `<metadata>`, as served; null for a deleted record. */
  readonly metadata: string | null;
}

/** How a harvested record disagrees with its identifier's latest entry, or null when it matches. */
export function recordProblem(r: HarvestedRecord, latest: Latest | undefined): string | null {
  const where = `${r.identifier} (${r.prefix})`;
  if (latest === undefined) return `${where} is served but has no entry in the log`;
  const e = latest.entry;
  const at = `its latest entry, ${latest.index}`;
  if (r.deleted !== (e.status === 'deleted')) return `${where} is served ${r.deleted ? 'deleted' : 'live'}, ${at} says ${e.status}`;
  if (e.setsHash === undefined && [...r.sets].sort().join('\n') !== [...e.sets].sort().join('\n'))
    return `${where} is served in sets [${r.sets.join(', ')}], ${at} says [${e.sets.join(', ')}]`;
  if (r.deleted) return null;
  const line = e.records.find((x) => x.prefix === r.prefix);
  if (line === undefined) return `${where} is served, ${at} lists no ${r.prefix} record`;
  if (line.datestamp !== r.datestamp) return `${where} is served with datestamp ${r.datestamp}, ${at} says ${line.datestamp}`;
  if (r.metadata === null || servedRecordHash(r.metadata) !== line.hash) return `${where}: the metadata served is not the metadata ${at} hashed`;
  return null;
}
