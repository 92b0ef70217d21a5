/**
 * The fast path of the outgoing guard (lib/xml/plain-fragment.ts): a shape
 * learnt from fragments the full check passed settles only fragments
 * libxml2 finds well-formed.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { checkFragment } from '../../lib/xml/fragment';
import { isKnownPlainFragment, knownShapeCount } from '../../lib/xml/plain-fragment';
import { XSI_NS } from '../../lib/xml/namespaces';
import { CORRUPT_METADATA, OAI_DC_OPEN, settledOnlyIfWellFormed, wellFormed } from '../helpers/corrupt-xml';

describe("checkFragment's fast path", function () {
  this.timeout(120_000);

  describe('the fast path of checkFragment, shapes learnt from sound fragments', () => {
    const INHERITED = ['xsi'];
    const body =
      '<dc:title xml:lang="en">Caf\u00e9 &amp; \u65e5\u672c &lt;b&gt;</dc:title><dc:creator>O\'Brien, \u0395\u03bb\u03ad\u03bd\u03b7</dc:creator><dc:subject/>\n';
    const sound = `${OAI_DC_OPEN}${body}</oai_dc:dc>`;
    before(() => {
      // The full check accepts it twice, which teaches the fast path its root start tag.
      expect(checkFragment(sound, INHERITED)).to.equal(null);
      expect(checkFragment(sound, INHERITED)).to.equal(null);
    });

    it('learns a root start tag only on its second sound fragment, and only once', () => {
      const once = '<r-once xmlns:p="urn:p"><p:a>1</p:a></r-once>';
      expect(checkFragment(once, INHERITED)).to.equal(null);
      expect(isKnownPlainFragment(once, INHERITED)).to.equal(false);
      expect(checkFragment(once, INHERITED)).to.equal(null);
      expect(isKnownPlainFragment(once, INHERITED)).to.equal(true);
      const count = knownShapeCount();
      // A sound fragment beyond the fast path (a comment) with the same root goes through the full check and learnShape again.
      const beyond = '<r-once xmlns:p="urn:p"><!-- c --><p:a>1</p:a></r-once>';
      expect(checkFragment(beyond, INHERITED)).to.equal(null);
      expect(checkFragment(beyond, INHERITED)).to.equal(null);
      expect(knownShapeCount()).to.equal(count);
    });

    it('settles a fragment of a learnt shape without the full check', () => {
      expect(isKnownPlainFragment(`${OAI_DC_OPEN}<dc:title>Other text, same shape</dc:title><dc:date>2024</dc:date></oai_dc:dc>`, INHERITED)).to.equal(true);
    });

    it('does not apply a shape learnt under other inherited prefixes', () => {
      expect(isKnownPlainFragment(sound, ['xsi', 'other'])).to.equal(false);
    });

    const unsettled: { name: string; xml: string; sound: boolean }[] = [
      ...CORRUPT_METADATA.filter((c) => c.xml.startsWith(OAI_DC_OPEN)).map((c) => ({ ...c, sound: false })),
      { name: 'a child with an undeclared prefix', xml: `${OAI_DC_OPEN}<foo:title>x</foo:title></oai_dc:dc>`, sound: false },
      { name: 'a child closed by another name', xml: `${OAI_DC_OPEN}<dc:title>x</dc:titl></oai_dc:dc>`, sound: false },
      { name: 'a child with a repeated attribute', xml: `${OAI_DC_OPEN}<dc:title xml:lang="en" xml:lang="de">x</dc:title></oai_dc:dc>`, sound: false },
      { name: 'a child declaring an empty prefix', xml: `${OAI_DC_OPEN}<dc:title xmlns:p="">x</dc:title></oai_dc:dc>`, sound: false },
      { name: 'an attribute with an undeclared prefix', xml: `${OAI_DC_OPEN}<dc:title q:x="1">x</dc:title></oai_dc:dc>`, sound: false },
      { name: 'a "<" in an attribute value', xml: `${OAI_DC_OPEN}<dc:title xml:lang="<">x</dc:title></oai_dc:dc>`, sound: false },
      { name: 'text after the root', xml: `${OAI_DC_OPEN}<dc:title>x</dc:title></oai_dc:dc>tail`, sound: false },
      { name: 'a sound character reference', xml: `${OAI_DC_OPEN}<dc:title>&#65;</dc:title></oai_dc:dc>`, sound: true },
      { name: 'a sound astral character', xml: `${OAI_DC_OPEN}<dc:title>\u{1F600}</dc:title></oai_dc:dc>`, sound: true },
      { name: 'a sound comment', xml: `${OAI_DC_OPEN}<!-- c --><dc:title>x</dc:title></oai_dc:dc>`, sound: true },
    ];
    for (const c of unsettled) {
      it(`leaves ${c.name} to the full check`, () => {
        expect(isKnownPlainFragment(c.xml, INHERITED)).to.equal(false);
        expect(checkFragment(c.xml, INHERITED) === null).to.equal(c.sound);
      });
    }

    it('accepts only what libxml2 finds well-formed (random edits of a sound record)', () => {
      const token = fc.constantFrom(
        'text',
        ' ',
        '&amp;',
        '&quot;',
        '&',
        '&#0;',
        '&nbsp;',
        '<dc:x/>',
        '<dc:y>z</dc:y>',
        '<dc:t xml:lang="en">',
        '</dc:t>',
        '<dc:title>',
        '</dc:title>',
        '<q:d/>',
        '<dc:a b="1" b="2"/>',
        '<dc:a xmlns:p="">',
        "<dc:a xsi:type='x'/>",
        '</oai_dc:dc>',
        '<oai_dc:dc>',
        ']]>',
        '>',
        '<',
        '"',
        "'",
        '<!--',
        '-->',
        '<![CDATA[',
        '\u0001',
        '\uFFFE',
        '\uD800',
        '\u{1F600}',
        '\u00e9',
      );
      // The property is only worth something if edits often keep the shape.
      expect(settledOnlyIfWellFormed(sound, token, INHERITED)).to.be.greaterThan(300);
    });
  });

  describe('the fast path for nested metadata (MARCXML, MODS, DataCite)', () => {
    const INHERITED = ['xsi'];
    const MARC_OPEN = `<record xmlns="http://www.loc.gov/MARC21/slim" xmlns:xsi="${XSI_NS}" xsi:schemaLocation="http://www.loc.gov/MARC21/slim x.xsd" type="Bibliographic">`;
    const marc =
      `${MARC_OPEN}<leader>     nam a22     3u 4500</leader><controlfield tag="008">200101s2020</controlfield>` +
      '<datafield tag="245" ind1="0" ind2="0"><subfield code="a">Caf\u00e9 &amp; \u65e5\u672c</subfield><subfield code="c">O\'Brien</subfield></datafield>\n' +
      '<datafield tag="856" ind1="4" ind2=" "><subfield code="u">http://x.org/?a=1&amp;b=2</subfield><subfield code="y"/></datafield></record>';
    const deep = (levels: number): string => `${'<d>'.repeat(levels)}x${'</d>'.repeat(levels)}`;
    const PAIR_OPEN = '<oai_datacite xmlns="urn:oai-datacite" xmlns:xsi="' + XSI_NS + '" xsi:schemaLocation="urn:oai-datacite x.xsd">';
    const pair = `${PAIR_OPEN}<payload><resource xmlns="urn:kernel-4" xmlns:xsi="${XSI_NS}" xsi:schemaLocation="urn:kernel-4 y.xsd">${deep(5)}</resource></payload></oai_datacite>`;
    const SAME_OPEN = '<s xmlns:a="urn:same" xmlns:b="urn:same" xmlns:f="' + XSI_NS + '">';
    const same = `${SAME_OPEN}<x a:t="1"/><x b:t="1"/></s>`;
    before(() => {
      for (const sound of [marc, pair, same]) {
        expect(checkFragment(sound, INHERITED)).to.equal(null);
        expect(checkFragment(sound, INHERITED)).to.equal(null);
      }
    });

    const settled: { name: string; xml: string }[] = [
      { name: 'a MARCXML record of datafields and subfields', xml: marc },
      { name: 'four attributes on one element', xml: `${MARC_OPEN}<datafield tag="1" ind1="2" ind2="3" xml:lang="en"/></record>` },
      { name: 'elements seven levels below the root', xml: `${MARC_OPEN}${deep(7)}</record>` },
      { name: "DataCite in oai_datacite's payload, declaring its namespace and the root's xsi again", xml: pair },
      { name: 'one attribute of each of two prefixes bound to one namespace', xml: same },
    ];
    for (const c of settled) {
      it(`settles ${c.name}`, () => {
        expect(isKnownPlainFragment(c.xml, INHERITED)).to.equal(true);
        expect(wellFormed(`<r xmlns:xsi="${XSI_NS}">${c.xml}</r>`)).to.equal(null);
      });
    }

    const unsettled: { name: string; xml: string; sound: boolean }[] = [
      { name: 'an attribute given twice', xml: `${MARC_OPEN}<datafield tag="1" tag="2"/></record>`, sound: false },
      { name: 'an attribute given again after another', xml: `${MARC_OPEN}<datafield tag="1" ind1="2" tag="3"/></record>`, sound: false },
      { name: 'two attributes of one expanded name (two prefixes, one namespace)', xml: `${SAME_OPEN}<x a:t="1" b:t="2"/></s>`, sound: false },
      {
        name: "an attribute of the envelope's xsi beside one of a prefix the root binds to its namespace",
        xml: `${SAME_OPEN}<x xsi:t="1" f:t="2"/></s>`,
        sound: false,
      },
      { name: 'a prefix declared again below the root for another namespace', xml: `${MARC_OPEN}<x xmlns:xsi="urn:other" xsi:y="1"/></record>`, sound: true },
      { name: 'a prefix declared below the root', xml: `${MARC_OPEN}<x xmlns:p="urn:p"><p:y/></x></record>`, sound: true },
      { name: 'elements eight levels below the root', xml: `${MARC_OPEN}${deep(8)}</record>`, sound: true },
      { name: 'five attributes on one element', xml: `${MARC_OPEN}<x a="1" b="2" c="3" d="4" e="5"/></record>`, sound: true },
      {
        name: 'an attribute value in single quotes below the root',
        xml: `${MARC_OPEN}<datafield tag='1'><subfield code="a">x</subfield></datafield></record>`,
        sound: true,
      },
      { name: 'an end tag of another name three levels down', xml: `${MARC_OPEN}<a><b><c>x</b></c></a></record>`, sound: false },
      { name: 'an undeclared prefix on a nested element', xml: `${MARC_OPEN}<a><q:b/></a></record>`, sound: false },
    ];
    for (const c of unsettled) {
      it(`leaves ${c.name} to the full check`, () => {
        expect(isKnownPlainFragment(c.xml, INHERITED)).to.equal(false);
        expect(checkFragment(c.xml, INHERITED) === null).to.equal(c.sound);
        expect(wellFormed(`<r xmlns:xsi="${XSI_NS}">${c.xml}</r>`) === null).to.equal(c.sound);
      });
    }

    it('refuses a long fragment that fails only at its end in one pass (the two forms of attributes never match the same text)', () => {
      // Were both forms to match an element's one attribute, a failure would try 2^5000 ways; the suite's timeout would end it.
      const many = '<datafield tag="1"><subfield code="a">x</subfield></datafield>'.repeat(5000);
      expect(isKnownPlainFragment(`${MARC_OPEN}${many}</recorx>`, INHERITED)).to.equal(false);
      expect(isKnownPlainFragment(`${MARC_OPEN}${many}</record>`, INHERITED)).to.equal(true);
    });

    it('accepts only what libxml2 finds well-formed (random edits of a sound MARCXML record)', () => {
      const token = fc.constantFrom(
        'text',
        ' ',
        '&amp;',
        '&',
        '&#0;',
        '<subfield code="b">y</subfield>',
        '<datafield tag="1" ind1="2">',
        '</datafield>',
        '</subfield>',
        '<subfield>',
        '<a b="1" b="2"/>',
        '<a b="1" c="2" b="3"/>',
        '<a xml:lang="en" lang="en"/>',
        '<a xmlns:p="urn:p"/>',
        '<a xmlns:xsi="urn:other"/>',
        `<a xmlns:xsi="${XSI_NS}"/>`,
        '<a xsi:type="t" type="t"/>',
        '<q:d/>',
        ' tag="9"',
        ' code="z"',
        ' xmlns=""',
        '</record>',
        '<record>',
        ']]>',
        '>',
        '<',
        '"',
        "'",
        '<!--',
        '\u0001',
        '\uFFFE',
        '\uD800',
        '\u00e9',
      );
      expect(settledOnlyIfWellFormed(marc, token, INHERITED)).to.be.greaterThan(300);
    });
  });
});
