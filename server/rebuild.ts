/**
 * `oai-steward rebuild-formats`: runs every crosswalk again over the record
 * fields stored with each item (migration 002) and writes the result through
 * the store's one write path. The write gate's content hash decides what
 * changed: an item whose metadata in every format came out the same keeps
 * its datestamp; one whose output changed (a crosswalk was corrected, a
 * format option such as oai_datacite's datacentreSymbol was configured, a
 * format was added to or removed from the configuration) gets a new
 * datestamp, so incremental harvesters pick up exactly those items
 * (OAI-PMH 2.0 section 2.7.1) and nothing else is re-harvested.
 *
 * One transaction; a page of items at a time, so memory holds one page
 * however large the repository.
 */
import { crosswalkItem, type RecordConversion } from '../lib/records/json-record';
import type { ItemInput, RecordFieldsStore, StoredRecordFields, TransactionalStore, WriteTransaction } from '../lib/store';

/** What a rebuild did. */
export interface RebuildSummary {
  /** Live items with stored record fields, all looked at. */
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
 * The item a stored record makes now: the XML the record gave (formats it
 * did not get from a crosswalk, still configured) kept as it is, every
 * crosswalk run again.
 *
 * @example itemFromStored(conv, page[0]).metadata.marc21
 */
export function itemFromStored(conv: RecordConversion, r: StoredRecordFields): ItemInput {
  const given: Record<string, string> = {};
  for (const [prefix, xml] of Object.entries(r.metadata)) {
    if (!r.derived.includes(prefix) && conv.formats.get(prefix)) given[prefix] = xml;
  }
  const { metadata, derived } = crosswalkItem(conv, r.internalId, r.fields, given);
  return {
    internalId: r.internalId,
    sets: r.sets,
    metadata,
    derived,
    fields: r.fields,
    identifiers: [...(r.fields.dc.identifier ?? [])],
    ...(r.about !== undefined && r.about.length > 0 && { about: r.about }),
    source: `stored item ${JSON.stringify(r.internalId)}`,
  };
}

/**
 * Re-derives every stored item's crosswalked formats in one transaction and
 * re-stamps exactly the items whose output changed.
 *
 * @example const { restamped } = await rebuildFormats(provider.store, provider.conversion);
 */
export async function rebuildFormats(store: TransactionalStore, conv: RecordConversion, options: RebuildOptions = {}): Promise<RebuildSummary> {
  const batchSize = options.batchSize ?? 500;
  const listLimit = options.listLimit ?? 100;
  return store.transaction(async (tx: WriteTransaction & RecordFieldsStore) => {
    let after = 0;
    let items = 0;
    let restamped = 0;
    const restampedIds: string[] = [];
    for (;;) {
      const page = await tx.storedRecordFields(after, batchSize);
      if (page.length === 0) break;
      after = (page[page.length - 1] as StoredRecordFields).pk;
      items += page.length;
      // No datestamp given: the store keeps it when the content is unchanged and stamps a change with its clock.
      const results = await tx.writeItems(page.map((r) => itemFromStored(conv, r)));
      for (const r of results) {
        if (r.outcome === 'unchanged') continue;
        restamped++;
        if (restampedIds.length < listLimit) restampedIds.push(r.internalId);
      }
    }
    return { items, restamped, restampedIds };
  });
}
