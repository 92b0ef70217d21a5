/**
 * Fragments that must never be spliced into a response as they are, and the
 * checks of the outgoing guard against libxml2, shared by the guard's tests
 * (test/xml/) and the served-output tests (test/reliability/output-safety.test.ts).
 */
import fc from 'fast-check';
import * as libxml from 'libxmljs2';
import { isKnownPlainFragment } from '../../lib/xml/plain-fragment';
import { DC_NS, OAI_DC_NS, OAI_DC_SCHEMA, XSI_NS } from '../../lib/xml/namespaces';

export const OAI_DC_OPEN =
  `<oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}" xmlns:dc="${DC_NS}" xmlns:xsi="${XSI_NS}"` + ` xsi:schemaLocation="${OAI_DC_NS} ${OAI_DC_SCHEMA}">`;

/** Characters XML 1.0 cannot carry, one string each. */
export const FORBIDDEN_CHARS: string[] = [
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
export const CORRUPT_METADATA: { name: string; xml: string }[] = [
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
export const NASTY_TEXT = [...FORBIDDEN_CHARS.join(''), ']]>', '</setName></set></ListSets></OAI-PMH>', '&amp;&#0;<"\''].join(' ');
/**
 * An identifier with every forbidden character and markup, but still a URI
 * once those are replaced (no `]`, no space): a stored identifier that is not
 * a URI at all could only come from behind the write path, and would stay
 * well-formed but fail identifierType (anyURI).
 */
export const NASTY_IDENTIFIER = `${FORBIDDEN_CHARS.join('')}</identifier></header></record>&amp;&#0;<"'`;

export function wellFormed(xml: string): string | null {
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
export function settledOnlyIfWellFormed(sound: string, token: fc.Arbitrary<string>, inherited: readonly string[]): number {
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
