/**
 * The facts every reader of a record asks, computed from the model: the
 * citation identifier, the identifiers in every scheme, licences, files,
 * schema.org types, where a work was published, and dates as W3CDTF. Typed fields first, their Dublin
 * Core counterparts second.
 */
import { expect } from 'chai';
import {
  embargoEnd,
  fileLinks,
  hasResourceIdentifier,
  identifierUri,
  keywords,
  licences,
  openPdf,
  publicationDate,
  recordIdentifiers,
} from '../../lib/model/facts';
import { coarResourceType, schemaOrgTypes } from '../../lib/model/type-facts';
import { citationIdentifier, hostOf, serialIssns } from '../../lib/model/citation-facts';
import type { RecordFields } from '../../lib/model/record';
import { eachRow } from '../helpers/table';

const POI = 'http://purl.org/poi/x.org/1';
const dc = (d: RecordFields['dc'], more: Omit<RecordFields, 'dc'> = {}): RecordFields => ({ dc: d, ...more });

describe('the citation identifier', () => {
  eachRow(
    [
      ['a DOI before anything else', dc({ identifier: ['http://hdl.handle.net/1765/315', 'doi:10.5555/X'] }), 'https://doi.org/10.5555/X'],
      [
        'a typed DOI',
        dc(
          {},
          {
            identifiers: [
              { type: 'Handle', value: '1765/1' },
              { type: 'DOI', value: '10.5555/typed' },
            ],
          },
        ),
        'https://doi.org/10.5555/typed',
      ],
      [
        "DSpace's Handle URL, as https through the Handle proxy",
        dc({ identifier: ['90-9014980-5', 'http://hdl.handle.net/1765/315'] }),
        'https://hdl.handle.net/1765/315',
      ],
      ['a Handle written hdl:', dc({ identifier: ['hdl:20.500.12345/678'] }), 'https://hdl.handle.net/20.500.12345/678'],
      ['a Handle before an ARK or a URN', dc({ identifier: ['urn:nbn:de:101-1234', 'hdl:1765/9'] }), 'https://hdl.handle.net/1765/9'],
      ['an ARK through N2T.net', dc({ identifier: ['https://gallica.bnf.fr/ark:/12148/bpt6k5619759j'] }), 'https://n2t.net/ark:/12148/bpt6k5619759j'],
      ['the first of an ARK and a URN, as the record orders them', dc({ identifier: ['URN:NBN:de:101-1234', 'ark:/13030/tf5p30086k'] }), 'urn:nbn:de:101-1234'],
      ['the POI when the record has no persistent identifier', dc({ identifier: ['https://repo.example.org/items/7', 'ISBN 978-3-16-148410-0'] }), POI],
      ['the POI for a record without identifiers', dc({}), POI],
    ] as const,
    ([what]) => `cites ${what}`,
    ([, record, uri]) => {
      expect(citationIdentifier(record, POI)?.uri).to.equal(uri);
    },
  );

  it('names the scheme and the normalized identifier beside the URI', () => {
    expect(citationIdentifier(dc({ identifier: ['http://hdl.handle.net/1765/315'] }))).to.deep.equal({
      scheme: 'Handle',
      value: '1765/315',
      uri: 'https://hdl.handle.net/1765/315',
    });
  });

  it('has none without a persistent identifier or a POI', () => {
    expect(citationIdentifier(dc({ identifier: ['https://repo.example.org/items/7'] }))).to.equal(undefined);
  });

  it('percent-encodes what a URI path cannot hold in a Handle', () => {
    expect(citationIdentifier(dc({ identifier: ['hdl:1765/a#b?c%d'] }))?.uri).to.equal('https://hdl.handle.net/1765/a%23b%3Fc%25d');
  });
});

