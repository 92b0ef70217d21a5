/**
 * Running `oai-steward` as a child process against a throwaway store, for
 * the loader's tests: a temporary SQLite file always, and a throwaway
 * PostgreSQL schema (reached through the connection string's search_path)
 * when TEST_DATABASE_URL is set.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { createKnex } from '../../server/db/connection';

export const ROOT = path.resolve(__dirname, '..', '..');
export const DEMO_NS = 'demo.oai-steward.org';

/** One throwaway store, as the CLI and the test see it. */
export interface CliDb {
  readonly name: string;
  /** DATABASE_URL for the child process. */
  readonly url: string;
  /** A temporary folder for input files. */
  readonly dir: string;
  /** A knex on the same store, for assertions (opened on first use). */
  knex(): Knex;
}

interface Target {
  readonly name: string;
  open(dir: string): Promise<{ url: string; close(): Promise<void> }>;
}

function targets(): Target[] {
  const list: Target[] = [{ name: 'sqlite', open: async (dir) => ({ url: `sqlite:${path.join(dir, 'store.sqlite')}`, close: async () => {} }) }];
  const pg = process.env.TEST_DATABASE_URL;
  if (pg) {
    list.push({
      name: 'postgres',
      async open() {
        const schema = `oai_load_${crypto.randomBytes(6).toString('hex')}`;
        const admin = createKnex(pg, { pool: { min: 0, max: 1 } });
        await admin.raw('CREATE SCHEMA ??', [schema]);
        const url = `${pg}${pg.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
        return {
          url,
          async close() {
            await admin.raw('DROP SCHEMA ?? CASCADE', [schema]);
            await admin.destroy();
          },
        };
      },
    });
  }
  return list;
}

/**
 * Defines `describe('on <database>')` per database; each test gets a fresh
 * store (migrated by the CLI on first use) and a temporary folder.
 */
export function forEachCliDatabase(body: (db: () => CliDb) => void): void {
  for (const target of targets()) {
    describe(`on ${target.name}`, function () {
      this.timeout(120000);
      let current: (CliDb & { close(): Promise<void> }) | undefined;
      beforeEach(async function () {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-load-'));
        const opened = await target.open(dir);
        let knex: Knex | undefined;
        current = {
          name: target.name,
          url: opened.url,
          dir,
          knex() {
            knex ??= createKnex(opened.url, { pool: { min: 0, max: 2 } });
            return knex;
          },
          async close() {
            await knex?.destroy();
            await opened.close();
            fs.rmSync(dir, { recursive: true, force: true });
          },
        };
      });
      afterEach(async function () {
        await current?.close();
        current = undefined;
      });
      body(() => {
        if (!current) throw new Error('no database outside a test');
        return current;
      });
    });
  }
}

/** What a CLI run printed and returned. */
export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Starts `oai-steward ARGS…` on a store; the caller may kill it. */
export function startCli(db: CliDb, args: readonly string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', path.join(ROOT, 'server', 'cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent', OAI_NAMESPACE: DEMO_NS, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin?.end(options.input ?? '');
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

export const DEMO_RECORDS = path.join(ROOT, 'seeds', 'demo', 'records.ndjson');
export const DEMO_SETS = path.join(ROOT, 'seeds', 'demo', 'sets.json');

/** The demo records, parsed. */
export function demoRecords(): { id: string; deleted: boolean; sets: string[]; datestamp: string; dc: Record<string, string[]> }[] {
  return fs
    .readFileSync(DEMO_RECORDS, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { id: string; deleted: boolean; sets: string[]; datestamp: string; dc: Record<string, string[]> });
}

/** The summary `load --json` prints. */
export function summaryOf(run: CliRun): { records: number; inserted: number; updated: number; unchanged: number; deleted: number; refused: number; committed: boolean; dryRun: boolean } {
  const line = run.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as ReturnType<typeof summaryOf>;
  } catch {
    throw new Error(`no JSON summary (exit ${String(run.code)}):\n${run.stdout}\n${run.stderr}`);
  }
}
