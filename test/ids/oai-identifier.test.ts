import { expect } from 'chai';
import { rejectsEach } from '../helpers/table';
import {
  buildOaiIdentifier,
  escapeLocalIdentifier,
  isEscapedForm,
  isValidNamespaceIdentifier,
  isValidOaiIdentifier,
  needlessEscapes,
  parseOaiIdentifier,
  toRequestArgument,
  unescapeLocalIdentifier,
} from '../../lib/ids/oai-identifier';

describe('oai-identifier', () => {
  describe('validation by the ABNF of section 2.1', () => {
    // Section 2.6, with the valid examples the text copy lost restored from the original.
    const valid = [
      'oai:arXiv.org:hep-th/9901001',
      'oai:foo.org:some-local-id-53',
      'oai:FOO.ORG:some-local-id-53',
      'oai:foo.org:some-local-id-54',
      'oai:foo.org:Some-Local-Id-54',
      'oai:wibble.org:ab%20cd',
      'oai:wibble.org:ab?cd',
      'oai:bespa.org:medi99-123',
      'oai:oai-stuff.foo.org:5324',
      'oai:an.oai.org:ab%3Ccd',
      // 2007 XSD and the ABNF agree: single-letter words are fine.
      'oai:ebibpol.p.lodz.pl:123',
      'oai:a.b:c',
      // Every reserved and mark character may appear unescaped; colons in the local part too.
      "oai:x.org:;/?:@&=+$,-_.!~*'()",
      'oai:x.org:demo:A-B.C_D%3AE',
      'oai:x.org:%25',
    ];
    for (const id of valid) {
      it(`accepts ${id}`, () => {
        expect(parseOaiIdentifier(id), id).to.have.property('ok', true);
        expect(isValidOaiIdentifier(id)).to.equal(true);
      });
    }

    const invalid: Array<[string, string]> = [
      ['something:arXiv.org:hep-th/9901001', 'bad scheme'],
      ['OAI:arXiv.org:hep-th/9901001', 'scheme is case-sensitive'],
      ['oai:999:abc123', 'namespace-identifier must not start with digit'],
      ['oai:wibble:abc123', 'namespace-identifier must be domain name'],
      ['oai:wibble.org:ab cd', 'space not permitted'],
      ['oai:wibble.org:ab#cd', '# not permitted'],
      ['oai:wibble.org:ab<cd', '< not permitted'],
      ['oai:wibble.org:ab%3ccd', 'lowercase hex escape'],
      ['oai:wibble.org:ab%zzcd', 'malformed escape'],
      ['oai:wibble.org:ab%2', 'truncated escape'],
      ['oai:wibble.org:', 'empty local-identifier'],
      ['oai::abc', 'empty namespace'],
      ['oai:wibble.org', 'no local-identifier separator'],
      ['oai:1wibble.org:abc', 'first word starts with a digit'],
      ['oai:wibble.9org:abc', 'later word starts with a digit'],
      ['oai:wibble..org:abc', 'empty word'],
      ['oai:wibble.org.:abc', 'trailing dot'],
      ['oai:-wibble.org:abc', 'word starts with hyphen'],
      ['oai:wib_ble.org:abc', 'underscore in namespace'],
      ['oai:wibble.org:ab\u00e9', 'non-ASCII unescaped'],
      ['oai:wibble.org:a"b', 'double quote'],
      ['oai:wibble.org:a[b]', 'brackets are not uric in RFC 2396'],
      ['oai:wibble.org:a%b', 'lone percent'],
      ['', 'empty string'],
    ];
    rejectsEach(invalid, parseOaiIdentifier);

    it('splits at the second colon, keeping later colons in the local-identifier', () => {
      expect(parseOaiIdentifier('oai:x.org:demo:1')).to.deep.equal({ ok: true, scheme: 'oai', namespace: 'x.org', local: 'demo:1' });
    });

    it('names the uppercase form of a lowercase escape in its error', () => {
      const r = parseOaiIdentifier('oai:wibble.org:ab%3ccd');
      expect(r.ok ? [] : r.errors.join(' ')).to.contain('%3C');
    });
  });

  describe('namespace-identifier', () => {
    const cases: Array<[string, boolean]> = [
      ['arXiv.org', true],
      ['a.b', true],
      ['oai-stuff.foo.org', true],
      ['x-.y-', true],
      ['org', false],
      ['999', false],
      ['a.1b', false],
      ['', false],
      ['a..b', false],
      ['a.b.', false],
    ];
    for (const [ns, ok] of cases) {
      it(`${ok ? 'accepts' : 'rejects'} ${JSON.stringify(ns)}`, () => expect(isValidNamespaceIdentifier(ns)).to.equal(ok));
    }
  });

  describe('escaping internal ids', () => {
    const cases: Array<[string, string]> = [
      ['ab cd', 'ab%20cd'],
      ['ab?cd', 'ab?cd'],
      ['ab<cd', 'ab%3Ccd'],
      ['100%', '100%25'],
      ['%3A', '%253A'],
      ['hep-th/9901001', 'hep-th/9901001'],
      ["a;/?:@&=+$,-_.!~*'()z", "a;/?:@&=+$,-_.!~*'()z"],
      ['é', '%C3%A9'],
      ['#[]{}|\\^`"', '%23%5B%5D%7B%7D%7C%5C%5E%60%22'],
      ['\u{1F600}', '%F0%9F%98%80'],
      ['\u0000\n', '%00%0A'],
    ];
    for (const [id, local] of cases) {
      it(`escapes ${JSON.stringify(id)} as ${local} and unescapes it back`, () => {
        expect(escapeLocalIdentifier(id)).to.equal(local);
        expect(unescapeLocalIdentifier(local)).to.equal(id);
        expect(isEscapedForm(local)).to.equal(true);
      });
    }

    it('refuses the empty internal id', () => expect(() => escapeLocalIdentifier('')).to.throw(RangeError, /empty/));
    it('refuses a lone surrogate', () => expect(() => escapeLocalIdentifier('a\uD800b')).to.throw(RangeError, /surrogate/));
    it('refuses to unescape an invalid local-identifier', () => expect(() => unescapeLocalIdentifier('ab%3ccd')).to.throw(RangeError));
    it('refuses to unescape octets that are not UTF-8', () => expect(() => unescapeLocalIdentifier('%FF')).to.throw(RangeError, /UTF-8/));
    it('refuses to unescape a needlessly escaped reserved character', () => {
      expect(() => unescapeLocalIdentifier('demo%3A1')).to.throw(RangeError, /must not be escaped/);
      expect(isEscapedForm('demo%3A1')).to.equal(false);
    });
    it('lists needless escapes of reserved and unreserved characters', () => {
      expect(needlessEscapes('a%41%20%3A%25')).to.deep.equal(['%41', '%3A']);
    });

    it('builds an identifier from a namespace and an internal id', () => {
      expect(buildOaiIdentifier('wibble.org', 'ab cd')).to.equal('oai:wibble.org:ab%20cd');
    });
    it('refuses to build with an invalid namespace', () => {
      expect(() => buildOaiIdentifier('wibble', 'x')).to.throw(RangeError, /two/);
    });
  });

  describe('request-argument encoding (section 2.5)', () => {
    const cases: Array<[string, string]> = [
      ['oai:an.oai.org:ab%3Ccd', 'oai%3Aan.oai.org%3Aab%253Ccd'],
      ['oai:x.org:a+b', 'oai%3Ax.org%3Aa%2Bb'],
      ['oai:x.org:a&b=c', 'oai%3Ax.org%3Aa%26b%3Dc'],
      ['oai:arXiv.org:hep-th/9901001', 'oai%3AarXiv.org%3Ahep-th%2F9901001'],
      ["oai:x.org:-_.!~*'()", "oai%3Ax.org%3A-_.!~*'()"],
    ];
    for (const [id, arg] of cases) {
      it(`encodes ${id} as ${arg}, which one URL decoding turns back`, () => {
        expect(toRequestArgument(id)).to.equal(arg);
        expect(decodeURIComponent(arg)).to.equal(id);
        expect(new URLSearchParams(`identifier=${arg}`).get('identifier')).to.equal(id);
      });
    }
    it('refuses an invalid oai-identifier', () => expect(() => toRequestArgument('oai:wibble:x')).to.throw(RangeError));
  });
});
