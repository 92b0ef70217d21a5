/**
 * The publication log as its readers see it (lib/tlog/store.ts), over the
 * tables the write path appends to (../db/log/).
 */
import type { Knex } from 'knex';
import type { LogHead, PublicationLogStore } from '../../lib/tlog/store';
import { readEntries, readHead, readSigned, readTile, recordSigned, rootAt } from '../db/log/tables';
import { writeNow } from '../db/no-wait';

/** @example await publicationLogOf(knex).head() // { size: 3, root: <Buffer …> } */
export function publicationLogOf(knex: Knex): PublicationLogStore {
  return {
    head: (): Promise<LogHead> => readHead(knex),
    tile: (level, n) => readTile(knex, level, n),
    entries: (from, count) => readEntries(knex, from, count),
    rootAt: (size) => rootAt(knex, size),
    signed: () => readSigned(knex),
    // A server's own bookkeeping: never waits on SQLite's write lock (a busy store refuses at once, ../db/no-wait.ts).
    recordSigned: (head) => writeNow(knex, (trx) => recordSigned(trx, head)),
  };
}
