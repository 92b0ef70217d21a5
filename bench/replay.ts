/**
 * The replay ceiling of the benchmark: a minimal node:http server that
 * answers a list harvest with pages this provider really served, captured
 * by the harvester (bench/harvest-client.ts, `capture`), for every list
 * (verb and metadataPrefix) captured in its folder. Page k of a list is the
 * captured full page with its resumptionToken replaced by `r<k>:<prefix>`,
 * and the captured last page ends the list, so the same harvester, following
 * the same tokens, gets the same number of pages, records and bytes as from
 * the real server, from a server that does nothing but send them. What the
 * real server reaches of this rate is what its own work costs.
 *
 *   node dist/bench/replay.js <captured-folder> <port>
 *
 * Prints `listening <port>` on stdout once it accepts connections.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { CapturedPages } from './harvest-client';

interface ReplayList {
  readonly pages: number;
  /** The full page split around its token: `[before, after]`; absent for a one-page list. */
  readonly full: readonly [Buffer, Buffer] | undefined;
  readonly last: Buffer;
}

const TOKEN_RE = /(<resumptionToken[^>]*>)([^<]+)(<\/resumptionToken>)/;

/** Every list captured in `dir`, by `<verb> <metadataPrefix>`. */
function readLists(dir: string): Map<string, ReplayList> {
  const lists = new Map<string, ReplayList>();
  for (const f of fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const c = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as CapturedPages;
    lists.set(`${c.verb} ${c.prefix}`, readList(c));
  }
  return lists;
}

function readList(c: CapturedPages): ReplayList {
  let full: [Buffer, Buffer] | undefined;
  if (c.full) {
    const body = fs.readFileSync(c.full, 'utf8');
    const m = TOKEN_RE.exec(body);
    if (!m) throw new Error(`${c.full}: no resumptionToken to replace`);
    const at = m.index + (m[1] as string).length;
    full = [Buffer.from(body.slice(0, at), 'utf8'), Buffer.from(body.slice(at + (m[2] as string).length), 'utf8')];
  }
  return { pages: c.pages, full, last: fs.readFileSync(c.last) };
}

/**
 * Starts the replay server on `port` for the pages captured in `dir`.
 *
 * @example
 * const server = await startReplay('/tmp/captured', 0);
 */
export async function startReplay(dir: string, port: number): Promise<http.Server> {
  const lists = readLists(dir);
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://replay');
    // A token `r<k>:<prefix>` continues after page k; a first request names its prefix.
    const token = /^r(\d+):(.*)$/.exec(u.searchParams.get('resumptionToken') ?? '');
    const prefix = token ? token[2] : u.searchParams.get('metadataPrefix');
    const list = lists.get(`${u.searchParams.get('verb') ?? ''} ${prefix ?? ''}`);
    if (!list) {
      res.writeHead(404).end();
      return;
    }
    const next = token ? Number(token[1]) + 1 : 1;
    const body = next >= list.pages || !list.full ? list.last : Buffer.concat([list.full[0], Buffer.from(`r${next}:${prefix ?? ''}`), list.full[1]]);
    res.writeHead(200, { 'Content-Type': 'text/xml; charset=UTF-8', 'Content-Length': body.length });
    res.end(body);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return server;
}

if (require.main === module) {
  const [dir, port] = process.argv.slice(2);
  if (!dir || !port) {
    process.stderr.write('usage: replay <captured-folder> <port>\n');
    process.exit(2);
  }
  startReplay(dir, Number(port)).then(
    (server) => {
      process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`);
      process.once('SIGTERM', () => server.close(() => process.exit(0)));
    },
    (err: unknown) => {
      process.stderr.write(`replay: ${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}
