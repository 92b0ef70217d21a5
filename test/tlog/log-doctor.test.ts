/**
 * `doctor` checks the publication log against itself and the store, and
 * names the first disagreement an edit made in the database behind the
 * write path leaves: a record's bytes, a leaf, a tile.
 */
import { expect } from 'chai';
import { inspectLog } from '../../server/db/log/inspect';
import { runDoctor } from '../../server/ops/doctor';
import { loadConfig } from '../../server/config';
import { forEachThrowawayDatabase, TEST_NAMESPACE } from '../helpers/db';
import { dc, item } from '../helpers/store-fixtures';
import { KnexStore } from '../../server/store/knex-store';
import { createIdPolicy } from '../../lib/ids/policy';

forEachThrowawayDatabase(
  (db) => {
    describe('doctor and the publication log', function () {
      async function loaded(): Promise<void> {
        const store = new KnexStore({ knex: db().knex(), policy: createIdPolicy({ namespace: TEST_NAMESPACE, mode: 'auto' }) });
        await store.writeItems(Array.from({ length: 300 }, (_, i) => item(`i${String(i).padStart(3, '0')}`, { sets: i % 2 === 0 ? ['even'] : [] })));
        await store.deleteItems(['i007']);
      }

      it('finds nothing wrong with a log the write path appended', async () => {
        await loaded();
        expect(await inspectLog(db().knex())).to.deep.equal({ size: 301, problem: null });
        const report = await runDoctor(loadConfig({ DATABASE_URL: db().url, OAI_NAMESPACE: TEST_NAMESPACE, LOG_LEVEL: 'silent' }));
        const log = report.findings.filter((f) => f.check === 'log');
        expect(log.map((f) => f.severity)).to.deep.equal(['ok']);
      });

      it('names the item whose record was edited in the database', async () => {
        await loaded();
        const [row] = (await db().knex()('items').where('internal_id', 'i042').select('pk')) as { pk: number }[];
        await db()
          .knex()('records')
          .where({ item_pk: row?.pk, prefix: 'oai_dc' })
          .update({ xml: dc('Edited behind the write path') });
        const { problem } = await inspectLog(db().knex());
        expect(problem).to.match(/^oai:test\.example\.org:i042 disagrees with its latest entry, \d+: its oai_dc record is not the one the entry hashed$/);
        const report = await runDoctor(loadConfig({ DATABASE_URL: db().url, OAI_NAMESPACE: TEST_NAMESPACE, LOG_LEVEL: 'silent' }));
        expect(report.ok).to.equal(false);
        expect(report.findings.find((f) => f.check === 'log')?.message).to.match(/i042 disagrees with its latest entry/);
      });

      it('names the tile that no longer holds its entry’s hash when an entry is rewritten', async () => {
        await loaded();
        const [leaf] = (await db().knex()('log_leaves').where('idx', 260).select('entry')) as { entry: Buffer }[];
        await db()
          .knex()('log_leaves')
          .where('idx', 260)
          .update({ entry: Buffer.from(leaf?.entry.toString('utf8').replace('status new', 'status changed') ?? '', 'utf8') });
        expect((await inspectLog(db().knex())).problem).to.equal('tile 0/1 hash 4 is not the hash of entry 260');
      });

      it('names a full tile rewritten in the database', async () => {
        await loaded();
        await db()
          .knex()('log_tiles')
          .where({ level: 0, n: 0 })
          .update({ hashes: Buffer.alloc(256 * 32, 1) });
        expect((await inspectLog(db().knex())).problem).to.equal('tile 0/0 hash 0 is not the hash of entry 0');
      });
    });
  },
  { migrated: true },
);
