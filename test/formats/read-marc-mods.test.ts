import { expect } from 'chai';
import { marc21 } from '../../lib/formats/marc21';
import { mods } from '../../lib/formats/mods';
import { parseFragment } from '../../lib/xml/tree';
import { metadataRoots } from '../helpers/xml-fixtures';

const field = (tag: string, ind: string, ...subs: [string, string][]): string =>
  `<datafield tag="${tag}" ind1="${ind[0]}" ind2="${ind[1]}">${subs.map(([c, v]) => `<subfield code="${c}">${v}</subfield>`).join('')}</datafield>`;

describe('the MARCXML reader', () => {
  it('reads the Alma record as written: its leader and 008 are not full length, so no position is read and no punctuation removed', () => {
    const records = metadataRoots('readers', 'marc21', 'alma-marc21-ListRecords.xml');
    // One live record on the page (the two others are deleted, without metadata).
    expect(records).to.have.length(1);
    expect(marc21.read!(records[0]!)).to.deep.equal({
      dc: { title: ['Readings on modern organizations.'] },
      creators: [{ name: 'Etzioni, Amitai.', nameType: 'person' }],
    });
  });

  it("reads a cataloguer's record with ISBD punctuation (Leader/18 a): identifiers, names by role, notes, subjects, links, files", () => {
    const leader = '01234nam a2200289 a 4500';
    const f008 = `${'690326s1969    nju'.padEnd(35)}eng  `;
    const xml = `<record xmlns="http://www.loc.gov/MARC21/slim"><leader>${leader}</leader><controlfield tag="001">991000000269703811</controlfield><controlfield tag="008">${f008}</controlfield>${[
      field('020', '  ', ['a', '9780306406157 (pbk.)']),
      field('024', '7 ', ['a', '10.1000/182'], ['2', 'doi']),
      field('024', '8 ', ['a', 'local-7']),
      field('041', '0 ', ['a', 'ger']),
      field('100', '1 ', ['a', 'Etzioni, Amitai,'], ['d', '1929-'], ['e', 'author.']),
      field('245', '10', ['a', 'Readings on modern organizations /'], ['c', 'edited by Amitai Etzioni.']),
      field('246', '30', ['a', 'Modern organizations.']),
      field('264', ' 1', ['a', 'Englewood Cliffs, N.J. :'], ['b', 'Prentice-Hall,'], ['c', '1969.']),
      field('504', '  ', ['a', 'Includes bibliographical references.']),
      field('506', '1 ', ['a', 'Embargoed until 2030.'], ['g', '2030-01-31'], ['u', 'http://purl.org/coar/access_right/c_f1cf']),
      field('520', '  ', ['a', 'An abstract.']),
      field('540', '  ', ['a', 'CC BY 4.0'], ['u', 'https://creativecommons.org/licenses/by/4.0/']),
      field('546', '  ', ['a', 'In German.']),
      field('650', ' 0', ['a', 'Organization'], ['v', 'Addresses, essays, lectures.']),
      field('651', ' 0', ['a', 'Netherlands.']),
      field('655', ' 7', ['a', 'Electronic books.'], ['2', 'lcgft']),
      field('700', '1 ', ['a', 'Smith, Jane,'], ['e', 'editor.']),
      field('700', '1 ', ['a', 'Doe, John'], ['4', 'ths'], ['1', 'https://orcid.org/0000-0002-1825-0097']),
      field('710', '2 ', ['a', 'European Commission'], ['4', 'fnd']),
      field('773', '0 ', ['t', 'Journal of things'], ['g', 'Vol. 12, no. 3 (Mar. 1970), p. 45-67.'], ['x', '0317-8471']),
      field('856', '40', ['u', 'https://example.org/item.pdf'], ['q', 'application/pdf'], ['s', '2048']),
      field('856', '41', ['u', 'http://hdl.handle.net/1765/315']),
    ].join('')}</record>`;
    expect(marc21.read!(parseFragment(xml)!)).to.deep.equal({
      dc: {
        title: ['Readings on modern organizations', 'Modern organizations'],
        subject: ['Organization--Addresses, essays, lectures'],
        description: ['Includes bibliographical references.', 'An abstract.'],
        type: ['Electronic books'],
        identifier: ['local-7', 'http://hdl.handle.net/1765/315'],
        language: ['In German.'],
        coverage: ['Netherlands'],
        rights: ['Embargoed until 2030.', 'CC BY 4.0'],
      },
      identifiers: [
        { type: 'ISBN', value: '9780306406157' },
        { type: 'DOI', value: '10.1000/182' },
        { type: 'Handle', value: '1765/315' },
      ],
      creators: [{ name: 'Etzioni, Amitai', nameType: 'person' }],
      contributors: [
        { name: 'Smith, Jane', nameType: 'person', type: 'Editor' },
        { name: 'Doe, John', nameType: 'person', orcid: '0000-0002-1825-0097', type: 'Supervisor' },
      ],
      accessRights: 'embargoed',
      license: 'https://creativecommons.org/licenses/by/4.0/',
      publisher: 'Prentice-Hall',
      publicationYear: '1969',
      dates: { embargoEnd: '2030-01-31' },
      language: 'ger',
      fundingReferences: [{ funderName: 'European Commission' }],
      relatedIdentifiers: [{ identifier: '0317-8471', type: 'ISSN', relation: 'IsPartOf' }],
      host: { title: 'Journal of things', volume: '12', issue: '3', startPage: '45', endPage: '67' },
      files: [{ url: 'https://example.org/item.pdf', mediaType: 'application/pdf', size: 2048 }],
      // Leader/06 a beside the 655 genre term (lcgft): LoC's MARC to MODS typeOfResource "text", whatever 655 says.
      resourceType: { coar: 'http://purl.org/coar/resource_type/c_18cf', general: 'Text', label: 'text' },
    });
  });

  describe('773, the host item', () => {
    const read = (...fields: string[]) =>
      marc21.read!(
        parseFragment(
          `<record xmlns="http://www.loc.gov/MARC21/slim"><leader>     nab a22     3u 4500</leader>${field('245', '00', ['a', 'T'])}${fields.join('')}</record>`,
        )!,
      );
    it("reads LC's own $g examples, a date in parentheses aside", () => {
      expect(read(field('773', '0 ', ['t', 'Horizon'], ['g', 'Vol. 17, no. 98 (Feb. 1948), p. 78-159'])).host).to.deep.equal({
        title: 'Horizon',
        volume: '17',
        issue: '98',
        startPage: '78',
        endPage: '159',
      });
    });
    it('keeps a $g in words it does not know as dc:relation text, and takes the enumeration from $q then', () => {
      const r = read(field('773', '0 ', ['t', 'Horizon'], ['g', 'Jan. 1992, p. 38-50'], ['q', '48:3&lt;434']));
      expect(r.host).to.deep.equal({ title: 'Horizon', volume: '48', issue: '3', startPage: '434' });
      expect(r.dc.relation).to.deep.equal(['Jan. 1992, p. 38-50']);
    });
    it('takes the first host only: a second 773 title is a dc:relation', () => {
      const r = read(field('773', '0 ', ['g', 'v. 5, pp. 1–9']), field('773', '0 ', ['t', 'Other journal'], ['g', 'Vol. 9']));
      expect(r.host).to.deep.equal({ volume: '5', startPage: '1', endPage: '9' });
      expect(r.dc.relation).to.deep.equal(['Other journal']);
    });
    it('takes no host from a 773 that only names an identifier', () => {
      const r = read(field('773', '0 ', ['x', '0317-8471']));
      expect(r.host).to.equal(undefined);
      expect(r.relatedIdentifiers).to.deep.equal([{ identifier: '0317-8471', type: 'ISSN', relation: 'IsPartOf' }]);
    });
  });

  it('reads the language and year of a full-length 008, and the type of the leader, when no field says them', () => {
    const f008 = `${'690326s1969    nju'.padEnd(35)}eng  `;
    const xml = `<record xmlns="http://www.loc.gov/MARC21/slim"><leader>01234nam a2200289 a 4500</leader><controlfield tag="008">${f008}</controlfield>${field('245', '00', ['a', 'T'])}</record>`;
    expect(marc21.read!(parseFragment(xml)!)).to.deep.equal({
      dc: { title: ['T'] },
      language: 'eng',
      publicationYear: '1969',
      // LoC MARC to Dublin Core: Leader/06 a is text.
      resourceType: { coar: 'http://purl.org/coar/resource_type/c_18cf', general: 'Text', label: 'text' },
    });
  });

  it('reads odd but well-formed records without throwing', () => {
    for (const xml of [
      '<record xmlns="http://www.loc.gov/MARC21/slim"/>',
      '<record xmlns="http://www.loc.gov/MARC21/slim"><datafield/><datafield tag="245"><subfield/></datafield></record>',
      '<collection xmlns="http://www.loc.gov/MARC21/slim"><record/></collection>',
    ])
      expect(marc21.read!(parseFragment(xml)!), xml).to.deep.equal({ dc: {} });
  });
});

