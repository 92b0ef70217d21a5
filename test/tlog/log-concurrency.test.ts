/**
 * The publication log under several writers, as an operator runs them: two
 * loads at once (real processes) append one entry per item, each load's
 * entries together, in one order; a load of changes appends exactly the
 * changed items; a migration run again and an unchanged load append
 * nothing; and the log checks out against the store after each.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { decodeEntry } from '../../lib/tlog/entry';
import { inspectLog } from '../../server/db/log/inspect';
import { cli, forEachCliDatabase, startCli } from '../loader/helpers';

function ndjson(file: string, prefix: string, n: number, title = 'Record', every = 1): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `${prefix}-${String(i).padStart(4, '0')}`;
    const t = i % every === 0 ? title : 'Record';
    lines.push(JSON.stringify({ id, dc: { title: [`${t} ${id}`], creator: ['Writer, Ann'], date: ['2021'], type: ['Text'], language: ['en'] } }));
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function entries(knex: Knex): Promise<string[]> {
  const rows = (await knex('log_leaves').orderBy('idx').select('entry')) as { entry: Buffer }[];
  return rows.map((r) => {
    const e = decodeEntry(r.entry);
    return `${e.status} ${e.identifier.replace(/^oai:[^:]+:/, '')}`;
  });
}

forEachCliDatabase((db) => {
  describe('the publication log under concurrent loaders', function () {
    it('appends each load’s items together, once each, and only what changed after', async () => {
      expect((await cli(db(), ['migrate'])).code).to.equal(0);
      const a = ndjson(path.join(db().dir, 'a.ndjson'), 'a', 300);
      const b = ndjson(path.join(db().dir, 'b.ndjson'), 'b', 300);
      const runs = await Promise.all([startCli(db(), ['load', a]).done, startCli(db(), ['load', b]).done]);
      runs.forEach((r) => expect(r.code, r.stderr).to.equal(0));
      const first = await entries(db().knex());
      expect(first).to.have.length(600);
      // One publication's entries are contiguous and in identifier order: either a's then b's, or b's then a's.
      const as = Array.from({ length: 300 }, (_, i) => `new a-${String(i).padStart(4, '0')}`);
      const bs = as.map((e) => e.replace(' a-', ' b-'));
      expect([JSON.stringify([...as, ...bs]), JSON.stringify([...bs, ...as])]).to.include(JSON.stringify(first));
      expect(await inspectLog(db().knex())).to.deep.equal({ size: 600, problem: null });

      // b again unchanged, and a with every tenth record changed, at once; then the migration again.
      const changedA = ndjson(path.join(db().dir, 'a2.ndjson'), 'a', 300, 'Changed', 10);
      const again = await Promise.all([startCli(db(), ['load', changedA]).done, startCli(db(), ['load', b]).done]);
      again.forEach((r) => expect(r.code, r.stderr).to.equal(0));
      expect((await cli(db(), ['migrate'])).code).to.equal(0);
      const after = await entries(db().knex());
      expect(after.slice(600)).to.deep.equal(Array.from({ length: 30 }, (_, i) => `changed a-${String(i * 10).padStart(4, '0')}`));
      expect(await inspectLog(db().knex())).to.deep.equal({ size: 630, problem: null });
    });
  });
});
