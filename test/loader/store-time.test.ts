/**
 * A datestamp is this repository's time (OAI-PMH 2.0 sections 2.7.1 and
 * 4.6): records loaded from saved pages, corrected, harvested by a hub or
 * given in a second format are found by a harvester asking `from` the time
 * of its last harvest; the source's datestamp stays in the provenance; and
 * a migration of this repository's own records keeps its datestamps.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT, cli, datestamps, forEachCliDatabase, summaryOf } from './helpers';
import { oaiGet, openTestProvider, texts } from '../helpers/server';
import { formatDatestamp } from '../../lib/oai/dates';
import { dc } from '../helpers/store-fixtures';

const SICKLE_PAGE = path.join(ROOT, 'test', 'fixtures', 'realworld', 'sickle', 'ListRecords.xml');

/** A saved ListRecords page of another repository holding one record. */
function page(id: string, datestamp: string, metadata: string, prefix = 'oai_dc'): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-01-01T00:00:00Z</responseDate>' +
    `<request verb="ListRecords" metadataPrefix="${prefix}">http://other.example.org/oai</request><ListRecords>` +
    `<record><header><identifier>oai:other.example.org:${id}</identifier><datestamp>${datestamp}</datestamp></header>` +
    `<metadata>${metadata}</metadata></record></ListRecords></OAI-PMH>`
  );
}

const MODS = (title: string): string =>
  `<mods xmlns="http://www.loc.gov/mods/v3" version="3.7"><titleInfo><title>${title}</title></titleInfo><typeOfResource>text</typeOfResource></mods>`;

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Waits until the clock has moved past `t` (seconds), so what happens next is stamped later. */
async function after(t: number): Promise<void> {
  while (nowSeconds() <= t) await new Promise((r) => setTimeout(r, 50));
}

