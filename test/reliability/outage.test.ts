/**
 * The database goes away while the server runs. The
 * real server (`startServer`, as `oai-steward serve` runs it) on a private
 * PostgreSQL instance this test starts on its own port and data directory:
 * stopped at once (`pg_ctl stop -m immediate`), every request is answered
 * 503 with Retry-After and the process stays up; started again, the server
 * serves again without a restart, and the recovery time is measured.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../server/config';
import { startServer } from '../../server/serve';
import type { RunningServer } from '../../server/serve';
import { checkOai, request } from '../helpers/server';
import { startPrivatePostgres } from './private-postgres';
import type { PrivatePostgres } from './private-postgres';

/** Verbs that must reach the store (ListMetadataFormats without an identifier is answered from the format registry). */
const STORE_QUERIES = new Set(['verb=Identify', 'verb=ListRecords&metadataPrefix=oai_dc', 'verb=ListSets']);

const QUERIES = [
  'verb=Identify',
  'verb=ListRecords&metadataPrefix=oai_dc',
  'verb=ListIdentifiers&metadataPrefix=oai_dc&set=physics',
  'verb=ListSets',
  'verb=ListMetadataFormats',
  'verb=GetRecord&metadataPrefix=oai_dc&identifier=oai%3Ademo.oai-steward.org%3Areport%252012',
];

describe('a PostgreSQL outage while the server runs (a private instance)', function () {
  this.timeout(180_000);
  let pg: PrivatePostgres | undefined;
  let running: RunningServer | undefined;
  let dir = '';

  // knex warns on the console for every failed connection attempt ("Acquire connection error"): kept out of the test output.
  const warn = console.warn;
  const log = console.log;
  let warnings = 0;
  const quiet =
    (original: (...a: unknown[]) => void) =>
    (...args: unknown[]) => {
      if (/Acquire connection error|Connection terminated|Connection Error/.test(String(args[0]))) warnings++;
      else original(...args);
    };

  before(async () => {
    console.warn = quiet(warn);
    console.log = quiet(log);
    pg = startPrivatePostgres();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-outage-'));
    // The concurrent harvests below all come from 127.0.0.1: the per-client limit (429) is off so that what they
    // meet is the outage alone, whose answer is 503 with this Retry-After (test/reliability/fairness.test.ts holds the limit).
    running = await startServer(
      loadConfig(
        {
          PORT: '0',
          HOST: '127.0.0.1',
          DATABASE_URL: pg.url,
          OAI_BASE_URL: 'http://localhost/oai',
          OAI_RETRY_AFTER: '5',
          OAI_CLIENT_MAX_IN_FLIGHT: '0',
          LOG_LEVEL: 'silent',
        },
        dir,
      ),
    );
  });

  after(async () => {
    console.warn = warn;
    console.log = log;
    try {
      await running?.stop();
    } finally {
      pg?.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  const port = (): number => (running as RunningServer).port;

  it('serves the demo repository while the database is up', async () => {
    for (const q of QUERIES) checkOai(await request(port(), { query: q }));
  });

  it('answers 503 with Retry-After to every request while the database is down, and stays up', async () => {
    (pg as PrivatePostgres).stop();
    for (let round = 0; round < 3; round++) {
      for (const q of QUERIES) {
        const a = await request(port(), { query: q });
        if (a.status === 200 && !STORE_QUERIES.has(q)) {
          checkOai(a);
          continue;
        }
        expect(a.status, q).to.equal(503);
        expect(a.headers['retry-after'], q).to.equal('5');
        expect(a.body).not.to.match(/ECONNREFUSED|127\.0\.0\.1|at .*\(|postgres/i);
      }
    }
    const health = await request(port(), { path: '/healthz' });
    expect(health.status).to.equal(503);
    // Protocol errors that need no store still get their OAI-PMH answer.
    const bad = await request(port(), { query: 'verb=Nonsense' });
    checkOai(bad);
  });

  it('serves again without a restart once the database is back, within seconds', async () => {
    (pg as PrivatePostgres).start();
    const t = Date.now();
    let recovered = -1;
    const statuses: number[] = [];
    while (Date.now() - t < 30_000) {
      const a = await request(port(), { query: 'verb=ListRecords&metadataPrefix=oai_dc' });
      statuses.push(a.status);
      if (a.status === 200) {
        checkOai(a);
        recovered = Date.now() - t;
        break;
      }
      expect(a.status).to.equal(503);
      await new Promise((r) => setTimeout(r, 50));
    }
    // Recovered within the loop's 30 s: a bound 10 times the few seconds a new connection may take, never a timing claim.
    expect(recovered, `statuses while recovering: ${statuses.join(',')}`).to.be.at.least(0);
    // Every query, not just the first, works again: no broken pooled connection is left behind.
    for (let round = 0; round < 3; round++) for (const q of QUERIES) checkOai(await request(port(), { query: q }));
    process.stderr.write(
      `      (outage recovery: first 200 ${recovered} ms after PostgreSQL accepted connections; ${statuses.length - 1} answers 503 before; ${warnings} knex connection warnings so far)\n`,
    );
  });

  it('survives a second outage in the middle of concurrent harvesting', async () => {
    const load = Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await new Promise((r) => setTimeout(r, i * 20));
        return request(port(), { query: QUERIES[i % QUERIES.length] as string });
      }),
    );
    await new Promise((r) => setTimeout(r, 100));
    (pg as PrivatePostgres).stop();
    for (const a of await load) {
      if (a.status === 200) checkOai(a);
      else expect([a.status, a.headers['retry-after']]).to.deep.equal([503, '5']);
    }
    (pg as PrivatePostgres).start();
    const t = Date.now();
    for (;;) {
      const a = await request(port(), { query: 'verb=Identify' });
      if (a.status === 200) break;
      // A bound 10 times the few seconds a new connection may take.
      expect(Date.now() - t, 'the server did not answer again within 30 s').to.be.lessThan(30_000);
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const q of QUERIES) checkOai(await request(port(), { query: q }));
  });
});
