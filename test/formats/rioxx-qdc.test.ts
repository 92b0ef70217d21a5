/**
 * RIOXX v3.0 and qualified Dublin Core, written from the record model and read
 * back: every record the demo and the real-world corpus give is valid (rioxx
 * through schemas/rioxx-3/validate.py against the errata schema, XSD 1.1 in
 * Debian's python3-xmlschema; qdc against qdc-dspace.xsd in libxml2, through
 * the project's XSD module); RIOXX's official examples are read and written
 * back with every field; the two real qdc records are read; model → format →
 * model keeps what the format carries; a record without a mandatory RIOXX
 * property is not offered, and says which.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { isNotOffered, type CrosswalkContext, type MetadataFormat } from '../../lib/formats/format';
import { readDataciteJson } from '../../lib/formats/datacite-json';
import { qdc, QDC_NS, QDC_SCHEMA, recordToQdc } from '../../lib/formats/qdc';
import { readQdc } from '../../lib/formats/qdc-read';
import { BUILT_IN_FORMATS, createFormatRegistry } from '../../lib/formats/registry';
import { recordToRioxx, rioxx, rioxxLacks } from '../../lib/formats/rioxx';
import { readRioxx } from '../../lib/formats/rioxx-read';
import { licences } from '../../lib/model/facts';
import type { RecordFields } from '../../lib/model/record';
import { jsonToItem } from '../../lib/pipeline/json-record';
import { OAI_NS } from '../../lib/xml/namespaces';
import { findAll, parseFragment, type XmlElement } from '../../lib/xml/tree';
import { elementErrors } from '../../server/xsd/schemas';
import { demoSeed } from '../helpers/demo-records';
import { ARTICLE, DATASET, NO_DOI } from '../helpers/scholarly-records';

const ROOT = path.resolve(__dirname, '..', '..');
const VALIDATE = path.join(ROOT, 'schemas', 'rioxx-3', 'validate.py');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'formats');
const CORPUS = path.join(ROOT, 'test', 'fixtures', 'realworld');
const ctx = (id: string): CrosswalkContext => ({
  oaiIdentifier: `oai:demo.oai-steward.org:${id}`,
  poi: `http://purl.org/poi/demo.oai-steward.org/${id}`,
  options: {},
});

/** Runs validate.py on records written to files; its exit status and what it printed. */
function validateRioxx(records: readonly (readonly [string, string])[], errata = true): { status: number | null; out: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rioxx-'));
  try {
    const files = records.map(([name, xml], i) => {
      const file = path.join(dir, `${i}-${name.replace(/[^A-Za-z0-9._-]/g, '_')}.xml`);
      fs.writeFileSync(file, xml);
      return file;
    });
    const run = spawnSync('/usr/bin/python3', [VALIDATE, ...(errata ? ['--errata'] : []), '--quiet', ...files], { encoding: 'utf8' });
    if (run.error) throw run.error;
    return { status: run.status, out: `${run.stdout}${run.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const qdcErrors = (xml: string): string[] => elementErrors(xml, QDC_NS, QDC_SCHEMA);

/** The demo's live records and the scholarly test records, as models. */
function demoModels(): [string, RecordFields][] {
  const formats = createFormatRegistry(BUILT_IN_FORMATS);
  const out: [string, RecordFields][] = [
    ['article', ARTICLE],
    ['dataset', DATASET],
    ['no-doi', NO_DOI],
  ];
  for (const line of demoSeed()) {
    if (line.deleted) continue;
    const r = jsonToItem(line, formats, 'demo');
    if ('item' in r && r.item.fields) out.push([r.item.internalId, r.item.fields]);
  }
  return out;
}

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** Every record of the real-world corpus, read by its format's reader. */
function corpusModels(): [string, RecordFields][] {
  const readerOf = (root: XmlElement): MetadataFormat | undefined =>
    BUILT_IN_FORMATS.find((f) => f.read !== undefined && (f.namespace === root.ns || (f.alsoReads ?? []).includes(root.ns)));
  return files(CORPUS).flatMap((file): [string, RecordFields][] => {
    const rel = path.relative(CORPUS, file);
    const text = fs.readFileSync(file, 'utf8');
    if (file.endsWith('.json'))
      return readDataciteJson(JSON.parse(text) as unknown, rel).flatMap((r, i): [string, RecordFields][] =>
        'record' in r && r.record.fields !== undefined ? [[`${rel}[${i}]`, r.record.fields]] : [],
      );
    if (!file.endsWith('.xml')) return [];
    const root = parseFragment(text.replace(/^\uFEFF?<\?xml[^>]*\?>\s*/, ''));
    if (root === null) return [];
    const roots =
      root.ns === OAI_NS
        ? findAll(root, OAI_NS, 'metadata').flatMap((m) => m.children.filter((c): c is XmlElement => c.kind === 'element').slice(0, 1))
        : [root];
    return roots.flatMap((r, i): [string, RecordFields][] => {
      const f = readerOf(r);
      return f === undefined ? [] : [[`${rel}#${i + 1}`, f.read!(r)]];
    });
  });
}

