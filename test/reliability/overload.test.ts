/**
 * Past OAI_MAX_IN_FLIGHT requests in flight, the server
 * answers 503 with Retry-After at once instead of queueing without bound.
 * A server with a limit of 4 over a store that answers slowly is driven with
 * many concurrent requests: every answer is a correct OAI-PMH response or a
 * 503 with Retry-After, the 503s come at once, the limit frees up again, and
 * memory stays bounded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import pino from 'pino';
import { createApp } from '../../server/app';
import type { ReadStore } from '../../lib/store';
import { toRequestArgument } from '../../lib/ids/oai-identifier';
import { checkOai, forEachProvider, request } from '../helpers/server';
import { demoRecords } from '../helpers/demo-records';

const LIMIT = 4;
const DELAY_MS = 150;

/** A store whose reads take DELAY_MS longer, so requests pile up. */
function slowStore(store: ReadStore): ReadStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return async (...args: unknown[]) => {
        await new Promise((r) => setTimeout(r, DELAY_MS));
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

describe('load shedding', function () {
  this.timeout(120_000);
  forEachProvider({ pageSize: 50 }, (get) => {
    let server: http.Server | undefined;
    let port = 0;
    before(async () => {
      const ctx = { ...get().ctx, store: slowStore(get().ctx.store) };
      const app = createApp({ ctx, logger: pino({ level: 'silent' }), compressionLevel: 1, maxInFlight: LIMIT, retryAfter: 7 });
      server = http.createServer({ keepAlive: false }, app);
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    after(async () => {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    });

    const queries = (): string[] => {
      const ids = demoRecords().filter((d) => !d.deleted);
      return [
        'verb=ListRecords&metadataPrefix=oai_dc',
        'verb=ListIdentifiers&metadataPrefix=oai_dc&set=physics',
        'verb=Identify',
        ...ids.slice(0, 5).map((d) => `verb=GetRecord&metadataPrefix=oai_dc&identifier=${toRequestArgument(d.identifier)}`),
      ];
    };

    it(`answers ${LIMIT * 10} concurrent requests with correct answers or an immediate 503 with Retry-After`, async () => {
      const qs = queries();
      const answers = await Promise.all(
        Array.from({ length: LIMIT * 10 }, async (_, i) => {
          const t = Date.now();
          const a = await request(port, { query: qs[i % qs.length] as string, headers: { Connection: 'close' } });
          return { a, ms: Date.now() - t };
        }),
      );
      let ok = 0;
      let shed = 0;
      for (const { a, ms } of answers) {
        if (a.status === 503) {
          shed++;
          expect(a.headers['retry-after']).to.equal('7');
          // At once: without waiting for the store (each store call takes DELAY_MS).
          expect(ms).to.be.lessThan(DELAY_MS * 4);
        } else {
          checkOai(a);
          ok++;
        }
      }
      expect(ok).to.be.at.least(LIMIT);
      expect(shed).to.be.at.least(LIMIT * 10 - LIMIT * 3);
    });

    it('serves again once the requests in flight have finished', async () => {
      const answers = await Promise.all(Array.from({ length: LIMIT }, () => request(port, { query: 'verb=Identify' })));
      for (const a of answers) checkOai(a);
    });

    it('keeps memory bounded under waves of requests past the limit', async () => {
      const qs = queries();
      global.gc?.();
      const before = process.memoryUsage().rss;
      let shed = 0;
      for (let wave = 0; wave < 15; wave++) {
        const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => request(port, { query: qs[(i + wave) % qs.length] as string })));
        for (const a of answers) {
          if (a.status === 503) shed++;
          else expect(a.status).to.equal(200);
        }
      }
      global.gc?.();
      const growthMb = (process.memoryUsage().rss - before) / 2 ** 20;
      expect(shed).to.be.greaterThan(1000);
      // 1,500 requests, of which at most LIMIT were ever held: nothing queues, so memory cannot grow with the load.
      expect(growthMb).to.be.lessThan(100);
    });
  });
});
