/**
 * `oai-steward rebuild-sets`: after a set rule changes in the configuration,
 * recomputes the sets of every stored item and writes them through the
 * store's one write path, which applies the rules (server/store/knex-store.ts
 * `setRules`). The gate's content hash decides what changed: an item whose
 * sets came out the same keeps its datestamp; one that joined or left a
 * rule set gets a new one, so selective harvesters pick up exactly those
 * items (OAI-PMH 2.0 section 2.7.1), and a second run changes nothing.
 *
 * One transaction; a page of items at a time, so memory holds one page
 * however large the repository. Tombstones keep their sets.
 */
import type { ItemInput, ScannedItem, TransactionalStore, WriteTransaction } from '../lib/store';

/** What a rebuild did. */
export interface RebuildSetsSummary {
  /** Live items looked at. */
  readonly items: number;
  /** Items whose sets changed and got a new datestamp. */
  readonly restamped: number;
  /** The internal ids of the restamped items, at most `listLimit` of them. */
  readonly restampedIds: readonly string[];
}

/**
 * The item a stored one makes when written again: its sets, metadata and
 * record fields as stored (so nothing but its sets can change); the write
 * path applies the rules.
 */
function itemFromScan(s: ScannedItem): ItemInput {
  const metadata: Record<string, string> = {};
  for (const [prefix, xml] of Object.entries(s.metadata)) if (xml !== null) metadata[prefix] = xml;
  return {
    internalId: s.internalId,
    sets: s.sets,
    metadata,
    ...(s.fields !== undefined && { fields: s.fields, derived: s.derived ?? [], identifiers: [...(s.fields.dc.identifier ?? [])] }),
    ...(s.about !== undefined && s.about.length > 0 && { about: s.about }),
    source: `stored item ${JSON.stringify(s.internalId)}`,
  };
}

/**
 * Recomputes the rule sets of every live item in one transaction and
 * re-stamps exactly the items whose sets changed.
 *
 * The store must have been opened with the configuration's
 * `setRules` (server/provider.ts does).
 *
 * @example const { restamped } = await rebuildSets(provider.store);
 */
export async function rebuildSets(store: TransactionalStore, options: { batchSize?: number; listLimit?: number } = {}): Promise<RebuildSetsSummary> {
  const batchSize = options.batchSize ?? 500;
  const listLimit = options.listLimit ?? 100;
  return store.transaction(async (tx: WriteTransaction) => {
    let after = 0;
    let items = 0;
    let restamped = 0;
    const restampedIds: string[] = [];
    for (;;) {
      const page = await tx.scanItems(after, batchSize);
      if (page.length === 0) break;
      after = (page[page.length - 1] as ScannedItem).pk;
      const live = page.filter((s) => !s.deleted);
      items += live.length;
      // No datestamp given: the store keeps it when nothing changed and stamps a change with its clock.
      for (const r of await tx.writeItems(live.map(itemFromScan))) {
        if (r.outcome === 'unchanged') continue;
        restamped++;
        if (restampedIds.length < listLimit) restampedIds.push(r.internalId);
      }
    }
    return { items, restamped, restampedIds };
  });
}
