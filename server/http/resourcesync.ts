/**
 * ResourceSync (ANSI/NISO Z39.99-2017, ResourceSync 1.1) and the sitemap of
 * record pages, as one Express router the app mounts beside the OAI-PMH
 * endpoint. Nothing here writes; every document is read from the store as
 * it is sent (server/http/served.ts), with validators and 304s.
 *
 * The structure (section 6.1): the Source Description at the well-known URI
 * lists a Capability List per format, and per format and set; each names
 * the scope's Resource List, Resource Dump (./sync-dump.ts) and Change List
 * (./sync-changes.ts). The resources are the records' metadata, one document
 * per record and format (`/resourcesync/{prefix}/record/{identifier}`),
 * whose bytes every `md5` and `length` describes. A list longer than
 * `partSize` is split under an index. A document that would list nothing is
 * not published (the Sitemaps XSDs require an entry): its URL answers 404
 * with the reason, and the document above it leaves it out.
 */
import express from 'express';
import { confirmAbsence } from './absence';
import type { Logger } from 'pino';
import type { ProviderContext } from '../../lib/oai';
import type { SyncScope } from '../../lib/store';
import { checkFragment } from '../../lib/xml/fragment';
import {
  closeDocument,
  entry,
  openDocument,
  resourceBytes,
  resourceDigest,
  SITEMAP_LIMIT,
  XML_TYPE,
  parseSitemapPath,
  parseSyncPath,
  WELL_KNOWN,
  type SyncDoc,
} from '../../lib/resourcesync';
import { send, weakTag, type Answer, type Served } from './served';
import { sitemapAnswer } from './sitemap';
import { changeListAnswer, changePageAnswer } from './sync-changes';
import { packageAnswer, resourceDumpAnswer } from './sync-dump';
import { ALL_PKS, fingerprintResources, listLinks, offered, partRange, soundRecords, syncFormats, syncUrl, type PkRange, type SyncContext } from './sync-scan';

/** How the ResourceSync side is tuned; the defaults are what the Sitemap protocol and the specification ask. */
export interface ResourceSyncOptions {
  /** Entries per document before a list is split under an index. Default 50,000 (the Sitemap limit); tests use a few. */
  readonly partSize?: number;
  /** ZIP64 records in every package, not only where needed (tests read that path back). Default `auto`. */
  readonly zip64?: 'auto' | 'always';
}

/** What the router needs from the app. */
export interface SyncRouteOptions {
  readonly ctx: ProviderContext;
  readonly logger: Logger;
  /** The clock, in seconds. */
  readonly now: () => number;
  /** zlib level of encoded documents and of the packages. */
  readonly compressionLevel: number;
  readonly options?: ResourceSyncOptions;
}

const PATHS = /^\/(?:\.well-known\/resourcesync$|resourcesync\/|robots\.txt$|sitemap(?:\.xml$|\/))/;

/**
 * The router of `/.well-known/resourcesync`, `/resourcesync/…`,
 * `/robots.txt`, `/sitemap.xml` and `/sitemap/{n}.xml` (GET and HEAD);
 * any other path under them is 404.
 *
 * @example app.use(syncRouter({ ctx, logger, now, compressionLevel: 4 }));
 */
export function syncRouter(o: SyncRouteOptions): express.Router {
  const router = express.Router();
  const origin = new URL(o.ctx.repository.baseURL).origin;
  const partSize = o.options?.partSize ?? SITEMAP_LIMIT;
  if (!Number.isSafeInteger(partSize) || partSize < 2) throw new Error(`partSize must be an integer of at least 2, not ${partSize}`);
  const sendOptions = { codings: o.ctx.repository.compression as ('gzip' | 'deflate')[], level: o.compressionLevel };
  router.get(PATHS, async (req, res, next) => {
    try {
      const c: SyncContext = {
        ctx: o.ctx,
        origin,
        partSize,
        now: o.now(),
        level: o.compressionLevel,
        zip64: o.options?.zip64 ?? 'auto',
        leftOut: (where, reason) => o.logger.error({ where, reason }, 'a record left out of a ResourceSync or sitemap document'),
      };
      const q = req.originalUrl.indexOf('?');
      const sitemap = parseSitemapPath(req.path);
      const doc = sitemap === null ? parseSyncPath(req.path, q < 0 ? '' : req.originalUrl.slice(q + 1)) : null;
      const find = async (): Promise<Answer> =>
        sitemap !== null ? sitemapAnswer(c, sitemap) : doc !== null ? syncAnswer(c, doc) : { status: 404, message: 'Not found.\n' };
      // A replica behind its primary must not say a document or record is not there (./absence.ts).
      const answer = await confirmAbsence(o.ctx.store, await find(), (a) => 'status' in a && a.status === 404 && (sitemap !== null || doc !== null), find);
      await send(req, res, answer, sendOptions);
    } catch (err) {
      next(err);
    }
  });
  return router;
}