describe('identifiers in every scheme', () => {
  it('lists the typed identifiers, then the dc:identifier values a scheme recognizes, each once', () => {
    const r = dc(
      { identifier: ['https://doi.org/10.5555/abc', 'http://hdl.handle.net/1765/315', 'local-7', 'ISSN 0317-8471'] },
      { identifiers: [{ type: 'DOI', value: '10.5555/ABC' }] },
    );
    expect(recordIdentifiers(r)).to.deep.equal([
      { type: 'DOI', value: '10.5555/ABC' },
      { type: 'Handle', value: '1765/315' },
      { type: 'ISSN', value: '0317-8471' },
    ]);
  });

  eachRow(
    [
      [{ type: 'DOI', value: '10.5555/a#b' }, 'https://doi.org/10.5555/a%23b'],
      [{ type: 'URN', value: 'urn:nbn:de:101-1234' }, 'urn:nbn:de:101-1234'],
      [{ type: 'URL', value: 'https://r.org/x' }, 'https://r.org/x'],
      [{ type: 'ISBN', value: '9783161484100' }, 'urn:isbn:9783161484100'],
    ] as const,
    ([id, uri]) => `gives a ${id.type} the URI ${String(uri)}`,
    ([id, uri]) => {
      expect(identifierUri(id)).to.equal(uri);
    },
  );

  eachRow(
    [
      [dc({ identifier: ['https://repo.example.org/items/7'] }), true],
      [dc({ identifier: ['urn:nbn:de:101-1234'] }), true],
      [dc({ identifier: ['ISBN 978-3-16-148410-0', 'local-7'] }), false],
    ] as const,
    ([r, has]) => `${has ? 'finds' : 'finds no'} identifier of the resource in ${JSON.stringify(r.dc.identifier)}`,
    ([r, has]) => {
      expect(hasResourceIdentifier(r)).to.equal(has);
    },
  );
});

