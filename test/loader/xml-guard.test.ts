/**
 * The pass before libxml2 (server/loader/xml-guard.ts): what it hands on
 * unchanged, what it leaves out and why, wherever the input is cut into
 * pieces; and the Identify reader behind it.
 */
import { expect } from 'chai';
import { ELIDED, XmlGuard } from '../../server/loader/xml-guard';
import { parseIdentify } from '../../server/harvest/identify';

const SMALL = { depth: 3, attributes: 2, namespaces: 1 };

/** The text handed on and the reasons, the input given whole and a character at a time (a cut anywhere). */
function guarded(xml: string): { whole: string; pieces: string; reasons: string[] } {
  const g = new XmlGuard(SMALL);
  const whole = g.write(xml);
  const p = new XmlGuard(SMALL);
  let pieces = '';
  for (const c of xml) pieces += p.write(c);
  expect(p.reasons).to.deep.equal(g.reasons);
  return { whole, pieces, reasons: g.reasons };
}

const cases: { name: string; xml: string; out: string; reasons: string[] }[] = [
  { name: 'hands on attributes within the bound, quoted either way', xml: `<a b="1" c='2'/>`, out: `<a b="1" c='2'/>`, reasons: [] },
  {
    name: 'reads no markup inside comments, CDATA sections, processing instructions or values',
    xml: `<r x="<a><a><a>"><!-- <a><a><a> --><![CDATA[<a><a><a>]]><?pi <a><a><a>?>t</r>`,
    out: `<r x="<a><a><a>"><!-- <a><a><a> --><![CDATA[<a><a><a>]]><?pi <a><a><a>?>t</r>`,
    reasons: [],
  },
  { name: 'hands on elements nested to the bound', xml: '<a><b><c>t</c></b></a>', out: '<a><b><c>t</c></b></a>', reasons: [] },
  {
    name: 'leaves out an element past the depth bound, with its content, and reads on',
    xml: '<a><b><c><d><e>t</e></d></c><f/></b></a>',
    out: `<a><b><c>${ELIDED}</c><f/></b></a>`,
    reasons: ['elements nested deeper than 3 levels'],
  },
  {
    name: 'leaves out an element with too many attributes, its content and end tag with it',
    xml: '<r><a x="1" y="2" z="3"><b>t</b></a><c/></r>',
    out: `<r>${ELIDED}<c/></r>`,
    reasons: ['an element with more than 2 attributes'],
  },
  {
    name: 'counts namespace declarations apart from attributes, spaces around = and all',
    xml: '<r><a xmlns:p="u" xmlns = "v"/><b xmlns:q="w" k="1" l="2">ok</b></r>',
    out: `<r>${ELIDED}<b xmlns:q="w" k="1" l="2">ok</b></r>`,
    reasons: ['an element declaring more than 1 namespaces'],
  },
];

describe('the guard before the XML parser', () => {
  for (const c of cases) {
    it(c.name, () => {
      const r = guarded(c.xml);
      expect(r.whole).to.equal(c.out);
      expect(r.pieces).to.equal(c.out);
      expect(r.reasons).to.deep.equal(c.reasons);
    });
  }

  it('reads 100,000 attributes on one element in time linear in their number', () => {
    const xml = `<r><a ${Array.from({ length: 100_000 }, (_, i) => `a${i}="v"`).join(' ')}/></r>`;
    const began = Date.now();
    const g = new XmlGuard();
    expect(g.write(xml)).to.equal(`<r>${ELIDED}</r>`);
    // Some 50 ms; quadratic reading took 87.6 s.
    expect(Date.now() - began).to.be.below(5_000);
  });

  it('refuses an Identify answer with an element of 50,000 namespace declarations, naming the bound', () => {
    const decls = Array.from({ length: 50_000 }, (_, i) => `xmlns:p${i}="urn:p:${i}"`).join(' ');
    const body = `<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate ${decls}>2024-01-01T00:00:00Z</responseDate></OAI-PMH>`;
    expect(() => parseIdentify(body)).to.throw('the Identify answer holds an element declaring more than 256 namespaces');
  });
});
