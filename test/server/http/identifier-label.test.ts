/**
 * A MODS record's local identifier is shown on the record page with the
 * label MODS gives it (`displayLabel`): a record loaded as MODS XML alone is
 * lifted into the model, and its page lists "Signatur: 342, 19. 9", not a
 * bare shelf mark that means nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { forEachThrowawayDatabase } from '../../helpers/db';
import { openTestProvider, request } from '../../helpers/server';
import { DEMO_NAMESPACE } from '../../helpers/demo-records';
import { cli } from '../../loader/helpers';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const MODS =
  '<mods xmlns="http://www.loc.gov/mods/v3" version="3.7"><titleInfo><title>Karte der Umgebung</title></titleInfo>' +
  '<identifier type="local" displayLabel="Signatur">342, 19. 9</identifier></mods>';

forEachThrowawayDatabase(
  (db, kind) => {
    it('lists a MODS identifier with its displayLabel on the record page', async () => {
      const file = path.join(db().dir, 'map.ndjson');
      fs.writeFileSync(file, `${JSON.stringify({ id: 'map-1', metadata: { mods: MODS } })}\n`);
      const load = await cli(db(), ['load', file]);
      expect(load.code, load.stderr).to.equal(0);
      const p = await openTestProvider(kind, { seed: false, database: db() });
      try {
        const page = await request(p.port, {
          query: `verb=GetRecord&metadataPrefix=mods&identifier=${encodeURIComponent(`oai:${DEMO_NAMESPACE}:map-1`)}`,
          headers: { Accept: BROWSER },
        });
        expect(page.status).to.equal(200);
        expect(page.body).to.contain('<span dir="auto">Signatur: 342, 19. 9</span>');
      } finally {
        await p.close();
      }
    });
  },
  { timeout: 120_000 },
);
