/**
 * `oai-steward load` (the CLI as a process, on each test database) with
 * records under a prefix other than the built-in one of their namespace:
 * the Library of Congress's MARCXML (pymarc's test collection) into a
 * repository that declares it as `marcxml` (the name Invenio, INSPIRE and
 * CERN CDS serve it under) is split into its records, each kept as given
 * under that prefix and served in oai_dc from the MARC reader's model; a
 * DataCite kernel-4 file into a repository that offers oai_dc alone is read
 * into the model and served in oai_dc. A record giving only a format no
 * reader lifts is refused, naming file, record and reason, and `doctor`
 * reports an item a store holds without oai_dc.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createIdPolicy } from '../../lib/ids/policy';
import { toRequestArgument } from '../../lib/ids/oai-identifier';
import { DEMO_NAMESPACE } from '../helpers/demo-records';
import { checkOai, errorCodes, request, texts } from '../helpers/server';
import { assertValid } from '../helpers/xsd';
import { cli, forEachCliDatabase, ROOT, serving } from './helpers';

const READERS = path.join(ROOT, 'test', 'fixtures', 'readers');
const MARC_XSD = path.join(ROOT, 'schemas', 'marcxml', 'MARC21slim.xsd');
const DECLARED = path.join(ROOT, 'test', 'fixtures', 'formats', 'declared', 'oai-steward.yaml');
const policy = createIdPolicy({ namespace: DEMO_NAMESPACE, mode: 'auto' });
const idOf = (internalId: string): string => toRequestArgument(policy.map(internalId).identifier);

forEachCliDatabase((db) => {
  function config(text: string): string {
    const file = path.join(db().dir, 'oai-steward.yaml');
    fs.writeFileSync(file, text);
    return file;
  }

  it('splits a MARCXML collection where MARCXML is declared as marcxml, keeps each record under that prefix and serves its oai_dc from the MARC reader', async () => {
    const file = config(
      [
        'seedDemo: false',
        'formats:',
        '  - prefix: oai_dc',
        '  - prefix: marcxml',
        '    namespace: http://www.loc.gov/MARC21/slim',
        '    schema: http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd',
        `    xsd: ${MARC_XSD}`,
        '',
      ].join('\n'),
    );
    const env = { OAI_CONFIG: file };
    const run = await cli(db(), ['load', path.join(READERS, 'marcxml', 'pymarc-batch.xml')], { env });
    expect(run.code, run.stderr).to.equal(0);
    const rows = (await db()
      .knex()('records as r')
      .join('items as i', 'i.pk', 'r.item_pk')
      .select('i.internal_id', 'r.prefix')
      .orderBy(['i.internal_id', 'r.prefix'])) as {
      internal_id: string;
      prefix: string;
    }[];
    expect(rows.map((r) => `${r.internal_id} ${r.prefix}`)).to.deep.equal(['12149120 marcxml', '12149120 oai_dc', '5637241 marcxml', '5637241 oai_dc']);
    await serving(db(), env, async (port) => {
      const dc = checkOai(await request(port, { query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${idOf('5637241')}` }));
      assertValid(dc);
      expect(texts(dc, 'dc:title')).to.deep.equal(['The Great Ray Charles']);
      expect(texts(dc, 'dc:contributor')).to.deep.equal(['Charles, Ray']);
      expect(texts(dc, 'dc:subject')).to.deep.equal(['Jazz--1951-1960', 'Piano with jazz ensemble']);
      expect(texts(dc, 'dc:language')).to.deep.equal(['eng']);
      expect(texts(dc, 'dc:publisher')).to.deep.equal(['Atlantic']);
      const other = checkOai(await request(port, { query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${idOf('12149120')}` }));
      expect(texts(other, 'dc:title')).to.deep.equal(['The White House']);
      expect(texts(other, 'dc:creator')).to.deep.equal(['White House Web Team']);
      expect(texts(other, 'dc:identifier')).to.include('http://www.whitehouse.gov');
      const marc = checkOai(await request(port, { query: `verb=GetRecord&metadataPrefix=marcxml&identifier=${idOf('5637241')}` }));
      expect(texts(marc, 'marc:subfield')).to.include('The Great Ray Charles');
      // marc21 is not offered here: the record is not served in it.
      expect(errorCodes(checkOai(await request(port, { query: `verb=GetRecord&metadataPrefix=marc21&identifier=${idOf('5637241')}` })))).to.deep.equal([
        'cannotDisseminateFormat',
      ]);
    });
  });

  it('reads a DataCite file into the model where DataCite is not offered, and serves its oai_dc', async () => {
    const file = config('seedDemo: false\nformats:\n  - prefix: oai_dc\n');
    const env = { OAI_CONFIG: file };
    const run = await cli(db(), ['load', path.join(READERS, 'datacite', 'datacite.xml')], { env });
    expect(run.code, run.stderr).to.equal(0);
    await serving(db(), env, async (port) => {
      const dc = checkOai(await request(port, { query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${idOf('datacite')}` }));
      assertValid(dc);
      expect(texts(dc, 'dc:title')).to.deep.equal(['Eating your own Dog Food']);
      expect(texts(dc, 'dc:creator')).to.deep.equal(['Fenner, Martin']);
      expect(texts(dc, 'dc:publisher')).to.deep.equal(['DataCite']);
      expect(texts(dc, 'dc:date')).to.deep.equal(['2016-12-20', '2016']);
      expect(texts(dc, 'dc:type')).to.deep.equal(['BlogPosting']);
      expect(texts(dc, 'dc:identifier')).to.include('https://doi.org/10.5438/4K3M-NYVG');
    });
  });

  it('refuses a record that gives only a format no reader lifts, naming file, record and reason, and writes nothing', async () => {
    const records = path.join(db().dir, 'theses.ndjson');
    const thesis = '<thesisRecord xmlns="urn:example:thesis-record" year="2024"><title>On lattices</title><degree>doctor</degree></thesisRecord>';
    fs.writeFileSync(records, `${JSON.stringify({ id: 't1', metadata: { thesis_rec: thesis } })}\n`);
    const run = await cli(db(), ['load', records], { env: { OAI_CONFIG: DECLARED } });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/theses\.ndjson:1: record "t1", field metadata: the record would be published without oai_dc/);
    expect(run.stderr).to.include('thesis_rec (namespace urn:example:thesis-record)');
    const n = (await db().knex()('items').count({ n: '*' }).first()) as { n: unknown };
    expect(Number(n.n)).to.equal(0);
  });

  it('has doctor report an item the store holds without oai_dc, naming it', async () => {
    const env = { OAI_CONFIG: DECLARED };
    const records = path.join(db().dir, 'theses.ndjson');
    const thesis = '<thesisRecord xmlns="urn:example:thesis-record" year="2024"><title>On lattices</title><degree>doctor</degree></thesisRecord>';
    fs.writeFileSync(records, `${JSON.stringify({ id: 't1', dc: { title: ['On lattices'] }, metadata: { thesis_rec: thesis } })}\n`);
    expect((await cli(db(), ['load', records], { env })).code).to.equal(0);
    const healthy = JSON.parse((await cli(db(), ['doctor', '--json'], { env })).stdout) as { findings: { check: string; severity: string }[] };
    expect(healthy.findings.filter((f) => f.check === 'oai_dc').map((f) => f.severity)).to.deep.equal(['ok']);
    // A store written before the pipeline refused such items: the item's oai_dc row is not there.
    await db().knex()('records').where('prefix', 'oai_dc').delete();
    const run = await cli(db(), ['doctor', '--json'], { env });
    expect(run.code).to.equal(1);
    const report = JSON.parse(run.stdout) as { findings: { check: string; severity: string; message: string }[] };
    const found = report.findings.filter((f) => f.check === 'oai_dc');
    expect(found.map((f) => f.severity)).to.deep.equal(['problem']);
    expect(found[0]?.message)
      .to.include(`1 live item has no oai_dc`)
      .and.include(`${policy.map('t1').identifier} (marc21, thesis_rec)`);
  });
});
