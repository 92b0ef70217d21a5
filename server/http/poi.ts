/**
 * `GET /poi/{namespace}/{local}`, the POI resolver, with FAIR Signposting:
 * a live item answers 303 to its record page with the item's typed links
 * in `Link`; `Accept: application/linkset+json` (or `application/linkset`)
 * gets the same links as an RFC 9264 linkset instead; a deleted item
 * answers 410 and still says how to cite it; an unknown one 404.
 */
import type { Request, Response, NextFunction } from 'express';
import type { ProviderContext } from '../../lib/oai';
import type { RecordFieldsStore } from '../../lib/store';
import { linkHeader, linksetJson, linksetText, signpostingLinks } from '../../lib/signposting';
import { wantsLinkset } from './negotiate';
import { itemLinks, landingPage, loadItem } from './item';

/** What the resolver (server/provider.ts) answers for a POI path. */
export type PoiAnswer = { status: 303; location: string; identifier: string } | { status: 404 | 410 };

/** Resolves the two path segments of a POI. */
export type PoiResolver = (namespace: string, local: string) => Promise<PoiAnswer>;

/**
 * The Express handler of the resolver route; `fields` is where items' record
 * models are stored (the facts of the links are read from them).
 * Example: `app.get(/^\/poi\/([^/]+)\/(.+)$/, poiRoute(ctx, poiResolver(store, baseUrl), store))`.
 */
export function poiRoute(ctx: ProviderContext, resolve: PoiResolver, fields?: RecordFieldsStore) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      // The raw path, not Express's decoded params: a POI is compared as a string, escapes and all. A
      // local-identifier may hold "?" (POI 2: uric), so what a URL parser calls the query belongs to it.
      const m = /^\/poi\/([^/?]+)\/(.+)$/.exec(req.originalUrl);
      const answer: PoiAnswer = m ? await resolve(m[1] as string, m[2] as string) : { status: 404 };
      res.set('Vary', 'Accept');
      if (answer.status === 404) {
        res.status(404).type('text/plain').send('Not found.\n');
        return;
      }
      if (answer.status !== 303) {
        // A tombstone keeps its identifier (the POI, as the path says: a deleted item has no metadata, so no DOI).
        const poi = `http://purl.org/poi/${m?.[1]}/${m?.[2]}`;
        res.status(410).set('Link', linkHeader(signpostingLinks({ citeAs: poi, deleted: true, describedBy: [], types: [], licenses: [], files: [] })));
        res.type('text/plain').send('Gone: this record was deleted.\n');
        return;
      }
      const item = await loadItem(ctx, answer.identifier, fields ? { fields } : {});
      const links = item ? itemLinks(ctx, item) : [];
      const format = wantsLinkset(req.headers.accept);
      if (format !== null) {
        const anchor = landingPage(ctx, answer.identifier);
        res.status(200).set('Link', linkHeader(links));
        if (format === 'json') res.type('application/linkset+json').send(`${JSON.stringify(linksetJson(anchor, links), null, 2)}\n`);
        else res.type('application/linkset').send(linksetText(anchor, links));
        return;
      }
      res.set('Link', linkHeader(links)).redirect(303, answer.location);
    } catch (err) {
      next(err);
    }
  };
}
