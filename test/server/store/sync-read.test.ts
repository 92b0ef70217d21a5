/**
 * The store's reads for ResourceSync and the sitemap (server/store/sync-read.ts)
 * on every database: live records of a scope in pk order, runs of pks, changes
 * in (datestamp, pk) order with tombstones and set departures, and the small
 * questions the documents above them ask.
 */
import { expect } from 'chai';
import type { Keyset, SyncScope } from '../../../lib/store';
import { forEachDatabase } from '../../helpers/db';
import { dc, item, ManualClock } from '../../helpers/store-fixtures';

const DC: SyncScope = { metadataPrefix: 'oai_dc' };
const START: Keyset = { datestamp: 0, pk: 0 };
const ALL = { afterPk: 0, throughPk: Number.MAX_SAFE_INTEGER, limit: 1000 };

forEachDatabase((db) => {
  /** Seven items a:1…a:7 written one second apart (pks 1–7), a:1–a:4 in set `s:t`, the rest in `u`. */
  async function seven(clock: ManualClock) {
    const store = db.store({ clock: clock.read });
    await store.putSets([
      { spec: 's', name: 'S' },
      { spec: 's:t', name: 'T' },
      { spec: 'u', name: 'U' },
    ]);
    for (let k = 1; k <= 7; k++) {
      clock.tick();
      await store.writeItems([item(`a:${k}`, { sets: [k <= 4 ? 's:t' : 'u'] })]);
    }
    return store;
  }

  it('lists the live records of a format in pk order, within a pk range, with their metadata when asked', async () => {
    const clock = new ManualClock();
    const store = await seven(clock);
    clock.tick();
    await store.deleteItems(['a:3']);
    const all = await store.syncResources(DC, { ...ALL, withXml: false });
    expect(all.map((r) => r.pk)).to.deep.equal([1, 2, 4, 5, 6, 7]);
    expect(all[0]).to.include({ identifier: 'oai:test.example.org:a:1', datestamp: 1_700_000_001, created: 1_700_000_001 });
    expect(all[0]?.contentHash).to.match(/^[0-9a-f]{64}$/);
    expect(all[0]).not.to.have.property('xml');
    const some = await store.syncResources(DC, { afterPk: 1, throughPk: 5, limit: 2, withXml: true });
    expect(some.map((r) => r.pk)).to.deep.equal([2, 4]);
    expect(some[0]?.xml).to.equal(dc('Title of a:2'));
    expect(await store.syncResources({ metadataPrefix: 'marc21' }, { ...ALL, withXml: false })).to.deep.equal([]);
  });

  it('lists a set with its descendants and without the items that left it', async () => {
    const clock = new ManualClock();
    const store = await seven(clock);
    clock.tick();
    await store.setMemberships([{ internalId: 'a:2', sets: ['u'] }]);
    const inS = await store.syncResources({ metadataPrefix: 'oai_dc', set: 's' }, { ...ALL, withXml: false });
    expect(inS.map((r) => r.pk)).to.deep.equal([1, 3, 4]);
    expect((await store.syncResources({ metadataPrefix: 'oai_dc', set: 'u' }, { ...ALL, withXml: false })).map((r) => r.pk)).to.deep.equal([2, 5, 6, 7]);
    expect(await store.syncCount({ metadataPrefix: 'oai_dc', set: 's' }, 100)).to.equal(3);
  });

  it('counts no further than asked', async () => {
    const store = await seven(new ManualClock());
    expect(await store.syncCount(DC, 100)).to.equal(7);
    expect(await store.syncCount(DC, 4)).to.equal(4);
  });

  it('groups the live records into runs of pks, skipping runs without any', async () => {
    const clock = new ManualClock();
    const store = await seven(clock);
    clock.tick();
    await store.deleteItems(['a:4', 'a:5', 'a:6']);
    // Runs of 3 pks: 1–3, 4–6 (all deleted), 7–9.
    expect(await store.syncParts(DC, 3)).to.deep.equal([
      { part: 0, count: 3, latest: 1_700_000_003 },
      { part: 2, count: 1, latest: 1_700_000_007 },
    ]);
    expect(await store.syncParts({ metadataPrefix: 'oai_dc', set: 'u' }, 3)).to.deep.equal([{ part: 2, count: 1, latest: 1_700_000_007 }]);
  });

  it('gives changes in datestamp order, each record once at its latest, tombstones and departures as deletions', async () => {
    const clock = new ManualClock();
    const store = await seven(clock);
    clock.tick();
    await store.writeItems([{ ...item('a:1'), metadata: { oai_dc: dc('A new title') }, sets: ['s:t'] }]);
    clock.tick();
    await store.deleteItems(['a:5']);
    clock.tick();
    await store.setMemberships([{ internalId: 'a:2', sets: ['u'] }]);
    const changes = await store.syncChanges(DC, START, 100);
    expect(changes.map((c) => [c.pk, c.datestamp - 1_700_000_000, c.deleted])).to.deep.equal([
      [3, 3, false],
      [4, 4, false],
      [6, 6, false],
      [7, 7, false],
      [1, 8, false],
      [5, 9, true],
      [2, 10, false],
    ]);
    expect(changes.find((c) => c.pk === 1)).to.include({ created: 1_700_000_001 });
    const inS = await store.syncChanges({ metadataPrefix: 'oai_dc', set: 's' }, START, 100);
    expect(inS.map((c) => [c.pk, c.deleted])).to.deep.equal([
      [3, false],
      [4, false],
      [1, false],
      [2, true],
    ]);
    const after = await store.syncChanges(DC, { datestamp: 1_700_000_007, pk: 7 }, 2);
    expect(after.map((c) => c.pk)).to.deep.equal([1, 5]);
  });

  it('finds where the n-th change after a position is, or says there is none', async () => {
    const store = await seven(new ManualClock());
    expect(await store.syncNthChange(DC, START, 3)).to.deep.equal({ datestamp: 1_700_000_003, pk: 3 });
    expect(await store.syncNthChange(DC, { datestamp: 1_700_000_003, pk: 3 }, 4)).to.deep.equal({ datestamp: 1_700_000_007, pk: 7 });
    expect(await store.syncNthChange(DC, { datestamp: 1_700_000_003, pk: 3 }, 5)).to.equal(null);
  });

  it('tells whether a scope holds any record and any live one, and which formats a set holds', async () => {
    const clock = new ManualClock();
    const store = await seven(clock);
    await store.putSets([{ spec: 'empty', name: 'Nothing yet' }]);
    clock.tick();
    await store.deleteItems(['a:5', 'a:6', 'a:7']);
    expect(await store.syncPresence(DC)).to.deep.equal({ any: true, live: true });
    expect(await store.syncPresence({ metadataPrefix: 'oai_dc', set: 'u' })).to.deep.equal({ any: true, live: false });
    expect(await store.syncPresence({ metadataPrefix: 'oai_dc', set: 'empty' })).to.deep.equal({ any: false, live: false });
    expect(await store.syncPresence({ metadataPrefix: 'mods' })).to.deep.equal({ any: false, live: false });
    expect(await store.syncSetFormats('s', ['mods', 'oai_dc'])).to.deep.equal(['oai_dc']);
    expect(await store.syncSetFormats('empty', ['mods', 'oai_dc'])).to.deep.equal([]);
  });

  it('gives the latest datestamp or creation time of a scope', async () => {
    const clock = new ManualClock();
    const store = await seven(clock);
    expect(await store.syncLatest(DC)).to.equal(1_700_000_007);
    expect(await store.syncLatest({ metadataPrefix: 'oai_dc', set: 's' })).to.equal(1_700_000_004);
    clock.tick(100);
    // A record dated by its source long ago still moves the time, by its creation.
    await store.writeItems([item('old', { datestamp: 1_000_000_000, sets: ['s'] })]);
    expect(await store.syncLatest(DC)).to.equal(1_700_000_107);
    expect(await store.syncLatest({ metadataPrefix: 'oai_dc', set: 's' })).to.equal(1_700_000_107);
    expect(await store.syncLatest({ metadataPrefix: 'mods' })).to.equal(0);
  });
});
