import { expect } from 'chai';
import { decodeForm } from '../../lib/oai/form';

describe('decodeForm', () => {
  const cases: Array<{ name: string; raw: string; pairs?: Array<[string, string]> }> = [
    { name: 'an empty string has no pairs', raw: '', pairs: [] },
    { name: 'keys and values are decoded once', raw: 'identifier=oai%3Aan.oai.org%3Aab%253Ccd', pairs: [['identifier', 'oai:an.oai.org:ab%3Ccd']] },
    { name: 'plus is a space', raw: 'a=b+c', pairs: [['a', 'b c']] },
    { name: 'an escaped plus stays a plus', raw: 'a=b%2Bc', pairs: [['a', 'b+c']] },
    {
      name: 'repeated keys are kept in order',
      raw: 'a=1&a=2',
      pairs: [
        ['a', '1'],
        ['a', '2'],
      ],
    },
    { name: 'a key without = has an empty value', raw: 'verb', pairs: [['verb', '']] },
    {
      name: 'empty segments are ignored',
      raw: 'a=1&&b=2&',
      pairs: [
        ['a', '1'],
        ['b', '2'],
      ],
    },
    { name: 'UTF-8 escapes decode to characters', raw: 'a=caf%C3%A9', pairs: [['a', 'café']] },
    { name: 'raw UTF-8 bytes (as Node gives them) decode too', raw: 'a=caf\u00c3\u00a9', pairs: [['a', 'café']] },
    { name: 'brackets are ordinary key characters', raw: 'a[b]=c', pairs: [['a[b]', 'c']] },
    { name: 'a malformed escape is refused', raw: 'a=%zz' },
    { name: 'a truncated escape is refused', raw: 'a=b%2' },
    { name: 'escapes that are not UTF-8 are refused', raw: 'a=%C3%28' },
    { name: 'an escaped lone surrogate is refused', raw: 'a=%ED%A0%80' },
  ];
  for (const c of cases) {
    it(c.pairs ? `decodes: ${c.name}` : `refuses: ${c.name}`, () => {
      const r = decodeForm(c.raw);
      if (c.pairs) expect(r).to.deep.equal({ ok: true, pairs: c.pairs });
      else expect(r.ok).to.equal(false);
    });
  }
});
