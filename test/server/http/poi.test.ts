/**
 * The POI resolver of identifier governance: a POI answers 303 to
 * its record's GetRecord, 404 when unknown, 410 when the item was deleted.
 */
import { expect } from 'chai';
import { forEachProvider, request, oaiGet, texts } from '../../helpers/server';
import { demoRecords } from '../../helpers/demo-records';
import { poiFromOaiIdentifier } from '../../../lib/ids/poi';

const demo = demoRecords();
const path = (identifier: string): string => poiFromOaiIdentifier(identifier).replace('http://purl.org', '');

describe('GET /poi/{namespace}/{local}', () => {
  forEachProvider({}, (provider) => {
    const cases = [
      { name: 'a plain id', internalId: 'rep-2024-0001' },
      { name: 'an escaped id', internalId: 'C++ notes' },
      { name: 'a Fedora PID', internalId: 'demo:A-B.C_D%3AE' },
      { name: 'a non-ASCII id', internalId: '日本語資料' },
      { name: 'an id holding "?" and "&", which a URL parser would take for a query', internalId: 'q?a=1&b=2' },
    ];
    for (const c of cases) {
      it(`redirects ${c.name} with 303 to a GetRecord that returns that record`, async () => {
        const d = demo.find((x) => x.internalId === c.internalId);
        if (!d) throw new Error(`no demo item ${c.internalId}`);
        const a = await request(provider().port, { path: path(d.identifier) });
        expect(a.status).to.equal(303);
        const location = new URL(String(a.headers.location));
        expect(location.searchParams.get('identifier')).to.equal(d.identifier);
        const xml = await oaiGet(provider().port, location.search.slice(1));
        expect(texts(xml, 'identifier')).to.deep.equal([d.identifier]);
      });
    }

    it('answers 410 for a deleted item', async () => {
      const d = demo.find((x) => x.deleted)!;
      expect((await request(provider().port, { path: path(d.identifier) })).status).to.equal(410);
    });

    it('answers 404 for an unknown item', async () => {
      expect((await request(provider().port, { path: '/poi/demo.oai-steward.org/no-such-item' })).status).to.equal(404);
    });

    it('answers 404 for a POI of another capitalization of the namespace (identity is exact)', async () => {
      expect((await request(provider().port, { path: '/poi/DEMO.oai-steward.org/rep-2024-0001' })).status).to.equal(404);
    });

    it('answers 404 for a malformed POI', async () => {
      expect((await request(provider().port, { path: '/poi/demo.oai-steward.org/a%3cb' })).status).to.equal(404);
    });
  });
});
