/**
 * A load says what happened to each item (the CLI as a process, on each test
 * database, with the Library of Congress's MARCXML of pymarc's test
 * collection): reloading a deleted record brings it back and is counted
 * `revived`, not `updated`; reloading records after the repository offers
 * one more format adds that format and is counted `format added`, not
 * `updated`; anything else that changes stays `updated`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { cli, forEachCliDatabase, ROOT, summaryOf } from './helpers';

const BATCH = path.join(ROOT, 'test', 'fixtures', 'readers', 'marcxml', 'pymarc-batch.xml');

forEachCliDatabase((db) => {
  function config(prefixes: readonly string[]): NodeJS.ProcessEnv {
    const file = path.join(db().dir, 'oai-steward.yaml');
    fs.writeFileSync(file, ['seedDemo: false', 'formats:', ...prefixes.map((p) => `  - prefix: ${p}`), ''].join('\n'));
    return { OAI_CONFIG: file };
  }

  it('counts a deleted record loaded again as revived, apart from updated', async () => {
    const env = config(['oai_dc', 'marc21']);
    expect((await cli(db(), ['load', BATCH], { env })).code).to.equal(0);
    const del = await cli(db(), ['delete', '5637241'], { env });
    expect(del.code, del.stderr).to.equal(0);
    const again = await cli(db(), ['load', BATCH], { env });
    expect(again.code, again.stderr).to.equal(0);
    expect(again.stdout).to.match(/^inserted 0, updated 0, revived 1, unchanged 1, deleted 0, refused 0 \(2 records\); committed$/m);
    const row = (await db().knex()('items').where('internal_id', '5637241').first()) as { deleted: unknown };
    expect(Boolean(row.deleted)).to.equal(false);
  });

  it('counts a format a reload adds as format added, apart from updated, and a changed record as updated', async () => {
    expect((await cli(db(), ['load', BATCH], { env: config(['oai_dc', 'marc21']) })).code).to.equal(0);
    const env = config(['oai_dc', 'marc21', 'mods']);
    const run = await cli(db(), ['load', '--json', BATCH], { env });
    expect(run.code, run.stderr).to.equal(0);
    expect(summaryOf(run)).to.include({ inserted: 0, updated: 0, formatAdded: 2, revived: 0, unchanged: 0 });
    const prefixes = (await db().knex()('records').distinct('prefix').orderBy('prefix')) as { prefix: string }[];
    expect(prefixes.map((p) => p.prefix)).to.deep.equal(['marc21', 'mods', 'oai_dc']);
    // The same file with one record changed: that one is updated.
    const changed = path.join(db().dir, 'batch.xml');
    fs.writeFileSync(changed, fs.readFileSync(BATCH, 'utf8').replace('The Great Ray Charles', 'The Great Ray Charles (reissue)'));
    const again = await cli(db(), ['load', changed], { env });
    expect(again.stdout).to.match(/^inserted 0, updated 1, unchanged 1, deleted 0, refused 0 \(2 records\); committed$/m);
  });
});
