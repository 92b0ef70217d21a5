/**
 * Tiles of a Merkle tree (C2SP tlog-tiles): the tree served as immutable
 * files of 256 consecutive hashes, so a client fetches what it needs and
 * computes any root or proof itself.
 *
 * The tile at level L and index N holds, for i in [0, W), the hash of the
 * complete subtree of height 8L whose index is N·256 + i, i.e. MTH of the
 * leaves [(N·256 + i)·256^L, (N·256 + i + 1)·256^L). A full tile has
 * W = 256; the rightmost tile of a level is partial (W = 1..255) and named
 * `.p/W`. A partial tile is a prefix of every later state of that tile, so a
 * store keeps one row per tile and serves any narrower width by cutting it.
 */
import { HASH_SIZE, EMPTY_ROOT, nodeHash, rootOf } from './merkle';

/** Levels of the tree a tile spans (C2SP tlog-tiles: tiles are 8 levels high). */
export const TILE_HEIGHT = 8;
/** Hashes in a full tile (2^TILE_HEIGHT). */
export const TILE_WIDTH = 256;

/** A tile: `level` 'entries' names an entry bundle. */
export interface TileRef {
  readonly level: number | 'entries';
  readonly n: number;
  /** 1..256; 256 is a full tile. */
  readonly width: number;
}

/**
 * A tile index as a path: 3-digit groups, all but the last prefixed `x`.
 *
 * @example tileIndexPath(1234067) // 'x001/x234/067'
 */
export function tileIndexPath(n: number): string {
  const groups: string[] = [];
  let rest = n;
  do {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    rest = Math.floor(rest / 1000);
  } while (rest > 0);
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
}

/**
 * A tile's path below the log's URL.
 *
 * @example tilePath({ level: 0, n: 1234067, width: 8 }) // 'tile/0/x001/x234/067.p/8'
 */
export function tilePath(t: TileRef): string {
  return `tile/${t.level}/${tileIndexPath(t.n)}${t.width < TILE_WIDTH ? `.p/${t.width}` : ''}`;
}

/** The largest tile level accepted (256^64 leaves is past any log). */
const MAX_LEVEL = 63;

/**
 * A tile path (after `tile/`) read back, or null when it is not one in its
 * one canonical spelling: `<L>/<N>[.p/<W>]` or `entries/<N>[.p/<W>]`.
 *
 * @example parseTilePath('0/x001/x234/067.p/8') // { level: 0, n: 1234067, width: 8 }
 */
export function parseTilePath(path: string): TileRef | null {
  const m = /^(entries|0|[1-9][0-9]?)\/((?:x[0-9]{3}\/)*[0-9]{3})(?:\.p\/([1-9][0-9]{0,2}))?$/.exec(path);
  if (m === null) return null;
  const level = m[1] === 'entries' ? 'entries' : Number(m[1]);
  if (level !== 'entries' && level > MAX_LEVEL) return null;
  const n = Number((m[2] as string).replace(/[x/]/g, ''));
  const width = m[3] === undefined ? TILE_WIDTH : Number(m[3]);
  if (!Number.isSafeInteger(n) || (m[3] !== undefined && width >= TILE_WIDTH)) return null;
  const t: TileRef = { level, n, width };
  // One spelling per tile: no leading zero groups.
  return tilePath(t).slice('tile/'.length) === path ? t : null;
}

/** Hashes stored at `level` for a tree of `size` leaves: the complete subtrees of height 8·level. */
export function hashesAtLevel(size: number, level: number): number {
  return Math.floor(size / TILE_WIDTH ** level);
}

/**
 * Every tile of a tree of `size` leaves, level by level, each full tile and
 * then the partial one, if any (C2SP tlog-tiles). Entry bundles are the
 * level-0 tiles' companions.
 *
 * @example tilesOf(300) // [{level:0,n:0,width:256},{level:0,n:1,width:44},{level:1,n:0,width:1}]
 */
export function tilesOf(size: number): TileRef[] {
  const out: TileRef[] = [];
  for (let level = 0; hashesAtLevel(size, level) > 0; level++) {
    const count = hashesAtLevel(size, level);
    const full = Math.floor(count / TILE_WIDTH);
    for (let n = 0; n < full; n++) out.push({ level, n, width: TILE_WIDTH });
    if (count % TILE_WIDTH > 0) out.push({ level, n: full, width: count % TILE_WIDTH });
  }
  return out;
}

/** The rightmost tile of each level of a tree of `size` leaves that holds a partial tile: what an append continues. */
export function rightEdge(size: number): TileRef[] {
  const out: TileRef[] = [];
  for (let level = 0; hashesAtLevel(size, level) > 0; level++) {
    const count = hashesAtLevel(size, level);
    if (count % TILE_WIDTH > 0) out.push({ level, n: Math.floor(count / TILE_WIDTH), width: count % TILE_WIDTH });
  }
  return out;
}

