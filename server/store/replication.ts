/**
 * Where a PostgreSQL store's reads stand in its primary's history, for
 * harvests served from read replicas: a page's resumption token carries the
 * WAL position its reads had reached, and a replica answers the next page
 * only once it has replayed that far (PostgreSQL 15, section 27.4 "Hot
 * Standby", `pg_last_wal_replay_lsn`; section 9.27.4, `pg_current_wal_lsn`).
 * A replica that does not catch up in time is the caller's 503.
 */
import type { Knex } from 'knex';

/** How a store's reads follow its primary. */
export interface Replication {
  /** The primary's connection (the same knex on a process that reads the primary). */
  readonly primary: Knex;
  /** The longest a read waits for a replica to catch up, milliseconds. Default {@link CATCH_UP_MS}. */
  readonly waitMs?: number;
  /** Waits between two looks (tests pass a recording one). */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** The longest a replica's read waits for it to replay what a harvest has seen: a second, many times a healthy replica's lag. */
export const CATCH_UP_MS = 1000;

/** How often a waiting read looks again. */
const POLL_MS = 20;

/** The position a connection's reads stand at: a standby's replay position, or the primary's current one. */
const POSITION_SQL = 'SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_lsn() END)::text AS p';
/** Whether the connection's reads reflect a position (a promoted standby's are current). */
const REACHED_SQL = 'SELECT (NOT pg_is_in_recovery() OR pg_last_wal_replay_lsn() >= ?::pg_lsn) AS ok';

async function one<T>(knex: Knex, sql: string, bindings: readonly string[] = []): Promise<T | undefined> {
  const r = (await knex.raw(sql, bindings)) as { rows: T[] };
  return r.rows[0];
}

/**
 * The two reads of lib/store.ts's ReadStore that a replica needs, over a
 * store's own connection (`reads`) and its primary's.
 *
 * @example const { readPosition, catchUp } = replicationReads(replicaKnex, { primary: primaryKnex });
 */
export function replicationReads(reads: Knex, r: Replication): { readPosition(): Promise<string>; catchUp(position?: string): Promise<boolean> } {
  const sleep = r.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const waitMs = r.waitMs ?? CATCH_UP_MS;
  return {
    async readPosition() {
      return (await one<{ p: string }>(reads, POSITION_SQL))?.p ?? '0/0';
    },
    async catchUp(position) {
      // The primary is never behind itself.
      if (reads === r.primary) return true;
      const target = position ?? (await one<{ p: string }>(r.primary, 'SELECT pg_current_wal_lsn()::text AS p'))?.p;
      if (target === undefined) return true;
      for (let waited = 0; ; waited += POLL_MS) {
        if ((await one<{ ok: boolean }>(reads, REACHED_SQL, [target]))?.ok === true) return true;
        if (waited >= waitMs) return false;
        await sleep(POLL_MS);
      }
    },
  };
}
