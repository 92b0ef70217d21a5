/**
 * The serve step of the benchmark: the processes it starts and stops. The
 * provider as `npm start` runs it (`oai-steward serve`, or K of them behind
 * one port under bench/cluster.ts), the replay server (bench/replay.ts), and
 * the harvester (bench/harvest-client.ts), each a child process so that no
 * one's CPU time is charged to another. Every entry point runs compiled from
 * dist/ or, in the suite, from the TypeScript sources.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../harness/free-port';
import { SERVER_NODE_FLAGS } from '../server/node-flags';
import { PROJECT_ROOT } from '../server/paths';
import type { ClientTask } from './harvest-client';

/** Running from dist/ (compiled) or from the TypeScript sources (tests, via tsx)? */
const FROM_SOURCE = __filename.endsWith('.ts');

/**
 * The node arguments that run one of the project's entry points, compiled or from source.
 *
 * @example spawn(process.execPath, [...entry('server/cli'), 'serve'])
 */
export function entry(relative: string): string[] {
  return FROM_SOURCE ? ['--require', 'tsx/cjs', path.join(PROJECT_ROOT, `${relative}.ts`)] : [path.join(PROJECT_ROOT, 'dist', `${relative}.js`)];
}

/**
 * The node arguments that load one of the project's modules before the
 * entry point (`--require`), compiled or from source.
 */
export function preload(relative: string): string[] {
  return FROM_SOURCE
    ? ['--require', 'tsx/cjs', '--require', path.join(PROJECT_ROOT, `${relative}.ts`)]
    : ['--require', path.join(PROJECT_ROOT, 'dist', `${relative}.js`)];
}

/** A server the benchmark started: the provider's, or the replay. */
export interface BenchServer {
  readonly baseUrl: string;
  readonly pid: number;
  stop(): Promise<void>;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000).unref())]);
}

async function waitHealthy(url: string, child: ChildProcess, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it was ready`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not answer ${url} within ${seconds} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts `oai-steward serve` as `npm start` runs it (or K of them under
 * bench/cluster.ts) on a free port and waits until it answers.
 */
export async function startProvider(env: NodeJS.ProcessEnv, processes: number, profile: string | undefined): Promise<BenchServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}/oai`;
  const serverEnv = { ...env, PORT: String(port), OAI_BASE_URL: baseUrl, WORKERS: String(processes) };
  const prof = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const flags = [...SERVER_NODE_FLAGS, ...prof];
  const args = processes > 1 ? [...flags, ...entry('bench/cluster')] : [...flags, ...entry('server/cli'), 'serve'];
  const child = spawn(process.execPath, args, { env: serverEnv, stdio: ['ignore', 'inherit', 'inherit'], cwd: PROJECT_ROOT });
  try {
    // A large store takes its time to open: allow two minutes.
    await waitHealthy(`http://127.0.0.1:${port}/healthz`, child, 120);
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return { baseUrl, pid: child.pid as number, stop: () => stopChild(child) };
}

/**
 * Resolves once a server the benchmark started prints `listening` on its
 * standard output (the replay and the pyoai peer do); rejects if it exits first.
 */
export function untilListening(child: ChildProcess, name: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
}

/** Starts bench/replay.ts on the pages captured in `dir`. */
export async function startReplay(dir: string): Promise<BenchServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...entry('bench/replay'), dir, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: PROJECT_ROOT,
  });
  await untilListening(child, 'the replay server');
  return { baseUrl: `http://127.0.0.1:${port}/oai`, pid: child.pid as number, stop: () => stopChild(child) };
}

/**
 * Runs the harvester on one task in its own process and returns what it
 * printed last (one JSON line). `tmp` holds the task file.
 */
export async function runClient<T>(task: ClientTask, tmp: string): Promise<T> {
  const file = path.join(tmp, `task-${task.task}.json`);
  fs.writeFileSync(file, JSON.stringify(task));
  const child = spawn(process.execPath, [...entry('bench/harvest-client'), file], { stdio: ['ignore', 'pipe', 'inherit'], cwd: PROJECT_ROOT });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`the harvest client failed (exit ${code})`);
  const last = out.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as T;
}