/** A tile's content: its level, index and hashes (32 bytes each, concatenated). */
export interface TileData {
  readonly level: number;
  readonly n: number;
  readonly hashes: Buffer;
}

function hashesOf(data: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < data.length; i += HASH_SIZE) out.push(data.subarray(i, i + HASH_SIZE));
  return out;
}

/**
 * Appends leaf hashes to a tree of `size` leaves whose right edge is `edge`
 * (the current content of the tiles {@link rightEdge} names, by level): the
 * tiles that changed, with their new content. A tile that fills is written
 * once as a full tile and never again; its hash, the root of its 256
 * hashes, is the next hash of the level above.
 */
export function appendToTiles(size: number, edge: ReadonlyMap<number, Buffer>, leaves: readonly Buffer[]): TileData[] {
  const changed = new Map<string, TileData>();
  const current = new Map<number, { n: number; hashes: Buffer[] }>();
  const tileAt = (level: number): { n: number; hashes: Buffer[] } => {
    let t = current.get(level);
    if (t === undefined) {
      const count = hashesAtLevel(size, level);
      const n = Math.floor(count / TILE_WIDTH);
      const have = count % TILE_WIDTH;
      const data = have > 0 ? edge.get(level) : Buffer.alloc(0);
      if (data === undefined || data.length < have * HASH_SIZE) throw new Error(`tile ${level}/${n} of the log holds fewer than ${have} hashes`);
      t = { n, hashes: hashesOf(data.subarray(0, have * HASH_SIZE)) };
      current.set(level, t);
    }
    return t;
  };
  const push = (level: number, hash: Buffer): void => {
    const t = tileAt(level);
    t.hashes.push(hash);
    changed.set(`${level}/${t.n}`, { level, n: t.n, hashes: Buffer.concat(t.hashes) });
    if (t.hashes.length === TILE_WIDTH) {
      const full = t.hashes;
      current.set(level, { n: t.n + 1, hashes: [] });
      push(level + 1, rootOf(full));
    }
  };
  for (const leaf of leaves) push(0, leaf);
  return [...changed.values()];
}

/**
 * The root of the tree of `size` leaves, from its tiles: `hashAt(level, i)`
 * answers the i-th hash stored at a level (from the tile that holds it).
 * The tree's complete subtrees, largest first, are each a stored hash or the
 * root of at most 128 consecutive ones; the root folds them from the right
 * (RFC 6962 section 2.1: the left subtree is the largest power of two).
 */
export function rootFromTiles(size: number, hashAt: (level: number, index: number) => Buffer): Buffer {
  if (size === 0) return EMPTY_ROOT;
  const parts: Buffer[] = [];
  let start = 0;
  for (let h = Math.floor(Math.log2(size)) + 1; h >= 0; h--) {
    const span = 2 ** h;
    if (start + span > size) continue;
    parts.push(subtreeHash(h, start / span, hashAt));
    start += span;
  }
  let acc = parts[parts.length - 1] as Buffer;
  for (let i = parts.length - 2; i >= 0; i--) acc = nodeHash(parts[i] as Buffer, acc);
  return acc;
}

/** The hash of the complete subtree of height `h` with index `i` at its height. */
export function subtreeHash(h: number, i: number, hashAt: (level: number, index: number) => Buffer): Buffer {
  const level = Math.floor(h / TILE_HEIGHT);
  const below = h % TILE_HEIGHT;
  const count = 2 ** below;
  const hashes: Buffer[] = [];
  for (let j = 0; j < count; j++) hashes.push(hashAt(level, i * count + j));
  return rootOf(hashes);
}

/** Encodes entries as a bundle: each a big-endian uint16 length, then its bytes (C2SP tlog-tiles). */
export function encodeBundle(entries: readonly Uint8Array[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    if (e.length > 0xffff) throw new RangeError(`an entry of ${e.length} bytes does not fit a bundle`);
    const len = Buffer.alloc(2);
    len.writeUInt16BE(e.length);
    parts.push(len, Buffer.from(e));
  }
  return Buffer.concat(parts);
}

/** Decodes a bundle into its entries; throws when it is cut short. */
export function decodeBundle(data: Uint8Array): Buffer[] {
  const buf = Buffer.from(data);
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length;) {
    if (i + 2 > buf.length) throw new Error('an entry bundle ends inside a length');
    const len = buf.readUInt16BE(i);
    if (i + 2 + len > buf.length) throw new Error('an entry bundle ends inside an entry');
    out.push(buf.subarray(i + 2, i + 2 + len));
    i += 2 + len;
  }
  return out;
}
