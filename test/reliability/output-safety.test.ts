/**
 * Whatever the stored data holds, nothing but
 * well-formed XML 1.0 leaves the server. Rows are written DIRECTLY into the
 * database with knex, behind the write path's back: metadata with every C0
 * control, U+FFFE, U+FFFF, lone surrogates, `]]>`, text that closes the
 * envelope, declarations, undeclared prefixes; identifiers, set names and set
 * descriptions likewise. Every answer must be XSD-valid, and a record whose
 * metadata is corrupt is answered with its header alone (lib/oai/render.ts).
 * Plus the guard itself (checkFragment) against libxml2, and the write path
 * refusing what the guard refuses.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import * as libxml from 'libxmljs2';
import { replaceNonXmlChars } from '../../lib/xml/chars';
import { checkFragment } from '../../lib/xml/fragment';
import { MAX_XML_ATTRIBUTES, MAX_XML_NAMESPACES } from '../../lib/xml/bounds';
import { isKnownPlainFragment, knownShapeCount } from '../../lib/xml/plain-fragment';
import { DC_NS, OAI_DC_NS, OAI_DC_SCHEMA, XSI_NS } from '../../lib/xml/namespaces';
import { renderResponse } from '../../lib/oai/render';
import type { ItemRecord } from '../../lib/store';
import { RefusedError } from '../../lib/store';
import { checkOai, forEachProvider, request, resumption, texts } from '../helpers/server';
import { dc, item } from '../helpers/store-fixtures';
import { forEachDatabase } from '../helpers/db';

const OAI_DC_OPEN = `<oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}" xmlns:dc="${DC_NS}" xmlns:xsi="${XSI_NS}"` + ` xsi:schemaLocation="${OAI_DC_NS} ${OAI_DC_SCHEMA}">`;

/** Characters XML 1.0 cannot carry, one string each. */
const FORBIDDEN_CHARS: string[] = [
  ...Array.from({ length: 32 }, (_, c) => c)
    .filter((c) => c !== 0x9 && c !== 0xa && c !== 0xd)
    .map((c) => String.fromCharCode(c)),
  '\uFFFE',
  '\uFFFF',
  '\uD800',
  '\uDBFF',
  '\uDC00',
  '\uDFFF',
];

/** Stored metadata that must never be spliced as it is. */
const CORRUPT_METADATA: { name: string; xml: string }[] = [
  ...FORBIDDEN_CHARS.map((ch) => ({
    name: `a title with U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
    xml: `${OAI_DC_OPEN}<dc:title>a${ch}b</dc:title></oai_dc:dc>`,
  })),
  { name: ']]> in text', xml: `${OAI_DC_OPEN}<dc:title>a ]]> b</dc:title></oai_dc:dc>` },
  {
    name: 'text that closes the envelope',
    xml: `${OAI_DC_OPEN}<dc:title>x</dc:title></oai_dc:dc></metadata></record><record><header><identifier>oai:evil:1</identifier><datestamp>2020-01-01</datestamp></header><metadata>${OAI_DC_OPEN}</oai_dc:dc>`,
  },
  { name: 'an envelope closed early', xml: `${OAI_DC_OPEN}<dc:title>x</dc:title></oai_dc:dc></metadata></record></ListRecords></OAI-PMH>` },
  { name: 'an unclosed element', xml: `${OAI_DC_OPEN}<dc:title>x</dc:title>` },
  { name: 'an XML declaration', xml: `<?xml version="1.0"?>${OAI_DC_OPEN}<dc:title>x</dc:title></oai_dc:dc>` },
  { name: 'a DOCTYPE with an entity', xml: `<!DOCTYPE x [<!ENTITY e "boom">]>${OAI_DC_OPEN}<dc:title>&e;</dc:title></oai_dc:dc>` },
  { name: 'an undefined entity', xml: `${OAI_DC_OPEN}<dc:title>&nbsp;</dc:title></oai_dc:dc>` },
  { name: 'a bare ampersand', xml: `${OAI_DC_OPEN}<dc:title>R&D</dc:title></oai_dc:dc>` },
  { name: 'a reference to a forbidden character', xml: `${OAI_DC_OPEN}<dc:title>&#1;</dc:title></oai_dc:dc>` },
  { name: 'an undeclared prefix', xml: `<oai_dc:dc><dc:title>x</dc:title></oai_dc:dc>` },
  { name: 'two root elements', xml: `${OAI_DC_OPEN}</oai_dc:dc>${OAI_DC_OPEN}</oai_dc:dc>` },
  { name: 'plain text', xml: 'just text, no element' },
  { name: 'an empty string', xml: '' },
  { name: 'a CDATA section left open', xml: `${OAI_DC_OPEN}<dc:title><![CDATA[x</dc:title></oai_dc:dc>` },
  { name: 'a duplicated attribute', xml: `${OAI_DC_OPEN.replace('>', ' xsi:type="a" xsi:type="b">')}<dc:title>x</dc:title></oai_dc:dc>` },
];

/** Set names with every forbidden character and markup. */
const NASTY_TEXT = [...FORBIDDEN_CHARS.join(''), ']]>', '</setName></set></ListSets></OAI-PMH>', '&amp;&#0;<"\''].join(' ');
/**
 * An identifier with every forbidden character and markup, but still a URI
 * once those are replaced (no `]`, no space): a stored identifier that is not
 * a URI at all could only come from behind the write path, and would stay
 * well-formed but fail identifierType (anyURI).
 */
const NASTY_IDENTIFIER = `${FORBIDDEN_CHARS.join('')}</identifier></header></record>&amp;&#0;<"'`;

function wellFormed(xml: string): string | null {
  try {
    const doc = libxml.parseXml(xml, { nonet: true });
    const errors = (doc as unknown as { errors?: unknown[] }).errors ?? [];
    return errors.length === 0 ? null : String(errors[0]);
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * Edits a sound fragment at random (up to three tokens inserted) 3,000 times and fails on any edit
 * the fast path settles that libxml2 finds not well-formed; returns how many it settled.
 */
function settledOnlyIfWellFormed(sound: string, token: fc.Arbitrary<string>, inherited: readonly string[]): number {
  let settled = 0;
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(), token), { maxLength: 3 }), (edits) => {
      let s = sound;
      for (const [at, t] of edits) {
        const i = at % (s.length + 1);
        s = s.slice(0, i) + t + s.slice(i);
      }
      if (!isKnownPlainFragment(s, inherited)) return;
      settled++;
      const problem = wellFormed(`<r xmlns:xsi="${XSI_NS}">${s}</r>`);
      if (problem !== null) throw new Error(`settled ${JSON.stringify(s)}, which libxml2 refuses: ${problem}`);
    }),
    { numRuns: 3000 },
  );
  return settled;
}

