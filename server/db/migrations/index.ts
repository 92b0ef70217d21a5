/**
 * The migrations, listed in code rather than found by scanning a directory,
 * so the same list works compiled (`dist/…/*.js`) and under tsx (`*.ts`).
 */
import type { Knex } from 'knex';
import type { MigrationStatus } from '../../../lib/store';
import * as m001 from './001_initial';
import * as m002 from './002_record_fields';
import * as m003 from './003_departures_about';
import * as m004 from './004_direct_sets';
import * as m005 from './005_set_origins';
import * as m006 from './006_harvest_state';
import * as m007 from './007_loader_runs';
import * as m010 from './010_lifted_versions';
import * as m011 from './011_store_holders';
import * as m012 from './012_item_origins';
import * as m013 from './013_record_datestamps';
import * as m014 from './014_harvest_base_url';
import * as m015 from './015_runs';
import * as m016 from './016_publication';
import * as m017 from './017_record_hashes';
import * as m018 from './018_runs_fold';
import * as m019 from './019_publication_log';
import * as m020 from './020_withheld_given';
import * as m021 from './021_record_log_hashes';
import * as m022 from './022_unlogged_records';

interface Migration {
  readonly name: string;
  readonly module: Knex.Migration;
}

const MIGRATIONS: readonly Migration[] = [
  { name: '001_initial', module: m001 },
  { name: '002_record_fields', module: m002 },
  { name: '003_departures_about', module: m003 },
  { name: '004_direct_sets', module: m004 },
  { name: '005_set_origins', module: m005 },
  { name: '006_harvest_state', module: m006 },
  { name: '007_loader_runs', module: m007 },
  { name: '010_lifted_versions', module: m010 },
  { name: '011_store_holders', module: m011 },
  { name: '012_item_origins', module: m012 },
  { name: '013_record_datestamps', module: m013 },
  { name: '014_harvest_base_url', module: m014 },
  { name: '015_runs', module: m015 },
  { name: '016_publication', module: m016 },
  { name: '017_record_hashes', module: m017 },
  { name: '018_runs_fold', module: m018 },
  { name: '019_publication_log', module: m019 },
  { name: '020_withheld_given', module: m020 },
  { name: '021_record_log_hashes', module: m021 },
  { name: '022_unlogged_records', module: m022 },
];

/**
 * A knex `migrationSource` over the list above. Pass it to any
 * `knex.migrate.*` call (and to knexfile.ts as `migrations.migrationSource`).
 *
 * @example await knex.migrate.latest({ migrationSource });
 */
export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => [...MIGRATIONS],
  getMigrationName: (m) => m.name,
  getMigration: async (m) => m.module,
};

/**
 * Brings a database to the latest schema; safe to call on every start (it
 * does nothing when already up to date).
 *
 * @example await migrate(createKnex('sqlite:./data/oai.db'));
 */
export async function migrate(knex: Knex): Promise<void> {
  await knex.migrate.latest({ migrationSource });
}

/** The name of the newest migration this code knows: the schema version it reads and writes. */
export const LATEST_MIGRATION: string = (MIGRATIONS[MIGRATIONS.length - 1] as Migration).name;

/**
 * What the schema holds and lacks, without changing it: a database no
 * oai-steward has migrated has every migration pending. The applied
 * migrations are read from knex's table directly: knex's own listing
 * would create its table, and its `latest` refuses a migration it does
 * not know with a message that names neither version
 * (server/store/database.ts refuses such a store in one line before knex is asked).
 *
 * @example (await migrationStatus(knex)).pending // ['011_store_holders']
 */
export async function migrationStatus(knex: Knex): Promise<MigrationStatus> {
  const known = MIGRATIONS.map((m) => m.name);
  if (!(await knex.schema.hasTable('knex_migrations'))) return { tracked: false, applied: [], pending: known, unknown: [] };
  const rows = (await knex('knex_migrations').select('name').orderBy('id')) as { name: string }[];
  const applied = rows.map((r) => r.name);
  const done = new Set(applied);
  const knownSet = new Set(known);
  return { tracked: true, applied, pending: known.filter((n) => !done.has(n)), unknown: applied.filter((n) => !knownSet.has(n)) };
}
