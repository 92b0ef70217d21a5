/**
 * Partial mode without a database: the decision is given a fake `decide`
 * that refuses what its table says, judging each batch it is given whole,
 * as the real one (lib/pipeline/decide.ts) does over the state read once.
 */
import { expect } from 'chai';
import { decideLeavingOut, writeLeavingOutRefused } from '../../lib/pipeline/partial';
import { RefusedError, type ItemInput, type PartialWrite, type WriteResult } from '../../lib/store';
import type { Refusal } from '../../lib/model/refusal';

/** A decision that refuses, in a batch, the ids `refuse` names for it, recording every batch it is given. */
function decider(refuse: (ids: readonly string[]) => string[]): {
  decide(batch: readonly ItemInput[]): { refusals: Refusal[]; ids: string[] };
  batches: string[][];
} {
  const batches: string[][] = [];
  return {
    batches,
    decide(batch) {
      const ids = batch.map((i) => i.internalId);
      batches.push(ids);
      return { refusals: refuse(ids).map((id) => ({ internalId: id, field: 'id', reason: 'no' })), ids };
    },
  };
}

const items = (...ids: string[]): ItemInput[] => ids.map((internalId) => ({ internalId, metadata: {} }));

describe('partial mode decided without a database', () => {
  const cases: {
    name: string;
    ids: string[];
    partial: boolean;
    refuse: (ids: readonly string[]) => string[];
    written: string[];
    refusedItems: number;
    passes: number;
  }[] = [
    { name: 'writes a batch the store passes in one pass', ids: ['a', 'b'], partial: true, refuse: () => [], written: ['a', 'b'], refusedItems: 0, passes: 1 },
    {
      name: 'leaves out a refused record and writes the rest again',
      ids: ['a', 'b', 'c'],
      partial: true,
      refuse: (ids) => ids.filter((id) => id === 'b'),
      written: ['a', 'c'],
      refusedItems: 1,
      passes: 2,
    },
    {
      name: 'judges the rest again as a batch, leaving out what only that pass refuses',
      ids: ['a', 'b', 'c'],
      partial: true,
      // 'c' is refused only once 'b' is gone: the store judges the batch it is given.
      refuse: (ids) => ids.filter((id) => id === 'b' || (id === 'c' && !ids.includes('b'))),
      written: ['a'],
      refusedItems: 2,
      passes: 3,
    },
    {
      name: 'leaves out every version of a refused internal id',
      ids: ['a', 'b', 'b'],
      partial: true,
      refuse: (ids) => (ids.filter((id) => id === 'b').length > 1 ? ['b'] : []),
      written: ['a'],
      refusedItems: 2,
      passes: 2,
    },
    {
      name: 'writes nothing when the store refuses every record',
      ids: ['a'],
      partial: true,
      refuse: (ids) => [...ids],
      written: [],
      refusedItems: 1,
      passes: 1,
    },
    {
      name: 'without partial, stops at the first refusal and writes nothing',
      ids: ['a', 'b'],
      partial: false,
      refuse: (ids) => ids.filter((id) => id === 'b'),
      written: [],
      refusedItems: 1,
      passes: 1,
    },
    {
      name: 'stops rather than loop when a refusal names no record of the batch',
      ids: ['a'],
      partial: true,
      refuse: () => ['elsewhere'],
      written: [],
      refusedItems: 0,
      passes: 1,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const d = decider(c.refuse);
      const out = decideLeavingOut(items(...c.ids), (batch) => d.decide(batch), c.partial);
      expect(out.written.map((i) => i.internalId)).to.deep.equal(c.written);
      // The plan that passed decides exactly what is written.
      expect(out.plan?.ids ?? []).to.deep.equal(c.written);
      expect(out.refusedItems).to.equal(c.refusedItems);
      expect(d.batches).to.have.length(c.passes);
    });
  }
  it('reports the refusals of every pass, in order', () => {
    const d = decider((ids) => ids.filter((id) => id === 'b' || (id === 'c' && !ids.includes('b'))));
    expect(decideLeavingOut(items('a', 'b', 'c'), (batch) => d.decide(batch)).refusals.map((r) => r.internalId)).to.deep.equal(['b', 'c']);
  });
});

describe('a batch written through the store door, partial or not', () => {
  const wrote = (batch: readonly ItemInput[]): WriteResult[] =>
    batch.map((i) => ({ internalId: i.internalId, identifier: `oai:x:${i.internalId}`, outcome: 'inserted' }));
  const leavingOut = async (batch: readonly ItemInput[]): Promise<PartialWrite> => ({
    results: wrote(batch.slice(1)),
    written: batch.slice(1),
    refusals: [],
    refusedItems: 1,
  });

  it('asks the store to leave refused records out in partial mode', async () => {
    const store = { writeItems: () => Promise.reject(new Error('not this one')), writeItemsLeavingOut: leavingOut };
    expect((await writeLeavingOutRefused(store, items('a', 'b'))).written.map((i) => i.internalId)).to.deep.equal(['b']);
  });

  it('without partial, writes all or, at a refusal, nothing, and reports the refusals', async () => {
    const refusing = {
      writeItems: () => Promise.reject(new RefusedError([{ internalId: 'b', field: 'id', reason: 'no' }])),
      writeItemsLeavingOut: leavingOut,
    };
    const out = await writeLeavingOutRefused(refusing, items('a', 'b', 'b'), false);
    expect([out.written, out.results, out.refusals.map((r) => r.internalId), out.refusedItems]).to.deep.equal([[], [], ['b'], 2]);
    const passing = { writeItems: async (batch: readonly ItemInput[]) => wrote(batch), writeItemsLeavingOut: leavingOut };
    expect((await writeLeavingOutRefused(passing, items('a', 'b'), false)).results.map((r) => r.internalId)).to.deep.equal(['a', 'b']);
  });

  it('lets an error other than a refusal through', async () => {
    const failing = { writeItems: (): Promise<readonly WriteResult[]> => Promise.reject(new Error('disk full')), writeItemsLeavingOut: leavingOut };
    let caught: unknown;
    await writeLeavingOutRefused(failing, items('a'), false).catch((e: unknown) => (caught = e));
    expect((caught as Error).message).to.equal('disk full');
  });
});
