/**
 * Loading the demo repository of seeds/demo/ through the store's one write
 * path, as `npm start` does for an empty store and as the knex seed file does.
 */
import fs from 'node:fs';
import { jsonToItem } from '../lib/pipeline/json-record';
import { dublinCoreToOaiDc } from '../lib/formats/oai-dc';
import type { FormatRegistry } from '../lib/formats/registry';
import { RefusedError } from '../lib/store';
import type { ItemInput, SetInput, TransactionalStore } from '../lib/store';
import type { Refusal } from '../lib/model/refusal';
import { projectPath } from './paths';

interface DemoSet {
  spec: string;
  name: string;
  description?: string;
}

/** Reads seeds/demo/ into sets and items (set descriptions as an oai_dc container holding one dc:description, OAI-PMH 4.6); throws RefusedError when a record is malformed. */
export function readDemo(formats: FormatRegistry, dir = projectPath('seeds', 'demo')): { sets: SetInput[]; items: ItemInput[] } {
  const rawSets = JSON.parse(fs.readFileSync(`${dir}/sets.json`, 'utf8')) as DemoSet[];
  const sets = rawSets.map((s) => ({
    spec: s.spec,
    name: s.name,
    ...(s.description && { descriptions: [dublinCoreToOaiDc({ description: [s.description] })] }),
  }));
  const items: ItemInput[] = [];
  const refusals: Refusal[] = [];
  const lines = fs.readFileSync(`${dir}/records.ndjson`, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const r = jsonToItem(JSON.parse(line), formats, `seeds/demo/records.ndjson:${i + 1}`);
    // The demo repository's records are its own, with their history: their datestamps are kept.
    if ('item' in r) items.push({ ...r.item, keepDatestamp: true });
    else refusals.push(...r.refusals);
  });
  if (refusals.length > 0) throw new RefusedError(refusals);
  return { sets, items };
}

/** Writes the demo repository in one transaction. Returns how many items were written. */
export async function loadDemo(store: TransactionalStore, formats: FormatRegistry): Promise<number> {
  const { sets, items } = readDemo(formats);
  await store.transaction(async (tx) => {
    await tx.putSets(sets);
    await tx.writeItems(items);
  });
  return items.length;
}
