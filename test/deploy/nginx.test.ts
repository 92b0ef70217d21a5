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
 * not; compressed answers pass through untouched; /metrics is not found
 * through it, however it is spelled.
 */
import fs from 'node:fs';
import http from 'node:http';
import { expect } from 'chai';
import { freePort } from '../../harness/free-port';
import { httpRequest, type HttpAnswer } from '../../harness/http-request';
import { databaseKinds, openThrowawayDatabase, type ThrowawayDatabase } from '../helpers/db';
import { checkOai, resumption, texts } from '../helpers/server';
import { cli } from '../loader/helpers';
import { projectPath } from '../../server/paths';
import { HOST, PUBLIC, startNginx, startServe, stopServe, type Nginx, type Server } from './nginx-helpers';

/** The harvester's own address: another loopback address than the one nginx and the servers use, so the log can tell them apart. */
const CLIENT_ADDRESS = '127.0.0.2';
const PAGE_SIZE = 20;
const DEMO_ITEMS = 285;

for (const kind of databaseKinds()) {
  describe(`deploy/nginx in front of two oai-steward processes, on ${kind}`, function () {
    this.timeout(180_000);
    let db: ThrowawayDatabase;
    let nginx: Nginx | undefined;
    let nginxPort: number;
    const servers: Server[] = [];
    const agent = new http.Agent({ keepAlive: true, localAddress: CLIENT_ADDRESS } as http.AgentOptions);

    /** A request through nginx, as a harvester on the public name sends it. */
    const viaProxy = (query: string, headers: http.OutgoingHttpHeaders = {}, pathname = '/oai'): Promise<HttpAnswer> =>
      httpRequest({ port: nginxPort, path: query === '' ? pathname : `${pathname}?${query}`, headers: { Host: HOST, ...headers }, agent });

    before(async function () {
      db = await openThrowawayDatabase(kind);
      // The demo first, once: two processes starting on an empty store would both load it.
      const seeded = await cli(db, ['seed'], { env: { OAI_NAMESPACE: '' } });
      expect(seeded.code, seeded.stderr).to.equal(0);
      for (let i = 0; i < 2; i++) servers.push(await startServe(db, await freePort(), { OAI_PAGE_SIZE: String(PAGE_SIZE) }));
      nginxPort = await freePort();
      nginx = await startNginx(
        nginxPort,
        servers.map((s) => s.port),
      );
    });

    after(async function () {
      agent.destroy();
      await nginx?.stop();
      await Promise.all(servers.map((s) => stopServe(s, 'SIGTERM', 20_000)));
      await db?.close();
    });

    it('harvests a full ListRecords through it, the pages alternating between the two processes', async () => {
      const logged = nginx?.accessLog().length ?? 0;
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
        lines = (nginx?.accessLog() ?? []).slice(logged).filter((l) => l.includes('verb=ListRecords'));
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

    it('answers 404 for /metrics however it is asked, while each process serves it on its own port', async () => {
      for (const s of servers) expect((await httpRequest({ port: s.port, path: '/metrics' })).status, `/metrics on ${s.port}`).to.equal(200);
      for (const pathname of ['/metrics', '/metrics/', '/METRICS', '/Metrics/', '/%6detrics', '//metrics', '/metrics?name[]=oai_requests_total']) {
        const a = await httpRequest({ port: nginxPort, path: pathname, headers: { Host: HOST }, agent });
        expect(a.status, pathname).to.equal(404);
        expect(a.body, pathname).not.to.contain('oai_requests_total');
      }
    });
  });
}
