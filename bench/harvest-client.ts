/**
 * The benchmark's harvester, run as its own process so that its CPU time is
 * not charged to the server. `bench.ts` starts it with the path of
 * a JSON file naming the task; it prints progress on stderr and, last, one JSON
 * line with the result on stdout.
 *
 * Tasks:
 * - `harvest`: a full ListRecords harvest (oai_dc unless `prefix` says
 *   otherwise), then a full ListIdentifiers harvest, one request at a time
 *   over one keep-alive connection, as a harvester does; then the first,
 *   middle and last page again `repeats` times each (with the resumption
 *   tokens captured during the harvest, or with `pageTokens` built from the
 *   store when `maxPages` stops the harvest early);
 *   then `spreadPages` pages on fresh connections, noting the `X-Served-By`
 *   header (set by bench/cluster.ts) to show which processes served them.
 *   With `listsOnly`, only the two list harvests (for the replay ceiling and
 *   the harvest without metrics); with `capture`, one full page reached by a
 *   token and the last page of each list are written to that folder, for
 *   bench/replay.ts to serve. With `maxPages`, every list stops after that
 *   many pages (a sample of a large store's harvest).
 * - `lists`: a ListRecords harvest in each of `prefixes`, one after the
 *   other, captured like `harvest`'s for the replay ceiling of each format.
 * - `concurrent`: `harvesters` full ListRecords harvests at once, each over
 *   its own keep-alive connection; the aggregate is records over wall time.
 * - `getrecord`: GetRecord over random real identifiers under autocannon.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { httpRequest } from '../harness/http-request';
import { median } from './figures';
import { progress } from './progress';

/** What bench.ts asks of the client. */
export type ClientTask =
  | {
      readonly task: 'harvest';
      readonly baseUrl: string;
      readonly repeats: number;
      readonly gzip: boolean;
      readonly spreadPages: number;
      readonly sample: number;
      readonly listsOnly?: boolean;
      readonly capture?: string;
      /**
       * For a provider whose lists carry no completeListSize (the pyoai peer):
       * the number of items each list must return.
       */
      readonly expectItems?: number;
      /** metadataPrefix of the harvests (default oai_dc). */
      readonly prefix?: string;
      /** Stop each list after this many pages. */
      readonly maxPages?: number;
      /** Tokens of the middle and last ListRecords pages, for a harvest `maxPages` stops before it reaches them. */
      readonly pageTokens?: { readonly middle: string; readonly last: string };
    }
  | {
      readonly task: 'lists';
      readonly baseUrl: string;
      readonly prefixes: readonly string[];
      readonly gzip: boolean;
      readonly maxPages?: number;
      readonly capture?: string;
    }
  | {
      readonly task: 'concurrent';
      readonly baseUrl: string;
      /** The servers the harvests are spread over, harvest i on `baseUrls[i mod n]`; default `[baseUrl]`. */
      readonly baseUrls?: readonly string[];
      readonly harvesters: number;
      readonly gzip: boolean;
      readonly maxPages?: number;
    }
  | { readonly task: 'getrecord'; readonly baseUrl: string; readonly identifiers: readonly string[]; readonly connections: number; readonly duration: number }
  | { readonly task: 'count'; readonly baseUrl: string; readonly prefixes: readonly string[]; readonly maxPages?: number };

/** One full list harvest. */
export interface HarvestFigures {
  readonly verb: string;
  readonly items: number;
  readonly deleted: number;
  readonly pages: number;
  readonly completeListSize: number;
  readonly seconds: number;
  /** Bytes received on the wire (compressed when gzip was asked for). */
  readonly bytes: number;
}

/** What the `harvest` task prints. */
export interface HarvestResult {
  readonly listRecords: HarvestFigures;
  readonly listIdentifiers: HarvestFigures;
  /** Median milliseconds of the first, middle and last ListRecords page. */
  readonly pageMs: { readonly first: number; readonly middle: number; readonly last: number };
  /** Distinct X-Served-By values over the spread check (empty when the server sets none). */
  readonly servedBy: readonly string[];
  /** A random sample of live identifiers, for GetRecord. */
  readonly identifiers: readonly string[];
}

/** What the `concurrent` task prints. */
export interface ConcurrentResult {
  readonly harvesters: number;
  /** Records over all harvests. */
  readonly items: number;
  /** Wall time from the first request to the end of the last harvest. */
  readonly seconds: number;
  readonly bytes: number;
  /** CPU seconds (user + system) this client process used over the harvests. */
  readonly clientCpuSeconds: number;
}

/** What the `lists` task prints: each format's ListRecords harvest. */
export type ListsResult = Readonly<Record<string, HarvestFigures>>;

