/**
 * Running `oai-steward` as a child process against a throwaway store
 * (test/helpers/db.ts), for the loader's tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Knex } from 'knex';
import { forEachThrowawayDatabase, type DatabaseKind, type ThrowawayDatabase } from '../helpers/db';
import { DEMO_NAMESPACE } from '../helpers/demo-records';
import { loadConfig } from '../../server/config';
import { openProvider, providerApp } from '../../server/provider';

export const ROOT = path.resolve(__dirname, '..', '..');

/** One throwaway store, as the CLI and the test see it. */
export type CliDb = ThrowawayDatabase;

/**
 * Defines `describe('on <database>')` per database; each test gets a fresh
 * store (migrated by the CLI on first use) and a temporary folder.
 */
export function forEachCliDatabase(body: (db: () => CliDb, kind: DatabaseKind) => void): void {
  forEachThrowawayDatabase(body, { timeout: 120_000 });
}

/** What a CLI run printed and returned. */
export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Starts `oai-steward ARGS…` on a store; the caller may kill it, and with `openInput` writes and ends its standard input. */
export function startCli(
  db: CliDb,
  args: readonly string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; openInput?: boolean } = {},
): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', path.join(ROOT, 'server', 'cli.ts'), ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      LOG_LEVEL: 'silent',
      OAI_NAMESPACE: DEMO_NAMESPACE,
      // A PostgreSQL store's publication log key in the test's folder, not in data/ of the checkout (a SQLite store keeps it beside its file).
      ...(db.name === 'postgres' && { OAI_LOG_KEY_FILE: path.join(db.dir, 'log.key') }),
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  if (options.openInput !== true) child.stdin?.end(options.input ?? '');
  const done = new Promise<CliRun>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

/** Runs `oai-steward ARGS…` to the end. */
export function cli(db: CliDb, args: readonly string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  return startCli(db, args, options).done;
}

/** Every row of every table the loader writes, in a fixed order: equal snapshots mean an identical store. */
export async function snapshot(knex: Knex): Promise<string> {
  const tables: [string, string[]][] = [
    ['items', ['pk']],
    ['item_sets', ['spec', 'item_pk']],
    ['records', ['item_pk', 'prefix']],
    ['record_fields', ['item_pk']],
    ['identifiers', ['identifier']],
    ['sets', ['spec']],
  ];
  const out: Record<string, unknown[]> = {};
  for (const [t, order] of tables) out[t] = (await knex(t).select('*').orderBy(order)) as unknown[];
  return JSON.stringify(out);
}

/** internal id → datestamp (seconds) of every item. */
export async function datestamps(knex: Knex): Promise<Map<string, number>> {
  const rows = (await knex('items').select('internal_id', 'datestamp')) as { internal_id: string; datestamp: unknown }[];
  return new Map(rows.map((r) => [r.internal_id, Number(r.datestamp)]));
}

/** The summary `load --json` prints. */
export function summaryOf(run: CliRun): {
  records: number;
  inserted: number;
  updated: number;
  unchanged: number;
  deleted: number;
  refused: number;
  committed: boolean;
  dryRun: boolean;
} {
  const line = run.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as ReturnType<typeof summaryOf>;
  } catch {
    throw new Error(`no JSON summary (exit ${String(run.code)}):\n${run.stdout}\n${run.stderr}`);
  }
}

/**
 * Opens the store the CLI wrote (with `env` added to the configuration, e.g.
 * `OAI_CONFIG`), serves it on a random port the way production builds the
 * app, runs `fn`, and closes both.
 *
 * @example await serving(db(), { OAI_CONFIG: file }, async (port) => oaiGet(port, 'verb=ListSets'));
 */
export async function serving<T>(db: CliDb, env: NodeJS.ProcessEnv, fn: (port: number) => Promise<T>): Promise<T> {
  const p = await openProvider(loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', OAI_NAMESPACE: DEMO_NAMESPACE, OAI_SEED_DEMO: 'false', ...env }));
  const server = http.createServer(await providerApp(p));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await fn((server.address() as AddressInfo).port);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await p.close();
  }
}
