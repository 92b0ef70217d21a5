/**
 * What a harvested source cannot choose, and a source once harvested is a
 * source: the provenance of a harvested record names the base URL the hub
 * harvested (never what the page's request element claims) and the
 * namespace of the format harvested (never what the record's root element
 * claims); `oai-steward harvest NAME` harvests again a source first
 * harvested by its URL, with the URL and options it was harvested with.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { forEachThrowawayDatabase } from '../helpers/db';
import { oaiGet, openTestProvider, request, type TestProvider } from '../helpers/server';
import { cli, forEachCliDatabase } from '../loader/helpers';
import { createFormatRegistry } from '../../lib/formats/registry';
import { oaiDc } from '../../lib/formats/oai-dc';
import { mods, MODS_NS } from '../../lib/formats/mods';
import { OAI_DC_NS } from '../../lib/xml/namespaces';
import { xmlToItem } from '../../server/loader/xml-record';
import { HUB_NAMESPACE, harvestOnce, openHub, source, type Hub } from './hub';
import { startFakeProvider, type FakeProvider } from './provider';

const HTML = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('what a harvested source cannot choose', function () {
  this.timeout(120_000);

  it('names the namespace of the format harvested in the provenance, not the one the record root claims', () => {
    const r = xmlToItem(
      {
        kind: 'record',
        number: 1,
        line: 1,
        identifier: 'oai:other.example.org:1',
        datestamp: '2024-01-05',
        deleted: false,
        sets: [],
        metadata: `<oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}"/>`,
        metadataNamespace: OAI_DC_NS,
        dcIdentifiers: [],
        about: [],
        problems: [],
      },
      {
        policy: { namespace: 'hub.example.org', unmap: () => null },
        formats: createFormatRegistry([oaiDc, mods]),
        requestPrefix: 'mods',
        origin: { baseURL: 'http://other.example.org/oai', responseDate: '2024-01-10T00:00:00Z' },
      },
      'page 1',
    );
    expect(r).to.have.property('item');
    const about = 'item' in r ? (r.item.about ?? []).map((a) => a.xml).join('') : '';
    expect(about).to.include(`<metadataNamespace>${MODS_NS}</metadataNamespace>`);
    expect(about).to.not.include(`<metadataNamespace>${OAI_DC_NS}</metadataNamespace>`);
  });

  forEachThrowawayDatabase((db, kind) => {
    let fake: FakeProvider | undefined;
    let src: TestProvider | undefined;
    let hub: Hub | undefined;
    afterEach(async () => {
      await hub?.close();
      await src?.close();
      await fake?.close();
      hub = undefined;
      src = undefined;
      fake = undefined;
    });

    it('keeps a forged request base URL out of the provenance and the record page', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 5 });
      fake.records = [{ id: '1', datestamp: '2024-01-01T00:00:00Z', title: 'One' }];
      fake.requestUrl = 'javascript:alert(1)';
      const hubDb = db();
      hub = await openHub(hubDb);
      const run = await harvestOnce(hub, source('liar', fake.baseUrl));
      expect(run.refusals).to.deep.equal([]);
      expect(run.summary.inserted).to.equal(1);
      await hub.close();
      hub = undefined;
      src = await openTestProvider(kind, { database: hubDb, seed: false, env: { OAI_NAMESPACE: HUB_NAMESPACE } });
      const list = await oaiGet(src.port, 'verb=ListRecords&metadataPrefix=oai_dc');
      expect(list).to.include(`<baseURL>${fake.baseUrl}</baseURL>`);
      expect(list).to.not.include('javascript:');
      const id = `oai:${HUB_NAMESPACE}:liar:oai:bad.example.org:1`;
      const html = await request(src.port, { query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(id)}`, headers: HTML });
      expect(html.body).to.include(`<span class="meta">at <a href="${fake.baseUrl}" rel="nofollow">${fake.baseUrl}</a></span>`);
      expect(html.body).to.not.include('javascript:');
    });

    it("names MODS's namespace in the provenance of a mods harvest", async () => {
      const origin = await openTestProvider(kind, { pageSize: 50 });
      src = origin;
      const hubDb = db();
      hub = await openHub(hubDb);
      const run = await harvestOnce(hub, source('demo', `http://127.0.0.1:${origin.port}/oai`, { prefixes: ['mods'] }));
      expect(run.summary.completed).to.equal(true);
      await hub.close();
      hub = undefined;
      const served = await openTestProvider(kind, { database: hubDb, seed: false, pageSize: 100, env: { OAI_NAMESPACE: HUB_NAMESPACE } });
      try {
        const page = await oaiGet(served.port, 'verb=ListRecords&metadataPrefix=mods&set=source:demo');
        expect(page).to.match(/<originDescription /);
        const namespaces = [...page.matchAll(/<metadataNamespace>([^<]*)<\/metadataNamespace>/g)].map((m) => m[1]);
        expect(namespaces.length).to.be.greaterThan(0);
        expect([...new Set(namespaces)]).to.deep.equal([MODS_NS]);
      } finally {
        await served.close();
      }
    });
  });
});

describe('a source once harvested is a source', function () {
  this.timeout(120_000);
  let fake: FakeProvider | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  forEachCliDatabase((db) => {
    it('harvests NAME again with the URL and prefixes it was harvested with by URL, and lists its URL', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 3 });
      fake.records = [
        { id: '1', datestamp: '2024-01-01T00:00:00Z', title: 'One' },
        { id: '2', datestamp: '2024-01-02T00:00:00Z', title: 'Two' },
      ];
      const env = { OAI_SEED_DEMO: 'false' };
      // The store made first, as an operator may (a harvest would make it too).
      expect((await cli(db(), ['migrate'], { env })).code).to.equal(0);
      const first = await cli(db(), ['harvest', fake.baseUrl, '--name', 'archive', '--prefix', 'oai_dc'], { env });
      expect(first.code).to.equal(0);
      const before = fake.requests.length;
      fake.records.push({ id: '3', datestamp: '2024-03-05T11:00:00Z', title: 'Three' });
      fake.responseDate = '2024-03-06T00:00:00Z';
      const again = await cli(db(), ['harvest', 'archive'], { env });
      expect(again.stderr).to.not.match(/no BASE_URL given/);
      expect(again.stdout).to.match(/^archive: inserted 1, updated 0, unchanged 0, deleted 0, refused 0 .*; complete\n$/);
      expect(again.code).to.equal(0);
      const asked = fake.requests.slice(before).filter((r) => r.query.verb === 'ListRecords');
      expect(asked.map((r) => r.query.metadataPrefix)).to.deep.equal(['oai_dc']);
      const sources = await cli(db(), ['sources'], { env });
      expect(sources.stdout).to.match(new RegExp(`^archive ${fake.baseUrl.replace(/[.]/g, '\\.')}\\n`));
      const unknown = await cli(db(), ['harvest', 'nowhere'], { env });
      expect(unknown.code).to.equal(2);
      expect(unknown.stderr).to.match(/no source named "nowhere" in the configuration or harvested before by its URL \(known: archive\)/);
    });

    it('harvests the configured source when the configuration names one the store harvested before by another URL', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 3 });
      fake.records = [{ id: '1', datestamp: '2024-01-01T00:00:00Z', title: 'One' }];
      const moved = await startFakeProvider({ granularity: 'second', pageSize: 3 });
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-moved-'));
      try {
        moved.records = [{ id: '2', datestamp: '2024-01-02T00:00:00Z', title: 'Two' }];
        const env = { OAI_SEED_DEMO: 'false' };
        expect((await cli(db(), ['migrate'], { env })).code).to.equal(0);
        expect((await cli(db(), ['harvest', fake.baseUrl, '--name', 'archive'], { env })).code).to.equal(0);
        // The repository moved; the manager declares it in the configuration under the same name.
        const file = path.join(dir, 'hub.yaml');
        fs.writeFileSync(file, `sources:\n  - name: archive\n    baseUrl: ${moved.baseUrl}\n`);
        const before = fake.requests.length;
        const again = await cli(db(), ['harvest', 'archive'], { env: { ...env, OAI_CONFIG: file } });
        expect(again.code, again.stderr).to.equal(0);
        expect(fake.requests.length).to.equal(before);
        expect(moved.requests.filter((r) => r.query.verb === 'ListRecords')).to.have.length(1);
        expect(again.stdout).to.match(/^archive: inserted 1, /);
        // The old repository's clock and token are not carried over to the new one.
        expect(again.stderr).to.include(`harvested from ${fake.baseUrl} until now, from ${moved.baseUrl} from now on; the list starts afresh`);
        expect(moved.requests.find((r) => r.query.verb === 'ListRecords')?.query.from).to.equal(undefined);
        const sources = await cli(db(), ['sources'], { env: { ...env, OAI_CONFIG: file } });
        expect(sources.stdout).to.match(new RegExp(`^archive ${moved.baseUrl.replace(/[.]/g, '\\.')}\\n`));
      } finally {
        await moved.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
