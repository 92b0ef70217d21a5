/**
 * Operations: one structured JSON log line (pino) per request,
 * `GET /healthz` telling whether the store is reachable, and graceful
 * shutdown: in-flight responses finish, new connections are refused, then
 * the store is closed.
 *
 * The log and the signal handling are tested on the real command
 * (`oai-steward serve` run as a child process, its standard output read as
 * JSON lines); /healthz and `stop()` on a server started in-process, where
 * the test can look at the store.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startTestServer } from '../../helpers/server';
import { freePort } from '../../../harness/free-port';
import type { TestServer } from '../../helpers/server';
import { assertValid } from '../../helpers/xsd';
import type { KnexStore } from '../../../server/store/knex-store';
import { tokenDigest } from '../../../server/app';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** A request whose body is sent in two parts, so the test decides when the server can answer it. */
interface HeldRequest {
  /** Sends the rest of the body; resolves with the whole response. */
  finish(): Promise<{ status: number; body: string }>;
}

/**
 * Starts a form-encoded POST to `url` and sends only the first half of its
 * body: the server has the request but cannot answer until {@link HeldRequest.finish}.
 * Resolves once the headers and the first half are on the wire.
 */
function holdPost(url: string, form: string): Promise<HeldRequest> {
  const body = Buffer.from(form, 'latin1');
  const half = Math.floor(body.length / 2);
  return new Promise((resolve, reject) => {
    const response = new Promise<{ status: number; body: string }>((done, fail) => {
      const req = http.request(url, {
        method: 'POST',
        agent: false,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': String(body.length) },
      });
      req.on('error', (err) => {
        fail(err);
        reject(err);
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', fail);
      });
      req.write(body.subarray(0, half), () => {
        resolve({
          finish() {
            req.end(body.subarray(half));
            return response;
          },
        });
      });
    });
    response.catch(() => undefined);
  });
}

