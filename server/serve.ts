/**
 * `oai-steward serve`: open the store (migrating it, refusing a store that
 * holds the demo under another namespace, and loading the demo repository
 * when it is empty and `seedDemo` allows), then serve until
 * SIGINT/SIGTERM, finishing in-flight responses before closing the store.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from './config';
import { openProvider, providerApp, seedIfEmpty } from './provider';
import { refuseForeignDemo } from './demo-guard';
import type { Provider } from './provider';
import { startHarvestScheduler } from './harvest/scheduler';

/** A running server. */
export interface RunningServer {
  readonly provider: Provider;
  readonly server: http.Server;
  readonly port: number;
  /** Stops accepting, lets in-flight responses finish, then closes the store. */
  stop(): Promise<void>;
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
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (err) {
    await harvests.stop();
    await provider.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  provider.logger.info({ port, baseURL: config.baseUrl, database: redact(config.databaseUrl) }, 'oai-steward serving');
  let stopping: Promise<void> | undefined;
  return {
    provider,
    server,
    port,
    stop() {
      stopping ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await harvests.stop();
        await provider.close();
      })();
      return stopping;
    },
  };
}

/** Hides a password in a database URL before it is logged. */
function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

/** Runs the server until a signal, for the CLI. */
export async function serveUntilSignal(config: Config): Promise<void> {
  const running = await startServer(config);
  const shutdown = (signal: string): void => {
    running.provider.logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}
