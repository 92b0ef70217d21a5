import { expect } from 'chai';
import { consistencyProof, EMPTY_ROOT, inclusionProof, leafHash, rootOf, verifyConsistency, verifyInclusion } from '../../lib/tlog/merkle';

const hex = (s: string): Buffer => Buffer.from(s, 'hex');

// The reference inputs and roots of RFC 6962 trees, as published with transparency-dev/merkle (testonly/constants.go).
const INPUTS = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(hex);
const ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
// Published audit paths (leaf index, tree size, path) and consistency proofs (size1, size2, proof), same source (proof/verify_test.go).
const INCLUSION: [number, number, string[]][] = [
  [
    0,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    5,
    8,
    [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [2, 3, ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125']],
  [
    1,
    5,
    [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
];
const CONSISTENCY: [number, number, string[]][] = [
  [
    1,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    6,
    8,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [2, 5, ['5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', 'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b']],
  [
    6,
    7,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
];

const LEAVES = INPUTS.map(leafHash);
const root = (n: number): Buffer => hex(ROOTS[n] as string);

describe('the RFC 6962 Merkle tree', () => {
  it('hashes the empty tree as SHA-256 of nothing', () => {
    expect(EMPTY_ROOT.toString('hex')).to.equal(ROOTS[0]);
  });

  for (let n = 0; n <= 8; n++) {
    it(`gives the reference root of the first ${n} reference leaves`, () => {
      expect(rootOf(LEAVES.slice(0, n)).toString('hex')).to.equal(ROOTS[n]);
    });
  }

  for (const [m, n, path] of INCLUSION) {
    it(`writes and checks the reference audit path of leaf ${m} in a tree of ${n}`, () => {
      const proof = inclusionProof(LEAVES.slice(0, n), m);
      expect(proof.map((h) => h.toString('hex'))).to.deep.equal(path);
      expect(verifyInclusion(m, n, LEAVES[m] as Buffer, proof, root(n))).to.equal(true);
    });
    it(`refuses the audit path of leaf ${m} in a tree of ${n} for another leaf, size, root or path`, () => {
      const proof = path.map(hex);
      expect(verifyInclusion(m + 1, n, LEAVES[m] as Buffer, proof, root(n))).to.equal(false);
      expect(verifyInclusion(m, n * 2, LEAVES[m] as Buffer, proof, root(n))).to.equal(false);
      expect(verifyInclusion(m, n, leafHash(Buffer.from('x')), proof, root(n))).to.equal(false);
      expect(verifyInclusion(m, n, LEAVES[m] as Buffer, proof, EMPTY_ROOT)).to.equal(false);
      expect(verifyInclusion(m, n, LEAVES[m] as Buffer, proof.slice(0, -1), root(n))).to.equal(false);
      expect(verifyInclusion(m, n, LEAVES[m] as Buffer, [...proof, root(n)], root(n))).to.equal(false);
    });
  }

  for (const [m, n, path] of CONSISTENCY) {
    it(`writes and checks the reference consistency proof from ${m} to ${n}`, () => {
      const proof = consistencyProof(LEAVES.slice(0, n), m);
      expect(proof.map((h) => h.toString('hex'))).to.deep.equal(path);
      expect(verifyConsistency(m, n, proof, root(m), root(n))).to.equal(true);
    });
    it(`refuses the consistency proof from ${m} to ${n} for other sizes, roots or proofs`, () => {
      const proof = path.map(hex);
      expect(verifyConsistency(m, n, proof, root(n), root(m))).to.equal(false);
      expect(verifyConsistency(m + 1, n, proof, root(m), root(n))).to.equal(false);
      expect(verifyConsistency(m, n, proof.slice(0, -1), root(m), root(n))).to.equal(false);
      expect(verifyConsistency(m, n, [], root(m), root(n))).to.equal(false);
      const flipped = proof.map((h, i) => (i === 0 ? Buffer.from(h.map((b, j) => (j === 0 ? b ^ 16 : b))) : h));
      expect(verifyConsistency(m, n, flipped, root(m), root(n))).to.equal(false);
    });
  }

  it('proves every prefix of a larger tree consistent and every leaf included', () => {
    const leaves = Array.from({ length: 37 }, (_, i) => leafHash(Buffer.from(`entry ${i}`)));
    for (let n = 1; n <= leaves.length; n++) {
      const r = rootOf(leaves.slice(0, n));
      for (let m = 1; m <= n; m++) expect(verifyConsistency(m, n, consistencyProof(leaves.slice(0, n), m), rootOf(leaves.slice(0, m)), r)).to.equal(true);
      for (let i = 0; i < n; i++) expect(verifyInclusion(i, n, leaves[i] as Buffer, inclusionProof(leaves.slice(0, n), i), r)).to.equal(true);
    }
  });
});
