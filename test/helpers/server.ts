/**
 * A real oai-steward server for tests: started in-process on a free port,
 * over a throwaway SQLite file that `startServer` seeds with the demo
 * repository (seeds/demo, 285 items), with logging silenced. Integration
 * tests talk to it over HTTP, the way harvesters do (STYLE.md, "Habits" 4).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/config';
import { startServer } from '../../server/serve';
import type { RunningServer } from '../../server/serve';

/** A server started by {@link startTestServer}. */
export interface TestServer {
  /** The OAI-PMH base URL, e.g. `http://localhost:41234/oai` (what Identify advertises). */
  readonly baseUrl: string;
  /** The origin, e.g. `http://localhost:41234`, for `/healthz` and `/oai2.xsl`. */
  readonly origin: string;
  readonly port: number;
  /** The running server: its provider (store, knex, config) and `http.Server`, for tests that look inside. */
  readonly running: RunningServer;
  /** Stops the server (in-flight responses finish, the store closes) and deletes the database. Safe to call twice. */
  stop(): Promise<void>;
}

import { freePort } from '../../bench/free-port';

export { freePort };

/**
 * Starts a server on a free port with a fresh SQLite store holding the demo
 * repository. `env` adds to or overrides the configuration (keys as in
 * server/config.ts, e.g. `{ OAI_PAGE_SIZE: '50' }`); `DATABASE_URL`, `PORT`
 * and `OAI_BASE_URL` are chosen here unless given.
 *
 * @example
 * const server = await startTestServer();
 * const res = await fetch(`${server.baseUrl}?verb=Identify`);
 * await server.stop();
 */
export async function startTestServer(env: NodeJS.ProcessEnv = {}): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-server-'));
  // A port picked and freed can be taken by someone else before we listen: try a few.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const config = loadConfig({
      DATABASE_URL: `sqlite:${path.join(dir, 'store.sqlite')}`,
      PORT: String(port),
      OAI_BASE_URL: `http://localhost:${port}/oai`,
      LOG_LEVEL: 'silent',
      OAI_SEED_DEMO: 'true',
      ...env,
    });
    let running: RunningServer;
    try {
      running = await startServer(config);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 5) continue;
      fs.rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    let stopped: Promise<void> | undefined;
    return {
      baseUrl: config.baseUrl,
      origin: new URL(config.baseUrl).origin,
      port: running.port,
      running,
      stop() {
        stopped ??= running.stop().finally(() => fs.rmSync(dir, { recursive: true, force: true }));
        return stopped;
      },
    };
  }
}
