/**
 * The real clients of the suite harvest a hub: an oai-steward that
 * harvested another oai-steward (seeded with the demo repository) with
 * `harvestSource` (server/harvest/). Perl's `oai_pmh` (HTTP::OAI) and the
 * npm `oai-pmh` client each list every record exactly once, under the hub's
 * identifiers, with the title, status and sets the source gave it (its sets
 * under `source:demo`). The expectation comes from seeds/demo
 * (test/helpers/demo-records.ts), not from either server.
 */
import { expect } from 'chai';
import { OaiPmh } from 'oai-pmh';
import { oaiPmh, parseOutput, requireOaiPmh, xmlText } from '../helpers/oai-pmh-perl';
import { openThrowawayDatabase, type ThrowawayDatabase } from '../helpers/db';
import { openTestProvider, type TestProvider } from '../helpers/server';
import { assertExactlyOnce, demoByIdentifier, demoRecords, normalizeSpace } from '../helpers/demo-records';
import { HUB_NAMESPACE, harvestOnce, openHub, source } from '../harvest/hub';
import { createIdPolicy } from '../../lib/ids/policy';

// The hub publishes the internal id `demo:` + the source's identifier under its own namespace (escaped: `%` as `%25`).
const policy = createIdPolicy({ namespace: HUB_NAMESPACE });
const sourceIdOf = (hubId: string): string => (policy.unmap(hubId) ?? '').replace(/^demo:/, '');

describe('the real clients harvesting a hub of another oai-steward', function () {
  this.timeout(120_000);
  const expected = demoByIdentifier();
  const hubIds = demoRecords().map((r) => policy.map(`demo:${r.identifier}`).identifier);
  let src: TestProvider;
  let db: ThrowawayDatabase;
  let hub: TestProvider;
  let baseUrl: string;

  before(async function () {
    requireOaiPmh();
    src = await openTestProvider('sqlite', { pageSize: 41 });
    db = await openThrowawayDatabase('sqlite');
    const harvester = await openHub(db);
    try {
      const { summary } = await harvestOnce(harvester, source('demo', `http://127.0.0.1:${src.port}/oai`));
      expect(summary).to.include({ completed: true, refused: 0 });
    } finally {
      await harvester.close();
    }
    hub = await openTestProvider('sqlite', { database: db, seed: false, pageSize: 30, env: { OAI_NAMESPACE: HUB_NAMESPACE } });
    baseUrl = `http://127.0.0.1:${hub.port}/oai`;
  });
  after(async function () {
    await hub?.close();
    await db?.close();
    await src?.close();
  });

  it("Perl's oai_pmh lists every record once, with the source's title, status and sets", async function () {
    const records = parseOutput(await oaiPmh(['-X', 'ListRecords', '--metadataPrefix', 'oai_dc', baseUrl]));
    assertExactlyOnce(
      records.map((r) => r.identifier),
      hubIds,
      'oai_pmh ListRecords of the hub',
    );
    for (const r of records) {
      const seed = expected.get(sourceIdOf(r.identifier));
      expect(seed, r.identifier).to.not.equal(undefined);
      expect(r.deleted, `${r.identifier} deleted`).to.equal(seed?.deleted);
      expect([...r.sets].sort(), `${r.identifier} sets`).to.deep.equal(['source:demo', ...(seed?.sets ?? []).map((s) => `source:demo:${s}`)].sort());
      const title = /<dc:title(?:\s[^>]*)?>([^<]*)<\/dc:title>/.exec(r.xml)?.[1];
      if (!r.deleted) expect(title === undefined ? undefined : normalizeSpace(xmlText(title)), `${r.identifier} title`).to.equal(seed?.title);
    }
  });

  it('the npm oai-pmh client lists every record once', async function () {
    const client = new OaiPmh(baseUrl, { retry: false });
    const seen: string[] = [];
    for await (const r of client.listRecords({ metadataPrefix: 'oai_dc' }) as AsyncIterable<{ header: { identifier: string } }>) seen.push(r.header.identifier);
    assertExactlyOnce(seen, hubIds, 'npm oai-pmh ListRecords of the hub');
  });
});
