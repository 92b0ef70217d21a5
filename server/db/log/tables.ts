/**
 * The publication log's tables (migration 019): its leaves, its tiles and
 * its head. Read and written under the store's publication lock only
 * (../publication.ts), so appends are serialized across every writer.
 *
 * - `log_leaves (idx, item_pk, entry)`: entry `idx` of the log and the item it
 *   is about; an item's latest leaf is its highest `idx`;
 * - `log_tiles (level, n, hashes)`: tile n of a level, 32 bytes per hash: a
 *   full tile (256 hashes) is never written again, a partial one grows in
 *   place and serves every narrower width as its prefix (lib/tlog/tiles.ts);
 * - `log_head (id = 1, size, root, items)`: the tree size and root after the
 *   last append, and how many items have a leaf (so a publication finds an
 *   item written without one, a new item that kept its datestamp, by a count);
 * - `log_signed (id = 1, size, root)`: the largest checkpoint a server of the
 *   store has signed, written by the servers, not under the lock: every
 *   process and every restart checks the log against it before it signs.
 */
import type { Knex } from 'knex';
import { HASH_SIZE, EMPTY_ROOT } from '../../../lib/tlog/merkle';
import { rightEdge, rootFromTiles, TILE_WIDTH, type TileData } from '../../../lib/tlog/tiles';
import type { LogHead } from '../../../lib/tlog/store';
import { toInt } from '../dialect';

export type { LogHead };

/** The head; the empty tree when nothing was appended. */
export async function readHead(db: Knex): Promise<LogHead> {
  const row = (await db('log_head').where('id', 1).first('size', 'root')) as { size: unknown; root: Buffer } | undefined;
  return row === undefined ? { size: 0, root: EMPTY_ROOT } : { size: toInt(row.size), root: Buffer.from(row.root) };
}

/** The largest checkpoint signed for this store; null when none was. */
export async function readSigned(db: Knex): Promise<LogHead | null> {
  const row = (await db('log_signed').where('id', 1).first('size', 'root')) as { size: unknown; root: Buffer } | undefined;
  return row === undefined ? null : { size: toInt(row.size), root: Buffer.from(row.root) };
}

/**
 * Records `head` as signed, unless a larger checkpoint is recorded already
 * (another server signed it since): the record only ever grows.
 */
export async function recordSigned(db: Knex, head: LogHead): Promise<void> {
  const grown = await db('log_signed').where('id', 1).andWhere('size', '<', head.size).update({ size: head.size, root: head.root });
  if (grown === 0) await db('log_signed').insert({ id: 1, size: head.size, root: head.root }).onConflict('id').ignore();
}

/** A tile's stored hashes, or null when it was never written. */
export async function readTile(db: Knex, level: number, n: number): Promise<Buffer | null> {
  const row = (await db('log_tiles').where({ level, n }).first('hashes')) as { hashes: Buffer } | undefined;
  return row === undefined ? null : Buffer.from(row.hashes);
}

/** The rightmost tile of a level: its index and hashes. */
export interface EdgeTile {
  readonly n: number;
  readonly hashes: Buffer;
}

/** The content of the tiles an append to a tree of `size` continues (its partial tiles), by level. */
export async function readEdge(db: Knex, size: number): Promise<Map<number, EdgeTile>> {
  const edge = new Map<number, EdgeTile>();
  for (const t of rightEdge(size)) {
    const level = t.level as number;
    const hashes = await readTile(db, level, t.n);
    if (hashes === null || hashes.length < t.width * HASH_SIZE)
      throw new Error(`the publication log's tile ${level}/${t.n} holds fewer than ${t.width} hashes`);
    edge.set(level, { n: t.n, hashes });
  }
  return edge;
}

/**
 * The root of the tree of `size` leaves from its partial tiles (`edge`, by
 * level), which is all a root needs: the complete subtrees it folds that
 * are not a stored hash of a full tile's level lie in the rightmost tile of a level.
 */
export function rootOfEdge(size: number, edge: ReadonlyMap<number, EdgeTile>): Buffer {
  return rootFromTiles(size, (level, i) => {
    const t = edge.get(level);
    const at = (i % TILE_WIDTH) * HASH_SIZE;
    if (t === undefined || t.n !== Math.floor(i / TILE_WIDTH) || t.hashes.length < at + HASH_SIZE)
      throw new Error(`the publication log has no hash ${i} at level ${level}`);
    return t.hashes.subarray(at, at + HASH_SIZE);
  });
}

/** Writes changed tiles: a partial tile grows in place; a full tile is written once and never again. */
export async function writeTiles(db: Knex, tiles: readonly TileData[]): Promise<void> {
  for (const t of tiles) {
    const before = await readTile(db, t.level, t.n);
    if (before === null) await db('log_tiles').insert({ level: t.level, n: t.n, hashes: t.hashes });
    else if (before.length === TILE_WIDTH * HASH_SIZE) throw new Error(`the publication log's full tile ${t.level}/${t.n} would be written again`);
    else if (!t.hashes.subarray(0, before.length).equals(before)) throw new Error(`the publication log's tile ${t.level}/${t.n} would change what it holds`);
    else await db('log_tiles').where({ level: t.level, n: t.n }).update({ hashes: t.hashes });
  }
}

/** How many items have a leaf. */
export async function loggedItems(db: Knex): Promise<number> {
  const row = (await db('log_head').where('id', 1).first('items')) as { items: unknown } | undefined;
  return row === undefined ? 0 : toInt(row.items);
}

/** Writes the head after an append that gave `newItems` items their first leaf. */
export async function writeHead(db: Knex, head: LogHead, newItems: number): Promise<void> {
  const items = (await loggedItems(db)) + newItems;
  const updated = await db('log_head').where('id', 1).update({ size: head.size, root: head.root, items });
  if (updated === 0) await db('log_head').insert({ id: 1, size: head.size, root: head.root, items });
}

/** The root of the tree of the first `size` leaves, from the tiles as stored (their prefixes at that size). */
export async function rootAt(db: Knex, size: number): Promise<Buffer> {
  return rootOfEdge(size, await readEdge(db, size));
}

/** Entries `from` .. `from + count - 1` that exist, in order. */
export async function readEntries(db: Knex, from: number, count: number): Promise<Buffer[]> {
  const rows = (await db('log_leaves')
    .where('idx', '>=', from)
    .andWhere('idx', '<', from + count)
    .orderBy('idx')
    .select('entry')) as { entry: Buffer }[];
  return rows.map((r) => Buffer.from(r.entry));
}
