/**
 * FAIR Signposting over HTTP: the POI resolver's Link headers and linksets,
 * and the same links on the record page, for an item with a DOI, one
 * without, one with files and a deleted one (written through the store).
 * Checked against the profile (https://signposting.org/FAIR/): exactly one
 * cite-as; describedby with a media type and a profile; type with
 * AboutPage; item with a media type; linksets per RFC 9264.
 */
import { expect } from 'chai';
import { forEachProvider, request, BASE_URL } from '../../helpers/server';
import { DEMO_NAMESPACE } from '../../helpers/demo-records';
import { jsonToItem } from '../../../lib/pipeline/json-record';
import { poiFromOaiIdentifier } from '../../../lib/ids/poi';
import { getRecordUrl } from '../../../lib/oai-url';

const OAIRE_NS = 'http://namespace.openaire.eu/schema/oaire/';
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

interface Link {
  href: string;
  params: Record<string, string>;
}

/** Parses a Link header as RFC 8288 writes it (values here never hold commas inside <…> or quotes). */
function parseLinks(header: string | string[] | undefined): Link[] {
  if (typeof header !== 'string') return [];
  return header.split(/,\s*(?=<)/).map((v) => {
    const m = /^<([^>]*)>(.*)$/.exec(v.trim());
    if (!m) throw new Error(`not a link-value: ${v}`);
    const params: Record<string, string> = {};
    for (const p of (m[2] ?? '').matchAll(/;\s*([a-z*-]+)="((?:[^"\\]|\\.)*)"/g)) params[p[1] as string] = (p[2] as string).replace(/\\(.)/g, '$1');
    return { href: m[1] as string, params };
  });
}

const rel = (links: Link[], r: string): Link[] => links.filter((l) => l.params.rel === r);
const oaiId = (local: string): string => `oai:${DEMO_NAMESPACE}:${local}`;
const poiPath = (local: string): string => poiFromOaiIdentifier(oaiId(local)).replace('http://purl.org', '');

/** The profile's rules for a live item's links. */
function checkProfile(links: Link[]): void {
  expect(rel(links, 'cite-as'), 'exactly one cite-as').to.have.length(1);
  const described = rel(links, 'describedby');
  expect(described.length, 'describedby links').to.be.greaterThan(0);
  for (const d of described) {
    expect(d.params.type, 'describedby type').to.equal('application/xml');
    expect(d.params.profile, 'describedby profile').to.be.a('string');
  }
  expect(rel(links, 'type').map((l) => l.href)).to.include('https://schema.org/AboutPage');
  for (const i of rel(links, 'item')) expect(i.params.type, 'item type').to.be.a('string');
}

