/**
 * deploy/nginx/oai-steward.conf, run for real: Debian's nginx (installed by
 * scripts/system-deps.sh when missing) started by the test as a process of
 * its own on an unprivileged port, with a temporary prefix and the site file
 * of deploy/ (only its ports changed), in front of two `oai-steward serve`
 * processes on one store, on each test database. A harvester harvests
 * through it: a full ListRecords whose pages alternate between the two
 * processes; the advertised baseURL, the resumption URLs and the pages'
 * links are the public ones, never a backend's; the client address the
 * proxy saw reaches the log (trustProxy), and a forged X-Forwarded-For does
 * not; compressed answers pass through untouched.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort } from '../../harness/free-port';
import { httpRequest, type HttpAnswer } from '../../harness/http-request';
import { databaseKinds, openThrowawayDatabase, type ThrowawayDatabase } from '../helpers/db';
import { checkOai, resumption, texts } from '../helpers/server';
import { cli } from '../loader/helpers';
import { projectPath } from '../../server/paths';

const NGINX = '/usr/sbin/nginx';
const PUBLIC = 'http://repository.example.edu/oai';
const HOST = 'repository.example.edu';
/** The harvester's own address: another loopback address than the one nginx and the servers use, so the log can tell them apart. */
const CLIENT_ADDRESS = '127.0.0.2';
const PAGE_SIZE = 20;
const DEMO_ITEMS = 285;

/** A child process whose standard output is JSON lines (pino), kept as they arrive. */
interface Server {
  readonly port: number;
  readonly child: ChildProcess;
  readonly lines: Record<string, unknown>[];
}

function startServe(db: ThrowawayDatabase, port: number): Promise<Server> {
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', projectPath('server', 'cli.ts'), 'serve'], {
    cwd: projectPath(),
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      OAI_BASE_URL: PUBLIC,
      OAI_TRUST_PROXY: 'loopback',
      OAI_PAGE_SIZE: String(PAGE_SIZE),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  let buffered = '';
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve on ${port} did not start: ${stderr}`)), 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve on ${port} exited ${String(code)}: ${stderr}`));
    });
    child.stdout?.on('data', (d: Buffer) => {
      buffered += d.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffered.slice(0, nl)) as Record<string, unknown>;
        buffered = buffered.slice(nl + 1);
        lines.push(line);
        if (line.msg === 'oai-steward serving') {
          clearTimeout(timer);
          child.removeAllListeners('exit');
          resolve({ port, child, lines });
        }
      }
    });
  });
}

/** Replaces `from` by `to` where it stands exactly `times` times in `text`, or fails: the test must follow the shipped file. */
function replaceExactly(text: string, from: string, to: string, times = 1): string {
  const found = text.split(from).length - 1;
  if (found !== times) throw new Error(`deploy/nginx/oai-steward.conf: expected ${JSON.stringify(from)} ${times} time(s), found ${found}`);
  return text.split(from).join(to);
}

/**
 * The site file of deploy/ with the test's ports (the two servers', and nginx's on the loopback
 * address only), wrapped in a main configuration for a temporary prefix.
 */
