/**
 * The Merkle tree hash of RFC 6962 section 2.1 (RFC 9162 section 2.1): the
 * tree a publication log is, its root, and the audit and consistency proofs
 * a verifier checks against a signed root.
 *
 * - a leaf is SHA-256(0x00 ‖ entry), an interior node SHA-256(0x01 ‖ left ‖ right);
 * - a tree of n > 1 leaves splits at k, the largest power of two below n.
 *
 * Hashes are 32-byte Buffers. Sizes and indexes are JavaScript numbers: a
 * log of 2^53 entries is beyond any repository.
 */
import crypto from 'node:crypto';

/** Bytes of a SHA-256 hash. */
export const HASH_SIZE = 32;

/** SHA-256 of the empty string: the root of the empty tree (RFC 6962 section 2.1). */
export const EMPTY_ROOT: Buffer = crypto.createHash('sha256').digest();

/**
 * The hash of a leaf: SHA-256(0x00 ‖ entry).
 *
 * @example leafHash(Buffer.alloc(0)).toString('hex') // '6e340b9c…'
 */
export function leafHash(entry: Uint8Array): Buffer {
  return crypto.createHash('sha256').update(Buffer.of(0)).update(entry).digest();
}

/** The hash of an interior node: SHA-256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return crypto.createHash('sha256').update(Buffer.of(1)).update(left).update(right).digest();
}

/** The largest power of two strictly below n (n > 1). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * MTH over leaf hashes `leaves[from, to)` (RFC 6962 section 2.1).
 *
 * @example rootOf([leafHash(a), leafHash(b)]) // nodeHash(leafHash(a), leafHash(b))
 */
export function rootOf(leaves: readonly Uint8Array[], from = 0, to = leaves.length): Buffer {
  const n = to - from;
  if (n === 0) return EMPTY_ROOT;
  if (n === 1) return Buffer.from(leaves[from] as Uint8Array);
  const k = splitPoint(n);
  return nodeHash(rootOf(leaves, from, from + k), rootOf(leaves, from + k, to));
}

/**
 * The audit path of leaf `m` in the tree of leaf hashes `leaves[from, to)`
 * (RFC 6962 section 2.1.1, PATH(m, D[n])), nearest sibling first.
 */
export function inclusionProof(leaves: readonly Uint8Array[], m: number, from = 0, to = leaves.length): Buffer[] {
  const n = to - from;
  if (m < 0 || m >= n) throw new RangeError(`leaf ${m} is not in a tree of ${n}`);
  if (n === 1) return [];
  const k = splitPoint(n);
  return m < k
    ? [...inclusionProof(leaves, m, from, from + k), rootOf(leaves, from + k, to)]
    : [...inclusionProof(leaves, m - k, from + k, to), rootOf(leaves, from, from + k)];
}

/**
 * The consistency proof between the tree of the first `m` leaves and that of
 * all of `leaves` (RFC 6962 section 2.1.2, PROOF(m, D[n])).
 */
export function consistencyProof(leaves: readonly Uint8Array[], m: number): Buffer[] {
  if (m < 1 || m > leaves.length) throw new RangeError(`no consistency proof from ${m} to ${leaves.length}`);
  return subproof(leaves, m, 0, leaves.length, true);
}

function subproof(leaves: readonly Uint8Array[], m: number, from: number, to: number, whole: boolean): Buffer[] {
  const n = to - from;
  if (m === n) return whole ? [] : [rootOf(leaves, from, to)];
  const k = splitPoint(n);
  return m <= k
    ? [...subproof(leaves, m, from, from + k, whole), rootOf(leaves, from + k, to)]
    : [...subproof(leaves, m - k, from + k, to, false), rootOf(leaves, from, from + k)];
}

/**
 * Whether `proof` shows the leaf hash `leaf` at `index` in the tree of
 * `size` leaves whose root is `root` (RFC 9162 section 2.1.3.2).
 */
export function verifyInclusion(index: number, size: number, leaf: Uint8Array, proof: readonly Uint8Array[], root: Uint8Array): boolean {
  if (index < 0 || index >= size || leaf.length !== HASH_SIZE) return false;
  let fn = index;
  let sn = size - 1;
  let r: Buffer = Buffer.from(leaf);
  for (const p of proof) {
    if (sn === 0 || p.length !== HASH_SIZE) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && r.equals(root);
}

function isPowerOfTwo(n: number): boolean {
  return n > 0 && 2 ** Math.round(Math.log2(n)) === n;
}

/**
 * Whether `proof` shows that the tree of `size1` leaves with root `root1`
 * is a prefix of the tree of `size2` leaves with root `root2` (RFC 9162
 * section 2.1.4.2). Equal sizes need an empty proof and equal roots; the
 * empty tree is a prefix of every tree.
 */
export function verifyConsistency(size1: number, size2: number, proof: readonly Uint8Array[], root1: Uint8Array, root2: Uint8Array): boolean {
  if (size1 < 0 || size2 < size1) return false;
  if (size1 === size2) return proof.length === 0 && Buffer.from(root1).equals(root2);
  if (size1 === 0) return proof.length === 0;
  if (proof.some((p) => p.length !== HASH_SIZE)) return false;
  const path = isPowerOfTwo(size1) ? [root1, ...proof] : [...proof];
  if (path.length === 0) return false;
  let fn = size1 - 1;
  let sn = size2 - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr: Buffer = Buffer.from(path[0] as Uint8Array);
  let sr: Buffer = Buffer.from(path[0] as Uint8Array);
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(root1) && sr.equals(root2);
}
