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
});