describe("datestamps are this repository's time", function () {
  this.timeout(120_000);
  forEachCliDatabase((db) => {
    it("publishes a saved page's deletion of 2011 with the time it was loaded, so from=<the day before> finds it", async () => {
      const start = nowSeconds();
      // The page's first record is a deletion of 2011; its second is not valid oai_dc, so --partial leaves it out.
      expect(summaryOf(await cli(db(), ['load', '--json', '--partial', SICKLE_PAGE])).deleted).to.equal(1);
      const stamps = [...(await datestamps(db().knex())).values()];
      expect(stamps).to.have.length(1);
      for (const s of stamps) expect(s).to.be.at.least(start);
      const p = await openTestProvider(db().name, { seed: false, database: db() });
      try {
        const xml = await oaiGet(p.port, `verb=ListIdentifiers&metadataPrefix=oai_dc&from=${formatDatestamp(start - 86_400)}`);
        expect(texts(xml, 'identifier')).to.have.length(1);
      } finally {
        await p.close();
      }
    });

    it('stamps a corrected record with the time it was corrected, whether its header datestamp is newer or older than the time it was first loaded', async () => {
      const dir = db().dir;
      fs.writeFileSync(path.join(dir, 'v1.xml'), page('1', '2010-05-01T00:00:00Z', dc('First title')));
      fs.writeFileSync(path.join(dir, 'v2.xml'), page('1', '2014-02-10T00:00:00Z', dc('Corrected title')));
      await cli(db(), ['load', path.join(dir, 'v1.xml')]);
      const first = [...(await datestamps(db().knex())).values()][0] as number;
      await after(first);
      const harvestedUpTo = nowSeconds();
      expect(summaryOf(await cli(db(), ['load', '--json', path.join(dir, 'v2.xml')])).updated).to.equal(1);
      const second = [...(await datestamps(db().knex())).values()][0] as number;
      expect(second).to.be.at.least(harvestedUpTo);
      expect(second).to.be.above(Date.parse('2014-02-10T00:00:00Z') / 1000);
      // A harvester whose last harvest ended before the correction finds it.
      const p = await openTestProvider(db().name, { seed: false, database: db() });
      try {
        const xml = await oaiGet(p.port, `verb=ListRecords&metadataPrefix=oai_dc&from=${formatDatestamp(harvestedUpTo)}`);
        expect(xml).to.contain('Corrected title');
        // The source's datestamp is kept as what it is: the source's, in the provenance.
        expect(xml).to.match(/<originDescription[^>]*>[\s\S]*<datestamp>2014-02-10T00:00:00Z<\/datestamp>/);
      } finally {
        await p.close();
      }
    });

    it('stamps a JSON record with the load time, not the catalogue datestamp it gives', async () => {
      const start = nowSeconds();
      const line = JSON.stringify({ id: 'r1', datestamp: '2004-01-01T00:00:00Z', dc: { title: ['T'] } });
      await cli(db(), ['load', '-'], { input: `${line}\n` });
      expect((await datestamps(db().knex())).get('r1')).to.be.at.least(start);
    });

    it("keeps the datestamps of a migration of this repository's own records, and never a future one", async () => {
      const lines = [
        JSON.stringify({ id: 'r1', datestamp: '2004-01-01T00:00:00Z', dc: { title: ['T'] } }),
        JSON.stringify({ id: 'r2', datestamp: '2099-01-01T00:00:00Z', dc: { title: ['U'] } }),
      ];
      const run = await cli(db(), ['load', '--keep-datestamps', '--partial', '-'], { input: `${lines.join('\n')}\n` });
      expect(run.stderr).to.match(/r2.*datestamp.*future/);
      expect((await datestamps(db().knex())).get('r1')).to.equal(Date.parse('2004-01-01T00:00:00Z') / 1000);
      expect((await datestamps(db().knex())).has('r2')).to.equal(false);
    });

    it("does not keep the datestamp of another repository's record under --keep-datestamps", async () => {
      const start = nowSeconds();
      await cli(db(), ['load', '--keep-datestamps', SICKLE_PAGE]);
      for (const s of (await datestamps(db().knex())).values()) expect(s).to.be.at.least(start);
    });

    it('keeps a record given as oai_dc and as MODS in one load as one item with both formats as given', async () => {
      const dir = db().dir;
      fs.writeFileSync(path.join(dir, 'dc.xml'), page('2', '2020-01-01T00:00:00Z', dc('Given as Dublin Core')));
      fs.writeFileSync(path.join(dir, 'mods.xml'), page('2', '2020-01-01T00:00:00Z', MODS('Given as MODS'), 'mods'));
      const run = await cli(db(), ['load', '--json', path.join(dir, 'dc.xml'), path.join(dir, 'mods.xml')]);
      expect(run.code, run.stderr).to.equal(0);
      expect(summaryOf(run).inserted).to.equal(1);
      const rows = (await db().knex()('records').select('prefix', 'xml')) as { prefix: string; xml: string | null }[];
      const byPrefix = new Map(rows.map((r) => [r.prefix, r.xml]));
      expect(byPrefix.get('oai_dc')).to.contain('Given as Dublin Core');
      expect(byPrefix.get('mods')).to.contain('Given as MODS');
    });

    it('keeps the oai_dc an item was given, byte for byte, when a later load gives it as MODS', async () => {
      const dir = db().dir;
      fs.writeFileSync(path.join(dir, 'dc.xml'), page('3', '2020-01-01T00:00:00Z', dc('Given as Dublin Core')));
      fs.writeFileSync(path.join(dir, 'mods.xml'), page('3', '2020-01-01T00:00:00Z', MODS('Given as MODS'), 'mods'));
      await cli(db(), ['load', path.join(dir, 'dc.xml')]);
      const before = (await db().knex()('records').where('prefix', 'oai_dc').first('xml')) as { xml: string };
      const run = await cli(db(), ['load', '--json', path.join(dir, 'mods.xml')]);
      expect(run.code, run.stderr).to.equal(0);
      const afterDc = (await db().knex()('records').where('prefix', 'oai_dc').first('xml')) as { xml: string };
      const mods = (await db().knex()('records').where('prefix', 'mods').first('xml')) as { xml: string };
      expect(afterDc.xml).to.equal(before.xml);
      expect(mods.xml).to.contain('Given as MODS');
    });
  });
});
