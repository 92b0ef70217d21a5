/**
 * The bound on what K server processes can give over one (bench/scaling.ts),
 * row by row: which limit binds, and the cases with nothing to measure.
 */
import { expect } from 'chai';
import { processesRatioBound } from '../../bench/scaling';

const rows: readonly { name: string; cpus: number; one: { client: number; servers: number; other: number }; k: number; bound: number | null }[] = [
  { name: '2 cores, the harvesters take 0.4 of one: the machine binds', cpus: 2, one: { client: 0.4, servers: 0.95, other: 0.1 }, k: 2, bound: 1.41 },
  { name: '8 cores, a light client: each process binds (K / server cores)', cpus: 8, one: { client: 0.2, servers: 1, other: 0 }, k: 2, bound: 2 },
  { name: 'a busy machine leaves less', cpus: 2, one: { client: 0.4, servers: 0.95, other: 1.0 }, k: 2, bound: 0.74 },
  { name: 'a server that was not busy can grow past K / 1', cpus: 16, one: { client: 0.1, servers: 0.5, other: 0 }, k: 2, bound: 4 },
  { name: 'other above the machine leaves nothing', cpus: 2, one: { client: 0.4, servers: 0.9, other: 2.5 }, k: 2, bound: 0 },
  { name: 'no server time measured: no bound', cpus: 2, one: { client: 0.4, servers: 0, other: 0 }, k: 2, bound: null },
];

describe('processesRatioBound', () => {
  for (const r of rows) {
    it(r.name, () => {
      expect(processesRatioBound(r.cpus, r.one, r.k)).to.equal(r.bound);
    });
  }
});
