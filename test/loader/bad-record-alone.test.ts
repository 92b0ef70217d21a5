/**
 * `oai-steward load --partial` of a saved page with one record hostile to
 * an XML parser (nested deeper than libxml2's limit, or with attributes or
 * namespace declarations by the tens of thousands): the page's other
 * records are written, the one is refused alone with its line and reason,
 * and loading the page again goes past it.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { cli, forEachCliDatabase, summaryOf } from './helpers';

const HOSTILE = {
  deep: `${'<x:a xmlns:x="urn:x">'.repeat(300)}${'</x:a>'.repeat(300)}`,
  attributes: `<x:a xmlns:x="urn:x" ${Array.from({ length: 100_000 }, (_, i) => `a${i}="v"`).join(' ')}/>`,
  namespaces: `<x:a xmlns:x="urn:x" ${Array.from({ length: 50_000 }, (_, i) => `xmlns:p${i}="urn:p:${i}"`).join(' ')}/>`,
} as const;

/** A saved ListRecords page of `n` oai_dc records, one a line after the envelope's, record `bad` holding `hostile`. */
function savedPage(file: string, n: number, bad: number, hostile: keyof typeof HOSTILE): string {
  const records = Array.from(
    { length: n },
    (_, i) =>
      `<record><header><identifier>oai:saved.example.org:${i + 1}</identifier><datestamp>2024-01-01T00:00:00Z</datestamp></header><metadata>` +
      '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">' +
      `<dc:title>Record ${i + 1}</dc:title>${i + 1 === bad ? HOSTILE[hostile] : ''}</oai_dc:dc></metadata></record>`,
  );
  fs.writeFileSync(
    file,
    '<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2024-01-02T00:00:00Z</responseDate>' +
      `<request verb="ListRecords" metadataPrefix="oai_dc">http://saved.example.org/oai</request><ListRecords>\n${records.join('\n')}\n</ListRecords></OAI-PMH>\n`,
  );
  return file;
}

/** What loading a page with one such record is expected to cost at most, a child process's start included, on a loaded machine. */
const EXPECTED_MS = 5_000;

describe('loading a saved page with one record hostile to the parser', function () {
  this.timeout(120_000);
  forEachCliDatabase((db) => {
    it('with --partial, writes the 99 good records of a page whose one record is nested 300 levels deep, refuses that one alone, and goes past it again', async () => {
      const file = savedPage(path.join(db().dir, 'deep.xml'), 100, 50, 'deep');
      const run = await cli(db(), ['load', '--json', '--partial', file]);
      expect(run.code, 'a refusal still makes the exit status 1').to.equal(1);
      expect(summaryOf(run)).to.include({ records: 100, inserted: 99, refused: 1, committed: true });
      // The envelope is line 2, record 1 line 3: record 50 is on line 52.
      expect(run.stderr).to.match(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:52 \\(record 50\\).*nested deeper than 256 levels`));
      expect(run.stderr).to.not.match(/not well-formed/);

      const again = await cli(db(), ['load', '--json', '--partial', file]);
      expect(summaryOf(again)).to.include({ records: 100, unchanged: 99, refused: 1, committed: true });
    });

    for (const [hostile, reason] of [
      ['attributes', /an element with more than 256 attributes/],
      ['namespaces', /an element declaring more than 256 namespaces/],
    ] as const) {
      it(`with --partial, refuses alone, in linear time, a record with an element of ${hostile === 'attributes' ? '100,000 attributes' : '50,000 namespace declarations'}`, async () => {
        const file = savedPage(path.join(db().dir, `${hostile}.xml`), 3, 2, hostile);
        const began = Date.now();
        const run = await cli(db(), ['load', '--json', '--partial', file]);
        expect(Date.now() - began).to.be.below(10 * EXPECTED_MS);
        expect(summaryOf(run)).to.include({ records: 3, inserted: 2, refused: 1, committed: true });
        expect(run.stderr).to.match(reason);
      });
    }
  });
});
