/**
 * Stopping and restarting the servers behind the shipped nginx, as
 * docs/operations.md says, on each test database: a SIGTERM while a 17 MB
 * ListRecords page is still on its way lets the whole page reach the
 * harvester (the server stops only once it has left), and a rolling restart
 * of both processes in the middle of paged harvests gives no harvester a
 * 5xx, nor a record twice or never.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort } from '../../harness/free-port';
import { httpRequest } from '../../harness/http-request';
import { databaseKinds, openThrowawayDatabase, type ThrowawayDatabase } from '../helpers/db';
import { DEMO_NAMESPACE } from '../helpers/demo-records';
import { resumption, texts } from '../helpers/server';
import { cli } from '../loader/helpers';
import { HOST, startNginx, startServe, stopServe, type Nginx, type Server } from './nginx-helpers';

const ITEMS = 200;
/** Each record's description: 200 of them make a ListRecords page of oai_dc over 17 MB. */
const DESCRIPTION_BYTES = 88_000;
/** nginx's fail_timeout in the shipped site: a process it saw fail is left alone this long. */
const FAIL_TIMEOUT_MS = 10_000;

/** Words enough to fill a description, different for each record. */
function description(n: number): string {
  const words: string[] = [];
  let size = 0;
  for (let i = 0; size < DESCRIPTION_BYTES; i++) {
    const w = `word${(n * 7919 + i * 104729) % 100_003}`;
    words.push(w);
    size += w.length + 1;
  }
  return words.join(' ');
}

