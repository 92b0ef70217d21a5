/**
 * The rebuild commands: every stored item written again through the store's
 * one write path, so the write gate's content hash decides what changed. An
 * item whose output came out the same keeps its datestamp; one whose output
 * changed gets a new one, so incremental harvesters pick up exactly those
 * items (OAI-PMH 2.0 section 2.7.1) and nothing else is re-harvested; a
 * second run changes nothing.
 *
 * - `oai-steward rebuild-formats` runs every crosswalk again over the record
 *   fields stored with each item (migration 002): after a crosswalk was
 *   corrected, a format option such as oai_datacite's datacentreSymbol was
 *   configured, or a format was added to or removed from the configuration.
 * - `oai-steward rebuild-sets` writes each item's sets, metadata and fields
 *   as stored, and the write path applies the configured set rules
 *   (server/store/knex-store.ts `setRules`): after a rule changed.
 *
 * One transaction; a page of items at a time (the store's `scanItems`), so
 * memory holds one page however large the repository. Tombstones are left
 * as they are.
 */
import { crosswalkItem, type RecordConversion } from '../lib/records/json-record';
import type { RecordFields } from '../lib/model/record';
import { dcIdentifiers } from '../lib/xml/dc-identifiers';
import type { ItemInput, ScannedItem, TransactionalStore, WriteTransaction } from '../lib/store';

/** What a rebuild did. */
export interface RebuildSummary {
  /** Live items looked at (for rebuild-formats: those with stored record fields). */
  readonly items: number;
  /** Items whose output changed and got a new datestamp. */
  readonly restamped: number;
  /** The internal ids of the restamped items, at most `listLimit` of them. */
  readonly restampedIds: readonly string[];
}

/** How a rebuild runs. */
export interface RebuildOptions {
  /** Items per page. Default 500. */
  readonly batchSize?: number;
  /** How many restamped ids the summary lists. Default 100. */
  readonly listLimit?: number;
}

/**
 * Writes every live item again, as `toItem` makes it (null: leave it out),
 * in one transaction, and counts the items the store re-stamped.
 *
 * @example await rewriteEveryItem(store, (s) => storedItem(s))
 */
export async function rewriteEveryItem(
  store: TransactionalStore,
  toItem: (s: ScannedItem) => ItemInput | null,
  options: RebuildOptions = {},
): Promise<RebuildSummary> {
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
      const batch = page.flatMap((s) => {
        const item = s.deleted ? null : toItem(s);
        return item === null ? [] : [item];
      });
      items += batch.length;
      if (batch.length === 0) continue;
      // No datestamp given: the store keeps it when the content is unchanged and stamps a change with its clock.
      for (const r of await tx.writeItems(batch)) {
        if (r.outcome === 'unchanged') continue;
        restamped++;
        if (restampedIds.length < listLimit) restampedIds.push(r.internalId);
      }
    }
    return { items, restamped, restampedIds };
  });
}

/** The metadata a stored item has, tombstone nulls left out. */
function storedMetadata(s: ScannedItem): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [prefix, xml] of Object.entries(s.metadata)) if (xml !== null) metadata[prefix] = xml;
  return metadata;
}

/**
 * The identifier fields of a stored item with record fields: its
 * dc:identifier values, then those its stored crosswalk oai_dc carries
 * besides (e.g. the POI), since a `derived` prefix promises the write gate
 * that its identifiers are among the item's own (lib/store.ts).
 */
function storedIdentifiers(s: ScannedItem, fields: RecordFields): string[] {
  const out = [...(fields.dc.identifier ?? [])];
  const dc = s.derived?.includes('oai_dc') === true ? s.metadata.oai_dc : null;
  for (const v of dc ? dcIdentifiers(dc) : []) if (!out.includes(v)) out.push(v);
  return out;
}

/**
 * The item a stored one makes when written again as it is: its sets,
 * metadata and record fields as stored (the write path applies the rules).
 *
 * @example storedItem(page[0]).sets
 */
export function storedItem(s: ScannedItem): ItemInput {
  return {
    internalId: s.internalId,
    sets: s.sets,
    metadata: storedMetadata(s),
    ...(s.fields !== undefined && { fields: s.fields, derived: s.derived ?? [], identifiers: storedIdentifiers(s, s.fields) }),
    // The about containers as stored: neither dropped nor a reason to re-stamp.
    ...(s.about !== undefined && s.about.length > 0 && { about: s.about }),
    source: `stored item ${JSON.stringify(s.internalId)}`,
  };
}

/**
 * The item a stored record makes now: the XML the record gave (formats it
 * did not get from a crosswalk, still configured) kept as it is, every
 * crosswalk run again. Null for an item without record fields (loaded as
 * XML only): there is nothing to run a crosswalk over.
 *
 * @example rederivedItem(conv, page[0])?.metadata.marc21
 */
export function rederivedItem(conv: RecordConversion, s: ScannedItem): ItemInput | null {
  if (s.fields === undefined) return null;
  const given: Record<string, string> = {};
  const derivedBefore = s.derived ?? [];
  for (const [prefix, xml] of Object.entries(storedMetadata(s))) {
    if (!derivedBefore.includes(prefix) && conv.formats.get(prefix)) given[prefix] = xml;
  }
  const { metadata, derived, identifiers } = crosswalkItem(conv, s.internalId, s.fields, given);
  return { ...storedItem(s), metadata, derived, identifiers };
}

/**
 * Re-derives every stored item's crosswalked formats and re-stamps exactly
 * the items whose output changed.
 *
 * @example const { restamped } = await rebuildFormats(provider.store, provider.conversion);
 */
export function rebuildFormats(store: TransactionalStore, conv: RecordConversion, options: RebuildOptions = {}): Promise<RebuildSummary> {
  return rewriteEveryItem(store, (s) => rederivedItem(conv, s), options);
}

/**
 * Recomputes the rule sets of every live item and re-stamps exactly the
 * items whose sets changed. The store must have been opened with the
 * configuration's `setRules` (server/provider.ts does).
 *
 * @example const { restamped } = await rebuildSets(provider.store);
 */
export function rebuildSets(store: TransactionalStore, options: RebuildOptions = {}): Promise<RebuildSummary> {
  return rewriteEveryItem(store, storedItem, options);
}
