/**
 * Europeana's EDM through the loader (`oai-steward load`, a process, on each
 * database): Europeana's own two test records load as bare files of a
 * folder, are served in edm as given and in oai_dc, and in oai_openaire and
 * datacite exactly when what they say allows (their formats' `lacks`); an
 * EDM record with a DOI, as this repository writes one, comes out in
 * datacite too. With the institutions configured, records given as the
 * model are written as EDM, valid against EDM.xsd; without them, edm is
 * listed but no record has it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createIdPolicy } from '../../lib/ids/policy';
import { toRequestArgument } from '../../lib/ids/oai-identifier';
import { datacite } from '../../lib/formats/datacite';
import { edm, recordToEdm } from '../../lib/formats/edm';
import { readEdm } from '../../lib/formats/edm-read';
import { isNotOffered } from '../../lib/formats/format';
import { oaiOpenaire } from '../../lib/formats/oai-openaire';
import { parseRecordFields } from '../../lib/model/from-json';
import { parseFragment } from '../../lib/xml/tree';
import { SHAPES } from '../fixtures/formats/records';
import { DEMO_NAMESPACE } from '../helpers/demo-records';
import { checkOai, request, texts } from '../helpers/server';
import { cli, forEachCliDatabase, ROOT, serving } from './helpers';

const EDM_SAMPLES = path.join(ROOT, 'test', 'fixtures', 'formats', 'edm');
const policy = createIdPolicy({ namespace: DEMO_NAMESPACE, mode: 'auto' });
const OPTIONS = { dataProvider: 'Example Museum', provider: 'Example Aggregator' };

/** A sample's root element as the loader keeps it: the document without its declaration and the comment after its root. */
function sampleRoot(file: string): string {
  const xml = fs.readFileSync(path.join(EDM_SAMPLES, file), 'utf8');
  return xml.slice(xml.indexOf('<rdf:RDF'), xml.indexOf('</rdf:RDF>') + '</rdf:RDF>'.length);
}

/** The metadata element of a GetRecord answer, exactly as sent. */
function metadataOf(xml: string): string {
  return /<metadata>([\s\S]*)<\/metadata>/.exec(xml)?.[1] ?? '';
}

/** An EDM record this repository's writer makes of the journal article shape (it has a DOI), for the datacite path. */
function writtenArticle(): string {
  const shape = SHAPES.find((s) => s.offered.includes('datacite') && s.offered.includes('edm'))!;
  const parsed = parseRecordFields(shape.record, { internalId: 'a' });
  if ('refusals' in parsed) throw new Error('fixture refused');
  const out = recordToEdm(parsed.fields, { oaiIdentifier: 'oai:museum.example.org:a', options: OPTIONS });
  if (isNotOffered(out)) throw new Error(out.notOffered);
  return out;
}

const INPUTS: [id: string, xml: () => string][] = [
  ['europeana-item', () => sampleRoot('Item_35834473.xml')],
  ['europeana-3d', () => sampleRoot('europeana_record_edm_external_sorted.xml')],
  ['written-article', writtenArticle],
];

