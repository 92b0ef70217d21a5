import { expect } from 'chai';
import { MAX_LISTED_ERRORS, parseRequest } from '../../lib/oai/request';
import type { OaiErrorCode } from '../../lib/oai/errors';

type Pairs = Array<[string, string]>;
const q = (s: string): Pairs =>
  s
    .split('&')
    .filter(Boolean)
    .map((p) => p.split('=') as [string, string]);

describe('parseRequest', () => {
  const accepted: Array<{ name: string; pairs: Pairs }> = [
    { name: 'Identify without arguments', pairs: q('verb=Identify') },
    { name: 'GetRecord with identifier and metadataPrefix', pairs: q('verb=GetRecord&identifier=oai:a.b:c&metadataPrefix=oai_dc') },
    { name: 'ListRecords with every optional argument', pairs: q('verb=ListRecords&metadataPrefix=oai_dc&from=2002-01-01&until=2002-02-01&set=a:b') },
    {
      name: 'ListIdentifiers with second-granularity bounds',
      pairs: q('verb=ListIdentifiers&metadataPrefix=oai_dc&from=2002-01-01T00:00:00Z&until=2002-01-01T00:00:00Z'),
    },
    { name: 'ListIdentifiers with a resumptionToken alone', pairs: q('verb=ListIdentifiers&resumptionToken=abc') },
    { name: 'ListMetadataFormats with an identifier', pairs: q('verb=ListMetadataFormats&identifier=oai:a.b:c') },
    { name: 'ListSets with a resumptionToken', pairs: q('verb=ListSets&resumptionToken=x') },
    { name: 'arguments in any order', pairs: q('metadataPrefix=oai_dc&verb=ListRecords') },
  ];
  for (const c of accepted) {
    it(`accepts ${c.name}`, () => {
      const r = parseRequest(c.pairs);
      expect(r.ok, JSON.stringify(r)).to.equal(true);
    });
  }

  const refused: Array<{ name: string; pairs: Pairs; codes: OaiErrorCode[]; match?: RegExp }> = [
    { name: 'a request without a verb', pairs: q('metadataPrefix=oai_dc'), codes: ['badVerb'] },
    { name: 'an illegal verb', pairs: q('verb=Foo'), codes: ['badVerb'] },
    { name: 'a verb in the wrong case', pairs: q('verb=identify'), codes: ['badVerb'] },
    { name: 'an empty verb', pairs: q('verb='), codes: ['badVerb'] },
    { name: 'a repeated verb', pairs: q('verb=Identify&verb=Identify'), codes: ['badVerb'] },
    { name: 'Identify with an argument', pairs: q('verb=Identify&set=a'), codes: ['badArgument'] },
    { name: 'an unknown argument', pairs: q('verb=ListSets&foo=bar'), codes: ['badArgument'], match: /"foo"/ },
    { name: 'a repeated argument', pairs: q('verb=GetRecord&identifier=a&identifier=b&metadataPrefix=oai_dc'), codes: ['badArgument'], match: /repeated/ },
    { name: 'an empty argument', pairs: q('verb=GetRecord&identifier=&metadataPrefix=oai_dc'), codes: ['badArgument'], match: /empty/ },
    { name: 'GetRecord without identifier', pairs: q('verb=GetRecord&metadataPrefix=oai_dc'), codes: ['badArgument'], match: /identifier/ },
    { name: 'GetRecord without either argument', pairs: q('verb=GetRecord'), codes: ['badArgument', 'badArgument'] },
    { name: 'ListRecords without metadataPrefix', pairs: q('verb=ListRecords'), codes: ['badArgument'] },
    {
      name: 'a resumptionToken with another argument',
      pairs: q('verb=ListRecords&resumptionToken=x&metadataPrefix=oai_dc'),
      codes: ['badArgument'],
      match: /exclusive/,
    },
    { name: 'an impossible date', pairs: q('verb=ListRecords&metadataPrefix=oai_dc&from=2002-02-30'), codes: ['badArgument'] },
    { name: 'a datetime without Z', pairs: q('verb=ListRecords&metadataPrefix=oai_dc&from=2002-02-01T00:00:00'), codes: ['badArgument'] },
    { name: 'a finer granularity than seconds', pairs: q('verb=ListRecords&metadataPrefix=oai_dc&from=2002-02-01T00:00:00.5Z'), codes: ['badArgument'] },
    { name: 'a month-only date', pairs: q('verb=ListRecords&metadataPrefix=oai_dc&until=2002-02'), codes: ['badArgument'] },
    { name: 'hour 24', pairs: q('verb=ListRecords&metadataPrefix=oai_dc&until=2002-02-01T24:00:00Z'), codes: ['badArgument'] },
    {
      name: 'mixed granularity',
      pairs: q('verb=ListRecords&metadataPrefix=oai_dc&from=2002-02-01&until=2002-02-02T00:00:00Z'),
      codes: ['badArgument'],
      match: /granularity/,
    },
    {
      name: 'from later than until',
      pairs: q('verb=ListRecords&metadataPrefix=oai_dc&from=2002-02-02&until=2002-02-01'),
      codes: ['badArgument'],
      match: /later/,
    },
    { name: 'an illegal metadataPrefix', pairs: q('verb=ListRecords&metadataPrefix=oai dc'), codes: ['badArgument'] },
    { name: 'an illegal setSpec', pairs: q('verb=ListRecords&metadataPrefix=oai_dc&set=a::b'), codes: ['badArgument'] },
    {
      name: 'an argument with a control character',
      pairs: [
        ['verb', 'GetRecord'],
        ['identifier', 'a\u0001b'],
        ['metadataPrefix', 'oai_dc'],
      ],
      codes: ['badArgument'],
    },
    { name: 'an array-looking key', pairs: q('verb=ListSets&a[b]=c'), codes: ['badArgument'] },
    { name: 'several problems at once', pairs: q('verb=ListRecords&foo=1&from=x'), codes: ['badArgument', 'badArgument', 'badArgument'] },
  ];
  for (const c of refused) {
    it(`refuses ${c.name}`, () => {
      const r = parseRequest(c.pairs);
      if (r.ok) throw new Error('expected a refusal');
      expect(r.errors.map((e) => e.code)).to.deep.equal(c.codes);
      if (c.match) expect(r.errors.map((e) => e.message).join(' ')).to.match(c.match);
    });
  }

  it('makes a day-granularity until cover the whole day (inclusive)', () => {
    const r = parseRequest(q('verb=ListRecords&metadataPrefix=oai_dc&from=2002-02-05&until=2002-02-05'));
    if (!r.ok || r.request.verb !== 'ListRecords' || r.request.resumptionToken !== undefined) throw new Error('refused');
    expect(r.request.from).to.equal(Date.UTC(2002, 1, 5) / 1000);
    expect(r.request.until).to.equal(Date.UTC(2002, 1, 5, 23, 59, 59) / 1000);
  });

  const typed: Array<{ name: string; pairs: Pairs; request: object }> = [
    { name: 'Identify as its verb alone', pairs: q('verb=Identify'), request: { verb: 'Identify', args: {} } },
    {
      name: 'GetRecord with its identifier and metadataPrefix',
      pairs: q('verb=GetRecord&identifier=oai:a.b:c&metadataPrefix=oai_dc'),
      request: { verb: 'GetRecord', args: { identifier: 'oai:a.b:c', metadataPrefix: 'oai_dc' }, identifier: 'oai:a.b:c', metadataPrefix: 'oai_dc' },
    },
    { name: 'ListMetadataFormats without an identifier', pairs: q('verb=ListMetadataFormats'), request: { verb: 'ListMetadataFormats', args: {} } },
    {
      name: 'a first ListIdentifiers page with its selection',
      pairs: q('verb=ListIdentifiers&metadataPrefix=oai_dc&set=a&from=1970-01-02'),
      request: { verb: 'ListIdentifiers', args: { metadataPrefix: 'oai_dc', set: 'a', from: '1970-01-02' }, metadataPrefix: 'oai_dc', set: 'a', from: 86400 },
    },
    {
      name: 'a ListRecords continuation with its token only',
      pairs: q('verb=ListRecords&resumptionToken=t'),
      request: { verb: 'ListRecords', args: { resumptionToken: 't' }, resumptionToken: 't' },
    },
    { name: 'a first ListSets page without a token', pairs: q('verb=ListSets'), request: { verb: 'ListSets', args: {} } },
    {
      name: 'a ListSets continuation with its token',
      pairs: q('verb=ListSets&resumptionToken=t'),
      request: { verb: 'ListSets', args: { resumptionToken: 't' }, resumptionToken: 't' },
    },
  ];
  for (const c of typed) {
    it(`types ${c.name}`, () => {
      const r = parseRequest(c.pairs);
      if (!r.ok) throw new Error('refused');
      expect(r.request).to.deep.equal(c.request);
    });
  }

  it('keeps every argument as received for the request element', () => {
    const r = parseRequest(q('verb=ListRecords&metadataPrefix=oai_dc&set=a'));
    if (!r.ok) throw new Error('refused');
    expect(r.request.args).to.deep.equal({ metadataPrefix: 'oai_dc', set: 'a' });
  });

  it(`lists at most ${MAX_LISTED_ERRORS} errors for a request of thousands of bad arguments, the last saying how many more`, () => {
    const pairs = Array.from({ length: 9999 }, (_, i) => [`x${i}`, 'y'] as const);
    const r = parseRequest([['verb', 'Identify'], ...pairs]);
    if (r.ok) throw new Error('accepted');
    expect(r.errors).to.have.length(MAX_LISTED_ERRORS);
    expect(r.errors.at(-1)?.message).to.equal(
      `${9999 - MAX_LISTED_ERRORS + 1} more problems with the arguments were found; at most ${MAX_LISTED_ERRORS} are listed.`,
    );
  });

  it('lists every error when there are only a few', () => {
    const r = parseRequest(q('verb=ListRecords&a=1&b=2&from=x'));
    if (r.ok) throw new Error('accepted');
    expect(r.errors.map((e) => e.code)).to.deep.equal(['badArgument', 'badArgument', 'badArgument', 'badArgument']);
  });
});