/**
 * The pages `capture` writes, per list (verb and metadataPrefix): one full
 * page reached by a token (absent for a one-page list) and the last (with
 * `maxPages`, the last page read).
 */
export interface CapturedPages {
  readonly verb: string;
  readonly prefix: string;
  readonly pages: number;
  readonly full: string | undefined;
  readonly last: string;
}

/** What the `getrecord` task prints. */
export interface GetRecordResult {
  readonly requests: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  readonly non2xx: number;
}

interface Reply {
  readonly status: number;
  readonly body: string;
  readonly bytes: number;
  readonly servedBy: string | undefined;
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** GETs a URL, reading the whole body; gzip bodies are counted compressed and inflated for parsing. */
async function get(url: string, options: { gzip: boolean; fresh?: boolean; agent?: http.Agent }): Promise<Reply> {
  const u = new URL(url);
  const a = await httpRequest({
    host: u.hostname,
    port: Number(u.port),
    path: `${u.pathname}${u.search}`,
    agent: options.fresh ? false : (options.agent ?? keepAlive),
    headers: options.gzip ? { 'Accept-Encoding': 'gzip' } : {},
  });
  const servedBy = a.headers['x-served-by'];
  return { status: a.status, body: a.body, bytes: a.wireBytes, servedBy: typeof servedBy === 'string' ? servedBy : undefined };
}

const TOKEN_RE = /<resumptionToken([^>]*)>([^<]*)<\/resumptionToken>/;
const SIZE_RE = /completeListSize="(\d+)"/;
// Whitespace between the tags is allowed: the pyoai peer pretty-prints.
const ID_RE = /<header( status="deleted")?>\s*<identifier>([^<]*)<\/identifier>/g;

function unescapeXml(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos);/g, (_m, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e] as string);
}

/**
 * Harvests a whole list, following resumption tokens to the end, and checks
 * that it is whole: HTTP 200 and no OAI error on every page, and as many
 * items as completeListSize announced. With `maxPages` it stops after that
 * many pages, and then checks only that no more items came than announced.
 */
async function harvest(
  baseUrl: string,
  verb: 'ListRecords' | 'ListIdentifiers',
  prefix: string,
  gzip: boolean,
  onPage: (body: string, token: string | undefined, page: number) => void,
  options: { agent?: http.Agent; quiet?: boolean; expectItems?: number; maxPages?: number } = {},
): Promise<HarvestFigures> {
  const shown = progress();
  const started = process.hrtime.bigint();
  let url = `${baseUrl}?verb=${verb}&metadataPrefix=${encodeURIComponent(prefix)}`;
  let stopped = false;
  const name = prefix === 'oai_dc' ? verb : `${verb} ${prefix}`;
  let items = 0;
  let deleted = 0;
  let pages = 0;
  let bytes = 0;
  let completeListSize = 0;
  for (;;) {
    const reply = await get(url, { gzip, ...(options.agent && { agent: options.agent }) });
    if (reply.status !== 200) throw new Error(`${verb} page ${pages + 1}: HTTP ${reply.status}`);
    if (reply.body.includes('<error code=')) throw new Error(`${verb} page ${pages + 1}: ${reply.body.slice(0, 500)}`);
    pages++;
    bytes += reply.bytes;
    for (const m of reply.body.matchAll(ID_RE)) {
      items++;
      if (m[1]) deleted++;
    }
    const t = TOKEN_RE.exec(reply.body);
    const size = t ? SIZE_RE.exec(t[1] ?? '') : null;
    if (size) completeListSize = Number(size[1]);
    const token = t && t[2] ? unescapeXml(t[2]) : undefined;
    stopped = token !== undefined && pages === options.maxPages;
    onPage(reply.body, stopped ? undefined : token, pages);
    if (pages % 100 === 0 && !options.quiet) shown.update(`  ${name}: ${items} items`);
    if (!token || stopped) break;
    url = `${baseUrl}?verb=${verb}&resumptionToken=${encodeURIComponent(token)}`;
  }
  if (!options.quiet) shown.done(`  ${name}: ${items} items, ${pages} pages${stopped ? ` (stopped at ${pages})` : ''}`);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (stopped) {
    if (items > completeListSize) throw new Error(`${verb}: harvested ${items} items in ${pages} pages but completeListSize was ${completeListSize}`);
    return { verb, items, deleted, pages, completeListSize, seconds, bytes };
  }
  if (pages === 1) completeListSize = items;
  if (completeListSize === 0 && options.expectItems !== undefined) {
    if (items !== options.expectItems) throw new Error(`${verb}: harvested ${items} items, not the ${options.expectItems} expected`);
    completeListSize = items;
  }
  if (items !== completeListSize) throw new Error(`${verb}: harvested ${items} items but completeListSize was ${completeListSize}`);
  return { verb, items, deleted, pages, completeListSize, seconds, bytes };
}

