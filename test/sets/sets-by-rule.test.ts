/**
 * Sets by rule as a repository manager uses them: declared in the
 * configuration file, computed when records are loaded (`oai-steward load`),
 * harvested selectively over HTTP (every answer XSD-valid), and recomputed
 * by `oai-steward rebuild-sets` after a rule changes, re-stamping exactly
 * the items whose sets changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DEMO_NAMESPACE } from '../helpers/demo-records';
import { oaiGet, texts } from '../helpers/server';
import { assertValid } from '../helpers/xsd';
import { cli, datestamps, forEachCliDatabase, serving } from '../loader/helpers';

const RECORDS = [
  {
    id: 'a',
    datestamp: '2020-01-01T00:00:00Z',
    sets: ['physics'],
    dc: { title: ['A'], rights: ['info:eu-repo/semantics/openAccess'], subject: ['ddc:530'], language: ['en'] },
  },
  { id: 'b', datestamp: '2020-01-01T00:00:00Z', dc: { title: ['B'], rights: ['info:eu-repo/semantics/closedAccess'], subject: ['ddc:004'], language: ['fr'] } },
  { id: 'c', datestamp: '2020-01-01T00:00:00Z', dc: { title: ['C'], language: ['de'] } },
  // Typed fields: an open dataset with a file, judged by its fields rather than its Dublin Core.
  {
    id: 'd',
    datestamp: '2020-01-01T00:00:00Z',
    dc: { title: ['D'], creator: ['Curie, Marie'] },
    publisher: 'Example',
    publicationYear: '2023',
    resourceType: { coar: 'http://purl.org/coar/resource_type/c_ddb1' },
    accessRights: 'open',
    identifiers: [{ type: 'DOI', value: '10.5555/d' }],
    files: [{ url: 'https://repo.example.org/d.csv', mediaType: 'text/csv' }],
  },
];

const config = (language: string): string =>
  [
    'seedDemo: false',
    'sets:',
    '  - preset: open_access',
    '  - preset: ddc',
    '  - preset: openaire_data',
    '  - spec: physics',
    '    name: Physics',
    '  - spec: in_language',
    '    name: In one language',
    '    rule:',
    `      language: ${language}`,
    '  - spec: oa_physics',
    '    name: Open physics',
    '    rule:',
    '      all: [{ inSet: open_access }, { inSet: physics }]',
    '',
  ].join('\n');

async function identifiersIn(port: number, set: string): Promise<string[]> {
  const xml = await oaiGet(port, `verb=ListIdentifiers&metadataPrefix=oai_dc&set=${encodeURIComponent(set)}`);
  assertValid(xml);
  return texts(xml, 'identifier')
    .map((id) => id.slice(`oai:${DEMO_NAMESPACE}:`.length))
    .sort();
}

forEachCliDatabase((db) => {
  let file: string;
  beforeEach(() => {
    file = path.join(db().dir, 'oai-steward.yaml');
    fs.writeFileSync(file, config('en'));
    fs.writeFileSync(path.join(db().dir, 'records.ndjson'), RECORDS.map((r) => JSON.stringify(r)).join('\n') + '\n');
  });
  const run = (...args: string[]) => cli(db(), args, { env: { OAI_CONFIG: file } });

  it('puts loaded records into the sets their rules select, harvestable by set', async () => {
    const load = await run('load', path.join(db().dir, 'records.ndjson'));
    expect(load.code, load.stderr).to.equal(0);
    await serving(db(), { OAI_CONFIG: file }, async (port) => {
      expect(await identifiersIn(port, 'open_access')).to.deep.equal(['a', 'd']);
      expect(await identifiersIn(port, 'openaire_data')).to.deep.equal(['d']);
      expect(await identifiersIn(port, 'ddc')).to.deep.equal(['a', 'b']);
      expect(await identifiersIn(port, 'ddc:004')).to.deep.equal(['b']);
      expect(await identifiersIn(port, 'in_language')).to.deep.equal(['a']);
      expect(await identifiersIn(port, 'oa_physics')).to.deep.equal(['a']);
      expect(await identifiersIn(port, 'physics')).to.deep.equal(['a']);
      const sets = await oaiGet(port, 'verb=ListSets');
      assertValid(sets);
      expect(texts(sets, 'setSpec')).to.include.members(['open_access', 'ddc', 'ddc:530', 'ddc:004', 'in_language', 'oa_physics', 'physics']);
      expect(texts(sets, 'setName')).to.include('DDC 530');
      const record = await oaiGet(port, `verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:${DEMO_NAMESPACE}:a`);
      assertValid(record);
      expect(texts(record, 'setSpec')).to.deep.equal(['ddc:530', 'in_language', 'oa_physics', 'open_access', 'physics']);
    });
  });

  it('recomputes the sets after a rule changes and re-stamps exactly the items whose sets changed, once', async () => {
    expect((await run('load', path.join(db().dir, 'records.ndjson'))).code).to.equal(0);
    const unchanged = await run('rebuild-sets', '--json');
    expect(unchanged.code, unchanged.stderr).to.equal(0);
    expect(JSON.parse(unchanged.stdout)).to.deep.include({ items: 4, restamped: 0 });
    const before = await datestamps(db().knex());

    fs.writeFileSync(file, config('de'));
    const rebuilt = await run('rebuild-sets', '--json');
    expect(rebuilt.code, rebuilt.stderr).to.equal(0);
    const summary = JSON.parse(rebuilt.stdout) as { items: number; restamped: number; restampedIds: string[] };
    expect(summary).to.include({ items: 4, restamped: 2 });
    expect([...summary.restampedIds].sort()).to.deep.equal(['a', 'c']);
    const after = await datestamps(db().knex());
    expect(after.get('b')).to.equal(before.get('b'));
    expect(after.get('d')).to.equal(before.get('d'));
    expect(after.get('a')).to.be.greaterThan(before.get('a') as number);
    expect(after.get('c')).to.be.greaterThan(before.get('c') as number);

    const again = await run('rebuild-sets', '--json');
    expect(JSON.parse(again.stdout)).to.deep.include({ items: 4, restamped: 0 });
    expect(await datestamps(db().knex())).to.deep.equal(after);

    await serving(db(), { OAI_CONFIG: file }, async (port) => {
      // a left in_language: a harvest of the set reports it deleted (a set departure), c is live there.
      const inLanguage = await oaiGet(port, 'verb=ListIdentifiers&metadataPrefix=oai_dc&set=in_language');
      assertValid(inLanguage);
      expect(texts(inLanguage, 'identifier').sort()).to.deep.equal([`oai:${DEMO_NAMESPACE}:a`, `oai:${DEMO_NAMESPACE}:c`]);
      expect(inLanguage).to.contain(`<header status="deleted"><identifier>oai:${DEMO_NAMESPACE}:a</identifier>`);
      expect(inLanguage).to.not.contain(`<header status="deleted"><identifier>oai:${DEMO_NAMESPACE}:c</identifier>`);
      // The static set a record named stays; the rule sets are the rules' alone.
      expect(await identifiersIn(port, 'physics')).to.deep.equal(['a']);
    });
  });
});
