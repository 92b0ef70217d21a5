/**
 * Past OAI_MAX_IN_FLIGHT requests in flight, the server
 * answers 503 with Retry-After at once instead of queueing without bound.
 * A server with a limit of 4 over a store that answers slowly is driven with
 * many concurrent requests: every answer is a correct OAI-PMH response or a
 * 503 with Retry-After, the 503s come at once, the limit frees up again, and
 * memory stays bounded. "At once" is proved by order, never by a clock: while
 * every store call is held at a gate, the requests past the limit are all
 * answered 503 before a single store call has completed.
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

/** A store whose calls wait at a gate until the test opens it, then take DELAY_MS longer, so requests pile up. */
interface GatedStore {
  readonly store: ReadStore;
  /** Store calls that have returned (or thrown) so far. */
  completed(): number;
  /** Lets every held call, and every later one, through. */
  open(): void;
}

function gatedStore(store: ReadStore): GatedStore {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let completed = 0;
  const gated = new Proxy(store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return async (...args: unknown[]) => {
        await gate;
        await new Promise((r) => setTimeout(r, DELAY_MS));
        try {
          return await (v as (...a: unknown[]) => unknown).apply(target, args);
        } finally {
          completed++;
        }
      };
    },
  });
  return { store: gated, completed: () => completed, open };
}

describe('load shedding', function () {
  this.timeout(120_000);
  forEachProvider({ pageSize: 50 }, (get) => {
    let server: http.Server | undefined;
    let port = 0;
    let gated: GatedStore;
    before(async () => {
      gated = gatedStore(get().ctx.store);
      const ctx = { ...get().ctx, store: gated.store };
      const app = createApp({ ctx, logger: pino({ level: 'silent' }), compressionLevel: 1, maxInFlight: LIMIT, retryAfter: 7 });
      server = http.createServer({ keepAlive: false }, app);
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    after(async () => {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    });

    /** Requests that all read the store (Identify is left out: an answer that needs no store call would free its slot). */
    const queries = (): string[] => {
      const ids = demoRecords().filter((d) => !d.deleted);
      return [
        'verb=ListRecords&metadataPrefix=oai_dc',
        'verb=ListIdentifiers&metadataPrefix=oai_dc&set=physics',
        ...ids.slice(0, 5).map((d) => `verb=GetRecord&metadataPrefix=oai_dc&identifier=${toRequestArgument(d.identifier)}`),
      ];
    };

    it(`answers ${LIMIT * 10} concurrent requests with correct answers, or with a 503 and Retry-After before any store call completes`, async () => {
      const qs = queries();
      const total = LIMIT * 10;
      // Each 503 notes how many store calls had completed when it arrived; the gate stays shut until every
      // request past the limit has been answered, so the admitted ones cannot finish (nor free a slot) before.
      const shedAt: number[] = [];
      let allShed!: () => void;
      const shedDone = new Promise<void>((resolve) => (allShed = resolve));
      const answers = Array.from({ length: total }, async (_, i) => {
        const a = await request(port, { query: qs[i % qs.length] as string, headers: { Connection: 'close' } });
        if (a.status === 503) {
          shedAt.push(gated.completed());
          if (shedAt.length === total - LIMIT) allShed();
        }
        return a;
      });
      await shedDone;
      expect(gated.completed(), 'store calls completed before the gate opened').to.equal(0);
      gated.open();
      let ok = 0;
      for (const a of await Promise.all(answers)) {
        if (a.status === 503) {
          expect(a.headers['retry-after']).to.equal('7');
        } else {
          checkOai(a);
          ok++;
        }
      }
      expect(ok).to.equal(LIMIT);
      expect(shedAt).to.have.length(total - LIMIT);
      expect(shedAt.every((n) => n === 0)).to.equal(true);
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
