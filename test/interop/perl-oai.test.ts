/**
 * Proof with a real client: Debian's libhttp-oai-perl (the
 * HTTP::OAI harvester library and its `oai_pmh` command), which this project
 * did not write, harvests the whole demo repository from a real server:
 * ListRecords oai_dc and ListIdentifiers to the end, following resumption
 * tokens itself, and GetRecord on identifiers that need escaping.
 *
 * How `oai_pmh` prints records: test/helpers/oai-pmh-perl.ts.
 *
 * The expectation comes from seeds/demo through the identifier policy
 * (test/helpers/demo-records.ts), not from the server.
 */
import { expect } from 'chai';
import { oaiPmh, parseOutput, requireOaiPmh, xmlText } from '../helpers/oai-pmh-perl';
import { startTestServer } from '../helpers/server';
import type { TestServer } from '../helpers/server';
import { assertExactlyOnce, demoRecords, demoByIdentifier, demoIdentifiersIn, normalizeSpace } from '../helpers/demo-records';

/** The first dc:title of a printed oai_dc record. */
function title(xml: string): string | undefined {
  const m = /<dc:title(?:\s[^>]*)?>([^<]*)<\/dc:title>/.exec(xml);
  return m ? normalizeSpace(xmlText(m[1] as string)) : undefined;
}

/** The title of a printed marc21 (245 $a) or oai_openaire (datacite:title) record. */
function titleIn(prefix: 'marc21' | 'oai_openaire', xml: string): string | undefined {
  const re =
    prefix === 'marc21'
      ? /<(?:\w+:)?datafield\b[^>]*\btag="245"[^>]*>\s*<(?:\w+:)?subfield\b[^>]*\bcode="a"[^>]*>([^<]*)</
      : /<datacite:title(?:\s[^>]*)?>([^<]*)<\/datacite:title>/;
  const m = re.exec(xml);
  return m ? normalizeSpace(xmlText(m[1] as string)) : undefined;
}

const expected = demoByIdentifier();
const allIds = demoRecords().map((r) => r.identifier);

for (const pageSize of [100, 7]) {
  describe(`Perl's oai_pmh (HTTP::OAI) against a server with page size ${pageSize}`, function () {
    this.timeout(90_000);
    let server: TestServer;

    before(async function () {
      requireOaiPmh();
      server = await startTestServer({ OAI_PAGE_SIZE: String(pageSize) });
    });
    after(async function () {
      await server?.stop();
    });

    it('harvests ListRecords oai_dc to the end and sees every seeded record exactly once, with its title and status', async function () {
      const records = parseOutput(await oaiPmh(['-X', 'ListRecords', '--metadataPrefix', 'oai_dc', server.baseUrl]));
      assertExactlyOnce(
        records.map((r) => r.identifier),
        allIds,
        'oai_pmh ListRecords',
      );
      for (const r of records) {
        const seed = expected.get(r.identifier);
        expect(r.deleted, `${r.identifier} deleted`).to.equal(seed?.deleted);
        expect([...r.sets].sort(), `${r.identifier} sets`).to.deep.equal([...(seed?.sets ?? [])].sort());
        // OAI-PMH 2.5.1: a deleted record has no metadata.
        if (r.deleted) expect(r.xml, `${r.identifier} metadata`).to.equal('');
        else expect(title(r.xml), `${r.identifier} title`).to.equal(seed?.title);
      }
    });

    for (const prefix of ['marc21', 'oai_openaire'] as const) {
      it(`harvests ListRecords ${prefix} to the end and sees exactly the seeded items that have it, each with its title`, async function () {
        const records = parseOutput(await oaiPmh(['-X', 'ListRecords', '--metadataPrefix', prefix, server.baseUrl]));
        const want = demoIdentifiersIn(prefix);
        expect(want.length).to.be.greaterThan(prefix === 'marc21' ? 280 : 150);
        assertExactlyOnce(
          records.map((r) => r.identifier),
          want,
          `oai_pmh ListRecords ${prefix}`,
        );
        for (const r of records) {
          const seed = expected.get(r.identifier);
          expect(r.deleted, `${r.identifier} deleted`).to.equal(seed?.deleted);
          if (r.deleted) expect(r.xml, `${r.identifier} metadata`).to.equal('');
          else expect(titleIn(prefix, r.xml), `${r.identifier} title`).to.equal(seed?.title);
        }
      });
    }

    it('harvests ListIdentifiers oai_dc to the end and sees every seeded identifier exactly once', async function () {
      const headers = parseOutput(await oaiPmh(['-X', 'ListIdentifiers', '--metadataPrefix', 'oai_dc', server.baseUrl]));
      assertExactlyOnce(
        headers.map((h) => h.identifier),
        allIds,
        'oai_pmh ListIdentifiers',
      );
      const deleted = headers
        .filter((h) => h.deleted)
        .map((h) => h.identifier)
        .sort();
      expect(deleted).to.deep.equal(
        demoRecords()
          .filter((r) => r.deleted)
          .map((r) => r.identifier)
          .sort(),
      );
    });
  });
}

describe("Perl's oai_pmh (HTTP::OAI) asking GetRecord for identifiers that need escaping", function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async function () {
    requireOaiPmh();
    server = await startTestServer();
  });
  after(async function () {
    await server?.stop();
  });

  const byInternalId = new Map(demoRecords().map((r) => [r.internalId, r]));
  for (const internalId of ['report 12', 'demo:A-B.C_D%3AE', 'a+b', 'q?a=1&b=2', 'Tom & Jerry', '日本語資料', '📚 collection']) {
    it(`gets the record of internal id ${JSON.stringify(internalId)} by its oai-identifier`, async function () {
      const seed = byInternalId.get(internalId);
      expect(seed, `${internalId} is in the demo data`).to.not.equal(undefined);
      if (!seed) return;
      const [record, ...more] = parseOutput(await oaiPmh(['-X', 'GetRecord', '--metadataPrefix', 'oai_dc', '--identifier', seed.identifier, server.baseUrl]));
      expect(more).to.deep.equal([]);
      expect(record?.identifier).to.equal(seed.identifier);
      expect(record?.deleted).to.equal(seed.deleted);
      if (!seed.deleted) expect(title(record?.xml ?? '')).to.equal(seed.title);
    });
  }

  it('exits non-zero and names idDoesNotExist for an unknown identifier', async function () {
    let error: Error | undefined;
    try {
      await oaiPmh(['-X', 'GetRecord', '--metadataPrefix', 'oai_dc', '--identifier', 'oai:demo.oai-steward.org:no-such-item', server.baseUrl]);
    } catch (err) {
      error = err as Error;
    }
    expect(error?.message).to.contain('idDoesNotExist');
  });
});
