/**
 * ResourceSync over HTTP, on every database: validators and 304s for every
 * kind of document, HEAD, content coding, the records' own bytes, and the
 * answers of what is not (or no longer) there.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import type { ItemInput } from '../../lib/store';
import { Destination, getRaw, readDoc } from '../helpers/destination';
import { BASE_URL, forEachProvider, request } from '../helpers/server';
import { dc } from '../helpers/store-fixtures';
import { validate } from '../helpers/xsd';
import { readZip } from '../helpers/zip';

const ORIGIN = new URL(BASE_URL).origin;
const RS = `${ORIGIN}/resourcesync`;
const rec = (id: string, sets: string[] = []): ItemInput => ({ internalId: id, sets, metadata: { oai_dc: dc(`Title of ${id}`) } });
const recordUrl = (id: string): string => `${RS}/oai_dc/record/${encodeURIComponent(`oai:demo.oai-steward.org:${id}`)}`;

describe('ResourceSync over HTTP', function () {
  this.timeout(120_000);

  describe('conditional requests', () => {
    forEachProvider({ app: { resourceSync: { partSize: 5 } } }, (get) => {
      /** The first change page and a part, found from their indexes. */
      async function urls(): Promise<Record<string, string>> {
        const d = new Destination(get().port, `${RS}/oai_dc/capabilitylist.xml`);
        const changes = await d.doc(`${RS}/oai_dc/changelist.xml`);
        const parts = await d.doc(`${RS}/oai_dc/resourcelist.xml`);
        const part0 = await d.doc(parts.entries[0]?.loc as string);
        const sitemap = await d.doc(`${ORIGIN}/sitemap.xml`);
        return {
          description: `${ORIGIN}/.well-known/resourcesync`,
          capabilities: `${RS}/oai_dc/capabilitylist.xml`,
          'resource list index': `${RS}/oai_dc/resourcelist.xml`,
          'resource list': parts.entries[0]?.loc as string,
          'change list index': `${RS}/oai_dc/changelist.xml`,
          'change list': changes.entries[changes.entries.length - 1]?.loc as string,
          'resource dump': `${RS}/oai_dc/resourcedump.xml`,
          package: `${RS}/oai_dc/resourcedump/0.zip`,
          record: part0.entries[0]?.loc as string,
          'sitemap index': `${ORIGIN}/sitemap.xml`,
          sitemap: sitemap.entries[0]?.loc as string,
          robots: `${ORIGIN}/robots.txt`,
        };
      }

      it('answers 304 to If-None-Match and If-Modified-Since while nothing changed, and 200 with a new tag after a write', async () => {
        const p = get();
        const before = await urls();
        const tags: Record<string, string> = {};
        for (const [name, url] of Object.entries(before)) {
          const a = await getRaw(p.port, url);
          expect(a.status, name).to.equal(200);
          const etag = a.headers.etag as string;
          expect(etag, name).to.match(/^(W\/)?"[^"]+"$/);
          tags[name] = etag;
          const again = await getRaw(p.port, url, { 'If-None-Match': etag });
          expect(again.status, `${name} with If-None-Match`).to.equal(304);
          expect(again.body.length).to.equal(0);
          expect(
            (await getRaw(p.port, url, { 'If-None-Match': `"other", ${etag.replace(/^W\//, '')}` })).status,
            `${name}, weak comparison in a list`,
          ).to.equal(304);
          if (name !== 'robots') {
            const lastModified = a.headers['last-modified'] as string;
            expect(Date.parse(lastModified), name).to.be.greaterThan(0);
            expect((await getRaw(p.port, url, { 'If-Modified-Since': lastModified })).status, `${name} with If-Modified-Since`).to.equal(304);
            expect((await getRaw(p.port, url, { 'If-Modified-Since': new Date(Date.parse(lastModified) - 1000).toUTCString() })).status).to.equal(200);
          }
        }
        // The first record of the first part changes.
        const id = decodeURIComponent((before.record as string).split('/').pop() as string);
        p.writeNow += 3600;
        p.now = p.writeNow;
        const internal = (await p.store.getHeader(id))?.internalId as string;
        await p.store.writeItems([{ ...rec(internal), metadata: { oai_dc: dc('A title changed for the test') } }]);
        // What lists the record changes; what only names other documents does not.
        const changed = ['resource list', 'change list index', 'change list', 'package', 'record', 'sitemap'];
        const after = await urls();
        for (const [name, url] of Object.entries(after)) {
          const a = await getRaw(p.port, url, { 'If-None-Match': tags[name] as string });
          expect(a.status, `${name} after the write`).to.equal(changed.includes(name) ? 200 : 304);
          if (a.status === 200) expect(a.headers.etag, name).not.to.equal(tags[name]);
        }
      });

      it('sends the headers alone for HEAD', async () => {
        const a = await getRaw(get().port, `${RS}/oai_dc/resourcelist/0.xml`, {}, 'HEAD');
        expect(a.status).to.equal(200);
        expect(a.headers['content-type']).to.equal('application/xml');
        expect(a.headers.etag).to.be.a('string');
        expect(a.body.length).to.equal(0);
      });

      it('compresses documents for a client that asks, but never a record or a package, whose length is given', async () => {
        const gz = await getRaw(get().port, `${RS}/oai_dc/resourcelist/0.xml`, { 'Accept-Encoding': 'gzip' });
        expect(gz.headers['content-encoding']).to.equal('gzip');
        expect(gz.headers.vary).to.equal('Accept-Encoding');
        expect(
          readDoc((await request(get().port, { path: '/resourcesync/oai_dc/resourcelist/0.xml', headers: { 'Accept-Encoding': 'gzip' } })).body).entries,
        ).to.have.length.greaterThan(0);
        const record = await getRaw(get().port, recordUrl('rep-2024-0001'), { 'Accept-Encoding': 'gzip' });
        expect(record.headers['content-encoding']).to.equal(undefined);
        expect(Number(record.headers['content-length'])).to.equal(record.body.length);
        const pkg = await getRaw(get().port, `${RS}/oai_dc/resourcedump/0.zip`, { 'Accept-Encoding': 'gzip' });
        expect(pkg.headers['content-encoding']).to.equal(undefined);
        expect(readZip(pkg.body).length).to.be.greaterThan(1);
      });

      it('serves each record as exactly the bytes its Resource List describes, valid in its format', async () => {
        const d = new Destination(get().port, `${RS}/mods/capabilitylist.xml`);
        const list = await d.doc(`${RS}/mods/resourcelist/0.xml`);
        for (const e of list.entries) {
          const a = await getRaw(get().port, e.loc);
          expect(a.headers['content-type']).to.equal('application/xml');
          expect(Number(e.md.length)).to.equal(a.body.length);
          expect(e.md.hash).to.equal(`md5:${crypto.createHash('md5').update(a.body).digest('hex')}`);
          expect(a.headers.etag).to.equal(`"${(e.md.hash as string).slice(4)}"`);
          expect(validate(a.body.toString('utf8').replace(/^<\?xml[^>]*\?>\n/, ''), 'mods')).to.deep.equal([]);
        }
      });

      it('answers 410 for a deleted record, 404 for what is not there', async () => {
        const p = get();
        const deleted = (await p.store.listHeaders({ metadataPrefix: 'oai_dc', until: p.now, limit: 500 })).find((h) => h.deleted);
        const gone = await getRaw(p.port, `${RS}/oai_dc/record/${encodeURIComponent(deleted?.identifier as string)}`);
        expect(gone.status).to.equal(410);
        expect(gone.body.toString()).to.match(/deleted/);
        for (const path of [
          '/resourcesync/oai_dc/record/oai%3Ademo.oai-steward.org%3Anope',
          '/resourcesync/nope/capabilitylist.xml',
          '/resourcesync/oai_dc@nope/capabilitylist.xml',
          '/resourcesync/oai_dc/resourcelist/9999.xml',
          '/resourcesync/oai_dc/resourcedump/9999.zip',
          '/resourcesync/oai_dc/resourcedump.zip',
          '/resourcesync/oai_dc/changelist.xml?from=2999-01-01',
          '/resourcesync/oai_dc/changelist/29990101T000000Z-0.xml',
          '/resourcesync/description/99.xml',
          '/resourcesync/oai_dc/whatever.xml',
          '/sitemap/9999.xml',
        ]) {
          const a = await getRaw(p.port, `${ORIGIN}${path}`);
          expect(a.status, path).to.equal(404);
          expect(a.headers['content-type'], path).to.match(/^text\/plain/);
        }
      });

      it('gives the changes from a date, and only those', async () => {
        const p = get();
        const all = await new Destination(p.port, `${RS}/oai_dc/capabilitylist.xml`).doc(`${RS}/oai_dc/changelist.xml`);
        const from = all.entries[Math.floor(all.entries.length / 2)]?.md.from as string;
        const d = new Destination(p.port, `${RS}/oai_dc/capabilitylist.xml`);
        const since = await d.doc(`${RS}/oai_dc/changelist.xml?from=${from}`);
        expect(since.md.from).to.equal(from);
        const first = await d.doc(since.entries[0]?.loc as string);
        expect(first.entries.every((e) => (e.md.datetime as string) >= from)).to.equal(true);
        expect(since.entries.length).to.be.lessThan(all.entries.length);
        // Every page but the last is closed; the last is open.
        expect(since.entries.slice(0, -1).every((e) => e.md.until !== undefined)).to.equal(true);
        expect(since.entries[since.entries.length - 1]?.md.until).to.equal(undefined);
      });
    });
  });

  describe('documents with nothing to list', () => {
    forEachProvider({ seed: false, app: { resourceSync: { partSize: 20 } } }, (get) => {
      it('an empty repository has no Source Description, and a sitemap of its home page alone', async () => {
        expect((await getRaw(get().port, `${ORIGIN}/.well-known/resourcesync`)).status).to.equal(404);
        const sitemap = await new Destination(get().port, '').doc(`${ORIGIN}/sitemap.xml`);
        expect(sitemap.entries.map((e) => e.loc)).to.deep.equal([`${BASE_URL}?verb=Identify`]);
      });

      it('are left out above them: a format with only a deletion offers its Change List alone, an empty set nothing', async () => {
        const p = get();
        await p.store.putSets([
          { spec: 'empty', name: 'Nothing yet' },
          { spec: 's', name: 'S' },
        ]);
        await p.store.writeItems([rec('one', ['s']), rec('two', ['s'])]);
        p.writeNow += 10;
        await p.store.deleteItems(['two']);
        const d = new Destination(p.port, `${RS}/datacite/capabilitylist.xml`);
        // A record of a title alone has no DataCite record, but its tombstone is listed in every format
        // (OAI-PMH 2.0 section 2.5.1): DataCite has a deletion to report and nothing live.
        const caps = await d.doc(`${RS}/datacite/capabilitylist.xml`);
        expect(caps.entries.map((e) => e.md.capability)).to.deep.equal(['changelist']);
        const changes = await d.doc(`${RS}/datacite/changelist.xml`);
        expect(changes.entries.map((e) => e.md.change)).to.deep.equal(['deleted']);
        expect((await getRaw(p.port, `${RS}/datacite/resourcelist.xml`)).status).to.equal(404);
        expect((await getRaw(p.port, `${RS}/datacite/resourcedump.xml`)).status).to.equal(404);
        expect((await getRaw(p.port, `${RS}/oai_dc@empty/capabilitylist.xml`)).status).to.equal(404);
        const description = await d.doc(`${ORIGIN}/.well-known/resourcesync`);
        const lists = description.entries.map((e) => e.loc.slice(RS.length));
        expect(lists).to.include.members([
          '/oai_dc/capabilitylist.xml',
          '/datacite/capabilitylist.xml',
          '/oai_dc@s/capabilitylist.xml',
          '/datacite@s/capabilitylist.xml',
        ]);
        expect(lists.some((l) => l.includes('@empty'))).to.equal(false);
        expect(description.entries.every((e) => e.md.capability === 'capabilitylist')).to.equal(true);
        expect(description.links.describedby).to.equal(`${BASE_URL}?verb=Identify`);
      });
    });
  });

  describe('a record whose URL is longer than a sitemap may hold', () => {
    forEachProvider({ seed: false, app: { resourceSync: { partSize: 20 } } }, (get) => {
      it('is left out of every list, which stay valid, and is still served at its URL', async () => {
        const p = get();
        const long = `long-${'x'.repeat(2100)}`;
        await p.store.writeItems([rec('short'), rec(long)]);
        const d = new Destination(p.port, `${RS}/oai_dc/capabilitylist.xml`);
        await d.baseline();
        expect([...d.copies.keys()]).to.deep.equal([recordUrl('short')]);
        await d.baselineFromDump();
        expect([...d.copies.keys()]).to.deep.equal([recordUrl('short')]);
        expect((await d.doc(`${RS}/oai_dc/changelist.xml`)).entries.map((e) => e.loc)).to.deep.equal([recordUrl('short')]);
        expect((await d.doc(`${ORIGIN}/sitemap.xml`)).entries).to.have.length(2);
        expect((await getRaw(p.port, recordUrl(long))).status).to.equal(200);
      });
    });
  });

  describe('packages with ZIP64 records', () => {
    forEachProvider({ app: { resourceSync: { partSize: 50, zip64: 'always' } } }, (get) => {
      it('are read back by their manifest just the same', async () => {
        const d = new Destination(get().port, `${RS}/oai_dc@physics/capabilitylist.xml`);
        await d.baselineFromDump();
        expect(d.copies.size).to.be.greaterThan(0);
        const a = await getRaw(get().port, `${RS}/oai_dc/resourcedump/0.zip`);
        expect(readZip(a.body).every((f) => f.zip64)).to.equal(true);
      });
    });
  });
});
