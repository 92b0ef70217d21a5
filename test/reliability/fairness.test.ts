/**
 * Per-client fairness: a client past its own limit on open requests or on
 * its rate is answered 429 with Retry-After while other clients are served;
 * behind a proxy `trustProxy` names, the client is the nearest untrusted hop
 * of X-Forwarded-For (one a client writes itself changes nothing), and the
 * header is ignored from anyone else; requests pipelined on one connection
 * are queued on it and answered in order, up to a bound; the metrics
 * count every refusal by reason and every endpoint by route.
 */
import { expect } from 'chai';
import pino from 'pino';
import { createMetrics } from '../../server/http/metrics';
import { checkOai, forEachProvider, request, startTestServer } from '../helpers/server';
import { connect, serveApp, slowStore } from '../helpers/hostile';
import { MAX_PIPELINED } from '../../server/http/clients';

/** `n` GET requests of ListIdentifiers written at once on one keep-alive connection, request `i` asking from the year 2000 + i. */
function pipelined(n: number): string {
  return Array.from(
    { length: n },
    (_, i) => `GET /oai?verb=ListIdentifiers&metadataPrefix=oai_dc&from=${2000 + i}-01-01 HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`,
  ).join('');
}

/** The status of each answer read on a connection, in order, with the `from` its request element echoes (none for a 429). */
function answersOf(text: string): { status: number; from: string | undefined }[] {
  return text
    .split(/(?=HTTP\/1\.1 \d{3} )/)
    .filter((part) => part.startsWith('HTTP/1.1 '))
    .map((part) => ({ status: Number(part.slice(9, 12)), from: /<request [^>]*from="(\d{4})-01-01"/.exec(part)?.[1] }));
}

/** Whether `text` holds `n` answers, the last of them whole (by its Content-Length, or its last chunk). */
function answered(text: string, n: number): boolean {
  const parts = text.split(/(?=HTTP\/1\.1 \d{3} )/).filter((part) => part.startsWith('HTTP/1.1 '));
  const last = parts[n - 1];
  if (parts.length !== n || last === undefined) return false;
  const [head = '', body] = last.split('\r\n\r\n', 2) as [string?, string?];
  const length = /\r\ncontent-length: (\d+)/i.exec(head)?.[1];
  return length !== undefined
    ? Buffer.byteLength(last.slice(head.length + 4), 'latin1') >= Number(length)
    : body !== undefined && last.endsWith('\r\n0\r\n\r\n');
}

/** Waits (up to `ms`) until `ready` holds, polling. */
async function until(ready: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!ready() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

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

    it('answers every request pipelined on one connection, in order, past the limit on open requests', async () => {
      const ctx = { ...get().ctx, store: slowStore(get().ctx.store, 20) };
      const metrics = createMetrics();
      const server = await serveApp({ ctx, logger: pino({ level: 'silent' }), compressionLevel: 1, maxInFlight: 64, retryAfter: 7, clients: limits, metrics });
      const raw = await connect(server.port);
      try {
        raw.socket.write(pipelined(41));
        await until(() => answered(raw.received(), 41), 20_000);
        const answers = answersOf(raw.received());
        expect(answers.map((a) => a.status)).to.deep.equal(Array.from({ length: 41 }, () => 200));
        expect(answers.map((a) => a.from)).to.deep.equal(Array.from({ length: 41 }, (_, i) => String(2000 + i)));
        // Another connection of the same client is still held to its limit of open requests, and served.
        checkOai(await request(server.port, { query: 'verb=Identify' }));
        const text = (await request(server.port, { path: '/metrics' })).body;
        expect(text).to.not.match(/^oai_client_limited_total\{reason="concurrency"\} [1-9]/m);
      } finally {
        raw.socket.destroy();
        await server.close();
      }
    });

    it(`answers 429 to a request pipelined behind ${MAX_PIPELINED} others waiting on its connection, and the others in order`, async () => {
      const ctx = { ...get().ctx, store: slowStore(get().ctx.store, 20) };
      const metrics = createMetrics();
      const server = await serveApp({ ctx, logger: pino({ level: 'silent' }), compressionLevel: 1, maxInFlight: 64, retryAfter: 7, clients: limits, metrics });
      const raw = await connect(server.port);
      const n = MAX_PIPELINED + 4;
      try {
        raw.socket.write(pipelined(n));
        await until(() => answered(raw.received(), n), 30_000);
        const answers = answersOf(raw.received());
        // One under way, MAX_PIPELINED waiting behind it, the rest refused; answers in the order asked.
        const served = MAX_PIPELINED + 1;
        expect(answers.map((a) => a.status)).to.deep.equal([...Array.from({ length: served }, () => 200), ...Array.from({ length: n - served }, () => 429)]);
        expect(answers.slice(0, served).map((a) => a.from)).to.deep.equal(Array.from({ length: served }, (_, i) => String(2000 + i)));
        expect(raw.received()).to.include('Retry-After: 1');
        const text = (await request(server.port, { path: '/metrics' })).body;
        expect(text).to.match(new RegExp(`^oai_client_limited_total\\{reason="pipelined"\\} ${n - served}$`, 'm'));
      } finally {
        raw.socket.destroy();
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
