/**
 * A staged write on SQLite (server/store/staging.ts): decided without the
 * write lock, so another connection writes while it decides; applied as
 * decided where nothing it met changed, decided again where something did.
 * The other writer is a store on a connection pool of its own, as another
 * process would be; what it writes meanwhile is ordered by the test, so each
 * case is the interleaving it names.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { RefusedError, type PartialWrite, type WriteResult } from '../../../lib/store';
import { createIdPolicy } from '../../../lib/ids/policy';
import { createKnex } from '../../../server/db/connection';
import { migrate } from '../../../server/db/migrations';
import { KnexStore } from '../../../server/store/knex-store';
import { holdWrites, openThrowawayDatabase, TEST_NAMESPACE, type ThrowawayDatabase } from '../../helpers/db';
import { dc, item } from '../../helpers/store-fixtures';

const MARC = '<record xmlns="http://www.loc.gov/MARC21/slim"><leader>00000nam a2200000 a 4500</leader></record>';

/** What `work` was rejected with (undefined when it was not). */
async function rejection(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (err) {
    return err;
  }
  return undefined;
}

/** What a staged write told its caller it decided again. */
type Redecided = { before: readonly WriteResult[]; now: PartialWrite };

describe('a staged write on SQLite', function () {
  let db: ThrowawayDatabase;
  let otherKnex: Knex;
  const policy = createIdPolicy({ namespace: TEST_NAMESPACE, mode: 'auto' });
  const store = (): KnexStore => new KnexStore({ knex: db.knex(), policy });
  const other = (): KnexStore => new KnexStore({ knex: otherKnex, policy });
  const titleOf = async (id: string): Promise<string | undefined> => {
    const row = (await db.knex()('record_fields').join('items', 'items.pk', 'record_fields.item_pk').where('items.internal_id', id).first('fields')) as
      { fields: string } | undefined;
    return row && (JSON.parse(row.fields) as { dc: { title: string[] } }).dc.title[0];
  };
  const ids = async (): Promise<string[]> =>
    ((await db.knex()('items').orderBy('internal_id').select('internal_id')) as { internal_id: string }[]).map((r) => r.internal_id);

  beforeEach(async () => {
    db = await openThrowawayDatabase('sqlite');
    await migrate(db.knex());
    otherKnex = createKnex(db.url);
  });

  afterEach(async () => {
    await otherKnex.destroy();
    await db.close();
  });

  it('lets another connection write while it decides, and applies what it decided where nothing it met changed', async () => {
    const told: Redecided[] = [];
    const batches: unknown[] = [];
    const results = await store().stagedTransaction(
      async (tx) => {
        const first = await tx.writeItems([item('a'), item('b')]);
        // Another writer commits while the staged write holds decisions, not the lock.
        expect(await other().writeItems([item('c')])).to.have.length(1);
        return [...first, ...(await tx.writeItems([item('d')]))];
      },
      { redecided: (before, now) => told.push({ before, now }), applied: (b) => batches.push(b) },
    );
    expect(results.map((r) => r.outcome)).to.deep.equal(['inserted', 'inserted', 'inserted']);
    expect(told).to.deep.equal([]);
    expect(batches).to.deep.equal([{ asDecided: 2, decidedAgain: 0 }]);
    expect(await ids()).to.deep.equal(['a', 'b', 'c', 'd']);
    const stamps = new Map(
      ((await db.knex()('items').select('internal_id', 'datestamp')) as { internal_id: string; datestamp: number }[]).map((r) => [
        r.internal_id,
        Number(r.datestamp),
      ]),
    );
    // Published after the other write: stamped no earlier.
    for (const id of ['a', 'b', 'd']) expect(stamps.get(id), id).to.be.at.least(stamps.get('c') as number);
  });

  it('stores every record as a write as it goes would, as text, byte for byte, with the same log hashes', async () => {
    const items = [
      item('a', { sets: ['s'] }),
      item('b', { metadata: { oai_dc: dc('Łódź, Ελλάδα, 東京'), marc21: MARC } }),
      item('c', { metadata: { oai_dc: dc('𝄞 and &amp;') } }),
      item('d'),
    ];
    // A batch each: every batch but the first is written to the staging file, and its log hashes taken, on a thread of its own.
    await store().stagedTransaction(async (tx) => {
      for (const i of items) await tx.writeItems([i]);
    });
    const plain = await openThrowawayDatabase('sqlite');
    try {
      await migrate(plain.knex());
      await new KnexStore({ knex: plain.knex(), policy }).writeItems(items);
      const rows = async (knex: Knex): Promise<unknown[]> =>
        knex('records')
          .join('items', 'items.pk', 'records.item_pk')
          .orderBy(['internal_id', 'prefix'])
          .select('internal_id', 'prefix', knex.raw('typeof(xml) AS type'), 'xml', 'hash', 'log_hash');
      const staged = await rows(db.knex());
      expect(staged.length).to.equal(5);
      expect(staged.every((r) => /^[0-9a-f]{64}$/.test(String((r as { log_hash: unknown }).log_hash)))).to.equal(true);
      expect(new Set(staged.map((r) => (r as { type: string }).type))).to.deep.equal(new Set(['text']));
      expect(staged).to.deep.equal(await rows(plain.knex()));
    } finally {
      await plain.close();
    }
  });

  it('applies as decided a batch of items the store holds, with sets, formats given and a deletion, when nothing changed', async () => {
    await store().writeItems([item('a', { sets: ['s'] }), item('b', { metadata: { oai_dc: dc('B'), marc21: MARC } }), item('c')]);
    const batches: unknown[] = [];
    const results = await store().stagedTransaction(
      async (tx) => [
        ...(await tx.writeItems([item('a', { sets: ['t'] }), item('b', { metadata: { oai_dc: dc('B again') } }), item('c')])),
        ...(await tx.deleteItems(['c'])),
      ],
      { applied: (b) => batches.push(b) },
    );
    expect(results.map((r) => r.outcome)).to.deep.equal(['updated', 'updated', 'unchanged', 'deleted']);
    expect(batches).to.deep.equal([{ asDecided: 1, decidedAgain: 0 }]);
    expect(await titleOf('b')).to.equal('B again');
  });

  it('decides a batch again where another writer changed what it met, and tells its caller what it came to', async () => {
    const told: Redecided[] = [];
    const batches: unknown[] = [];
    await store().stagedTransaction(
      async (tx) => {
        expect((await tx.writeItems([item('a', { metadata: { oai_dc: dc('Staged') } })]))[0]?.outcome).to.equal('inserted');
        await tx.writeItems([item('b')]);
        await other().writeItems([item('a', { metadata: { oai_dc: dc('Meanwhile') } })]);
      },
      { redecided: (before, now) => told.push({ before, now }), applied: (b) => batches.push(b) },
    );
    expect(batches).to.deep.equal([{ asDecided: 1, decidedAgain: 1 }]);
    expect(told).to.have.length(1);
    expect(told[0]?.before.map((r) => r.outcome)).to.deep.equal(['inserted']);
    expect(told[0]?.now.results.map((r) => r.outcome)).to.deep.equal(['updated']);
    expect(await titleOf('a')).to.equal('Staged');
  });

  it('writes nothing when a batch decided again is refused by what another writer did meanwhile', async () => {
    const thrown = await rejection(
      store().stagedTransaction(async (tx) => {
        await tx.writeItems([item('feed:1'), item('x')]);
        // A first harvest of a source named feed, failed: the id space feed: is now the source's.
        await other().recordHarvestError({ source: 'feed', prefix: 'oai_dc', set: '' }, 'unreachable', 1_800_000_000);
      }),
    );
    expect(thrown).to.be.instanceOf(RefusedError);
    expect((thrown as RefusedError).refusals.map((r) => r.internalId)).to.deep.equal(['feed:1']);
    expect(await ids()).to.deep.equal([]);
  });

  it('leaves out only such a record of a partial write, telling its caller, and writes the rest', async () => {
    const told: Redecided[] = [];
    await store().stagedTransaction(
      async (tx) => {
        const out = await tx.writeItemsLeavingOut([item('feed:1'), item('x')]);
        expect(out.refusals).to.deep.equal([]);
        await other().recordHarvestError({ source: 'feed', prefix: 'oai_dc', set: '' }, 'unreachable', 1_800_000_000);
      },
      { redecided: (before, now) => told.push({ before, now }) },
    );
    expect(told).to.have.length(1);
    expect(told[0]?.now.refusals.map((r) => r.internalId)).to.deep.equal(['feed:1']);
    expect(told[0]?.now.results.map((r) => r.internalId)).to.deep.equal(['x']);
    expect(await ids()).to.deep.equal(['x']);
  });

  it('decides a deletion again where another writer deleted the item meanwhile', async () => {
    await store().writeItems([item('a'), item('b')]);
    const told: Redecided[] = [];
    await store().stagedTransaction(
      async (tx) => {
        expect((await tx.deleteItems(['a'])).map((r) => r.outcome)).to.deep.equal(['deleted']);
        await other().deleteItems(['a']);
      },
      { redecided: (before, now) => told.push({ before, now }) },
    );
    expect(told).to.have.length(1);
    expect(told[0]?.now.results.map((r) => r.outcome)).to.not.deep.equal(['deleted']);
    const rows = (await db.knex()('items').orderBy('internal_id').select('internal_id', 'deleted')) as { internal_id: string; deleted: number }[];
    expect(rows.map((r) => [r.internal_id, Boolean(r.deleted)])).to.deep.equal([
      ['a', true],
      ['b', false],
    ]);
  });

  it('never takes the write lock for a write refused, or rolled back, while deciding', async () => {
    // Another writer holds the lock throughout; a staged write that asked for it would wait until the bound.
    const held = await holdWrites(db, [], { boundMs: 60_000 });
    try {
      let thrown = await rejection(store().stagedTransaction((tx) => tx.writeItems([item('a'), item('b', { metadata: { oai_dc: '<oai_dc:dc' } })])));
      expect((thrown as RefusedError).refusals?.map((r) => r.internalId)).to.deep.equal(['b']);
      thrown = await rejection(
        store().stagedTransaction(async (tx) => {
          await tx.writeItems([item('a')]);
          throw new Error('a dry run ends here');
        }),
      );
      expect((thrown as Error).message).to.equal('a dry run ends here');
      expect(held.held(), 'both ended while the lock was still held elsewhere').to.equal(true);
    } finally {
      await held.release();
    }
    expect(await ids()).to.deep.equal([]);
  });

  it('writes nothing of what it staged when its body throws, and refuses a write it cannot stage', async () => {
    let thrown = await rejection(
      store().stagedTransaction(async (tx) => {
        await tx.writeItems([item('a')]);
        throw new Error('the input broke');
      }),
    );
    expect((thrown as Error).message).to.equal('the input broke');
    expect(await ids()).to.deep.equal([]);
    thrown = await rejection(store().stagedTransaction((tx) => tx.renameSet('s', 'S')));
    expect((thrown as Error).message).to.match(/cannot be staged/);
  });
});
