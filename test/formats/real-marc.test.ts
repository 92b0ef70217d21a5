/**
 * MARC by the book, on MARCXML published by others (test/fixtures/marc21/SOURCE.md):
 * Leader/06-07 give the resource type as the Library of Congress's MARC to
 * Dublin Core and MARC to MODS crosswalks read them, and reach every format
 * and the readiness verdicts; 008's Date 1 `9999` is no date.
 */
import { expect } from 'chai';
import { dublinCoreOf } from '../../lib/formats/oai-dc';
import { publicationYear } from '../../lib/model/facts';
import type { PreparedItem } from '../../lib/pipeline/prepare';
import { checkItemOf, failures, recordsOf, serve } from '../helpers/served';

const SOUND = 'http://purl.org/coar/resource_type/c_18cc';
const TEXT = 'http://purl.org/coar/resource_type/c_18cf';
const matches = (xml: string | undefined, re: RegExp): string[] => [...(xml ?? '').matchAll(re)].map((m) => m[1] as string);
const ruleIds = (found: string[]): string[] => found.map((f) => f.slice(0, f.indexOf(':')));

describe('MARC by the book, on real MARCXML', () => {
  describe('pymarc utf8.xml: Leader/06 j (musical sound recording), 008 s9999, 260 $c "03 Nov 2008"', () => {
    let item: PreparedItem;
    before(async () => {
      const [record] = await recordsOf('marc21', 'pymarc-utf8.xml');
      item = serve('marc21', record as string);
    });

    it('types the record as a sound recording (COAR sound), not text', () => {
      expect(item.fields?.resourceType).to.deep.equal({ coar: SOUND, general: 'Sound', label: 'sound recording' });
    });

    it('takes no publication year from 008 Date 1 9999; the 260 $c date stays as written', () => {
      expect(item.fields?.publicationYear).to.equal(undefined);
      expect(publicationYear(item.fields!)).to.equal(undefined);
      expect(item.fields?.dc.date).to.deep.equal(['03 Nov 2008']);
    });

    it('serves the type and the date as given in oai_dc and MODS, and 9999 nowhere', () => {
      expect(dublinCoreOf(item.metadata.oai_dc ?? null).type).to.deep.equal(['sound recording']);
      expect(dublinCoreOf(item.metadata.oai_dc ?? null).date).to.deep.equal(['03 Nov 2008']);
      expect(matches(item.metadata.mods, /<typeOfResource>([^<]*)</g)).to.deep.equal(['sound recording']);
      expect(matches(item.metadata.mods, /valueURI="([^"]*)"/g)).to.deep.equal([SOUND]);
      expect(item.metadata.mods).to.not.contain('9999');
      expect(item.metadata.oai_dc).to.not.contain('9999');
    });

    it('gives verdicts from the type: europeana finds an EDM type, openaire4 a COAR type', () => {
      const check = checkItemOf(item);
      expect(ruleIds(failures('europeana', check))).to.not.include('edm-type');
      expect(ruleIds(failures('openaire4', check))).to.not.include('resource-type');
      // The date there is is not W3CDTF: malformed, not a year 9999.
      expect(failures('openaire4', check).filter((f) => f.startsWith('publication-date'))).to.deep.equal([
        'publication-date: dates.issued: malformed: "03 Nov 2008" is not a W3CDTF date (YYYY, YYYY-MM, YYYY-MM-DD, or a day with a time and a zone such as 2003-04-15T10:18:51Z)',
      ]);
    });
  });

  describe("the Library of Congress's sample (pymarc batch.xml)", () => {
    let items: PreparedItem[];
    before(async () => {
      items = (await recordsOf('marc21', 'pymarc-batch.xml')).map((r, i) => serve('marc21', r, `batch-${i}`));
    });

    it('a j sound recording of 1957: COAR sound, year 1957 from 008', () => {
      expect(items[0]?.fields?.resourceType?.coar).to.equal(SOUND);
      expect(items[0]?.fields?.publicationYear).to.equal('1957');
    });

    it('an m computer file of 1994-9999: the word "software, multimedia" (no one COAR concept), year 1994, never 9999', () => {
      expect(items[1]?.fields?.resourceType).to.equal(undefined);
      expect(items[1]?.fields?.dc.type).to.deep.equal(['software, multimedia']);
      expect(items[1]?.fields?.publicationYear).to.equal('1994');
      expect(matches(items[1]?.metadata.mods, /<typeOfResource>([^<]*)</g)).to.deep.equal(['software, multimedia']);
    });
  });

  describe('Library of Congress book records (traject test_data.utf8.marc.xml)', () => {
    let items: PreparedItem[];
    before(async () => {
      items = (await recordsOf('marc21', 'traject-test_data.utf8.marc.xml')).map((r, i) => serve('marc21', r, `lc-${i}`));
    });

    it('types every a record as text and never takes 9999 for a year (five say m…9999, continuing)', () => {
      expect(items).to.have.length(30);
      expect(items.map((i) => i.fields?.resourceType?.coar)).to.deep.equal(items.map(() => TEXT));
      const years = items.map((i) => publicationYear(i.fields!));
      expect(years.filter((y) => y === '9999')).to.deep.equal([]);
      expect(years).to.include.members(['1941', '1986', '1992', '2000', '1965']);
    });
  });
});
