/**
 * MARC by the book, on MARCXML published by others (test/fixtures/marc21/SOURCE.md):
 * Leader/06-07 give the resource type as the Library of Congress's MARC to
 * Dublin Core and MARC to MODS crosswalks read them, beside the 655 genre
 * terms, and reach every format and the readiness verdicts; 008's `9999`
 * (Date 1 or Date 2) is no date.
 */
import { expect } from 'chai';
import { dublinCoreOf } from '../../lib/formats/oai-dc';
import { publicationYear } from '../../lib/model/facts';
import type { PreparedItem } from '../../lib/pipeline/prepare';
import { checkItemOf, failures, recordsOf, serve } from '../helpers/served';

const SOUND = 'http://purl.org/coar/resource_type/c_18cc';
const TEXT = 'http://purl.org/coar/resource_type/c_18cf';
const CARTOGRAPHIC = 'http://purl.org/coar/resource_type/c_12cc';
const MOVING_IMAGE = 'http://purl.org/coar/resource_type/c_8a7e';
const STILL_IMAGE = 'http://purl.org/coar/resource_type/c_ecc8';
const matches = (xml: string | undefined, re: RegExp): string[] => [...(xml ?? '').matchAll(re)].map((m) => m[1] as string);
const ruleIds = (found: string[]): string[] => found.map((f) => f.slice(0, f.indexOf(':')));

