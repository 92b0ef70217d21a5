/**
 * An item's datestamp moves whenever anything it disseminates changes
 * (metadata of any format, set membership, deletion, about containers) and
 * never otherwise: through the store on every database, and through the
 * loader CLI as a user runs it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { ItemInput } from '../../../lib/store';
import { PROVENANCE_NS, RIGHTS_NS } from '../../../lib/xml/namespaces';
import { forEachDatabase } from '../../helpers/db';
import { dc, item, ManualClock } from '../../helpers/store-fixtures';
import { cli, datestamps, forEachCliDatabase, summaryOf } from '../../loader/helpers';

const T0 = 1_700_000_000;
const rights = (licence: string): string => `<rights xmlns="${RIGHTS_NS}"><rightsReference ref="${licence}"></rightsReference></rights>`;
const MARC = '<record xmlns="http://www.loc.gov/MARC21/slim"><leader>00000nam a2200000 a 4500</leader></record>';

/** Each kind of change: the item before, and the same item changed in that one respect. */
const KINDS: readonly { name: string; before: ItemInput; after: ItemInput }[] = [
  { name: 'the oai_dc metadata', before: item('k'), after: item('k', { metadata: { oai_dc: dc('Another title') } }) },
  {
    name: 'the metadata of another format',
    before: item('k', { metadata: { oai_dc: dc('T'), marc21: MARC } }),
    after: item('k', { metadata: { oai_dc: dc('T'), marc21: MARC.replace('nam', 'nas') } }),
  },
  { name: 'the formats it has', before: item('k', { metadata: { oai_dc: dc('T') } }), after: item('k', { metadata: { oai_dc: dc('T'), marc21: MARC } }) },
  { name: 'its sets', before: item('k', { sets: ['s'] }), after: item('k', { sets: ['t'] }) },
  { name: 'its deleted status', before: item('k', { sets: ['s'] }), after: { internalId: 'k', deleted: true, metadata: {} } },
  {
    name: 'an about container',
    before: item('k', { about: [{ xml: rights('https://example.org/l/1') }] }),
    after: item('k', { about: [{ xml: rights('https://example.org/l/2') }] }),
  },
  { name: 'about containers added', before: item('k'), after: item('k', { about: [{ xml: rights('https://example.org/l/1') }] }) },
];

forEachDatabase((db) => {
  describe('datestamps through the store', function () {
    it('publishes every datestamp and departure a write gave, tombstones and set changes included, at the time of publication', async function () {
      const clock = new ManualClock(T0);
      const store = db.store({ clock: clock.read });
      await store.putSets([
        { spec: 's', name: 'S' },
        { spec: 't', name: 'T' },
      ]);
      await store.writeItems([item('a', { sets: ['s'] }), item('b', { sets: ['s'] }), item('c', { sets: ['s'] })]);
      clock.tick(10);
      // Sets and a deletion in one transaction: one publication, at the clock when it ends.
      await store.transaction(async (tx) => {
        await tx.setMemberships([{ internalId: 'a', sets: ['t'] }]);
        await tx.deleteItems(['b']);
        clock.tick(5);
      });
      const knex = db.knex();
      const stamps = async (sql: string): Promise<number[]> =>
        (((await knex.raw(sql)) as { rows?: { d: unknown }[] }).rows ?? ((await knex.raw(sql)) as { d: unknown }[])).map((r) => Number(r.d));
      const all = [
        ...(await stamps('SELECT datestamp AS d FROM items')),
        ...(await stamps('SELECT datestamp AS d FROM records')),
        ...(await stamps('SELECT datestamp AS d FROM item_sets')),
        ...(await stamps('SELECT departed AS d FROM item_sets WHERE departed IS NOT NULL')),
      ];
      expect(new Set(all)).to.deep.equal(new Set([T0, T0 + 15]));
      expect(await stamps('SELECT departed AS d FROM item_sets WHERE departed IS NOT NULL')).to.deep.equal([T0 + 15]);
      expect(Number(((await knex('publication').first('last')) as { last: unknown }).last)).to.equal(T0 + 15);
    });

    for (const k of KINDS) {
      it(`moves the datestamp on a change of ${k.name}, even when the record gives the old datestamp, and not when it is written again`, async function () {
        const clock = new ManualClock(T0);
        const store = db.store({ clock: clock.read });
        await store.putSets([
          { spec: 's', name: 'S' },
          { spec: 't', name: 'T' },
        ]);
        await store.writeItems([k.before, item('other')]);
        const stamp = async (id: string): Promise<number | undefined> => (await store.getHeader(`oai:test.example.org:${id}`))?.datestamp;
        clock.tick(60);
        expect((await store.writeItems([k.before]))[0]?.outcome, 'the same item again').to.equal('unchanged');
        expect(await stamp('k')).to.equal(T0);
        clock.tick(60);
        const [changed] = await store.writeItems([{ ...k.after, datestamp: T0 }]);
        expect(changed?.outcome).to.be.oneOf(['updated', 'deleted']);
        expect(await stamp('k')).to.equal(T0 + 120);
        expect(await stamp('other'), 'another item is not touched').to.equal(T0);
        clock.tick(60);
        expect((await store.writeItems([k.after]))[0]?.outcome).to.equal('unchanged');
        expect(await stamp('k')).to.equal(T0 + 120);
      });
    }

    it('leaves every datestamp alone when sets are renamed or described, and moves it when setMemberships changes one item', async function () {
      const clock = new ManualClock(T0);
      const store = db.store({ clock: clock.read });
      await store.putSets([
        { spec: 's', name: 'S' },
        { spec: 't', name: 'T' },
      ]);
      await store.writeItems([item('a', { sets: ['s'] }), item('b', { sets: ['s'] }), item('c', { sets: ['s'] })]);
      clock.tick(60);
      await store.putSets([{ spec: 's', name: 'Renamed', descriptions: [dc('about s')] }]);
      expect(
        (
          await store.setMemberships([
            { internalId: 'a', sets: ['s'] },
            { internalId: 'b', sets: ['t'] },
          ])
        ).map((r) => r.outcome),
      ).to.deep.equal(['unchanged', 'updated']);
      expect((await store.getHeader('oai:test.example.org:a'))?.datestamp).to.equal(T0);
      expect((await store.getHeader('oai:test.example.org:b'))?.datestamp).to.equal(T0 + 60);
      // setMemberships keeps the content hash right: writing b as it now is changes nothing.
      clock.tick(60);
      expect((await store.writeItems([item('b', { sets: ['t'] })]))[0]?.outcome).to.equal('unchanged');
    });

    it("stamps a record changed with a datestamp of its own with the store's clock: a given datestamp is its source's", async function () {
      const clock = new ManualClock(T0 + 1000);
      const store = db.store({ clock: clock.read });
      await store.writeItems([item('x', { datestamp: T0, keepDatestamp: true })]);
      expect((await store.getHeader('oai:test.example.org:x'))?.datestamp).to.equal(T0);
      await store.writeItems([item('x', { metadata: { oai_dc: dc('new') }, datestamp: T0 + 500, keepDatestamp: true })]);
      expect((await store.getHeader('oai:test.example.org:x'))?.datestamp).to.equal(T0 + 1000);
    });
  });
});

