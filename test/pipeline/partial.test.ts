/**
 * Partial mode without a database: a fake store refuses what its table
 * says, judging each batch it is given whole, as the real one does.
 */
import { expect } from 'chai';
import { writeLeavingOutRefused } from '../../lib/pipeline/partial';
import { RefusedError, type ItemInput, type WriteResult } from '../../lib/store';

/** A store that refuses, in a batch, the ids `refuse` names for it; it writes a batch only when it refuses none. */
function store(refuse: (ids: readonly string[]) => string[]): {
  writeItems(items: readonly ItemInput[]): Promise<readonly WriteResult[]>;
  batches: string[][];
} {
  const batches: string[][] = [];
  return {
    batches,
    writeItems(items) {
      const ids = items.map((i) => i.internalId);
      batches.push(ids);
      const refused = refuse(ids);
      if (refused.length > 0) return Promise.reject(new RefusedError(refused.map((id) => ({ internalId: id, field: 'id', reason: 'no' }))));
      return Promise.resolve(ids.map((id) => ({ internalId: id, identifier: `oai:x:${id}`, outcome: 'inserted' as const })));
    },
  };
}

const items = (...ids: string[]): ItemInput[] => ids.map((internalId) => ({ internalId, metadata: {} }));

describe('partial mode, without a database', () => {
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
    it(c.name, async () => {
      const s = store(c.refuse);
      const out = await writeLeavingOutRefused(s, items(...c.ids), c.partial);
      expect(out.written.map((i) => i.internalId)).to.deep.equal(c.written);
      expect(out.results.map((r) => r.internalId)).to.deep.equal(c.written);
      expect(out.refusedItems).to.equal(c.refusedItems);
      expect(s.batches).to.have.length(c.passes);
    });
  }
  it('reports the refusals of every pass, in order', async () => {
    const s = store((ids) => ids.filter((id) => id === 'b' || (id === 'c' && !ids.includes('b'))));
    expect((await writeLeavingOutRefused(s, items('a', 'b', 'c'))).refusals.map((r) => r.internalId)).to.deep.equal(['b', 'c']);
  });
  it('lets an error other than a refusal through', async () => {
    const failing = { writeItems: (): Promise<readonly WriteResult[]> => Promise.reject(new Error('disk full')) };
    let caught: unknown;
    await writeLeavingOutRefused(failing, items('a')).catch((e: unknown) => (caught = e));
    expect((caught as Error).message).to.equal('disk full');
  });
});
