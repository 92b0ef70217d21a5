/**
 * The crosswalks between Dublin Core, MODS, MARC 21 and OpenAIRE v4 as the
 * published mappings carry them: the Library of Congress MODS ↔ Dublin Core
 * and MARC ↔ Dublin Core mappings, the OpenAIRE Guidelines v4. Every record
 * goes the way a load takes it: read by its format's reader, written by
 * another format's writer (oai_dc from the lifted model, as the pipeline
 * writes it), and each output is valid against its XSD.
 */
import { expect } from 'chai';
import type { CrosswalkContext } from '../../lib/formats/format';
import { isNotOffered } from '../../lib/formats/format';
import { marc21 } from '../../lib/formats/marc21';
import { mods } from '../../lib/formats/mods';
import { oaiDc, dublinCoreToOaiDc } from '../../lib/formats/oai-dc';
import { oaiOpenaire } from '../../lib/formats/oai-openaire';
import { readDataciteJson } from '../../lib/formats/datacite-json';
import type { RecordFields } from '../../lib/model/record';
import { oaiDcOf } from '../../lib/pipeline/prepare';
import { parseFragment } from '../../lib/xml/tree';
import { fixtureText, metadataRoots } from '../helpers/xml-fixtures';
import { validate, type FormatPrefix } from '../helpers/xsd';

const CTX: CrosswalkContext = { oaiIdentifier: 'oai:example.org:1', options: {} };
const MODS_OPEN = '<mods xmlns="http://www.loc.gov/mods/v3" version="3.7">';
const DC_OPEN = '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">';

const readModsXml = (body: string): RecordFields => mods.read!(parseFragment(`${MODS_OPEN}<titleInfo><title>T</title></titleInfo>${body}</mods>`)!);
const readDcXml = (body: string): RecordFields => oaiDc.read!(parseFragment(`${DC_OPEN}<dc:title>T</dc:title>${body}</oai_dc:dc>`)!);

/** A format's XML of a record, checked against its XSD. */
function write(prefix: 'mods' | 'marc21' | 'oai_openaire', record: RecordFields): string {
  const format = { mods, marc21, oai_openaire: oaiOpenaire }[prefix];
  const out = format.fromRecord!(record, CTX);
  if (isNotOffered(out)) throw new Error(out.notOffered);
  expect(validate(out, prefix as FormatPrefix), prefix).to.deep.equal([]);
  return out;
}

/** oai_dc of a lifted record, as the pipeline writes it, checked against its XSD. */
function writeDc(record: RecordFields): string {
  const out = dublinCoreToOaiDc(oaiDcOf(record, {}, undefined));
  expect(validate(out, 'oai_dc'), 'oai_dc').to.deep.equal([]);
  return out;
}

const leader06 = (marc: string): string => /<leader>(.{24})<\/leader>/.exec(marc)![1]![6]!;

