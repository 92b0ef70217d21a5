/**
 * Migrating from another provider's incremental harvest files, as a user
 * runs it (`oai-steward load` on every database, then the records harvested
 * over HTTP and validated against the XSDs): the newest version of a record
 * wins, the summary counts the superseded ones, one datestamp with two
 * contents is refused naming both places; each record keeps its about
 * containers and gains a provenance originDescription nesting the one it
 * had; NDJSON about containers pass the gate; rights come by configuration.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DC_NS, OAI_DC_NS, OAI_NS, PROVENANCE_NS, RIGHTS_NS } from '../../lib/xml/namespaces';
import { oaiGet, openTestProvider, type TestProvider } from '../helpers/server';
import { DEMO_NAMESPACE } from '../helpers/demo-records';
import { cli, datestamps, forEachCliDatabase, summaryOf, type CliDb } from './helpers';

const BASE = 'http://other.example.org/oai';

function dcXml(title: string): string {
  return `<oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}" xmlns:dc="${DC_NS}"><dc:title>${title}</dc:title></oai_dc:dc>`;
}

/** A saved ListRecords page of the other provider. */
function page(responseDate: string, records: { id: string; datestamp: string; title?: string; about?: string[]; sets?: string[] }[]): string {
  const body = records
    .map(
      (r) =>
        `<record><header${r.title === undefined ? ' status="deleted"' : ''}><identifier>oai:other.example.org:${r.id}</identifier><datestamp>${r.datestamp}</datestamp>` +
        `${(r.sets ?? []).map((s) => `<setSpec>${s}</setSpec>`).join('')}</header>` +
        (r.title === undefined ? '' : `<metadata>${dcXml(r.title)}</metadata>${(r.about ?? []).map((a) => `<about>${a}</about>`).join('')}`) +
        '</record>',
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="${OAI_NS}">
<responseDate>${responseDate}</responseDate>
<request verb="ListRecords" metadataPrefix="oai_dc">${BASE}</request>
<ListRecords>
${body}
</ListRecords>
</OAI-PMH>
`;
}

const EARLIER_PROVENANCE =
  `<provenance xmlns="${PROVENANCE_NS}"><originDescription harvestDate="2001-01-01" altered="false">` +
  `<baseURL>http://first.example.org/oai</baseURL><identifier>oai:first.example.org:a</identifier><datestamp>2000-12-31</datestamp>` +
  `<metadataNamespace>${OAI_DC_NS}</metadataNamespace></originDescription></provenance>`;
const RIGHTS = `<rights xmlns="${RIGHTS_NS}"><rightsReference ref="https://creativecommons.org/licenses/by/4.0/"/></rights>`;

const oai = (id: string): string => `oai:${DEMO_NAMESPACE}:oai:other.example.org:${id}`;

async function getRecord(p: TestProvider, id: string): Promise<string> {
  return oaiGet(p.port, `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(id)}`);
}

async function serve(db: CliDb, kind: string, run: (p: TestProvider) => Promise<void>): Promise<void> {
  const p = await openTestProvider(kind as 'sqlite' | 'postgres', { seed: false, database: db });
  try {
    await run(p);
  } finally {
    await p.close();
  }
}

forEachCliDatabase((db) => {
  const kind = (): string => (db().url.startsWith('postgres') ? 'postgres' : 'sqlite');
  const write = (name: string, text: string): string => {
    const f = path.join(db().dir, name);
    fs.writeFileSync(f, text);
    return f;
  };

  it('keeps the newest version of a record read more than once, counts the superseded ones, and serves it with its provenance', async () => {
    const older = write(
      'page-1.xml',
      page('2024-01-10T00:00:00Z', [
        { id: 'a', datestamp: '2024-01-05', title: 'A, first version' },
        { id: 'b', datestamp: '2024-01-06T10:00:00Z', title: 'B' },
      ]),
    );
    const newer = write(
      'page-2.xml',
      page('2024-02-10T00:00:00Z', [
        { id: 'a', datestamp: '2024-02-01', title: 'A, second version', about: [EARLIER_PROVENANCE, RIGHTS] },
        { id: 'b', datestamp: '2024-01-06T10:00:00Z', title: 'B' },
        { id: 'c', datestamp: '2024-02-02T00:00:00Z' },
      ]),
    );
    // The newer file first: an older version read later is superseded too.
    const run = await cli(db(), ['load', '--json', newer, older]);
    expect(run.code, run.stderr).to.equal(0);
    expect(summaryOf(run)).to.include({ records: 5, inserted: 2, deleted: 1, superseded: 2, refused: 0, committed: true });
    const text = await cli(db(), ['load', newer, older]);
    expect(text.stdout, 'loading again changes nothing').to.match(/inserted 0, updated 0, unchanged 3, deleted 0, superseded 2, refused 0/);

    await serve(db(), kind(), async (p) => {
      const a = await getRecord(p, oai('a'));
      // Served with this store's time; the source's datestamp stays in the provenance below.
      expect(a).to.contain('A, second version').and.not.contain('<datestamp>2024-02-01T00:00:00Z</datestamp>');
      // This harvest's originDescription, the earlier one nested inside, then the record's other containers.
      const provenance = /<about>(<provenance[\s\S]*?<\/provenance>)<\/about>/.exec(a)?.[1] ?? '';
      expect(provenance).to.match(/<originDescription harvestDate="2024-02-10T00:00:00Z" altered="false">/);
      expect(provenance).to.contain(`<baseURL>${BASE}</baseURL><identifier>oai:other.example.org:a</identifier><datestamp>2024-02-01</datestamp>`);
      expect(provenance).to.contain(
        `<metadataNamespace>${OAI_DC_NS}</metadataNamespace><originDescription xmlns="${PROVENANCE_NS}" harvestDate="2001-01-01" altered="false">`,
      );
      expect(a.indexOf('<provenance')).to.be.lessThan(a.indexOf('<rights'));
      expect((a.match(/<about>/g) ?? []).length).to.equal(2);
      const list = await oaiGet(p.port, 'verb=ListRecords&metadataPrefix=oai_dc');
      expect((list.match(/<provenance /g) ?? []).length, 'a and b carry provenance; deleted c has a header only').to.equal(2);
    });
  });

  it('never lets an older harvest, loaded after a newer one, bring back an older version or a deleted record', async () => {
    const newer = write(
      'newer.xml',
      page('2024-02-10T00:00:00Z', [
        { id: 'a', datestamp: '2024-02-01', title: 'A, second version' },
        { id: 'b', datestamp: '2024-02-02T00:00:00Z' },
      ]),
    );
    const older = write(
      'older.xml',
      page('2024-01-10T00:00:00Z', [
        { id: 'a', datestamp: '2024-01-05', title: 'A, first version' },
        { id: 'b', datestamp: '2024-01-06T10:00:00Z', title: 'B, before it was deleted' },
        { id: 'c', datestamp: '2024-01-07', title: 'C' },
      ]),
    );
    expect((await cli(db(), ['load', newer])).code).to.equal(0);
    const before = await datestamps(db().knex());
    // A separate load, later: time never goes back.
    const run = await cli(db(), ['load', '--json', older]);
    expect(run.code, run.stderr).to.equal(0);
    expect(summaryOf(run)).to.include({ records: 3, inserted: 1, updated: 0, superseded: 2, refused: 0, committed: true });
    const after = await datestamps(db().knex());
    expect(after.get('oai:other.example.org:a')).to.equal(before.get('oai:other.example.org:a'));
    expect(after.get('oai:other.example.org:b')).to.equal(before.get('oai:other.example.org:b'));
    await serve(db(), kind(), async (p) => {
      expect(await getRecord(p, oai('a'))).to.contain('A, second version');
      expect(await getRecord(p, oai('b'))).to.contain('<header status="deleted">');
    });
  });

  it('declares the setSpecs a harvest names without a ListSets, named by their spec', async () => {
    const file = write('sets.xml', page('2024-01-10T00:00:00Z', [{ id: 'a', datestamp: '2024-01-05', title: 'A', sets: ['5:12', 'hdl_1765_9'] }]));
    const run = await cli(db(), ['load', '--json', file]);
    expect(run.code, run.stderr).to.equal(0);
    expect(summaryOf(run)).to.include({ inserted: 1, refused: 0 });
    await serve(db(), kind(), async (p) => {
      const sets = await oaiGet(p.port, 'verb=ListSets');
      expect(sets).to.contain('<setSpec>5:12</setSpec><setName>5:12</setName>');
      expect(sets).to.contain('<setSpec>5</setSpec><setName>5</setName>');
      expect(await oaiGet(p.port, 'verb=ListIdentifiers&metadataPrefix=oai_dc&set=5:12')).to.contain(`<identifier>${oai('a')}</identifier>`);
    });
  });

  it('does not count a later harvest of an unchanged record as a change', async () => {
    const first = write('p1.xml', page('2024-01-10T00:00:00Z', [{ id: 'a', datestamp: '2024-01-05', title: 'A' }]));
    expect((await cli(db(), ['load', first])).code).to.equal(0);
    const before = await datestamps(db().knex());
    const again = write('p2.xml', page('2024-03-10T00:00:00Z', [{ id: 'a', datestamp: '2024-01-05', title: 'A' }]));
    expect(summaryOf(await cli(db(), ['load', '--json', again]))).to.include({ unchanged: 1, updated: 0 });
    expect(await datestamps(db().knex())).to.deep.equal(before);
  });

  it('refuses two versions with one datestamp and different content, naming both places', async () => {
    const one = write('x1.xml', page('2024-01-10T00:00:00Z', [{ id: 'a', datestamp: '2024-01-05', title: 'A' }]));
    const two = write('x2.xml', page('2024-01-11T00:00:00Z', [{ id: 'a', datestamp: '2024-01-05', title: 'A, edited' }]));
    const run = await cli(db(), ['load', one, two]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/refused: .*x2\.xml:\d+ \(record 1\): record "oai:other.example.org:a", field header\.datestamp: .*x1\.xml:\d+ \(record 1\)/);
    expect(run.stderr).to.match(/refused: .*x1\.xml:\d+ \(record 1\): .*x2\.xml/);
    expect(await datestamps(db().knex())).to.have.property('size', 0);
  });

  it('refuses a saved page whose request baseURL is not an absolute http or https URL, naming the file and the field', async () => {
    const file = write('js.xml', page('2024-01-10T00:00:00Z', [{ id: 'a', datestamp: '2024-01-05', title: 'A' }]).replace(BASE, 'javascript:alert(1)'));
    const run = await cli(db(), ['load', file]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(
      /refused: .*js\.xml:\d+ \(record 1\): record "oai:other\.example\.org:a", field request: the baseURL "javascript:alert\(1\)" of its request element is not an absolute http or https URL/,
    );
    expect(await datestamps(db().knex())).to.have.property('size', 0);
  });

  it('refuses a later version whose datestamp cannot be read because which is newer cannot be told, not as a repeated id', async () => {
    const one = write('y1.xml', page('2024-01-10T00:00:00Z', [{ id: 'a', datestamp: '2024-01-05', title: 'A' }]));
    const two = write('y2.xml', page('2024-02-10T00:00:00Z', [{ id: 'a', datestamp: 'last tuesday', title: 'A2' }]));
    const run = await cli(db(), ['load', one, two]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(
      /y2\.xml:\d+ \(record 1\): record "oai:other\.example\.org:a", field header\.datestamp: the same record appears elsewhere in this load \(.*y1\.xml:\d+ \(record 1\)\), and the header datestamp of one of the two cannot be read/,
    );
    expect(run.stderr).to.not.match(/appears earlier/);
  });

  it("loads a record whose header datestamp cannot be read with this store's datestamp, its provenance giving the harvestDate, and warns naming it", async () => {
    const one = write('z1.xml', page('2024-01-10T00:00:00Z', [{ id: 'a', datestamp: 'last tuesday', title: 'A' }]));
    const before = Math.floor(Date.now() / 1000);
    const run = await cli(db(), ['load', '--json', one]);
    expect(run.code, run.stderr).to.equal(0);
    expect(summaryOf(run)).to.include({ inserted: 1, refused: 0 });
    expect(run.stderr).to.match(
      /warning: record "oai:other\.example\.org:a" \(.*z1\.xml:\d+ \(record 1\)\): its header datestamp "last tuesday" is not YYYY-MM-DD/,
    );
    expect((await datestamps(db().knex())).get('oai:other.example.org:a')).to.be.at.least(before);
    const [about] = (await db().knex()('item_about').select('xml')) as { xml: string }[];
    expect(about?.xml).to.include('<datestamp>2024-01-10T00:00:00Z</datestamp>').and.not.include('last tuesday');
  });

  it('keeps --delete-missing meaning "absent from every input"', async () => {
    const local = write('local.ndjson', `${JSON.stringify({ id: 'local', dc: { title: ['L'] } })}\n`);
    const one = write('d1.xml', page('2024-01-10T00:00:00Z', [{ id: 'a', datestamp: '2024-01-05', title: 'A' }]));
    const two = write('d2.xml', page('2024-02-10T00:00:00Z', [{ id: 'a', datestamp: '2024-02-05', title: 'A2' }]));
    expect((await cli(db(), ['load', local])).code).to.equal(0);
    const run = await cli(db(), ['load', '--json', '--delete-missing', one, two]);
    expect(summaryOf(run)).to.include({ inserted: 1, superseded: 1, deleted: 1 });
    const rows = (await db().knex()('items').select('internal_id', 'deleted').orderBy('internal_id')) as { internal_id: string; deleted: unknown }[];
    expect(rows.map((r) => [r.internal_id, Boolean(Number(r.deleted)) || r.deleted === true])).to.deep.equal([
      ['local', true],
      ['oai:other.example.org:a', false],
    ]);
  });

  it('serves NDJSON about containers valid against their schema, and refuses the others naming them', async () => {
    const good = { id: 'g', dc: { title: ['G'] }, about: [RIGHTS] };
    const file = write(
      'about.ndjson',
      [
        JSON.stringify(good),
        JSON.stringify({ id: 'bad', dc: { title: ['B'] }, about: [`<rights xmlns="${RIGHTS_NS}"><nonsense/></rights>`] }),
        JSON.stringify({ id: 'alien', dc: { title: ['X'] }, about: ['<x:note xmlns:x="urn:example:notes">hi</x:note>'] }),
      ].join('\n'),
    );
    const run = await cli(db(), ['load', '--partial', file]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/about\.ndjson:2: record "bad", field about\[0\]: not valid against http:\/\/www\.openarchives\.org\/OAI\/2\.0\/rights\.xsd/);
    expect(run.stderr).to.match(/about\.ndjson:3: record "alien", field about\[0\]: no schema is known offline for the namespace "urn:example:notes"/);
    await serve(db(), kind(), async (p) => {
      const g = await getRecord(p, `oai:${DEMO_NAMESPACE}:g`);
      expect(g).to.contain('<about><rights').and.contain('ref="https://creativecommons.org/licenses/by/4.0/"');
    });
  });

  it('gives records with a licence a rights container when rightsInAbout is set, and moves their datestamp when it appears', async () => {
    const licensed = { id: 'lic', datestamp: '2024-01-01T00:00:00Z', dc: { title: ['L'], rights: ['https://creativecommons.org/licenses/by-sa/4.0/'] } };
    const plain = { id: 'plain', datestamp: '2024-01-01T00:00:00Z', dc: { title: ['P'], rights: ['All rights reserved'] } };
    const file = write('lic.ndjson', `${JSON.stringify(licensed)}\n${JSON.stringify(plain)}\n`);
    expect((await cli(db(), ['load', file])).code).to.equal(0);
    const before = await datestamps(db().knex());
    const run = await cli(db(), ['load', '--json', file], { env: { OAI_RIGHTS_IN_ABOUT: 'true' } });
    expect(summaryOf(run)).to.include({ updated: 1, unchanged: 1 });
    const after = await datestamps(db().knex());
    expect(after.get('plain')).to.equal(before.get('plain'));
    expect(after.get('lic')).to.be.greaterThan(before.get('lic') as number);
    await serve(db(), kind(), async (p) => {
      const lic = await getRecord(p, `oai:${DEMO_NAMESPACE}:lic`);
      expect(lic).to.match(
        /<about><rights xmlns="http:\/\/www\.openarchives\.org\/OAI\/2\.0\/rights\/"[^>]*><rightsReference ref="https:\/\/creativecommons\.org\/licenses\/by-sa\/4\.0\/"><\/rightsReference><\/rights><\/about>/,
      );
      expect(await getRecord(p, `oai:${DEMO_NAMESPACE}:plain`)).to.not.contain('<about>');
    });
  });
});