function nginxConfig(dir: string, listen: number, backends: readonly number[]): string {
  let site = fs.readFileSync(projectPath('deploy', 'nginx', 'oai-steward.conf'), 'utf8');
  site = replaceExactly(site, 'server 127.0.0.1:3001 ', `server 127.0.0.1:${backends[0]} `);
  site = replaceExactly(site, 'server 127.0.0.1:3002 ', `server 127.0.0.1:${backends[1]} `);
  site = replaceExactly(site, '    listen 80;\n', `    listen 127.0.0.1:${listen};\n`);
  site = replaceExactly(site, '    listen [::]:80;\n', '');
  fs.writeFileSync(path.join(dir, 'oai-steward.conf'), site);
  return [
    // As root, nginx's workers would switch to nobody, who cannot write the temporary prefix.
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'worker_processes 1;',
    'daemon off;',
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log warn;`,
    'events { worker_connections 256; }',
    'http {',
    "  log_format upstream '$request_uri $upstream_addr $status';",
    `  access_log ${dir}/access.log upstream;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};`),
    `  include ${dir}/oai-steward.conf;`,
    '}',
    '',
  ].join('\n');
}

/** Installs Debian's nginx the way the suite installs its other programs, when it is missing. */
function ensureNginx(): void {
  if (fs.existsSync(NGINX)) return;
  execFileSync('sh', [projectPath('scripts', 'system-deps.sh')], { stdio: 'inherit' });
  if (!fs.existsSync(NGINX)) throw new Error(`${NGINX} is still missing after scripts/system-deps.sh`);
}

async function waitForPort(port: number, log: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      await httpRequest({ port, path: '/healthz', timeoutMs: 1000 });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`nginx did not answer on ${port}: ${fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''}`);
}

for (const kind of databaseKinds()) {
  describe(`deploy/nginx in front of two oai-steward processes, on ${kind}`, function () {
    this.timeout(180_000);
    let db: ThrowawayDatabase;
    let dir: string;
    let nginx: ChildProcess | undefined;
    let nginxPort: number;
    const servers: Server[] = [];
    const agent = new http.Agent({ keepAlive: true, localAddress: CLIENT_ADDRESS } as http.AgentOptions);

    /** A request through nginx, as a harvester on the public name sends it. */
    const viaProxy = (query: string, headers: http.OutgoingHttpHeaders = {}, pathname = '/oai'): Promise<HttpAnswer> =>
      httpRequest({ port: nginxPort, path: query === '' ? pathname : `${pathname}?${query}`, headers: { Host: HOST, ...headers }, agent });

    before(async function () {
      ensureNginx();
      db = await openThrowawayDatabase(kind);
      // The demo first, once: two processes starting on an empty store would both load it.
      const seeded = await cli(db, ['seed'], { env: { OAI_NAMESPACE: '' } });
      expect(seeded.code, seeded.stderr).to.equal(0);
      for (let i = 0; i < 2; i++) servers.push(await startServe(db, await freePort()));
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-nginx-'));
      nginxPort = await freePort();
      fs.writeFileSync(
        path.join(dir, 'nginx.conf'),
        nginxConfig(
          dir,
          nginxPort,
          servers.map((s) => s.port),
        ),
      );
      execFileSync(NGINX, ['-t', '-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], { stdio: 'pipe' });
      nginx = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], { stdio: 'ignore' });
      await waitForPort(nginxPort, path.join(dir, 'error.log'));
    });

    after(async function () {
      agent.destroy();
      const exits = [nginx, ...servers.map((s) => s.child)]
        .filter((c): c is ChildProcess => c !== undefined && c.exitCode === null)
        .map(
          (c) =>
            new Promise<void>((resolve) => {
              const force = setTimeout(() => c.kill('SIGKILL'), 20_000);
              c.once('exit', () => {
                clearTimeout(force);
                resolve();
              });
              c.kill(c === nginx ? 'SIGQUIT' : 'SIGTERM');
            }),
        );
      await Promise.all(exits);
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      await db?.close();
    });

    it('harvests a full ListRecords through it, the pages alternating between the two processes', async () => {
      const accessLog = path.join(dir, 'access.log');
      const logged = fs.existsSync(accessLog) ? fs.readFileSync(accessLog, 'utf8').split('\n').length - 1 : 0;
      const ids: string[] = [];
      let query = 'verb=ListRecords&metadataPrefix=oai_dc';
      let pages = 0;
      for (; pages < 100; pages++) {
        const xml = checkOai(await viaProxy(query));
        ids.push(...texts(xml, 'identifier').filter((id) => id.startsWith('oai:')));
        const token = resumption(xml)?.token;
        if (!token) break;
        query = `verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
      }
      expect(pages + 1).to.equal(Math.ceil(DEMO_ITEMS / PAGE_SIZE));
      // Every header once (oai_dc's dc:identifier values are not oai-identifiers, but a record's header identifier is).
      expect(new Set(ids).size).to.equal(DEMO_ITEMS);
      // nginx writes its access log line when a request ends.
      let lines: string[] = [];
      for (let i = 0; i < 50; i++) {
        lines = fs
          .readFileSync(accessLog, 'utf8')
          .split('\n')
          .slice(logged)
          .filter((l) => l.includes('verb=ListRecords'));
        if (lines.length >= pages + 1) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const upstreams = lines.map((l) => l.split(' ')[1]);
      expect(upstreams).to.have.length(pages + 1);
      expect(new Set(upstreams)).to.deep.equal(new Set(servers.map((s) => `127.0.0.1:${s.port}`)));
      const switches = upstreams.filter((u, i) => i > 0 && u !== upstreams[i - 1]).length;
      expect(switches, `pages served by ${upstreams.join(' ')}`).to.be.at.least(Math.floor(pages / 2));
      // Each process continued tokens the other issued.
      for (const s of servers) {
        const continued = s.lines.filter((l) => l.msg === 'oai request' && (l.args as Record<string, string> | undefined)?.resumptionToken !== undefined);
        expect(continued.length, `tokens continued by the server on ${s.port}`).to.be.at.least(1);
      }
    });

    it('advertises the public baseURL in Identify and in every request element, never a backend', async () => {
      const identify = checkOai(await viaProxy('verb=Identify'));
      expect(texts(identify, 'baseURL')).to.deep.equal([PUBLIC]);
      expect(texts(identify, 'request')).to.deep.equal([PUBLIC]);
      const list = checkOai(await viaProxy('verb=ListIdentifiers&metadataPrefix=oai_dc', { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' }));
      expect(texts(list, 'request')).to.deep.equal([PUBLIC]);
      for (const s of servers) expect(list).not.to.contain(String(s.port));
    });

    it('gives pages whose links, resumption links and Signposting are the public ones', async () => {
      const browser = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
      const home = await viaProxy('', browser);
      expect(home.status).to.equal(200);
      expect(home.headers['content-type']).to.equal('text/html; charset=utf-8');
      const list = await viaProxy('verb=ListRecords&metadataPrefix=oai_dc', browser);
      const record = await viaProxy('verb=GetRecord&metadataPrefix=oai_dc&identifier=oai%3Ademo.oai-steward.org%3Adata-2024-0001', browser);
      expect(list.body).to.match(/href="\/oai\?verb=ListRecords&amp;resumptionToken=[^"]+"/);
      for (const page of [home, list, record]) {
        const hrefs = [...page.body.matchAll(/(?:href|action)="([^"]*)"/g)].map((m) => m[1] as string);
        expect(hrefs.length).to.be.above(0);
        for (const href of hrefs) expect(href).not.to.match(/^https?:\/\/(127\.|localhost|\[::1\])/);
        for (const s of servers) expect(page.body).not.to.contain(`:${s.port}`);
        expect(page.body).not.to.contain('localhost');
      }
      const link = String(record.headers.link);
      const targets = [...link.matchAll(/<([^>]+)>/g)]
        .map((m) => m[1] as string)
        .filter((u) => u.includes('repository.example.edu') || u.includes('127.0.0.1'));
      expect(targets.length, link).to.be.above(0);
      for (const u of targets) expect(u).to.match(/^http:\/\/repository\.example\.edu\//);
    });

    it('logs the address the proxy saw, not the proxy and not a forged X-Forwarded-For', async () => {
      const identifier = 'oai:demo.oai-steward.org:rep-2024-0002';
      checkOai(await viaProxy(`verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(identifier)}`, { 'X-Forwarded-For': '203.0.113.9' }));
      let line: Record<string, unknown> | undefined;
      for (let i = 0; i < 50 && !line; i++) {
        line = servers
          .flatMap((s) => s.lines)
          .find((l) => l.msg === 'oai request' && (l.args as Record<string, string> | undefined)?.identifier === identifier);
        if (!line) await new Promise((r) => setTimeout(r, 100));
      }
      expect(line?.client).to.equal(CLIENT_ADDRESS);
    });

    it('passes compressed answers through untouched', async () => {
      const plain = await viaProxy('verb=ListSets');
      const gzip = await viaProxy('verb=ListSets', { 'Accept-Encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).to.equal('gzip');
      expect(gzip.wireBytes).to.be.below(Buffer.byteLength(gzip.body));
      checkOai(gzip as never);
      const undated = (xml: string): string => xml.replace(/<responseDate>[^<]*<\/responseDate>/, '');
      expect(undated(gzip.body)).to.equal(undated(plain.body));
    });

    it('streams long lists: the shipped site turns proxy buffering off where it proxies', () => {
      const site = fs.readFileSync(projectPath('deploy', 'nginx', 'oai-steward.conf'), 'utf8');
      const active = site
        .split('\n')
        .filter((l) => !l.trim().startsWith('#'))
        .join('\n');
      expect(active).to.match(/location \/ \{[^}]*proxy_buffering off;[^}]*\}/);
      expect(active).to.match(/proxy_set_header X-Forwarded-Proto \$scheme;/);
    });
  });
}
