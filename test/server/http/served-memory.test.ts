/**
 * `serve` in a process of its own, holding 30 records with about containers
 * of 7.5 MB each (225 MB in all), harvested whole by six harvesters at once:
 * every page stays under the byte budget (`pageBytes`, 8 MiB by default), so
 * each serves one such record, and the server's peak resident set size
 * (VmHWM, read from /proc) stays bounded, where pages bounded only by count
 * once made one page of 236 MB and took a server with six harvesters past
 * 3 GB.
 */
import fs from 'node:fs';
import http from 'node:http';
import { expect } from 'chai';
import { freePort } from '../../../harness/free-port';
import { loadConfig } from '../../../server/config';
import { openProvider } from '../../../server/provider';
import { RIGHTS_NS } from '../../../lib/xml/namespaces';
import { item } from '../../helpers/store-fixtures';
import { DEMO_NAMESPACE } from '../../helpers/demo-records';
import { forEachCliDatabase, startCli } from '../../loader/helpers';

const MB = 1024 * 1024;
const RECORDS = 30;
const ABOUT_BYTES = 7.5 * MB;
/** The default byte budget of a ListRecords page (docs/protocol.md#page-size). */
const PAGE_BYTES = 8 * MB;
const HARVESTERS = 6;
/**
 * Peak RSS allowed the server: a quarter of the 3.1 GB six harvesters took
 * before pages had a byte budget. Measured about 500 MB on SQLite and 340 MB
 * on PostgreSQL: six pages of 7.5 MB rendered at once, each with the next
 * page prepared behind it (server/http/prefetch.ts), over a process of some
 * 110 MB.
 */
const SERVE_RSS_BOUND_KB = 768 * 1024;

/** A rights about container (OAI-PMH rights guidelines) of about `bytes` bytes. */
function bigRights(bytes: number): string {
  return `<rights xmlns="${RIGHTS_NS}"><rightsReference ref="https://example.org/licence/${'l'.repeat(bytes)}"></rightsReference></rights>`;
}

/** GETs a URL on 127.0.0.1 and returns its body's byte length and the resumption token it ends with (identity coding). */
function page(port: number, query: string): Promise<{ status: number; bytes: number; token: string | null; records: number }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: `/oai?${query}` }, (res) => {
        let bytes = 0;
        let records = 0;
        let tail = '';
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          const text = tail + c.toString('latin1');
          records += (text.match(/<record>/g) ?? []).length - (tail.match(/<record>/g) ?? []).length;
          tail = text.slice(-4096);
        });
        res.on('end', () => {
          const token = /<resumptionToken[^>]*>([^<]*)<\/resumptionToken>/.exec(tail)?.[1] ?? null;
          resolve({ status: res.statusCode ?? 0, bytes, token: token === '' ? null : token, records });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** One harvester following the list to its end; the bytes of each page. */
async function harvest(port: number): Promise<{ bodies: number[]; records: number }> {
  const bodies: number[] = [];
  let records = 0;
  let query = 'verb=ListRecords&metadataPrefix=oai_dc';
  for (let i = 0; i < 2 * RECORDS; i++) {
    const p = await page(port, query);
    expect(p.status).to.equal(200);
    bodies.push(p.bytes);
    records += p.records;
    if (p.token === null) return { bodies, records };
    query = `verb=ListRecords&resumptionToken=${encodeURIComponent(p.token)}`;
  }
  throw new Error('the list did not end');
}

/** The peak resident set size of a process, kilobytes (Linux /proc). */
function peakRssKb(pid: number): number {
  const m = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmHWM for process ${pid}`);
  return Number(m[1]);
}

describe('serve under six harvesters of records with 7.5 MB about containers', function () {
  forEachCliDatabase((db) => {
    it('keeps every page under its byte budget and its own peak memory bounded', async function () {
      // Six harvesters take 1.35 GB from the server between them: minutes on a busy two-core machine, more than
      // the two the store helper gives each test (its own describe's timeout overrides this file's).
      this.timeout(900_000);
      const env = { OAI_NAMESPACE: DEMO_NAMESPACE, OAI_SEED_DEMO: 'false' };
      const p = await openProvider(loadConfig({ DATABASE_URL: db().url, LOG_LEVEL: 'silent', ...env }));
      try {
        // A few at a time: the test holds no more than that of them.
        for (let i = 0; i < RECORDS; i += 3) {
          const batch = Array.from({ length: 3 }, (_, k) => item(`big-${String(i + k).padStart(2, '0')}`, { about: [{ xml: bigRights(ABOUT_BYTES) }] }));
          await p.store.writeItems(batch);
        }
      } finally {
        await p.close();
      }
      const port = await freePort();
      const server = startCli(db(), ['serve'], { env: { ...env, PORT: String(port), HOST: '127.0.0.1', OAI_CLIENT_MAX_IN_FLIGHT: '0' } });
      try {
        for (let i = 0; i < 600; i++) {
          const up = await new Promise<boolean>((resolve) =>
            http
              .get({ host: '127.0.0.1', port, path: '/healthz' }, (res) => {
                res.resume();
                resolve(res.statusCode === 200);
              })
              .on('error', () => resolve(false)),
          );
          if (up) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        const pid = server.child.pid as number;
        const before = peakRssKb(pid);
        const runs = await Promise.all(Array.from({ length: HARVESTERS }, () => harvest(port)));
        const after = peakRssKb(pid);
        for (const r of runs) {
          expect(r.records).to.equal(RECORDS);
          for (const bytes of r.bodies) expect(bytes).to.be.below(PAGE_BYTES);
        }
        expect(after, `peak RSS ${after} KB (${before} KB before the harvests)`).to.be.below(SERVE_RSS_BOUND_KB);
      } finally {
        server.child.kill('SIGTERM');
        await server.done;
      }
    });
  });
});