describe('the published mappings between Dublin Core, MODS and MARC 21', () => {
  describe('languages: every one stays', () => {
    const latinAndOldEnglish = readModsXml(
      '<language><languageTerm type="code" authority="iso639-2b">lat</languageTerm></language>' +
        '<language><languageTerm type="code" authority="iso639-2b">ang</languageTerm></language>',
    );

    it('keeps a MODS record in Latin and Old English in both languages in oai_dc', () => {
      const dc = writeDc(latinAndOldEnglish);
      expect(dc).to.contain('<dc:language>lat</dc:language>');
      expect(dc).to.contain('<dc:language>ang</dc:language>');
    });

    it('keeps both in MARC 041, one $a each', () => {
      expect(write('marc21', latinAndOldEnglish)).to.contain(
        '<datafield tag="041" ind1=" " ind2="7"><subfield code="a">lat</subfield><subfield code="a">ang</subfield><subfield code="2">iso639-3</subfield></datafield>',
      );
    });

    it('writes a dc:language code such as en as a MODS languageTerm of type code, a name as text (the real sickle record)', () => {
      const [root] = metadataRoots('realworld', 'sickle', 'GetRecord.xml');
      const out = write('mods', oaiDc.read!(root!));
      expect(out).to.contain('<languageTerm type="code" authority="iso639-2b">eng</languageTerm>');
      expect(write('mods', readDcXml('<dc:language>en</dc:language><dc:language>Nederlands</dc:language>'))).to.contain(
        '<languageTerm type="code" authority="rfc5646">en</languageTerm></language><language><languageTerm type="text">Nederlands</languageTerm>',
      );
    });
  });

  describe('dates: precision, every date, ranges', () => {
    it('keeps an oai_dc date 2005-08-08 as 2005-08-08 in MODS, never the year alone', () => {
      expect(write('mods', readDcXml('<dc:date>2005-08-08</dc:date>'))).to.contain('<dateIssued encoding="w3cdtf" keyDate="yes">2005-08-08</dateIssued>');
    });

    it('keeps 1889-04 as 1889-04, and a second date as another date (LoC: dateIssued, dateOther)', () => {
      const out = write('mods', readDcXml('<dc:date>1889-04</dc:date><dc:date>1901</dc:date>'));
      expect(out).to.contain('<dateIssued encoding="w3cdtf" keyDate="yes">1889-04</dateIssued>');
      expect(out).to.contain('<dateOther encoding="w3cdtf">1901</dateOther>');
      const back = mods.read!(parseFragment(out)!);
      expect(back.dates?.issued).to.equal('1889-04');
      expect(back.dc.date).to.deep.equal(['1901']);
    });

    it('keeps every dc:date in MARC 260 $c as written', () => {
      const out = write('marc21', readDcXml('<dc:date>2005-08-08</dc:date><dc:date>1889-04</dc:date>'));
      expect(out).to.contain('<subfield code="c">2005-08-08</subfield><subfield code="c">1889-04</subfield>');
    });

    it('reads a MODS dateCreated range (point start and end) as one range in dc:date, not two years', () => {
      const record = readModsXml(
        '<originInfo><dateCreated point="start" encoding="w3cdtf" keyDate="yes">1900</dateCreated><dateCreated point="end" encoding="w3cdtf">1910</dateCreated>' +
          '<dateCreated point="start">1920</dateCreated><dateCreated point="end">1925</dateCreated></originInfo>',
      );
      expect(record.dc.date).to.deep.equal(['1900/1910', '1920/1925']);
      const dc = writeDc(record);
      expect(dc).to.contain('<dc:date>1900/1910</dc:date><dc:date>1920/1925</dc:date>');
      expect(dc).to.not.contain('<dc:date>1900</dc:date>');
    });

    it('writes a range back to MODS as a range', () => {
      const out = write('mods', readDcXml('<dc:date>1900/1910</dc:date>'));
      expect(out).to.contain(
        '<dateIssued encoding="w3cdtf" point="start" keyDate="yes">1900</dateIssued><dateIssued encoding="w3cdtf" point="end">1910</dateIssued>',
      );
      expect(mods.read!(parseFragment(out)!).dc.date).to.deep.equal(['1900/1910']);
    });

    it('puts the publication date first in dc:date, then the others', () => {
      const record = readModsXml(
        '<originInfo><dateCreated>1888</dateCreated><dateIssued encoding="w3cdtf">1889-04</dateIssued><dateOther type="accepted" encoding="w3cdtf">1889-01-02</dateOther></originInfo>',
      );
      expect(oaiDcOf(record, {}, undefined).date).to.deep.equal(['1889-04', '1889-01-02', '1888']);
    });
  });

  describe('types: the kind of material as the mappings say it, never invented', () => {
    for (const [tor, dcmi, leader] of [
      ['still image', 'StillImage', 'k'],
      ['mixed material', 'Collection', 'p'],
      ['software, multimedia', 'Software', 'm'],
      ['cartographic', 'Image', 'k'],
    ] as const) {
      it(`keeps typeOfResource "${tor}" in oai_dc as the DCMI Type ${dcmi}, and MARC Leader/06 is ${leader}`, () => {
        const record = readModsXml(`<typeOfResource>${tor}</typeOfResource>`);
        expect(writeDc(record)).to.contain(`<dc:type>${dcmi}</dc:type>`);
        expect(leader06(write('marc21', record))).to.equal(leader);
      });
    }

    it('makes a photograph k and a manuscript t or p in MARC Leader/06, never a', () => {
      const photo = readModsXml('<typeOfResource>still image</typeOfResource><genre authority="aat">photographs</genre>');
      expect(leader06(write('marc21', photo))).to.equal('k');
      const letter = readModsXml('<typeOfResource manuscript="yes">text</typeOfResource>');
      expect(letter.dc.type).to.deep.equal(['Text', 'manuscript']);
      expect(leader06(write('marc21', letter))).to.equal('t');
      const papers = readModsXml('<typeOfResource manuscript="yes">mixed material</typeOfResource>');
      expect(leader06(write('marc21', papers))).to.equal('p');
    });

    it('keeps the manuscript attribute from MODS to MODS, without a genre restating it', () => {
      const out = write('mods', readModsXml('<typeOfResource manuscript="yes">text</typeOfResource>'));
      expect(out).to.contain('<typeOfResource manuscript="yes">text</typeOfResource>');
      expect(out).to.not.contain('<genre>');
    });

    it('types the real Zenodo software record as software, not text, in MODS and MARC', () => {
      const [result] = readDataciteJson(JSON.parse(fixtureText('readers', 'json', 'datacite_software.json')) as unknown, 'datacite_software.json');
      if (result === undefined || !('record' in result) || result.record.fields === undefined) throw new Error('the software record is not read');
      const record = result.record.fields;
      expect(record.resourceType?.general).to.equal('Software');
      expect(write('mods', record)).to.contain('<typeOfResource>software, multimedia</typeOfResource>');
      expect(leader06(write('marc21', record))).to.equal('m');
    });

    it('writes no typeOfResource for a record that says no type', () => {
      expect(write('mods', readDcXml('<dc:type>Inaugural Address</dc:type>'))).to.not.contain('typeOfResource');
      expect(write('mods', readDcXml(''))).to.not.contain('typeOfResource');
    });
  });

  describe('a host is a host', () => {
    it('writes a DSpace dc:source citation of a journal as MODS relatedItem type host, not original', () => {
      const out = write('mods', readDcXml('<dc:source>Journal of Ecology, 12(3), 45-67</dc:source>'));
      expect(out).to.contain('<relatedItem type="host"><titleInfo><title>Journal of Ecology, 12(3), 45-67</title></titleInfo></relatedItem>');
      expect(out).to.not.contain('type="original"');
      expect(writeDc(mods.read!(parseFragment(out)!))).to.contain('<dc:source>Journal of Ecology, 12(3), 45-67</dc:source>');
    });

    it('keeps a source that is no citation as the original (the real sickle record)', () => {
      const [root] = metadataRoots('realworld', 'sickle', 'GetRecord.xml');
      expect(write('mods', oaiDc.read!(root!))).to.contain('<relatedItem type="original"><titleInfo><title>Sample Source</title></titleInfo></relatedItem>');
    });
  });

  describe('identifiers', () => {
    it('writes the Handle of the real DSpace record once in MODS and in MARC', () => {
      const [root] = metadataRoots('dspace', 'GetRecord-hdl-1765-315.xml');
      const record = oaiDc.read!(root!);
      for (const prefix of ['mods', 'marc21'] as const) {
        const out = write(prefix, record);
        expect(out.match(/1765\/315/g), prefix).to.have.length(1);
      }
    });
  });

  describe('OpenAIRE v4 from Dublin Core', () => {
    it('offers oai_openaire for a DRIVER record: the info:eu-repo type as its COAR successor, the access right from dc:rights, the date in its precision', () => {
      const record = readDcXml(
        '<dc:type>info:eu-repo/semantics/doctoralThesis</dc:type><dc:rights>info:eu-repo/semantics/openAccess</dc:rights>' +
          '<dc:date>2005-08-08</dc:date><dc:identifier>http://hdl.handle.net/1765/315</dc:identifier>',
      );
      const out = write('oai_openaire', record);
      expect(out).to.contain(
        '<oaire:resourceType resourceTypeGeneral="literature" uri="http://purl.org/coar/resource_type/c_db06">doctoral thesis</oaire:resourceType>',
      );
      expect(out).to.contain('<datacite:rights rightsURI="http://purl.org/coar/access_right/c_abf2">open access</datacite:rights>');
      expect(out).to.contain('<datacite:date dateType="Issued">2005-08-08</datacite:date>');
    });

    it('does not offer it when the words name no COAR type: none is guessed', () => {
      const out = oaiOpenaire.fromRecord!(readDcXml('<dc:type>Inaugural Address</dc:type><dc:rights>info:eu-repo/semantics/openAccess</dc:rights>'), CTX);
      expect(out).to.deep.equal({
        notOffered:
          'OpenAIRE v4 needs a resource type (COAR, a DataCite resourceTypeGeneral, or a dc:type naming a COAR concept), a DOI, Handle, URN, ARK, URL or POI',
      });
    });
  });
});