forEachCliDatabase((db) => {
  it('moves the datestamp of exactly the records whose metadata, sets, deletion or about changed in a reload', async () => {
    const sets = path.join(db().dir, 'sets.json');
    fs.writeFileSync(
      sets,
      JSON.stringify([
        { spec: 's', name: 'S' },
        { spec: 't', name: 'T' },
      ]),
    );
    const file = path.join(db().dir, 'r.ndjson');
    const stamp = '2020-01-01T00:00:00Z';
    const base = (id: string, extra: object = {}): object => ({ id, datestamp: stamp, sets: ['s'], dc: { title: [`Title ${id}`] }, ...extra });
    const about = `<provenance xmlns="${PROVENANCE_NS}"><originDescription harvestDate="2019-01-01" altered="false"><baseURL>http://x.example.org/oai</baseURL><identifier>oai:x.example.org:1</identifier><datestamp>2018-01-01</datestamp><metadataNamespace>http://www.openarchives.org/OAI/2.0/oai_dc/</metadataNamespace></originDescription></provenance>`;
    const v1 = ['same', 'meta', 'sets', 'gone', 'about'].map((id) => base(id));
    const write = (recs: object[]): void => fs.writeFileSync(file, recs.map((r) => JSON.stringify(r)).join('\n') + '\n');
    write(v1);
    expect((await cli(db(), ['load', '--sets', sets, file])).code).to.equal(0);
    const before = await datestamps(db().knex());
    // Every record keeps its old datestamp in the file: the store must still move the changed ones.
    const v2 = [
      base('same'),
      base('meta', { dc: { title: ['Title meta, corrected'] } }),
      base('sets', { sets: ['t'] }),
      { id: 'gone', datestamp: stamp, deleted: true },
      base('about', { about: [about] }),
    ];
    write(v2);
    const startedAt = Math.floor(Date.now() / 1000);
    const run = await cli(db(), ['load', '--json', file]);
    expect(summaryOf(run), run.stderr).to.include({ unchanged: 1, updated: 3, deleted: 1 });
    const after = await datestamps(db().knex());
    expect(after.get('same')).to.equal(before.get('same'));
    for (const id of ['meta', 'sets', 'gone', 'about']) expect(after.get(id), id).to.be.at.least(startedAt);
    expect(summaryOf(await cli(db(), ['load', '--json', file]))).to.include({ unchanged: 5 });
    expect(await datestamps(db().knex())).to.deep.equal(after);
  });
});
