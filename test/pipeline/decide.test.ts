/**
 * The write decision without a database: the rules that decide a record's
 * datestamp, whether a version is superseded, an item's outcome, what it
 * keeps of what it was given, and the plan of a whole batch, each as a table.
 */
import { expect } from 'chai';
import {
  datestampOf,
  decideBatch,
  isSuperseded,
  keptFormatDatestamps,
  outcomeOf,
  recordDatestamps,
  updateKindOf,
  withStoredGiven,
  type StoredItem,
  type StoredState,
} from '../../lib/pipeline/decide';
import { BUILT_IN_FORMATS, createFormatRegistry } from '../../lib/formats/registry';
import { createIdPolicy } from '../../lib/ids/policy';
import { dublinCoreToOaiDc } from '../../lib/formats/oai-dc';
import type { ItemInput, WriteOutcome } from '../../lib/store';
import { TEST_NAMESPACE } from '../helpers/db';

const NOW = 1_800_000_000;

describe('the write decision, without a database', () => {
  describe("datestampOf: a datestamp is this store's time", () => {
    const cases: { name: string; outcome: WriteOutcome; stored?: number; given?: number; keep?: boolean; want: number }[] = [
      { name: 'a new item gets the clock, whatever datestamp its source gave', outcome: 'inserted', given: 1_000, want: NOW },
      { name: 'a new item without a datestamp gets the clock', outcome: 'inserted', want: NOW },
      { name: 'a new item of a migration keeps the datestamp it gives', outcome: 'inserted', given: 1_000, keep: true, want: 1_000 },
      { name: 'a migration never publishes a future datestamp', outcome: 'inserted', given: NOW + 60, keep: true, want: NOW },
      { name: 'a migration datestamp equal to the clock is kept', outcome: 'inserted', given: NOW, keep: true, want: NOW },
      { name: 'an unchanged item keeps the stored datestamp', outcome: 'unchanged', stored: 500, given: 900, want: 500 },
      { name: 'a changed item gets the clock even when its source gives a later datestamp', outcome: 'updated', stored: 500, given: NOW - 1, want: NOW },
      {
        name: 'a changed item gets the clock when its source gives an older datestamp (a correction)',
        outcome: 'updated',
        stored: NOW - 100,
        given: 200,
        want: NOW,
      },
      {
        name: 'a changed item of a migration does not keep its datestamp: the store holds it already',
        outcome: 'updated',
        stored: 500,
        given: 700,
        keep: true,
        want: NOW,
      },
      { name: 'a change never goes back before a datestamp already published (a clock set back)', outcome: 'updated', stored: NOW + 30, want: NOW + 30 },
      { name: 'a deletion gets the clock', outcome: 'deleted', stored: 500, want: NOW },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const stored = c.stored === undefined ? undefined : { datestamp: c.stored };
        const input = { ...(c.given !== undefined && { datestamp: c.given }), ...(c.keep && { keepDatestamp: true }) };
        expect(datestampOf(c.outcome, stored, input, NOW)).to.equal(c.want);
      });
    }
  });

  describe('updateKindOf: the updates a summary counts apart', () => {
    const records = (entries: [string, string | null][]): StoredItem['records'] => new Map(entries.map(([p, hash]) => [p, { datestamp: 1, hash }]));
    const cases: {
      name: string;
      outcome: WriteOutcome;
      deleted?: boolean;
      storedDeleted?: boolean;
      stored?: [string, string | null][];
      now: [string, string][];
      want?: string;
    }[] = [
      {
        name: 'a deleted item written live again is revived',
        outcome: 'updated',
        storedDeleted: true,
        stored: [['oai_dc', null]],
        now: [['oai_dc', 'h1']],
        want: 'revived',
      },
      {
        name: 'a live item gaining a format, nothing it had changing, has a format added',
        outcome: 'updated',
        stored: [['oai_dc', 'h1']],
        now: [
          ['oai_dc', 'h1'],
          ['mods', 'h2'],
        ],
        want: 'formatAdded',
      },
      {
        name: 'a format added while another changed is an update',
        outcome: 'updated',
        stored: [['oai_dc', 'h1']],
        now: [
          ['oai_dc', 'h3'],
          ['mods', 'h2'],
        ],
      },
      {
        name: 'a record stored without a digest cannot be said unchanged: an update',
        outcome: 'updated',
        stored: [['oai_dc', null]],
        now: [
          ['oai_dc', 'h1'],
          ['mods', 'h2'],
        ],
      },
      { name: 'a change of the formats it had is an update', outcome: 'updated', stored: [['oai_dc', 'h1']], now: [['oai_dc', 'h3']] },
      {
        name: 'a tombstone written again is no revival',
        outcome: 'updated',
        deleted: true,
        storedDeleted: true,
        stored: [['oai_dc', null]],
        now: [['oai_dc', 'h1']],
      },
      { name: 'an insertion is none of them', outcome: 'inserted', now: [['oai_dc', 'h1']] },
      { name: 'an unchanged item is none of them', outcome: 'unchanged', stored: [['oai_dc', 'h1']], now: [['oai_dc', 'h1']] },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const stored = c.stored === undefined ? undefined : { deleted: c.storedDeleted === true, records: records(c.stored) };
        expect(updateKindOf(c.outcome, stored, c.deleted === true, new Map(c.now))).to.equal(c.want);
      });
    }
  });

  describe('isSuperseded: time never goes back', () => {
    const cases: { name: string; versioned?: boolean; given?: number; source?: number | null; stored?: boolean; want: boolean }[] = [
      { name: 'an older version from another repository is superseded', versioned: true, given: 100, source: 200, want: true },
      { name: 'a version of the same source datestamp is not superseded', versioned: true, given: 200, source: 200, want: false },
      { name: 'a newer version is not superseded', versioned: true, given: 300, source: 200, want: false },
      { name: 'a record that is not a version from elsewhere is never superseded', given: 100, source: 200, want: false },
      { name: 'a version without a datestamp cannot be ordered and is not superseded', versioned: true, source: 200, want: false },
      { name: 'a version meeting an item with no source datestamp is not superseded', versioned: true, given: 100, source: null, want: false },
      { name: 'a version of a new item is not superseded', versioned: true, given: 100, stored: false, want: false },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const input = { ...(c.versioned && { versioned: true }), ...(c.given !== undefined && { datestamp: c.given }) };
        const stored = c.stored === false ? undefined : { sourceDatestamp: c.source ?? null };
        expect(isSuperseded(input, stored)).to.equal(c.want);
      });
    }
  });

  describe("recordDatestamps: a datestamp is a record's, an item in one format", () => {
    const stored = {
      records: new Map([
        ['oai_dc', { datestamp: 100, hash: 'dc1' }],
        ['mods', { datestamp: 200, hash: null }],
      ]),
    };
    const cases: { name: string; outcome: WriteOutcome; hashes: [string, string][]; want: [string, number][] }[] = [
      {
        name: 'a record whose digest is the stored one keeps its datestamp when its item changes',
        outcome: 'updated',
        hashes: [['oai_dc', 'dc1']],
        want: [['oai_dc', 100]],
      },
      { name: "a record whose digest changed takes the item's new datestamp", outcome: 'updated', hashes: [['oai_dc', 'dc2']], want: [['oai_dc', 500]] },
      {
        name: "a format new to the item takes the item's new datestamp, the others keep theirs",
        outcome: 'updated',
        hashes: [
          ['oai_dc', 'dc1'],
          ['marc21', 'm1'],
        ],
        want: [
          ['oai_dc', 100],
          ['marc21', 500],
        ],
      },
      { name: 'a record stored without a digest is taken for changed', outcome: 'updated', hashes: [['mods', 'mods1']], want: [['mods', 500]] },
      {
        name: "an unchanged item keeps every record's datestamp",
        outcome: 'unchanged',
        hashes: [
          ['oai_dc', 'dc1'],
          ['mods', 'mods1'],
        ],
        want: [
          ['oai_dc', 100],
          ['mods', 200],
        ],
      },
    ];
    for (const c of cases) {
      it(c.name, () => expect([...recordDatestamps(c.outcome, 500, new Map(c.hashes), stored)]).to.deep.equal(c.want));
    }
    it("every record of a new item takes the item's datestamp", () => {
      expect([
        ...recordDatestamps(
          'inserted',
          500,
          new Map([
            ['oai_dc', 'x'],
            ['mods', 'y'],
          ]),
          undefined,
        ),
      ]).to.deep.equal([
        ['oai_dc', 500],
        ['mods', 500],
      ]);
    });
  });

  describe("keptFormatDatestamps: a migration keeps each record's datestamp", () => {
    const planned = (): Map<string, number> =>
      new Map([
        ['oai_dc', 300],
        ['mods', 300],
      ]);
    const input = { internalId: 'a', metadata: {}, keepDatestamp: true, datestamp: 300, formatDatestamps: { oai_dc: 100, mods: 400 } };
    it('keeps an earlier datestamp of one format of a new item whose own datestamp was kept, never a later one', () => {
      expect([...keptFormatDatestamps(input, undefined, 300, planned())]).to.deep.equal([
        ['oai_dc', 100],
        ['mods', 300],
      ]);
    });
    it("keeps none when the item's own datestamp was not kept (a future one, or no migration)", () => {
      expect([...keptFormatDatestamps(input, undefined, 500, planned())]).to.deep.equal([
        ['oai_dc', 300],
        ['mods', 300],
      ]);
      expect([...keptFormatDatestamps({ ...input, keepDatestamp: false }, undefined, 300, planned())]).to.deep.equal([
        ['oai_dc', 300],
        ['mods', 300],
      ]);
    });
  });

  describe('outcomeOf: the content hash decides', () => {
    const cases: { name: string; stored?: { contentHash: string; deleted: boolean }; deleted: boolean; hash: string; want: WriteOutcome }[] = [
      { name: 'the same hash is unchanged', stored: { contentHash: 'h', deleted: false }, deleted: false, hash: 'h', want: 'unchanged' },
      { name: 'a new live item is inserted', deleted: false, hash: 'h', want: 'inserted' },
      { name: 'a new tombstone is deleted', deleted: true, hash: 'h', want: 'deleted' },
      { name: 'another hash of a live item is updated', stored: { contentHash: 'h', deleted: false }, deleted: false, hash: 'k', want: 'updated' },
      { name: 'deleting a live item is deleted', stored: { contentHash: 'h', deleted: false }, deleted: true, hash: 'k', want: 'deleted' },
      { name: 'a tombstone written again with other sets is updated', stored: { contentHash: 'h', deleted: true }, deleted: true, hash: 'k', want: 'updated' },
      { name: 'a tombstone brought back to life is updated', stored: { contentHash: 'h', deleted: true }, deleted: false, hash: 'k', want: 'updated' },
    ];
    for (const c of cases) it(c.name, () => expect(outcomeOf(c.stored, c.deleted, c.hash)).to.equal(c.want));
  });

  describe('withStoredGiven: every format given is kept', () => {
    const stored = (over: Partial<StoredItem> = {}): StoredItem => ({
      pk: 1,
      internalId: 'a',
      identifier: 'oai:x:a',
      datestamp: 1,
      deleted: false,
      contentHash: 'h',
      sourceDatestamp: null,
      origin: null,
      sets: [],
      records: new Map([['oai_dc', { datestamp: 1, hash: 'h' }]]),
      memberships: [],
      given: { oai_dc: '<dc/>' },
      ...over,
    });
    it('a record giving another format adds it to the format given before', () => {
      expect(withStoredGiven({ internalId: 'a', metadata: { mods: '<mods/>' } }, stored()).metadata).to.deep.equal({ oai_dc: '<dc/>', mods: '<mods/>' });
    });
    it('a record giving the same format replaces that format only', () => {
      expect(withStoredGiven({ internalId: 'a', metadata: { oai_dc: '<new/>' } }, stored({ given: { mods: '<mods/>' } })).metadata).to.deep.equal({
        mods: '<mods/>',
        oai_dc: '<new/>',
      });
    });
    it('a record giving no model keeps the model an earlier record gave', () => {
      const out = withStoredGiven({ internalId: 'a', metadata: { mods: '<mods/>' } }, stored({ given: {}, givenModel: '{"dc":{"title":["T"]}}' }));
      expect(out.fields).to.deep.equal({ dc: { title: ['T'] } });
    });
    it('a record giving its model keeps its own', () => {
      const out = withStoredGiven(
        { internalId: 'a', metadata: {}, fields: { dc: { title: ['U'] } } },
        stored({ given: {}, givenModel: '{"dc":{"title":["T"]}}' }),
      );
      expect(out.fields).to.deep.equal({ dc: { title: ['U'] } });
    });
    it('a format the repository no longer offers is not kept', () => {
      const offered = createFormatRegistry();
      expect(withStoredGiven({ internalId: 'a', metadata: { oai_dc: '<new/>' } }, stored({ given: { mods: '<mods/>' } }), offered).metadata).to.deep.equal({
        oai_dc: '<new/>',
      });
    });
    it('a tombstone keeps nothing it was given before', () => {
      const input: ItemInput = { internalId: 'a', metadata: { mods: '<mods/>' } };
      expect(withStoredGiven(input, stored({ deleted: true, given: {} }))).to.equal(input);
    });
    it('a deletion is taken as it is', () => {
      const input: ItemInput = { internalId: 'a', deleted: true, metadata: {} };
      expect(withStoredGiven(input, stored())).to.equal(input);
    });
  });

  describe('decideBatch', () => {
    const formats = createFormatRegistry(BUILT_IN_FORMATS);
    const policy = createIdPolicy({ namespace: TEST_NAMESPACE });
    const preparation = { formats, policy };
    const empty: StoredState = {
      items: new Map(),
      byIdentifier: new Map(),
      registryByIdentifier: new Map(),
      registryByInternalId: new Map(),
      harvested: new Set(),
    };
    const dc = (title: string): string => dublinCoreToOaiDc({ title: [title] });
    const identifierOf = (id: string): string => policy.map(id).identifier;
    const storedItem = (id: string, over: Partial<StoredItem>): StoredItem => ({
      pk: 7,
      internalId: id,
      identifier: identifierOf(id),
      datestamp: 1_000,
      deleted: false,
      contentHash: 'old',
      sourceDatestamp: null,
      origin: null,
      sets: [],
      records: new Map([['oai_dc', { datestamp: 1_000, hash: null }]]),
      memberships: [],
      given: {},
      ...over,
    });
    const stateOf = (...items: StoredItem[]): StoredState => ({
      ...empty,
      items: new Map(items.map((i) => [i.internalId, i])),
      byIdentifier: new Map(items.map((i) => [i.identifier, { internalId: i.internalId, identifier: i.identifier }])),
    });

    it('plans a new record given as oai_dc with the clock, not the header datestamp a page gave', () => {
      const plan = decideBatch([{ internalId: 'a', datestamp: 1_000, versioned: true, metadata: { oai_dc: dc('T') } }], empty, {
        preparation,
        tombstonePrefixes: ['oai_dc'],
        now: NOW,
      });
      expect(plan.refusals).to.deep.equal([]);
      expect(plan.planned.map((p) => [p.outcome, p.datestamp, p.sourceDatestamp])).to.deep.equal([['inserted', NOW, 1_000]]);
    });

    it('keeps the oai_dc an item was given when a later write gives it as MODS', () => {
      const given = dc('As harvested');
      const mods = '<mods xmlns="http://www.loc.gov/mods/v3" version="3.7"><titleInfo><title>Other</title></titleInfo></mods>';
      const plan = decideBatch([{ internalId: 'a', metadata: { mods } }], stateOf(storedItem('a', { given: { oai_dc: given } })), {
        preparation,
        tombstonePrefixes: ['oai_dc'],
        now: NOW,
      });
      const p = plan.planned[0];
      expect(p?.records.get('oai_dc')).to.equal(given);
      expect(p?.records.get('mods')).to.equal(mods);
      expect(p?.input.written).to.not.include('oai_dc');
      expect(p?.input.liftedFrom).to.equal('mods');
    });

    it('lifts the model from the format the configured lift order names first', () => {
      const mods = '<mods xmlns="http://www.loc.gov/mods/v3" version="3.7"><titleInfo><title>Other</title></titleInfo></mods>';
      const input = { internalId: 'a', metadata: { oai_dc: dc('Dublin Core'), mods } };
      const richest = decideBatch([input], empty, { preparation, tombstonePrefixes: ['oai_dc'], now: NOW });
      expect(richest.planned[0]?.input.liftedFrom).to.equal('mods');
      const asked = decideBatch([input], empty, { preparation: { ...preparation, liftOrder: ['oai_dc'] }, tombstonePrefixes: ['oai_dc'], now: NOW });
      expect(asked.planned[0]?.input.liftedFrom).to.equal('oai_dc');
      expect(asked.planned[0]?.input.fields?.dc.title).to.deep.equal(['Dublin Core']);
    });

    it('decides the item_sets rows of a change from the rows read: sets left keep their first departure, a new item gets its rows under pk 0', () => {
      const options = { preparation, tombstonePrefixes: ['oai_dc'], now: NOW };
      const old = storedItem('a', {
        sets: ['x:y'],
        memberships: [
          { spec: 'x', departed: null },
          { spec: 'x:y', departed: null },
          { spec: 'gone', departed: 500 },
        ],
      });
      const moved = decideBatch([{ internalId: 'a', metadata: { oai_dc: dc('T') }, sets: ['z'] }], stateOf(old), options).planned[0];
      expect(moved?.setRows).to.deep.equal([
        ['z', 7, true, NOW, null],
        ['x', 7, false, NOW, NOW],
        ['x:y', 7, false, NOW, NOW],
        ['gone', 7, false, NOW, 500],
      ]);
      const fresh = decideBatch([{ internalId: 'b', metadata: { oai_dc: dc('T') }, sets: ['p:q'], departures: [{ spec: 'r', at: 300 }] }], empty, options)
        .planned[0];
      expect(fresh?.setRows).to.deep.equal([
        ['p', 0, false, NOW, null],
        ['p:q', 0, true, NOW, null],
        ['r', 0, false, NOW, 300],
      ]);
    });

    it('decides no item_sets rows for an unchanged item', () => {
      const options = { preparation, tombstonePrefixes: ['oai_dc'], now: NOW };
      const first = decideBatch([{ internalId: 'a', metadata: { oai_dc: dc('T') } }], empty, options).planned[0];
      const again = decideBatch(
        [{ internalId: 'a', metadata: { oai_dc: dc('T') } }],
        stateOf(storedItem('a', { contentHash: first?.hash as string })),
        options,
      );
      expect(again.planned.map((p) => [p.outcome, p.setRows])).to.deep.equal([['unchanged', []]]);
    });

    it('sets aside an older version as superseded, without judging it', () => {
      const plan = decideBatch(
        [{ internalId: 'a', datestamp: 100, versioned: true, metadata: { oai_dc: 'not even XML' } }],
        stateOf(storedItem('a', { sourceDatestamp: 200 })),
        { preparation, tombstonePrefixes: ['oai_dc'], now: NOW },
      );
      expect(plan.refusals).to.deep.equal([]);
      expect(plan.superseded.map((s) => s.input.internalId)).to.deep.equal(['a']);
      expect(plan.planned).to.deep.equal([]);
    });

    it('refuses an id whose identifier another internal id once held, and plans nothing', () => {
      const state: StoredState = { ...empty, registryByIdentifier: new Map([[identifierOf('a'), { identifier: identifierOf('a'), internalId: 'other' }]]) };
      const plan = decideBatch([{ internalId: 'a', metadata: { oai_dc: dc('T') } }], state, { preparation, tombstonePrefixes: ['oai_dc'], now: NOW });
      expect(plan.refusals.map((r) => r.field)).to.deep.equal(['id']);
      expect(plan.planned).to.deep.equal([]);
    });

    it('writes a harvested item again for a rebuild when the input carries its stored origin, keeping its source datestamp', () => {
      const id = 'plain:oai:src.example.org:1';
      const given = dc('As harvested');
      const state: StoredState = {
        ...stateOf(storedItem(id, { origin: 'plain', sourceDatestamp: 500, given: { oai_dc: given }, sets: ['source:plain'] })),
        harvested: new Set(['plain']),
      };
      const rebuild = { internalId: id, metadata: { oai_dc: given }, sets: ['source:plain', 'physics'] };
      const options = { preparation, tombstonePrefixes: ['oai_dc'], now: NOW };
      // The same input without the origin is a load into the source's id space.
      expect(decideBatch([rebuild], state, options).refusals.map((r) => r.reason)).to.have.length(1);
      const plan = decideBatch([{ ...rebuild, rewrite: { origin: 'plain' } }], state, options);
      expect(plan.refusals).to.deep.equal([]);
      const p = plan.planned[0];
      expect([p?.outcome, p?.datestamp, p?.sourceDatestamp, p?.sets]).to.deep.equal(['updated', NOW, 500, ['physics', 'source:plain']]);
      expect(p?.records.get('oai_dc')).to.equal(given);
    });

    it('lists a deletion in every format it had and every format offered, stamped with the clock', () => {
      const plan = decideBatch(
        [{ internalId: 'a', deleted: true, metadata: {} }],
        stateOf(
          storedItem('a', {
            records: new Map([
              ['marc21', { datestamp: 900, hash: null }],
              ['oai_dc', { datestamp: 1_000, hash: null }],
            ]),
            sets: ['s'],
          }),
        ),
        {
          preparation,
          tombstonePrefixes: ['oai_dc', 'mods'],
          now: NOW,
        },
      );
      const p = plan.planned[0];
      expect([...(p?.records.keys() ?? [])]).to.deep.equal(['marc21', 'mods', 'oai_dc']);
      expect([p?.outcome, p?.datestamp, p?.sets]).to.deep.equal(['deleted', NOW, ['s']]);
    });
  });
});
