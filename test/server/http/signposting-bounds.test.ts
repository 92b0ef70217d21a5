/**
 * Signposting over HTTP for records built to break it: an item with 3,000
 * files answers the POI and its record page with a Link header a client
 * can read (bounded, pointing at the linkset that holds every file), and an
 * item whose DOI holds ";" is cited by it under a naive parser too.
 */
import { expect } from 'chai';
import { forEachProvider, request } from '../../helpers/server';
import { DEMO_NAMESPACE } from '../../helpers/demo-records';
import { jsonToItem } from '../../../lib/pipeline/json-record';
import { poiFromOaiIdentifier } from '../../../lib/ids/poi';
import { toRequestArgument } from '../../../lib/ids/oai-identifier';
import { MAX_LINK_HEADER_BYTES } from '../../../lib/signposting/links';
import { requestsParseLinks } from '../../helpers/requests-links';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const oaiId = (local: string): string => `oai:${DEMO_NAMESPACE}:${local}`;
const poiPath = (local: string): string => poiFromOaiIdentifier(oaiId(local)).replace('http://purl.org', '');

describe('Signposting bounded against hostile records', function () {
  this.timeout(60_000);
  forEachProvider({ seed: false }, (provider) => {
    before(async () => {
      const records = [
        {
          id: 'many-files',
          dc: { title: ['Three thousand files'], identifier: ['doi:10.5555/MANY.1'] },
          identifiers: [{ type: 'DOI', value: '10.5555/MANY.1' }],
          files: Array.from({ length: 3000 }, (_, i) => ({
            url: `https://repo.example.org/files/many/${i}/part-${i}.bin`,
            mediaType: 'application/octet-stream',
          })),
        },
        { id: 'semicolon', dc: { title: ['A DOI with a semicolon'] }, identifiers: [{ type: 'DOI', value: '10.5555/a;b' }] },
      ];
      await provider().store.writeItems(
        records.map((r) => {
          const out = jsonToItem(r, provider().formats, 'signposting bounds test');
          if (!('item' in out)) throw new Error(JSON.stringify(out.refusals));
          return out.item;
        }),
      );
    });

    it('answers the POI of an item with 3,000 files with a bounded Link header pointing at the linkset', async () => {
      const a = await request(provider().port, { path: poiPath('many-files') });
      expect(a.status).to.equal(303);
      const header = String(a.headers.link);
      expect(Buffer.byteLength(header)).to.be.at.most(MAX_LINK_HEADER_BYTES);
      const links = requestsParseLinks(header);
      expect(links.filter((l) => l.rel === 'cite-as').map((l) => l.url)).to.deep.equal(['https://doi.org/10.5555/MANY.1']);
      expect(links.filter((l) => l.rel === 'linkset')).to.have.length(1);
      const set = await request(provider().port, { path: poiPath('many-files'), headers: { Accept: 'application/linkset+json' } });
      const json = JSON.parse(set.body) as { linkset: { item: unknown[] }[] };
      expect(json.linkset[0]?.item).to.have.length(3000);
    });

    it('answers the record page of that item with the same bounded header', async () => {
      const a = await request(provider().port, {
        query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${toRequestArgument(oaiId('many-files'))}`,
        headers: { Accept: BROWSER },
      });
      expect(a.status).to.equal(200);
      expect(Buffer.byteLength(String(a.headers.link))).to.be.at.most(MAX_LINK_HEADER_BYTES);
      expect(requestsParseLinks(String(a.headers.link)).filter((l) => l.rel === 'linkset')).to.have.length(1);
    });

    it('cites an item whose DOI holds ";" by that DOI, as a naive parser reads it', async () => {
      const a = await request(provider().port, { path: poiPath('semicolon') });
      const cites = requestsParseLinks(String(a.headers.link)).filter((l) => l.rel === 'cite-as');
      expect(cites.map((l) => decodeURIComponent(l.url ?? ''))).to.deep.equal(['https://doi.org/10.5555/a;b']);
    });
  });
});
