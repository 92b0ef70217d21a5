/**
 * What else a source cannot choose: a set description the hub could not
 * serve valid (OAI-PMH.xsd validates a setDescription strictly against the
 * schema of its namespace) is dropped with a warning naming the source and
 * the set, never stored or served; the same through a dump's set line; the
 * format its records are stored in is the one the hub asked for, whatever
 * the page's request element claims; and the source's own set names it with
 * the registry id the configuration gives.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { forEachThrowawayDatabase } from '../helpers/db';
import { oaiGet, openTestProvider, type TestProvider } from '../helpers/server';
import { xsdErrors } from '../helpers/xsd';
import { cli, forEachCliDatabase } from '../loader/helpers';
import { parseSources, repositoryIdProblem, sourceSetDescription } from '../../lib/harvest/sources';
import { HUB_NAMESPACE, harvestOnce, openHub, source, type Hub } from './hub';
import { startFakeProvider, type FakeProvider } from './provider';

const DC = 'xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"';
const GOOD = `<oai_dc:dc ${DC}><dc:description>Physics preprints</dc:description></oai_dc:dc>`;
const BAD = {
  'no namespace': '<notdc>free text</notdc>',
  'a foreign root': '<x:about xmlns:x="urn:example:unknown"><x:p>hello</x:p></x:about>',
  'an invalid oai_dc': `<oai_dc:dc ${DC}><dc:nonsense>x</dc:nonsense></oai_dc:dc>`,
};

describe('set descriptions and formats a source cannot impose', function () {
  this.timeout(120_000);

  forEachThrowawayDatabase((db, kind) => {
    let fake: FakeProvider | undefined;
    let hub: Hub | undefined;
    let served: TestProvider | undefined;
    afterEach(async () => {
      await hub?.close();
      await served?.close();
      await fake?.close();
      hub = undefined;
      served = undefined;
      fake = undefined;
    });

    it('drops each set description it could not serve valid, with a warning naming the source and set, and keeps the valid one', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 5 });
      fake.records = [{ id: '1', datestamp: '2024-01-01T00:00:00Z', title: 'One', sets: ['phys'] }];
      fake.sets = [
        { spec: 'phys', name: 'Physics', descriptions: [GOOD, ...Object.values(BAD)] },
        { spec: 'bio', name: 'Biology', descriptions: [BAD['no namespace']] },
      ];
      const hubDb = db();
      hub = await openHub(hubDb);
      const run = await harvestOnce(hub, source('src', fake.baseUrl, { repositoryId: 'opendoar:1234' }));
      expect(run.summary.completed).to.equal(true);
      expect(run.summary.inserted).to.equal(1);
      const dropped = run.warnings.filter((w) => /description \d dropped/.test(w));
      expect(dropped).to.have.length(4);
      expect(dropped.filter((w) => w.startsWith('src: ListSets: set "source:src:phys": description '))).to.have.length(3);
      expect(dropped.filter((w) => w.startsWith('src: ListSets: set "source:src:bio": description 1 dropped: no schema is known offline'))).to.have.length(1);
      await hub.close();
      hub = undefined;
      served = await openTestProvider(kind, { database: hubDb, seed: false, env: { OAI_NAMESPACE: HUB_NAMESPACE } });
      const sets = await oaiGet(served.port, 'verb=ListSets');
      expect(xsdErrors(sets)).to.deep.equal([]);
      expect(sets).to.include('Physics preprints');
      for (const bad of ['notdc', 'urn:example:unknown', 'dc:nonsense']) expect(sets).to.not.include(bad);
      expect(sets).to.match(/<setSpec>source:src:bio<\/setSpec><setName>Biology<\/setName><\/set>/);
      // The source's own set names its registry id and base URL.
      expect(sets).to.include('<dc:identifier>opendoar:1234</dc:identifier>');
      expect(sets).to.include(`<dc:identifier>${fake.baseUrl}</dc:identifier>`);
    });

    it('stores records in the format it asked for, whatever metadataPrefix the page claims it was asked', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 5 });
      fake.records = [
        { id: '1', datestamp: '2024-01-01T00:00:00Z', title: 'One' },
        { id: '2', datestamp: '2024-01-02T00:00:00Z', title: 'Two' },
      ];
      fake.requestPrefix = 'marc21';
      const hubDb = db();
      hub = await openHub(hubDb);
      const run = await harvestOnce(hub, source('liar', fake.baseUrl));
      expect(run.refusals).to.deep.equal([]);
      expect(run.summary.inserted).to.equal(2);
      await hub.close();
      hub = undefined;
      served = await openTestProvider(kind, { database: hubDb, seed: false, env: { OAI_NAMESPACE: HUB_NAMESPACE } });
      const list = await oaiGet(served.port, 'verb=ListRecords&metadataPrefix=oai_dc&set=source:liar');
      expect(list.match(/<record>/g)).to.have.length(2);
      expect(list).to.include('<metadataNamespace>http://www.openarchives.org/OAI/2.0/oai_dc/</metadataNamespace>');
    });
  });
});

describe("a dump's set lines pass the same check", function () {
  this.timeout(120_000);
  forEachCliDatabase((db) => {
    it('loads a set line with an invalid description, dropping it with a warning naming the file and set', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'setdesc-'));
      try {
        const file = path.join(dir, 'sets.xml');
        // A saved ListSets response, as a dump's or another provider's.
        fs.writeFileSync(
          file,
          `<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2024-01-01T00:00:00Z</responseDate><request verb="ListSets">http://x.example.org/oai</request><ListSets>` +
            `<set><setSpec>a</setSpec><setName>A</setName><setDescription>${BAD['a foreign root']}</setDescription><setDescription>${GOOD}</setDescription></set>` +
            `</ListSets></OAI-PMH>\n`,
        );
        const env = { OAI_SEED_DEMO: 'false' };
        const load = await cli(db(), ['load', file], { env });
        expect(load.code, load.stderr).to.equal(0);
        expect(load.stderr).to.match(
          /^warning: .*sets\.xml.*: set "a": description 1 dropped: no schema is known offline for the namespace "urn:example:unknown"/m,
        );
        const sets = await cli(db(), ['sets'], { env });
        expect(sets.code).to.equal(0);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});

describe('a source’s registry id', () => {
  const cases: [string, string | null][] = [
    ['opendoar:1234', null],
    ['opendoar:0123', 'the opendoar id must be a number without leading zeros'],
    ['re3data:r3d100010468', null],
    ['re3data:100010468', 'the re3data id must be "r3d" and nine digits'],
    ['ror:03yrm5c26', null],
    ['ror:https://ror.org/03yrm5c26', 'the ror id must be nine characters, as in https://ror.org/03yrm5c26'],
    ['dris:98765', null],
    ['doaj:a1b2c3d4', null],
    ['handle:123', "must be a registry's id: opendoar:…, dris:…, re3data:…, doaj:…, ror:…"],
    ['1234', "must be a registry's id: opendoar:…, dris:…, re3data:…, doaj:…, ror:…"],
  ];
  for (const [id, problem] of cases) it(`${id}: ${problem ?? 'accepted'}`, () => expect(repositoryIdProblem(id)).to.equal(problem));

  it('is read from the configuration and refused there when it is no registry id', () => {
    const ok = parseSources([{ name: 'a', baseUrl: 'https://a.example.org/oai', repositoryId: 'opendoar:42' }]);
    expect(ok).to.have.property('sources');
    expect('sources' in ok && ok.sources[0]?.repositoryId).to.equal('opendoar:42');
    const bad = parseSources([{ name: 'a', baseUrl: 'https://a.example.org/oai', repositoryId: 'opendoar:042' }]);
    expect(bad).to.deep.include({ error: 'sources[0].repositoryId the opendoar id must be a number without leading zeros' });
  });

  it('is escaped in the description of the source’s set', () => {
    const xml = sourceSetDescription({ name: 'a', baseUrl: 'https://a.example.org/oai', repositoryId: 'opendoar:42' }, 'R&D <archive>');
    expect(xml).to.include('<dc:title>R&amp;D &lt;archive&gt;</dc:title>');
    expect(xml).to.include('<dc:identifier>opendoar:42</dc:identifier>');
  });
});