describe('output safety', function () {
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

  describe('the write path', () => {
    forEachDatabase((db) => {
      it('refuses metadata that is not one well-formed element, naming the record and the format', async () => {
        for (const c of CORRUPT_METADATA.filter((m) => !/U\+|empty/.test(m.name))) {
          let error: unknown;
          try {
            await db.store().writeItems([item('ok'), item('bad one', { metadata: { oai_dc: c.xml } })]);
          } catch (err) {
            error = err;
          }
          expect(error, c.name).to.be.instanceOf(RefusedError);
          expect(
            (error as RefusedError).refusals.map((r) => [r.internalId, r.field]),
            c.name,
          ).to.deep.include(['bad one', 'metadata.oai_dc']);
        }
        expect(await db.store().count({ metadataPrefix: 'oai_dc', until: 2 ** 31 })).to.equal(0);
      });

      it('refuses a set description that is not one well-formed element', async () => {
        let error: unknown;
        try {
          await db.store().putSets([{ spec: 'a', name: 'A', descriptions: ['<x></setDescription>'] }]);
        } catch (err) {
          error = err;
        }
        expect(String(error)).to.match(/description is not one well-formed XML element/);
      });
    });
  });

  describe('corrupt rows written straight into the database', () => {
    forEachProvider({ pageSize: 7 }, (get) => {
      const inserted: { identifier: string; name: string; corrupt: boolean }[] = [];

      before(async () => {
        const { knex } = get();
        const sqlite = (knex.client as { dialect?: string }).dialect !== 'postgresql';
        const rows: { internalId: string; identifier: string; name: string; xml: string; corrupt: boolean }[] = CORRUPT_METADATA.map((c, i) => ({
          internalId: `corrupt-${i}`,
          identifier: `oai:demo.oai-steward.org:corrupt-${i}`,
          name: c.name,
          xml: c.xml,
          // Lone surrogates cannot be stored as text (both drivers write UTF-8, turning them into U+FFFD): those rows arrive sound.
          corrupt: !/[\uD800-\uDFFF]/.test(c.xml),
        }))
          // PostgreSQL text cannot hold NUL at all: that row exists only on SQLite.
          .filter((r) => sqlite || !r.xml.includes('\u0000'));
        rows.push({
          internalId: 'nasty-id',
          identifier: `oai:demo.oai-steward.org:${NASTY_IDENTIFIER}`,
          name: 'an identifier with forbidden characters',
          xml: dc('fine'),
          corrupt: false,
        });
        if (!sqlite) for (const r of rows) r.identifier = r.identifier.replace(/\u0000/g, '');
        await knex.transaction(async (trx) => {
          await trx('sets').insert({
            spec: 'corrupt',
            name: NASTY_TEXT.replace(sqlite ? /(?!)/ : /\u0000/g, ''),
            descriptions: JSON.stringify(['<x></setDescription></set>', `${OAI_DC_OPEN}<dc:title>\u0001</dc:title></oai_dc:dc>`, dc('a fine description')]),
          });
          for (const r of rows) {
            const [pk] = (await trx('items').insert(
              {
                internal_id: r.internalId,
                identifier: r.identifier,
                datestamp: get().now - 60,
                deleted: false,
                content_hash: 'x',
                created: 0,
                direct_sets: 'corrupt',
              },
              ['pk'],
            )) as ({ pk: number } | number)[];
            const itemPk = typeof pk === 'object' ? pk.pk : (pk as number);
            await trx('records').insert({ item_pk: itemPk, prefix: 'oai_dc', xml: r.xml, datestamp: get().now - 60 });
            await trx('item_sets').insert({ spec: 'corrupt', item_pk: itemPk, direct: true, datestamp: get().now - 60 });
            inserted.push({ identifier: r.identifier, name: r.name, corrupt: r.corrupt });
          }
          if (sqlite) {
            // Bytes that are not UTF-8 at all (a CESU-8 surrogate, a lone continuation byte), as only a raw write can store them.
            const [pk] = (await trx('items').insert(
              {
                internal_id: 'raw-bytes',
                identifier: 'oai:demo.oai-steward.org:raw-bytes',
                datestamp: get().now - 60,
                deleted: false,
                content_hash: 'x',
                created: 0,
                direct_sets: 'corrupt',
              },
              ['pk'],
            )) as ({ pk: number } | number)[];
            const itemPk = typeof pk === 'object' ? pk.pk : (pk as number);
            await trx.raw(`INSERT INTO records (item_pk, prefix, xml, datestamp) VALUES (?, 'oai_dc', CAST(? || X'EDA080' || X'80' || ? AS TEXT), ?)`, [
              itemPk,
              `${OAI_DC_OPEN}<dc:title>`,
              '</dc:title></oai_dc:dc>',
              get().now - 60,
            ]);
            await trx('item_sets').insert({ spec: 'corrupt', item_pk: itemPk, direct: true, datestamp: get().now - 60 });
            inserted.push({ identifier: 'oai:demo.oai-steward.org:raw-bytes', name: 'bytes that are not UTF-8', corrupt: false });
          }
        });
      });

      it('answers GetRecord for every corrupt record with a valid document: the header, and metadata only when it is sound', async () => {
        for (const r of inserted) {
          const xml = checkOai(
            await request(get().port, { query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(replaceNonXmlChars(r.identifier))}` }),
          );
          if (r.corrupt) expect(xml, r.name).to.contain('<record><header>').and.not.to.contain('<metadata>');
        }
      });

      for (const verb of ['ListRecords', 'ListIdentifiers']) {
        for (const scope of ['', '&set=corrupt']) {
          it(`harvests ${verb}${scope} to the end through the corrupt rows with valid documents only`, async () => {
            let query = `verb=${verb}&metadataPrefix=oai_dc${scope}`;
            const seen: string[] = [];
            for (;;) {
              const xml = checkOai(await request(get().port, { query }));
              seen.push(...texts(xml, 'identifier'));
              const t = resumption(xml);
              if (!t || t.token === '') break;
              query = `verb=${verb}&resumptionToken=${encodeURIComponent(t.token)}`;
            }
            // Every inserted row is listed once (identifiers reach the wire with forbidden characters replaced).
            expect(seen.filter((id) => id.includes('corrupt-') || id.includes('raw-bytes') || id.includes('\uFFFD'))).to.have.length(inserted.length);
          });
        }
      }

      it('lists the set with the forbidden characters in its name, leaving out only its corrupt descriptions', async () => {
        const xml = checkOai(await request(get().port, { query: 'verb=ListSets' }));
        const all: string[] = [xml];
        let t = resumption(xml);
        while (t && t.token !== '') {
          const next = checkOai(await request(get().port, { query: `verb=ListSets&resumptionToken=${encodeURIComponent(t.token)}` }));
          all.push(next);
          t = resumption(next);
        }
        const set = /<set><setSpec>corrupt<\/setSpec>.*?<\/set>/s.exec(all.join(''))?.[0] ?? '';
        expect(set).to.contain('a fine description');
        expect(set.match(/<setDescription>/g)).to.have.length(1);
      });
    });
  });
});
