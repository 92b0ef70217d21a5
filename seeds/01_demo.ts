/**
 * knex seed: loads the demo repository of seeds/demo/ (records.ndjson and
 * sets.json) through the store's write path, with the configured namespace
 * and id policy — the same as `oai-steward seed`. Skips a store that already
 * holds items, so running it twice changes nothing.
 */
import type { Knex } from 'knex';
import { loadConfig } from '../server/config';
import { createIdPolicy } from '../lib/ids/policy';
import { registryFromDeclarations } from '../lib/formats/registry';
import { KnexStore } from '../server/store/knex-store';
import { createXsdChecks } from '../server/xsd/format-checks';
import { loadDemo } from '../server/demo';
import { recordConversion } from '../server/provider';

export async function seed(knex: Knex): Promise<void> {
  const config = loadConfig();
  const policy = createIdPolicy({ namespace: config.namespace, mode: config.idPolicy });
  const formats = registryFromDeclarations(config.formats);
  const store = new KnexStore({ knex, policy, formatChecks: createXsdChecks(formats), tombstonePrefixes: formats.all().map((f) => f.prefix) });
  if ((await store.earliestDatestamp()) !== null) return;
  await loadDemo(store, recordConversion(config, policy, formats));
}
