/**
 * Where a PostgreSQL store's reads stand in its primary's history, for
 * harvests served from read replicas: a page's resumption token carries the
 * WAL position its reads had reached, and a replica answers the next page
 * only once it has replayed that far (PostgreSQL 15, section 27.4 "Hot
 * Standby", `pg_last_wal_replay_lsn`; section 9.27.4, `pg_current_wal_lsn`).
 * A replica that does not catch up in time is the caller's 503. How far a
 * replica lags, and whether its primary answers at all, is what /healthz and
 * /metrics report.
 */
import type { Knex } from 'knex';
import type { ReplicaLag } from '../../lib/store';
import { storeFailure } from '../db/errors';

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

/** How long a lag report waits for a replica just behind to reach the primary's position before reporting it behind. */
const SETTLE_MS = 100;

/** The longest /healthz and /metrics wait for the primary's position before calling it unreachable: a probe must answer in time. */
export const PRIMARY_ANSWER_MS = 2000;

/** The position a connection's reads stand at: a standby's replay position, or the primary's current one. */
const POSITION_SQL = 'SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_lsn() END)::text AS p';
/** Whether the connection's reads reflect a position (a promoted standby's are current). */
const REACHED_SQL = 'SELECT (NOT pg_is_in_recovery() OR pg_last_wal_replay_lsn() >= ?::pg_lsn) AS ok';

async function one<T>(knex: Knex, sql: string, bindings: readonly string[] = []): Promise<T | undefined> {
  const r = (await knex.raw(sql, bindings)) as { rows: T[] };
  return r.rows[0];
}

/**
 * How far the primary's WAL goes: its insert position, which holds every
 * commit it has made visible, also those of `synchronous_commit = off` whose
 * WAL is not yet written (PostgreSQL 15, section 30.4 "Asynchronous
 * Commit"), which the write position `pg_current_wal_lsn` leaves out for up
 * to three `wal_writer_delay`; with the page and segment sizes
 * {@link recordEnd} reads it with.
 */
const INSERTED_SQL =
  "SELECT pg_current_wal_insert_lsn()::text AS p, current_setting('wal_block_size') AS page, pg_size_bytes(current_setting('wal_segment_size'))::text AS segment";
/** What the primary has flushed: all a replica can have been sent. */
const FLUSHED_SQL = 'SELECT pg_current_wal_flush_lsn()::text AS p';
/** Whether the connection's reads reflect the nearer of two positions. */
const REACHED_EITHER_SQL = 'SELECT (NOT pg_is_in_recovery() OR pg_last_wal_replay_lsn() >= LEAST(?::pg_lsn, ?::pg_lsn)) AS ok';

/** What the primary has written: the WAL a replica's lag is counted against. */
const WRITTEN_SQL = 'SELECT pg_current_wal_lsn()::text AS p';
/**
 * How far the replica stands behind a position of the primary: WAL bytes not
 * yet replayed, and the seconds since the last transaction it replayed was
 * committed (PostgreSQL 15, section 9.27.4 `pg_last_xact_replay_timestamp`,
 * `pg_wal_lsn_diff`), which is the lag while anything is left to replay. A
 * promoted standby reads what it writes: nothing to replay.
 */
const LAG_SQL = `SELECT pg_is_in_recovery() AS standby,
  pg_wal_lsn_diff(?::pg_lsn, pg_last_wal_replay_lsn())::float8 AS bytes,
  EXTRACT(EPOCH FROM (clock_timestamp() - pg_last_xact_replay_timestamp()))::float8 AS since`;

