/**
 * A saved OAI-PMH page larger than libxml2 takes in one document (its
 * 10,000,000-byte input lookup limit) loads whole: the page's records are
 * checked against their schema in documents under a size budget
 * (server/xsd/format-checks.ts), not in one.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { cli, forEachCliDatabase, summaryOf } from './helpers';

/** A ListRecords page of `n` oai_dc records of about 300 KB each. */
function bigPage(file: string, n: number): string {
  const abstract = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(5264);
  const records: string[] = [];
  for (let k = 0; k < n; k++) {
    records.push(
      `<record><header><identifier>oai:big.example.org:${k}</identifier><datestamp>2024-01-01T00:00:00Z</datestamp></header><metadata>` +
        '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">' +
        `<dc:title>Record ${k}</dc:title><dc:description>${abstract}</dc:description></oai_dc:dc></metadata></record>`,
    );
  }
  fs.writeFileSync(
    file,
    '<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2024-01-02T00:00:00Z</responseDate>' +
      `<request verb="ListRecords" metadataPrefix="oai_dc">http://big.example.org/oai</request><ListRecords>${records.join('\n')}</ListRecords></OAI-PMH>`,
  );
  return file;
}

describe('a saved page of 13.5 MB', function () {
  this.timeout(120_000);
  forEachCliDatabase((db) => {
    it('loads every record of it', async () => {
      const file = bigPage(path.join(db().dir, 'page.xml'), 45);
      expect(fs.statSync(file).size).to.be.greaterThan(12_000_000);
      const run = await cli(db(), ['load', '--json', file]);
      expect(run.code, run.stderr).to.equal(0);
      expect(summaryOf(run)).to.include({ records: 45, inserted: 45, refused: 0, committed: true });
    });
  });
});
