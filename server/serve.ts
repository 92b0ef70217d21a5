/**
 * `oai-steward serve`: open the store (migrating it, refusing a store that
 * holds the demo under another namespace, and loading the demo repository
 * when it is empty and `seedDemo` allows), then serve until
 * SIGINT/SIGTERM, finishing in-flight responses (up to {@link SHUTDOWN_GRACE_MS})
 * before closing the store.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from './config';
import { openProvider, providerApp, seedIfEmpty } from './provider';
import { refuseForeignDemo } from './demo-guard';
import type { Provider } from './provider';
import { startHarvestScheduler } from './harvest/scheduler';
import { trackConnections } from './http/drain';

/**
 * How long a stopping server lets responses in flight finish before cutting
 * them off: a 5,000-record page of 17 MB to a slow harvester takes seconds.
 * deploy/systemd/oai-steward@.service allows more (TimeoutStopSec) for the
 * store to close after it, so systemd never kills a process still draining.
 */
export const SHUTDOWN_GRACE_MS = 30_000;
/** What closing the store and the harvest scheduler may take after the drain, before the process gives up. */
const CLOSE_GRACE_MS = 5_000;

/** A running server. */
export interface RunningServer {
  readonly provider: Provider;
  readonly server: http.Server;
  readonly port: number;
  /**
   * Stops accepting, lets in-flight responses finish (each reaching the
   * client whole; those still going after `graceMs`, by default
   * {@link SHUTDOWN_GRACE_MS}, are cut off), then closes the store.
   */
  stop(graceMs?: number): Promise<void>;
}

/** Starts serving; resolves once the port is listening. */
export async function startServer(config: Config, options: { logger?: Logger } = {}): Promise<RunningServer> {
  // Registered as a holder of the store while it serves: a restore is refused meanwhile (./store/holders.ts).
  const provider = await openProvider(config, { ...options, hold: 'server' });
  try {
    // A store holding the demo under another namespace is not served until the operator chooses (./demo-guard.ts).
    await refuseForeignDemo(provider.store, config.namespace);
    // Formats written on demand are served only under the configuration they were hashed under (./store/on-demand.ts).
    await provider.store.checkWrittenFormats();
  } catch (err) {
    await provider.close();
    throw err;
  }
  if (config.seedDemo) {
    const n = await seedIfEmpty(provider);
    if (n > 0) provider.logger.info({ items: n }, 'loaded the demo repository into the empty store');
  }
  // Sources with a schedule are harvested from this process, each run in a child process (server/harvest/scheduler.ts).
  const harvests = startHarvestScheduler(provider);
  const app = await providerApp(provider, { onMetrics: (m) => harvests.register(m.registry) });
  // Timeouts are checked every second (Node's default is every 30 s), so a
  // slow client is cut off close to headersTimeout/requestTimeout.
  const server = http.createServer({ connectionsCheckingInterval: 1000 }, app);
  // Slow clients cannot hold a connection open forever.
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  const connections = trackConnections(server);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (err) {
    await harvests.stop();
    await provider.close();
    throw listenError(err, config);
  }
  const port = (server.address() as AddressInfo).port;
  provider.logger.info(
    {
      port,
      baseURL: config.baseUrl,
      database: redact(config.databaseUrl),
      ...(config.readReplica !== undefined && { readReplica: replicaOf(config.readReplica) }),
    },
    'oai-steward serving',
  );
  let stopping: Promise<void> | undefined;
  return {
    provider,
    server,
    port,
    stop(graceMs = SHUTDOWN_GRACE_MS) {
      stopping ??= (async () => {
        // No new harvest starts while the answers drain; one running stops at its next page.
        const harvestsStopped = harvests.stop();
        const inFlight = connections.inFlight();
        const { finished, cut } = await connections.drain(graceMs);
        if (cut > 0) provider.logger.warn({ finished, cut, graceMs }, 'stopping: responses still in flight at the deadline were cut off');
        else if (inFlight > 0) provider.logger.info({ finished }, 'stopping: every response in flight finished');
        await harvestsStopped;
        await provider.close();
      })();
      return stopping;
    },
  };
}

/** A listening error as a person can act on it: a busy port named, with how to choose another. */
export function listenError(err: unknown, config: Pick<Config, 'port' | 'host'>): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const where = `port ${config.port}${config.host ? ` on ${config.host}` : ''}`;
  if (code === 'EADDRINUSE')
    return new Error(
      `${where} is already in use (by another program, or an oai-steward still running): stop it, or choose another port, e.g. PORT=${config.port === 65535 ? 3000 : config.port + 1} npm start (or \`port:\` in the configuration file)`,
    );
  if (code === 'EACCES') return new Error(`${where} may not be opened by this user (ports below 1024 need privileges): choose another with PORT or \`port:\``);
  return err;
}

/** Hides a password in a database URL before it is logged. */
function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

/**
 * The read replica a process reads, as the start-up log names it: host,
 * port and database only (never the user's password, nor query options that
 * may carry one); the URL with its password hidden when it does not parse.
 *
 * @example replicaOf('postgres://oai:secret@standby-1:5432/oai') // { host: 'standby-1', port: 5432, database: 'oai' }
 */
export function replicaOf(url: string): { host: string; port: number; database: string } | string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return redact(url);
  }
  // libpq's defaults where the URL leaves them out (PostgreSQL 15, section 34.1): local host, 5432, the user's name.
  return {
    host: u.hostname || 'localhost',
    port: u.port === '' ? 5432 : Number(u.port),
    database: decodeURIComponent(u.pathname.slice(1)) || decodeURIComponent(u.username),
  };
}

/** Runs the server until a signal, for the CLI. */
export async function serveUntilSignal(config: Config): Promise<void> {
  const running = await startServer(config);
  const shutdown = (signal: string): void => {
    running.provider.logger.info({ signal, graceMs: SHUTDOWN_GRACE_MS }, 'shutting down: no new connections, finishing the responses in flight');
    const force = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS + CLOSE_GRACE_MS);
    force.unref();
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}
