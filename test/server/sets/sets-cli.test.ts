/**
 * `oai-steward sets` and the set changes a repository manager makes, run as
 * child processes on a throwaway store: a third party's ListSets does not
 * rename the configured sets; removing a rule set from the configuration
 * and running `rebuild-sets` retires it and takes its members out;
 * renaming and retiring a set an input declared.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { cli, forEachCliDatabase, ROOT } from '../../loader/helpers';
import type { SetListing } from '../../../server/store/sets';

const LIST_SETS = path.join(ROOT, 'test', 'fixtures', 'sickle', 'ListSets.xml');

forEachCliDatabase((db) => {
  const write = (name: string, text: string): string => {
    const file = path.join(db().dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const listing = async (config?: string): Promise<Map<string, SetListing>> => {
    const run = await cli(db(), ['sets', '--json', ...(config ? ['--config', config] : [])]);
    expect(run.code, run.stderr).to.equal(0);
    return new Map((JSON.parse(run.stdout) as SetListing[]).map((s) => [s.spec, s]));
  };

  it("keeps the configured names of driver and open_access when a third party's ListSets names them otherwise", async () => {
    const config = write('oai-steward.yaml', 'sets:\n  - preset: driver\n  - preset: open_access\n');
    const load = await cli(db(), ['load', '--config', config, LIST_SETS]);
    expect(load.code, load.stderr).to.equal(0);
    const sets = await listing(config);
    expect(sets.get('driver')).to.include({ name: 'Open Access DRIVERset', origin: 'rule' });
    expect(sets.get('open_access')).to.include({ name: 'Open Access', origin: 'rule' });
    expect(sets.get('bookChapterFtxt')).to.include({ name: 'Book Chapter with fulltext', origin: 'input' });
    const table = await cli(db(), ['sets', '--config', config]);
    expect(table.stdout).to.match(/^driver\s+rule\s+0\s+0\s+Open Access DRIVERset$/m);
  });

  it('retires a rule set removed from the configuration when rebuild-sets runs, and its members leave it', async () => {
    const records = Array.from({ length: 12 }, (_, k) => ({ id: `r${k}`, dc: { title: [`R${k}`] }, ...(k < 10 && { accessRights: 'open' }) }));
    const file = write('records.ndjson', records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const withRule = write(
      'with-rule.yaml',
      'sets:\n  - spec: oa\n    name: Open access\n    rule:\n      accessRights: [open]\n  - spec: physics\n    name: Physics\n',
    );
    expect((await cli(db(), ['load', '--config', withRule, file])).code).to.equal(0);
    expect((await listing(withRule)).get('oa')).to.include({ origin: 'rule', live: 10 });

    const without = write('without-rule.yaml', 'sets:\n  - spec: physics\n    name: Physics\n');
    const rebuild = await cli(db(), ['rebuild-sets', '--json', '--config', without]);
    expect(rebuild.code, rebuild.stderr).to.equal(0);
    expect(JSON.parse(rebuild.stdout)).to.deep.include({ retired: { sets: ['oa'], members: 10 } });
    const after = await listing(without);
    expect(after.get('oa')).to.deep.include({ origin: 'rule', live: 0, deleted: 10 });
    expect(after.get('oa')?.retired).to.be.a('number');
    expect(after.get('physics')).to.include({ origin: 'configuration' });
    const direct = (await db().knex()('items').select('direct_sets')) as { direct_sets: string | null }[];
    expect(direct.filter((r) => r.direct_sets !== null)).to.deep.equal([]);
    // A second run finds nothing left to retire.
    const again = await cli(db(), ['rebuild-sets', '--json', '--config', without]);
    expect(JSON.parse(again.stdout)).to.deep.include({ restamped: 0, retired: { sets: [], members: 0 } });
  });

  it('renames a set an input declared, and retires it on request, refusing what the configuration declares', async () => {
    const config = write('oai-steward.yaml', 'sets:\n  - spec: physics\n    name: Physics\n');
    const sets = write(
      'sets.json',
      JSON.stringify([
        { spec: 'old', name: 'Old' },
        { spec: 'old:a', name: 'Old A' },
      ]),
    );
    const file = write(
      'records.ndjson',
      [
        { id: 'a', sets: ['old:a'], dc: { title: ['A'] } },
        { id: 'b', sets: ['physics'], dc: { title: ['B'] } },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    expect((await cli(db(), ['load', '--config', config, '--sets', sets, file])).code).to.equal(0);

    const renamed = await cli(db(), ['sets', 'rename', 'old', 'Older', '--config', config]);
    expect(renamed.code, renamed.stderr).to.equal(0);
    const refusedRename = await cli(db(), ['sets', 'rename', 'physics', 'Physik', '--config', config]);
    expect(refusedRename.code).to.equal(1);
    expect(refusedRename.stderr).to.contain('declared by the configuration');
    const refusedRetire = await cli(db(), ['sets', 'retire', 'physics', 'nowhere', '--config', config]);
    expect(refusedRetire.code).to.equal(1);
    expect(refusedRetire.stderr).to.contain('the set "physics" is declared by the configuration; remove it there and run rebuild-sets');
    expect(refusedRetire.stderr).to.contain('no set "nowhere" is declared');

    const retired = await cli(db(), ['sets', 'retire', 'old', '--config', config]);
    expect(retired.code, retired.stderr).to.equal(0);
    expect(retired.stdout).to.equal('retired old, old:a; 1 item left them and got a new datestamp\n');
    const after = await listing(config);
    expect(after.get('old')).to.deep.include({ name: 'Older', live: 0, deleted: 1 });
    expect(after.get('old:a')).to.deep.include({ live: 0, deleted: 1 });
    expect(after.get('physics')).to.deep.include({ live: 1, deleted: 0 });
    expect((await cli(db(), ['sets', 'bogus'])).code).to.equal(2);
  });
});
