import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { decodeToken, encodeToken } from '../../lib/oai/token';
import type { ListTokenState } from '../../lib/oai/token';

const state: ListTokenState = {
  verb: 'ListRecords',
  metadataPrefix: 'oai_dc',
  set: 'physics:hep',
  from: 1000,
  until: 2000,
  after: { datestamp: 1500, pk: 42 },
  cursor: 100,
  completeListSize: 250,
  expires: 5000,
};

describe('resumption tokens', () => {
  it('round-trip every field of a list state', () => {
    const r = decodeToken(encodeToken(state, 'k'), 'ListRecords', 'k', 4000);
    expect(r).to.deep.equal({ ok: true, state });
  });

  it('round-trip the WAL position a page was read at, and leave it out when there is none', () => {
    const at = { ...state, position: '0/3000148' };
    expect(decodeToken(encodeToken(at, 'k'), 'ListRecords', 'k', 4000)).to.deep.equal({ ok: true, state: at });
    expect(encodeToken(state, 'k')).to.equal(encodeToken({ ...state }, 'k'));
    expect(Buffer.from(encodeToken(state, 'k').split('.')[1] as string, 'base64url').toString()).to.not.include('"w"');
  });

  it('refuse a signed token whose position is not a WAL position', () => {
    const body = Buffer.from(JSON.stringify({ v: 'LR', p: 'oai_dc', u: 2000, a: [1500, 42], c: 100, n: 250, x: 5000, w: "0/1'; --" })).toString('base64url');
    const mac = createHmac('sha256', 'k').update(`1.${body}`).digest('base64url');
    expect(decodeToken(`1.${body}.${mac}`, 'ListRecords', 'k', 4000)).to.deep.equal({ ok: false, problem: 'malformed' });
  });

  it('round-trip a ListSets state', () => {
    const s = { verb: 'ListSets' as const, after: 'a:b', cursor: 10, completeListSize: 12, expires: 99 };
    expect(decodeToken(encodeToken(s, 'k'), 'ListSets', 'k', 1)).to.deep.equal({ ok: true, state: s });
    const at = { ...s, position: '0/16B3748' };
    expect(decodeToken(encodeToken(at, 'k'), 'ListSets', 'k', 1)).to.deep.equal({ ok: true, state: at });
    expect(decodeToken(encodeToken({ ...s, position: 'not a position' }, 'k'), 'ListSets', 'k', 1)).to.deep.equal({ ok: false, problem: 'malformed' });
  });

  it('are versioned', () => {
    expect(encodeToken(state, 'k')).to.match(/^1\./);
  });

  it('are accepted up to and including their expiry second', () => {
    expect(decodeToken(encodeToken(state, 'k'), 'ListRecords', 'k', 5000).ok).to.equal(true);
  });

  const bad: Array<{
    name: string;
    token: () => string;
    verb?: 'ListRecords' | 'ListIdentifiers' | 'ListSets';
    secret?: string;
    now?: number;
    problem: string;
  }> = [
    { name: 'an expired token', token: () => encodeToken(state, 'k'), now: 5001, problem: 'expired' },
    { name: 'a token of another verb', token: () => encodeToken(state, 'k'), verb: 'ListIdentifiers', problem: 'verb' },
    { name: 'a token signed with another secret', token: () => encodeToken(state, 'other'), problem: 'signature' },
    {
      name: 'a token with a changed payload',
      token: () => {
        const [v, b, m] = encodeToken(state, 'k').split('.');
        const p = JSON.parse(Buffer.from(b as string, 'base64url').toString());
        p.c = 0;
        return `${v}.${Buffer.from(JSON.stringify(p)).toString('base64url')}.${m}`;
      },
      problem: 'signature',
    },
    { name: 'a truncated token', token: () => encodeToken(state, 'k').slice(0, -3), problem: 'signature' },
    { name: 'a token of an unknown version', token: () => `2${encodeToken(state, 'k').slice(1)}`, problem: 'malformed' },
    { name: 'a random string', token: () => 'hello', problem: 'malformed' },
    { name: 'an empty signature part', token: () => encodeToken(state, 'k').replace(/\.[^.]*$/, '.'), problem: 'signature' },
  ];
  for (const c of bad) {
    it(`refuse ${c.name}`, () => {
      expect(decodeToken(c.token(), c.verb ?? 'ListRecords', c.secret ?? 'k', c.now ?? 4000)).to.deep.equal({ ok: false, problem: c.problem });
    });
  }
});