describe('licences, files and kinds of work', () => {
  it('takes dc:rights URLs, then the typed licence, each once, leaving out access rights and text', () => {
    const r = dc(
      { rights: ['http://purl.org/coar/access_right/c_abf2', 'All rights reserved', 'https://creativecommons.org/licenses/by/4.0/', 'javascript:alert(1)'] },
      { license: 'https://creativecommons.org/licenses/by-sa/4.0/' },
    );
    expect(licences(r)).to.deep.equal(['https://creativecommons.org/licenses/by/4.0/', 'https://creativecommons.org/licenses/by-sa/4.0/']);
    expect(
      licences(dc({ rights: ['https://creativecommons.org/licenses/by/4.0/'] }, { license: 'https://creativecommons.org/licenses/by/4.0/' })),
    ).to.deep.equal(['https://creativecommons.org/licenses/by/4.0/']);
  });

  it('links the files with an http(s) location, with their media types', () => {
    const r = dc(
      {},
      {
        files: [
          { url: 'https://r.org/a.pdf', mediaType: 'application/pdf' },
          { url: 'ftp://r.org/b' },
          { url: 'https://r.org/c.csv' },
          { url: 'https://r.org/a.pdf' },
        ],
      },
    );
    expect(fileLinks(r)).to.deep.equal([{ href: 'https://r.org/a.pdf', type: 'application/pdf' }, { href: 'https://r.org/c.csv' }]);
  });

  eachRow(
    [
      [
        'a COAR doctoral thesis',
        dc({}, { resourceType: { coar: 'http://purl.org/coar/resource_type/c_db06', general: 'Dissertation', label: 'doctoral thesis' } }),
        ['https://schema.org/Thesis'],
      ],
      [
        'a COAR map (narrower than its DataCite Image)',
        dc({}, { resourceType: { coar: 'http://purl.org/coar/resource_type/c_12cd', general: 'Image', label: 'map' } }),
        ['https://schema.org/Map'],
      ],
      ['a DataCite Software', dc({}, { resourceType: { general: 'Software', label: 'Software' } }), ['https://schema.org/SoftwareSourceCode']],
      ['a DataCite Text (nothing narrower than CreativeWork)', dc({}, { resourceType: { general: 'Text', label: 'Text' } }), []],
      [
        'dc:type words',
        dc({ type: ['info:eu-repo/semantics/article', 'StillImage', 'Text'] }),
        ['https://schema.org/ScholarlyArticle', 'https://schema.org/ImageObject'],
      ],
      ['a COAR URI in dc:type', dc({ type: ['http://purl.org/coar/resource_type/c_ddb1'] }), ['https://schema.org/Dataset']],
    ] as const,
    ([what]) => `types ${what}`,
    ([, r, types]) => {
      expect(schemaOrgTypes(r)).to.deep.equal(types);
    },
  );

  eachRow(
    [
      [
        'the first open PDF by its media type',
        dc(
          {},
          {
            files: [
              { url: 'https://r.org/data.csv', mediaType: 'text/csv' },
              { url: 'https://r.org/full', mediaType: 'application/pdf' },
            ],
          },
        ),
        'https://r.org/full',
      ],
      ['a file without a media type by its .pdf path', dc({}, { files: [{ url: 'https://r.org/a.PDF?download=1' }] }), 'https://r.org/a.PDF?download=1'],
      ['no PDF whose media type says otherwise', dc({}, { files: [{ url: 'https://r.org/a.pdf', mediaType: 'text/plain' }] }), undefined],
      [
        'no file a reader cannot open (restricted file)',
        dc({}, { files: [{ url: 'https://r.org/a.pdf', mediaType: 'application/pdf', access: 'restricted' }] }),
        undefined,
      ],
      [
        'no file of an embargoed record',
        dc({}, { accessRights: 'embargoed', files: [{ url: 'https://r.org/a.pdf', mediaType: 'application/pdf' }] }),
        undefined,
      ],
      [
        'an open file of an embargoed record',
        dc({}, { accessRights: 'embargoed', files: [{ url: 'https://r.org/a.pdf', mediaType: 'application/pdf', access: 'open' }] }),
        'https://r.org/a.pdf',
      ],
      ['no file outside http(s)', dc({}, { files: [{ url: 'ftp://r.org/a.pdf', mediaType: 'application/pdf' }] }), undefined],
    ] as const,
    ([what]) => `finds the PDF: ${what}`,
    ([, r, url]) => {
      expect(openPdf(r)).to.equal(url);
    },
  );

  it('keeps the subjects as keywords, trimmed and each once', () => {
    expect(keywords(dc({ subject: ['Logic ', 'Logic', ' ', 'Set theory'] }))).to.deep.equal(['Logic', 'Set theory']);
  });

  it("finds the serial's ISSN among the record's identifiers and what it is published in, not what it cites", () => {
    const r = dc(
      { identifier: ['ISSN 0317-8471'] },
      {
        relatedIdentifiers: [
          { identifier: '1050-124X', type: 'EISSN', relation: 'IsPublishedIn' },
          { identifier: '2049-3630', type: 'ISSN', relation: 'Cites' },
          { identifier: '0317-8471', type: 'ISSN', relation: 'IsPartOf' },
        ],
      },
    );
    expect(serialIssns(r)).to.deep.equal(['0317-8471', '1050-124X']);
  });

  it('reads a COAR type from dc:type when the record has no typed one', () => {
    expect(coarResourceType(dc({ type: ['Article', 'http://purl.org/coar/resource_type/c_6501'] }))).to.equal('http://purl.org/coar/resource_type/c_6501');
  });
});

