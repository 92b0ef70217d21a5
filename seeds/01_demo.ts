/**
 * knex seed: loads the demo repository of seeds/demo/ (records.ndjson and
 * sets.json) through the store's write path, with the configured namespace
 * and id policy — the same as `oai-steward seed`. Skips a store that already
 * holds items, so running it twice changes nothing.
 */
import type { Knex } from 'knex';
import { loadConfig } from '../server/config';
import { registryFromDeclarations } from '../lib/formats/registry';
import { createStore } from '../server/provider';
import { loadDemo } from '../server/demo';

export async function seed(knex: Knex): Promise<void> {
  const config = loadConfig();
  const formats = registryFromDeclarations(config.formats);
  const store = createStore(config, knex, formats);
  if ((await store.earliestDatestamp()) !== null) return;
  await loadDemo(store, formats);
}