describe('the MODS reader', () => {
  const MODS = `<mods xmlns="http://www.loc.gov/mods/v3" xmlns:xlink="http://www.w3.org/1999/xlink" version="3.7">
    <titleInfo><nonSort>The</nonSort><title>modern organization</title><subTitle>readings</subTitle></titleInfo>
    <titleInfo type="alternative"><title>Organizations</title></titleInfo>
    <name type="personal" usage="primary"><namePart type="family">Etzioni</namePart><namePart type="given">Amitai</namePart><namePart type="date">1929-2023</namePart>
      <nameIdentifier type="orcid">https://orcid.org/0000-0002-1825-0097</nameIdentifier><affiliation>Columbia University</affiliation>
      <role><roleTerm type="code" authority="marcrelator">aut</roleTerm></role></name>
    <name type="personal"><namePart>Jane Smith</namePart><role><roleTerm type="text">editor</roleTerm></role></name>
    <name type="corporate"><namePart>National Science Foundation</namePart><role><roleTerm type="code" authority="marcrelator">fnd</roleTerm></role></name>
    <name><namePart>Anonymous</namePart></name>
    <typeOfResource>text</typeOfResource>
    <genre authority="marcgt">article</genre>
    <genre authorityURI="http://purl.org/coar/resource_type/" valueURI="http://purl.org/coar/resource_type/c_6501">journal article</genre>
    <genre>Festschrift</genre>
    <originInfo><place><placeTerm type="text">New York</placeTerm></place><publisher>Free Press</publisher>
      <dateIssued encoding="w3cdtf" keyDate="yes">1969-05</dateIssued><dateCreated>1968</dateCreated><dateOther type="accepted" encoding="w3cdtf">1969-01-15</dateOther></originInfo>
    <language><languageTerm type="code" authority="rfc5646">en-US</languageTerm><languageTerm type="text">English</languageTerm></language>
    <physicalDescription><internetMediaType>application/pdf</internetMediaType><extent>xii, 320 p.</extent></physicalDescription>
    <abstract>An abstract.</abstract>
    <note>A note.</note>
    <subject authority="lcsh"><topic>Organization</topic><geographic>United States</geographic><temporal>20th century</temporal></subject>
    <classification authority="ddc">302.35</classification>
    <identifier type="doi">10.1000/182</identifier>
    <identifier type="isbn">978-0-306-40615-7</identifier>
    <identifier type="hdl">hdl:1765/315</identifier>
    <identifier type="isbn" invalid="yes">0000000000</identifier>
    <identifier type="local">A-7</identifier>
    <location><url access="object in context">https://example.org/items/7</url><url access="raw object">https://example.org/items/7.pdf</url><url access="preview">https://example.org/items/7.png</url></location>
    <relatedItem type="host"><titleInfo><title>Journal of things</title></titleInfo><identifier type="issn">0317-8471</identifier><part><detail type="volume"><number>12</number></detail><extent unit="page"><start>45</start><end>67</end></extent></part></relatedItem>
    <relatedItem type="original"><titleInfo><title>Original print</title></titleInfo></relatedItem>
    <relatedItem otherType="IsSupplementTo"><identifier type="doi">10.5061/dryad.abc</identifier></relatedItem>
    <accessCondition type="restriction on access" xlink:href="http://purl.org/coar/access_right/c_f1cf">embargoed access until 2030-01-31</accessCondition>
    <accessCondition type="use and reproduction" xlink:href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</accessCondition>
  </mods>`;

  it('reads a full record: titles, names by role, COAR genre, dates, language tag, identifiers, files, related items, access and licence', () => {
    expect(mods.read!(parseFragment(MODS)!)).to.deep.equal({
      dc: {
        title: ['The modern organization: readings', 'Organizations'],
        subject: ['Organization', '302.35'],
        coverage: ['United States', '20th century'],
        description: ['An abstract.', 'A note.'],
        // The marcgt term "article" only restates the COAR type; Festschrift says more.
        type: ['Festschrift'],
        date: ['1968'],
        format: ['application/pdf', 'xii, 320 p.'],
        identifier: ['A-7', 'https://example.org/items/7'],
        language: ['English'],
        source: ['Original print'],
        rights: ['CC BY 4.0'],
      },
      identifiers: [
        { type: 'DOI', value: '10.1000/182' },
        { type: 'ISBN', value: '9780306406157' },
        { type: 'Handle', value: '1765/315' },
        { type: 'URL', value: 'https://example.org/items/7' },
      ],
      creators: [
        {
          name: 'Etzioni, Amitai',
          givenName: 'Amitai',
          familyName: 'Etzioni',
          nameType: 'person',
          orcid: '0000-0002-1825-0097',
          affiliations: [{ name: 'Columbia University' }],
        },
        { name: 'Anonymous' },
      ],
      contributors: [{ name: 'Jane Smith', nameType: 'person', type: 'Editor' }],
      resourceType: { coar: 'http://purl.org/coar/resource_type/c_6501', general: 'JournalArticle', label: 'journal article' },
      accessRights: 'embargoed',
      license: 'https://creativecommons.org/licenses/by/4.0/',
      publisher: 'Free Press',
      dates: { issued: '1969-05', accepted: '1969-01-15', embargoEnd: '2030-01-31' },
      language: 'en-US',
      fundingReferences: [{ funderName: 'National Science Foundation' }],
      relatedIdentifiers: [
        { identifier: '0317-8471', type: 'ISSN', relation: 'IsPartOf' },
        { identifier: '10.5061/dryad.abc', type: 'DOI', relation: 'IsSupplementTo' },
      ],
      host: { title: 'Journal of things', volume: '12', startPage: '45', endPage: '67' },
      files: [{ url: 'https://example.org/items/7.pdf' }],
    });
  });

  it('takes the first host relatedItem with a title or part as the host, its issue from detail type issue; a second host title is a dc:relation', () => {
    const r = mods.read!(
      parseFragment(`<mods xmlns="http://www.loc.gov/mods/v3"><titleInfo><title>T</title></titleInfo>
      <relatedItem type="host"><identifier type="issn">0317-8471</identifier></relatedItem>
      <relatedItem type="host"><part><detail type="issue"><number>4</number></detail><extent unit="pages"><start>e12</start></extent></part></relatedItem>
      <relatedItem type="host"><titleInfo><title>Series</title></titleInfo></relatedItem></mods>`)!,
    );
    expect(r.host).to.deep.equal({ issue: '4', startPage: 'e12' });
    expect(r.dc.relation).to.deep.equal(['Series']);
    expect(r.relatedIdentifiers).to.deep.equal([{ identifier: '0317-8471', type: 'ISSN', relation: 'IsPartOf' }]);
  });

  it('keeps the displayLabel of a local identifier with its value (a shelf mark alone means nothing), a labelled URL bare', () => {
    const r = mods.read!(
      parseFragment(`<mods xmlns="http://www.loc.gov/mods/v3"><titleInfo><title>T</title></titleInfo>
      <identifier type="local" displayLabel="Signatur">342, 19. 9</identifier>
      <identifier displayLabel="  Call number: ">QA 76.9</identifier>
      <identifier type="local">A-7</identifier>
      <identifier type="uri" displayLabel="Catalogue">https://example.org/c/7</identifier>
      <identifier displayLabel="Online">https://example.org/items/7</identifier></mods>`)!,
    );
    expect(r.dc.identifier).to.deep.equal(['Signatur: 342, 19. 9', 'Call number: QA 76.9', 'A-7', 'https://example.org/items/7']);
  });

  it('reads the first record of a modsCollection, and odd records without throwing', () => {
    expect(
      mods.read!(
        parseFragment(
          `<modsCollection xmlns="http://www.loc.gov/mods/v3" xmlns:xlink="http://www.w3.org/1999/xlink">${MODS.replace(/^<mods [^>]*>/, '<mods>')}</modsCollection>`,
        )!,
      ).dc.title,
    ).to.deep.equal(['The modern organization: readings', 'Organizations']);
    for (const xml of [
      '<mods xmlns="http://www.loc.gov/mods/v3"/>',
      '<mods xmlns="http://www.loc.gov/mods/v3"><name/><titleInfo/><accessCondition/><relatedItem/></mods>',
      '<mods/>',
    ]) {
      expect(mods.read!(parseFragment(xml)!), xml).to.deep.equal({ dc: {} });
    }
  });
});

