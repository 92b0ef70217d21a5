/**
 * Sets declared a batch at a time (lib/sets/declare.ts): one write per
 * batch, and a batch with a set the store refuses declared again one set at
 * a time, so only that set is refused.
 */
import { expect } from 'chai';
import { declareInBatches } from '../../lib/sets/declare';
import type { SetInput } from '../../lib/store';

describe('declaring sets a batch at a time', () => {
  const sets = (...specs: string[]): SetInput[] => specs.map((spec) => ({ spec, name: spec }));

  /** A put that refuses any batch holding `bad`, and drops a description of `d`; the batches it was given. */
  function store(): { put: (s: readonly SetInput[]) => Promise<string[]>; calls: string[][]; declared: string[] } {
    const calls: string[][] = [];
    const declared: string[] = [];
    return {
      calls,
      declared,
      put: async (s) => {
        calls.push(s.map((x) => x.spec));
        if (s.some((x) => x.spec === 'bad')) throw new Error('"bad" is not a valid setSpec');
        declared.push(...s.map((x) => x.spec));
        return s.filter((x) => x.spec === 'd').map((x) => `set "${x.spec}": description 1 dropped`);
      },
    };
  }

  it('writes each batch once when the store takes it', async () => {
    const s = store();
    const dropped: string[] = [];
    const n = await declareInBatches(s.put, sets('a', 'b', 'c', 'd', 'e'), { dropped: (d) => dropped.push(d), refused: () => expect.fail() }, 2);
    expect(n).to.equal(5);
    expect(s.calls).to.deep.equal([['a', 'b'], ['c', 'd'], ['e']]);
    expect(dropped).to.deep.equal(['set "d": description 1 dropped']);
  });

  it('declares a refused batch again a set at a time, refusing only the bad one', async () => {
    const s = store();
    const refused: string[] = [];
    const n = await declareInBatches(
      s.put,
      sets('a', 'b', 'bad', 'c', 'e'),
      { dropped: () => undefined, refused: (x, err) => refused.push(`${x.spec}: ${(err as Error).message}`) },
      3,
    );
    expect(n).to.equal(4);
    expect(s.calls).to.deep.equal([['a', 'b', 'bad'], ['a'], ['b'], ['bad'], ['c', 'e']]);
    expect(s.declared).to.deep.equal(['a', 'b', 'c', 'e']);
    expect(refused).to.deep.equal(['bad: "bad" is not a valid setSpec']);
  });
});
