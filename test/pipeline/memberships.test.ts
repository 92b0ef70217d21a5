/**
 * The membership decision without a database: which changes refuse the
 * call, and each moved item's outcome, datestamp, hashes and item_sets rows,
 * as tables.
 */
import { expect } from 'chai';
import { contentHash, recordHash } from '../../lib/pipeline/content-hash';
import { decideMemberships, moves, type MembershipState, type StoredMember } from '../../lib/pipeline/memberships';
import type { MembershipChange } from '../../lib/store';

const STAMP = 1_800_000_000;

function member(internalId: string, pk: number, over: Partial<StoredMember> = {}): StoredMember {
  return { pk, internalId, identifier: `oai:x:${internalId}`, datestamp: 500, deleted: false, contentHash: `h-${internalId}`, sets: ['a'], ...over };
}

const state: MembershipState = {
  items: new Map([
    ['one', member('one', 1)],
    ['late', member('late', 2, { datestamp: STAMP + 60 })],
    ['gone', member('gone', 3, { deleted: true })],
  ]),
  declared: new Set(['a', 'b', 'b:c']),
  content: new Map([
    ['one', { records: new Map([['oai_dc', '<dc/>']]), about: [{ xml: '<prov/>' }], fields: '{"t":1}' }],
    ['gone', { records: new Map([['oai_dc', null]]), about: [] }],
  ]),
  rows: new Map([['one', [{ spec: 'a', departed: null }]]]),
};

describe('the membership decision, without a database', () => {
  describe('decideMemberships: what refuses the whole call', () => {
    const cases: { name: string; changes: MembershipChange[]; want: { field: string; reason: RegExp }[] }[] = [
      { name: 'an unknown id', changes: [{ internalId: 'nope', sets: [] }], want: [{ field: 'id', reason: /^no item has this internal id$/ }] },
      {
        name: 'an id named twice',
        changes: [
          { internalId: 'one', sets: ['b'] },
          { internalId: 'one', sets: [] },
        ],
        want: [{ field: 'id', reason: /appears twice in one batch/ }],
      },
      { name: 'an invalid setSpec', changes: [{ internalId: 'one', sets: ['a b'] }], want: [{ field: 'sets', reason: /"a b" is not a valid setSpec/ }] },
      { name: 'an undeclared set', changes: [{ internalId: 'one', sets: ['z'] }], want: [{ field: 'sets', reason: /the set "z" is not declared/ }] },
    ];
    for (const c of cases) {
      it(`refuses ${c.name}, and plans nothing`, () => {
        const plan = decideMemberships(c.changes, state, { stamp: STAMP });
        expect(plan.planned).to.deep.equal([]);
        expect(plan.refusals.map((r) => r.field)).to.deep.equal(c.want.map((w) => w.field));
        plan.refusals.forEach((r, i) => expect(r.reason).to.match((c.want[i] as { reason: RegExp }).reason));
      });
    }
  });

  describe('moves: whether a change moves an item', () => {
    const cases: { name: string; sets: string[]; want: boolean }[] = [
      { name: 'the same sets in another order do not', sets: ['b', 'a'], want: false },
      { name: 'a set named twice is named once', sets: ['b', 'a', 'b'], want: false },
      { name: 'a set more does', sets: ['a', 'b', 'c'], want: true },
      { name: 'no set at all does', sets: [], want: true },
    ];
    for (const c of cases) it(c.name, () => expect(moves({ internalId: 'x', sets: c.sets }, { sets: ['a', 'b'] })).to.equal(c.want));
  });

  describe('decideMemberships: what each item becomes', () => {
    it('leaves an item whose sets stay unchanged, with its datestamp and hash', () => {
      const [p] = decideMemberships([{ internalId: 'one', sets: ['a'] }], state, { stamp: STAMP }).planned;
      expect(p).to.include({ outcome: 'unchanged', datestamp: 500, hash: 'h-one' });
      expect(p?.setRows).to.deep.equal([]);
    });
    it('stamps a moved item with the write', () => {
      expect(decideMemberships([{ internalId: 'one', sets: ['b'] }], state, { stamp: STAMP }).planned[0]).to.include({ outcome: 'updated', datestamp: STAMP });
    });
    it('never stamps a moved item earlier than the datestamp it published', () => {
      expect(decideMemberships([{ internalId: 'late', sets: ['b'] }], state, { stamp: STAMP }).planned[0]?.datestamp).to.equal(STAMP + 60);
    });
    it('hashes a moved item from its stored content with its new sets', () => {
      const hash = contentHash(false, ['b'], new Map([['oai_dc', '<dc/>']]), [{ xml: '<prov/>' }], '{"t":1}');
      expect(decideMemberships([{ internalId: 'one', sets: ['b'] }], state, { stamp: STAMP }).planned[0]?.hash).to.equal(hash);
    });
    it('gives every record of a moved item a new digest, the sets being in its header', () => {
      const p = decideMemberships([{ internalId: 'one', sets: ['b'] }], state, { stamp: STAMP }).planned[0];
      expect([...(p?.recordHashes ?? [])]).to.deep.equal([['oai_dc', recordHash(false, ['b'], 'oai_dc', '<dc/>', [{ xml: '<prov/>' }])]]);
    });
    it('hashes a moved tombstone as deleted, without metadata or about', () => {
      const p = decideMemberships([{ internalId: 'gone', sets: ['b'] }], state, { stamp: STAMP }).planned[0];
      expect(p?.hash).to.equal(contentHash(true, ['b'], new Map()));
      expect(p?.recordHashes.get('oai_dc')).to.equal(recordHash(true, ['b'], 'oai_dc', null, []));
    });
    it('puts a moved item in its sets and their ancestors, and records a departure from the set it left', () => {
      const p = decideMemberships([{ internalId: 'one', sets: ['b:c'] }], state, { stamp: STAMP }).planned[0];
      expect(p?.setRows).to.deep.equal([
        ['b', 1, false, STAMP, null],
        ['b:c', 1, true, STAMP, null],
        ['a', 1, false, STAMP, STAMP],
      ]);
    });
  });
});
