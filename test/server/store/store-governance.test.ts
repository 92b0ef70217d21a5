/**
 * Identifier governance through the store's write path, on every database: each refusal names the record and the field,
 * a refused batch writes nothing, and no order or repetition of loads gets
 * around the registry.
 */
import { expect } from 'chai';
import { RefusedError, type ItemInput } from '../../../lib/store';
import { type Refusal } from '../../../lib/model/refusal';
import type { KnexStore } from '../../../server/store/knex-store';
import type { IdPolicyLike } from '../../../lib/pipeline/governance';
import { escapeLocalIdentifier } from '../../../lib/ids/oai-identifier';
import { forEachDatabase, TEST_NAMESPACE } from '../../helpers/db';
import { item, ManualClock } from '../../helpers/store-fixtures';

const T0 = 1_700_000_000;

/**
 * A deliberately bad policy that folds case, so two internal ids can collide
 * on one identifier: the registry must refuse what a bad or changed policy
 * would otherwise let through.
 */
const caseFolding: IdPolicyLike = {
  namespace: TEST_NAMESPACE,
  map: (id) => ({ identifier: `oai:${TEST_NAMESPACE}:${escapeLocalIdentifier(id.toLowerCase())}`, scheme: 'opaque' }),
};

/** A policy as if reconfigured: every identifier gets a `v2-` prefix. */
const versionTwo: IdPolicyLike = {
  namespace: TEST_NAMESPACE,
  map: (id) => ({ identifier: `oai:${TEST_NAMESPACE}:v2-${escapeLocalIdentifier(id)}`, scheme: 'opaque' }),
};

/** Runs a write expected to be refused and returns the refusals. */
async function refusalsOf(write: Promise<unknown>): Promise<readonly Refusal[]> {
  try {
    await write;
  } catch (err) {
    expect(err).to.be.instanceOf(RefusedError);
    const refused = err as RefusedError;
    for (const r of refused.refusals) {
      // The message a person reads names the record and the field.
      expect(refused.message).to.include(`record ${JSON.stringify(r.internalId)}, field ${r.field}`);
    }
    return refused.refusals;
  }
  throw new Error('expected the write to be refused');
}

async function itemCount(store: KnexStore): Promise<number> {
  const row = (await store.knex('items').count({ n: '*' }).first()) as { n: unknown };
  return Number(row.n);
}

interface RefusalCase {
  readonly name: string;
  readonly batch: readonly ItemInput[];
  readonly field: string;
  readonly reason: RegExp;
  readonly internalId: string;
}