/** The answer to a ResourceSync request. */
function syncAnswer(c: SyncContext, doc: SyncDoc): Promise<Answer> {
  switch (doc.kind) {
    case 'description':
      return descriptionAnswer(c, doc.part);
    case 'capabilitylist':
      return capabilityAnswer(c, doc.scope);
    case 'resourcelist':
      return resourceListAnswer(c, doc.scope, doc.part);
    case 'resourcedump':
      return resourceDumpAnswer(c, doc.scope);
    case 'package':
      return packageAnswer(c, doc.scope, doc.part);
    case 'changelist':
      return changeListAnswer(c, doc.scope, doc.from);
    case 'changepage':
      return changePageAnswer(c, doc.scope, doc.after);
    case 'record':
      return recordAnswer(c, doc.metadataPrefix, doc.identifier);
  }
}

/**
 * The Source Description (section 8): a Capability List per format that has
 * any record, then one per set and format the set has records of; past
 * `partSize` of them, a Source Description Index of parts.
 */
async function descriptionAnswer(c: SyncContext, part: number | undefined): Promise<Answer> {
  const store = c.ctx.store;
  const prefixes = syncFormats(c);
  const lists: string[] = [];
  for (const p of prefixes)
    if ((await store.syncPresence({ metadataPrefix: p })).any) lists.push(syncUrl(c, { kind: 'capabilitylist', scope: { metadataPrefix: p } }));
  for (let after: string | null = null; ;) {
    const sets = await store.listSets(after, 500);
    for (const s of sets) {
      for (const p of await store.syncSetFormats(s.spec, prefixes))
        lists.push(syncUrl(c, { kind: 'capabilitylist', scope: { metadataPrefix: p, set: s.spec } }));
    }
    if (sets.length < 500) break;
    after = sets[sets.length - 1]?.spec ?? null;
  }
  if (lists.length === 0) return { status: 404, message: 'This repository has published no record yet.\n' };
  const lastModified = Math.max(0, ...(await Promise.all(prefixes.map((p) => store.syncLatest({ metadataPrefix: p })))));
  const about = [{ rel: 'describedby' as const, href: `${c.ctx.repository.baseURL}?verb=Identify` }];
  if (part === undefined && lists.length > c.partSize) {
    const parts = Math.ceil(lists.length / c.partSize);
    return xmlAnswer(weakTag(['description-index', parts]), lastModified, async (out) => {
      await out.text(openDocument('sitemapindex', { capability: 'description' }, about));
      for (let k = 0; k < parts; k++) await out.text(entry('sitemapindex', { loc: syncUrl(c, { kind: 'description', part: k }) }));
      await out.text(closeDocument('sitemapindex'));
    });
  }
  const slice = part === undefined ? lists : lists.slice(part * c.partSize, (part + 1) * c.partSize);
  if (slice.length === 0 || (part !== undefined && lists.length <= c.partSize)) return { status: 404, message: 'No such part.\n' };
  const links = part === undefined ? about : [...about, { rel: 'index' as const, href: `${c.origin}${WELL_KNOWN}` }];
  return xmlAnswer(weakTag(['description', part ?? -1, ...slice]), lastModified, async (out) => {
    await out.text(openDocument('urlset', { capability: 'description' }, links));
    for (const loc of slice) await out.text(entry('urlset', { loc, md: { capability: 'capabilitylist' } }));
    await out.text(closeDocument('urlset'));
  });
}

