/**
 * Upgrading a store to per-record datestamps and item origins (migrations
 * 012 and 013) changes nothing a harvester sees: every record starts with
 * its item's datestamp, and an item a harvest wrote (in the set
 * `source:NAME`, its id `NAME:…`) learns that it is that source's.
 */
import { expect } from 'chai';
import { migrationSource } from '../../../server/db/migrations';
import { forEachDatabase } from '../../helpers/db';
import { dc, item, ManualClock } from '../../helpers/store-fixtures';

forEachDatabase((db) => {
  it('upgrades a store written before records had datestamps without changing an answer, and gives harvested items their origin', async () => {
    const knex = db.knex();
    const clock = new ManualClock(1_800_000_000);
    const store = db.store({ clock: clock.read });
    await store.putSets([
      { spec: 'source:plain', name: 'Plain' },
      { spec: 'x', name: 'X' },
    ]);
    await store.writeItems([item('local-1', { sets: ['x'] }), item('plain:oai:h:1', { sets: ['source:plain'] }), item('local-2')]);
    clock.tick(60);
    await store.writeItems([item('local-2', { metadata: { oai_dc: dc('Changed'), marcxml: '<record/>' } })]);
    await store.deleteItems(['local-1']);
    const answers = async (): Promise<unknown[]> => [
      await store.listRecords({ metadataPrefix: 'oai_dc', until: clock.now, limit: 100 }),
      await store.listHeaders({ metadataPrefix: 'marcxml', until: clock.now, limit: 100 }),
      await store.listHeaders({ metadataPrefix: 'oai_dc', set: 'x', until: clock.now, limit: 100 }),
      await store.earliestDatestamp(),
    ];
    const before = await answers();

    // Back to the schema before them, as a store of the previous version was (the migrations after 013 first).
    while (await knex.schema.hasColumn('items', 'origin')) await knex.migrate.down({ migrationSource });
    expect(await knex.schema.hasColumn('records', 'datestamp')).to.equal(false);
    expect(await knex.schema.hasColumn('items', 'origin')).to.equal(false);
    await knex.migrate.latest({ migrationSource });

    expect(await answers()).to.deep.equal(before);
    const origins = (await knex('items').select('internal_id', 'origin').orderBy('internal_id')) as { internal_id: string; origin: string | null }[];
    expect(origins).to.deep.equal([
      { internal_id: 'local-1', origin: null },
      { internal_id: 'local-2', origin: null },
      { internal_id: 'plain:oai:h:1', origin: 'plain' },
    ]);
    const unstamped = (await knex('records').whereNull('datestamp').count({ n: '*' })) as { n: unknown }[];
    expect(Number(unstamped[0]?.n)).to.equal(0);
  });
});
