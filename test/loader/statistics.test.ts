/**
 * A load is one transaction, which autovacuum cannot see into: on
 * PostgreSQL the loader refreshes the planner's statistics of the tables it
 * looks batches up in as they grow (ANALYZE at 1,000 items written, then at
 * each doubling), or a plan made while they were nearly empty scans them
 * whole for every batch. SQLite's plans for these lookups do not depend on
 * statistics, so the test runs where PostgreSQL does (TEST_DATABASE_URL,
 * which .ci/run sets).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { databaseKinds, openThrowawayDatabase, type ThrowawayDatabase } from '../helpers/db';
import { cli, summaryOf } from './helpers';

const RECORDS = 2500;

if (databaseKinds().includes('postgres')) {
  describe('a load on PostgreSQL', function () {
    this.timeout(120_000);
    let db: ThrowawayDatabase;
    beforeEach(async () => {
      db = await openThrowawayDatabase('postgres');
    });
    afterEach(async () => {
      await db.close();
    });

    it(`refreshes the planner's statistics of items and identifiers at 1,000 and 2,000 of ${RECORDS} items, in batches of the default 100`, async function () {
      const file = path.join(db.dir, 'records.ndjson');
      const lines: string[] = [];
      for (let i = 0; i < RECORDS; i++) lines.push(JSON.stringify({ id: `stat-${i}`, dc: { title: [`Record ${i}`] } }));
      fs.writeFileSync(file, `${lines.join('\n')}\n`);
      const run = await cli(db, ['load', '--json', file]);
      expect(run.code, run.stderr).to.equal(0);
      expect(summaryOf(run)).to.include({ inserted: RECORDS, committed: true });

      const knex = db.knex();
      const schema = String(((await knex.raw('SELECT current_schema() AS s')) as { rows: { s: string }[] }).rows[0]?.s);
      // The loader's backend reports its statistics as it exits, just after the CLI does.
      let counts: Record<string, number> = {};
      for (let attempt = 0; attempt < 50; attempt++) {
        const rows = (
          (await knex.raw('SELECT relname, analyze_count FROM pg_stat_user_tables WHERE schemaname = ? AND relname IN (?, ?)', [
            schema,
            'items',
            'identifiers',
          ])) as { rows: { relname: string; analyze_count: string }[] }
        ).rows;
        counts = Object.fromEntries(rows.map((r) => [r.relname, Number(r.analyze_count)]));
        if (counts.items === 2 && counts.identifiers === 2) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(counts).to.deep.equal({ items: 2, identifiers: 2 });
      // What the planner was last told: the 2,000 items written by the second refresh, counted inside the load's transaction.
      const tuples = ((await knex.raw('SELECT reltuples FROM pg_class WHERE oid = ?::regclass', [`${schema}.items`])) as { rows: { reltuples: number }[] })
        .rows[0]?.reltuples;
      expect(tuples).to.be.within(2000, RECORDS);
    });
  });
}
