/**
 * Per-client fairness: a client past its own limit on open requests or on
 * its rate is answered 429 with Retry-After while other clients are served;
 * behind a trusted proxy the client is the nearest untrusted hop of
 * X-Forwarded-For, and the header is ignored from anyone else; the metrics
 * count every refusal by reason and every endpoint by route.
 */
import { expect } from 'chai';
import pino from 'pino';
import type { Request } from 'express';
import { clientOf } from '../../server/http/clients';
import { createMetrics } from '../../server/http/metrics';
import { checkOai, forEachProvider, request, startTestServer } from '../helpers/server';
import { serveApp, slowStore } from '../helpers/hostile';

describe('who a client is', () => {
  const cases: { name: string; remote: string; xff?: string; trusted: string[]; client: string }[] = [
    { name: 'the remote address when no proxy is trusted', remote: '10.0.0.2', xff: '203.0.113.7', trusted: [], client: '10.0.0.2' },
    { name: 'the forwarded address from a trusted proxy', remote: '10.0.0.2', xff: '203.0.113.7', trusted: ['10.0.0.2'], client: '203.0.113.7' },
    { name: 'the hop nearest the proxy, not one the client wrote itself', remote: '10.0.0.2', xff: '1.2.3.4, 203.0.113.7', trusted: ['10.0.0.2'], client: '203.0.113.7' },
    { name: 'past a chain of trusted proxies', remote: '10.0.0.2', xff: '203.0.113.7, 10.0.0.3', trusted: ['10.0.0.2', '10.0.0.3'], client: '203.0.113.7' },
    { name: 'the proxy itself when the header is garbage', remote: '10.0.0.2', xff: 'evil, <script>', trusted: ['10.0.0.2'], client: '10.0.0.2' },
    { name: 'an IPv4 address written as IPv6 as the IPv4 address', remote: '::ffff:10.0.0.2', xff: '203.0.113.7', trusted: ['10.0.0.2'], client: '203.0.113.7' },
  ];
  for (const c of cases) {
    it(`is ${c.name}`, () => {
      const req = { socket: { remoteAddress: c.remote }, headers: c.xff === undefined ? {} : { 'x-forwarded-for': c.xff } } as unknown as Request;
      expect(clientOf(req, new Set(c.trusted))).to.equal(c.client);
    });
  }
});

describe('per-client fairness', function () {
  this.timeout(30_000);
  forEachProvider({ pageSize: 10 }, (get) => {
    const limits = { maxInFlight: 2, ratePerMinute: 0, burst: 1, trustedProxies: ['127.0.0.1'] };

    it('answers a client past its open requests 429 with Retry-After while another client is served', async () => {
      const ctx = { ...get().ctx, store: slowStore(get().ctx.store, 300) };
      const metrics = createMetrics();
      const server = await serveApp({ ctx, logger: pino({ level: 'silent' }), compressionLevel: 1, maxInFlight: 64, retryAfter: 7, clients: limits, metrics });
      try {
        const greedy = Array.from({ length: 6 }, () => request(server.port, { query: 'verb=ListIdentifiers&metadataPrefix=oai_dc', headers: { 'X-Forwarded-For': '203.0.113.7' } }));
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
      const server = await serveApp({ ctx, logger: pino({ level: 'silent' }), compressionLevel: 1, maxInFlight: 64, retryAfter: 7, clients: { ...limits, trustedProxies: [] } });
      try {
        const answers = await Promise.all(
          Array.from({ length: 5 }, (_, i) => request(server.port, { query: 'verb=ListIdentifiers&metadataPrefix=oai_dc', headers: { 'X-Forwarded-For': `203.0.113.${i + 1}` } })),
        );
        expect(answers.filter((a) => a.status === 429).length).to.be.at.least(3);
      } finally {
        await server.close();
      }
    });

    it('answers a client past its rate 429 with the seconds until its next request is allowed', async () => {
      const metrics = createMetrics();
      const server = await serveApp({ ctx: get().ctx, logger: pino({ level: 'silent' }), compressionLevel: 1, maxInFlight: 64, retryAfter: 7, clients: { ...limits, ratePerMinute: 60, burst: 2 }, metrics });
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
