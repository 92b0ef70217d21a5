/**
 * The publication log as its readers see it (lib/tlog/store.ts), over the
 * tables the write path appends to (../db/log/).
 */
import type { Knex } from 'knex';
import type { LogHead, PublicationLogStore } from '../../lib/tlog/store';
import { readEntries, readHead, readTile, rootAt } from '../db/log/tables';

/** @example await publicationLogOf(knex).head() // { size: 3, root: <Buffer …> } */
export function publicationLogOf(knex: Knex): PublicationLogStore {
  return {
    head: (): Promise<LogHead> => readHead(knex),
    tile: (level, n) => readTile(knex, level, n),
    entries: (from, count) => readEntries(knex, from, count),
    rootAt: (size) => rootAt(knex, size),
  };
}