for (const kind of databaseKinds()) {
  describe(`restarting the servers behind deploy/nginx, on ${kind}`, function () {
    this.timeout(300_000);
    let db: ThrowawayDatabase;
    let dir: string;
    let nginx: Nginx | undefined;
    const servers: Server[] = [];

    /** Restarts the server at `i` on its port with `env` (its SIGTERM exit code returned), as `systemctl restart` does. */
    const restart = async (i: number, env: NodeJS.ProcessEnv): Promise<number | null> => {
      const old = servers[i] as Server;
      const code = await stopServe(old);
      servers[i] = await startServe(db, old.port, { OAI_NAMESPACE: DEMO_NAMESPACE, ...env });
      return code;
    };

    before(async function () {
      db = await openThrowawayDatabase(kind);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-restart-'));
      const file = path.join(dir, 'large.ndjson');
      const lines = Array.from({ length: ITEMS }, (_, n) =>
        JSON.stringify({ id: `large-${String(n).padStart(3, '0')}`, dc: { title: [`Large record ${n}`], description: [description(n)] } }),
      );
      fs.writeFileSync(file, `${lines.join('\n')}\n`);
      const loaded = await cli(db, ['load', file]);
      expect(loaded.code, loaded.stderr).to.equal(0);
      // One page of every record, past the default byte budget of a page (pageBytes): the whole 17 MB in flight.
      const env = { OAI_NAMESPACE: DEMO_NAMESPACE, OAI_PAGE_SIZE: String(ITEMS), OAI_PAGE_BYTES: String(64 * 1024 * 1024) };
      for (let i = 0; i < 2; i++) servers.push(await startServe(db, await freePort(), env));
      nginx = await startNginx(
        await freePort(),
        servers.map((s) => s.port),
      );
    });

    after(async function () {
      await nginx?.stop();
      await Promise.all(servers.map((s) => stopServe(s, 'SIGTERM', 20_000)));
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      await db?.close();
    });

    it('lets a 17 MB page still on its way reach the harvester whole when its server gets SIGTERM', async () => {
      const proxy = nginx as Nginx;
      const seen = servers.map((s) => s.lines.length);
      const agent = new http.Agent({ keepAlive: false });
      try {
        const answer = await new Promise<{ status: number; length: number; body: Buffer; server: Server; code: number | null }>((resolve, reject) => {
          const req = http.get(
            { host: '127.0.0.1', port: proxy.port, path: '/oai?verb=ListRecords&metadataPrefix=oai_dc', headers: { Host: HOST }, agent },
            (res) => {
              const chunks: Buffer[] = [];
              res.once('data', (first: Buffer) => {
                chunks.push(first);
                // The harvester stops reading: the rest of the page waits in the server's socket.
                res.pause();
                void (async () => {
                  // The server logs the request once it has ended its answer, every byte queued for the socket.
                  let server: Server | undefined;
                  for (let i = 0; i < 600 && !server; i++) {
                    server = servers.find((s, k) => s.lines.slice(seen[k]).some((l) => l.msg === 'oai request' && l.verb === 'ListRecords'));
                    if (!server) await new Promise((r) => setTimeout(r, 100));
                  }
                  if (!server) throw new Error('no server logged the ListRecords request');
                  const exited = stopServe(server);
                  // Read on only once the server has begun to stop.
                  for (let i = 0; i < 600 && !server.lines.some((l) => typeof l.msg === 'string' && l.msg.startsWith('shutting down')); i++)
                    await new Promise((r) => setTimeout(r, 50));
                  res.on('data', (c: Buffer) => chunks.push(c));
                  res.on('end', () => {
                    void exited.then((code) =>
                      resolve({
                        status: res.statusCode ?? 0,
                        length: Number(res.headers['content-length']),
                        body: Buffer.concat(chunks),
                        server: server,
                        code,
                      }),
                    );
                  });
                  res.on('error', reject);
                  res.resume();
                })().catch(reject);
              });
            },
          );
          req.on('error', reject);
        });
        expect(answer.status).to.equal(200);
        expect(answer.body.length).to.be.above(17_000_000);
        expect(answer.body.length, 'bytes received against Content-Length').to.equal(answer.length);
        const xml = answer.body.toString('utf8');
        expect(xml.trimEnd().endsWith('</OAI-PMH>')).to.equal(true);
        expect(texts(xml, 'identifier').filter((id) => id.startsWith('oai:'))).to.have.length(ITEMS);
        // The server stopped cleanly, after the page had left.
        expect(answer.code, answer.server.stderr()).to.equal(0);
        expect(answer.server.lines.some((l) => l.msg === 'stopping: every response in flight finished')).to.equal(true);
      } finally {
        agent.destroy();
      }
      // Back as it was, for the next test.
      const i = servers.findIndex((s) => s.child.exitCode !== null || s.child.signalCode !== null);
      if (i >= 0)
        servers[i] = await startServe(db, (servers[i] as Server).port, {
          OAI_NAMESPACE: DEMO_NAMESPACE,
          OAI_PAGE_SIZE: String(ITEMS),
          OAI_PAGE_BYTES: String(64 * 1024 * 1024),
        });
    });

    it('gives no harvester a 5xx, nor a record twice or never, while both servers restart one after the other', async () => {
      const proxy = nginx as Nginx;
      // Small pages from now on, so harvests are many requests long.
      const env = { OAI_PAGE_SIZE: '7' };
      const statuses: number[] = [];
      let restarted = false;
      const agent = new http.Agent({ keepAlive: true });
      /**
       * Full ListIdentifiers harvests through nginx, one after the other, until the restart is over and one more
       * has run; a polite harvester, a moment between requests (the bound on rounds is far above what the
       * restart takes at that pace).
       */
      const harvest = async (): Promise<number> => {
        let complete = 0;
        let finalRound = false;
        for (let round = 0; round < 5000; round++) {
          finalRound = restarted;
          const ids: string[] = [];
          let query = 'verb=ListIdentifiers&metadataPrefix=oai_dc';
          for (let page = 0; page < 100; page++) {
            await new Promise((r) => setTimeout(r, 20));
            const a = await httpRequest({ port: proxy.port, path: `/oai?${query}`, headers: { Host: HOST }, agent });
            statuses.push(a.status);
            expect(a.status, a.body.slice(0, 300)).to.be.below(500);
            expect(a.status).to.equal(200);
            ids.push(...texts(a.body, 'identifier'));
            const token = resumption(a.body)?.token;
            if (!token) break;
            query = `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token)}`;
          }
          expect(ids).to.have.length(ITEMS);
          expect(new Set(ids).size).to.equal(ITEMS);
          complete++;
          if (finalRound) break;
        }
        return complete;
      };
      /** The rolling restart of docs/operations.md: one process, wait until it answers and nginx trusts it again, then the other. */
      const roll = async (): Promise<(number | null)[]> => {
        const codes: (number | null)[] = [];
        for (let i = 0; i < servers.length; i++) {
          codes.push(await restart(i, env));
          const health = await httpRequest({ port: (servers[i] as Server).port, path: '/healthz' });
          expect(health.status).to.equal(200);
          await new Promise((r) => setTimeout(r, FAIL_TIMEOUT_MS + 1000));
        }
        restarted = true;
        return codes;
      };
      try {
        const [harvests, codes] = await Promise.all([harvest(), roll()]);
        expect(harvests).to.be.at.least(2);
        expect(codes).to.deep.equal([0, 0]);
        expect(statuses.filter((s) => s >= 500)).to.deep.equal([]);
        // Both new processes answered pages of the harvests.
        for (const s of servers)
          expect(
            s.lines.some((l) => l.msg === 'oai request'),
            `${s.port}: ${JSON.stringify(s.lines.slice(-5))} ${proxy.accessLog().slice(-20).join('\n')}`,
          ).to.equal(true);
      } finally {
        agent.destroy();
      }
    });
  });
}
