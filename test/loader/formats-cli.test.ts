/**
 * `oai-steward load` (the CLI as a process) with every format's XML: the
 * published OpenAIRE and DataCite samples come back byte for byte through
 * GetRecord, the OpenAIRE mock-up sample is refused naming the attribute
 * and its value, and a format declared only in a test configuration file
 * loads, validates against its own XSD and is served.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createIdPolicy } from '../../lib/ids/policy';
import { toRequestArgument } from '../../lib/ids/oai-identifier';
import { DEMO_NAMESPACE } from '../helpers/demo-records';
import { checkOai, errorCodes, request, texts } from '../helpers/server';
import { xsdErrorsDeclared } from '../helpers/xsd';
import { cli, forEachCliDatabase, ROOT, serving } from './helpers';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'formats');
const DECLARED = path.join(FIXTURES, 'declared');
const CONFIG = path.join(DECLARED, 'oai-steward.yaml');
const THESIS_NS = 'urn:example:thesis-record';
const policy = createIdPolicy({ namespace: DEMO_NAMESPACE, mode: 'auto' });

/** A published sample as one element: without its XML declaration (the record is spliced into responses as it is). */
function sample(...p: string[]): string {
  return fs
    .readFileSync(path.join(FIXTURES, ...p), 'utf8')
    .replace(/^<\?xml[^>]*\?>\s*/, '')
    .trim();
}

const SAMPLES: [id: string, prefix: string, xml: () => string][] = [
  ['openaire-minimal', 'oai_openaire', () => sample('openaire', 'sample_minimal.xml')],
  ['openaire-article', 'oai_openaire', () => sample('openaire', 'sample_journalarticle1.xml')],
  ...fs
    .readdirSync(path.join(FIXTURES, 'datacite'))
    .sort()
    .map((f): [string, string, () => string] => [f.replace(/\.xml$/, ''), 'datacite', () => sample('datacite', f)]),
];

/** The metadata element of a GetRecord answer, exactly as sent. */
function metadataOf(xml: string): string {
  const m = /<metadata>([\s\S]*)<\/metadata>/.exec(xml);
  return m?.[1] ?? '';
}

