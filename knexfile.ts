/**
 * For the knex CLI (`npx knex migrate:latest`, `npx knex seed:run`): the same
 * database, migrations and demo seed that `oai-steward serve` uses, chosen by
 * DATABASE_URL (see server/config.ts).
 */
import path from 'node:path';
import type { Knex } from 'knex';
import { loadConfig } from './server/config';
import { connectionConfig } from './server/db/connection';
import { migrationSource } from './server/db/migrations';

const config = loadConfig();
// Compiled (dist/knexfile.js) or run from source (knexfile.ts): the seed file sits beside it in seeds/.
const compiled = path.extname(__filename) === '.js';

const knexConfig: Knex.Config = {
  ...connectionConfig(config.databaseUrl),
  migrations: { migrationSource },
  seeds: { directory: path.join(__dirname, 'seeds'), loadExtensions: [compiled ? '.js' : '.ts'] },
};

export default knexConfig;
module.exports = knexConfig;