describe('where a work was published', () => {
  const ISSN = { identifier: '0947-6539', type: 'ISSN', relation: 'IsPartOf' } as const;
  const ISBN = { identifier: '9783161484100', type: 'ISBN', relation: 'IsPublishedIn' } as const;
  eachRow(
    [
      [
        'a journal article with its journal, ISSN and place',
        dc({}, { host: { title: 'Chemistry', volume: '23', issue: '31', startPage: '7444', endPage: '7447' }, relatedIdentifiers: [ISSN] }),
        { kind: 'journal', title: 'Chemistry', volume: '23', issue: '31', startPage: '7444', endPage: '7447', issns: ['0947-6539'], isbns: [] },
      ],
      ['a record whose ISSN alone names its serial', dc({ identifier: ['ISSN 0317-8471'] }), { kind: 'journal', issns: ['0317-8471'], isbns: [] }],
      [
        'a book chapter, in a book with its ISBN',
        dc({}, { resourceType: { general: 'BookChapter', label: 'chapter' }, host: { title: 'A Book' }, relatedIdentifiers: [ISBN] }),
        { kind: 'book', title: 'A Book', issns: [], isbns: ['9783161484100'] },
      ],
      [
        'a conference paper of the COAR list, in proceedings',
        dc(
          {},
          {
            resourceType: { coar: 'http://purl.org/coar/resource_type/c_5794', general: 'ConferencePaper', label: 'conference paper' },
            host: { title: ' Proc. X ', volume: ' ' },
          },
        ),
        { kind: 'proceedings', title: 'Proc. X', issns: [], isbns: [] },
      ],
      [
        'a record citing a serial, not published in one, as nowhere',
        dc(
          {},
          {
            relatedIdentifiers: [
              { ...ISSN, relation: 'Cites' },
              { ...ISBN, relation: 'References' },
            ],
          },
        ),
        undefined,
      ],
      ['a record saying nothing of it, as nowhere', dc({ source: ['Ecology Letters vol.4 (2001)'] }), undefined],
    ] as const,
    ([what]) => `reads the host of ${what}`,
    ([, r, want]) => {
      expect(hostOf(r)).to.deep.equal(want);
    },
  );
});

describe('dates as W3CDTF', () => {
  eachRow(
    [
      ["DSpace's date and time", dc({ date: ['2003-04-15T10:18:51Z'] }), { date: '2003-04-15' }],
      ['the first W3CDTF dc:date, after one that is not', dc({ date: ['spring 2001', '2001-03'] }), { date: '2001-03' }],
      ['the typed issued date before dc:date', dc({ date: ['1999'] }, { dates: { issued: '2001-02-03' } }), { date: '2001-02-03' }],
      ['the publication year', dc({}, { publicationYear: '2001' }), { date: '2001' }],
      ['a day that does not exist, as malformed', dc({ date: ['2003-02-30'] }), { malformed: '2003-02-30' }],
      ['a European date, as malformed', dc({ date: ['15.04.2003'] }), { malformed: '15.04.2003' }],
      ['an embargo term alone, as missing', dc({ date: ['info:eu-repo/date/embargoEnd/2030-01-01'] }), { missing: true }],
      ['no date, as missing', dc({}), { missing: true }],
    ] as const,
    ([what]) => `reads the publication date of ${what}`,
    ([, r, want]) => {
      const got = publicationDate(r);
      if ('date' in want) expect('date' in got && got.date.date).to.equal(want.date);
      else expect(got).to.deep.equal(want);
    },
  );

  eachRow(
    [
      ['a typed embargo end', dc({}, { dates: { embargoEnd: '2030-01-31' } }), { date: '2030-01-31' }],
      ['an info:eu-repo term', dc({ date: ['2001', 'info:eu-repo/date/embargoEnd/2030-01-31'] }), { date: '2030-01-31' }],
      [
        'an info:eu-repo term with a day that does not exist',
        dc({ date: ['info:eu-repo/date/embargoEnd/2030-02-30'] }),
        { malformed: 'info:eu-repo/date/embargoEnd/2030-02-30' },
      ],
      ['an info:eu-repo term with a year only', dc({ date: ['info:eu-repo/date/embargoEnd/2030'] }), { malformed: 'info:eu-repo/date/embargoEnd/2030' }],
      ['no embargo', dc({ date: ['2001'] }), { missing: true }],
    ] as const,
    ([what]) => `reads the embargo end of ${what}`,
    ([, r, want]) => {
      const got = embargoEnd(r);
      if ('date' in want) expect('date' in got && got.date.date).to.equal(want.date);
      else expect(got).to.deep.equal(want);
    },
  );
});
