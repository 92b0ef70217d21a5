/**
 * Loading the demo repository of seeds/demo/ through the store's one write
 * path, as `npm start` does for an empty store and as the knex seed file does.
 */
import fs from 'node:fs';
import { jsonToItem } from '../lib/records/json-record';
import type { RecordConversion } from '../lib/records/json-record';
import { RefusedError } from '../lib/store';
import type { ItemInput, SetInput, TransactionalStore } from '../lib/store';
import type { Refusal } from '../lib/model/refusal';
import { projectPath } from './paths';

interface DemoSet {
  spec: string;
  name: string;
  description?: string;
}

/** Reads seeds/demo/ into sets and items; throws RefusedError when a record is malformed. */
export function readDemo(conv: RecordConversion, dir = projectPath('seeds', 'demo')): { sets: SetInput[]; items: ItemInput[] } {
  const rawSets = JSON.parse(fs.readFileSync(`${dir}/sets.json`, 'utf8')) as DemoSet[];
  const sets = rawSets.map((s) => ({ spec: s.spec, name: s.name, ...(s.description && { descriptions: [dcDescription(conv, s.description)] }) }));
  const items: ItemInput[] = [];
  const refusals: Refusal[] = [];
  const lines = fs.readFileSync(`${dir}/records.ndjson`, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const r = jsonToItem(JSON.parse(line), conv, `seeds/demo/records.ndjson:${i + 1}`);
    if ('item' in r) items.push(r.item);
    else refusals.push(...r.refusals);
  });
  if (refusals.length > 0) throw new RefusedError(refusals);
  return { sets, items };
}

/** A set description as an oai_dc container holding one dc:description (OAI-PMH 4.6 example). */
function dcDescription(conv: RecordConversion, text: string): string {
  const dc = conv.formats.get('oai_dc');
  if (!dc?.fromDublinCore) throw new Error('oai_dc has no crosswalk');
  return dc.fromDublinCore({ description: [text] });
}

/** Writes the demo repository in one transaction. Returns how many items were written. */
export async function loadDemo(store: TransactionalStore, conv: RecordConversion): Promise<number> {
  const { sets, items } = readDemo(conv);
  await store.transaction(async (tx) => {
    await tx.putSets(sets);
    await tx.writeItems(items);
  });
  return items.length;
}
