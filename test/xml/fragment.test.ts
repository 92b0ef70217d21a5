/**
 * The outgoing guard on spliced XML (lib/xml/fragment.ts checkFragment): it
 * refuses every kind of corrupt fragment and agrees with libxml2 on fragments
 * made at random.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { checkFragment } from '../../lib/xml/fragment';
import { MAX_XML_ATTRIBUTES, MAX_XML_NAMESPACES } from '../../lib/xml/bounds';
import { XSI_NS } from '../../lib/xml/namespaces';
import { renderResponse } from '../../lib/oai/render';
import type { ItemRecord } from '../../lib/store';
import { dc } from '../helpers/store-fixtures';
import { CORRUPT_METADATA, NASTY_TEXT, wellFormed } from '../helpers/corrupt-xml';

describe('checkFragment', function () {
  this.timeout(120_000);

  describe('checkFragment, the guard on spliced XML', () => {
    for (const c of CORRUPT_METADATA) {
      it(`refuses ${c.name}`, () => {
        expect(checkFragment(c.xml, ['xsi'])).to.be.a('string');
      });
    }

    it('refuses, in linear time, an element with more attributes or namespace declarations than the bounds, and takes one at the bounds', () => {
      const attrs = (n: number): string => Array.from({ length: n }, (_, i) => `a${i}="v"`).join(' ');
      const decls = (n: number): string => Array.from({ length: n }, (_, i) => `xmlns:p${i}="urn:p:${i}"`).join(' ');
      expect(checkFragment(`<a ${attrs(MAX_XML_ATTRIBUTES)} ${decls(MAX_XML_NAMESPACES)}/>`)).to.equal(null);
      const began = Date.now();
      expect(checkFragment(`<a ${attrs(100_000)}/>`)).to.equal(`an element with more than ${MAX_XML_ATTRIBUTES} attributes at offset 0`);
      expect(checkFragment(`<a ${decls(50_000)}/>`)).to.equal(`an element declaring more than ${MAX_XML_NAMESPACES} namespaces at offset 0`);
      // Some 50 ms together; pairwise checks of every attribute took minutes.
      expect(Date.now() - began).to.be.below(5_000);
    });

    it('accepts the metadata the write path produces', () => {
      expect(checkFragment(dc('Étalonnage & <b>not markup</b> ]]> 日本語 😀'))).to.equal(null);
    });

    it('never accepts a fragment libxml2 finds malformed (random fragments)', () => {
      const token = fc.constantFrom(
        '<a>',
        '</a>',
        '<b x="1">',
        '</b>',
        '<p:c xmlns:p="u">',
        '</p:c>',
        '<q:d/>',
        '<e/>',
        'text',
        '&amp;',
        '&lt;',
        '&#65;',
        '&#0;',
        '&bad;',
        '&',
        ']]>',
        ']]',
        '<![CDATA[',
        ']]>',
        '<!--',
        '-->',
        '--',
        '<?pi x?>',
        '<?xml v?>',
        '"',
        "'",
        '<',
        '>',
        ' ',
        '\u0001',
        '\uFFFE',
        '\uD800',
        '😀',
        '<a x="1" x="2">',
        "<a y='<'>",
        '</metadata>',
      );
      fc.assert(
        fc.property(fc.array(token, { maxLength: 12 }), (parts) => {
          const s = parts.join('');
          if (checkFragment(s, ['xsi']) !== null) return;
          const problem = wellFormed(`<r xmlns:xsi="${XSI_NS}">${s}</r>`);
          if (problem !== null) throw new Error(`accepted ${JSON.stringify(s)}, which libxml2 refuses: ${problem}`);
        }),
        { numRuns: 3000 },
      );
    });

    it('accepts every well-formed element built from a random tree', () => {
      const name = fc.constantFrom('a', 'b', 'dc:title', 'x-y.z', 'Ünï', '日本');
      const text = fc.string({ maxLength: 8 }).map((t) =>
        t
          .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD]/gu, '')
          .replace(/&/g, '&amp;')
          .replace(/</g, '&lt;')
          .replace(/>/g, '&gt;'),
      );
      const tree: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
        node: fc
          .tuple(name, fc.array(fc.oneof(text, tie('node')), { maxLength: 3 }))
          .map(([n, kids]) => (kids.length ? `<${n}>${kids.join('')}</${n}>` : `<${n}/>`)),
      })).node;
      fc.assert(
        fc.property(tree, (t) => {
          const s = `<root xmlns:dc="urn:dc">${t}</root>`;
          expect(wellFormed(s)).to.equal(null);
          expect(checkFragment(s)).to.equal(null);
        }),
        { numRuns: 500 },
      );
    });

    it('renders any stored strings as well-formed XML (random records)', () => {
      const nasty = fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom(...CORRUPT_METADATA.map((c) => c.xml), NASTY_TEXT));
      const record = fc.record({ identifier: nasty, sets: fc.array(nasty, { maxLength: 2 }), metadata: nasty, deleted: fc.boolean() });
      fc.assert(
        fc.property(fc.array(record, { maxLength: 4 }), nasty, (rs, token) => {
          const records: ItemRecord[] = rs.map((r, i) => ({
            pk: i,
            internalId: String(i),
            identifier: r.identifier,
            datestamp: 1_700_000_000,
            deleted: r.deleted,
            sets: r.sets,
            metadata: r.metadata,
          }));
          const xml = renderResponse({
            responseDate: 1_700_000_000,
            baseURL: 'http://localhost/oai',
            requestArgs: { verb: 'ListRecords', resumptionToken: token },
            body: { kind: 'ListRecords', records, resumption: { token, cursor: 0, completeListSize: 10 } },
          });
          const problem = wellFormed(xml);
          if (problem !== null) throw new Error(`${problem}\n${xml}`);
        }),
        { numRuns: 1000 },
      );
    });

    it('tells onCorrupt which record it left the metadata out of', () => {
      const told: string[] = [];
      const xml = renderResponse(
        {
          responseDate: 0,
          baseURL: 'http://localhost/oai',
          requestArgs: { verb: 'GetRecord' },
          body: {
            kind: 'GetRecord',
            record: { pk: 1, internalId: 'x', identifier: 'oai:a.b:x', datestamp: 0, deleted: false, sets: [], metadata: '<a/></metadata>' },
          },
        },
        { onCorrupt: (where) => told.push(where) },
      );
      expect(told).to.deep.equal(['oai:a.b:x metadata']);
      expect(xml).to.contain('<record><header><identifier>oai:a.b:x</identifier>').and.not.to.contain('<metadata>');
    });
  });
});
