/**
 * Per-client fairness: a client past its own limit on open requests or on
 * its rate is answered 429 with Retry-After while other clients are served;
 * behind a proxy `trustProxy` names, the client is the nearest untrusted hop
 * of X-Forwarded-For (one a client writes itself changes nothing), and the
 * header is ignored from anyone else; the metrics
 * count every refusal by reason and every endpoint by route.
 */
import { expect } from 'chai';
import pino from 'pino';
import { createMetrics } from '../../server/http/metrics';
import { checkOai, forEachProvider, request, startTestServer } from '../helpers/server';
import { serveApp, slowStore } from '../helpers/hostile';

describe('per-client fairness', function () {
  this.timeout(30_000);
  forEachProvider({ pageSize: 10 }, (get) => {
    const limits = { maxInFlight: 2, ratePerMinute: 0, burst: 1 };
    /** The app behind a proxy on 127.0.0.1, as `trustProxy: [loopback]` configures it. */
    const proxied = { trustProxy: ['loopback'] };

    it('answers a client past its open requests 429 with Retry-After while another client is served', async () => {
      const ctx = { ...get().ctx, store: slowStore(get().ctx.store, 300) };
      const metrics = createMetrics();
      const server = await serveApp({
        ctx,
        logger: pino({ level: 'silent' }),
        compressionLevel: 1,
        maxInFlight: 64,
        retryAfter: 7,
        clients: limits,
        metrics,
        ...proxied,
      });
      try {
        const greedy = Array.from({ length: 6 }, () =>
          request(server.port, { query: 'verb=ListIdentifiers&metadataPrefix=oai_dc', headers: { 'X-Forwarded-For': '203.0.113.7' } }),
        );
        await new Promise((r) => setTimeout(r, 50));
        checkOai(await request(server.port, { query: 'verb=Identify', headers: { 'X-Forwarded-For': '198.51.100.1' } }));
        const answers = await Promise.all(greedy);
        const limited = answers.filter((a) => a.status === 429);
        expect(limited.length).to.be.at.least(4);
        for (const a of limited) expect(a.headers['retry-after']).to.match(/^\d+$/);
        for (const a of answers.filter((x) => x.status !== 429)) checkOai(a);
        const text = (await request(server.port, { path: '/metrics' })).body;
        expect(text).to.match(new RegExp(`^oai_client_limited_total\\{reason="concurrency"\\} ${limited.length}$`, 'm'));
      } finally {
        await server.close();
      }
    });

    it('ignores X-Forwarded-For from an address that is not a trusted proxy', async () => {
      const ctx = { ...get().ctx, store: slowStore(get().ctx.store, 300) };
      const server = await serveApp({ ctx, logger: pino({ level: 'silent' }), compressionLevel: 1, maxInFlight: 64, retryAfter: 7, clients: limits });
      try {
        const answers = await Promise.all(
          Array.from({ length: 5 }, (_, i) =>
            request(server.port, { query: 'verb=ListIdentifiers&metadataPrefix=oai_dc', headers: { 'X-Forwarded-For': `203.0.113.${i + 1}` } }),
          ),
        );
        expect(answers.filter((a) => a.status === 429).length).to.be.at.least(3);
      } finally {
        await server.close();
      }
    });

    it('takes the hop nearest the trusted proxy as the client, not one the client wrote itself', async () => {
      const ctx = { ...get().ctx, store: slowStore(get().ctx.store, 300) };
      const server = await serveApp({
        ctx,
        logger: pino({ level: 'silent' }),
        compressionLevel: 1,
        maxInFlight: 64,
        retryAfter: 7,
        clients: limits,
        ...proxied,
      });
      try {
        const answers = await Promise.all(
          Array.from({ length: 5 }, (_, i) =>
            request(server.port, { query: 'verb=ListIdentifiers&metadataPrefix=oai_dc', headers: { 'X-Forwarded-For': `198.51.100.${i + 1}, 203.0.113.7` } }),
          ),
        );
        expect(answers.filter((a) => a.status === 429).length).to.be.at.least(3);
      } finally {
        await server.close();
      }
    });

    it('answers a client past its rate 429 with the seconds until its next request is allowed', async () => {
      const metrics = createMetrics();
      const server = await serveApp({
        ctx: get().ctx,
        logger: pino({ level: 'silent' }),
        compressionLevel: 1,
        maxInFlight: 64,
        retryAfter: 7,
        clients: { ...limits, ratePerMinute: 60, burst: 2 },
        metrics,
        ...proxied,
      });
      try {
        checkOai(await request(server.port, { query: 'verb=Identify' }));
        checkOai(await request(server.port, { query: 'verb=Identify' }));
        const third = await request(server.port, { query: 'verb=Identify' });
        expect(third.status).to.equal(429);
        expect(third.headers['retry-after']).to.equal('1');
        // Another client has its own bucket.
        checkOai(await request(server.port, { query: 'verb=Identify', headers: { 'X-Forwarded-For': '198.51.100.1' } }));
        const text = (await request(server.port, { path: '/metrics' })).body;
        expect(text).to.match(/^oai_client_limited_total\{reason="rate"\} 1$/m);
      } finally {
        await server.close();
      }
    });

    it('counts requests to every endpoint, {endpoint}/xml among the OAI-PMH requests', async () => {
      const metrics = createMetrics();
      const server = await serveApp({ ctx: get().ctx, logger: pino({ level: 'silent' }), compressionLevel: 1, maxInFlight: 64, retryAfter: 7, metrics });
      try {
        checkOai(await request(server.port, { path: '/oai/xml', query: 'verb=Identify' }));
        expect((await request(server.port, { path: '/healthz' })).status).to.equal(200);
        expect((await request(server.port, { path: '/nowhere' })).status).to.equal(404);
        const text = (await request(server.port, { path: '/metrics' })).body;
        expect(text).to.match(/^oai_requests_total\{verb="Identify",status="200",error="none"\} 1$/m);
        expect(text).to.match(/^oai_http_requests_total\{route="oai-xml",status="200"\} 1$/m);
        expect(text).to.match(/^oai_http_requests_total\{route="healthz",status="200"\} 1$/m);
        expect(text).to.match(/^oai_http_requests_total\{route="other",status="404"\} 1$/m);
      } finally {
        await server.close();
      }
    });
  });
});

describe('per-client limits as the serve command configures them', function () {
  this.timeout(60_000);
  it('answers a client past OAI_CLIENT_RATE with 429 and Retry-After', async () => {
    const server = await startTestServer({ OAI_CLIENT_RATE: '60', OAI_CLIENT_BURST: '2' });
    try {
      checkOai(await request(server.port, { query: 'verb=Identify' }));
      checkOai(await request(server.port, { query: 'verb=Identify' }));
      const third = await request(server.port, { query: 'verb=Identify' });
      expect(third.status).to.equal(429);
      expect(third.headers['retry-after']).to.equal('1');
      // Never limited: the liveness check.
      expect((await request(server.port, { path: '/healthz' })).status).to.equal(200);
    } finally {
      await server.stop();
    }
  });
});
