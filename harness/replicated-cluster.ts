/**
 * A PostgreSQL primary and a hot standby of it, made for one test or one
 * benchmark run (test/server/store/replica.test.ts, bench/replica.ts) under a
 * temporary folder with PostgreSQL's own tools (initdb, pg_basebackup with
 * `-R` for the standby's primary_conninfo, pg_ctl), on free ports of
 * 127.0.0.1, and stopped after. The machine's own cluster accepts no
 * replication connections and is not ours to reconfigure. initdb
 * refuses to run as root, so as root the tools run as the `postgres` user.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

export interface ReplicatedCluster {
  readonly primaryUrl: string;
  readonly replicaUrl: string;
  /** Stops the standby replaying the primary's WAL (pg_wal_replay_pause), or lets it go on. */
  pauseReplay(): void;
  resumeReplay(): void;
  /** Waits until the standby has replayed everything the primary has written so far (at most `seconds`). */
  caughtUp(seconds?: number): Promise<void>;
  /** Stops the primary at once (a lost primary); the standby goes on, still in recovery. */
  stopPrimary(): void;
  /** Stops both servers and removes the folder. */
  stop(): void;
}

/** Where PostgreSQL's server tools are: pg_config's bindir, else Debian's path of PostgreSQL 15. */
function binDir(): string {
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    return '/usr/lib/postgresql/15/bin';
  }
}

/**
 * Starts a primary and its hot standby on free ports and returns their URLs
 * (the `postgres` database of each; a database made on the primary appears on
 * the standby under the same name).
 *
 * @example const cluster = await startReplicatedCluster(); try { … cluster.replicaUrl … } finally { cluster.stop(); }
 */
export async function startReplicatedCluster(): Promise<ReplicatedCluster> {
  const bin = binDir();
  const root = process.getuid?.() === 0;
  const run = (tool: string, args: readonly string[]): string => {
    const file = path.join(bin, tool);
    return root
      ? execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      : execFileSync(file, [...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-replica-'));
  if (root) execFileSync('chown', ['postgres', dir]);
  const primaryDir = path.join(dir, 'primary');
  const standbyDir = path.join(dir, 'standby');
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const started: string[] = [];
  const psql = (port: number, sql: string): string => run('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-Atc', sql]);
  const halt = (d: string): void => {
    try {
      run('pg_ctl', ['-D', d, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // Already stopped.
    }
  };
  const stop = (): void => {
    for (const d of started.reverse()) halt(d);
    started.length = 0;
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('initdb', ['-D', primaryDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    fs.appendFileSync(
      path.join(primaryDir, 'postgresql.conf'),
      [
        `port = ${primaryPort}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        'wal_level = replica',
        'max_wal_senders = 4',
        'fsync = off',
        'synchronous_commit = off',
        'shared_buffers = 16MB',
        '',
      ].join('\n'),
    );
    fs.appendFileSync(path.join(primaryDir, 'pg_hba.conf'), 'host replication postgres 127.0.0.1/32 trust\n');
    run('pg_ctl', ['-D', primaryDir, '-l', path.join(dir, 'primary.log'), '-w', 'start']);
    started.push(primaryDir);
    run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standbyDir, '-R', '-X', 'stream', '--no-sync']);
    const conf = path.join(standbyDir, 'postgresql.conf');
    fs.writeFileSync(conf, fs.readFileSync(conf, 'utf8').replace(`port = ${primaryPort}`, `port = ${standbyPort}`));
    run('pg_ctl', ['-D', standbyDir, '-l', path.join(dir, 'standby.log'), '-w', 'start']);
    started.push(standbyDir);
  } catch (err) {
    stop();
    throw err;
  }
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl: `postgres://postgres@127.0.0.1:${standbyPort}/postgres`,
    pauseReplay: () => void psql(standbyPort, 'SELECT pg_wal_replay_pause()'),
    resumeReplay: () => void psql(standbyPort, 'SELECT pg_wal_replay_resume()'),
    async caughtUp(seconds = 120) {
      const target = psql(primaryPort, 'SELECT pg_current_wal_lsn()').trim();
      const deadline = Date.now() + seconds * 1000;
      while (psql(standbyPort, `SELECT pg_last_wal_replay_lsn() >= '${target}'::pg_lsn`).trim() !== 't') {
        if (Date.now() > deadline) throw new Error(`the standby did not replay the primary's WAL up to ${target} within ${seconds} s`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    stopPrimary() {
      halt(primaryDir);
      started.splice(started.indexOf(primaryDir), 1);
    },
    stop,
  };
}
