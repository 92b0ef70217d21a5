/**
 * rioxx and qdc served: offered when the configuration lists them, every demo
 * item's rioxx record valid against the RIOXX errata schema as a harvester
 * receives it (the ListRecords pages through schemas/rioxx-3/validate.py),
 * qdc valid against its container schema inside the OAI-PMH envelope, and an
 * item without a language not in rioxx: GetRecord says cannotDisseminateFormat
 * and `check --profile core` names it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { registryFromDeclarations } from '../../../lib/formats/registry';
import { jsonToItem } from '../../../lib/pipeline/json-record';
import { toRequestArgument } from '../../../lib/ids/oai-identifier';
import { cli, forEachCliDatabase, ROOT } from '../../loader/helpers';
import { errorCodes, forEachProvider, oaiGet, resumption, texts } from '../../helpers/server';
import { xsdErrors } from '../../helpers/xsd';

const VALIDATE = path.join(ROOT, 'schemas', 'rioxx-3', 'validate.py');
const formats = registryFromDeclarations(['oai_dc', 'rioxx', 'qdc'].map((prefix) => ({ prefix, kind: 'builtin' as const, options: {} })));

/** Every page of a ListRecords harvest in one format. */
async function pages(port: number, prefix: string): Promise<string[]> {
  const out: string[] = [];
  let query = `verb=ListRecords&metadataPrefix=${prefix}`;
  for (;;) {
    const xml = await oaiGet(port, query);
    out.push(xml);
    const token = resumption(xml)?.token;
    if (!token) return out;
    query = `verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
  }
}

describe('rioxx and qdc served', function () {
  this.timeout(180_000);
  forEachProvider({ formats }, (provider) => {
    it('lists them in ListMetadataFormats, as configured', async () => {
      const xml = await oaiGet(provider().port, 'verb=ListMetadataFormats');
      expect(texts(xml, 'metadataPrefix')).to.deep.equal(['oai_dc', 'rioxx', 'qdc']);
      expect(texts(xml, 'metadataNamespace')).to.include.members(['http://www.rioxx.net/schema/v3.0/rioxx/', 'http://purl.org/dc/terms/']);
    });

    it('harvests every demo item offered in rioxx valid against the errata schema, and in qdc valid in the OAI-PMH envelope', async () => {
      const rioxx = await pages(provider().port, 'rioxx');
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rioxx-served-'));
      try {
        const files = rioxx.map((xml, i) => {
          const f = path.join(dir, `page-${i}.xml`);
          fs.writeFileSync(f, xml);
          return f;
        });
        const run = spawnSync('/usr/bin/python3', [VALIDATE, '--errata', '--quiet', ...files], { encoding: 'utf8' });
        expect(run.status, `${run.stdout}${run.stderr}`).to.equal(0);
        const valid = Number(/^(\d+) valid, 0 invalid/m.exec(run.stdout)?.[1]);
        expect(valid).to.be.greaterThan(150);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
      let records = 0;
      for (const page of await pages(provider().port, 'qdc')) {
        expect(xsdErrors(page, 'qdc')).to.deep.equal([]);
        records += (page.match(/<qdc:qualifieddc /g) ?? []).length;
      }
      expect(records).to.be.greaterThan(270);
    });

    it('does not disseminate rioxx for an item without a language, and says so, while qdc has it', async () => {
      const r = jsonToItem(
        {
          id: 'no-language',
          dc: { title: ['Untold tongue'], creator: ['Doe, Jane'], type: ['http://purl.org/coar/resource_type/c_6501'] },
          identifiers: [{ type: 'URL', value: 'https://repo.example.org/items/no-language' }],
        },
        provider().formats,
        'test',
      );
      if (!('item' in r)) throw new Error(JSON.stringify(r.refusals));
      await provider().store.writeItems([r.item]);
      const header = await provider().store.getHeader('oai:demo.oai-steward.org:no-language');
      expect(header?.formats).to.deep.equal(['oai_dc', 'qdc']);
      const id = toRequestArgument('oai:demo.oai-steward.org:no-language');
      expect(errorCodes(await oaiGet(provider().port, `verb=GetRecord&metadataPrefix=rioxx&identifier=${id}`))).to.deep.equal(['cannotDisseminateFormat']);
      expect(errorCodes(await oaiGet(provider().port, `verb=GetRecord&metadataPrefix=qdc&identifier=${id}`))).to.deep.equal([]);
    });

    it('keeps a given rioxx record as given and lifts it into the model, so it has oai_dc and qdc too', async () => {
      const given = fs
        .readFileSync(path.join(ROOT, 'test', 'fixtures', 'formats', 'rioxx', 'rioxx3-example-1.xml'), 'utf8')
        .replace(/^<\?xml[^>]*\?>\s*/, '')
        .trim();
      await provider().store.writeItems([{ internalId: 'given-rioxx', metadata: { rioxx: given } }]);
      const id = 'oai:demo.oai-steward.org:given-rioxx';
      expect((await provider().store.getRecord(id, 'rioxx'))?.metadata).to.equal(given);
      const dc = (await provider().store.getRecord(id, 'oai_dc'))?.metadata ?? '';
      expect(dc).to.contain('<dc:title>Neutron backscatter edge');
      expect(dc).to.contain('<dc:creator>Crilly, A. J.</dc:creator>');
      const q = (await provider().store.getRecord(id, 'qdc'))?.metadata ?? '';
      expect(q).to.contain('<dcterms:issued xsi:type="dcterms:W3CDTF">2020-01-03</dcterms:issued>');
    });

    it('lifts a qdc record of the ePubs namespace (CONTENTdm), serving it as oai_dc and as DSpace qdc', async () => {
      const xml = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'formats', 'qdc', 'illinois_contentdm_qdc_maps_2243.payload.xml'), 'utf8').trim();
      await provider().store.writeItems([{ internalId: 'illinois-2243', metadata: {}, readFrom: { namespace: 'http://epubs.cclrc.ac.uk/xmlns/qdc/', xml } }]);
      const id = 'oai:demo.oai-steward.org:illinois-2243';
      expect((await provider().store.getHeader(id))?.formats).to.deep.equal(['oai_dc', 'qdc']);
      const dc = (await provider().store.getRecord(id, 'oai_dc'))?.metadata ?? '';
      expect(dc).to.contain('<dc:title>Illinois (Cook County), Chicago quadrangle : topographic sheet</dc:title>');
      const q = (await provider().store.getRecord(id, 'qdc'))?.metadata ?? '';
      expect(q).to.match(/^<qdc:qualifieddc xmlns:qdc="http:\/\/dspace.org\/qualifieddc\/"/);
      expect(q).to.contain('<dcterms:alternative>Chicago quadrangle, Illinois (Cook County)</dcterms:alternative>');
    });
  });
});

forEachCliDatabase((db) => {
  it('check --profile core names the item without a language, which RIOXX needs', async () => {
    const file = path.join(db().dir, 'records.ndjson');
    const record = (id: string, language?: string): object => ({
      id,
      dc: {
        title: [`Title ${id}`],
        creator: ['Doe, Jane'],
        identifier: [`https://repo.example.org/${id}`],
        type: ['http://purl.org/coar/resource_type/c_6501'],
        ...(language !== undefined && { language: [language] }),
      },
    });
    fs.writeFileSync(file, [record('with-language', 'en'), record('no-language')].map((r) => JSON.stringify(r)).join('\n') + '\n');
    const load = await cli(db(), ['load', file]);
    expect(load.code, load.stderr).to.equal(0);
    const run = await cli(db(), ['check', '--profile', 'core']);
    expect(run.stdout).to.match(/warn\s+1\/2\s+recommended\s+rioxx-language/);
    expect(run.stdout).to.contain('oai:demo.oai-steward.org:no-language: language: missing: a language (dc:language)');
    expect(run.stdout).to.not.contain('with-language: language:');
  });
});
