/**
 * The load floor (bench/load-floor.ts) copies exactly the rows a load wrote:
 * every table a load writes holds as many rows in the copy as in the
 * original, item for item, on each database. It asserts no timing.
 */
import { expect } from 'chai';
import { measureLoadFloor } from '../../bench/load-floor';
import { loadRecords } from '../../bench/generate';
import { loadConfig } from '../../server/config';
import { migrate } from '../../server/db/migrations';
import { openProvider } from '../../server/provider';
import { databaseKinds, openThrowawayDatabase } from '../helpers/db';

const TABLES = ['items', 'identifiers', 'records', 'item_sets', 'item_about', 'record_fields'];

for (const kind of databaseKinds()) {
  describe(`the load floor on ${kind}`, function () {
    this.timeout(60_000);

    it('inserts every row the load wrote, table by table, and counts the items', async () => {
      const source = await openThrowawayDatabase(kind);
      const target = await openThrowawayDatabase(kind);
      try {
        const provider = await openProvider(loadConfig({ DATABASE_URL: source.url, OAI_SEED_DEMO: 'false', LOG_LEVEL: 'warn' }));
        try {
          await loadRecords(provider.store, provider.formats, 300, { batch: 120 });
        } finally {
          await provider.close();
        }
        await migrate(target.knex());
        const figures = await measureLoadFloor(source.url, target.url);
        const counts = async (db: typeof source): Promise<number[]> =>
          Promise.all(TABLES.map(async (t) => Number(((await db.knex()(t).count({ n: '*' })) as { n: unknown }[])[0]?.n)));
        const before = await counts(source);
        expect(before[0]).to.equal(300);
        expect(before[2]).to.be.greaterThan(0);
        expect(await counts(target)).to.deep.equal(before);
        expect(figures.items).to.equal(300);
        expect(figures.rows).to.equal(before.reduce((a, b) => a + b, 0));
        expect(figures.seconds).to.be.greaterThan(0);
      } finally {
        await source.close();
        await target.close();
      }
    });
  });
}