async function timePage(url: string, repeats: number, gzip: boolean): Promise<number> {
  await get(url, { gzip }); // warm: the first request after a long harvest should not count
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t = process.hrtime.bigint();
    const r = await get(url, { gzip });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (r.status !== 200 || r.body.includes('<error code=')) throw new Error(`page timing: ${r.status} ${r.body.slice(0, 300)}`);
  }
  return median(times);
}

async function runHarvest(t: Extract<ClientTask, { task: 'harvest' }>): Promise<HarvestResult> {
  const prefix = t.prefix ?? 'oai_dc';
  // The URL of every ListRecords page, in order: page 1 has no token.
  const pageUrls: string[] = [`${t.baseUrl}?verb=ListRecords&metadataPrefix=${encodeURIComponent(prefix)}`];
  const captureRecords = capturer(t.capture, 'ListRecords', prefix);
  const expect = { ...(t.expectItems !== undefined && { expectItems: t.expectItems }), ...(t.maxPages !== undefined && { maxPages: t.maxPages }) };
  const listRecords = await harvest(
    t.baseUrl,
    'ListRecords',
    prefix,
    t.gzip,
    (body, token, page) => {
      captureRecords(body, token, page);
      if (token) pageUrls.push(`${t.baseUrl}?verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`);
    },
    expect,
  );
  // Reservoir sample of live identifiers, from the ListIdentifiers harvest.
  const sample: string[] = [];
  let seen = 0;
  const captureIdentifiers = capturer(t.capture, 'ListIdentifiers', prefix);
  const listIdentifiers = await harvest(
    t.baseUrl,
    'ListIdentifiers',
    prefix,
    t.gzip,
    (body, token, page) => {
      captureIdentifiers(body, token, page);
      if (t.listsOnly) return;
      for (const m of body.matchAll(ID_RE)) {
        if (m[1]) continue;
        const id = unescapeXml(m[2] ?? '');
        seen++;
        if (sample.length < t.sample) sample.push(id);
        else {
          const j = Math.floor(Math.random() * seen);
          if (j < t.sample) sample[j] = id;
        }
      }
    },
    expect,
  );
  if (t.listsOnly) return { listRecords, listIdentifiers, pageMs: { first: 0, middle: 0, last: 0 }, servedBy: [], identifiers: [] };
  const at = (i: number): string => pageUrls[Math.max(0, Math.min(pageUrls.length - 1, i))] as string;
  const byToken = (token: string): string => `${t.baseUrl}?verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
  const pageMs = {
    first: await timePage(at(0), t.repeats, t.gzip),
    middle: await timePage(t.pageTokens ? byToken(t.pageTokens.middle) : at(Math.floor(pageUrls.length / 2)), t.repeats, t.gzip),
    last: await timePage(t.pageTokens ? byToken(t.pageTokens.last) : at(pageUrls.length - 1), t.repeats, t.gzip),
  };
  // Fresh connections, so that the cluster's round-robin can hand each page to another process.
  const servedBy = new Set<string>();
  for (let i = 0; i < Math.min(t.spreadPages, pageUrls.length); i++) {
    const r = await get(at(i), { gzip: t.gzip, fresh: true });
    if (r.servedBy) servedBy.add(r.servedBy);
  }
  return { listRecords, listIdentifiers, pageMs, servedBy: [...servedBy].sort(), identifiers: sample };
}

/**
 * Writes the pages bench/replay.ts serves: the second page (a full page
 * reached by a token, as nearly every page of a harvest is; the first when
 * the list has only two) and the last one read (called with no token),
 * as received, and then `<verb>-<prefix>.json` saying how many pages the list had.
 */
function capturer(dir: string | undefined, verb: string, prefix: string): (body: string, token: string | undefined, page: number) => void {
  if (!dir) return () => {};
  let full: string | undefined;
  const name = `${verb}-${prefix}`;
  return (body, token, page) => {
    // Page 2 when it is full; page 1 stands in for a list of two pages.
    if (token && page <= 2) fs.writeFileSync((full = path.join(dir, `${name}-full.xml`)), body);
    if (token) return;
    const last = path.join(dir, `${name}-last.xml`);
    fs.writeFileSync(last, body);
    const captured: CapturedPages = { verb, prefix, pages: page, full, last };
    fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(captured));
  };
}

async function runLists(t: Extract<ClientTask, { task: 'lists' }>): Promise<ListsResult> {
  const out: Record<string, HarvestFigures> = {};
  for (const prefix of t.prefixes) {
    out[prefix] = await harvest(
      t.baseUrl,
      'ListRecords',
      prefix,
      t.gzip,
      capturer(t.capture, 'ListRecords', prefix),
      t.maxPages === undefined ? {} : { maxPages: t.maxPages },
    );
  }
  return out;
}

async function runConcurrent(t: Extract<ClientTask, { task: 'concurrent' }>): Promise<ConcurrentResult> {
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const runs = await Promise.all(
    Array.from({ length: t.harvesters }, (_, i) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const urls = t.baseUrls ?? [t.baseUrl];
      return harvest(urls[i % urls.length] as string, 'ListRecords', 'oai_dc', t.gzip, () => {}, {
        agent,
        quiet: true,
        ...(t.maxPages !== undefined && { maxPages: t.maxPages }),
      }).finally(() => agent.destroy());
    }),
  );
  return {
    harvesters: t.harvesters,
    items: runs.reduce((n, r) => n + r.items, 0),
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    bytes: runs.reduce((n, r) => n + r.bytes, 0),
    clientCpuSeconds: cpuOf(process.cpuUsage(cpu)),
  };
}

const cpuOf = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1e6;

interface AutocannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
}
type AutocannonRequest = { method: string; path: string };
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  requests: { setupRequest: (req: AutocannonRequest) => AutocannonRequest }[];
}) => Promise<AutocannonResult>;

async function runGetRecord(t: Extract<ClientTask, { task: 'getrecord' }>): Promise<GetRecordResult> {
  // autocannon ships no types; the shape used here is documented in its README.
  const autocannon = require('autocannon') as Autocannon;
  if (t.identifiers.length === 0) throw new Error('no identifiers to ask for');
  const path = new URL(t.baseUrl).pathname;
  const paths = t.identifiers.map((id) => `${path}?verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(id)}`);
  const result = await autocannon({
    url: t.baseUrl,
    connections: t.connections,
    duration: t.duration,
    requests: [{ setupRequest: (req) => ({ ...req, method: 'GET', path: paths[Math.floor(Math.random() * paths.length)] as string }) }],
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/**
 * The `count` task: the least a harvester can do. One keep-alive connection,
 * identity coding, each body kept as bytes; the records are counted by
 * searching for `<record>` and the token is cut out of the bytes, never
 * parsed as XML. So against the server and against the replay of its pages
 * the client's own share is as small as it can be, and the ratio of the two
 * rates is the server's (the parsing harvester above lowers both).
 */
async function runCount(t: Extract<ClientTask, { task: 'count' }>): Promise<ListsResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const RECORD = Buffer.from('<record>');
  const TOKEN = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/;
  const out: Record<string, HarvestFigures> = {};
  try {
    for (const prefix of t.prefixes) {
      const started = process.hrtime.bigint();
      let [items, pages, bytes] = [0, 0, 0];
      let query = `verb=ListRecords&metadataPrefix=${encodeURIComponent(prefix)}`;
      for (;;) {
        const body = await rawGet(`${t.baseUrl}?${query}`, agent);
        pages++;
        bytes += body.length;
        for (let at = body.indexOf(RECORD); at >= 0; at = body.indexOf(RECORD, at + RECORD.length)) items++;
        // The token is in the page's last few hundred bytes.
        const token = TOKEN.exec(body.subarray(Math.max(0, body.length - 2048)).toString('latin1'))?.[1];
        if (token === undefined || (t.maxPages !== undefined && pages >= t.maxPages)) break;
        query = `verb=ListRecords&resumptionToken=${encodeURIComponent(unescapeXmlText(token))}`;
      }
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      out[prefix] = { verb: 'ListRecords', items, deleted: 0, pages, completeListSize: 0, seconds, bytes };
    }
  } finally {
    agent.destroy();
  }
  return out;
}

/** A 200 answer's body as bytes, over the given agent; any other status is an error. */
function rawGet(url: string, agent: http.Agent): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`${url}: HTTP ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** The five predefined entities of XML 1.0, the only escapes a token's text holds here. */
function unescapeXmlText(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e] as string);
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('usage: harvest-client <task.json>');
  const task = JSON.parse(fs.readFileSync(file, 'utf8')) as ClientTask;
  const result =
    task.task === 'harvest'
      ? await runHarvest(task)
      : task.task === 'lists'
        ? await runLists(task)
        : task.task === 'concurrent'
          ? await runConcurrent(task)
          : task.task === 'count'
            ? await runCount(task)
            : await runGetRecord(task);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`harvest-client: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
}