describe('the own identifier of a record in a collection', () => {
  const marc = (body: string): string => `<record xmlns="http://www.loc.gov/MARC21/slim">${body}</record>`;
  const m = (body: string): string => `<mods xmlns="http://www.loc.gov/mods/v3">${body}</mods>`;
  const cases: { name: string; format: typeof marc21; xml: string; own: { id: string; from: string } | undefined }[] = [
    {
      name: 'a MARC record: its 001, trimmed',
      format: marc21,
      xml: marc('<controlfield tag="003">PPT</controlfield><controlfield tag="001"> 991000000269703811 </controlfield>'),
      own: { id: '991000000269703811', from: 'its 001 control field' },
    },
    {
      name: 'a MARC record with an empty 001: the next non-empty one',
      format: marc21,
      xml: marc('<controlfield tag="001"> </controlfield><controlfield tag="001">b</controlfield>'),
      own: { id: 'b', from: 'its 001 control field' },
    },
    {
      name: "a MARC record without a 001: none (a 035 is another system's number)",
      format: marc21,
      xml: marc(field('035', '  ', ['a', '(PPT)b1'])),
      own: undefined,
    },
    {
      name: 'a MODS record: its recordIdentifier before any identifier',
      format: mods,
      xml: m('<identifier type="doi">10.1/x</identifier><recordInfo><recordIdentifier source="DLC">r-1</recordIdentifier></recordInfo>'),
      own: { id: 'r-1', from: 'its recordInfo/recordIdentifier' },
    },
    {
      name: 'a MODS record without recordIdentifier: its first valid top-level identifier',
      format: mods,
      xml: m(
        '<relatedItem><identifier>host-1</identifier></relatedItem><identifier invalid="yes">old</identifier><identifier type="hdl">1765/315</identifier><identifier>second</identifier>',
      ),
      own: { id: '1765/315', from: 'its identifier' },
    },
    {
      name: 'a MODS record with neither: none',
      format: mods,
      xml: m('<titleInfo><title>T</title></titleInfo><recordInfo><recordIdentifier> </recordIdentifier></recordInfo>'),
      own: undefined,
    },
  ];
  for (const c of cases) {
    it(`reads ${c.name}`, () => {
      expect(c.format.collection?.ownId(parseFragment(c.xml)!)).to.deep.equal(c.own);
    });
  }

  it('is declared by MARCXML and MODS with their containers', () => {
    expect([marc21, mods].map((f) => [f.collection?.container, f.collection?.record])).to.deep.equal([
      ['collection', 'record'],
      ['modsCollection', 'mods'],
    ]);
  });
});
