/**
 * The knex store's read side and its write outcomes, on every database
 * (test/helpers/db.ts): keyset paging, filters, set hierarchy, tombstones,
 * ListSets order, and datestamps that move only when content changes.
 */
import { expect } from 'chai';
import type { ItemHeader, ListFilter } from '../../../lib/store';
import type { KnexStore } from '../../../server/store/knex-store';
import { OAI_DC_NS } from '../../../lib/xml/namespaces';
import { forEachDatabase } from '../../helpers/db';
import { dc, item, ManualClock } from '../../helpers/store-fixtures';

const T0 = 1_700_000_000;
const FAR = T0 + 10_000_000;

/** Pages through a list to its end, `limit` rows at a time, as the protocol core will. */
async function harvest(store: KnexStore, f: ListFilter, limit: number): Promise<ItemHeader[]> {
  const out: ItemHeader[] = [];
  let after: ItemHeader | undefined;
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await store.listHeaders({ ...f, limit, ...(after ? { after: { datestamp: after.datestamp, pk: after.pk } } : {}) });
    out.push(...page);
    if (page.length < limit) return out;
    after = page[page.length - 1];
  }
  throw new Error('harvest did not end');
}

forEachDatabase((db) => {
  describe('the knex store, read side', function () {
    it('pages through every item exactly once, in (datestamp, pk) order, with ties on datestamp', async function () {
      const store = db.store({ clock: () => FAR });
      await store.putSets([
        { spec: 'odd', name: 'Odd' },
        { spec: 'odd:x', name: 'Odd x' },
      ]);
      // 37 items over 4 distinct datestamps: most pages cut through a tie.
      const items = Array.from({ length: 37 }, (_, i) => item(`item ${i}`, { datestamp: T0 + (i % 4), ...(i % 2 ? { sets: ['odd:x'] } : {}) }));
      await store.writeItems(items);
      for (const [limit, set] of [[1], [3], [10], [37], [100], [1, 'odd'], [4, 'odd'], [5, 'odd:x']] as const) {
        const got = await harvest(store, { metadataPrefix: 'oai_dc', until: FAR, ...(set ? { set } : {}) }, limit);
        const expected = items.filter((_, i) => !set || i % 2 === 1);
        expect(got.map((h) => h.internalId).sort()).to.deep.equal(expected.map((i) => i.internalId).sort());
        for (let i = 1; i < got.length; i++) {
          const a = got[i - 1] as ItemHeader;
          const b = got[i] as ItemHeader;
          expect(a.datestamp < b.datestamp || (a.datestamp === b.datestamp && a.pk < b.pk), `row ${i} at limit ${limit}`).to.equal(true);
        }
      }
    });

    it('treats from and until as inclusive bounds', async function () {
      const store = db.store({ clock: () => FAR });
      await store.writeItems([0, 1, 2, 3, 4].map((d) => item(`d${d}`, { datestamp: T0 + d, keepDatestamp: true })));
      const ids = async (f: Partial<ListFilter>) =>
        (await store.listHeaders({ metadataPrefix: 'oai_dc', until: FAR, limit: 100, ...f })).map((h) => h.internalId);
      expect(await ids({ from: T0 + 1, until: T0 + 3 })).to.deep.equal(['d1', 'd2', 'd3']);
      expect(await ids({ from: T0 + 2, until: T0 + 2 })).to.deep.equal(['d2']);
      expect(await ids({ until: T0 })).to.deep.equal(['d0']);
      expect(await ids({ from: T0 + 4 })).to.deep.equal(['d4']);
      expect(await store.count({ metadataPrefix: 'oai_dc', from: T0 + 1, until: T0 + 3 })).to.equal(3);
    });

    it('includes items of descendant sets when harvesting a set, and reports only direct sets in headers', async function () {
      const store = db.store({ clock: () => FAR });
      await store.putSets([
        { spec: 'a', name: 'A' },
        { spec: 'a:b', name: 'A B' },
        { spec: 'a:b:c', name: 'A B C' },
        { spec: 'ab', name: 'AB, not a child of a' },
      ]);
      await store.writeItems([
        item('in-a', { sets: ['a'], datestamp: T0 }),
        item('in-ab', { sets: ['a:b'], datestamp: T0 + 1 }),
        item('in-abc', { sets: ['a:b:c'], datestamp: T0 + 2 }),
        item('in-ab-and-a', { sets: ['a:b', 'a'], datestamp: T0 + 3 }),
        item('in-ab-flat', { sets: ['ab'], datestamp: T0 + 4 }),
        item('in-none', { datestamp: T0 + 5 }),
      ]);
      const cases: [string, string[]][] = [
        ['a', ['in-a', 'in-ab', 'in-abc', 'in-ab-and-a']],
        ['a:b', ['in-ab', 'in-abc', 'in-ab-and-a']],
        ['a:b:c', ['in-abc']],
        ['ab', ['in-ab-flat']],
      ];
      for (const [set, expected] of cases) {
        const got = await store.listHeaders({ metadataPrefix: 'oai_dc', until: FAR, set, limit: 100 });
        expect(
          got.map((h) => h.internalId),
          set,
        ).to.deep.equal(expected);
        expect(await store.count({ metadataPrefix: 'oai_dc', until: FAR, set }), set).to.equal(expected.length);
      }
      const all = await store.listHeaders({ metadataPrefix: 'oai_dc', until: FAR, limit: 100 });
      const setsOf = Object.fromEntries(all.map((h) => [h.internalId, h.sets]));
      expect(setsOf['in-abc']).to.deep.equal(['a:b:c']);
      expect(setsOf['in-ab-and-a']).to.deep.equal(['a', 'a:b']);
      expect(setsOf['in-none']).to.deep.equal([]);
    });

    it('lists only items that have the requested metadata format', async function () {
      const store = db.store({ clock: () => FAR });
      await store.writeItems([
        item('dc-only', { datestamp: T0 }),
        { internalId: 'both', datestamp: T0 + 1, metadata: { oai_dc: dc('both'), marcxml: '<record xmlns="http://www.loc.gov/MARC21/slim"/>' } },
      ]);
      const marc = await store.listRecords({ metadataPrefix: 'marcxml', until: FAR, limit: 10 });
      expect(marc.map((r) => [r.internalId, r.metadata])).to.deep.equal([['both', '<record xmlns="http://www.loc.gov/MARC21/slim"/>']]);
      expect(await store.count({ metadataPrefix: 'oai_dc', until: FAR })).to.equal(2);
      expect(await store.count({ metadataPrefix: 'nope', until: FAR })).to.equal(0);
    });

    it('returns the metadata XML with each record in listRecords, exactly as written', async function () {
      const store = db.store({ clock: () => FAR });
      const xml = dc('Ünïcødé — 𝄞 &amp; <b/>');
      await store.writeItems([item('x', { metadata: { oai_dc: xml }, datestamp: T0 })]);
      const [rec] = await store.listRecords({ metadataPrefix: 'oai_dc', until: FAR, limit: 10 });
      expect(rec?.metadata).to.equal(xml);
      expect(rec?.identifier).to.equal('oai:test.example.org:x');
    });

    it('keeps deleted items in lists, as headers with status deleted and no metadata, under the formats they had', async function () {
      const clock = new ManualClock(T0);
      const store = db.store({ clock: clock.read });
      await store.putSets([{ spec: 's', name: 'S' }]);
      await store.writeItems([
        { internalId: 'gone', sets: ['s'], metadata: { oai_dc: dc('gone'), marcxml: '<record/>' } },
        item('stays', { sets: ['s'] }),
        { internalId: 'born-dead', deleted: true, metadata: {} },
      ]);
      clock.tick(10);
      expect(await store.deleteItems(['gone'])).to.deep.equal([{ internalId: 'gone', identifier: 'oai:test.example.org:gone', outcome: 'deleted' }]);
      const recs = await store.listRecords({ metadataPrefix: 'oai_dc', until: clock.now, limit: 10 });
      const byId = Object.fromEntries(recs.map((r) => [r.internalId, r]));
      expect(byId['gone']).to.include({ deleted: true, metadata: null, datestamp: T0 + 10 });
      expect(byId['gone']?.sets).to.deep.equal(['s']);
      expect(byId['born-dead']).to.include({ deleted: true, metadata: null });
      expect(byId['stays']).to.include({ deleted: false });
      const marc = await store.listHeaders({ metadataPrefix: 'marcxml', until: clock.now, limit: 10 });
      expect(marc.map((h) => [h.internalId, h.deleted])).to.deep.equal([['gone', true]]);
      expect(await store.count({ metadataPrefix: 'oai_dc', until: clock.now, set: 's' })).to.equal(2);
      // The set-filtered list sees the tombstone's new datestamp too.
      const inSet = await store.listHeaders({ metadataPrefix: 'oai_dc', from: T0 + 10, until: clock.now, set: 's', limit: 10 });
      expect(inSet.map((h) => [h.internalId, h.datestamp, h.deleted])).to.deep.equal([['gone', T0 + 10, true]]);
      const header = await store.getHeader('oai:test.example.org:gone');
      expect(header?.formats).to.deep.equal(['marcxml', 'oai_dc']);
      expect(await store.getRecord('oai:test.example.org:gone', 'oai_dc')).to.include({ deleted: true, metadata: null });
    });

    it('answers single-item questions: getHeader, getRecord, earliest datestamp and sample identifier', async function () {
      const store = db.store({ clock: () => FAR });
      expect(await store.earliestDatestamp()).to.equal(null);
      expect(await store.sampleIdentifier()).to.equal(null);
      await store.writeItems([
        { internalId: 'dead', deleted: true, metadata: {}, datestamp: T0 - 5, keepDatestamp: true },
        item('report 12', { datestamp: T0 + 7, keepDatestamp: true }),
        item('demo:A-B.C_D%3AE', { datestamp: T0 + 3, keepDatestamp: true }),
      ]);
      expect(await store.earliestDatestamp()).to.equal(T0 - 5);
      expect(await store.sampleIdentifier()).to.equal('oai:test.example.org:report%2012');
      const h = await store.getHeader('oai:test.example.org:demo:A-B.C_D%3AE');
      expect(h).to.deep.include({ internalId: 'demo:A-B.C_D%3AE', datestamp: T0 + 3, deleted: false, sets: [], formats: ['oai_dc'] });
      expect(await store.getHeader('oai:test.example.org:report 12')).to.equal(null);
      expect(await store.getHeader('oai:TEST.example.org:report%2012')).to.equal(null);
      expect((await store.getRecord('oai:test.example.org:report%2012', 'oai_dc'))?.metadata).to.equal(dc('Title of report 12'));
      expect(await store.getRecord('oai:test.example.org:report%2012', 'marcxml')).to.equal(null);
      await store.ping();
    });

    it('lists sets in binary order, paging after a spec, so that "B" comes before "a"', async function () {
      const store = db.store();
      expect(await store.hasSets()).to.equal(false);
      const specs = ['a', 'B', 'b', 'A:x', 'Z', 'a:b', 'a-b', '_'];
      await store.putSets(specs.map((spec) => ({ spec, name: `Set ${spec}`, descriptions: spec === 'a' ? [`<oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}"/>`] : [] })));
      const expected = [...specs].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
      expect(expected.slice(0, 4)).to.deep.equal(['A:x', 'B', 'Z', '_']);
      const got: string[] = [];
      let after: string | null = null;
      for (;;) {
        const page = await store.listSets(after, 3);
        got.push(...page.map((s) => s.spec));
        if (page.length < 3) break;
        after = page[page.length - 1]?.spec ?? null;
      }
      expect(got).to.deep.equal(expected);
      expect(await store.countSets()).to.equal(specs.length);
      expect(await store.hasSets()).to.equal(true);
      const [a] = await store.listSets('_', 1);
      expect(a).to.deep.equal({ spec: 'a', name: 'Set a', descriptions: [`<oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}"/>`] });
    });

    it('updates a set declared again, without duplicating it', async function () {
      const store = db.store();
      await store.putSets([{ spec: 'a', name: 'Old' }]);
      await store.putSets([{ spec: 'a', name: 'New', descriptions: ['<d/>'] }]);
      expect(await store.listSets(null, 10)).to.deep.equal([{ spec: 'a', name: 'New', descriptions: ['<d/>'] }]);
    });

    it('refuses sets with an invalid spec or characters XML cannot carry', async function () {
      const store = db.store();
      for (const bad of [
        { spec: 'a::b', name: 'x' },
        { spec: 'a b', name: 'x' },
        { spec: 'ok', name: 'bell\u0007' },
      ]) {
        let error: unknown;
        try {
          await store.putSets([bad]);
        } catch (err) {
          error = err;
        }
        expect(error, bad.spec).to.be.instanceOf(Error);
      }
      expect(await store.countSets()).to.equal(0);
    });
  });

  describe('the knex store, write outcomes', function () {
    it('leaves the datestamp alone when the same content is written again', async function () {
      const clock = new ManualClock(T0);
      const store = db.store({ clock: clock.read });
      await store.putSets([{ spec: 's', name: 'S' }]);
      const batch = [item('one', { sets: ['s'] }), item('two')];
      expect((await store.writeItems(batch)).map((r) => r.outcome)).to.deep.equal(['inserted', 'inserted']);
      clock.tick(100);
      expect((await store.writeItems(batch)).map((r) => r.outcome)).to.deep.equal(['unchanged', 'unchanged']);
      // Order of sets and an explicit datestamp do not count as a change.
      expect((await store.writeItems([item('one', { sets: ['s', 's'], datestamp: T0 + 50 })]))[0]?.outcome).to.equal('unchanged');
      const headers = await store.listHeaders({ metadataPrefix: 'oai_dc', until: clock.now, limit: 10 });
      expect(headers.map((h) => h.datestamp)).to.deep.equal([T0, T0]);
    });

    it('gives a changed record the clock as its datestamp, whatever datestamp it gives', async function () {
      const clock = new ManualClock(T0);
      const store = db.store({ clock: clock.read });
      await store.writeItems([item('one'), item('two')]);
      clock.tick(60);
      const results = await store.writeItems([
        item('one', { metadata: { oai_dc: dc('new title') } }),
        item('two', { metadata: { oai_dc: dc('other title') }, datestamp: T0 + 30 }),
      ]);
      expect(results.map((r) => r.outcome)).to.deep.equal(['updated', 'updated']);
      const one = await store.getRecord('oai:test.example.org:one', 'oai_dc');
      expect(one).to.include({ datestamp: T0 + 60, metadata: dc('new title') });
      expect((await store.getHeader('oai:test.example.org:two'))?.datestamp).to.equal(T0 + 60);
    });

    it('counts a change of sets or of formats as a change', async function () {
      const clock = new ManualClock(T0);
      const store = db.store({ clock: clock.read });
      await store.putSets([{ spec: 's', name: 'S' }]);
      await store.writeItems([item('one')]);
      clock.tick();
      expect((await store.writeItems([item('one', { sets: ['s'] })]))[0]?.outcome).to.equal('updated');
      clock.tick();
      const r = await store.writeItems([item('one', { sets: ['s'], metadata: { oai_dc: dc('Title of one'), x: '<x/>' } })]);
      expect(r[0]?.outcome).to.equal('updated');
      expect(await store.getHeader('oai:test.example.org:one')).to.deep.include({ datestamp: T0 + 2, sets: ['s'], formats: ['oai_dc', 'x'] });
    });

    it('turns an item into a tombstone when written as deleted, keeping its sets and formats', async function () {
      const clock = new ManualClock(T0);
      const store = db.store({ clock: clock.read });
      await store.putSets([{ spec: 's', name: 'S' }]);
      await store.writeItems([item('one', { sets: ['s'] })]);
      clock.tick(5);
      expect((await store.writeItems([{ internalId: 'one', deleted: true, metadata: {} }]))[0]?.outcome).to.equal('deleted');
      expect(await store.getHeader('oai:test.example.org:one')).to.deep.include({ deleted: true, datestamp: T0 + 5, sets: ['s'], formats: ['oai_dc'] });
      clock.tick(5);
      expect((await store.writeItems([{ internalId: 'one', deleted: true, metadata: {} }]))[0]?.outcome).to.equal('unchanged');
      expect((await store.deleteItems(['one']))[0]?.outcome).to.equal('unchanged');
      expect((await store.getHeader('oai:test.example.org:one'))?.datestamp).to.equal(T0 + 5);
    });

    it('brings a tombstone back under the same identifier with a new datestamp when written with content', async function () {
      const clock = new ManualClock(T0);
      const store = db.store({ clock: clock.read });
      const [first] = await store.writeItems([item('phoenix')]);
      clock.tick(10);
      await store.deleteItems(['phoenix']);
      clock.tick(10);
      const [again] = await store.writeItems([item('phoenix')]);
      expect(again).to.deep.equal({ internalId: 'phoenix', identifier: first?.identifier, outcome: 'updated', update: 'revived' });
      expect(await store.getRecord(first?.identifier ?? '', 'oai_dc')).to.include({ deleted: false, datestamp: T0 + 20, metadata: dc('Title of phoenix') });
    });

    it('commits several writes together in store.transaction, or none of them', async function () {
      const store = db.store({ clock: () => T0 });
      await store.transaction(async (tx) => {
        await tx.putSets([{ spec: 's', name: 'S' }]);
        await tx.writeItems([item('a', { sets: ['s'] })]);
        await tx.writeItems([item('b', { sets: ['s'] })]);
      });
      expect(await store.count({ metadataPrefix: 'oai_dc', until: FAR, set: 's' })).to.equal(2);
      let error: unknown;
      try {
        await store.transaction(async (tx) => {
          await tx.writeItems([item('c')]);
          await tx.writeItems([item('')]);
        });
      } catch (err) {
        error = err;
      }
      expect(error).to.have.property('name', 'RefusedError');
      expect(await store.getHeader('oai:test.example.org:c')).to.equal(null);
    });

    it('writes a large batch in one call across the bound-variable limits', async function () {
      this.timeout(60_000);
      const store = db.store({ clock: () => FAR });
      await store.putSets([
        { spec: 'big', name: 'Big' },
        { spec: 'big:part', name: 'Part' },
      ]);
      const items = Array.from({ length: 12_000 }, (_, i) => item(`n${i}`, { sets: ['big:part'], datestamp: T0 + (i % 97) }));
      const results = await store.writeItems(items);
      expect(results.every((r) => r.outcome === 'inserted')).to.equal(true);
      expect(await store.count({ metadataPrefix: 'oai_dc', until: FAR, set: 'big' })).to.equal(12_000);
      expect((await store.writeItems(items)).every((r) => r.outcome === 'unchanged')).to.equal(true);
    });
  });
});