/** Resolves with the error code of a fresh TCP connection to the port, or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What a test needs of `oai-steward serve` running as a child process. */
interface ServeProcess {
  readonly baseUrl: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** The JSON log lines written to standard output so far. */
  readonly lines: Record<string, unknown>[];
  /** Lines of standard output that are not JSON (there should be none). */
  readonly junk: string[];
  /** Resolves with the first log line (past or future) matching the predicate. */
  waitForLine(pred: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Resolves with the exit code (or signal name) when the process ends. */
  readonly exited: Promise<number | string>;
  /** Kills the process if it still runs and removes its database. */
  cleanup(): Promise<void>;
}

/** Runs `oai-steward serve` from the TypeScript sources on a free port with a fresh SQLite store. */
async function spawnServe(env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-ops-'));
  const port = await freePort();
  const baseUrl = `http://localhost:${port}/oai`;
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', path.join(ROOT, 'server', 'cli.ts'), 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:${path.join(dir, 'store.sqlite')}`,
      PORT: String(port),
      OAI_BASE_URL: baseUrl,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  const junk: string[] = [];
  const waiters: { pred: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }[] = [];
  let buffered = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const text = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        junk.push(text);
        continue;
      }
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.pred(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const proc: ServeProcess = {
    baseUrl,
    port,
    child,
    lines,
    junk,
    waitForLine(pred, timeoutMs = 20_000) {
      const seen = lines.find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no such log line within ${timeoutMs} ms; stderr:\n${stderr}\nlines:\n${lines.map((l) => JSON.stringify(l)).join('\n')}`)),
          timeoutMs,
        );
        waiters.push({
          pred,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
        void exited.then(() => reject(new Error(`oai-steward serve exited; stderr:\n${stderr}`)));
      });
    },
    exited,
    async cleanup() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await proc.waitForLine((l) => l.msg === 'oai-steward serving', 60_000);
  return proc;
}

const isRequestLine = (l: Record<string, unknown>): boolean => l.msg === 'oai request';

describe('operations: the request log of oai-steward serve', function () {
  this.timeout(60_000);
  let serve: ServeProcess;

  before(async function () {
    serve = await spawnServe();
  });
  after(async function () {
    await serve?.cleanup();
  });

  /** Sends one request and returns the log lines it produced (and, to `into`, the response body). */
  async function logged(query: string, init?: RequestInit, into?: { body?: string }): Promise<Record<string, unknown>[]> {
    const before = serve.lines.filter(isRequestLine).length;
    const res = await fetch(init ? serve.baseUrl : `${serve.baseUrl}?${query}`, init);
    const text = await res.text();
    if (into) into.body = text;
    expect(res.status).to.equal(200);
    // pino writes the line after the response is sent; give the pipe a moment.
    for (let i = 0; i < 50 && serve.lines.filter(isRequestLine).length === before; i++) await sleep(20);
    await sleep(50);
    return serve.lines.filter(isRequestLine).slice(before);
  }

  const cases: { name: string; query: string; post?: boolean; verb?: string; args: Record<string, string>; records: number; errors?: string[] }[] = [
    {
      name: 'ListRecords logs its verb, arguments and the number of records returned',
      query: 'verb=ListRecords&metadataPrefix=oai_dc',
      verb: 'ListRecords',
      args: { verb: 'ListRecords', metadataPrefix: 'oai_dc' },
      records: 100,
    },
    {
      name: 'ListIdentifiers of a set logs the set among the arguments',
      query: 'verb=ListIdentifiers&metadataPrefix=oai_dc&set=math',
      verb: 'ListIdentifiers',
      args: { verb: 'ListIdentifiers', metadataPrefix: 'oai_dc', set: 'math' },
      records: -1,
    },
    {
      name: 'GetRecord logs one record',
      query: 'verb=GetRecord&metadataPrefix=oai_dc&identifier=oai%3Ademo.oai-steward.org%3Adata-2024-0001',
      verb: 'GetRecord',
      args: { verb: 'GetRecord', metadataPrefix: 'oai_dc', identifier: 'oai:demo.oai-steward.org:data-2024-0001' },
      records: 1,
    },
    { name: 'a POST is logged with its method', query: 'verb=Identify', post: true, verb: 'Identify', args: { verb: 'Identify' }, records: 0 },
    {
      name: 'an OAI error is logged with its code and HTTP status 200',
      query: 'verb=ListRecords&metadataPrefix=oai_dc&set=no-such-set',
      verb: 'ListRecords',
      args: { verb: 'ListRecords', metadataPrefix: 'oai_dc', set: 'no-such-set' },
      records: 0,
      errors: ['noRecordsMatch'],
    },
    {
      name: 'badVerb is logged with the verb that was asked for',
      query: 'verb=Nonsense',
      verb: 'Nonsense',
      args: { verb: 'Nonsense' },
      records: 0,
      errors: ['badVerb'],
    },
    {
      name: 'badArgument is logged with the verb and arguments that were asked for',
      query: 'verb=GetRecord&metadataPrefix=oai_dc',
      verb: 'GetRecord',
      args: { verb: 'GetRecord', metadataPrefix: 'oai_dc' },
      records: 0,
      errors: ['badArgument'],
    },
  ];
  for (const c of cases) {
    it(`writes one JSON line per request: ${c.name}`, async function () {
      const init: RequestInit | undefined = c.post
        ? { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: c.query }
        : undefined;
      const lines = await logged(c.query, init);
      expect(lines, 'log lines for the request').to.have.length(1);
      const line = lines[0] as Record<string, unknown>;
      expect(line.level, 'pino level info').to.equal(30);
      expect(line.time).to.be.a('number');
      expect(line.method).to.equal(c.post ? 'POST' : 'GET');
      expect(line.status).to.equal(200);
      expect(line.verb).to.equal(c.verb);
      expect(line.args).to.deep.equal(c.args);
      if (c.records >= 0) expect(line.records).to.equal(c.records);
      else expect(line.records).to.be.a('number').and.greaterThan(0);
      expect(line.ms).to.be.a('number').and.at.least(0);
      if (c.errors) expect(line.errors).to.deep.equal(c.errors);
      else expect(line.errors).to.equal(undefined);
    });
  }

  it('logs the resumption token of a follow-up page as a short digest of it, never the token', async function () {
    const first: { body?: string } = {};
    await logged('verb=ListIdentifiers&metadataPrefix=oai_dc', undefined, first);
    const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(first.body ?? '')?.[1];
    expect(token, 'a resumption token on page 1').to.be.a('string');
    const lines = await logged(`verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token as string)}`);
    expect(lines).to.have.length(1);
    expect(lines[0]?.args).to.deep.equal({ verb: 'ListIdentifiers', resumptionToken: tokenDigest(token as string) });
    expect(tokenDigest(token as string)).to.match(/^sha256:[0-9a-f]{16}$/);
    expect(JSON.stringify(lines[0]), 'a reader of the log cannot continue the list').not.to.contain(token as string);
    expect(lines[0]?.records).to.equal(100);
  });

  it('writes nothing but JSON lines to standard output', function () {
    expect(serve.junk).to.deep.equal([]);
    expect(serve.lines.filter(isRequestLine).length).to.be.greaterThan(cases.length);
  });
});

describe('operations: SIGTERM to oai-steward serve', function () {
  this.timeout(60_000);
  let serve: ServeProcess;

  before(async function () {
    serve = await spawnServe({ OAI_PAGE_SIZE: '300' });
  });
  after(async function () {
    await serve?.cleanup();
  });

  it('finishes the response in flight, refuses new connections, and exits 0', async function () {
    const held = await holdPost(serve.baseUrl, 'verb=ListRecords&metadataPrefix=oai_dc');
    await sleep(300); // the request reaches the server before the signal
    serve.child.kill('SIGTERM');
    await serve.waitForLine((l) => l.msg === 'shutting down: no new connections, finishing the responses in flight' && l.signal === 'SIGTERM');
    // The listening socket closes as the signal is handled; poll briefly rather than race the log pipe.
    let refused = await tryConnect(serve.port);
    for (let i = 0; i < 20 && refused !== 'ECONNREFUSED'; i++) refused = (await sleep(25), await tryConnect(serve.port));
    expect(refused, 'a new connection after SIGTERM').to.equal('ECONNREFUSED');
    let exitedEarly = false;
    void serve.exited.then(() => (exitedEarly = true));
    await sleep(200);
    expect(exitedEarly, 'the process waits for the response in flight').to.equal(false);
    const res = await held.finish();
    expect(res.status).to.equal(200);
    expect(res.body.trimEnd().endsWith('</OAI-PMH>'), 'the whole document arrived').to.equal(true);
    expect(res.body.match(/<record>/g) ?? []).to.have.length(285);
    assertValid(res.body);
    expect(await serve.exited, 'exit code').to.equal(0);
    const last = serve.lines.filter(isRequestLine).at(-1);
    expect(last?.records, 'the finished request was logged').to.equal(285);
  });
});

describe('operations: /healthz and stop() of a server started in-process', function () {
  this.timeout(30_000);
  let server: TestServer;

  beforeEach(async function () {
    server = await startTestServer();
  });
  afterEach(async function () {
    await server?.stop();
  });

  it('answers /healthz with 200 and {"status":"ok"} while the store is reachable', async function () {
    const res = await fetch(new URL('/healthz', server.origin));
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    expect(await res.json()).to.deep.equal({ status: 'ok' });
  });

  it('answers /healthz with 503, Retry-After and {"status":"unavailable"} when the store is closed', async function () {
    // The knex behind the provider's store, closed under it.
    await (server.running.provider.store as KnexStore).knex.destroy();
    const res = await fetch(new URL('/healthz', server.origin));
    expect(res.status).to.equal(503);
    expect(res.headers.get('retry-after')).to.match(/^\d+$/);
    expect(await res.json()).to.deep.equal({ status: 'unavailable' });
  });

  it('lets the response in flight finish, refuses new connections meanwhile, and closes the store only after', async function () {
    const arrived = new Promise<void>((resolve) => server.running.server.once('request', () => resolve()));
    const held = await holdPost(server.baseUrl, 'verb=ListRecords&metadataPrefix=oai_dc');
    await arrived;
    let stopped = false;
    const stopping = server.running.stop().then(() => (stopped = true));
    expect(await tryConnect(server.port), 'a new connection while stopping').to.equal('ECONNREFUSED');
    await sleep(100);
    expect(stopped, 'stop() waits for the response in flight').to.equal(false);
    await server.running.provider.store.ping(); // the store is still open for it
    // The response needs the store: arriving whole proves the store closed only after it was written.
    const res = await held.finish();
    expect(res.status).to.equal(200);
    expect(res.body.match(/<record>/g) ?? []).to.have.length(100);
    assertValid(res.body);
    await stopping;
    let pingError: unknown;
    try {
      await server.running.provider.store.ping();
    } catch (err) {
      pingError = err;
    }
    expect(pingError, 'the store is closed after stop()').to.be.instanceOf(Error);
  });

  it('closes idle keep-alive connections at once instead of waiting for them to time out', async function () {
    // Longer than this test may take: a stop that waited for the idle socket to time out would fail by the test's timeout.
    server.running.server.keepAliveTimeout = 10 * 60_000;
    const agent = new http.Agent({ keepAlive: true });
    try {
      await new Promise<void>((resolve, reject) => {
        http
          .get(`${server.baseUrl}?verb=Identify`, { agent }, (res) => {
            res.resume();
            res.on('end', () => resolve());
          })
          .on('error', reject);
      });
      await server.running.stop();
    } finally {
      agent.destroy();
    }
  });
});
