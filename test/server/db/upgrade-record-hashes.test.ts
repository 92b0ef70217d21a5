/**
 * Upgrading a store whose records have no digest (written before records
 * had one: migration 013 gave every row then stored `hash` NULL) through
 * 017_record_hashes: every record gets the digest the write path stores for
 * the same record written now, nothing a harvester sees changes (no
 * datestamp, no byte), a second run changes nothing, and a format written
 * on demand, whose bytes its row does not hold, keeps none.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { KnexStore } from '../../../server/store/knex-store';
import { migrate } from '../../../server/db/migrations';
import * as recordHashes from '../../../server/db/migrations/017_record_hashes';
import { RIGHTS_NS } from '../../../lib/xml/namespaces';
import { forEachDatabase } from '../../helpers/db';
import { dc, ManualClock } from '../../helpers/store-fixtures';

const MIGRATION = '017_record_hashes';
const MARC = '<record xmlns="http://www.loc.gov/MARC21/slim"><leader>00000nam a2200000 a 4500</leader></record>';
const RIGHTS = `<rights xmlns="${RIGHTS_NS}"><rightsReference ref="https://example.org/licence"></rightsReference></rights>`;

/** One stored record, by `internal id prefix`. */
interface Row {
  readonly xml: string | null;
  readonly datestamp: number;
  readonly hash: string | null;
}

/** Every stored record: what the migration may not change (bytes, datestamp) and the digest it fills. */
async function recordRows(knex: Knex): Promise<Map<string, Row>> {
  const rows = (await knex('records as r')
    .join('items as i', 'i.pk', 'r.item_pk')
    .select('i.internal_id', 'r.prefix', 'r.xml', 'r.datestamp', 'r.hash')
    .orderBy(['i.internal_id', 'r.prefix'])) as { internal_id: string; prefix: string; xml: string | null; datestamp: unknown; hash: string | null }[];
  return new Map(rows.map((r) => [`${r.internal_id} ${r.prefix}`, { xml: r.xml, datestamp: Number(r.datestamp), hash: r.hash }]));
}

/** The datestamps of everything else a harvester sees one of: items, and their set memberships. */
async function otherDatestamps(knex: Knex): Promise<unknown[]> {
  return [
    await knex('items').select('pk', 'datestamp').orderBy('pk'),
    await knex('item_sets').select('item_pk', 'spec', 'datestamp', 'departed').orderBy(['item_pk', 'spec']),
  ];
}

/**
 * Records of every kind the write path digests, their ids prefixed by `as`:
 * in two formats, in sets (out of binary order as given), with an about
 * container, moved between sets, deleted through `deleteItems` and through
 * a tombstone written; the metadata is the same whatever the prefix, so a
 * twin written under another is the same record.
 */
async function writeEveryKind(store: KnexStore, as: string): Promise<void> {
  await store.writeItems([
    { internalId: `${as}plain`, metadata: { oai_dc: dc('Plain') } },
    { internalId: `${as}in-sets`, metadata: { oai_dc: dc('In sets'), marc21: MARC }, sets: ['x', 'B'] },
    { internalId: `${as}about`, metadata: { oai_dc: dc('About') }, sets: ['x'], about: [{ xml: RIGHTS }] },
    { internalId: `${as}moved`, metadata: { oai_dc: dc('Moved') }, sets: ['x'] },
    { internalId: `${as}deleted`, metadata: { oai_dc: dc('Deleted'), marc21: MARC }, sets: ['B'] },
    { internalId: `${as}tombstone`, metadata: { oai_dc: dc('Tombstone') }, sets: ['x'] },
  ]);
  await store.setMemberships([{ internalId: `${as}moved`, sets: ['y'] }]);
  await store.deleteItems([`${as}deleted`]);
  await store.writeItems([{ internalId: `${as}tombstone`, deleted: true, metadata: {} }]);
}

forEachDatabase(
  (db) => {
    it('gives each record the digest a fresh write of the same record stores, and changes no datestamp or stored byte', async () => {
      const knex = db.knex();
      const clock = new ManualClock(1_800_000_000);
      const store = db.store({ clock: clock.read });
      await store.putSets(['x', 'y', 'B'].map((spec) => ({ spec, name: `Set ${spec}` })));
      await writeEveryKind(store, '');
      // More records than the migration's page of 500, so its keyset is crossed.
      await store.writeItems(Array.from({ length: 520 }, (_, i) => ({ internalId: `many-${i}`, metadata: { oai_dc: dc(`Many ${i}`) } })));
      // As the previous release left a store written before records had digests.
      await knex('records').update({ hash: null });
      const before = await recordRows(knex);
      const others = await otherDatestamps(knex);

      clock.tick(3600);
      await migrate(knex);

      const after = await recordRows(knex);
      expect([...after].filter(([, r]) => r.hash === null).map(([key]) => key)).to.deep.equal([]);
      expect(new Map([...after].map(([key, r]) => [key, { ...r, hash: null }]))).to.deep.equal(before);
      expect(await otherDatestamps(knex)).to.deep.equal(others);

      clock.tick(3600);
      await writeEveryKind(store, 'twin ');
      const twins = await recordRows(knex);
      const kinds = [...before.keys()].filter((key) => !key.startsWith('many-'));
      expect(kinds).to.have.length(8);
      for (const key of kinds) expect(after.get(key)?.hash, key).to.equal(twins.get(`twin ${key}`)?.hash);
    });

    it('changes nothing when it runs again', async () => {
      const knex = db.knex();
      const store = db.store();
      await store.putSets(['x', 'y', 'B'].map((spec) => ({ spec, name: `Set ${spec}` })));
      await writeEveryKind(store, '');
      await knex('records').update({ hash: null });
      await migrate(knex);
      const once = await recordRows(knex);
      await knex.transaction((trx) => recordHashes.up(trx));
      expect(await recordRows(knex)).to.deep.equal(once);
    });

    it('leaves a format written on demand without a digest, its row holding no bytes to digest', async () => {
      const knex = db.knex();
      const store = db.store();
      await store.writeItems([{ internalId: 'kept', metadata: { oai_dc: dc('Kept'), marc21: MARC } }]);
      // A live item's format stored without XML: a store writing formats on demand keeps it so (server/store/on-demand.ts).
      await knex('records').update({ hash: null });
      await knex('records').where('prefix', 'marc21').update({ xml: null });
      await migrate(knex);
      const after = await recordRows(knex);
      expect(after.get('kept marc21')?.hash).to.equal(null);
      expect(after.get('kept oai_dc')?.hash).to.be.a('string');
    });
  },
  { migratedBefore: MIGRATION },
);
