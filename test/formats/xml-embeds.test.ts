import { expect } from 'chai';
import { parseFragment } from '../../lib/xml/tree';
import { missingFrom } from '../helpers/xml-embeds';
import { eachRow } from '../helpers/table';

const R = (body: string, prefix = ''): string =>
  prefix === ''
    ? `<resource xmlns="http://datacite.org/schema/kernel-4">${body}</resource>`
    : `<d:resource xmlns:d="http://datacite.org/schema/kernel-4">${body}</d:resource>`;
const missing = (input: string, output: string): string[] => missingFrom(parseFragment(input)!, parseFragment(output)!);

describe('the lossless comparison of two XML documents', () => {
  eachRow(
    [
      ['the same elements in another order', R('<a>1</a><b>2</b>'), R('<b>2</b><a>1</a>')],
      ['another namespace prefix', R('<title>T</title>'), R('<d:title>T</d:title>', 'd')],
      ['extra elements and attributes in the output', R('<title>T</title>'), R('<title xml:lang="en">T</title><size>1</size>')],
      ['a decimal written with a trailing zero', R('<pointLatitude>41.090</pointLatitude>'), R('<pointLatitude>41.09</pointLatitude>')],
      ['layout whitespace', R('<title>\n  A   B\n</title>'), R('<title>A B</title>')],
      ['an element that says nothing', R('<sizes/><nameIdentifier nameIdentifierScheme=""/>'), R('')],
    ] as const,
    ([what]) => `finds nothing missing with ${what}`,
    ([, input, output]) => {
      expect(missing(input, output)).to.deep.equal([]);
    },
  );

  eachRow(
    [
      [
        'a lost attribute',
        R('<rights rightsIdentifier="CC-BY-4.0">CC BY</rights>'),
        R('<rights>CC BY</rights>'),
        ['/resource/rights[rightsIdentifier="CC-BY-4.0"] "CC BY"'],
      ],
      [
        'a changed attribute',
        R('<description descriptionType="TechnicalInfo">x</description>'),
        R('<description descriptionType="Abstract">x</description>'),
        ['/resource/description[descriptionType="TechnicalInfo"] "x"'],
      ],
      ['a lost xml:lang', R('<title xml:lang="fr">T</title>'), R('<title>T</title>'), ['/resource/title[xml:lang="fr"] "T"']],
      ['changed text', R('<version>1</version>'), R('<version>2</version>'), ['/resource/version[] "1"']],
      [
        'one element split into two halves',
        R('<rightsList><rights rightsURI="https://x.org/l">L</rights></rightsList>'),
        R('<rightsList><rights rightsURI="https://x.org/l">https://x.org/l</rights><rights>L</rights></rightsList>'),
        ['/resource/rightsList/rights[rightsURI="https://x.org/l"] "L"'],
      ],
      [
        'a lost child deep down',
        R('<creators><creator><creatorName>A</creatorName><nameIdentifier nameIdentifierScheme="ROR">r</nameIdentifier></creator></creators>'),
        R('<creators><creator><creatorName>A</creatorName></creator></creators>'),
        ['/resource/creators/creator/nameIdentifier[nameIdentifierScheme="ROR"] "r"'],
      ],
    ] as const,
    ([what]) => `names ${what}`,
    ([, input, output, want]) => {
      expect(missing(input, output)).to.deep.equal(want);
    },
  );
});
