/**
 * The store's settings table: values the server keeps across restarts and
 * shares between processes, such as the resumption-token secret.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';

/**
 * The resumption-token secret: read from `settings`, or created (32 random
 * bytes, hex) on first use. Race-safe: every process inserts-or-ignores, then
 * all read the one row that won, so concurrent servers agree.
 *
 * @example const secret = process.env.OAI_TOKEN_SECRET ?? (await getOrCreateSecret(knex));
 */
export async function getOrCreateSecret(knex: Knex, key = 'resumption_token_secret'): Promise<string> {
  const existing = (await knex('settings').select('value').where('key', key).first()) as { value: string } | undefined;
  if (existing) return existing.value;
  await knex('settings')
    .insert({ key, value: crypto.randomBytes(32).toString('hex') })
    .onConflict('key')
    .ignore();
  const row = (await knex('settings').select('value').where('key', key).first()) as { value: string } | undefined;
  if (!row) throw new Error(`settings row ${key} vanished`);
  return row.value;
}

/**
 * Whether the store keeps a resumption-token secret yet; nothing is made
 * (what `doctor` reports).
 *
 * @example await hasSecret(knex) // false until the first serve
 */
export async function hasSecret(knex: Knex, key = 'resumption_token_secret'): Promise<boolean> {
  return (await knex('settings').select('value').where('key', key).first()) !== undefined;
}

/**
 * When the store was created, in seconds since the epoch: kept in `settings`
 * (`store_created`), so every process and every later version answers the
 * same. A store made before the row was kept gets, once, the time its first
 * migration ran (`knex_migrations.migration_time`, the oldest trace of its
 * making), else `now`. Race-safe as {@link getOrCreateSecret}.
 *
 * @example await getOrCreateCreated(knex, () => Math.floor(Date.now() / 1000)) // 1795780800
 */
export async function getOrCreateCreated(knex: Knex, now: () => number, key = 'store_created'): Promise<number> {
  const read = async (): Promise<number | undefined> => {
    const row = (await knex('settings').select('value').where('key', key).first()) as { value: string } | undefined;
    return row === undefined ? undefined : Number(row.value);
  };
  const existing = await read();
  if (existing !== undefined && Number.isFinite(existing)) return existing;
  const first = (await knex('knex_migrations').min({ t: 'migration_time' }).first()) as { t: unknown } | undefined;
  const migrated = secondsOf(first?.t);
  await knex('settings')
    .insert({ key, value: String(migrated ?? now()) })
    .onConflict('key')
    .ignore();
  const created = await read();
  if (created === undefined || !Number.isFinite(created)) throw new Error(`settings row ${key} vanished`);
  return created;
}

/** A time as the drivers return `migration_time` (a Date from pg; milliseconds, or text, from SQLite), in whole seconds. */
function secondsOf(v: unknown): number | undefined {
  const ms = v instanceof Date ? v.getTime() : typeof v === 'number' ? v : typeof v === 'string' ? (/^\d+$/.test(v) ? Number(v) : Date.parse(v)) : NaN;
  return Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : undefined;
}
