/**
 * A harvested page written in parts under the batch byte budget (a page of
 * 50 MB is never one write), and the newest version of each record a page
 * gives twice.
 */
import type { Refusal } from '../../lib/model/refusal';
import { type ItemInput, type WriteResult, type WriteTransaction } from '../../lib/store';
import { writeLeavingOutRefused, type PartialWrite } from '../../lib/pipeline/partial';
import { MAX_BATCH_INPUT_BYTES } from '../loader/limits';

/**
 * The most bytes of records (metadata and about containers, as text) one
 * write of a page is given, as a load's batch (../loader/limits.ts): a page
 * of 50 MB is written in parts, so what the write decision derives from it
 * (each format prepared, the XSD checks, the statements) is a part's, not
 * the page's. The parts share the page's transaction: the page and its
 * checkpoint still commit together.
 */
const PAGE_PART_BYTES = MAX_BATCH_INPUT_BYTES;

/** The page's items written a part of at most {@link PAGE_PART_BYTES} at a time, each leaving out its refused records. */
export async function writeInParts(tx: WriteTransaction, items: readonly ItemInput[]): Promise<PartialWrite> {
  const written: ItemInput[] = [];
  const refusals: Refusal[] = [];
  const results: WriteResult[] = [];
  let refusedItems = 0;
  let part: ItemInput[] = [];
  let bytes = 0;
  const flush = async (): Promise<void> => {
    if (part.length === 0) return;
    const w = await writeLeavingOutRefused(tx, part);
    written.push(...w.written);
    refusals.push(...w.refusals);
    results.push(...w.results);
    refusedItems += w.refusedItems;
    part = [];
    bytes = 0;
  };
  for (const i of items) {
    const size = Object.values(i.metadata).reduce((n, x) => n + x.length, 0) + (i.about ?? []).reduce((n, a) => n + a.xml.length, 0);
    if (part.length > 0 && bytes + size > PAGE_PART_BYTES) await flush();
    part.push(i);
    bytes += size;
  }
  await flush();
  return { written, refusals, results, refusedItems };
}

/** A page naming one record twice keeps its newest version (a later one wins a tie). */
export function newestPerId(items: readonly ItemInput[]): ItemInput[] {
  const byId = new Map<string, ItemInput>();
  for (const i of items) {
    const had = byId.get(i.internalId);
    if (!had || (i.datestamp ?? 0) >= (had.datestamp ?? 0)) {
      byId.delete(i.internalId);
      byId.set(i.internalId, i);
    }
  }
  return [...byId.values()];
}
