/**
 * The soak's clients: one request with its reply timed and its code checked,
 * a whole harvest following tokens, a harvester of many harvests, a GetRecord
 * client (./soak.ts runs them in phases).
 */
import http from 'node:http';
import { httpRequest } from '../harness/http-request';
import { BENCH_SETS } from './generate';
import { Figures } from './soak';

interface Reply {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

function get(agent: http.Agent, url: URL, gzip: boolean): Promise<Reply> {
  return httpRequest({
    host: url.hostname,
    port: Number(url.port),
    path: `${url.pathname}${url.search}`,
    agent,
    headers: gzip ? { 'Accept-Encoding': 'gzip' } : {},
    timeoutMs: 60_000,
  });
}

/** The OAI error codes a well-behaved client can get from this traffic. */
const EXPECTED_CODES = new Set(['idDoesNotExist', 'noRecordsMatch']);

/**
 * Sends one request, timing it and classifying the answer. Returns the body
 * of a complete OAI-PMH answer, or null after recording an error (503s are
 * waited out as their Retry-After says, and counted apart).
 */
async function call(f: Figures, agent: http.Agent, base: string, query: string, gzip: boolean, stop: () => boolean): Promise<string | null> {
  for (;;) {
    const t = process.hrtime.bigint();
    let r: Reply;
    try {
      r = await get(agent, new URL(`${base}?${query}`), gzip);
    } catch (err) {
      f.request(Number(process.hrtime.bigint() - t) / 1e6);
      f.error(`network: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, query);
      return null;
    }
    f.request(Number(process.hrtime.bigint() - t) / 1e6);
    if ((r.status === 503 || r.status === 429) && r.headers['retry-after'] !== undefined && !stop()) {
      // Load shedding and per-client limits as designed: counted, waited out, retried.
      f.retriesRefused++;
      await sleep(Math.min(10, Number(r.headers['retry-after'])) * 1000);
      continue;
    }
    if (r.status !== 200) {
      f.error(`HTTP ${r.status}`, `${query} → ${r.body}`);
      return null;
    }
    if (!r.body.startsWith('<?xml') || !r.body.trimEnd().endsWith('</OAI-PMH>')) {
      f.error('incomplete document', `${query} → ${r.body.slice(-200)}`);
      return null;
    }
    for (const m of r.body.matchAll(/<error code="([^"]+)"/g)) {
      if (!EXPECTED_CODES.has(m[1] as string)) {
        f.error(`OAI error ${m[1]}`, `${query} → ${r.body.slice(0, 600)}`);
        return null;
      }
    }
    return r.body;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function tokenOf(body: string): { token: string; size: number | undefined } | null {
  const m = /<resumptionToken([^>]*)>([^<]+)<\/resumptionToken>/.exec(body);
  if (!m) return null;
  const size = /completeListSize="(\d+)"/.exec(m[1] as string);
  return { token: (m[2] as string).replace(/&amp;/g, '&'), size: size ? Number(size[1]) : undefined };
}

function pick<T>(a: readonly T[]): T {
  return a[Math.floor(Math.random() * a.length)] as T;
}

/** One full list harvest; checks that it returns as many items as announced. */
export async function harvest(
  f: Figures,
  agent: http.Agent,
  base: string,
  first: string,
  gzip: boolean,
  stop: () => boolean,
  collect?: string[],
): Promise<void> {
  let query = first;
  let seen = 0;
  let announced: number | undefined;
  for (;;) {
    const body = await call(f, agent, base, query, gzip, stop);
    if (body === null) return;
    const ids = [...body.matchAll(/<identifier>([^<]*)<\/identifier>/g)].map((m) => m[1] as string);
    seen += body.includes('<error code="noRecordsMatch"') ? 0 : ids.length;
    if (collect) for (const id of ids) collect.push(id.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
    const t = tokenOf(body);
    if (t?.size !== undefined) announced ??= t.size;
    if (!t) break;
    if (stop() && !collect) return;
    query = `verb=${first.startsWith('verb=ListRecords') ? 'ListRecords' : 'ListIdentifiers'}&resumptionToken=${encodeURIComponent(t.token)}`;
  }
  f.harvests++;
  if (announced !== undefined && seen !== announced) f.error('harvest count differs from completeListSize', `${first}: ${seen} ≠ ${announced}`);
}

/**
 * Where client `n` connects from: a loopback address of its own
 * (127.0.1.n), so the server sees each well-behaved client as the host it
 * would be, and limits each on its own.
 */
function clientAddress(n: number): string {
  return `127.0.1.${1 + (n % 250)}`;
}

export async function harvester(f: Figures, base: string, gzip: boolean, stop: () => boolean, n: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: clientAddress(n) });
  const sets = BENCH_SETS.map((s) => s.spec);
  while (!stop()) {
    const verb = Math.random() < 0.5 ? 'ListRecords' : 'ListIdentifiers';
    let q = `verb=${verb}&metadataPrefix=oai_dc`;
    if (Math.random() < 0.5) q += `&set=${encodeURIComponent(pick(sets))}`;
    if (Math.random() < 0.3) q += `&from=${2015 + Math.floor(Math.random() * 10)}-01-01`;
    await harvest(f, agent, base, q, gzip, stop);
  }
  agent.destroy();
}

export async function getRecordClient(f: Figures, base: string, ids: readonly string[], gzip: boolean, stop: () => boolean, n: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: clientAddress(n) });
  while (!stop()) {
    const id = Math.random() < 0.02 ? 'oai:soak.example.org:no-such-item' : pick(ids);
    await call(f, agent, base, `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(id)}`, gzip, stop);
  }
  agent.destroy();
}
