/**
 * What the ResourceSync documents and the sitemap share: the context a
 * request is answered in, the absolute URLs they link to, and the scans of a
 * scope a batch at a time (memory holds one batch), with the fingerprint of
 * a long list taken in a first pass that reads no metadata.
 */
import type { ProviderContext } from '../../lib/oai';
import type { Keyset, SyncChange, SyncResource, SyncScope } from '../../lib/store';
import { checkFragment } from '../../lib/xml/fragment';
import { MAX_LOC, syncPath, type RsLn, type SyncDoc } from '../../lib/resourcesync';
import { Fingerprint } from './served';

/** Everything a ResourceSync or sitemap document is made from. */
export interface SyncContext {
  readonly ctx: ProviderContext;
  /** The repository's origin (`http://host:port`), from its base URL: every link is absolute (sitemaps.org, `loc`). */
  readonly origin: string;
  /** Entries per document before a list is split into parts under an index (the Sitemap limit, 50,000). */
  readonly partSize: number;
  /** The time of the request, seconds: the `at` of every snapshot. */
  readonly now: number;
  /** DEFLATE level of the Resource Dump packages. */
  readonly level: number;
  /** ZIP64 records in the packages: where needed, or always (tests). */
  readonly zip64: 'auto' | 'always';
  /** Told of a record left out of a document: its stored metadata is not one well-formed element, or its URL is too long for one. */
  readonly leftOut: (where: string, reason: string) => void;
}

/** A range of pks, after `afterPk` and up to `throughPk`. */
export interface PkRange {
  readonly afterPk: number;
  readonly throughPk: number;
}

/** Every pk. */
export const ALL_PKS: PkRange = { afterPk: 0, throughPk: Number.MAX_SAFE_INTEGER };

/** The pks of part `k` of a scope's runs of `partSize` (lib/store/read.ts `SyncPart`). */
export function partRange(k: number, partSize: number): PkRange {
  return { afterPk: k * partSize, throughPk: (k + 1) * partSize };
}

/** Before any change: datestamps may precede 1970 (a harvested record's own). */
export const BEFORE_ALL: Keyset = { datestamp: Number.MIN_SAFE_INTEGER, pk: 0 };

/** The absolute URL of a ResourceSync document or record. */
export function syncUrl(c: SyncContext, doc: SyncDoc): string {
  return `${c.origin}${syncPath(doc)}`;
}

/**
 * The formats of the repository that ResourceSync offers: every one, in
 * registry order, but a prefix `.` or `..` (a path segment no client keeps).
 */
export function syncFormats(c: SyncContext): string[] {
  return c.ctx.formats
    .all()
    .map((f) => f.prefix)
    .filter((p) => p !== '.' && p !== '..');
}

/** Whether a scope names a format ResourceSync offers. */
export function offered(c: SyncContext, scope: SyncScope): boolean {
  return syncFormats(c).includes(scope.metadataPrefix);
}

/** Rows read per query: few when they carry metadata, more when they are narrow. */
const XML_BATCH = 200;
const NARROW_BATCH = 2000;

/** The live records of a scope within a pk range, in pk order, a batch at a time. */
export async function* resources(c: SyncContext, scope: SyncScope, range: PkRange, withXml: boolean): AsyncGenerator<SyncResource> {
  let afterPk = range.afterPk;
  for (;;) {
    const limit = withXml ? XML_BATCH : NARROW_BATCH;
    const batch = await c.ctx.store.syncResources(scope, { afterPk, throughPk: range.throughPk, limit, withXml });
    yield* batch;
    if (batch.length < limit) return;
    afterPk = (batch[batch.length - 1] as SyncResource).pk;
  }
}

/**
 * `loc` when a document may hold it, else null after reporting the record
 * left out: a URL of more than 2,048 characters (an identifier of hundreds)
 * would make the document invalid for every reader of sitemaps.
 */
export function fitting(c: SyncContext, loc: string, identifier: string): string | null {
  if (loc.length <= MAX_LOC) return loc;
  c.leftOut(identifier, `its URL is ${loc.length} characters long, more than a sitemap loc may be (${MAX_LOC})`);
  return null;
}

/** The URL of a record's resource in one format, or null (reported) when no document may hold it. */
export function recordLoc(c: SyncContext, metadataPrefix: string, identifier: string): string | null {
  return fitting(c, syncUrl(c, { kind: 'record', metadataPrefix, identifier }), identifier);
}

/**
 * The live records of a range with their metadata and URL, each checked to
 * be one well-formed element (as the OAI-PMH writer checks stored XML
 * before splicing it in); one that is not, or whose URL no document may
 * hold, is reported and left out.
 */
export async function* soundRecords(
  c: SyncContext,
  scope: SyncScope,
  range: PkRange,
): AsyncGenerator<SyncResource & { readonly xml: string; readonly loc: string }> {
  for await (const r of resources(c, scope, range, true)) {
    const xml = r.xml as string;
    const problem = checkFragment(xml);
    const loc = problem === null ? recordLoc(c, scope.metadataPrefix, r.identifier) : null;
    if (problem !== null) c.leftOut(`${r.identifier} (${scope.metadataPrefix})`, problem);
    else if (loc !== null) yield { ...r, xml, loc };
  }
}

/** The links of a list of a scope: up to its Capability List and, for a part of an index, to the index. */
export function listLinks(c: SyncContext, scope: SyncScope, index?: SyncDoc): RsLn[] {
  return [{ rel: 'up', href: syncUrl(c, { kind: 'capabilitylist', scope }) }, ...(index ? [{ rel: 'index' as const, href: syncUrl(c, index) }] : [])];
}

/** Up to `max` changes of a scope after a position, in `(datestamp, pk)` order, a batch at a time. */
export async function* changes(c: SyncContext, scope: SyncScope, after: Keyset, max: number): AsyncGenerator<SyncChange> {
  let position = after;
  let left = max;
  while (left > 0) {
    const limit = Math.min(NARROW_BATCH, left);
    const batch = await c.ctx.store.syncChanges(scope, position, limit);
    yield* batch;
    if (batch.length < limit) return;
    left -= batch.length;
    const last = batch[batch.length - 1] as SyncChange;
    position = { datestamp: last.keyDatestamp ?? last.datestamp, pk: last.pk };
  }
}

/**
 * The first pass over a list of records: how many there are, and the tag and
 * time of what decides their entries (pk, datestamp and content hash, which
 * changes with any change of what an item disseminates).
 */
export async function fingerprintResources(c: SyncContext, scope: SyncScope, range: PkRange): Promise<{ count: number; etag: string; lastModified: number }> {
  const fp = new Fingerprint();
  fp.add(JSON.stringify(scope), 0);
  let count = 0;
  for await (const r of resources(c, scope, range, false)) {
    fp.add(`${r.pk} ${r.datestamp} ${r.contentHash}`, Math.max(r.datestamp, r.created));
    count++;
  }
  return { count, ...fp.finish() };
}