/** A Capability List (section 9): the scope's Resource List and Resource Dump while it has live records, and its Change List. */
async function capabilityAnswer(c: SyncContext, scope: SyncScope): Promise<Answer> {
  if (!offered(c, scope)) return { status: 404, message: 'No such format here.\n' };
  const presence = await c.ctx.store.syncPresence(scope);
  if (!presence.any) return { status: 404, message: 'Nothing of this format or set has been published here.\n' };
  // Section 9, Example 13: in the order resource list, resource dump, change list.
  const capabilities = [...(presence.live ? (['resourcelist', 'resourcedump'] as const) : []), 'changelist' as const];
  const up = `${c.origin}${WELL_KNOWN}`;
  return xmlAnswer(weakTag(['capabilitylist', scope.metadataPrefix, scope.set ?? '', ...capabilities]), await c.ctx.store.syncLatest(scope), async (out) => {
    await out.text(openDocument('urlset', { capability: 'capabilitylist' }, [{ rel: 'up', href: up }]));
    for (const capability of capabilities) await out.text(entry('urlset', { loc: syncUrl(c, { kind: capability, scope }), md: { capability } }));
    await out.text(closeDocument('urlset'));
  });
}

/**
 * `resourcelist.xml`: one Resource List (section 10.1) while the scope has at
 * most `partSize` live records, else a Resource List Index (section 10.2) of
 * its runs of pks; `resourcelist/{n}.xml`: the Resource List of run n.
 */
async function resourceListAnswer(c: SyncContext, scope: SyncScope, part: number | undefined): Promise<Answer> {
  if (!offered(c, scope)) return { status: 404, message: 'No such format here.\n' };
  const store = c.ctx.store;
  if (part !== undefined) return resourceList(c, scope, partRange(part, c.partSize), true);
  const count = await store.syncCount(scope, c.partSize + 1);
  if (count === 0) return { status: 404, message: 'No live record of this format or set.\n' };
  if (count <= c.partSize) return resourceList(c, scope, ALL_PKS, false);
  const parts = await store.syncParts(scope, c.partSize);
  return xmlAnswer(
    weakTag(['resourcelist-index', scope.metadataPrefix, scope.set ?? '', ...parts.map((p) => p.part)]),
    await store.syncLatest(scope),
    async (out) => {
      await out.text(openDocument('sitemapindex', { capability: 'resourcelist', at: c.now }, listLinks(c, scope)));
      for (const p of parts) await out.text(entry('sitemapindex', { loc: syncUrl(c, { kind: 'resourcelist', scope, part: p.part }) }));
      await out.text(closeDocument('sitemapindex'));
    },
  );
}

/** A Resource List of the live records of a pk range: each record's URL, datestamp, length, MD5 and type. */
async function resourceList(c: SyncContext, scope: SyncScope, range: PkRange, inIndex: boolean): Promise<Answer> {
  const first = await fingerprintResources(c, scope, range);
  if (first.count === 0) return { status: 404, message: 'No live record here.\n' };
  const links = listLinks(c, scope, inIndex ? { kind: 'resourcelist', scope } : undefined);
  return xmlAnswer(first.etag, first.lastModified, async (out) => {
    await out.text(openDocument('urlset', { capability: 'resourcelist', at: c.now }, links));
    for await (const { datestamp, xml, loc } of soundRecords(c, scope, range)) {
      const { md5, length } = resourceDigest(xml);
      await out.text(entry('urlset', { loc, lastmod: datestamp, md: { hash: `md5:${md5}`, length, type: XML_TYPE } }));
    }
    await out.text(closeDocument('urlset'));
  });
}

/** A record's metadata in one format, as the document every list describes; 410 for a deleted record. */
async function recordAnswer(c: SyncContext, metadataPrefix: string, identifier: string): Promise<Answer> {
  if (!offered(c, { metadataPrefix })) return { status: 404, message: 'No such format here.\n' };
  const record = await c.ctx.store.getRecord(identifier, metadataPrefix);
  if (record === null) return { status: 404, message: 'No such record in this format.\n' };
  if (record.deleted || record.metadata === null) return { status: 410, message: 'Gone: this record was deleted. Its identifier stays reserved for it.\n' };
  const problem = checkFragment(record.metadata);
  // Corrupt stored data is the operator's to mend: a 500, logged by the app, rather than bytes that are not XML.
  if (problem !== null) throw new Error(`the stored ${metadataPrefix} metadata of ${identifier} is not one well-formed element: ${problem}`);
  const bytes = resourceBytes(record.metadata);
  const { md5 } = resourceDigest(record.metadata);
  return { type: XML_TYPE, etag: `"${md5}"`, lastModified: record.datestamp, compressible: false, length: bytes.length, write: (out) => out.bytes(bytes) };
}

/** An XML document's answer, gzip-able. */
function xmlAnswer(etag: string, lastModified: number, write: Served['write']): Answer {
  return { type: XML_TYPE, etag, lastModified, compressible: true, write };
}
