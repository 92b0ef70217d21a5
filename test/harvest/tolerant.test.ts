/**
 * A source's datestamp is a fact about the source, never a reason to refuse
 * its record: a harvested header datestamp that is not OAI-PMH's (a compact
 * `20210311`, an impossible `2024-13-45`, `yesterday`) gets the record
 * written with this store's datestamp; the provenance, valid against
 * provenance.xsd, gives the value read from the compact form, or the
 * harvestDate in place of one that cannot be read; a warning names the
 * record and the value; and harvesting the same records again changes
 * nothing. CERN CDS's MARCXML page, as published, harvests whole, each
 * record written from its model and its MARCXML withheld.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { forEachThrowawayDatabase } from '../helpers/db';
import { oaiGet, openTestProvider, type TestProvider } from '../helpers/server';
import { assertValid } from '../helpers/xsd';
import { sourceDatestamp } from '../../lib/pipeline/about';
import { HUB_NAMESPACE, harvestOnce, itemsOf, openHub, source, type Hub } from './hub';
import { startFakeProvider, type FakeProvider } from './provider';

describe('a source datestamp as read', () => {
  const cases: { given: string; want: { value: string; seconds: number } | null }[] = [
    { given: '2021-03-11', want: { value: '2021-03-11', seconds: Date.UTC(2021, 2, 11) / 1000 } },
    { given: '2021-03-11T10:15:00Z', want: { value: '2021-03-11T10:15:00Z', seconds: Date.UTC(2021, 2, 11, 10, 15) / 1000 } },
    { given: '20210311', want: { value: '2021-03-11', seconds: Date.UTC(2021, 2, 11) / 1000 } },
    { given: '20210311T101500Z', want: { value: '2021-03-11T10:15:00Z', seconds: Date.UTC(2021, 2, 11, 10, 15) / 1000 } },
    { given: ' 2021-03-11 ', want: { value: '2021-03-11', seconds: Date.UTC(2021, 2, 11) / 1000 } },
    { given: '2024-13-45', want: null },
    { given: '20241345', want: null },
    { given: 'yesterday', want: null },
    { given: '2021-03-11T10:15:00+01:00', want: null },
  ];
  for (const c of cases) it(`reads ${JSON.stringify(c.given)} as ${JSON.stringify(c.want)}`, () => expect(sourceDatestamp(c.given)).to.deep.equal(c.want));
});

describe('harvested records with malformed header datestamps', function () {
  this.timeout(120_000);

  forEachThrowawayDatabase((db, kind) => {
    let fake: FakeProvider | undefined;
    let hub: Hub | undefined;
    let served: TestProvider | undefined;
    afterEach(async () => {
      await served?.close();
      await hub?.close();
      await fake?.close();
      served = undefined;
      hub = undefined;
      fake = undefined;
    });

    it('harvests each record, its provenance valid and saying what it could, a warning naming it, and nothing changes when harvested again', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 10 });
      fake.responseDate = '2024-03-05T10:00:00Z';
      fake.records = [
        { id: 'compact', datestamp: '20210311', title: 'Compact' },
        { id: 'impossible', datestamp: '2024-13-45', title: 'Impossible' },
        { id: 'words', datestamp: 'yesterday', title: 'Words' },
        { id: 'fine', datestamp: '2024-01-01T00:00:00Z', title: 'Fine' },
      ];
      const hubDb = db();
      hub = await openHub(hubDb);
      const before = Math.floor(Date.now() / 1000);
      const run = await harvestOnce(hub, source('odd', fake.baseUrl));
      expect(run.refusals).to.deep.equal([]);
      expect(run.summary.inserted).to.equal(4);
      const id = (local: string): string => `oai:bad.example.org:${local}`;
      expect(run.warnings.filter((w) => w.includes('header datestamp'))).to.have.length(3);
      const warning = (local: string): string => run.warnings.find((w) => w.includes(`record "${id(local)}"`)) ?? '';
      expect(warning('compact')).to.include('its header datestamp "20210311" is not YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ').and.include('read as 2021-03-11');
      expect(warning('impossible')).to.include('"2024-13-45"').and.include("written with this store's datestamp").and.include('harvestDate');
      expect(warning('words')).to.include('"yesterday"').and.include('harvestDate');
      expect(warning('fine')).to.equal('');

      // The store's own time, whatever the source wrote; a source datestamp kept only where it could be read.
      const rows = (await hub.knex('items').select('internal_id', 'datestamp', 'source_datestamp').orderBy('internal_id')) as {
        internal_id: string;
        datestamp: unknown;
        source_datestamp: unknown;
      }[];
      for (const r of rows) expect(Number(r.datestamp), r.internal_id).to.be.at.least(before);
      const sourceAt = new Map(rows.map((r) => [r.internal_id, r.source_datestamp === null ? null : Number(r.source_datestamp)]));
      expect(sourceAt.get(`odd:${id('compact')}`)).to.equal(Date.UTC(2021, 2, 11) / 1000);
      expect(sourceAt.get(`odd:${id('words')}`)).to.equal(null);
      expect(sourceAt.get(`odd:${id('impossible')}`)).to.equal(null);

      const hashes = await itemsOf(hub);
      const again = await harvestOnce(hub, source('odd', fake.baseUrl));
      expect(again.refusals).to.deep.equal([]);
      // The fake answers `from` by comparing datestamps as text: those it sends again are each unchanged.
      expect(again.summary).to.include({ inserted: 0, updated: 0 });
      expect(again.summary.unchanged).to.equal(again.summary.records);
      expect(again.warnings.filter((w) => w.includes('header datestamp') && w.includes(`record "${id('words')}"`))).to.have.length(1);
      expect(await itemsOf(hub)).to.deep.equal(hashes);
      await hub.close();
      hub = undefined;

      served = await openTestProvider(kind, { database: hubDb, seed: false, pageSize: 100, env: { OAI_NAMESPACE: HUB_NAMESPACE } });
      const page = await oaiGet(served.port, 'verb=ListRecords&metadataPrefix=oai_dc');
      assertValid(page);
      // Each record's originDescription, from its base URL and identifier there to its end.
      const origin = (local: string): string => {
        const at = page.indexOf(`<baseURL>${fake?.baseUrl ?? ''}</baseURL><identifier>${id(local)}</identifier>`);
        return at < 0 ? '' : page.slice(at, page.indexOf('</originDescription>', at));
      };
      expect(origin('compact')).to.include('<datestamp>2021-03-11</datestamp>');
      expect(origin('impossible')).to.include('<datestamp>2024-03-05T10:00:00Z</datestamp>');
      expect(origin('words')).to.include('<datestamp>2024-03-05T10:00:00Z</datestamp>');
      expect(origin('fine')).to.include('<datestamp>2024-01-01T00:00:00Z</datestamp>');
      expect(page).to.not.include('yesterday').and.not.include('2024-13-45');
      const title = (local: string): boolean => page.includes(`<dc:title>${local}</dc:title>`);
      expect(['Compact', 'Impossible', 'Words', 'Fine'].every(title)).to.equal(true);
    });
  });
});

describe("a harvest of CERN CDS's MARCXML as published", function () {
  this.timeout(120_000);

  forEachThrowawayDatabase((db) => {
    let server: http.Server | undefined;
    let hub: Hub | undefined;
    afterEach(async () => {
      await hub?.close();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      hub = undefined;
      server = undefined;
    });

    it('writes each record from its model, its MARCXML kept but not served, and a warning names it with the reason', async () => {
      // ListRecords answers CDS's page of set cerncds:hep-th byte for byte; Identify as CDS's says of itself.
      const page = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'readers', 'marcxml', 'cds-cerncds-hep-th.xml'));
      server = http.createServer((req, res) => {
        const verb = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('verb');
        res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
        if (verb === 'ListRecords') return void res.end(page);
        const body =
          verb === 'Identify'
            ? '<Identify><repositoryName>CERN Document Server</repositoryName><baseURL>http://cds.cern.ch/oai2d</baseURL><protocolVersion>2.0</protocolVersion><adminEmail>cds.support@cern.ch</adminEmail><earliestDatestamp>2000-01-01T00:00:00Z</earliestDatestamp><deletedRecord>transient</deletedRecord><granularity>YYYY-MM-DDThh:mm:ssZ</granularity></Identify>'
            : '<error code="noSetHierarchy">no sets</error>';
        res.end(
          `<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2019-01-15T14:02:03Z</responseDate><request>http://cds.cern.ch/oai2d</request>${body}</OAI-PMH>`,
        );
      });
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oai`;
      hub = await openHub(db());
      const run = await harvestOnce(hub, source('cds', baseUrl, { prefixes: ['marc21'] }));
      expect(run.refusals).to.deep.equal([]);
      expect(run.summary.inserted).to.equal(2);
      for (const id of ['oai:cds.cern.ch:329074', 'oai:cds.cern.ch:428218']) {
        const said = run.warnings.find((w) => w.includes(`record "cds:${id}"`)) ?? '';
        expect(said).to.include("its marc21 is not valid against that format's schema").and.include("The value 'C' is not accepted");
      }
      const rows = (await hub.knex('records as r').join('items as i', 'i.pk', 'r.item_pk').select('i.internal_id', 'r.prefix', 'r.xml')) as {
        internal_id: string;
        prefix: string;
        xml: string | null;
      }[];
      const marc = rows.filter((r) => r.prefix === 'marc21');
      expect(marc.map((r) => r.internal_id).sort()).to.deep.equal(['cds:oai:cds.cern.ch:329074', 'cds:oai:cds.cern.ch:428218']);
      for (const r of marc) expect(r.xml).to.not.include('ind1="C"');
      expect(
        rows.some((r) => r.prefix === 'oai_dc' && (r.xml ?? '').includes('<dc:title>On type II NS - five-branes in the presence of an R R field</dc:title>')),
      ).to.equal(true);
      const kept = (await hub.knex('record_fields').whereNotNull('withheld').select('withheld')) as { withheld: string }[];
      expect(kept.map((k) => (JSON.parse(k.withheld) as { prefix: string; xml: string }[])[0]?.xml.includes('ind1="C"'))).to.deep.equal([true, true]);
    });
  });
});