const examples = (): [string, string][] =>
  fs
    .readdirSync(path.join(FIXTURES, 'rioxx'))
    .filter((f) => f.endsWith('.xml'))
    .map((f) => [f, fs.readFileSync(path.join(FIXTURES, 'rioxx', f), 'utf8').replace(/^<\?xml[^>]*\?>\s*/, '')]);

const readRioxxText = (xml: string): RecordFields => readRioxx(parseFragment(xml)!);
const readQdcText = (xml: string): RecordFields => readQdc(parseFragment(xml)!);

describe('rioxx and qdc written from the model', function () {
  this.timeout(120_000);

  it('writes every demo and test record that has the mandatory properties as rioxx valid against the errata schema', () => {
    const written: [string, string][] = [];
    for (const [id, fields] of demoModels()) {
      const out = recordToRioxx(fields, ctx(id));
      if (!isNotOffered(out)) written.push([id, out]);
    }
    expect(written.length).to.be.greaterThan(150);
    const run = validateRioxx(written);
    expect(run.out).to.contain(`${written.length} valid, 0 invalid`);
    expect(run.status, run.out).to.equal(0);
  });

  it('writes every real-world corpus record that has them as rioxx valid against the errata schema, and every one with a title as valid qdc', () => {
    const models = corpusModels();
    expect(models.length).to.be.greaterThan(50);
    const written: [string, string][] = [];
    let qdcs = 0;
    for (const [name, fields] of models) {
      const out = recordToRioxx(fields, ctx('corpus'));
      if (!isNotOffered(out)) written.push([name, out]);
      const q = recordToQdc(fields, ctx('q'));
      if (isNotOffered(q)) continue;
      expect(qdcErrors(q), name).to.deep.equal([]);
      qdcs++;
    }
    expect(written.length).to.be.greaterThan(3);
    expect(qdcs).to.be.greaterThan(50);
    const run = validateRioxx(written);
    expect(run.status, run.out).to.equal(0);
  });

  it('writes every demo and test record as qdc valid against qdc-dspace.xsd in libxml2', () => {
    let n = 0;
    for (const [id, fields] of demoModels()) {
      const out = recordToQdc(fields, ctx('q'));
      if (isNotOffered(out)) continue;
      expect(qdcErrors(out), id).to.deep.equal([]);
      n++;
    }
    expect(n).to.be.greaterThan(270);
  });

  it('is told apart by the validator: a record without a language is invalid, the published schema refuses even a valid one', () => {
    const good = recordToRioxx(ARTICLE, ctx('a-1')) as string;
    const noLanguage = good.replace(/<dc:language>[^<]*<\/dc:language>/g, '');
    const run = validateRioxx([
      ['good', good],
      ['no-language', noLanguage],
    ]);
    expect(run.status).to.equal(1);
    expect(run.out).to.contain('1 valid, 1 invalid');
    // Two creators and a file beside the cite-as relation: the published rioxx.xsd refuses what the profile asks.
    expect(validateRioxx([['good', good]], false).status).to.equal(1);
  });

  it('is refused by qdc-dspace.xsd in the pre-2008 scheme= spelling, as OpenEdition writes it', () => {
    const given = fs
      .readFileSync(path.join(FIXTURES, 'qdc', 'openedition_qdc_terrain_16916.payload.xml'), 'utf8')
      .replaceAll('http://epubs.cclrc.ac.uk/xmlns/qdc/', QDC_NS);
    expect(qdcErrors(given).join(' ')).to.contain("attribute 'scheme' is not allowed");
  });

  it('offers rioxx only with its five mandatory properties, and says which are missing', () => {
    const { language: _language, ...noLanguage } = ARTICLE;
    expect(rioxxLacks(ARTICLE)).to.equal(null);
    expect(rioxxLacks(noLanguage)).to.equal('RIOXX v3 needs a language');
    const out = recordToRioxx(noLanguage, ctx('a-1'));
    expect(out).to.deep.equal({ notOffered: 'RIOXX v3 needs a language' });
    // A record whose only URL is a PID's resolver has no landing page.
    const pidOnly: RecordFields = { ...ARTICLE, identifiers: [{ type: 'DOI', value: '10.5555/parity.1' }] };
    expect(rioxxLacks(pidOnly)).to.contain('a landing page');
    expect(rioxxLacks({ dc: {} })).to.equal(
      'RIOXX v3 needs a landing page (an http(s) URL of the record, not a PID or a file), a language, a title, a COAR resource type, a creator',
    );
  });

  it('writes the landing page, files with licence, access and version, the PID as cite-as and creators with their ORCID iD', () => {
    const fields: RecordFields = {
      ...ARTICLE,
      dc: { ...ARTICLE.dc, type: ['http://purl.org/coar/version/c_ab4af688f83e57aa'] },
      dates: { issued: '2021-03-04', accepted: '2020-12-01', available: '2021-02' },
      fundingReferences: [
        {
          funderName: 'Engineering and Physical Sciences Research Council',
          funderIdentifier: { type: 'ROR', value: 'https://ror.org/0439y7842' },
          awardNumber: 'EP/P010288/1',
        },
      ],
    };
    const xml = recordToRioxx(fields, ctx('a-1')) as string;
    expect(xml).to.contain('<dc:identifier>https://repo.example.org/items/a-1</dc:identifier>');
    expect(xml).to.contain(
      '<dc:relation rel="item" type="application/pdf" coar_type="http://purl.org/coar/resource_type/c_6501" coar_version="http://purl.org/coar/version/c_ab4af688f83e57aa" access_rights="http://purl.org/coar/access_right/c_abf2" license_ref="https://creativecommons.org/licenses/by/4.0/">https://repo.example.org/files/a-1/paper.pdf</dc:relation>',
    );
    expect(xml).to.contain('<dc:relation rel="cite-as">https://doi.org/10.5555/parity.1</dc:relation>');
    expect(xml).to.contain(
      '<rioxxterms:creator first-named-author="true"><rioxxterms:name>Curie, Marie</rioxxterms:name><rioxxterms:id>https://orcid.org/0000-0002-1825-0097</rioxxterms:id></rioxxterms:creator>',
    );
    expect(xml).to.contain('<dc:source>0317-8471</dc:source>');
    expect(xml).to.contain('<dcterms:dateAccepted>2020-12-01</dcterms:dateAccepted>');
    expect(xml).to.contain('<rioxxterms:publication_date>2021-03-04</rioxxterms:publication_date>');
    expect(xml).to.contain('<rioxxterms:record_public_release_date>2021-02</rioxxterms:record_public_release_date>');
    expect(xml).to.contain(
      '<rioxxterms:grant funder_name="Engineering and Physical Sciences Research Council" funder_id="https://ror.org/0439y7842">EP/P010288/1</rioxxterms:grant>',
    );
    expect(validateRioxx([['a-1', xml]]).status).to.equal(0);
  });

  it('writes qdc with DCMI refinements and encoding schemes as xsi:type', () => {
    const xml = recordToQdc({ ...ARTICLE, host: { title: 'Acta', volume: '3', startPage: '1', endPage: '9' } }, ctx('q')) as string;
    expect(xml).to.match(/^<qdc:qualifieddc xmlns:qdc="http:\/\/dspace.org\/qualifieddc\/"/);
    expect(xml).to.contain('<dcterms:alternative>Über die Parität</dcterms:alternative>');
    expect(xml).to.contain('<dcterms:issued xsi:type="dcterms:W3CDTF">2021-03-04</dcterms:issued>');
    expect(xml).to.contain('<dc:identifier xsi:type="dcterms:URI">https://doi.org/10.5555/parity.1</dc:identifier>');
    // Published in a journal: DCMI has no term for it, so a plain relation (isPartOf would be read back as IsPartOf).
    expect(xml).to.contain('<dc:relation>urn:issn:0317-8471</dc:relation>');
    const partOf = recordToQdc({ ...ARTICLE, relatedIdentifiers: [{ identifier: '0317-8471', type: 'ISSN', relation: 'IsPartOf' }] }, ctx('q')) as string;
    expect(partOf).to.contain('<dcterms:isPartOf>urn:issn:0317-8471</dcterms:isPartOf>');
    expect(xml).to.contain('<dcterms:license xsi:type="dcterms:URI">https://creativecommons.org/licenses/by/4.0/</dcterms:license>');
    expect(xml).to.contain('<dcterms:accessRights xsi:type="dcterms:URI">http://purl.org/coar/access_right/c_abf2</dcterms:accessRights>');
    expect(xml).to.contain('<dcterms:bibliographicCitation>Acta, Vol. 3, p. 1-9</dcterms:bibliographicCitation>');
    expect(xml).to.contain('<dc:language xsi:type="dcterms:RFC4646">en</dc:language>');
    expect(xml).to.contain('<dcterms:hasFormat xsi:type="dcterms:URI">https://repo.example.org/files/a-1/paper.pdf</dcterms:hasFormat>');
    expect(xml).not.to.contain('scheme=');
    expect(qdcErrors(xml)).to.deep.equal([]);
  });

  it('is offered by configuration only: the default formats stay what they were', () => {
    expect(rioxx.optIn).to.equal(true);
    expect(qdc.optIn).to.equal(true);
    expect(BUILT_IN_FORMATS.filter((f) => f.optIn !== true).map((f) => f.prefix)).to.deep.equal([
      'oai_dc',
      'oai_openaire',
      'datacite',
      'oai_datacite',
      'marc21',
      'mods',
      'edm',
    ]);
  });
});

