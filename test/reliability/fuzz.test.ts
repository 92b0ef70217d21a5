/**
 * A property-based fuzz test of
 * the request path through HTTP against a real server on each database.
 * Every answer is HTTP 200 with an XSD-valid OAI-PMH document (an OAI error
 * where one applies) or a documented refusal of oversized input; never a
 * 5xx, never malformed XML. harness/hostile-requests.ts holds the arbitraries and the judge; bench/fuzz.ts runs the same
 * property for longer.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { forEachProvider } from '../helpers/server';
import { xsdErrors } from '../helpers/xsd';
import { storeDigest } from './stores';
import { describeRequest, hostileRequest, judge, send } from '../../harness/hostile-requests';

/** Cases per database: bounded for the suite (the long run is bench/fuzz.ts). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 500);

describe('fuzzing the OAI-PMH endpoint with hostile requests', function () {
  this.timeout(240_000);
  forEachProvider({ pageSize: 7 }, (get) => {
    it(`answers ${RUNS} random hostile GET and POST requests with valid OAI-PMH or a documented 413/414/431`, async () => {
      const statuses = new Map<number, number>();
      const before = await storeDigest(get().knex);
      await fc.assert(
        fc.asyncProperty(hostileRequest, async (r) => {
          const a = await send(get().port, r);
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
          const problem = judge(r, a, xsdErrors);
          if (problem !== null) throw new Error(`${describeRequest(r)}\n→ ${problem}`);
        }),
        { numRuns: RUNS, ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}) },
      );
      // The property ran: most answers were OAI-PMH documents, not refusals.
      expect(statuses.get(200) ?? 0).to.be.greaterThan(RUNS / 2);
      // Nothing on the HTTP side writes to the store.
      expect(await storeDigest(get().knex)).to.deep.equal(before);
    });

    it('answers every verb with every odd argument name as badArgument, never 5xx', async () => {
      for (const verb of ['Identify', 'ListSets', 'ListMetadataFormats', 'GetRecord', 'ListIdentifiers', 'ListRecords']) {
        for (const name of ['a%5Bb%5D', '__proto__', 'constructor', 'hasOwnProperty', 'verb%5B%5D']) {
          const r = { method: 'GET' as const, query: `verb=${verb}&${name}=c` };
          const a = await send(get().port, r);
          expect(judge(r, a, xsdErrors), describeRequest(r)).to.equal(null);
          expect(a.body, describeRequest(r)).to.contain('<error code="badArgument">');
        }
      }
    });
  });
});
