/**
 * Checking the publication log as stored (what `doctor` asks): the head
 * against the tiles, every tile against the entries (level 0) or the tiles
 * below it, and every item's latest entry against the item as the store
 * serves it now. The first disagreement is named: the entry or tile, and
 * the item. A change made behind the write path (a record edited, a leaf or
 * tile rewritten) shows as one.
 */
import type { Knex } from 'knex';
import { decodeEntry, type LogEntry } from '../../../lib/tlog/entry';
import { HASH_SIZE, leafHash, rootOf } from '../../../lib/tlog/merkle';
import { tilesOf, TILE_WIDTH } from '../../../lib/tlog/tiles';
import { formatDatestamp } from '../../../lib/oai/dates';
import { toInt } from '../dialect';
import { snapshots, type ItemSnapshot } from './append';
import { readHead, readTile, rootAt } from './tables';

/** What the check found: the log's size, and the first disagreement or null. */
export interface LogInspection {
  readonly size: number;
  readonly problem: string | null;
}

/** Items compared at a time. */
const PAGE = 500;

function tileProblems(level: number, n: number, stored: Buffer | null, want: readonly Buffer[]): string | null {
  if (stored === null) return `tile ${level}/${n} is missing`;
  for (let i = 0; i < want.length; i++) {
    if (!stored.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE).equals(want[i] as Buffer)) {
      return level === 0
        ? `tile 0/${n} hash ${i} is not the hash of entry ${n * TILE_WIDTH + i}`
        : `tile ${level}/${n} hash ${i} is not the root of tile ${level - 1}/${n * TILE_WIDTH + i}`;
    }
  }
  return null;
}

/** How an item's latest entry differs from the item as served, or null. Records kept without XML are not compared (the store holds no bytes of them). */
function itemProblem(e: LogEntry, s: ItemSnapshot, unwritten: ReadonlySet<string>): string | null {
  if ((e.status === 'deleted') !== s.deleted) return `it is ${s.deleted ? 'deleted' : 'live'}, the entry says ${e.status}`;
  if (e.datestamp !== formatDatestamp(s.datestamp)) return `its datestamp is ${formatDatestamp(s.datestamp)}, the entry says ${e.datestamp}`;
  if (e.setsHash === undefined && [...e.sets].sort().join('\n') !== [...s.sets].sort().join('\n'))
    return `its sets are [${s.sets.join(', ')}], the entry says [${e.sets.join(', ')}]`;
  if (s.deleted) return null;
  for (const r of s.records) {
    const line = e.records.find((x) => x.prefix === r.prefix);
    if (line === undefined) return `it is served in ${r.prefix}, the entry lists no ${r.prefix} record`;
    if (line.hash !== r.hash) return `its ${r.prefix} record is not the one the entry hashed`;
    if (line.datestamp !== r.datestamp) return `its ${r.prefix} datestamp is ${r.datestamp}, the entry says ${line.datestamp}`;
  }
  for (const line of e.records) {
    if (!s.records.some((r) => r.prefix === line.prefix) && !unwritten.has(line.prefix))
      return `the entry lists a ${line.prefix} record the item is not served in`;
  }
  return null;
}

/**
 * Checks the log; the first disagreement found, in the order: head, tiles,
 * entries against the store.
 *
 * @example const { size, problem } = await inspectLog(knex);
 */
export async function inspectLog(db: Knex): Promise<LogInspection> {
  const head = await readHead(db);
  const size = head.size;
  let problem: string | null = null;
  try {
    if (!(await rootAt(db, size)).equals(head.root)) return { size, problem: `the head's root is not the root of the tiles at size ${size}` };
  } catch (err) {
    return { size, problem: (err as Error).message };
  }
  const latest = new Map<number, { index: number; entry: LogEntry }>();
  // Level 0: each tile against its entries' hashes, reading a tile's worth of entries at a time.
  const levels = tilesOf(size);
  for (const t of levels.filter((x) => x.level === 0)) {
    const rows = (await db('log_leaves')
      .where('idx', '>=', t.n * TILE_WIDTH)
      .andWhere('idx', '<', t.n * TILE_WIDTH + t.width)
      .orderBy('idx')
      .select('idx', 'item_pk', 'entry')) as { idx: unknown; item_pk: unknown; entry: Buffer }[];
    if (rows.length !== t.width)
      return { size, problem: `entries ${t.n * TILE_WIDTH}..${t.n * TILE_WIDTH + t.width - 1}: ${rows.length} of ${t.width} are stored` };
    for (const r of rows) {
      try {
        latest.set(toInt(r.item_pk), { index: toInt(r.idx), entry: decodeEntry(r.entry) });
      } catch (err) {
        return { size, problem: `entry ${toInt(r.idx)}: ${(err as Error).message}` };
      }
    }
    problem = tileProblems(
      0,
      t.n,
      await readTile(db, 0, t.n),
      rows.map((r) => leafHash(r.entry)),
    );
    if (problem !== null) return { size, problem };
  }
  for (const t of levels.filter((x) => x.level !== 0)) {
    const level = t.level as number;
    const want: Buffer[] = [];
    for (let i = 0; i < t.width; i++) {
      const below = await readTile(db, level - 1, t.n * TILE_WIDTH + i);
      if (below === null || below.length !== TILE_WIDTH * HASH_SIZE)
        return { size, problem: `tile ${level - 1}/${t.n * TILE_WIDTH + i} is not full under tile ${level}/${t.n}` };
      const hashes: Buffer[] = [];
      for (let j = 0; j < TILE_WIDTH; j++) hashes.push(below.subarray(j * HASH_SIZE, (j + 1) * HASH_SIZE));
      want.push(rootOf(hashes));
    }
    problem = tileProblems(level, t.n, await readTile(db, level, t.n), want);
    if (problem !== null) return { size, problem };
  }
  // Every item against its latest entry.
  for (let after = 0; ;) {
    const rows = (await db('items').where('pk', '>', after).orderBy('pk').limit(PAGE).select('pk')) as { pk: unknown }[];
    if (rows.length === 0) break;
    const pks = rows.map((r) => toInt(r.pk));
    const unwritten = new Map<number, Set<string>>();
    const bare = (await db('records').whereIn('item_pk', pks).whereNull('xml').select('item_pk', 'prefix')) as { item_pk: unknown; prefix: string }[];
    for (const b of bare) unwritten.set(toInt(b.item_pk), new Set([...(unwritten.get(toInt(b.item_pk)) ?? []), b.prefix]));
    for (const s of await snapshots(db, pks, -1, -1)) {
      const l = latest.get(s.pk);
      if (l === undefined) return { size, problem: `${s.identifier} is served but has no entry in the log` };
      const why = itemProblem(l.entry, s, unwritten.get(s.pk) ?? new Set());
      if (why !== null) return { size, problem: `${s.identifier} disagrees with its latest entry, ${l.index}: ${why}` };
    }
    after = pks[pks.length - 1] as number;
  }
  return { size, problem: null };
}
