/**
 * The storage interface the protocol core needs, with its domain types, by
 * concern: reading (./read.ts), writing (./write.ts), what loads and
 * harvests keep and the report of runs (./bookkeeping.ts), and the store's
 * administration (./admin.ts).
 *
 * Nothing here knows about knex or SQL: `server/store/` implements it. The
 * store answers `null` or empty lists and never decides protocol errors; the
 * verb handlers in `lib/oai/` do (STYLE.md).
 *
 * Datestamps are integers: seconds since the Unix epoch, UTC. That one form
 * sorts and compares identically on SQLite and PostgreSQL.
 */
export * from './admin';
export * from './bookkeeping';
export * from './read';
export * from './write';
