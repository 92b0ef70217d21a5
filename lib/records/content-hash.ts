/**
 * The content hash of an item: a digest of everything it disseminates, which
 * decides whether a write changed it (and so whether its datestamp moves),
 * and tells two versions of one harvested record apart in a load.
 */
import crypto from 'node:crypto';
import type { AboutInput } from '../store';

/**
 * The content hash that decides "unchanged": everything an item
 * disseminates, so that its datestamp moves exactly when that changes: its
 * direct sets, deletion and (for a live item) the metadata of every format,
 * in a canonical order, its `about` containers, in order (each as its
 * `compareAs`), and the stored record fields (JSON) when the item has them,
 * so changed fields are stored even when no format shows the change. An item
 * without about containers hashes as it did before they were stored, so
 * upgrading re-stamps nothing.
 *
 * @example contentHash(true, ['a'], new Map()) // the hash of a tombstone in set a
 */
export function contentHash(
  deleted: boolean,
  sets: readonly string[],
  metadata: ReadonlyMap<string, string | null>,
  about: readonly AboutInput[] = [],
  fields?: string,
): string {
  const entries = [...metadata.entries()].sort(([a], [b]) => cmp(a, b));
  const canonical = deleted
    ? JSON.stringify({ deleted: true, sets })
    : JSON.stringify({
        deleted: false,
        sets,
        metadata: entries,
        ...(about.length > 0 && { about: about.map((a) => a.compareAs ?? a.xml) }),
        ...(fields !== undefined && { fields }),
      });
  return crypto.createHash('sha256').update(canonical).digest('hex');
}

/** Code point order, as the databases compare (server/db/dialect.ts), unlike JS's UTF-16 sort. */
function cmp(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Distinct values in code point order. @example uniqueSorted(['b', 'a', 'b']) // ['a', 'b'] */
export function uniqueSorted(list: readonly string[]): string[] {
  return [...new Set(list)].sort(cmp);
}

