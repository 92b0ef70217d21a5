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
