import { expect } from 'chai';
import { leafHash, rootOf } from '../../lib/tlog/merkle';
import {
  appendToTiles,
  decodeBundle,
  encodeBundle,
  parseTilePath,
  rightEdge,
  rootFromTiles,
  tilePath,
  tilesOf,
  TILE_WIDTH,
  type TileData,
} from '../../lib/tlog/tiles';

describe('tiles of a Merkle tree', () => {
  const paths: [Parameters<typeof tilePath>[0], string][] = [
    [{ level: 0, n: 0, width: 256 }, 'tile/0/000'],
    [{ level: 0, n: 1234067, width: 256 }, 'tile/0/x001/x234/067'],
    [{ level: 1, n: 1234067, width: 8 }, 'tile/1/x001/x234/067.p/8'],
    [{ level: 'entries', n: 1000, width: 255 }, 'tile/entries/x001/000.p/255'],
    [{ level: 2, n: 999, width: 1 }, 'tile/2/999.p/1'],
  ];
  for (const [t, path] of paths) {
    it(`names tile ${t.level}/${t.n} of width ${t.width} ${path}, and reads the name back`, () => {
      expect(tilePath(t)).to.equal(path);
      expect(parseTilePath(path.slice('tile/'.length))).to.deep.equal(t);
    });
  }

  for (const bad of ['0/1', '0/0000', '0/x000/001', '0/001.p/256', '0/001.p/0', '0/001.p/007', 'x/001', '01/001', '0/001/', 'entries/x01/000']) {
    it(`refuses the tile path ${bad}`, () => {
      expect(parseTilePath(bad)).to.equal(null);
    });
  }

  it('lays out a tree of 70,000 leaves as tlog-tiles does', () => {
    const tiles = tilesOf(70_000).map(tilePath);
    // 70,000 = 273 × 256 + 112 leaf hashes; 273 = 1 × 256 + 17 level-1 hashes; 1 level-2 hash.
    const level0 = [...Array.from({ length: 273 }, (_, n) => tilePath({ level: 0, n, width: 256 })), 'tile/0/273.p/112'];
    expect(tiles).to.deep.equal([...level0, 'tile/1/000', 'tile/1/001.p/17', 'tile/2/000.p/1']);
    expect(rightEdge(70_000).map(tilePath)).to.deep.equal(['tile/0/273.p/112', 'tile/1/001.p/17', 'tile/2/000.p/1']);
  });

  it('appends leaves a few at a time into the tiles the whole tree has, and finds its root from them', () => {
    const leaves = Array.from({ length: 70_000 }, (_, i) => leafHash(Buffer.from(`e${i}`)));
    const store = new Map<string, TileData>();
    let size = 0;
    for (const step of [1, 255, 1, 300, 65_000, 3_000, 1_443]) {
      const edge = new Map(rightEdge(size).map((t) => [t.level as number, (store.get(`${t.level}/${t.n}`) as TileData).hashes]));
      for (const t of appendToTiles(size, edge, leaves.slice(size, size + step))) {
        const before = store.get(`${t.level}/${t.n}`);
        if (before !== undefined) {
          expect(before.hashes.length, `tile ${t.level}/${t.n} rewritten when full`).to.be.below(TILE_WIDTH * 32);
          expect(t.hashes.subarray(0, before.hashes.length).equals(before.hashes), `tile ${t.level}/${t.n} keeps its prefix`).to.equal(true);
        }
        store.set(`${t.level}/${t.n}`, t);
      }
      size += step;
      const hashAt = (level: number, i: number): Buffer => {
        const t = store.get(`${level}/${Math.floor(i / 256)}`) as TileData;
        return t.hashes.subarray((i % 256) * 32, (i % 256) * 32 + 32);
      };
      expect(rootFromTiles(size, hashAt).equals(rootOf(leaves.slice(0, size))), `root at ${size}`).to.equal(true);
    }
    expect([...store.values()].map((t) => tilePath({ level: t.level, n: t.n, width: t.hashes.length / 32 })).sort()).to.deep.equal(
      tilesOf(70_000).map(tilePath).sort(),
    );
  });

  it('bundles entries with big-endian uint16 lengths, and reads them back', () => {
    const entries = [Buffer.from('a'), Buffer.alloc(0), Buffer.alloc(300, 7)];
    const bundle = encodeBundle(entries);
    expect(bundle.subarray(0, 3).toString('hex')).to.equal('000161');
    expect(bundle.subarray(5, 7).toString('hex')).to.equal('012c');
    expect(decodeBundle(bundle)).to.deep.equal(entries);
    expect(() => decodeBundle(bundle.subarray(0, bundle.length - 1))).to.throw(/ends inside an entry/);
  });
});
