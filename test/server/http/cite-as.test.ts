/**
 * cite-as chooses the best identifier a record has, read from its model:
 * a real DSpace record (Erasmus University, 2003), loaded from its saved
 * GetRecord response by `oai-steward load`, names its Handle as a
 * dc:identifier (`http://hdl.handle.net/1765/315`) and has no DOI, so the
 * POI resolver's links, the linkset and the record page cite it by that
 * Handle, not by the POI.
 */
import path from 'node:path';
import { expect } from 'chai';
import { forEachThrowawayDatabase } from '../../helpers/db';
import { openTestProvider, request } from '../../helpers/server';
import { DEMO_NAMESPACE } from '../../helpers/demo-records';
import { cli, ROOT } from '../../loader/helpers';
import { poiFromOaiIdentifier } from '../../../lib/ids/poi';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'dspace');
const IDENTIFIER = `oai:${DEMO_NAMESPACE}:hdl:1765/315`;
const HANDLE = 'https://hdl.handle.net/1765/315';
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

forEachThrowawayDatabase(
  (db, kind) => {
    it("cites a DSpace record loaded as oai_dc XML by its Handle, in the resolver's links, the linkset and the record page", async () => {
      const load = await cli(db(), ['load', path.join(FIXTURES, 'ListSets.xml'), path.join(FIXTURES, 'GetRecord-hdl-1765-315.xml')]);
      expect(load.code, load.stderr).to.equal(0);
      const p = await openTestProvider(kind, { seed: false, database: db() });
      try {
        const poi = poiFromOaiIdentifier(IDENTIFIER);
        const resolved = await request(p.port, { path: poi.replace('http://purl.org', '') });
        expect(resolved.status).to.equal(303);
        const link = String(resolved.headers.link);
        expect(link).to.match(new RegExp(`^<${HANDLE}>; rel="cite-as"`));
        expect(link).to.not.contain(`<${poi}>; rel="cite-as"`);

        const linkset = await request(p.port, { path: poi.replace('http://purl.org', ''), headers: { Accept: 'application/linkset+json' } });
        expect((JSON.parse(linkset.body) as { linkset: Array<Record<string, unknown>> }).linkset[0]?.['cite-as']).to.deep.equal([{ href: HANDLE }]);

        const page = await request(p.port, {
          query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(IDENTIFIER)}`,
          headers: { Accept: BROWSER },
        });
        expect(page.headers['content-type']).to.match(/^text\/html/);
        expect(page.headers.link).to.equal(resolved.headers.link);
        expect(page.body).to.contain(`<dt>Cite as</dt><dd><a class="cite-as" href="${HANDLE}">${HANDLE}</a> <span class="meta">(Handle)</span></dd>`);
        // The ISBN-like value DSpace also gives stays listed as written.
        expect(page.body).to.contain('90-9014980-5');
      } finally {
        await p.close();
      }
    });
  },
  { timeout: 120_000 },
);
