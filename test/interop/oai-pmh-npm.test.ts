/**
 * Proof with a real client: the npm `oai-pmh` harvester
 * (paperhive/oai-pmh, request + xml2js), which this project did not write,
 * harvests the whole demo repository from a real server. It follows
 * resumption tokens its own way (it stops early when cursor + page size
 * reaches completeListSize) and encodes arguments with Node's querystring,
 * so it checks paging and identifier escaping from the outside.
 *
 * The expectation comes from seeds/demo through the identifier policy
 * (test/helpers/demo-records.ts), not from the server.
 */
import { expect } from 'chai';
import { OaiPmh } from 'oai-pmh';
import { startTestServer } from '../helpers/server';
import type { TestServer } from '../helpers/server';
import { assertExactlyOnce, demoByIdentifier, demoIdentifiersIn, demoRecords, normalizeSpace } from '../helpers/demo-records';

/** The parts of xml2js's output (explicitArray: false) the tests read. */
interface Header {
  $?: { status?: string };
  identifier: string;
  datestamp: string;
  setSpec?: string | string[];
}
interface HarvestedRecord {
  header: Header;
  metadata?: { 'oai_dc:dc'?: { 'dc:title'?: string | string[] } } & Record<string, unknown>;
}

function firstTitle(r: HarvestedRecord): string | undefined {
  const t = r.metadata?.['oai_dc:dc']?.['dc:title'];
  return Array.isArray(t) ? t[0] : t;
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

const expected = demoByIdentifier();
const allIds = demoRecords().map((r) => r.identifier);

// The default page, and a small odd one whose boundaries fall inside the demo's groups of equal datestamps.
for (const pageSize of [100, 7]) {
  describe(`the npm oai-pmh client against a server with page size ${pageSize}`, function () {
    this.timeout(60_000);
    let server: TestServer;
    let client: OaiPmh;

    before(async function () {
      server = await startTestServer({ OAI_PAGE_SIZE: String(pageSize) });
      client = new OaiPmh(server.baseUrl, { retry: false });
    });
    after(async function () {
      await server?.stop();
    });

    it('reads Identify: the repository name and the base URL', async function () {
      const identify = (await client.identify()) as { repositoryName: string; baseURL: string; protocolVersion: string };
      expect(identify.repositoryName).to.equal('oai-steward demo repository');
      expect(identify.baseURL).to.equal(server.baseUrl);
      expect(identify.protocolVersion).to.equal('2.0');
    });

    it('harvests ListRecords oai_dc to the end and sees every seeded record exactly once, with its title and status', async function () {
      const records = (await collect(client.listRecords({ metadataPrefix: 'oai_dc' }))) as HarvestedRecord[];
      assertExactlyOnce(
        records.map((r) => r.header.identifier),
        allIds,
        'ListRecords',
      );
      for (const r of records) {
        const seed = expected.get(r.header.identifier);
        const deleted = r.header.$?.status === 'deleted';
        expect(deleted, `${r.header.identifier} deleted`).to.equal(seed?.deleted);
        // OAI-PMH 2.5.1: a deleted record has a header and no metadata.
        if (deleted) expect(r.metadata, r.header.identifier).to.equal(undefined);
        else expect(normalizeSpace(firstTitle(r) ?? ''), `${r.header.identifier} title`).to.equal(seed?.title);
      }
    });

    it('harvests ListIdentifiers oai_dc to the end and sees every seeded identifier exactly once', async function () {
      const headers = (await collect(client.listIdentifiers({ metadataPrefix: 'oai_dc' }))) as Header[];
      assertExactlyOnce(
        headers.map((h) => h.identifier),
        allIds,
        'ListIdentifiers',
      );
      const deleted = headers
        .filter((h) => h.$?.status === 'deleted')
        .map((h) => h.identifier)
        .sort();
      expect(deleted).to.deep.equal(
        demoRecords()
          .filter((r) => r.deleted)
          .map((r) => r.identifier)
          .sort(),
      );
    });

    for (const prefix of ['marc21', 'oai_openaire'] as const) {
      it(`harvests ListRecords ${prefix} to the end and sees exactly the seeded items that have it, each with its title`, async function () {
        const records = (await collect(client.listRecords({ metadataPrefix: prefix }))) as HarvestedRecord[];
        const want = demoIdentifiersIn(prefix);
        expect(want.length).to.be.greaterThan(prefix === 'marc21' ? 280 : 150);
        assertExactlyOnce(
          records.map((r) => r.header.identifier),
          want,
          `ListRecords ${prefix}`,
        );
        for (const r of records) {
          const seed = expected.get(r.header.identifier);
          const deleted = r.header.$?.status === 'deleted';
          expect(deleted, `${r.header.identifier} deleted`).to.equal(seed?.deleted);
          if (deleted) expect(r.metadata, r.header.identifier).to.equal(undefined);
          else expect(normalizeSpace(JSON.stringify(r.metadata)), `${r.header.identifier} title`).to.contain(JSON.stringify(seed?.title).slice(1, -1));
        }
      });
    }

    it('harvests a set with descendants (physics) and sees exactly the items of physics and its subsets', async function () {
      const headers = (await collect(client.listIdentifiers({ metadataPrefix: 'oai_dc', set: 'physics' }))) as Header[];
      const inPhysics = demoRecords().filter((r) => r.sets.some((s) => s === 'physics' || s.startsWith('physics:')));
      expect(inPhysics.length, 'items under physics in the seeds').to.be.greaterThan(0);
      assertExactlyOnce(
        headers.map((h) => h.identifier),
        inPhysics.map((r) => r.identifier),
        'ListIdentifiers set=physics',
      );
    });
  });
}

describe('the npm oai-pmh client asking GetRecord for identifiers that need escaping', function () {
  this.timeout(30_000);
  let server: TestServer;
  let client: OaiPmh;

  before(async function () {
    server = await startTestServer();
    client = new OaiPmh(server.baseUrl, { retry: false });
  });
  after(async function () {
    await server?.stop();
  });

  const samples = [
    'rep-2024-0001',
    'report 12',
    'demo:A-B.C_D%3AE',
    'demo:1',
    'info:fedora/demo:2',
    'a+b',
    'a%2Bb',
    'a b',
    '100% pure',
    'stats%20raw',
    'item#3',
    'q?a=1&b=2',
    'Tom & Jerry',
    'say "hello"',
    "O'Reilly\\path",
    'café-é',
    '日本語資料',
    'Ελληνικά/κείμενα',
    '📚 collection',
    'under_score%_like',
  ];
  const byInternalId = new Map(demoRecords().map((r) => [r.internalId, r]));
  for (const internalId of samples) {
    it(`gets the record of internal id ${JSON.stringify(internalId)} by its oai-identifier`, async function () {
      const seed = byInternalId.get(internalId);
      expect(seed, `${internalId} is in the demo data`).to.not.equal(undefined);
      if (!seed) return;
      const record = (await client.getRecord(seed.identifier, 'oai_dc')) as HarvestedRecord;
      expect(record.header.identifier).to.equal(seed.identifier);
      expect(record.header.$?.status === 'deleted', 'deleted').to.equal(seed.deleted);
      if (!seed.deleted) expect(normalizeSpace(firstTitle(record) ?? '')).to.equal(seed.title);
    });
  }

  it('gets idDoesNotExist, as an OaiPmhError with that code, for an unknown identifier', async function () {
    let error: unknown;
    try {
      await client.getRecord('oai:demo.oai-steward.org:no-such-item', 'oai_dc');
    } catch (err) {
      error = err;
    }
    expect((error as { code?: string } | undefined)?.code).to.equal('idDoesNotExist');
  });
});
