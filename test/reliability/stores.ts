/**
 * For the reliability tests: a digest of a store's content for comparing it
 * with a model, and the loader as a child process that can be killed. The
 * stores themselves come from test/helpers/db.ts.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import type { Knex } from 'knex';
import { PROJECT_ROOT } from '../../server/paths';

/**
 * A digest of everything a load writes, without the columns that only say
 * when a row was written (items.created, identifiers.first_published): two
 * stores with the same digest publish exactly the same thing.
 */
export async function storeDigest(knex: Knex, options: { datestamps?: boolean } = {}): Promise<{ items: number; digest: string }> {
  // Without datestamps: what a load writes apart from the time it writes it (this store's clock).
  const at = (v: unknown): number | undefined => (options.datestamps === false ? undefined : Number(v));
  const h = crypto.createHash('sha256');
  const items = (await knex('items').select('pk', 'internal_id', 'identifier', 'datestamp', 'deleted', 'content_hash').orderBy('internal_id')) as {
    pk: number;
    internal_id: string;
    deleted: unknown;
    datestamp: unknown;
  }[];
  const idOf = new Map(items.map((r) => [Number(r.pk), r.internal_id]));
  for (const r of items) h.update(JSON.stringify({ ...r, pk: undefined, deleted: Boolean(r.deleted), datestamp: at(r.datestamp) }));
  const records = (await knex('records').select('item_pk', 'prefix', 'xml')) as { item_pk: number; prefix: string; xml: string | null }[];
  for (const r of records
    .map((x) => [idOf.get(Number(x.item_pk)), x.prefix, x.xml] as const)
    .sort((a, b) => `${a[0]} ${a[1]}`.localeCompare(`${b[0]} ${b[1]}`)))
    h.update(JSON.stringify(r));
  const sets = (await knex('item_sets').select('item_pk', 'spec', 'direct', 'datestamp')) as {
    item_pk: number;
    spec: string;
    direct: unknown;
    datestamp: unknown;
  }[];
  for (const r of sets
    .map((x) => [idOf.get(Number(x.item_pk)), x.spec, Boolean(x.direct), at(x.datestamp)] as const)
    .sort((a, b) => `${a[0]} ${a[1]}`.localeCompare(`${b[0]} ${b[1]}`)))
    h.update(JSON.stringify(r));
  const ids = (await knex('identifiers').select('identifier', 'internal_id', 'scheme').orderBy('identifier')) as unknown[];
  h.update(JSON.stringify(ids));
  const declared = (await knex('sets').select('spec', 'name', 'descriptions').orderBy('spec')) as unknown[];
  h.update(JSON.stringify(declared));
  return { items: items.length, digest: h.digest('hex') };
}

/** Starts `oai-steward load` from the TypeScript source (so a stale dist/ is never tested) with the given store. */
export function spawnLoader(databaseUrl: string, args: readonly string[]): ChildProcess {
  return spawn(process.execPath, ['--require', 'tsx/cjs', path.join(PROJECT_ROOT, 'server', 'cli.ts'), 'load', ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', OAI_SEED_DEMO: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Waits for a child to exit; resolves with its code or signal and its output. */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
}
