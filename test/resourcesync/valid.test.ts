/**
 * Every ResourceSync and sitemap document the demo repository publishes is
 * valid against the published Sitemaps 0.9 and ResourceSync 1.1 schemas: a
 * crawl from the Source Description follows every link to every Capability
 * List, Resource List (and part), Change List (and page), Resource Dump and
 * package (whose manifest is checked too), and samples of the records, each
 * valid against its own format's schema. Lists are split at 40 entries, so
 * indexes of every kind are among them.
 */
import { expect } from 'chai';
import { Destination, getRaw, readDoc } from '../helpers/destination';
import { BASE_URL, forEachProvider } from '../helpers/server';
import { validate, FORMAT_SCHEMAS, type FormatPrefix } from '../helpers/xsd';
import { readZip } from '../helpers/zip';

const ORIGIN = new URL(BASE_URL).origin;

describe('ResourceSync and sitemap documents', function () {
  this.timeout(600_000);
  forEachProvider({ app: { resourceSync: { partSize: 40 } } }, (get) => {
    it('are all valid against the sitemap and ResourceSync schemas, from the Source Description down', async () => {
      const port = get().port;
      const queue = [`${ORIGIN}/.well-known/resourcesync`];
      const seen = new Set(queue);
      const kinds = new Map<string, number>();
      const count = (kind: string): void => void kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      const follow = (url: string): void => {
        if (!seen.has(url)) {
          seen.add(url);
          queue.push(url);
        }
      };
      const records: string[] = [];
      while (queue.length > 0) {
        const url = queue.shift() as string;
        const a = await getRaw(port, url);
        expect(a.status, url).to.equal(200);
        if (url.endsWith('.zip')) {
          const manifest = readDoc((readZip(a.body).find((f) => f.name === 'manifest.xml')?.data as Buffer).toString('utf8'));
          count(manifest.md.capability as string);
          continue;
        }
        const doc = readDoc(a.body.toString('utf8'));
        const capability = doc.md.capability as string;
        count(`${capability} ${doc.root}`);
        if (doc.root === 'sitemapindex' || capability === 'description' || capability === 'capabilitylist' || capability === 'resourcedump') {
          for (const e of doc.entries) follow(e.loc);
        } else if (!/@/.test(url)) {
          // Records of each format's lists (not every set's: they are the same resources).
          records.push(
            ...doc.entries
              .filter((e) => e.md.change !== 'deleted')
              .slice(0, 2)
              .map((e) => e.loc),
          );
        }
      }
      for (const kind of [
        'description sitemapindex',
        'description urlset',
        'capabilitylist urlset',
        'resourcelist sitemapindex',
        'resourcelist urlset',
        'changelist sitemapindex',
        'changelist urlset',
        'resourcedump urlset',
        'resourcedump-manifest',
      ]) {
        expect(kinds.get(kind), `documents of kind ${kind}: ${JSON.stringify([...kinds])}`).to.be.greaterThan(0);
      }
      // Every format and every set in it was reached: the six the demo's items have in all 12 sets and as a whole;
      // edm, whose institutions the demo does not name, only where its tombstones are (listed in every format).
      const prefixes = get()
        .ctx.formats.all()
        .map((f) => f.prefix);
      let edmSets = 0;
      for (const s of await get().ctx.store.listSets(null, 500)) edmSets += (await get().ctx.store.syncSetFormats(s.spec, ['edm'])).length;
      expect(edmSets, 'sets holding a tombstone').to.be.greaterThan(0).and.lessThan(12);
      expect(kinds.get('capabilitylist urlset')).to.equal((prefixes.length - 1) * 13 + 1 + edmSets);
      for (const url of new Set(records)) {
        const prefix = /\/resourcesync\/([^/]+)\/record\//.exec(url)?.[1] as FormatPrefix;
        expect(FORMAT_SCHEMAS).to.have.property(prefix);
        const a = await getRaw(port, url);
        expect(a.status, url).to.equal(200);
        const xml = a.body.toString('utf8').replace(/^<\?xml[^>]*\?>\n/, '');
        expect(validate(xml, prefix), url).to.deep.equal([]);
      }
      // Records of every format but edm (its lists hold the tombstones alone).
      expect([...new Set(records.map((u) => /\/resourcesync\/([^/]+)\//.exec(u)?.[1]))].sort()).to.deep.equal(prefixes.filter((p) => p !== 'edm').sort());
    });

    it('include a sitemap and its parts that are valid', async () => {
      const d = new Destination(get().port, `${ORIGIN}/resourcesync/oai_dc/capabilitylist.xml`);
      const index = await d.doc(`${ORIGIN}/sitemap.xml`);
      expect(index.root).to.equal('sitemapindex');
      for (const e of index.entries) expect((await d.doc(e.loc)).root).to.equal('urlset');
    });
  });
});
