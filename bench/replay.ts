/**
 * The replay ceiling of the benchmark: a minimal node:http server that
 * answers a list harvest with pages this provider really served, captured
 * by the harvester (bench/harvest-client.ts, `capture`). Page k of the replay
 * is the captured full page with its resumptionToken replaced by `r<k>`, and
 * the captured last page ends the list, so the same harvester, following the
 * same tokens, gets the same number of pages, records and bytes as from the
 * real server, from a server that does nothing but send them. What the real
 * server reaches of this rate is what its own work costs.
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

function readList(dir: string, verb: string): ReplayList {
  const c = JSON.parse(fs.readFileSync(path.join(dir, `${verb}.json`), 'utf8')) as CapturedPages;
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
  const lists = new Map<string, ReplayList>([
    ['ListRecords', readList(dir, 'ListRecords')],
    ['ListIdentifiers', readList(dir, 'ListIdentifiers')],
  ]);
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://replay');
    const list = lists.get(u.searchParams.get('verb') ?? '');
    if (!list) {
      res.writeHead(404).end();
      return;
    }
    const token = u.searchParams.get('resumptionToken');
    const next = token === null ? 1 : Number(token.slice(1)) + 1;
    const body = next >= list.pages || !list.full ? list.last : Buffer.concat([list.full[0], Buffer.from(`r${next}`), list.full[1]]);
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
