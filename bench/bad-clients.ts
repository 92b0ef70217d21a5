/**
 * The clients `npm run soak -- --hostile` adds to well-behaved traffic, as
 * an adversarial test of the server found them: slow clients that announce a
 * POST body and send one byte of it every two seconds (each reconnecting
 * when cut off), and an aggressive harvester that keeps many requests open
 * at once and never waits, whatever the answer says. They connect from
 * other loopback addresses (127.0.0.2 and 127.0.0.3) than the well-behaved
 * clients, so the server tells them apart as it would tell apart hosts.
 */
import http from 'node:http';
import net from 'node:net';

/** What the bad clients did, for the report. */
export interface BadClientFigures {
  readonly slowConnections: number;
  /** Slow connections the server closed (408 after the body deadline, or cut). */
  readonly slowClosed: number;
  readonly aggressiveRequests: number;
  /** Aggressive requests by HTTP status (`network` when the exchange failed). */
  readonly aggressiveStatuses: Readonly<Record<string, number>>;
}

/** Running bad clients; `stop` ends them and says what they did. */
export interface BadClients {
  stop(): Promise<BadClientFigures>;
}

const AGGRESSIVE_FROM = '127.0.0.2';
const SLOW_FROM = '127.0.0.3';

/**
 * Starts `slow` slow clients and one aggressive harvester with `aggressive`
 * requests open at once against the endpoint at `base`.
 *
 * @example const bad = startBadClients(new URL('http://127.0.0.1:3000/oai'), { slow: 32, aggressive: 32 }); … await bad.stop();
 */
export function startBadClients(base: URL, o: { readonly slow: number; readonly aggressive: number }): BadClients {
  let stopped = false;
  let slowConnections = 0;
  let slowClosed = 0;
  let aggressiveRequests = 0;
  const statuses: Record<string, number> = {};
  const sockets = new Set<net.Socket>();

  const slowClient = (): void => {
    if (stopped) return;
    const socket = net.connect({ host: base.hostname, port: Number(base.port), localAddress: SLOW_FROM });
    sockets.add(socket);
    slowConnections++;
    let drip: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(`POST ${base.pathname} HTTP/1.1\r\nHost: ${base.host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nv`);
      drip = setInterval(() => socket.write('e'), 2000);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(drip);
      sockets.delete(socket);
      if (stopped) return;
      slowClosed++;
      setTimeout(slowClient, 50);
    });
  };

  const agent = new http.Agent({ keepAlive: true, maxSockets: o.aggressive, localAddress: AGGRESSIVE_FROM });
  const aggressive = async (): Promise<void> => {
    while (!stopped) {
      aggressiveRequests++;
      const status = await new Promise<string>((resolve) => {
        const req = http.get(
          { host: base.hostname, port: Number(base.port), path: `${base.pathname}?verb=ListRecords&metadataPrefix=oai_dc`, agent },
          (res) => {
            res.resume();
            res.on('end', () => resolve(String(res.statusCode)));
            res.on('error', () => resolve('network'));
          },
        );
        req.on('error', () => resolve('network'));
      });
      statuses[status] = (statuses[status] ?? 0) + 1;
      // Retry-After is ignored; only a refused connection slows it down, as a careless script's would.
      if (status === 'network') await new Promise((r) => setTimeout(r, 100));
    }
  };

  for (let i = 0; i < o.slow; i++) slowClient();
  const loops = Array.from({ length: o.aggressive }, () => aggressive());
  return {
    async stop() {
      stopped = true;
      for (const s of sockets) s.destroy();
      await Promise.all(loops);
      agent.destroy();
      return { slowConnections, slowClosed, aggressiveRequests, aggressiveStatuses: { ...statuses } };
    },
  };
}

/**
 * Run as a process of its own (`node … bench/bad-clients.ts URL SLOW AGGRESSIVE`),
 * so the bad clients' work never delays the measuring process: runs until
 * SIGTERM, then prints its figures as one JSON line.
 */
if (require.main === module) {
  const [url, slow, aggressive] = process.argv.slice(2);
  const bad = startBadClients(new URL(url ?? ''), { slow: Number(slow), aggressive: Number(aggressive) });
  process.once('SIGTERM', () => {
    void bad.stop().then((figures) => {
      process.stdout.write(`${JSON.stringify(figures)}\n`);
      process.exit(0);
    });
  });
}