forEachCliDatabase((db) => {
  it('loads the published OpenAIRE and DataCite samples as raw XML, and GetRecord gives them back byte for byte', async () => {
    const file = path.join(db().dir, 'samples.ndjson');
    fs.writeFileSync(file, SAMPLES.map(([id, prefix, xml]) => JSON.stringify({ id, metadata: { [prefix]: xml() } })).join('\n') + '\n');
    const run = await cli(db(), ['load', file]);
    expect(run.code, run.stderr).to.equal(0);
    await serving(db(), {}, async (port) => {
      for (const [id, prefix, xml] of SAMPLES) {
        const identifier = policy.map(id).identifier;
        const body = checkOai(await request(port, { query: `verb=GetRecord&metadataPrefix=${prefix}&identifier=${toRequestArgument(identifier)}` }));
        expect(metadataOf(body), id).to.equal(xml());
      }
    });
  });

  it('loads the samples as bare XML files of a folder, each in the format its namespace names (in its canonical serialization), and in oai_dc and every format its model allows, all valid', async () => {
    const folder = path.join(db().dir, 'bare');
    fs.mkdirSync(folder);
    for (const [id, , xml] of SAMPLES) fs.writeFileSync(path.join(folder, `${id}.xml`), xml());
    const run = await cli(db(), ['load', folder]);
    expect(run.code, run.stderr).to.equal(0);
    await serving(db(), {}, async (port) => {
      for (const [id, prefix] of SAMPLES) {
        const identifier = toRequestArgument(policy.map(id).identifier);
        const body = checkOai(await request(port, { query: `verb=ListMetadataFormats&identifier=${identifier}` }));
        const prefixes = texts(body, 'metadataPrefix');
        expect(prefixes, id).to.include.members(['oai_dc', prefix, 'marc21', 'mods']);
        for (const p of prefixes) {
          const record = checkOai(await request(port, { query: `verb=GetRecord&metadataPrefix=${p}&identifier=${identifier}` }));
          expect(metadataOf(record), `${id} in ${p}`).to.not.equal('');
        }
      }
    });
  });

  it('refuses the OpenAIRE mock-up sample with a message naming the attribute and its value', async () => {
    const file = path.join(db().dir, 'mock.ndjson');
    fs.writeFileSync(file, JSON.stringify({ id: 'mock', metadata: { oai_openaire: sample('openaire', 'invalid-mocksample.xml') } }) + '\n');
    const run = await cli(db(), ['load', file]);
    expect(run.code).to.equal(1);
    expect(run.stderr, run.stderr).to.match(/mock\.ndjson:1: record "mock", field metadata\.oai_openaire: .*attribute 'resourceTypeGeneral'.*'publication'/);
  });

  describe('a format declared only in the configuration file', () => {
    const env = { OAI_CONFIG: CONFIG };
    const thesis = (title: string, degree: string): string =>
      `<thesisRecord xmlns="${THESIS_NS}" year="2024"><title>${title}</title><degree>${degree}</degree></thesisRecord>`;

    it('loads records in it, validated against its local XSD, and serves them', async () => {
      const file = path.join(db().dir, 'theses.ndjson');
      fs.writeFileSync(
        file,
        [
          { id: 't1', dc: { title: 'On lattices' }, metadata: { thesis_rec: thesis('On lattices', 'doctor') } },
          { id: 't2', dc: { title: 'Über Gitter' }, metadata: { thesis_rec: thesis('Über Gitter', 'master') } },
        ]
          .map((r) => JSON.stringify(r))
          .join('\n') + '\n',
      );
      const run = await cli(db(), ['load', file], { env });
      expect(run.code, run.stderr).to.equal(0);
      await serving(db(), env, async (port) => {
        const formats = checkOai(await request(port, { query: 'verb=ListMetadataFormats' }));
        expect(texts(formats, 'metadataPrefix')).to.deep.equal(['oai_dc', 'marc21', 'thesis_rec']);
        expect(texts(formats, 'metadataNamespace')).to.include(THESIS_NS);
        expect(texts(formats, 'schema')).to.include('https://schemas.example.org/thesis-record/1.0/thesis-record.xsd');
        const id = toRequestArgument(policy.map('t2').identifier);
        const a = await request(port, { query: `verb=GetRecord&metadataPrefix=thesis_rec&identifier=${id}` });
        expect(a.status).to.equal(200);
        expect(xsdErrorsDeclared(a.body, THESIS_NS, path.join(DECLARED, 'thesis-record.xsd'))).to.deep.equal([]);
        expect(metadataOf(a.body), a.body).to.equal(thesis('Über Gitter', 'master'));
        // Not configured here: a built-in format outside the configuration is not served.
        expect(errorCodes(checkOai(await request(port, { query: `verb=GetRecord&metadataPrefix=mods&identifier=${id}` })))).to.deep.equal([
          'cannotDisseminateFormat',
        ]);
      });
    });

    it('refuses a record invalid for it, naming the element, and writes nothing', async () => {
      const file = path.join(db().dir, 'bad.ndjson');
      fs.writeFileSync(
        file,
        [
          { id: 't1', dc: { title: 'Fine' }, metadata: { thesis_rec: thesis('Fine', 'doctor') } },
          { id: 't3', dc: { title: 'Bad' }, metadata: { thesis_rec: thesis('Bad', 'apprentice') } },
        ]
          .map((r) => JSON.stringify(r))
          .join('\n') + '\n',
      );
      const run = await cli(db(), ['load', file], { env });
      expect(run.code).to.equal(1);
      expect(run.stderr).to.match(/bad\.ndjson:2: record "t3", field metadata\.thesis_rec: not valid against .*thesis-record\.xsd.*degree.*'apprentice'/);
      expect(await db().knex()('items').count({ n: '*' }).first()).to.satisfy((r: { n: unknown }) => Number(r.n) === 0);
    });
  });

  describe('a file in a format the configuration does not declare', () => {
    const NSDL_DC = 'http://ns.nsdl.org/nsdl_dc_v1.02/';
    const RECORDS = 162;
    /** A saved ListRecords response in nsdl_dc, as a harvest of an NSDL provider gives it. */
    const response = (): string =>
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">',
        '<responseDate>2026-11-20T10:00:00Z</responseDate>',
        '<request verb="ListRecords" metadataPrefix="nsdl_dc">https://nsdl.example.org/oai</request>',
        '<ListRecords>',
        ...Array.from(
          { length: RECORDS },
          (_, i) =>
            `<record><header><identifier>oai:nsdl.example.org:r${i}</identifier><datestamp>2026-11-01T00:00:00Z</datestamp></header>` +
            `<metadata><nsdl_dc:nsdl_dc xmlns:nsdl_dc="${NSDL_DC}" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Resource ${i}</dc:title></nsdl_dc:nsdl_dc></metadata></record>`,
        ),
        '</ListRecords>',
        '</OAI-PMH>',
        '',
      ].join('\n');

    it('is refused once, with how to declare the format, and its other records counted in one line', async () => {
      const file = path.join(db().dir, 'nsdl.xml');
      fs.writeFileSync(file, response());
      const run = await cli(db(), ['load', file]);
      expect(run.code).to.equal(1);
      const lines = run.stderr.split('\n').filter((l) => l.startsWith('refused: '));
      expect(lines, run.stderr).to.have.length(2);
      expect(lines[0]).to.include('metadataPrefix "nsdl_dc"').and.include(`namespace "${NSDL_DC}"`);
      expect(lines[0]).to.match(
        /declare it in the configuration file: formats: \[\{prefix: nsdl_dc, namespace: http:\/\/ns\.nsdl\.org\/nsdl_dc_v1\.02\/, schema: .*xsd: /,
      );
      expect(lines[1]).to.equal(`refused: ${RECORDS - 1} more records for the same reason (format nsdl_dc), each as above`);
      // Every record is still counted as refused.
      expect(run.stdout).to.match(new RegExp(`refused ${RECORDS} \\(${RECORDS} records\\)`));
    });

    it('is refused once in NDJSON too, naming the metadata key', async () => {
      const file = path.join(db().dir, 'nsdl.ndjson');
      fs.writeFileSync(
        file,
        Array.from({ length: 3 }, (_, i) => JSON.stringify({ id: `n${i}`, metadata: { nsdl_dc: `<nsdl_dc:nsdl_dc xmlns:nsdl_dc="${NSDL_DC}"/>` } })).join(
          '\n',
        ) + '\n',
      );
      const run = await cli(db(), ['load', file]);
      expect(run.code).to.equal(1);
      const lines = run.stderr.split('\n').filter((l) => l.startsWith('refused: '));
      expect(lines, run.stderr).to.have.length(2);
      expect(lines[0]).to.match(
        /record "n0", field metadata\.nsdl_dc: no metadata format of this repository is the one of metadataPrefix "nsdl_dc": declare it/,
      );
      expect(lines[1]).to.equal('refused: 2 more records for the same reason (format nsdl_dc), each as above');
    });
  });
});
