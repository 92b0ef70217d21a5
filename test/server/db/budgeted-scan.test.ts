/**
 * A ListRecords page under a byte budget, on SQLite, is decided row by row
 * in the page's own scan (server/db/dialect/sqlite.ts `budgeted`): the rows
 * that fit, and after the first that does not only keys, exactly as the
 * window over the page's sizes decides them on PostgreSQL. The decision
 * follows the order the scan makes rows in, so the runner refuses (null) a
 * plan that sorts, and the store then reads the page the other way.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { sqlite } from '../../../server/db/dialect/sqlite';
import { dialectOf, type RunBudgetedArrays } from '../../../server/db/dialect';
import type { ItemRecord } from '../../../lib/store';
import { forEachDatabase } from '../../helpers/db';
import { dc, item } from '../../helpers/store-fixtures';

/** The page's records that fit `budget` bytes of stored metadata: the leading ones, at least one. */
function fitCount(records: readonly ItemRecord[], budget: number): number {
  let bytes = 0;
  let fit = 0;
  for (const r of records) {
    bytes += Buffer.byteLength(r.metadata ?? '', 'utf8');
    if (fit > 0 && bytes > budget) break;
    fit++;
  }
  return fit;
}

describe('pages under a byte budget, decided in the scan where the database makes rows one at a time', () => {
  forEachDatabase((db) => {
    it(`is ${db.name === 'sqlite' ? '' : 'not '}how ${db.name} reads them`, () => {
      expect(dialectOf(db.knex()).budgeted !== undefined).to.equal(db.name === 'sqlite');
    });

    if (db.name !== 'sqlite') return;
    const budgeted = sqlite.budgeted as NonNullable<typeof sqlite.budgeted>;
    const original = budgeted.runner.bind(budgeted);
    /** What each page's runner answered: rows, or null for a plan it refused. */
    let answers: (readonly unknown[] | null)[] = [];
    beforeEach(() => {
      answers = [];
      (budgeted as { runner: (knex: Knex) => RunBudgetedArrays }).runner = (knex) => {
        const run = original(knex);
        return (async (sql: string, params: readonly unknown[], budget: number) => {
          const rows = await run(sql, params, budget);
          answers.push(rows);
          return rows;
        }) as RunBudgetedArrays;
      };
    });
    afterEach(() => {
      (budgeted as { runner: (knex: Knex) => RunBudgetedArrays }).runner = original;
    });

    it('gives the records that fit and then keys, for a format and a set, in the scan', async () => {
      const store = db.store();
      // Sizes that vary, every third item in set a.
      await store.writeItems(
        Array.from({ length: 30 }, (_, i) =>
          item(`p${String(i).padStart(2, '0')}`, { metadata: { oai_dc: dc('x'.repeat(((i * 7) % 11) * 150)) }, ...(i % 3 === 0 && { sets: ['a'] }) }),
        ),
      );
      const until = 2 ** 31;
      for (const set of [undefined, 'a']) {
        const q = { metadataPrefix: 'oai_dc', until, limit: 8, ...(set !== undefined && { set }) };
        const all = await store.listRecords(q);
        expect(all.length).to.be.greaterThan(set === undefined ? 7 : 5);
        for (const budget of [1, 1500, 4000, 9000, 10 ** 9]) {
          const fit = fitCount(all, budget);
          const page = await store.listRecords({ ...q, budget });
          const where = `${set ?? 'oai_dc'}, budget ${budget}`;
          expect(
            page.map((r) => r.identifier),
            where,
          ).to.deep.equal(all.map((r) => r.identifier));
          expect(
            page.map((r) => r.overBudget === true),
            where,
          ).to.deep.equal(all.map((_, i) => i >= fit));
          expect(
            page.slice(0, fit).map((r) => r.metadata),
            where,
          ).to.deep.equal(all.slice(0, fit).map((r) => r.metadata));
          expect(page.slice(fit).every((r) => r.metadata === null)).to.equal(true);
        }
      }
      // Every page was decided in its scan: none fell back to the other way.
      expect(answers.length).to.equal(10);
      expect(answers.every((a) => a !== null)).to.equal(true);
    });

    it('refuses a plan that sorts, whose rows come out in another order than they were decided in', async () => {
      const store = db.store();
      await store.writeItems(Array.from({ length: 5 }, (_, i) => item(`s${i}`)));
      const run = budgeted.runner(db.knex());
      const fits = budgeted.fitsSql('i.pk', 'length(i.identifier)');
      // Read in pk order, sent in the reverse order of a computed key: SQLite sorts after computing the columns.
      const sorted = await run(`SELECT i.pk, ${fits} FROM items i ORDER BY i.identifier || '' DESC`, [], 10 ** 6);
      expect(sorted).to.equal(null);
      // An ordered scan: identifiers of 23 characters, a budget of 50: two fit, and none after the first that does not.
      const scanned = await run(`SELECT i.pk, ${fits}, i.identifier FROM items i ORDER BY i.pk`, [], 50);
      expect(scanned?.map((r) => (r[2] as string).length)).to.deep.equal([23, 23, 23, 23, 23]);
      expect(scanned?.map((r) => r[1])).to.deep.equal([1, 1, 0, 0, 0]);
    });
  });
});
