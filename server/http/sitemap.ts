/**
 * What search engines read: `robots.txt`, naming the sitemap, and the
 * sitemap of record pages (sitemaps.org protocol 0.9): the home page and
 * every live record's page (its GetRecord in oai_dc, which a browser gets as
 * HTML) with its datestamp as `lastmod`. Deleted records are left out (their
 * pages answer 410, server/http/pages.ts). Past `partSize` URLs the sitemap
 * is a sitemap index of parts, one per run of `partSize` pks.
 */
import type { SyncScope } from '../../lib/store';
import { closeDocument, entry, openDocument, XML_TYPE, sitemapPath, type SitemapDoc } from '../../lib/resourcesync';
import { landingPage } from './item';
import { weakTag, type Answer } from './served';
import { ALL_PKS, fingerprintResources, fitting, partRange, resources, type PkRange, type SyncContext } from './sync-scan';

/** Every item can be disseminated in oai_dc (OAI-PMH 3.4): its record page is that format's. */
const PAGES: SyncScope = { metadataPrefix: 'oai_dc' };

/** The answer to `/robots.txt`, `/sitemap.xml` or `/sitemap/{n}.xml`. */
export async function sitemapAnswer(c: SyncContext, doc: SitemapDoc): Promise<Answer> {
  if (doc.kind === 'robots') return robots(c);
  if (doc.part !== undefined) return urlset(c, partRange(doc.part, c.partSize), false);
  const store = c.ctx.store;
  // One sitemap holds the home page and up to partSize - 1 records.
  if ((await store.syncCount(PAGES, c.partSize)) < c.partSize) return urlset(c, ALL_PKS, true);
  const parts = await store.syncParts(PAGES, c.partSize);
  return {
    type: XML_TYPE,
    etag: weakTag(['sitemap-index', ...parts.map((p) => p.part)]),
    lastModified: await store.syncLatest(PAGES),
    compressible: true,
    async write(out) {
      await out.text(openDocument('sitemapindex'));
      for (const p of parts) await out.text(entry('sitemapindex', { loc: `${c.origin}${sitemapPath({ kind: 'sitemap', part: p.part })}` }));
      await out.text(closeDocument('sitemapindex'));
    },
  };
}

/** A sitemap of the pages of the live records of a pk range, after the home page when asked. */
async function urlset(c: SyncContext, range: PkRange, home: boolean): Promise<Answer> {
  const first = await fingerprintResources(c, PAGES, range);
  if (first.count === 0 && !home) return { status: 404, message: 'No live record here.\n' };
  return {
    type: XML_TYPE,
    etag: first.etag,
    lastModified: first.lastModified,
    compressible: true,
    async write(out) {
      await out.text(openDocument('urlset'));
      if (home) await out.text(entry('urlset', { loc: `${c.ctx.repository.baseURL}?verb=Identify` }));
      for await (const r of resources(c, PAGES, range, false)) {
        const loc = fitting(c, landingPage(c.ctx, r.identifier), r.identifier);
        if (loc !== null) await out.text(entry('urlset', { loc, lastmod: r.datestamp }));
      }
      await out.text(closeDocument('urlset'));
    },
  };
}

/** robots.txt (RFC 9309): everything may be crawled; the sitemap is named (sitemaps.org, "Informing search engine crawlers"). */
function robots(c: SyncContext): Answer {
  const text = `User-agent: *\nAllow: /\n\nSitemap: ${c.origin}${sitemapPath({ kind: 'sitemap' })}\n`;
  return { type: 'text/plain; charset=utf-8', etag: weakTag([text]), compressible: false, length: Buffer.byteLength(text), write: (out) => out.text(text) };
}
