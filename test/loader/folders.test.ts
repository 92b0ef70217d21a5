/**
 * `oai-steward load DIR` reads the folder and its subfolders, at any depth:
 * an export split into folders (here, DataCite's own records as bolognese
 * keeps them, laid out by year) loads whole, each file one record named by
 * its file name, in the binary order of the paths.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { xmlFilesUnder } from '../../server/loader/input';
import { cli, forEachCliDatabase, ROOT } from './helpers';

const DATACITE = path.join(ROOT, 'test', 'fixtures', 'readers', 'datacite');

/** A folder of DataCite files in subfolders: `export/datacite.xml`, `export/2016/…`, `export/2019/deep/…`. */
function exportFolder(dir: string): string {
  const root = path.join(dir, 'export');
  const place: [string, string][] = [
    ['datacite.xml', ''],
    ['datacite_dataset.xml', '2016'],
    ['datacite-xml-lang.xml', path.join('2019', 'deep')],
  ];
  for (const [file, sub] of place) {
    fs.mkdirSync(path.join(root, sub), { recursive: true });
    fs.copyFileSync(path.join(DATACITE, file), path.join(root, sub, file));
  }
  fs.writeFileSync(path.join(root, '2016', 'README.txt'), 'not a record\n');
  return root;
}

forEachCliDatabase((db) => {
  it('loads the .xml files of a folder and of its subfolders, each named by its file name', async () => {
    const root = exportFolder(db().dir);
    expect((await xmlFilesUnder(root)).map((f) => path.relative(root, f))).to.deep.equal([
      path.join('2016', 'datacite_dataset.xml'),
      path.join('2019', 'deep', 'datacite-xml-lang.xml'),
      'datacite.xml',
    ]);
    const run = await cli(db(), ['load', root]);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/^inserted 3, updated 0, unchanged 0, deleted 0, refused 0 \(3 records\); committed$/m);
    const ids = (await db().knex()('items').select('internal_id').orderBy('internal_id')) as { internal_id: string }[];
    expect(ids.map((r) => r.internal_id)).to.deep.equal(['datacite', 'datacite-xml-lang', 'datacite_dataset']);
  });
});