const cases: readonly RefusalCase[] = [
  { name: 'an empty internal id', batch: [item('')], internalId: '', field: 'id', reason: /cannot be mapped.*empty/ },
  { name: 'an internal id with a lone surrogate', batch: [item('x\uD800y')], internalId: 'x\uD800y', field: 'id', reason: /cannot be mapped.*surrogate/ },
  {
    name: 'the same internal id twice in one batch',
    batch: [item('twice'), item('twice')],
    internalId: 'twice',
    field: 'id',
    reason: /appears twice in one batch/,
  },
  {
    name: "an invalid oai-identifier among the record's identifiers",
    batch: [item('r1', { identifiers: ['http://example.com/ok', 'oai:test.example.org:ab%3ccd'], source: 'records.ndjson:7' })],
    internalId: 'r1',
    field: 'identifiers[1]',
    reason: /"oai:test\.example\.org:ab%3ccd" is not a valid oai-identifier/,
  },
  {
    name: 'an oai-identifier whose namespace-identifier is not a domain name',
    batch: [item('r2', { identifiers: ['oai:wibble:x'] })],
    internalId: 'r2',
    field: 'identifiers[0]',
    reason: /not a valid oai-identifier/,
  },
  {
    name: 'an invalid POI',
    batch: [item('r3', { identifiers: ['http://purl.org/poi/9nine.org/x'] })],
    internalId: 'r3',
    field: 'identifiers[0]',
    reason: /not a valid POI/,
  },
  {
    name: 'an oai-identifier in the configured namespace with other capitalization',
    batch: [item('r4', { identifiers: ['oai:Test.Example.org:r4'] })],
    internalId: 'r4',
    field: 'identifiers[0]',
    reason: /another capitalization of namespace "test\.example\.org"/,
  },
  {
    name: 'a POI in the configured namespace with other capitalization',
    batch: [item('r5', { identifiers: ['http://purl.org/poi/TEST.EXAMPLE.ORG/r5'] })],
    internalId: 'r5',
    field: 'identifiers[0]',
    reason: /another capitalization of namespace/,
  },
  {
    name: 'an identifier field holding a character XML cannot carry',
    batch: [item('r6', { identifiers: ['oai:test.example.org:r6\u0000'] })],
    internalId: 'r6',
    field: 'identifiers[0]',
    reason: /U\+0000/,
  },
  {
    name: 'an invalid info:fedora URI',
    batch: [item('r13', { identifiers: ['info:fedora/demo'] })],
    internalId: 'r13',
    field: 'identifiers[0]',
    reason: /not a valid info:fedora URI/,
  },
  {
    name: 'an invalid info:sid identifier',
    batch: [item('r14', { identifiers: ['info:sid/-bad-.org:x'] })],
    internalId: 'r14',
    field: 'identifiers[0]',
    reason: /not a valid info:sid identifier/,
  },
  {
    name: 'an invalid urn:pdi identifier',
    batch: [item('r15', { identifiers: ['urn:pdi://pubs.example.us/2024/13/45/1'] })],
    internalId: 'r15',
    field: 'identifiers[0]',
    reason: /not a valid urn:pdi identifier/,
  },
  {
    name: 'an oai-identifier with an uppercase scheme',
    batch: [item('r16', { identifiers: ['OAI:test.example.org:r16'] })],
    internalId: 'r16',
    field: 'identifiers[0]',
    reason: /not a valid oai-identifier/,
  },
  { name: 'an invalid set spec', batch: [item('r8', { sets: ['a b'] })], internalId: 'r8', field: 'sets', reason: /not a valid setSpec/ },
  { name: 'a live record without metadata', batch: [{ internalId: 'r9', metadata: {} }], internalId: 'r9', field: 'metadata', reason: /at least one format/ },
  {
    name: 'metadata with a control character',
    batch: [item('r10', { metadata: { oai_dc: '<dc>bell\u0007</dc>' } })],
    internalId: 'r10',
    field: 'metadata.oai_dc',
    reason: /U\+0007/,
  },
  { name: 'a datestamp in the future', batch: [item('r11', { datestamp: T0 + 3600 })], internalId: 'r11', field: 'datestamp', reason: /future/ },
  {
    name: 'a datestamp before 1970, said as a date, not as a number that is not one',
    batch: [item('r13', { datestamp: -315619200 })],
    internalId: 'r13',
    field: 'datestamp',
    reason: /^1960-01-01T00:00:00Z lies before 1970-01-01T00:00:00Z, where this store's datestamps begin$/,
  },
  {
    name: 'a datestamp past what a date can say',
    batch: [item('r14', { datestamp: Number.MAX_SAFE_INTEGER })],
    internalId: 'r14',
    field: 'datestamp',
    reason: /^9007199254740991 seconds from the epoch lies in the future$/,
  },
  {
    name: 'a datestamp that is not whole seconds',
    batch: [item('r12', { datestamp: T0 - 0.5 })],
    internalId: 'r12',
    field: 'datestamp',
    reason: /whole number/,
  },
];

