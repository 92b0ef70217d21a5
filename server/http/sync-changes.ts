/**
 * Change Lists (ResourceSync 1.1 section 12) of a scope, from what the store
 * holds: each record's latest change (its datestamp; a tombstone, or in a
 * set's scope a departure, is a deletion), in forward chronological order.
 *
 * `changelist.xml[?from=…]` is one Change List when the changes since `from`
 * (since the first, without it) fit in one document, else a Change List
 * Index of pages of `partSize` changes. A page is named by the position it
 * starts after (`changelist/{datestamp}-{pk}.xml`) and holds the next
 * `partSize` changes: the last page is open (no `until`) and grows until it
 * is full; the others are closed, `until` their last change. Pages meet
 * inside a second when one second holds more changes than a page: both then
 * name that second, as `until` and as `from` (docs/resourcesync.md).
 */
import type { Keyset, SyncChange, SyncScope } from '../../lib/store';
import { changeOf, closeDocument, entry, openDocument, XML_TYPE, type Root } from '../../lib/resourcesync';
import type { Answer } from './served';
import { Fingerprint, weakTag } from './served';
import { BEFORE_ALL, changes, listLinks, offered, recordLoc, syncUrl, type SyncContext } from './sync-scan';

/** `changelist.xml`: the Change List or Change List Index of a scope, from `from` (seconds) or from the first change. */
export async function changeListAnswer(c: SyncContext, scope: SyncScope, from: number | undefined): Promise<Answer> {
  if (!offered(c, scope)) return { status: 404, message: 'No such format here.\n' };
  const store = c.ctx.store;
  // Without `from`, from the first change: the index names the time its changes begin.
  const first = await store.syncNthChange(scope, from === undefined ? BEFORE_ALL : { datestamp: from, pk: 0 }, 1);
  if (first === null)
    return { status: 404, message: from === undefined ? 'Nothing of this format or set has been published here.\n' : 'No change since then.\n' };
  const start: Keyset = { datestamp: from ?? first.datestamp, pk: 0 };
  if ((await store.syncNthChange(scope, start, c.partSize + 1)) === null) return page(c, scope, start, false);
  // A Change List Index: where each page starts, found inside the database (an OFFSET walk of one page each).
  const starts: Keyset[] = [start];
  const ends: Keyset[] = [];
  for (;;) {
    const end = await store.syncNthChange(scope, starts[starts.length - 1] as Keyset, c.partSize);
    if (end === null || (await store.syncNthChange(scope, end, 1)) === null) break;
    ends.push(end);
    starts.push(end);
  }
  const lastModified = await store.syncLatest(scope);
  return {
    type: XML_TYPE,
    etag: weakTag(['changelist-index', scope.metadataPrefix, scope.set ?? '', ...starts.flatMap((s) => [s.datestamp, s.pk])]),
    lastModified,
    compressible: true,
    async write(out) {
      await out.text(openDocument('sitemapindex', { capability: 'changelist', from: start.datestamp }, listLinks(c, scope)));
      for (const [k, s] of starts.entries()) {
        const until = ends[k]?.datestamp;
        await out.text(
          entry('sitemapindex', { loc: syncUrl(c, { kind: 'changepage', scope, after: s }), md: { from: s.datestamp, ...(until !== undefined && { until }) } }),
        );
      }
      await out.text(closeDocument('sitemapindex'));
    },
  };
}

/** `changelist/{datestamp}-{pk}.xml`: the next `partSize` changes after a position. */
export async function changePageAnswer(c: SyncContext, scope: SyncScope, after: Keyset): Promise<Answer> {
  if (!offered(c, scope)) return { status: 404, message: 'No such format here.\n' };
  return page(c, scope, after, true);
}

/**
 * A Change List of the changes after `after`, at most `partSize` of them:
 * closed (`until` its last change) when more follow, open otherwise.
 */
async function page(c: SyncContext, scope: SyncScope, after: Keyset, inIndex: boolean): Promise<Answer> {
  // The first pass reads what decides the entries (and whether more follow) without keeping them.
  const fp = new Fingerprint();
  fp.add(JSON.stringify([scope, after, inIndex]), 0);
  let count = 0;
  let more = false;
  let last: SyncChange | undefined;
  for await (const ch of changes(c, scope, after, c.partSize + 1)) {
    if (count === c.partSize) {
      more = true;
      fp.add('more', 0);
      break;
    }
    fp.add(`${ch.pk} ${ch.datestamp} ${ch.created} ${ch.deleted}`, Math.max(ch.datestamp, ch.created));
    last = ch;
    count++;
  }
  if (count === 0) return { status: 404, message: 'No change after this point.\n' };
  const until = more ? (last as SyncChange).datestamp : undefined;
  const links = listLinks(c, scope, inIndex ? { kind: 'changelist', scope } : undefined);
  const from = after.datestamp;
  return {
    type: XML_TYPE,
    ...fp.finish(),
    compressible: true,
    async write(out) {
      const root: Root = 'urlset';
      await out.text(openDocument(root, { capability: 'changelist', from, ...(until !== undefined && { until }) }, links));
      for await (const ch of changes(c, scope, after, count)) {
        const change = changeOf(ch);
        const loc = recordLoc(c, scope.metadataPrefix, ch.identifier);
        if (loc === null) continue;
        // ResourceSync 1.1 section 12.1, Example 19: a deleted resource has no lastmod.
        await out.text(entry(root, { loc, ...(change !== 'deleted' && { lastmod: ch.datestamp }), md: { change, datetime: ch.datestamp } }));
      }
      await out.text(closeDocument(root));
    },
  };
}