/** A promise that rejects after `ms` unless `p` settles first. */
function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** What went wrong asking the primary, for a person: the connection's failure, else the message's first line. */
function failureOf(err: unknown): string {
  return storeFailure(err) ?? (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}

/** The sizes of a WAL page's header and of a segment's first page's (XLogPageHeaderData, XLogLongPageHeaderData, MAXALIGNed). */
const PAGE_HEADER = 24n;
const SEGMENT_HEADER = 40n;

/**
 * A primary's WAL insert position as the end of the last record inserted,
 * the form a replica's replay position takes. The insert position is where
 * the next record goes: past the page's header when the last record ended at
 * a page's end (PostgreSQL's src/backend/access/transam/xlog.c,
 * `XLogBytePosToRecPtr` against `XLogBytePosToEndRecPtr`), as after every WAL
 * switch; read as it is, a replica of a primary idle since would never reach it.
 *
 * @example recordEnd('0/4000028', 8192, 16777216) // '0/4000000'
 */
export function recordEnd(position: string, pageBytes: number, segmentBytes: number): string {
  const [hi, lo] = position.split('/');
  const lsn = (BigInt(`0x${hi ?? '0'}`) << 32n) | BigInt(`0x${lo ?? '0'}`);
  const inSegment = lsn % BigInt(segmentBytes);
  const back = inSegment === SEGMENT_HEADER ? SEGMENT_HEADER : lsn % BigInt(pageBytes) === PAGE_HEADER && inSegment !== PAGE_HEADER ? PAGE_HEADER : 0n;
  const end = lsn - back;
  return `${(end >> 32n).toString(16).toUpperCase()}/${(end & 0xffffffffn).toString(16).toUpperCase()}`;
}

/**
 * The reads of lib/store/'s ReadStore that a replica needs, over a store's
 * own connection (`reads`) and its primary's. `catchUp` and `replicaLag`
 * exist only when `reads` is not the primary: the primary is never behind
 * itself.
 *
 * @example const { readPosition, catchUp } = replicationReads(replicaKnex, { primary: primaryKnex });
 */
export function replicationReads(
  reads: Knex,
  r: Replication,
): {
  readonly readPosition: () => Promise<string>;
  readonly catchUp?: (position?: string) => Promise<boolean>;
  readonly replicaLag?: () => Promise<ReplicaLag>;
} {
  const sleep = r.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const waitMs = r.waitMs ?? CATCH_UP_MS;
  const readPosition = async (): Promise<string> => (await one<{ p: string }>(reads, POSITION_SQL))?.p ?? '0/0';
  if (reads === r.primary) return { readPosition };
  return {
    readPosition,
    async catchUp(position?: string) {
      const inserted = position === undefined ? await one<{ p: string; page: string; segment: string }>(r.primary, INSERTED_SQL) : undefined;
      const target = position ?? (inserted && recordEnd(inserted.p, Number(inserted.page), Number(inserted.segment)));
      if (target === undefined) return true;
      for (let waited = 0; ; waited += POLL_MS) {
        if ((await one<{ ok: boolean }>(reads, REACHED_SQL, [target]))?.ok === true) return true;
        if (waited >= waitMs) break;
        await sleep(POLL_MS);
      }
      if (position !== undefined) return false;
      // WAL inserted and still not flushed after the wait is a transaction still in progress, which no
      // reader sees yet (a commit of synchronous_commit off is flushed within three wal_writer_delay,
      // 600 ms by default): what the primary has flushed by now is all the replica needs.
      const flushed = (await one<{ p: string }>(r.primary, FLUSHED_SQL))?.p ?? target;
      return (await one<{ ok: boolean }>(reads, REACHED_EITHER_SQL, [target, flushed]))?.ok === true;
    },
    async replicaLag() {
      let target: string | undefined;
      try {
        target = (await within(one<{ p: string }>(r.primary, WRITTEN_SQL), PRIMARY_ANSWER_MS))?.p;
      } catch (err) {
        return { primary: 'unreachable', reason: failureOf(err) };
      }
      if (target === undefined) return { primary: 'unreachable', reason: 'the primary gave no WAL position' };
      const row = await one<{ standby: boolean; bytes: number | null; since: number | null }>(reads, LAG_SQL, [target]);
      if (!row || !row.standby) return { primary: 'reachable', bytes: 0, seconds: 0 };
      // Read after the primary's position, the replica may already be past it.
      const bytes = row.bytes === null ? null : Math.max(0, row.bytes);
      if (bytes === 0) return { primary: 'reachable', bytes, seconds: 0 };
      // The primary writes WAL of no transaction too (a standby snapshot every 15 s, checkpoints), which
      // a healthy replica replays in milliseconds: after an idle hour the last replayed transaction's age
      // would call it an hour behind. A replica that reaches the position within a moment lags that moment.
      for (let waited = 0; waited < SETTLE_MS;) {
        await sleep(POLL_MS);
        waited += POLL_MS;
        if ((await one<{ ok: boolean }>(reads, REACHED_SQL, [target]))?.ok === true) return { primary: 'reachable', bytes, seconds: waited / 1000 };
      }
      return { primary: 'reachable', bytes, seconds: row.since === null ? null : Math.max(0, row.since) };
    },
  };
}
