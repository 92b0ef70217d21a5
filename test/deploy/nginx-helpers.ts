/**
 * What the tests of deploy/ share: `oai-steward serve` as a child process
 * (its JSON log kept as it arrives), and Debian's nginx (installed by
 * scripts/system-deps.sh when missing) started as a process of its own on
 * an unprivileged loopback port, with a temporary prefix and the site file
 * of deploy/ (only its ports changed).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { httpRequest } from '../../harness/http-request';
import type { ThrowawayDatabase } from '../helpers/db';
import { projectPath } from '../../server/paths';

export const NGINX = '/usr/sbin/nginx';
export const PUBLIC = 'http://repository.example.edu/oai';
export const HOST = 'repository.example.edu';

/** A child process whose standard output is JSON lines (pino), kept as they arrive. */
export interface Server {
  readonly port: number;
  readonly child: ChildProcess;
  readonly lines: Record<string, unknown>[];
  /** Its standard error so far. */
  stderr(): string;
}

/** Starts `oai-steward serve` on `port` (the environment of a server behind the shipped nginx, plus `env`); resolves once it serves. */
export function startServe(db: ThrowawayDatabase, port: number, env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', projectPath('server', 'cli.ts'), 'serve'], {
    cwd: projectPath(),
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      OAI_BASE_URL: PUBLIC,
      OAI_TRUST_PROXY: 'loopback',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  let buffered = '';
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout?.on('data', (d: Buffer) => {
    buffered += d.toString();
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(buffered.slice(0, nl)) as Record<string, unknown>);
      buffered = buffered.slice(nl + 1);
    }
  });
  const server: Server = { port, child, lines, stderr: () => stderr };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve on ${port} did not start: ${stderr}`)), 60_000);
    const onExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`serve on ${port} exited ${String(code)}: ${stderr}`));
    };
    child.once('exit', onExit);
    const onData = (): void => {
      if (!lines.some((l) => l.msg === 'oai-steward serving')) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout?.off('data', onData);
      resolve(server);
    };
    child.stdout?.on('data', onData);
  });
}

/** Sends `signal` to a server and resolves with its exit code once it has exited (SIGKILL after `killAfterMs`). */
export function stopServe(s: Server, signal: NodeJS.Signals = 'SIGTERM', killAfterMs = 60_000): Promise<number | null> {
  if (s.child.exitCode !== null) return Promise.resolve(s.child.exitCode);
  return new Promise((resolve) => {
    const force = setTimeout(() => s.child.kill('SIGKILL'), killAfterMs);
    s.child.once('exit', (code) => {
      clearTimeout(force);
      resolve(code);
    });
    s.child.kill(signal);
  });
}

/** Replaces `from` by `to` where it stands exactly `times` times in `text`, or fails: the test must follow the shipped file. */
function replaceExactly(text: string, from: string, to: string, times = 1): string {
  const found = text.split(from).length - 1;
  if (found !== times) throw new Error(`deploy/nginx/oai-steward.conf: expected ${JSON.stringify(from)} ${times} time(s), found ${found}`);
  return text.split(from).join(to);
}

/**
 * The site file of deploy/ with the test's ports (the two servers', and nginx's on the loopback
 * address only), wrapped in a main configuration for a temporary prefix.
 */
function nginxConfig(dir: string, listen: number, backends: readonly number[]): string {
  let site = fs.readFileSync(projectPath('deploy', 'nginx', 'oai-steward.conf'), 'utf8');
  site = replaceExactly(site, 'server 127.0.0.1:3001 ', `server 127.0.0.1:${backends[0]} `);
  site = replaceExactly(site, 'server 127.0.0.1:3002 ', `server 127.0.0.1:${backends[1]} `);
  site = replaceExactly(site, '    listen 80;\n', `    listen 127.0.0.1:${listen};\n`);
  site = replaceExactly(site, '    listen [::]:80;\n', '');
  fs.writeFileSync(path.join(dir, 'oai-steward.conf'), site);
  return [
    // As root, nginx's workers would switch to nobody, who cannot write the temporary prefix.
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'worker_processes 1;',
    'daemon off;',
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log warn;`,
    'events { worker_connections 256; }',
    'http {',
    "  log_format upstream '$request_uri $upstream_addr $status $upstream_status';",
    `  access_log ${dir}/access.log upstream;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};`),
    `  include ${dir}/oai-steward.conf;`,
    '}',
    '',
  ].join('\n');
}

/** Installs Debian's nginx the way the suite installs its other programs, when it is missing. */
function ensureNginx(): void {
  if (fs.existsSync(NGINX)) return;
  execFileSync('sh', [projectPath('scripts', 'system-deps.sh')], { stdio: 'inherit' });
  if (!fs.existsSync(NGINX)) throw new Error(`${NGINX} is still missing after scripts/system-deps.sh`);
}

async function waitForPort(port: number, log: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      await httpRequest({ port, path: '/healthz', timeoutMs: 1000 });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`nginx did not answer on ${port}: ${fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''}`);
}

/** nginx running the shipped site in a temporary prefix. */
export interface Nginx {
  readonly port: number;
  readonly dir: string;
  /** Its access log so far: `$request_uri $upstream_addr $status $upstream_status` a line. */
  accessLog(): string[];
  /** Stops it (SIGQUIT: gracefully) and removes its prefix. */
  stop(): Promise<void>;
}

/** Starts nginx with the shipped site on `port`, in front of the two `backends`; resolves once it answers. */
export async function startNginx(port: number, backends: readonly number[]): Promise<Nginx> {
  ensureNginx();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-nginx-'));
  const conf = path.join(dir, 'nginx.conf');
  const errorLog = path.join(dir, 'error.log');
  fs.writeFileSync(conf, nginxConfig(dir, port, backends));
  execFileSync(NGINX, ['-t', '-p', dir, '-c', conf, '-e', errorLog], { stdio: 'pipe' });
  const child = spawn(NGINX, ['-p', dir, '-c', conf, '-e', errorLog], { stdio: 'ignore' });
  await waitForPort(port, errorLog);
  const accessLog = path.join(dir, 'access.log');
  return {
    port,
    dir,
    accessLog: () =>
      fs.existsSync(accessLog)
        ? fs
            .readFileSync(accessLog, 'utf8')
            .split('\n')
            .filter((l) => l !== '')
        : [],
    async stop() {
      if (child.exitCode === null) {
        await new Promise<void>((resolve) => {
          const force = setTimeout(() => child.kill('SIGKILL'), 20_000);
          child.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          child.kill('SIGQUIT');
        });
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
