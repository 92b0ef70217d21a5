/**
 * The sizes a
 * request may have (414, 413, Node's 431), header and idle timeouts against
 * slow clients, resumption tokens signed by another repository's secret,
 * and the routes that exist (everything else 404/405, with no stack traces
 * or paths in any error page).
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import pino from 'pino';
import { createApp, MAX_QUERY_BYTES, MAX_REQUEST_BYTES } from '../../server/app';
import { loadConfig } from '../../server/config';
import { startServer } from '../../server/serve';
import { encodeToken } from '../../lib/oai/token';
import { checkOai, errorCodes, forEachProvider, oaiGet, request } from '../helpers/server';

/** Opens a raw TCP connection to a port. */
function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

/** Resolves with what the server sent once it closes the socket (or rejects after `limit` ms, a bound 10 times what the server is given). */
function closedWithin(socket: net.Socket, limit: number): Promise<{ data: string }> {
  let data = '';
  socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server kept the connection open for ${limit} ms`)), limit);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ data });
    });
    socket.on('error', () => undefined);
  });
}

/** Error pages must not reveal how the server is built. */
function expectNoInternals(body: string): void {
  expect(body).not.to.match(/\bat [\w.<>]+ \(|node:internal|node_modules|\/work\/|[A-Za-z]:\\|\.ts:\d+|\.js:\d+|Error:/);
}

describe('request limits', function () {
  this.timeout(60_000);
  forEachProvider({}, (get) => {
    it(`answers a query string over ${MAX_QUERY_BYTES} bytes with 414`, async () => {
      const a = await request(get().port, { query: `verb=Identify&x=${'a'.repeat(MAX_QUERY_BYTES)}` });
      expect(a.status).to.equal(414);
      expectNoInternals(a.body);
    });

    it('answers a query string just under the limit with an OAI-PMH badArgument', async () => {
      const xml = await oaiGet(get().port, `verb=Identify&x=${'a'.repeat(MAX_QUERY_BYTES - 100)}`);
      expect(errorCodes(xml)).to.deep.equal(['badArgument']);
    });

    it('answers a request head over 16 KiB with 431 from Node, and keeps serving', async () => {
      const a = await request(get().port, { query: `verb=Identify&x=${'a'.repeat(20_000)}` });
      expect(a.status).to.equal(431);
      await oaiGet(get().port, 'verb=Identify');
    });

    it(`answers a POST body over ${MAX_REQUEST_BYTES} bytes with 413`, async () => {
      const body = `verb=Identify&x=${'a'.repeat(MAX_REQUEST_BYTES)}`;
      const a = await request(get().port, { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
      expect(a.status).to.equal(413);
      expectNoInternals(a.body);
    });

    it('answers a chunked POST body that grows past the limit with 413', async () => {
      const a = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port: get().port, method: 'POST', path: '/oai', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
          (res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.write('verb=Identify&x=');
        for (let i = 0; i < 20; i++) req.write('b'.repeat(8192));
        req.end();
      });
      expect(a.status).to.equal(413);
    });

    it('answers a POST body under the limit with OAI-PMH', async () => {
      const body = `verb=Identify&x=${'a'.repeat(MAX_REQUEST_BYTES - 100)}`;
      const a = await request(get().port, { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
      expect(errorCodes(checkOai(a))).to.deep.equal(['badArgument']);
    });

    it('refuses a resumption token signed with another repository secret with badResumptionToken', async () => {
      const p = get();
      const state = {
        verb: 'ListRecords' as const,
        metadataPrefix: 'oai_dc',
        until: p.now,
        after: { datestamp: 0, pk: 0 },
        cursor: 100,
        completeListSize: 275,
        expires: p.now + 3600,
      };
      const foreign = encodeToken(state, 'the secret of another repository');
      expect(errorCodes(await oaiGet(p.port, `verb=ListRecords&resumptionToken=${encodeURIComponent(foreign)}`))).to.deep.equal(['badResumptionToken']);
      // The same state signed with this repository's secret is accepted: only the key differs.
      const own = encodeToken(state, p.ctx.tokenSecret);
      expect(errorCodes(await oaiGet(p.port, `verb=ListRecords&resumptionToken=${encodeURIComponent(own)}`))).to.deep.equal([]);
    });

    describe('against slow clients (a server over the same app with short timeouts)', () => {
      let server: http.Server | undefined;
      let port = 0;
      before(async () => {
        const app = createApp({ ctx: get().ctx, logger: pino({ level: 'silent' }), compressionLevel: 1, maxInFlight: 64, retryAfter: 10 });
        // The same settings serve.ts makes, scaled down so the test takes seconds.
        server = http.createServer({ connectionsCheckingInterval: 200 }, app);
        server.headersTimeout = 1000;
        server.requestTimeout = 2000;
        server.keepAliveTimeout = 500;
        await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
        port = (server.address() as AddressInfo).port;
      });
      after(async () => {
        server?.closeAllConnections();
        await new Promise((resolve) => server?.close(resolve));
      });

      it('disconnects a client that sends its headers byte by byte slower than the headers timeout', async () => {
        const socket = await connect(port);
        // Dripped whole, the head would take over 20 s: 10 times the headers timeout and its check, and more.
        const head = 'GET /oai?verb=Identify HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'y'.repeat(400) + '\r\n\r\n';
        let i = 0;
        const drip = setInterval(() => {
          if (i < head.length && !socket.destroyed) socket.write(head[i++] as string);
        }, 50);
        try {
          const { data } = await closedWithin(socket, 30_000);
          // Closed by order: before the client had sent its whole head.
          expect(i, 'the whole head was never sent').to.be.lessThan(head.length);
          // Node answers 408 (or just closes); never an OAI-PMH answer to a half-sent request.
          expect(data).not.to.contain('<OAI-PMH');
        } finally {
          clearInterval(drip);
          socket.destroy();
        }
      });

      it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
        const socket = await connect(port);
        socket.write('GET /oai?verb=Identify HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
        // keepAliveTimeout is 500 ms: closed within 10 times that.
        const { data } = await closedWithin(socket, 5000);
        expect(data).to.match(/^HTTP\/1\.1 200/);
      });
    });

    const routes: { name: string; method: string; path: string; status: number }[] = [
      { name: 'PUT on the endpoint', method: 'PUT', path: '/oai?verb=Identify', status: 405 },
      { name: 'DELETE on the endpoint', method: 'DELETE', path: '/oai', status: 405 },
      { name: 'PATCH on the endpoint', method: 'PATCH', path: '/oai', status: 405 },
      { name: 'an unknown path', method: 'GET', path: '/admin', status: 404 },
      { name: 'a path traversal', method: 'GET', path: '/../../etc/passwd', status: 404 },
      { name: 'an encoded path traversal next to the endpoint', method: 'GET', path: '/..%2F..%2Fpackage.json', status: 404 },
      { name: 'a source file', method: 'GET', path: '/server/app.ts', status: 404 },
      { name: 'a POST to the health check', method: 'POST', path: '/healthz', status: 404 },
      { name: 'a POST to a POI', method: 'POST', path: '/poi/demo.oai-steward.org/report%2012', status: 404 },
      { name: 'a malformed percent-escape in the path', method: 'GET', path: '/%E0%A4%A', status: 404 },
    ];
    for (const r of routes) {
      it(`answers ${r.name} with ${r.status} and no internals`, async () => {
        const a = await request(get().port, { method: r.method, path: r.path });
        expect(a.status).to.be.oneOf([r.status, 400]);
        if (r.method !== 'GET' || r.status === 405) expect(a.status).to.equal(r.status);
        expectNoInternals(a.body);
        expect(a.headers['x-powered-by']).to.equal(undefined);
      });
    }
  });
});

describe('oai-steward serve', function () {
  this.timeout(60_000);
  it('bounds header, request and keep-alive times on its server', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-limits-'));
    const running = await startServer(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: `sqlite:${path.join(dir, 's.db')}`, OAI_SEED_DEMO: 'false', LOG_LEVEL: 'silent' }, dir),
    );
    try {
      expect(running.server.headersTimeout).to.be.within(1, 30_000);
      expect(running.server.requestTimeout).to.be.within(1, 120_000);
      expect(running.server.keepAliveTimeout).to.be.within(1, 10_000);
    } finally {
      await running.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('identifiers that are not even URIs', function () {
  forEachProvider({}, (get) => {
    // Found by bench/fuzz.ts: the echo of such an identifier in request/@identifier (anyURI) made the answer invalid.
    for (const id of ['2024-01-01T25:61:61Z', 'oai:x:%zz', '1:2', 'a b:c', 'http://host:port/x', '[::1]', 'a#b#c']) {
      it(`answers GetRecord and ListMetadataFormats of ${JSON.stringify(id)} with a valid idDoesNotExist`, async () => {
        for (const q of [
          `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(id)}`,
          `verb=ListMetadataFormats&identifier=${encodeURIComponent(id)}`,
        ]) {
          expect(errorCodes(await oaiGet(get().port, q)), q).to.deep.equal(['idDoesNotExist']);
        }
      });
    }
  });
});
