/**
 * Proof with a real client: Debian's libhttp-oai-perl (the
 * HTTP::OAI harvester library and its `oai_pmh` command), which this project
 * did not write, harvests the whole demo repository from a real server:
 * ListRecords oai_dc and ListIdentifiers to the end, following resumption
 * tokens itself, and GetRecord on identifiers that need escaping.
 *
 * `oai_pmh` prints each record as header lines ("identifier: …",
 * "status: deleted", "setSpec: …"), a blank line, the metadata XML, and a
 * form feed; an OAI error makes it exit non-zero. PERL_UNICODE=SO makes it
 * print UTF-8 throughout (without it, Perl writes strings without wide
 * characters as Latin-1).
 *
 * The expectation comes from seeds/demo through the identifier policy
 * (test/helpers/demo-records.ts), not from the server.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { expect } from 'chai';
import { startTestServer } from '../helpers/server';
import type { TestServer } from '../helpers/server';
import { assertExactlyOnce, demoRecords, demoByIdentifier, demoIdentifiersIn, normalizeSpace } from '../helpers/demo-records';

const OAI_PMH = '/usr/bin/oai_pmh';

/** One record as `oai_pmh` printed it. */
interface PrintedRecord {
  identifier: string;
  deleted: boolean;
  sets: string[];
  /** The metadata XML; empty for headers and deleted records. */
  xml: string;
}

/**
 * Runs `oai_pmh` with the arguments (asynchronously: the server runs in this
 * process) and returns its standard output; rejects with its standard error
 * when it exits non-zero.
 */
function oaiPmh(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      OAI_PMH,
      [...args],
      { env: { ...process.env, PERL_UNICODE: 'SO' }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`oai_pmh ${args.join(' ')} failed (${err.message}):\n${stderr}\n${stdout.slice(0, 2000)}`));
        else resolve(stdout);
      },
    );
  });
}

/** Splits the output of `oai_pmh` into records: form-feed separated, header lines, a blank line, then XML. */
function parseOutput(out: string): PrintedRecord[] {
  return out
    .split('\f')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const text = chunk.replace(/^\n+/, '');
      const blank = text.indexOf('\n\n');
      const head = blank < 0 ? text : text.slice(0, blank);
      const fields = head.split('\n').map((line) => {
        const colon = line.indexOf(': ');
        return colon < 0 ? [line.replace(/:$/, ''), ''] : [line.slice(0, colon), line.slice(colon + 2)];
      });
      const get = (name: string): string[] => fields.filter(([k]) => k === name).map(([, v]) => v ?? '');
      return {
        identifier: get('identifier')[0] ?? '',
        deleted: get('status')[0] === 'deleted',
        sets: get('setSpec'),
        xml: blank < 0 ? '' : text.slice(blank + 2).trim(),
      };
    });
}

/** Decodes the five predefined entities and character references of XML text. */
function xmlText(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_m, e: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (e in named) return named[e] as string;
    return String.fromCodePoint(e.startsWith('#x') ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
  });
}

/** The first dc:title of a printed oai_dc record. */
function title(xml: string): string | undefined {
  const m = /<dc:title(?:\s[^>]*)?>([^<]*)<\/dc:title>/.exec(xml);
  return m ? normalizeSpace(xmlText(m[1] as string)) : undefined;
}

/** The title of a printed marc21 (245 $a) or oai_openaire (datacite:title) record. */
function titleIn(prefix: 'marc21' | 'oai_openaire', xml: string): string | undefined {
  const re = prefix === 'marc21' ? /<(?:\w+:)?datafield\b[^>]*\btag="245"[^>]*>\s*<(?:\w+:)?subfield\b[^>]*\bcode="a"[^>]*>([^<]*)</ : /<datacite:title(?:\s[^>]*)?>([^<]*)<\/datacite:title>/;
  const m = re.exec(xml);
  return m ? normalizeSpace(xmlText(m[1] as string)) : undefined;
}

const expected = demoByIdentifier();
const allIds = demoRecords().map((r) => r.identifier);

/** Fails (never skips) when the client is not installed. */
function requireOaiPmh(): void {
  if (!fs.existsSync(OAI_PMH)) {
    throw new Error(`${OAI_PMH} is missing: run scripts/system-deps.sh (apt-get install libhttp-oai-perl)`);
  }
}

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
      assertExactlyOnce(records.map((r) => r.identifier), allIds, 'oai_pmh ListRecords');
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
        assertExactlyOnce(records.map((r) => r.identifier), want, `oai_pmh ListRecords ${prefix}`);
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
      assertExactlyOnce(headers.map((h) => h.identifier), allIds, 'oai_pmh ListIdentifiers');
      const deleted = headers.filter((h) => h.deleted).map((h) => h.identifier).sort();
      expect(deleted).to.deep.equal(demoRecords().filter((r) => r.deleted).map((r) => r.identifier).sort());
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
      const [record, ...more] = parseOutput(
        await oaiPmh(['-X', 'GetRecord', '--metadataPrefix', 'oai_dc', '--identifier', seed.identifier, server.baseUrl]),
      );
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
