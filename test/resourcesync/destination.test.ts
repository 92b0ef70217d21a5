/**
 * A destination (test/helpers/destination.ts) mirrors the repository through
 * ResourceSync alone, on every database: it baselines from the Resource List
 * or the Resource Dump, then applies the Change Lists after loads, updates,
 * deletions, set moves and records that come back, and after each round
 * holds exactly what the store publishes, byte for byte. Lists are split at
 * three entries, so every index, every part and pages that meet inside one
 * second are read.
 */
import { expect } from 'chai';
import type { ItemInput, ItemRecord, Keyset, SyncScope } from '../../lib/store';
import { Destination } from '../helpers/destination';
import { BASE_URL, forEachProvider, type TestProvider } from '../helpers/server';
import { dc } from '../helpers/store-fixtures';

const ORIGIN = new URL(BASE_URL).origin;
const T0 = 1_760_000_000;

const rec = (id: string, title: string, sets: string[]): ItemInput => ({ internalId: id, sets, metadata: { oai_dc: dc(title) } });

/** What a mirror of a scope must hold: each live record's URL and bytes, read through the OAI-PMH list path of the store. */
async function published(p: TestProvider, scope: SyncScope): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  let after: Keyset | undefined;
  for (;;) {
    const page: readonly ItemRecord[] = await p.store.listRecords({
      metadataPrefix: scope.metadataPrefix,
      until: Number.MAX_SAFE_INTEGER,
      limit: 100,
      ...(scope.set !== undefined && { set: scope.set }),
      ...(after && { after }),
    });
    for (const r of page) {
      if (r.deleted || r.metadata === null) continue;
      out[`${ORIGIN}/resourcesync/${scope.metadataPrefix}/record/${encodeURIComponent(r.identifier)}`] =
        `<?xml version="1.0" encoding="UTF-8"?>\n${r.metadata}\n`;
    }
    if (page.length < 100) return out;
    const last = page[page.length - 1] as ItemRecord;
    after = { datestamp: last.datestamp, pk: last.pk };
  }
}

function held(d: Destination): Record<string, string> {
  return Object.fromEntries([...d.copies].map(([url, bytes]) => [url, bytes.toString('utf8')]));
}

/** Moves both clocks: the store stamps writes at `t`, the app answers at `t` too. */
function at(p: TestProvider, t: number): void {
  p.writeNow = t;
  p.now = t;
}

/** The rounds every mirror goes through, each followed by a comparison. */
async function rounds(p: TestProvider, d: Destination, scope: SyncScope, baseline: () => Promise<void>): Promise<void> {
  // Seven records in one second: more than a page, so pages meet inside that second.
  at(p, T0);
  await p.store.putSets([
    { spec: 'a', name: 'A' },
    { spec: 'b', name: 'B' },
  ]);
  await p.store.writeItems([1, 2, 3, 4, 5, 6, 7].map((k) => rec(`r${k}`, `Record ${k}`, [k <= 4 ? 'a' : 'b'])));
  at(p, T0 + 10);
  await baseline();
  expect(held(d), 'after the baseline').to.deep.equal(await published(p, scope));
  expect(d.copies.size).to.be.greaterThan(0);

  // A record written in the very second of the baseline is not lost: that second is read again.
  await p.store.writeItems([rec('r8', 'Record 8', ['a'])]);
  at(p, T0 + 20);
  await p.store.writeItems([9, 10, 11, 12, 13].map((k) => rec(`r${k}`, `Record ${k}`, ['a'])));
  await p.store.writeItems([rec('r1', 'Record 1, corrected', ['a']), rec('r2', 'Record 2, corrected', ['a'])]);
  await p.store.deleteItems(['r3', 'r5']);
  await p.store.setMemberships([{ internalId: 'r4', sets: ['b'] }]);
  at(p, T0 + 30);
  expect(await d.follow(), 'changes applied').to.be.greaterThan(0);
  expect(held(d), 'after loads, updates, deletions and a set move').to.deep.equal(await published(p, scope));

  // Changes one second apart, a record changed twice, one deleted, and a deleted one written again.
  for (const [k, w] of [
    [8, 'again'],
    [8, 'once more'],
    [12, ''],
    [3, 'back'],
  ] as const) {
    at(p, p.writeNow + 1);
    if (w === '') await p.store.deleteItems([`r${k}`]);
    else await p.store.writeItems([rec(`r${k}`, `Record ${k}, ${w}`, ['a'])]);
  }
  at(p, T0 + 60);
  await d.follow();
  expect(held(d), 'after the second round').to.deep.equal(await published(p, scope));

  // Nothing new: following again changes nothing.
  at(p, T0 + 70);
  await d.follow();
  expect(held(d), 'after a round without changes').to.deep.equal(await published(p, scope));
}

describe('a ResourceSync destination', function () {
  this.timeout(120_000);

  describe('mirroring a format from its Resource List', () => {
    forEachProvider({ seed: false, app: { resourceSync: { partSize: 3 } } }, (get) => {
      it('ends equal to what the store publishes after every round', async () => {
        const d = new Destination(get().port, `${ORIGIN}/resourcesync/oai_dc/capabilitylist.xml`);
        await rounds(get(), d, { metadataPrefix: 'oai_dc' }, () => d.baseline());
        // Every index and part was read: the lists really were split.
        expect(d.read.some((u) => /\/resourcelist\/\d+\.xml$/.test(u))).to.equal(true);
        expect(d.read.some((u) => /\/changelist\/\d{8}T\d{6}Z-\d+\.xml$/.test(u))).to.equal(true);
      });
    });
  });

  describe('mirroring a set, where records that leave it are deletions', () => {
    forEachProvider({ seed: false, app: { resourceSync: { partSize: 3 } } }, (get) => {
      it('ends equal to the live records of the set after every round', async () => {
        const d = new Destination(get().port, `${ORIGIN}/resourcesync/oai_dc@a/capabilitylist.xml`);
        await rounds(get(), d, { metadataPrefix: 'oai_dc', set: 'a' }, () => d.baseline());
        expect(
          Object.keys(held(d)).some((u) => u.endsWith(encodeURIComponent(':r4'))),
          'r4 left set a',
        ).to.equal(false);
      });
    });
  });

  describe('mirroring a format from its Resource Dump', () => {
    forEachProvider({ seed: false, app: { resourceSync: { partSize: 3 } } }, (get) => {
      it('unpacks every package by its manifest and then follows the changes', async () => {
        const d = new Destination(get().port, `${ORIGIN}/resourcesync/oai_dc/capabilitylist.xml`);
        await rounds(get(), d, { metadataPrefix: 'oai_dc' }, () => d.baselineFromDump());
        expect(d.read.filter((u) => u.endsWith('/resourcedump.xml'))).to.have.length(1);
      });
    });
  });
});