describe('rioxx and qdc read back', () => {
  it('reads the official RIOXX examples with every property, and writes them back so they read the same', () => {
    const written: [string, string][] = [];
    for (const [name, xml] of examples()) {
      const model = readRioxxText(xml);
      expect(model.dc.title, name).to.have.length(1);
      expect(model.language, name).to.equal('en');
      expect(model.resourceType?.coar, name).to.equal('http://purl.org/coar/resource_type/c_2df8fbb1');
      expect(model.dc.identifier?.[0], name).to.match(/^https:\/\//);
      expect(model.creators?.length, name).to.be.greaterThan(1);
      expect(model.files, name).to.have.length(1);
      expect(model.license, name).to.match(/^https:\/\/creativecommons.org\/licenses\//);
      expect(model.fundingReferences?.length, name).to.be.greaterThan(0);
      expect(model.dates?.issued, name).to.match(/^20\d\d/);
      expect(model.dates?.accepted, name).to.match(/^20\d\d-/);
      expect(model.dates?.available, name).to.match(/^20\d\d-/);
      expect(model.publisher, name).to.be.a('string');
      expect(
        model.relatedIdentifiers?.some((r) => r.type === 'DOI' && r.relation === 'References'),
        name,
      ).to.equal(true);
      const out = recordToRioxx(model, { oaiIdentifier: 'oai:x.org:1', options: {} });
      if (isNotOffered(out)) throw new Error(`${name}: ${out.notOffered}`);
      written.push([name, out]);
      // The item's oai-identifier is added, as a cite-as the profile allows (CORE's OAI ids are among its examples).
      expect(readRioxxText(out), name).to.deep.equal({ ...model, dc: { ...model.dc, identifier: [...model.dc.identifier!, 'oai:x.org:1'] } });
    }
    expect(written).to.have.length(4);
    expect(validateRioxx(written).status).to.equal(0);
  });

  it('reads example 1 as the profile means it: ORCID iDs, the Handle to cite, grants with their funders, the journal', () => {
    const model = readRioxxText(examples()[0]![1]);
    expect(model.creators?.[0]).to.deep.equal({ name: 'Crilly, A. J.', orcid: '0000-0002-0429-9332' });
    expect(model.identifiers).to.deep.include({ type: 'Handle', value: '10044/1/76123' });
    expect(model.fundingReferences?.[0]).to.deep.equal({
      funderName: 'Engineering and Physical Sciences Research Council',
      funderIdentifier: { type: 'ROR', value: 'https://ror.org/0439y7842' },
      awardNumber: 'EP/P010288/1',
    });
    expect(model.relatedIdentifiers).to.deep.include({ identifier: '1070-664X', type: 'ISSN', relation: 'IsPartOf' });
    expect(model.files?.[0]).to.deep.equal({
      url: 'https://spiral.imperial.ac.uk/bitstream/10044/1/76123/2/POP19-AR-58732_accepted.pdf',
      mediaType: 'application/pdf',
      access: 'open',
    });
    // The stray quote after the publisher's ISNI in the published example is not part of it.
    expect(model.publisherIdentifier).to.deep.equal({ value: 'https://isni.org/isni/0000000405564665' });
  });

  it('reads the two real qdc records: ePubs namespace, CONTENTdm and OpenEdition, the pre-2008 scheme= included', () => {
    const illinois = readQdcText(fs.readFileSync(path.join(FIXTURES, 'qdc', 'illinois_contentdm_qdc_maps_2243.payload.xml'), 'utf8'));
    expect(illinois.dc.title).to.deep.equal(['Illinois (Cook County), Chicago quadrangle : topographic sheet', 'Chicago quadrangle, Illinois (Cook County)']);
    expect(illinois.dc.coverage).to.deep.equal(['Illinois']);
    expect(illinois.dc.relation).to.deep.equal(['http://histmapimages.grainger.illinois.edu/jp2files/Chicago1901.jp2', 'Historical Maps Online']);
    expect(illinois.dc.identifier).to.deep.equal(['http://imagesearch.library.illinois.edu/u?/maps,2243']);
    expect(illinois.publisher).to.equal('[Washington, D.C.] : U.S. Geological Survey, 1901.');
    expect(illinois.dc.description).to.have.length(2);
    const terrain = readQdcText(fs.readFileSync(path.join(FIXTURES, 'qdc', 'openedition_qdc_terrain_16916.payload.xml'), 'utf8'));
    expect(terrain.dc.title).to.deep.equal(['Y a-t-il une différence entre « Roms » et « Roumains » ?']);
    expect(terrain.language).to.equal('fr');
    expect(terrain.dates).to.deep.equal({ issued: '2018-10-01' });
    expect(terrain.accessRights).to.equal('open');
    expect(terrain.relatedIdentifiers).to.deep.equal([
      { identifier: '0760-5668', type: 'ISSN', relation: 'IsPartOf' },
      { identifier: '1777-5450', type: 'ISSN', relation: 'IsPartOf' },
    ]);
    expect(terrain.files?.map((f) => f.url)).to.deep.equal([
      'http://journals.openedition.org/terrain/tei/16916',
      'http://journals.openedition.org/terrain/basictei/16916',
    ]);
    expect(terrain.identifiers).to.deep.equal([{ type: 'URL', value: 'http://journals.openedition.org/terrain/16916' }]);
    // Both become valid qdc of this repository's container.
    for (const m of [illinois, terrain]) expect(qdcErrors(recordToQdc(m, ctx('q')) as string)).to.deep.equal([]);
  });

  it('reads CONTENTdm oai_qdc, the same container in its own namespace', () => {
    const xml =
      '<oai_qdc:qualifieddc xmlns:oai_qdc="http://worldcat.org/xmlschemas/qdc-1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"><dc:title>Map</dc:title><dcterms:created>1901</dcterms:created></oai_qdc:qualifieddc>';
    expect(readQdcText(xml)).to.deep.equal({ dc: { title: ['Map'], date: ['1901'] } });
    expect(qdc.alsoReads).to.include('http://worldcat.org/xmlschemas/qdc-1.0/');
  });

  it('keeps through model → rioxx → model and model → qdc → model what each format carries', () => {
    const fields: RecordFields = {
      ...ARTICLE,
      contributors: [{ name: 'Editor, Ed', type: 'Other' }],
      dc: { ...ARTICLE.dc, coverage: ['Europe'], type: ['http://purl.org/coar/version/c_970fb48d4fbd8a85'] },
      dates: { issued: '2021-03-04', accepted: '2020-12-01', available: '2021-02' },
      fundingReferences: [
        {
          funderName: 'Wellcome Trust',
          funderIdentifier: { type: 'Crossref Funder ID', value: 'https://doi.org/10.13039/100004440' },
          awardNumber: '212345/Z/18/Z',
        },
      ],
      relatedIdentifiers: [
        { identifier: '0317-8471', type: 'ISSN', relation: 'IsPublishedIn' },
        { identifier: '10.5061/dryad.x1', type: 'DOI', relation: 'References', resourceTypeGeneral: 'Dataset' },
      ],
    };
    const viaRioxx = readRioxxText(recordToRioxx(fields, ctx('a-1')) as string);
    expect(viaRioxx.dc.title).to.deep.equal(['On the parity of primes']);
    for (const k of ['language', 'resourceType', 'accessRights', 'publisher', 'dates', 'fundingReferences', 'contributors'] as const)
      expect(viaRioxx[k], k).to.deep.equal(fields[k]);
    expect(licences(viaRioxx)).to.deep.equal(licences(fields));
    expect(viaRioxx.creators?.map((c) => [c.name, c.orcid])).to.deep.equal(fields.creators!.map((c) => [c.name, c.orcid]));
    expect(viaRioxx.files).to.deep.equal(fields.files!.map((f) => ({ ...f, access: 'open' })));
    expect(viaRioxx.identifiers).to.deep.include.members(fields.identifiers!);
    expect(viaRioxx.relatedIdentifiers).to.deep.equal([
      { identifier: '0317-8471', type: 'ISSN', relation: 'IsPartOf' },
      { identifier: '10.5061/dryad.x1', type: 'DOI', relation: 'References', resourceTypeGeneral: 'Dataset' },
    ]);
    for (const k of ['subject', 'description', 'coverage', 'type'] as const) expect(viaRioxx.dc[k], k).to.deep.equal(fields.dc[k]);

    const viaQdc = readQdcText(recordToQdc(fields, ctx('q')) as string);
    expect(viaQdc.dc.title).to.deep.equal(fields.dc.title);
    expect(licences(viaQdc)).to.deep.equal(licences(fields));
    for (const k of ['language', 'accessRights', 'publisher', 'dates', 'files'] as const)
      expect(viaQdc[k], k).to.deep.equal(k === 'files' ? fields.files!.map((f) => ({ url: f.url })) : fields[k]);
    expect(viaQdc.resourceType?.coar).to.equal(fields.resourceType?.coar);
    expect(viaQdc.identifiers).to.deep.include.members(fields.identifiers!);
    expect(viaQdc.dc.creator).to.deep.equal(fields.creators!.map((c) => c.name));
    expect(viaQdc.relatedIdentifiers).to.deep.equal([{ identifier: '10.5061/dryad.x1', type: 'DOI', relation: 'References' }]);
    expect(viaQdc.dc.relation).to.deep.equal(['urn:issn:0317-8471']);
    for (const k of ['subject', 'description', 'coverage'] as const) expect(viaQdc.dc[k], k).to.deep.equal(fields.dc[k]);
  });

  it('reads an embargo back from qdc: the date the work becomes available ends it', () => {
    const embargoed: RecordFields = { dc: { title: ['Later'] }, accessRights: 'embargoed', dates: { embargoEnd: '2030-01-01' } };
    const back = readQdcText(recordToQdc(embargoed, ctx('q')) as string);
    expect(back.accessRights).to.equal('embargoed');
    expect(back.dates).to.deep.equal({ embargoEnd: '2030-01-01' });
  });
});
