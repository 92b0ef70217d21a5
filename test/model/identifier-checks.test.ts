import { expect } from 'chai';
import {
  checkArk,
  checkDoi,
  checkFunderIdentifier,
  checkHandle,
  checkIsbn,
  checkIsni,
  checkIssn,
  checkOrcid,
  checkRor,
  checkUrl,
  checkUrn,
  type Checked,
} from '../../lib/model/identifiers';

type Case = readonly [input: string, expected: string | RegExp];

const schemes: Array<{ name: string; check: (s: string) => Checked; cases: readonly Case[] }> = [
  {
    name: 'DOI',
    check: checkDoi,
    cases: [
      ['10.1000/182', '10.1000/182'],
      ['doi:10.1002/chem.201701589', '10.1002/chem.201701589'],
      ['https://doi.org/10.82433/B09Z-4K37', '10.82433/B09Z-4K37'],
      ['http://dx.doi.org/10.1000/182', '10.1000/182'],
      ['10.1/x', /not a DOI/],
      ['11.1000/182', /not a DOI/],
      ['10.1000/a b', /not a DOI/],
      ['10.1000/', /not a DOI/],
    ],
  },
  {
    name: 'Handle',
    check: checkHandle,
    cases: [
      ['20.500.12345/678', '20.500.12345/678'],
      ['hdl:1721.1/12345', '1721.1/12345'],
      ['https://hdl.handle.net/2027/mdp.39015', '2027/mdp.39015'],
      ['abc/123', /not a Handle/],
      ['12345', /not a Handle/],
    ],
  },
  {
    name: 'URN',
    check: checkUrn,
    cases: [
      ['urn:nbn:de:101-1234', 'urn:nbn:de:101-1234'],
      ['URN:NBN:se:uu:diva-160648', 'urn:nbn:se:uu:diva-160648'],
      ['urn:isbn:0451450523', 'urn:isbn:0451450523'],
      ['urn:urn:x', /not a URN/],
      ['urn:-bad:x', /not a URN/],
      ['nbn:de:1', /not a URN/],
    ],
  },
  {
    name: 'ARK',
    check: checkArk,
    cases: [
      ['ark:/13030/tf5p30086k', 'ark:/13030/tf5p30086k'],
      ['ark:13030/tf5p30086k', 'ark:/13030/tf5p30086k'],
      ['https://n2t.net/ark:/13030/tf5p30086k', 'ark:/13030/tf5p30086k'],
      ['ark:/12/x', /not an ARK/],
      ['ark:/13030', /not an ARK/],
    ],
  },
  {
    name: 'URL',
    check: checkUrl,
    cases: [
      ['https://example.org/a?b=c#d', 'https://example.org/a?b=c#d'],
      ['HTTP://Example.ORG', 'http://example.org/'],
      ['ftp://example.org/x', /not an http or https URL/],
      ['/relative/path', /not an absolute URL/],
      ['https://example.org/a b', /whitespace/],
    ],
  },
  {
    name: 'ISBN',
    check: checkIsbn,
    cases: [
      ['978-3-16-148410-0', '9783161484100'],
      ['0-306-40615-2', '0306406152'],
      ['ISBN 0-8044-2957-X', '080442957X'],
      ['978-3-16-148410-1', /ISBN-13 check digit/],
      ['0-306-40615-3', /ISBN-10 check digit/],
      ['12345', /not an ISBN/],
    ],
  },
  {
    name: 'ISSN',
    check: checkIssn,
    cases: [
      ['0317-8471', '0317-8471'],
      ['03178471', '0317-8471'],
      ['2434-561x', '2434-561X'],
      ['0317-8472', /check character/],
      ['0317-847', /not an ISSN/],
    ],
  },
  {
    name: 'ORCID iD',
    check: checkOrcid,
    cases: [
      ['0000-0002-1825-0097', '0000-0002-1825-0097'],
      ['https://orcid.org/0000-0001-5727-2427', '0000-0001-5727-2427'],
      ['0000-0002-1694-233X', '0000-0002-1694-233X'],
      ['0000000218250097', '0000-0002-1825-0097'],
      ['0000-0002-1825-0098', /check character/],
      ['0000-0002-1825', /not an ORCID iD/],
      ['https://example.org/0000-0002-1825-0097', /not an ORCID iD/],
    ],
  },
  {
    name: 'ROR id',
    check: checkRor,
    cases: [
      ['04wxnsj81', 'https://ror.org/04wxnsj81'],
      ['https://ror.org/04z8jg394', 'https://ror.org/04z8jg394'],
      ['03YRM5C26', 'https://ror.org/03yrm5c26'],
      ['04wxnsj82', /check digits/],
      ['14wxnsj81', /not a ROR id/],
      ['04wxnsu81', /not a ROR id/],
    ],
  },
  {
    name: 'ISNI',
    check: checkIsni,
    cases: [
      ['0000 0001 2281 955X', '000000012281955X'],
      ['0000000121032683', '0000000121032683'],
      ['0000 0001 2281 9550', /not an ISNI/],
    ],
  },
];

describe('typed identifier schemes', () => {
  for (const s of schemes) {
    describe(s.name, () => {
      for (const [input, expected] of s.cases) {
        if (typeof expected === 'string') {
          it(`accepts ${JSON.stringify(input)} as ${expected}`, () => {
            expect(s.check(input)).to.deep.equal({ value: expected });
          });
        } else {
          it(`refuses ${JSON.stringify(input)}, saying why`, () => {
            const r = s.check(input);
            expect(r).to.have.property('error').that.matches(expected);
          });
        }
      }
    });
  }

  describe('funder identifiers', () => {
    const cases: Array<[type: string, input: string, expected: string | RegExp]> = [
      ['Crossref Funder ID', '10.13039/501100000780', 'https://doi.org/10.13039/501100000780'],
      ['Crossref Funder ID', 'https://doi.org/10.13039/100000001', 'https://doi.org/10.13039/100000001'],
      ['Crossref Funder ID', '501100000780', 'https://doi.org/10.13039/501100000780'],
      ['Crossref Funder ID', '10.1000/182', /not a Crossref Funder ID/],
      ['ROR', '04wxnsj81', 'https://ror.org/04wxnsj81'],
      ['ROR', '04wxnsj80', /check digits/],
      ['ISNI', '0000 0001 2281 955X', '000000012281955X'],
      ['GRID', 'grid.5335.0', 'grid.5335.0'],
      ['GRID', 'grid-5335', /not a GRID id/],
      ['Other', 'anything', 'anything'],
      ['Other', '  ', /must not be empty/],
    ];
    for (const [type, input, expected] of cases) {
      it(`${typeof expected === 'string' ? 'accepts' : 'refuses'} the ${type} ${JSON.stringify(input)}`, () => {
        const r = checkFunderIdentifier(type, input);
        if (typeof expected === 'string') expect(r).to.deep.equal({ value: expected });
        else expect(r).to.have.property('error').that.matches(expected);
      });
    }
  });
});
