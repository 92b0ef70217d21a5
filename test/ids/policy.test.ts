import { expect } from 'chai';
import { createIdPolicy, IdMappingError, type IdMappingMode } from '../../lib/ids/policy';
import { isValidOaiIdentifier } from '../../lib/ids/oai-identifier';

const NS = 'example.org';

describe('id mapping policy', () => {
  interface Case {
    name: string;
    mode: IdMappingMode;
    id: string;
    identifier: string;
    scheme: 'opaque' | 'fedora-pid';
  }
  const cases: Case[] = [
    {
      name: 'auto mode uses a normalized PID as is',
      mode: 'auto',
      id: 'demo:A-B.C_D%3AE',
      identifier: 'oai:example.org:demo:A-B.C_D%3AE',
      scheme: 'fedora-pid',
    },
    { name: 'auto mode uses a PID without escapes as is', mode: 'auto', id: 'demo:1', identifier: 'oai:example.org:demo:1', scheme: 'fedora-pid' },
    { name: 'auto mode escapes an opaque id', mode: 'auto', id: 'report 12', identifier: 'oai:example.org:report%2012', scheme: 'opaque' },
    {
      name: 'auto mode keeps opaque a PID whose escapes opaque escaping would also produce',
      mode: 'auto',
      id: 'demo:a%20b',
      identifier: 'oai:example.org:demo:a%2520b',
      scheme: 'opaque',
    },
    { name: 'auto mode keeps opaque a PID with lowercase hex', mode: 'auto', id: 'demo:a%3ab', identifier: 'oai:example.org:demo:a%253ab', scheme: 'opaque' },
    {
      name: 'auto mode keeps opaque a PID with an escaped separator',
      mode: 'auto',
      id: 'demo%3A1',
      identifier: 'oai:example.org:demo%253A1',
      scheme: 'opaque',
    },
    { name: 'auto mode uses a PID with a non-UTF-8 escape as is', mode: 'auto', id: 'demo:%FF', identifier: 'oai:example.org:demo:%FF', scheme: 'fedora-pid' },
    {
      name: 'auto mode escapes a too-long PID-like id',
      mode: 'auto',
      id: 'demo:' + 'x'.repeat(59) + '%3A',
      identifier: 'oai:example.org:demo:' + 'x'.repeat(59) + '%253A',
      scheme: 'opaque',
    },
    { name: 'opaque mode escapes a PID', mode: 'opaque', id: 'demo:A-B.C_D%3AE', identifier: 'oai:example.org:demo:A-B.C_D%253AE', scheme: 'opaque' },
    {
      name: 'fedora-pid mode uses a PID that opaque escaping could also produce as is',
      mode: 'fedora-pid',
      id: 'demo:a%20b',
      identifier: 'oai:example.org:demo:a%20b',
      scheme: 'fedora-pid',
    },
    { name: 'opaque mode escapes unicode', mode: 'opaque', id: 'Ünïcødé/1', identifier: 'oai:example.org:%C3%9Cn%C3%AFc%C3%B8d%C3%A9/1', scheme: 'opaque' },
  ];
  for (const c of cases) {
    it(`${c.name}, and unmaps it back`, () => {
      const policy = createIdPolicy({ namespace: NS, mode: c.mode });
      const m = policy.map(c.id);
      expect(m).to.deep.equal({ identifier: c.identifier, local: c.identifier.slice(`oai:${NS}:`.length), scheme: c.scheme });
      expect(isValidOaiIdentifier(m.identifier)).to.equal(true);
      expect(policy.unmap(m.identifier)).to.equal(c.id);
    });
  }

  it('auto mode gives a PID and the opaque id escaping to its unescaped form different identifiers', () => {
    const policy = createIdPolicy({ namespace: NS, mode: 'auto' });
    expect(policy.map('demo:a%20b').identifier).to.not.equal(policy.map('demo:a b').identifier);
    expect(policy.map('demo:a%3Ab').identifier).to.not.equal(policy.map('demo:a%3ab').identifier);
  });

  it('defaults to auto mode', () => {
    const policy = createIdPolicy({ namespace: NS });
    expect(policy.mode).to.equal('auto');
    expect(policy.map('demo:A-B.C_D%3AE').scheme).to.equal('fedora-pid');
  });

  const refusals: Array<[IdMappingMode, string, RegExp]> = [
    ['auto', '', /empty/],
    ['opaque', 'a\uDC00', /surrogate/],
    ['auto', '\uD800', /surrogate/],
    ['fedora-pid', 'not a pid', /not a Fedora PID/],
    ['fedora-pid', 'demo:a%3ab', /normalize it to "demo:a%3Ab"/],
    ['fedora-pid', 'demo%3A1', /normalize it to "demo:1"/],
  ];
  for (const [mode, id, re] of refusals) {
    it(`${mode} mode refuses ${JSON.stringify(id)} with an error naming it`, () => {
      const policy = createIdPolicy({ namespace: NS, mode });
      expect(() => policy.map(id))
        .to.throw(IdMappingError, re)
        .with.property('internalId', id);
    });
  }

  const unmapNull: Array<[IdMappingMode, string, string]> = [
    ['auto', 'oai:other.org:demo:1', 'another namespace'],
    ['auto', 'oai:EXAMPLE.ORG:demo:1', 'the namespace in another capitalization'],
    ['auto', 'oai:example.org:ab%3ccd', 'an invalid identifier'],
    ['auto', 'oai:example.org:a%3Ab', 'a needless escape that is not a PID'],
    ['opaque', 'oai:example.org:demo:A%3AE', 'a PID in opaque mode'],
    ['fedora-pid', 'oai:example.org:report%2012', 'a non-PID in fedora-pid mode'],
    ['auto', 'oai:example.org:%FF', 'octets that are not UTF-8 and not a PID'],
  ];
  for (const [mode, identifier, why] of unmapNull) {
    it(`${mode} mode unmaps ${identifier} to null (${why})`, () => {
      expect(createIdPolicy({ namespace: NS, mode }).unmap(identifier)).to.equal(null);
    });
  }

  it('refuses an invalid namespace at creation', () => {
    expect(() => createIdPolicy({ namespace: 'localhost' })).to.throw(RangeError);
  });
});
