/**
 * A private PostgreSQL instance for tests that stop and start the database:
 * its own data directory under the system's temporary
 * folder and its own port, never the machine's shared instance. The Debian
 * binaries live under /usr/lib/postgresql/<version>/bin, and initdb/pg_ctl
 * refuse to run as root, so they run as the `postgres` user (runuser when
 * the tests run as root).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The newest installed PostgreSQL's bin folder, or null when there is none. */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

/** A running private instance. */
export interface PrivatePostgres {
  readonly port: number;
  readonly url: string;
  /** Stops it at once, as a crash or a cut connection would (`pg_ctl stop -m immediate`). */
  stop(): void;
  /** Starts it again on the same port and data; returns when it accepts connections. */
  start(): void;
  /** Stops it (if running) and removes its data directory. */
  destroy(): void;
}

function asPostgres(bin: string, args: readonly string[]): string {
  const cmd = process.getuid?.() === 0 ? (['runuser', ['-u', 'postgres', '--', bin, ...args]] as const) : ([bin, args] as const);
  return execFileSync(cmd[0], cmd[1], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
}

/**
 * Creates and starts a private instance on a port picked at random from 20000 to 29999: below Linux's
 * ephemeral range (32768 up), so no server on a free port (`listen(0)`, as other test files run at the same
 * time start theirs) and no outgoing connection can take it, even while the instance is stopped.
 */
export function startPrivatePostgres(): PrivatePostgres {
  const bin = postgresBin();
  if (!bin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql/*/bin');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-pg-'));
  fs.chmodSync(dir, 0o755);
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'log');
  const port = 20000 + Math.floor(Math.random() * 10000);
  asPostgres(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const pgCtl = path.join(bin, 'pg_ctl');
  const start = (): void => {
    asPostgres(pgCtl, ['-D', data, '-l', log, '-w', '-t', '60', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  };
  let running = false;
  start();
  running = true;
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      asPostgres(pgCtl, ['-D', data, '-w', '-m', 'immediate', 'stop']);
      running = false;
    },
    start() {
      start();
      running = true;
    },
    destroy() {
      try {
        if (running) asPostgres(pgCtl, ['-D', data, '-w', '-m', 'immediate', 'stop']);
      } finally {
        running = false;
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
