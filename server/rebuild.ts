/**
 * The rebuild commands: every stored item written again through the store's
 * one write path, so the write gate's content hash decides what changed. An
 * item whose output came out the same keeps its datestamp; one whose output
 * changed gets a new one, so incremental harvesters pick up exactly those
 * items (OAI-PMH 2.0 section 2.7.1) and nothing else is re-harvested; a
 * second run changes nothing.
 *
 * - `oai-steward rebuild-formats`: after a writer or reader was corrected,
 *   a format option changed, or a format was added to or removed from the
 *   configuration;
 * - `oai-steward rebuild-sets`: after a set rule changed.
 *
 * Both write each stored item again as the record it was written from
 * (`storedInput`), so the one pipeline decides everything anew, harvested
 * items as well as local ones: a rebuild is this store's own work, so each
 * keeps the origin it is stored with (lib/pipeline/governance.ts, rule 6).
 *
 * One transaction; a page of items at a time (the store's `scanItems`), so
 * memory holds one page however large the repository. Tombstones are left
 * as they are.
 */
import type { FormatRegistry } from '../lib/formats/registry';
import type { ItemInput, PartialWrite, ScannedItem, TransactionalStore, WriteResult, WriteTransaction } from '../lib/store';

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
  /** Asked after each page: throws ./interrupt.ts `InterruptedError` to stop, and the one transaction rolls back. */
  readonly interrupt?: { checkpoint(): Promise<void> };
}

/**
 * Writes every live item again, as `toItem` makes it (null: leave it out),
 * all or nothing (a staged transaction), and counts the items the store
 * re-stamped.
 *
 * @example await rewriteEveryItem(store, (s) => storedInput(s, formats))
 */
export async function rewriteEveryItem(
  store: TransactionalStore,
  toItem: (s: ScannedItem) => ItemInput | null,
  options: RebuildOptions & { readonly first?: (tx: WriteTransaction) => Promise<void> } = {},
): Promise<RebuildSummary> {
  const batchSize = options.batchSize ?? 500;
  const listLimit = options.listLimit ?? 100;
  let restamped = 0;
  const restampedIds: string[] = [];
  const count = (results: readonly WriteResult[], by: 1 | -1): void => {
    for (const r of results) {
      if (r.outcome === 'unchanged') continue;
      restamped += by;
      if (by === 1 && restampedIds.length < listLimit && !restampedIds.includes(r.internalId)) restampedIds.push(r.internalId);
    }
  };
  // Decided without the write lock where the store has one writer at a time, applied at the end in one short
  // step (server/store/staging.ts); a batch another writer changed meanwhile is decided again, and counted as it came out.
  const redecided = (before: readonly WriteResult[], now: PartialWrite): void => {
    count(before, -1);
    count(now.results, 1);
  };
  const items = await store.stagedTransaction(
    async (tx: WriteTransaction) => {
      await options.first?.(tx);
      let after = 0;
      let written = 0;
      for (;;) {
        // Only what each record gave: the pipeline writes every other format again (`storedInput`).
        const page = await tx.scanItems(after, batchSize, { givenOnly: true });
        if (page.length === 0) break;
        after = (page[page.length - 1] as ScannedItem).pk;
        const batch = page.flatMap((s) => {
          const item = s.deleted ? null : toItem(s);
          return item === null ? [] : [item];
        });
        written += batch.length;
        if (batch.length === 0) continue;
        // No datestamp given: the store keeps it when the content is unchanged and stamps a change with its clock.
        count(await tx.writeItems(batch), 1);
        await options.interrupt?.checkpoint();
      }
      return written;
    },
    { redecided },
  );
  return { items, restamped, restampedIds };
}

/**
 * The record a stored item was written from, as the write pipeline takes it
 * again: the XML it gave for each format still configured (not what the
 * pipeline wrote; a harvested record's as harvested), its model when it
 * gave one (a model lifted from its XML is lifted again, so a corrected
 * reader reaches it), its sets and about containers, and its origin as a
 * `rewrite`, so a harvested item is written again in its source's id space
 * and stays harvested from it. The pipeline writes every format again and
 * applies the set rules; what comes out the same keeps its datestamp.
 *
 * @example storedInput(page[0], provider.formats).metadata // the XML the record gave
 */
export function storedInput(s: ScannedItem, formats: FormatRegistry): ItemInput {
  const written = new Set(s.written ?? []);
  const given: Record<string, string> = {};
  for (const [prefix, xml] of Object.entries(s.metadata)) if (xml !== null && !written.has(prefix) && formats.get(prefix)) given[prefix] = xml;
  return {
    internalId: s.internalId,
    sets: s.sets,
    metadata: given,
    ...(s.fields !== undefined && s.liftedFrom === undefined && { fields: s.fields }),
    // The about containers as stored: neither dropped nor a reason to re-stamp.
    ...(s.about !== undefined && s.about.length > 0 && { about: s.about }),
    // The store's own work: the item keeps its origin (a harvested one its source datestamp too), which governance checks is the stored one.
    rewrite: { origin: s.origin ?? null },
    source: `stored item ${JSON.stringify(s.internalId)}`,
  };
}

/**
 * Writes every stored item again through the whole pipeline and re-stamps
 * exactly the items whose output changed: after a writer or reader was
 * corrected, a format option such as oai_datacite's datacentreSymbol was
 * configured, or a format was added to or removed from the configuration.
 *
 * @example const { restamped } = await rebuildFormats(provider.store, provider.formats);
 */
export function rebuildFormats(store: TransactionalStore, formats: FormatRegistry, options: RebuildOptions = {}): Promise<RebuildSummary> {
  // Formats a store writes on demand are written under this configuration from now on (server/store/on-demand.ts),
  // in the same transaction as the writes that re-stamp every item whose output it changes.
  return rewriteEveryItem(store, (s) => storedInput(s, formats), { ...options, first: (tx) => tx.adoptWrittenFormats() });
}

/**
 * Recomputes the rule sets of every live item (the pipeline applies the
 * configured rules as it writes each again) and re-stamps exactly the items
 * whose sets changed.
 *
 * @example const { restamped } = await rebuildSets(provider.store, provider.formats);
 */
export function rebuildSets(store: TransactionalStore, formats: FormatRegistry, options: RebuildOptions = {}): Promise<RebuildSummary> {
  return rewriteEveryItem(store, (s) => storedInput(s, formats), options);
}