forEachCliDatabase((db) => {
  it("loads Europeana's records as bare EDM files and serves them in edm as given, in oai_dc, and in oai_openaire and datacite where their fields allow", async () => {
    const folder = path.join(db().dir, 'edm');
    fs.mkdirSync(folder);
    for (const [id, xml] of INPUTS) fs.writeFileSync(path.join(folder, `${id}.xml`), xml());
    const run = await cli(db(), ['load', folder]);
    expect(run.code, run.stderr).to.equal(0);
    await serving(db(), {}, async (port) => {
      const all = checkOai(await request(port, { query: 'verb=ListMetadataFormats' }));
      expect(texts(all, 'metadataPrefix')).to.include('edm');
      expect(texts(all, 'metadataNamespace')).to.include('http://www.europeana.eu/schemas/edm/');
      const offeredSomewhere = new Set<string>();
      for (const [id, xml] of INPUTS) {
        const identifier = toRequestArgument(policy.map(id).identifier);
        const prefixes = texts(checkOai(await request(port, { query: `verb=ListMetadataFormats&identifier=${identifier}` })), 'metadataPrefix');
        const model = readEdm(parseFragment(xml())!);
        const ctx = { oaiIdentifier: policy.map(id).identifier, options: {} };
        // What the model read from the EDM allows, and nothing else: each format's own judgement of it.
        expect(prefixes.includes('oai_openaire'), `${id} in oai_openaire`).to.equal(oaiOpenaire.lacks!(model, ctx) === null);
        expect(prefixes.includes('datacite'), `${id} in datacite`).to.equal(datacite.lacks!(model, ctx) === null);
        expect(prefixes, id).to.include.members(['oai_dc', 'edm']);
        for (const p of prefixes) {
          offeredSomewhere.add(p);
          const record = checkOai(await request(port, { query: `verb=GetRecord&metadataPrefix=${p}&identifier=${identifier}` }));
          expect(metadataOf(record), `${id} in ${p}`).to.not.equal('');
        }
        const dc = metadataOf(checkOai(await request(port, { query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifier}` })));
        for (const title of model.dc.title ?? []) expect(dc, id).to.contain(title.replace(/&/g, '&amp;'));
      }
      expect([...offeredSomewhere]).to.include.members(['oai_openaire', 'datacite']);
      // Europeana's 3D record: its title, its landing page and its rights reach oai_dc.
      const id3d = toRequestArgument(policy.map('europeana-3d').identifier);
      const dc3d = metadataOf(checkOai(await request(port, { query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${id3d}` })));
      expect(dc3d).to.contain('<dc:title>Panoramic Photography of link path 7-8 at Skara Brae</dc:title>');
      expect(dc3d).to.contain('http://cmcassociates.co.uk/Skara_Brae/landing/sb_h10_lidar.html');
      expect(dc3d).to.contain('<dc:rights>© Historic Scotland</dc:rights>');
    });
  });

  it('writes edm from the model, valid against EDM.xsd, once the institutions are configured, and offers none without them', async () => {
    const config = path.join(db().dir, 'edm.yaml');
    fs.writeFileSync(
      config,
      `formats:\n  - prefix: oai_dc\n  - prefix: edm\n    options:\n      dataProvider: ${OPTIONS.dataProvider}\n      provider: ${OPTIONS.provider}\n`,
    );
    const file = path.join(db().dir, 'shapes.ndjson');
    fs.writeFileSync(file, SHAPES.map((s) => JSON.stringify(s.record)).join('\n') + '\n');
    const env = { OAI_CONFIG: config };
    const run = await cli(db(), ['load', file], { env });
    expect(run.code, run.stderr).to.equal(0);
    await serving(db(), env, async (port) => {
      for (const s of SHAPES) {
        const identifier = toRequestArgument(policy.map(String(s.record.id)).identifier);
        const prefixes = texts(checkOai(await request(port, { query: `verb=ListMetadataFormats&identifier=${identifier}` })), 'metadataPrefix');
        expect(prefixes.includes('edm'), s.name).to.equal(s.offered.includes('edm'));
        if (!prefixes.includes('edm')) continue;
        // checkOai validates the record against EDM.xsd, offline.
        const body = checkOai(await request(port, { query: `verb=GetRecord&metadataPrefix=edm&identifier=${identifier}` }));
        expect(metadataOf(body)).to.contain('<edm:dataProvider>Example Museum</edm:dataProvider>');
      }
    });
    await serving(db(), {}, async (port) => {
      // The default configuration lists edm, without the institutions to name: a record given as the model has no edm.
      expect(texts(checkOai(await request(port, { query: 'verb=ListMetadataFormats' })), 'metadataPrefix')).to.include('edm');
      expect(edm.defaultOptions).to.deep.equal({ dataProvider: '', provider: '' });
    });
  });
});
