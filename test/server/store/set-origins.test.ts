/**
 * Sets and where they come from, on every database: setSpecs nobody
 * declared are declared from the input and named by the setSpec until a
 * ListSets names them; a ListSets never renames a set the configuration
 * declares, nor one a manager renamed; retiring a set takes its members out
 * with departures, and a harvest of it still reports them deleted.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { forEachDatabase } from '../../helpers/db';
import { dc } from '../../helpers/store-fixtures';
import { parseSetDefinitions } from '../../../lib/sets/parse';
import { setListing, SetChangeRefused } from '../../../server/store/sets';
import type { ItemInput } from '../../../lib/store';

const item = (id: string, sets: string[], extra: Partial<ItemInput> = {}): ItemInput => ({
  internalId: id,
  sets,
  metadata: { oai_dc: dc(`Title of ${id}`) },
  ...extra,
});

/** spec → [name, origin] of every declared set. */
async function declared(knex: Knex): Promise<Record<string, [string, string]>> {
  const rows = (await knex('sets').select('spec', 'name', 'origin').orderBy('spec')) as { spec: string; name: string; origin: string }[];
  return Object.fromEntries(rows.map((r) => [r.spec, [r.name, r.origin]]));
}

async function refusal(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('not refused');
}

forEachDatabase((db) => {
  const T0 = 1_760_000_000;
  let now = T0;
  const clock = (): number => now;
  beforeEach(() => {
    now = T0;
  });

  it('declares setSpecs nobody declared from the input, with their ancestors, named by the setSpec until a ListSets names them', async () => {
    const store = db.store({ clock });
    expect(await store.declareSetsFromInput(['5:12', '5:12', '7', 'not a spec'])).to.deep.equal(['5', '5:12', '7']);
    expect(await store.declareSetsFromInput(['5:12'])).to.deep.equal([]);
    await store.writeItems([item('a', ['5:12'])]);
    expect(await declared(db.knex())).to.deep.equal({ 5: ['5', 'input'], '5:12': ['5:12', 'input'], 7: ['7', 'input'] });
    await store.putSets([{ spec: '5:12', name: 'Physics' }]);
    expect((await declared(db.knex()))['5:12']).to.deep.equal(['Physics', 'input']);
    expect((await store.getHeader('oai:test.example.org:a'))?.sets).to.deep.equal(['5:12']);
  });

  it('keeps the configured names when a ListSets names the same sets, and writes the configuration over an input', async () => {
    const setRules = parseSetDefinitions([{ preset: 'driver' }, { spec: 'physics', name: 'Physics' }]);
    const store = db.store({ clock, setRules });
    await store.putSets([{ spec: 'physics', name: 'Natural sciences (from a ListSets read first)' }]);
    await store.writeItems([item('a', ['physics'])]);
    expect(await declared(db.knex())).to.deep.equal({ driver: ['Open Access DRIVERset', 'rule'], physics: ['Physics', 'configuration'] });
    await store.putSets([
      { spec: 'driver', name: 'All documents with fulltext' },
      { spec: 'physics', name: 'Physik' },
      { spec: 'other', name: 'Other' },
    ]);
    expect(await declared(db.knex())).to.deep.equal({
      driver: ['Open Access DRIVERset', 'rule'],
      other: ['Other', 'input'],
      physics: ['Physics', 'configuration'],
    });
  });

  it("keeps a manager's name against later ListSets, and refuses to rename a configured set", async () => {
    const store = db.store({ clock, setRules: parseSetDefinitions([{ spec: 'physics', name: 'Physics' }]) });
    await store.declareSetsFromInput(['5:12']);
    await store.writeItems([item('a', ['physics'])]);
    await store.renameSet('5:12', 'Solid state physics');
    await store.putSets([{ spec: '5:12', name: 'Festkörperphysik' }]);
    expect((await declared(db.knex()))['5:12']).to.deep.equal(['Solid state physics', 'input']);
    const listed = (await setListing(db.knex())).find((s) => s.spec === '5:12');
    expect(listed).to.include({ name: 'Solid state physics', origin: 'input', renamed: T0 });
    const refused = await refusal(store.renameSet('physics', 'Physik'));
    expect(refused).to.be.instanceOf(SetChangeRefused);
    expect(refused.message).to.contain('declared by the configuration');
    expect((await refusal(store.renameSet('nowhere', 'X'))).message).to.contain('no set "nowhere" is declared');
  });

  it('retires a set and its descendants: members leave with departures, ListSets drops it, a harvest of it reports them deleted', async () => {
    const store = db.store({ clock });
    await store.putSets([
      { spec: 'old', name: 'Old' },
      { spec: 'old:a', name: 'Old A' },
      { spec: 'keep', name: 'Keep' },
    ]);
    await store.writeItems([item('x', ['old']), item('y', ['old:a', 'keep']), item('z', ['keep'])]);
    await store.deleteItems(['x']);
    now = T0 + 100;
    const r = await store.retireSets(['old']);
    expect(r).to.deep.equal({ sets: ['old', 'old:a'], members: 2 });
    expect((await store.listSets(null, 10)).map((s) => s.spec)).to.deep.equal(['keep']);
    const y = await store.getHeader('oai:test.example.org:y');
    expect(y).to.include({ datestamp: T0 + 100 });
    expect(y?.sets).to.deep.equal(['keep']);
    // A harvest of the retired set still finds both, each reported deleted (OAI-PMH 2.5.1, per set).
    const left = await store.listHeaders({ metadataPrefix: 'oai_dc', set: 'old', from: T0 + 100, until: T0 + 200, limit: 10 });
    expect(left.map((h) => h.identifier).sort()).to.deep.equal(['oai:test.example.org:x', 'oai:test.example.org:y']);
    const listing = await setListing(db.knex());
    expect(listing.find((s) => s.spec === 'old')).to.deep.include({ origin: 'input', live: 0, deleted: 2, retired: T0 + 100 });
    expect(listing.find((s) => s.spec === 'keep')).to.deep.include({ live: 2, deleted: 0 });
  });

  it('declares a retired set again when the input names it again', async () => {
    const store = db.store({ clock });
    await store.declareSetsFromInput(['old']);
    await store.writeItems([item('x', ['old'])]);
    await store.retireSets(['old']);
    expect(await store.declareSetsFromInput(['old'])).to.deep.equal(['old']);
    expect(await db.knex()('retired_sets').count({ n: '*' }).first()).to.satisfy((r: { n: unknown }) => Number(r.n) === 0);
    await store.writeItems([item('x', ['old'])]);
    expect((await store.getHeader('oai:test.example.org:x'))?.sets).to.deep.equal(['old']);
  });

  it('retires the sets the configuration no longer declares, and only those', async () => {
    const rule = { spec: 'oa', name: 'Open access', rule: { accessRights: ['open'] } };
    const before = db.store({ clock, setRules: parseSetDefinitions([rule, { spec: 'physics', name: 'Physics' }, { preset: 'ddc' }]) });
    await before.putSets([{ spec: 'input', name: 'From a ListSets' }]);
    await before.writeItems([
      item('a', ['physics', 'input'], { fields: { dc: { title: ['A'], subject: ['ddc:530'] }, accessRights: 'open' } }),
      item('b', [], { fields: { dc: { title: ['B'] }, accessRights: 'open' } }),
    ]);
    expect(Object.keys(await declared(db.knex()))).to.deep.equal(['ddc', 'ddc:530', 'input', 'oa', 'physics']);
    now = T0 + 50;
    const after = db.store({ clock, setRules: parseSetDefinitions([{ spec: 'physics', name: 'Physics' }, { preset: 'ddc' }]) });
    expect(await after.retireUnconfiguredSets()).to.deep.equal({ sets: ['oa'], members: 2 });
    expect(Object.keys(await declared(db.knex()))).to.deep.equal(['ddc', 'ddc:530', 'input', 'physics']);
    expect((await after.getHeader('oai:test.example.org:a'))?.sets).to.deep.equal(['ddc:530', 'input', 'physics']);
  });
});
