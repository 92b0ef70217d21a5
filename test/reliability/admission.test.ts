/**
 * Request admission against hostile clients: a slot is held only by a
 * request whose body is complete, so clients that drip their bodies cannot
 * shut everyone out; a body announced too large is refused before it is
 * read; a body that does not arrive in time gets 408; `/healthz` and
 * `/metrics` answer when every slot is taken; a client hanging up mid-body
 * is logged as a client abort, never as the store being unavailable.
 * Everything on 127.0.0.1, each test bounded to a few seconds.
 */
import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import { createMetrics } from '../../server/http/metrics';
import { isClientAbort } from '../../server/http/admission';
import type { Request } from 'express';
import { checkOai, errorCodes, forEachProvider, oaiPost, request } from '../helpers/server';
import { MAX_LISTED_ERRORS } from '../../lib/oai/request';
import { connect, serveApp, slowStore, type Raw } from '../helpers/hostile';
import type net from 'node:net';

const slowPostHead = (length: number): string =>
  `POST /oai HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\n`;

/** A logger writing JSON lines into an array. */
function capturingLogger(): { logger: pino.Logger; lines: { level: number; msg: string }[] } {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line) as { level: number; msg: string });
      cb();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

describe('request admission against hostile clients', function () {
  this.timeout(30_000);
  forEachProvider({ pageSize: 10 }, (get) => {
    const sockets: net.Socket[] = [];
    afterEach(() => {
      for (const s of sockets.splice(0)) s.destroy();
    });
    const open = async (port: number): Promise<Raw> => {
      const raw = await connect(port);
      sockets.push(raw.socket);
      return raw;
    };

    it('serves others while more clients than there are slots drip their request bodies', async () => {
      const server = await serveApp({
        ctx: get().ctx,
        logger: pino({ level: 'silent' }),
        compressionLevel: 1,
        maxInFlight: 2,
        retryAfter: 7,
        bodyTimeoutMs: 5000,
      });
      try {
        for (let i = 0; i < 6; i++) {
          const raw = await open(server.port);
          raw.socket.write(slowPostHead(1000) + 'v');
        }
        await new Promise((r) => setTimeout(r, 200));
        for (let i = 0; i < 3; i++) checkOai(await request(server.port, { query: 'verb=Identify' }));
        const a = await request(server.port, { path: '/healthz' });
        expect(a.status).to.equal(200);
      } finally {
        await server.close();
      }
    });

    it('answers a body that does not arrive in time with 408 and closes the connection', async () => {
      const server = await serveApp({
        ctx: get().ctx,
        logger: pino({ level: 'silent' }),
        compressionLevel: 1,
        maxInFlight: 4,
        retryAfter: 7,
        bodyTimeoutMs: 500,
      });
      try {
        const raw = await open(server.port);
        raw.socket.write(slowPostHead(1000) + 'verb=');
        expect(await raw.closed(5000), 'the connection is closed').to.equal(true);
        expect(raw.received()).to.match(/^HTTP\/1\.1 408 /);
      } finally {
        await server.close();
      }
    });

    it('refuses a body announced over the limit with 413 before reading any of it', async () => {
      const server = await serveApp({
        ctx: get().ctx,
        logger: pino({ level: 'silent' }),
        compressionLevel: 1,
        maxInFlight: 4,
        retryAfter: 7,
        bodyTimeoutMs: 5000,
      });
      try {
        const raw = await open(server.port);
        raw.socket.write(slowPostHead(300 * 1024 * 1024));
        expect(await raw.closed(4000), 'the connection is closed').to.equal(true);
        expect(raw.received()).to.match(/^HTTP\/1\.1 413 /);
      } finally {
        await server.close();
      }
    });

    it('cuts a chunked body at the limit instead of reading it to its end', async () => {
      const server = await serveApp({
        ctx: get().ctx,
        logger: pino({ level: 'silent' }),
        compressionLevel: 1,
        maxInFlight: 4,
        retryAfter: 7,
        bodyTimeoutMs: 5000,
      });
      try {
        const raw = await open(server.port);
        raw.socket.write('POST /oai HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n');
        const chunk = 'a'.repeat(16 * 1024);
        for (let i = 0; i < 5; i++) raw.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
        expect(await raw.closed(4000), 'the connection is closed').to.equal(true);
        expect(raw.received()).to.match(/^HTTP\/1\.1 413 /);
      } finally {
        await server.close();
      }
    });

    it('answers /healthz and /metrics while every slot is taken by work', async () => {
      const ctx = { ...get().ctx, store: slowStore(get().ctx.store, 700) };
      const server = await serveApp({ ctx, logger: pino({ level: 'silent' }), compressionLevel: 1, maxInFlight: 2, retryAfter: 7, metrics: createMetrics() });
      try {
        const busy = [0, 1].map(() => request(server.port, { query: 'verb=ListIdentifiers&metadataPrefix=oai_dc' }));
        await new Promise((r) => setTimeout(r, 300));
        const shed = await request(server.port, { query: 'verb=Identify' });
        expect(shed.status, 'the OAI endpoint is shed').to.equal(503);
        expect((await request(server.port, { path: '/healthz' })).status).to.equal(200);
        const metrics = await request(server.port, { path: '/metrics' });
        expect(metrics.status).to.equal(200);
        expect(metrics.body).to.match(/^oai_requests_in_flight 2$/m);
        for (const a of await Promise.all(busy)) checkOai(a);
      } finally {
        await server.close();
      }
    });

    it(`answers a 60 KB POST of bad arguments with at most ${MAX_LISTED_ERRORS} errors`, async () => {
      const body = `verb=Identify&${Array.from({ length: 9000 }, (_, i) => `${i}=`).join('&')}`.slice(0, 60 * 1024).replace(/&[^&]*$/, '');
      const xml = await oaiPost(get().port, body);
      expect(errorCodes(xml)).to.have.length(MAX_LISTED_ERRORS);
      expect(xml.length).to.be.lessThan(8 * 1024);
    });

    it('logs a client that resets its connection mid-body as a client abort, never as the store unavailable', async () => {
      const { logger, lines } = capturingLogger();
      const metrics = createMetrics();
      const server = await serveApp({ ctx: get().ctx, logger, compressionLevel: 1, maxInFlight: 4, retryAfter: 7, metrics });
      try {
        const raw = await open(server.port);
        raw.socket.write(slowPostHead(1000) + 'verb=Ident');
        await new Promise((r) => setTimeout(r, 100));
        raw.socket.resetAndDestroy();
        for (let i = 0; i < 40 && !lines.some((l) => l.msg === 'client aborted the request'); i++) await new Promise((r) => setTimeout(r, 50));
        expect(lines.map((l) => l.msg)).to.include('client aborted the request');
        expect(
          lines.filter((l) => l.level >= 50).map((l) => l.msg),
          'nothing at error level',
        ).to.deep.equal([]);
        const text = (await request(server.port, { path: '/metrics' })).body;
        expect(text).to.match(/^oai_requests_refused_total\{reason="client-abort"\} 1$/m);
      } finally {
        await server.close();
      }
    });
  });
});

describe('a client abort told from the store going away', () => {
  const req = (destroyed: boolean): Request => ({ socket: { destroyed }, destroyed }) as unknown as Request;
  const cases: { name: string; err: unknown; destroyed: boolean; abort: boolean }[] = [
    { name: 'a reset on a request whose socket is gone', err: { code: 'ECONNRESET' }, destroyed: true, abort: true },
    { name: 'a broken pipe on a request whose socket is gone', err: { code: 'EPIPE' }, destroyed: true, abort: true },
    { name: 'a reset of the database connection while the client is still there', err: { code: 'ECONNRESET' }, destroyed: false, abort: false },
    { name: 'any other failure after the client left', err: new Error('boom'), destroyed: true, abort: false },
  ];
  for (const c of cases) {
    it(`${c.abort ? 'is' : 'is not'} ${c.name}`, () => expect(isClientAbort(c.err, req(c.destroyed))).to.equal(c.abort));
  }
});
