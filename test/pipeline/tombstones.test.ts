/**
 * The deletion decision without a database: which ids a call may delete,
 * and each tombstone's outcome, datestamp, hash and formats, as tables.
 */
import { expect } from 'chai';
import { contentHash } from '../../lib/pipeline/content-hash';
import { decideDeletes, type DeleteDecisionOptions, type StoredHead } from '../../lib/pipeline/tombstones';

const STAMP = 1_800_000_000;

function head(internalId: string, over: Partial<StoredHead> = {}): StoredHead {
  return {
    pk: internalId.length,
    internalId,
    identifier: `oai:x:${internalId}`,
    datestamp: 500,
    deleted: false,
    contentHash: 'stored',
    origin: null,
    sets: [],
    prefixes: ['oai_dc'],
    ...over,
  };
}

const state = {
  items: new Map<string, StoredHead>([
    ['a', head('a', { sets: ['physics'], prefixes: ['mods'] })],
    ['b', head('b', { datestamp: STAMP + 60 })],
    ['gone', head('gone', { deleted: true, datestamp: 300, contentHash: 'tomb' })],
    ['src:1', head('src:1', { origin: 'src' })],
  ]),
};

describe('the deletion decision, without a database', () => {
  describe('decideDeletes: what refuses the whole call', () => {
    const cases: { name: string; ids: string[]; harvestedFrom?: string; want: { internalId: string; reason: RegExp }[] }[] = [
      { name: 'an unknown id', ids: ['a', 'nope'], want: [{ internalId: 'nope', reason: /^no item has this internal id/ }] },
      { name: 'an id named twice', ids: ['a', 'a'], want: [{ internalId: 'a', reason: /appears twice in one batch/ }] },
      { name: "a harvested item deleted by anyone but its source's harvest", ids: ['src:1'], want: [{ internalId: 'src:1', reason: /harvested from "src"/ }] },
      {
        name: "a local item deleted by a source's harvest",
        ids: ['a'],
        harvestedFrom: 'src',
        want: [{ internalId: 'a', reason: /is not an item harvested from "src"/ }],
      },
      {
        name: "another source's item deleted by a source's harvest",
        ids: ['src:1'],
        harvestedFrom: 'other',
        want: [{ internalId: 'src:1', reason: /"other"/ }],
      },
    ];
    for (const c of cases) {
      it(`refuses ${c.name}, and plans nothing`, () => {
        const options: DeleteDecisionOptions = {
          stamp: STAMP,
          tombstonePrefixes: ['oai_dc'],
          ...(c.harvestedFrom !== undefined && { harvestedFrom: c.harvestedFrom }),
        };
        const plan = decideDeletes(c.ids, state, options);
        expect(plan.planned).to.deep.equal([]);
        expect(plan.refusals.map((r) => r.internalId)).to.deep.equal(c.want.map((w) => w.internalId));
        plan.refusals.forEach((r, i) => expect(r.reason).to.match((c.want[i] as { reason: RegExp }).reason));
      });
    }
    it("lets a source's harvest delete its own items", () => {
      const plan = decideDeletes(['src:1'], state, { stamp: STAMP, tombstonePrefixes: [], harvestedFrom: 'src' });
      expect(plan.refusals).to.deep.equal([]);
      expect(plan.planned.map((p) => p.outcome)).to.deep.equal(['deleted']);
    });
  });

  describe('decideDeletes: what each tombstone becomes', () => {
    const cases: { name: string; ids: string[]; id: string; want: Partial<{ outcome: string; datestamp: number; hash: string; addPrefixes: string[] }> }[] = [
      { name: 'a live item is deleted, stamped with the write', ids: ['a'], id: 'a', want: { outcome: 'deleted', datestamp: STAMP } },
      {
        name: 'a tombstone hashes as deleted in its direct sets',
        ids: ['a'],
        id: 'a',
        want: { hash: contentHash(true, ['physics'], new Map()) },
      },
      { name: 'a tombstone is listed in every format offered it had no record in', ids: ['a'], id: 'a', want: { addPrefixes: ['oai_dc'] } },
      { name: 'a format it had is not added again', ids: ['b'], id: 'b', want: { addPrefixes: [] } },
      { name: 'a datestamp already published later than the stamp is kept', ids: ['b'], id: 'b', want: { datestamp: STAMP + 60 } },
      { name: 'one call stamps every item with one time, the latest', ids: ['a', 'b'], id: 'a', want: { datestamp: STAMP + 60 } },
      {
        name: 'a tombstone already is unchanged, keeping its datestamp and hash',
        ids: ['gone'],
        id: 'gone',
        want: { outcome: 'unchanged', datestamp: 300, hash: 'tomb', addPrefixes: [] },
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const plan = decideDeletes(c.ids, state, { stamp: STAMP, tombstonePrefixes: ['oai_dc'] });
        const p = plan.planned.find((x) => x.item.internalId === c.id);
        expect(p).to.not.equal(undefined);
        expect(p).to.include(Object.fromEntries(Object.entries(c.want).filter(([k]) => k !== 'addPrefixes')));
        if (c.want.addPrefixes) expect(p?.addPrefixes).to.deep.equal(c.want.addPrefixes);
      });
    }
    it('plans the ids in the order given', () => {
      expect(decideDeletes(['b', 'gone', 'a'], state, { stamp: STAMP, tombstonePrefixes: [] }).planned.map((p) => p.item.internalId)).to.deep.equal([
        'b',
        'gone',
        'a',
      ]);
    });
  });
});