forEachDatabase((db) => {
  describe('identifier governance in the write path', function () {
    for (const c of cases) {
      it(`refuses ${c.name}, naming the record and the field, and writes nothing`, async function () {
        const store = db.store({ clock: () => T0 });
        // A good record in the same batch must not be written either.
        const refusals = await refusalsOf(store.writeItems([item('innocent'), ...c.batch]));
        expect(refusals.length, JSON.stringify(refusals)).to.be.greaterThan(0);
        const r = refusals[0] as Refusal;
        expect(r.internalId).to.equal(c.internalId);
        expect(r.field).to.equal(c.field);
        expect(r.reason).to.match(c.reason);
        expect(await itemCount(store)).to.equal(0);
        // checkItems reports the same without writing.
        expect(await store.checkItems([item('innocent'), ...c.batch])).to.deep.equal(refusals);
      });
    }

    it('accepts valid identifiers of every scheme and values of no known scheme', async function () {
      const store = db.store({ clock: () => T0 });
      const results = await store.writeItems([
        item('ok', {
          identifiers: [
            'oai:test.example.org:ok',
            'oai:other.org:x',
            'http://purl.org/poi/test.example.org/ok',
            'info:fedora/demo:A-B.C_D%3AE',
            'info:sid/OCLC.org:inspec',
            'urn:pdi://pubs.example.us/2024/03/01/1.html.1',
            'https://doi.org/10.1000/1',
            'ISBN 0-00-000000-0',
          ],
        }),
      ]);
      expect(results.map((r) => r.outcome)).to.deep.equal(['inserted']);
    });

    it('carries the source of each refused record into the message', async function () {
      const store = db.store({ clock: () => T0 });
      let error: unknown;
      try {
        await store.writeItems([item('s1', { sets: ['no set'], source: 'records.ndjson:12' })]);
      } catch (err) {
        error = err;
      }
      expect((error as Error).message).to.equal('records.ndjson:12: record "s1", field sets: "no set" is not a valid setSpec');
    });

    it('declares a set a record names that was never declared, named by its spec, and puts the record in it', async function () {
      const store = db.store({ clock: () => T0 });
      await store.writeItems([item('h1', { sets: ['5:12'] })]);
      expect(await store.listSets(null, 10)).to.deep.include({ spec: '5:12', name: '5:12', descriptions: [] });
      expect((await store.getHeader('oai:test.example.org:h1'))?.sets).to.deep.equal(['5:12']);
    });

    it('reports every refused record of a batch, not only the first', async function () {
      const store = db.store({ clock: () => T0 });
      const refusals = await refusalsOf(store.writeItems([item(''), item('fine'), item('b', { sets: ['x y'] }), item('c', { identifiers: ['oai:bad'] })]));
      expect(refusals.map((r) => [r.internalId, r.field])).to.deep.equal([
        ['', 'id'],
        ['b', 'sets'],
        ['c', 'identifiers[0]'],
      ]);
      expect(await itemCount(store)).to.equal(0);
    });

    it('refuses two internal ids of one batch that map to the same identifier', async function () {
      const store = db.store({ clock: () => T0, policy: caseFolding });
      const refusals = await refusalsOf(store.writeItems([item('Report'), item('REPORT')]));
      expect(refusals).to.have.length(1);
      expect(refusals[0]).to.include({ internalId: 'REPORT', field: 'id' });
      expect(refusals[0]?.reason).to.match(/maps to oai:test\.example\.org:report, as does "Report"/);
      expect(await itemCount(store)).to.equal(0);
    });

    it('refuses an internal id whose identifier is already held by another item, in either load order', async function () {
      for (const [first, second] of [
        ['Report', 'report'],
        ['report', 'Report'],
      ] as const) {
        await db.knex()('records').delete();
        await db.knex()('item_sets').delete();
        await db.knex()('record_fields').delete();
        for (const t of ['log_leaves', 'log_tiles', 'log_head']) await db.knex()(t).delete();
        await db.knex()('items').delete();
        await db.knex()('identifiers').delete();
        const store = db.store({ clock: () => T0, policy: caseFolding });
        await store.writeItems([item(first)]);
        for (let attempt = 0; attempt < 2; attempt++) {
          const refusals = await refusalsOf(store.writeItems([item(second)]));
          expect(refusals).to.have.length(1);
          expect(refusals[0]?.reason).to.include(`already held by internal id ${JSON.stringify(first)}`);
        }
        // Loading the accepted one again is fine and changes nothing.
        expect((await store.writeItems([item(first)]))[0]?.outcome).to.equal('unchanged');
      }
    });

    it('never hands the identifier of a tombstone to another item', async function () {
      const clock = new ManualClock(T0);
      const store = db.store({ clock: clock.read, policy: caseFolding });
      await store.writeItems([item('Gone')]);
      clock.tick();
      await store.deleteItems(['Gone']);
      const refusals = await refusalsOf(store.writeItems([item('gone')]));
      expect(refusals[0]).to.include({ internalId: 'gone', field: 'id' });
      expect(refusals[0]?.reason).to.match(/already held by internal id "Gone"; identifiers are never reused/);
      expect(await store.getHeader('oai:test.example.org:gone')).to.deep.include({ internalId: 'Gone', deleted: true });
    });

    it('refuses to change the identifier of an existing item when the policy changes, even for a tombstone', async function () {
      const clock = new ManualClock(T0);
      await db.store({ clock: clock.read }).writeItems([item('kept'), item('dead')]);
      await db.store({ clock: clock.read }).deleteItems(['dead']);
      const changed = db.store({ clock: clock.read, policy: versionTwo });
      const refusals = await refusalsOf(changed.writeItems([item('kept'), item('dead'), item('brand new')]));
      expect(refusals.map((r) => [r.internalId, r.field])).to.deep.equal([
        ['kept', 'id'],
        ['dead', 'id'],
      ]);
      expect(refusals[0]?.reason).to.include('would change the identifier of an existing item from oai:test.example.org:kept to oai:test.example.org:v2-kept');
      expect(await changed.getHeader('oai:test.example.org:v2-brand%20new')).to.equal(null);
    });

    it('records every published identifier in the registry with its internal id, scheme and first publication', async function () {
      const clock = new ManualClock(T0);
      const store = db.store({ clock: clock.read });
      await store.writeItems([item('report 12'), item('demo:A-B.C_D%3AE')]);
      clock.tick(100);
      await store.writeItems([item('report 12', { metadata: { oai_dc: '<changed/>' } })]);
      await store.deleteItems(['report 12']);
      const rows = (await db.knex()('identifiers').select('identifier', 'internal_id', 'scheme', 'first_published').orderBy('identifier')) as {
        identifier: string;
        internal_id: string;
        scheme: string;
        first_published: unknown;
      }[];
      expect(rows.map((r) => ({ ...r, first_published: Number(r.first_published) }))).to.deep.equal([
        { identifier: 'oai:test.example.org:demo:A-B.C_D%3AE', internal_id: 'demo:A-B.C_D%3AE', scheme: 'fedora-pid', first_published: T0 },
        { identifier: 'oai:test.example.org:report%2012', internal_id: 'report 12', scheme: 'opaque', first_published: T0 },
      ]);
    });

    it('refuses to delete an unknown internal id and deletes nothing then', async function () {
      const clock = new ManualClock(T0);
      const store = db.store({ clock: clock.read });
      await store.writeItems([item('here')]);
      clock.tick();
      const refusals = await refusalsOf(store.deleteItems(['here', 'not here']));
      expect(refusals).to.deep.equal([{ internalId: 'not here', field: 'id', reason: 'no item has this internal id, so there is nothing to delete' }]);
      expect((await store.getHeader('oai:test.example.org:here'))?.deleted).to.equal(false);
    });

    it('ends in the same state whatever the order and repetition of loads', async function () {
      const batches: ItemInput[][] = [
        [item('Alpha'), item('beta')],
        [item('ALPHA'), item('gamma')],
        [item('alpha'), item('Beta')],
      ];
      const outcomes: string[] = [];
      for (const order of [
        [0, 1, 2],
        [2, 1, 0],
        [1, 0, 2, 0, 1],
      ]) {
        for (const t of ['records', 'item_sets', 'record_fields', 'log_leaves', 'log_tiles', 'log_head', 'items', 'identifiers']) await db.knex()(t).delete();
        const store = db.store({ clock: () => T0, policy: caseFolding });
        const firstHolder = new Map<string, string>();
        for (const i of order) {
          const batch = batches[i] as ItemInput[];
          // Each batch is all or nothing: either every item is new or already held by itself, or it is refused.
          const expectedRefused = batch.some((it) => {
            const holder = firstHolder.get(it.internalId.toLowerCase());
            return holder !== undefined && holder !== it.internalId;
          });
          let refused = false;
          try {
            await store.writeItems(batch);
          } catch (err) {
            expect(err).to.be.instanceOf(RefusedError);
            refused = true;
          }
          expect(refused, `batch ${i} in order ${order.join(',')}`).to.equal(expectedRefused);
          if (!refused) for (const it of batch) firstHolder.set(it.internalId.toLowerCase(), it.internalId);
        }
        const rows = (await db.knex()('items').select('internal_id', 'identifier').orderBy('identifier')) as { internal_id: string; identifier: string }[];
        // One holder per identifier, and it is the one the registry says.
        const reg = (await db.knex()('identifiers').select('identifier', 'internal_id').orderBy('identifier')) as { internal_id: string; identifier: string }[];
        expect(rows).to.deep.equal(reg);
        expect(new Set(rows.map((r) => r.identifier)).size).to.equal(rows.length);
        outcomes.push(rows.map((r) => r.identifier).join(' '));
      }
      expect(outcomes.length).to.equal(3);
    });
  });
});
