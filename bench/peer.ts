/**
 * The pyoai peer of the benchmark: the same store served by pyoai's
 * BatchingServer (bench/pyoai_server.py), so that each harvest can be
 * printed as a ratio to a widely used open-source data provider measured in
 * the same run by the same harvester.
 *
 * pyoai is not part of this project: the operator fetches it and names the
 * folder holding its `oaipmh` package (`--pyoai DIR` or PYOAI_PATH). Without
 * it, or where it cannot run, the benchmark prints why there is no figure
 * and never invents one.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../harness/free-port';
import { PROJECT_ROOT } from '../server/paths';
import { untilListening } from './serve';

/** The Python that runs the peer: Debian's, where python3-lxml and python3-six are packaged. */
export const PEER_PYTHON = process.env.PEER_PYTHON ?? (fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');

/** A running peer. */
export interface PeerServer {
  readonly baseUrl: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * Why the peer cannot be measured in this run, or null when it can: pyoai
 * named and importable with its dependencies, and a store it can read.
 *
 * @example peerUnavailable(undefined, 'sqlite') // 'not measured: pass --pyoai DIR …'
 */
export function peerUnavailable(pyoaiDir: string | undefined, database: 'sqlite' | 'postgresql'): string | null {
  if (pyoaiDir === undefined) {
    return "not measured: pass --pyoai DIR (the folder holding pyoai's oaipmh package; see bench/README.md)";
  }
  if (database !== 'sqlite') return 'not measured: the pyoai peer reads the SQLite store only';
  if (!fs.existsSync(path.join(pyoaiDir, 'oaipmh', 'server.py'))) return `not measured: ${pyoaiDir} holds no oaipmh/server.py`;
  const r = spawnSync(PEER_PYTHON, ['-c', 'import sys; sys.path.insert(0, sys.argv[1]); import oaipmh.server', pyoaiDir], { encoding: 'utf8' });
  if (r.error) return `not measured: ${PEER_PYTHON} cannot run (${r.error.message})`;
  if (r.status !== 0) {
    const last = (r.stderr ?? '').trim().split('\n').pop() ?? '';
    return `not measured: pyoai does not import (${last}); Debian: apt-get install python3-lxml python3-six`;
  }
  return null;
}

/**
 * How the peer pages: `keyset` (default) remembers where each page it served
 * ended, as a careful pyoai user would; `offset` (PYOAI_PAGING=offset) is the
 * plain `OFFSET cursor` pyoai's cursor-only tokens lead to, far slower on
 * large lists.
 */
export const PEER_PAGING: 'keyset' | 'offset' = process.env.PYOAI_PAGING === 'offset' ? 'offset' : 'keyset';

/** Starts the peer on a free port over the SQLite file and waits until it listens. */
export async function startPeer(pyoaiDir: string, sqliteFile: string): Promise<PeerServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}/oai`;
  const script = path.join(PROJECT_ROOT, 'bench', 'pyoai_server.py');
  const child = spawn(PEER_PYTHON, [script, '--pyoai', pyoaiDir, '--db', sqliteFile, '--port', String(port), '--base-url', baseUrl, '--paging', PEER_PAGING], {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: PROJECT_ROOT,
  });
  await untilListening(child, 'the pyoai peer');
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000).unref())]);
  };
  return { baseUrl, pid: child.pid as number, stop };
}
