/**
 * How a knex connection pool is used, read from its tarn pool (the one knex
 * builds for every client). SQLite's pool has a few connections to a file,
 * one to `:memory:` (./connection.ts).
 */
import type { Knex } from 'knex';
import type { PoolUse } from '../../lib/store';

/** The part of tarn's Pool that knex exposes as `client.pool`. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  readonly max: number;
}

/**
 * The pool's use now, or undefined when knex has no pool (yet, or any more).
 *
 * @example poolUse(knex) // { used: 1, free: 3, pending: 0, max: 4 }
 */
export function poolUse(knex: Knex): PoolUse | undefined {
  const pool = (knex.client as { pool?: TarnPool }).pool;
  if (!pool) return undefined;
  return { used: pool.numUsed(), free: pool.numFree(), pending: pool.numPendingAcquires(), max: pool.max };
}