describe('FAIR Signposting', () => {
  forEachProvider({}, (provider) => {
    before(async () => {
      // Written from the record format, so oai_openaire (where records name their files: oaire:file) is the real crosswalk's.
      const records = [
        { id: 'no-doi', dc: { title: ['Without a DOI'], identifier: ['https://repo.example.org/items/no-doi'], rights: ['All rights reserved'] } },
        {
          id: 'with-files',
          dc: { title: ['With files'], type: ['Software'], identifier: ['doi:10.5555/FILES.1'] },
          identifiers: [{ type: 'DOI', value: '10.5555/FILES.1' }],
          resourceType: { coar: 'http://purl.org/coar/resource_type/c_5ce6' },
          accessRights: 'open',
          files: [
            { url: 'https://repo.example.org/files/paper.pdf', mediaType: 'application/pdf', access: 'open' },
            { url: 'https://repo.example.org/files/data.bin', access: 'open' },
          ],
        },
        { id: 'gone', dc: { title: ['Soon deleted'], identifier: ['https://doi.org/10.5555/gone'] } },
      ];
      await provider().store.writeItems(
        records.map((r) => {
          const out = jsonToItem(r, provider().formats, 'signposting test');
          if (!('item' in out)) throw new Error(JSON.stringify(out.refusals));
          return out.item;
        }),
      );
      await provider().store.deleteItems(['gone']);
    });

    it('cites an item with a DOI by its DOI, and describes it in its format, type and licence', async () => {
      const a = await request(provider().port, { path: poiPath('data-2024-0001') });
      expect(a.status).to.equal(303);
      expect(a.headers.vary).to.equal('Accept');
      const links = parseLinks(a.headers.link);
      checkProfile(links);
      expect(rel(links, 'cite-as')[0]?.href).to.equal('https://doi.org/10.5555/demo.2024.0001');
      const formats = (await provider().store.getHeader(oaiId('data-2024-0001')))?.formats ?? [];
      expect(formats).to.include.members(['oai_dc', 'oai_openaire', 'datacite']);
      // One describedby per format the item has, in the order ListMetadataFormats lists them.
      const ordered = provider()
        .ctx.formats.all()
        .filter((f) => formats.includes(f.prefix));
      expect(rel(links, 'describedby')).to.deep.equal(
        ordered.map((f) => ({
          href: getRecordUrl(BASE_URL, oaiId('data-2024-0001'), f.prefix),
          params: { rel: 'describedby', type: 'application/xml', profile: f.namespace },
        })),
      );
      expect(rel(links, 'type').map((l) => l.href)).to.deep.equal(['https://schema.org/AboutPage', 'https://schema.org/Dataset']);
      expect(rel(links, 'license').map((l) => l.href)).to.deep.equal(['https://creativecommons.org/publicdomain/zero/1.0/']);
      expect(rel(links, 'item')).to.deep.equal([{ href: 'https://repo.example.org/files/data-2024-0001/main', params: { rel: 'item', type: 'text/csv' } }]);
    });

    it('cites an item without a DOI by its POI, typed CreativeWork, without a licence that is not a URL', async () => {
      const links = parseLinks((await request(provider().port, { path: poiPath('no-doi') })).headers.link);
      checkProfile(links);
      expect(rel(links, 'cite-as')[0]?.href).to.equal(poiFromOaiIdentifier(oaiId('no-doi')));
      expect(rel(links, 'type').map((l) => l.href)).to.deep.equal(['https://schema.org/AboutPage', 'https://schema.org/CreativeWork']);
      expect(rel(links, 'license')).to.deep.equal([]);
    });

    it('links every file of an item as item, and describes it in each of its formats', async () => {
      const links = parseLinks((await request(provider().port, { path: poiPath('with-files') })).headers.link);
      checkProfile(links);
      expect(rel(links, 'cite-as')[0]?.href).to.equal('https://doi.org/10.5555/FILES.1');
      expect(rel(links, 'item')).to.deep.equal([
        { href: 'https://repo.example.org/files/paper.pdf', params: { rel: 'item', type: 'application/pdf' } },
        { href: 'https://repo.example.org/files/data.bin', params: { rel: 'item', type: 'application/octet-stream' } },
      ]);
      expect(
        rel(links, 'describedby')
          .map((l) => l.params.profile)
          .slice(0, 2),
      ).to.deep.equal(['http://www.openarchives.org/OAI/2.0/oai_dc/', OAIRE_NS]);
      expect(rel(links, 'type').map((l) => l.href)).to.include('https://schema.org/SoftwareSourceCode');
    });

    it('answers 410 for a deleted item, still with cite-as and nothing else', async () => {
      const a = await request(provider().port, { path: poiPath('gone') });
      expect(a.status).to.equal(410);
      expect(parseLinks(a.headers.link)).to.deep.equal([{ href: poiFromOaiIdentifier(oaiId('gone')), params: { rel: 'cite-as' } }]);
    });

    it('answers the linkset as JSON to Accept: application/linkset+json (RFC 9264 section 4.2)', async () => {
      const a = await request(provider().port, { path: poiPath('with-files'), headers: { Accept: 'application/linkset+json' } });
      expect(a.status).to.equal(200);
      expect(a.headers['content-type']).to.match(/^application\/linkset\+json/);
      const json = JSON.parse(a.body) as { linkset: Array<Record<string, unknown>> };
      expect(json.linkset).to.have.length(1);
      const ctx = json.linkset[0] as Record<string, Array<Record<string, unknown>>> & { anchor: string };
      expect(ctx.anchor).to.equal(getRecordUrl(BASE_URL, oaiId('with-files'), 'oai_dc'));
      expect(ctx['cite-as']).to.deep.equal([{ href: 'https://doi.org/10.5555/FILES.1' }]);
      expect(ctx.describedby?.[1]).to.deep.equal({
        href: getRecordUrl(BASE_URL, oaiId('with-files'), 'oai_openaire'),
        type: 'application/xml',
        profile: [OAIRE_NS],
      });
      expect(ctx.item).to.deep.equal([
        { href: 'https://repo.example.org/files/paper.pdf', type: 'application/pdf' },
        { href: 'https://repo.example.org/files/data.bin', type: 'application/octet-stream' },
      ]);
      for (const [k, v] of Object.entries(ctx)) if (k !== 'anchor') expect(v, k).to.be.an('array');
    });

    it('answers the linkset as text to Accept: application/linkset (RFC 9264 section 4.1)', async () => {
      const a = await request(provider().port, { path: poiPath('no-doi'), headers: { Accept: 'application/linkset' } });
      expect(a.headers['content-type']).to.match(/^application\/linkset(;|$)/);
      const links = parseLinks(a.body.replace(/\n/g, ' '));
      const anchor = getRecordUrl(BASE_URL, oaiId('no-doi'), 'oai_dc');
      expect(links.length).to.be.greaterThan(3);
      for (const l of links) expect(l.params.anchor).to.equal(anchor);
    });

    it('sends a browser that follows the POI on to the record page', async () => {
      const a = await request(provider().port, { path: poiPath('no-doi'), headers: { Accept: BROWSER } });
      expect(a.status).to.equal(303);
      expect(a.headers.location).to.equal(`${BASE_URL}?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai%3Ademo.oai-steward.org%3Ano-doi`);
    });

    for (const local of ['data-2024-0001', 'no-doi', 'with-files']) {
      it(`puts the resolver's links on the record page of ${local}`, async () => {
        const fromPoi = (await request(provider().port, { path: poiPath(local) })).headers.link;
        const page = await request(provider().port, {
          query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(oaiId(local))}`,
          headers: { Accept: BROWSER },
        });
        expect(page.headers['content-type']).to.equal('text/html; charset=utf-8');
        expect(page.headers.link).to.equal(fromPoi);
      });
    }

    it('shows the files and every format on the record page', async () => {
      const page = await request(provider().port, {
        query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(oaiId('with-files'))}`,
        headers: { Accept: BROWSER },
      });
      expect(page.body).to.contain('<a href="https://repo.example.org/files/paper.pdf" rel="nofollow">');
      expect(page.body).to.contain('id="format-oai_openaire"');
      expect(page.body).to.contain('href="/oai/xml?verb=GetRecord&amp;metadataPrefix=oai_openaire&amp;identifier=oai%3Ademo.oai-steward.org%3Awith-files"');
    });
  });
});