describe('MARC by the book, on real MARCXML', () => {
  describe('pymarc utf8.xml: Leader/06 j (musical sound recording), 008 s9999, 260 $c "03 Nov 2008"', () => {
    let item: PreparedItem;
    before(async () => {
      const [record] = await recordsOf('marc21', 'pymarc-utf8.xml');
      item = serve('marc21', record as string);
    });

    it('types the record as a musical sound recording (COAR sound, in MARC to MODS words), not text', () => {
      expect(item.fields?.resourceType).to.deep.equal({ coar: SOUND, general: 'Sound', label: 'sound recording-musical' });
    });

    it('takes no publication year from 008 Date 1 9999; the 260 $c date stays as written', () => {
      expect(item.fields?.publicationYear).to.equal(undefined);
      expect(publicationYear(item.fields!)).to.equal(undefined);
      expect(item.fields?.dc.date).to.deep.equal(['03 Nov 2008']);
    });

    it('serves the type and the date as given in oai_dc and MODS, and 9999 nowhere', () => {
      expect(dublinCoreOf(item.metadata.oai_dc ?? null).type).to.deep.equal(['sound recording-musical']);
      expect(dublinCoreOf(item.metadata.oai_dc ?? null).date).to.deep.equal(['03 Nov 2008']);
      expect(matches(item.metadata.mods, /<typeOfResource>([^<]*)</g)).to.deep.equal(['sound recording-musical']);
      expect(matches(item.metadata.mods, /valueURI="([^"]*)"/g)).to.deep.equal([SOUND]);
      expect(item.metadata.mods).to.not.contain('9999');
      expect(item.metadata.oai_dc).to.not.contain('9999');
    });

    it('keeps musical through MODS and back: the MODS record read gives the same type and MARC Leader/06 j', () => {
      const again = serve('mods', item.metadata.mods as string, 'from-mods');
      expect(again.fields?.resourceType).to.deep.equal(item.fields?.resourceType);
      expect(again.fields?.dc.type ?? []).to.not.include('Sound');
      expect(matches(again.metadata.marc21, /<leader>([^<]*)</g).map((l) => l[6])).to.deep.equal(['j']);
      expect(matches(again.metadata.mods, /<typeOfResource>([^<]*)</g)).to.deep.equal(['sound recording-musical']);
    });

    it('types the same record with Leader/06 i (made here from it) a nonmusical sound recording, written back as i', async () => {
      const [record] = await recordsOf('marc21', 'pymarc-utf8.xml');
      const leader = /<(?:marc:)?leader>([^<]*)</.exec(record as string)?.[1] as string;
      expect(leader[6]).to.equal('j');
      const nonmusical = serve('marc21', (record as string).replace(leader, `${leader.slice(0, 6)}i${leader.slice(7)}`), 'nonmusical');
      expect(nonmusical.fields?.resourceType).to.deep.equal({ coar: SOUND, general: 'Sound', label: 'sound recording-nonmusical' });
      expect(matches(nonmusical.metadata.mods, /<typeOfResource>([^<]*)</g)).to.deep.equal(['sound recording-nonmusical']);
      const again = serve('mods', nonmusical.metadata.mods as string, 'nonmusical-from-mods');
      expect(matches(again.metadata.marc21, /<leader>([^<]*)</g).map((l) => l[6])).to.deep.equal(['i']);
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
      // 008/11-14 (Date 2) 9999, "continuing", is a date in no served format.
      // 260 $c "1994-" stays as written beside the year.
      expect(dublinCoreOf(items[1]?.metadata.oai_dc ?? null).date).to.deep.equal(['1994', '1994-']);
      expect(matches(items[1]?.metadata.mods, /<dateIssued[^>]*>([^<]*)</g)).to.deep.equal(['1994']);
      expect(items[1]?.metadata.oai_dc).to.not.contain('9999');
      expect(items[1]?.metadata.mods).to.not.contain('9999');
    });
  });

  // Leader/06 beside the 655 genre terms: LoC's MARC to MODS takes typeOfResource from the leader, MARC to DC
  // gives dc:type from both; the 655s stay dc:type words and MODS genres.
  const typed: ReadonlyArray<{ file: string; title: string; coar: string; word: string; genres: string[]; year: string; date?: string[] }> = [
    {
      file: 'cornell-1676023-map.xml',
      title: 'Cornell catalogue record 1676023 (Leader/06 e cartographic, 655 "Maps" $2 fast, 008 s1975)',
      coar: CARTOGRAPHIC,
      word: 'cartographic',
      genres: ['Maps'],
      year: '1975',
      date: ['[ca. 1975]'],
    },
    {
      file: 'pybibframe-700t.xml',
      title: 'a videorecording (Leader/06 g projected medium, three 655 $2 lcgft, 008 s2005)',
      coar: MOVING_IMAGE,
      word: 'moving image',
      genres: ['Feature films', 'Fiction films', 'Film adaptations'],
      year: '2005',
      date: ['[2005]'],
    },
    {
      file: 'neb-catalog-rsl01006643618.xml',
      title: 'Russian State Library lubok print (Leader/06 k two-dimensional graphic, no 655, a 28-character 008, 260 $c 1904)',
      coar: STILL_IMAGE,
      word: 'still image',
      genres: [],
      year: '1904',
    },
  ];
  for (const t of typed) {
    describe(t.title, () => {
      let item: PreparedItem;
      before(async () => {
        const records = await recordsOf('marc21', t.file);
        expect(records).to.have.length(1);
        item = serve('marc21', records[0] as string);
      });

      it(`types the record by its leader (COAR ${t.word}), the 655 terms kept beside it`, () => {
        expect(item.fields?.resourceType?.coar).to.equal(t.coar);
        expect(item.fields?.resourceType?.label).to.equal(t.word);
        expect(item.fields?.dc.type).to.deep.equal(t.genres.length > 0 ? t.genres : undefined);
        expect(item.fields?.publicationYear).to.equal(t.year);
        expect(item.fields?.dc.date).to.deep.equal(t.date);
      });

      it(`serves oai_dc dc:type "${t.word}" and the genre words, MODS typeOfResource "${t.word}"`, () => {
        expect(Object.keys(item.metadata).sort()).to.deep.equal(['marc21', 'mods', 'oai_dc']);
        const dc = dublinCoreOf(item.metadata.oai_dc ?? null);
        expect(dc.type).to.deep.equal([t.word, ...t.genres]);
        expect(dc.date).to.deep.equal([t.year, ...(t.date ?? [])]);
        expect(matches(item.metadata.mods, /<typeOfResource>([^<]*)</g)).to.deep.equal([t.word]);
        expect(matches(item.metadata.mods, /valueURI="([^"]*)"/g)).to.deep.equal([t.coar]);
        expect(matches(item.metadata.mods, /<genre>([^<]*)</g)).to.deep.equal(t.genres);
        expect(matches(item.metadata.mods, /<dateIssued[^>]*>([^<]*)</g)).to.deep.equal([t.year]);
      });

      it('gives verdicts from the type: europeana finds an EDM type, openaire4 a COAR type', () => {
        const check = checkItemOf(item);
        expect(ruleIds(failures('europeana', check))).to.not.include('edm-type');
        expect(ruleIds(failures('openaire4', check))).to.not.include('resource-type');
      });
    });
  }

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
