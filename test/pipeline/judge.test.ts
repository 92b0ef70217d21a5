import { expect } from 'chai';
import { dcIdentifiers } from '../../lib/xml/dc-identifiers';
import { isValidMetadataPrefix, isValidSetSpec, withAncestors } from '../../lib/model/header';
import { nonXmlChar } from '../../lib/model/text';
import { chainChecks, judgeRecords, setProblems, withMetadataIdentifiers } from '../../lib/pipeline/judge';

const DC = 'xmlns:dc="http://purl.org/dc/elements/1.1/"';

describe('record rules', function () {
  describe('nonXmlChar', function () {
    const cases: readonly { name: string; input: string; expected: ReturnType<typeof nonXmlChar> }[] = [
      { name: 'finds nothing in plain text', input: 'plain text, ünïcode, 😀', expected: null },
      { name: 'allows tab, line feed and carriage return', input: 'a\tb\nc\rd', expected: null },
      { name: 'finds a C0 control with its offset', input: 'a\u0007b', expected: { codePoint: 'U+0007', offset: 1 } },
      { name: 'finds U+FFFE', input: 'xy\uFFFE', expected: { codePoint: 'U+FFFE', offset: 2 } },
      { name: 'finds a lone high surrogate', input: 'a\uD800', expected: { codePoint: 'U+D800', offset: 1 } },
      { name: 'finds a lone low surrogate', input: '\uDC00a', expected: { codePoint: 'U+DC00', offset: 0 } },
    ];
    for (const c of cases) it(c.name, () => expect(nonXmlChar(c.input)).to.deep.equal(c.expected));
  });

  describe('setSpec and metadataPrefix', function () {
    const cases: readonly { name: string; ok: boolean; value: string; test: (s: string) => boolean }[] = [
      { name: 'accepts a hierarchical setSpec', ok: true, value: 'a:b-c:d_e', test: isValidSetSpec },
      { name: 'refuses an empty level in a setSpec', ok: false, value: 'a::b', test: isValidSetSpec },
      { name: 'refuses a space in a setSpec', ok: false, value: 'a b', test: isValidSetSpec },
      { name: 'accepts oai_dc as a metadataPrefix', ok: true, value: 'oai_dc', test: isValidMetadataPrefix },
      { name: 'refuses a colon in a metadataPrefix', ok: false, value: 'a:b', test: isValidMetadataPrefix },
    ];
    for (const c of cases) it(c.name, () => expect(c.test(c.value)).to.equal(c.ok));

    it('lists a set with its ancestors, most general first', () => expect(withAncestors('a:b:c')).to.deep.equal(['a', 'a:b', 'a:b:c']));
  });

  describe('dcIdentifiers', function () {
    const cases: readonly { name: string; xml: string; expected: string[] }[] = [
      {
        name: 'reads every dc:identifier in document order',
        xml: `<r ${DC}><dc:identifier>u:1</dc:identifier><dc:title>t</dc:title><dc:identifier>u:2</dc:identifier></r>`,
        expected: ['u:1', 'u:2'],
      },
      {
        name: 'resolves the namespace whatever its prefix',
        xml: '<r xmlns:x="http://purl.org/dc/elements/1.1/"><x:identifier>u:1</x:identifier></r>',
        expected: ['u:1'],
      },
      { name: 'reads a default namespace', xml: '<identifier xmlns="http://purl.org/dc/elements/1.1/">u:1</identifier>', expected: ['u:1'] },
      { name: 'ignores an identifier element of another namespace', xml: '<r xmlns:dc="urn:other"><dc:identifier>u:1</dc:identifier></r>', expected: [] },
      {
        name: 'ignores a prefix rebound in a child',
        xml: `<r ${DC}><s xmlns:dc="urn:other"><dc:identifier>u:1</dc:identifier></s><dc:identifier>u:2</dc:identifier></r>`,
        expected: ['u:2'],
      },
      { name: 'decodes references and CDATA', xml: `<r ${DC}><dc:identifier>a&amp;b&#x3C;<![CDATA[<c>]]></dc:identifier></r>`, expected: ['a&b<<c>'] },
      { name: 'takes the text of children too, as XPath string values do', xml: `<r ${DC}><dc:identifier>a<b>b</b>c</dc:identifier></r>`, expected: ['abc'] },
      { name: 'reads an empty element as an empty value', xml: `<r ${DC}><dc:identifier/></r>`, expected: [''] },
      {
        name: 'skips comments and processing instructions',
        xml: `<r ${DC}><!-- <dc:identifier>no</dc:identifier> --><?pi x?><dc:identifier>u:1</dc:identifier></r>`,
        expected: ['u:1'],
      },
    ];
    for (const c of cases) it(c.name, () => expect(dcIdentifiers(c.xml)).to.deep.equal(c.expected));
  });
});

describe('the write gate, stages 1 and 2', function () {
  const now = 1_700_000_000;

  it('passes a sound record on with the identifiers of its metadata added after its own, without repeats', () => {
    const xml = `<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" ${DC}><dc:identifier>u:1</dc:identifier><dc:identifier>u:2</dc:identifier></oai_dc:dc>`;
    const judged = judgeRecords([{ internalId: 'a', metadata: { oai_dc: xml }, identifiers: ['u:2'], written: [] }], now);
    expect(judged.refusals).to.deep.equal([[]]);
    expect(judged.passed.map((p) => p.item.identifiers)).to.deep.equal([['u:2', 'u:1']]);
  });

  it('does not judge the metadata of a record the record rules refused', () => {
    const judged = judgeRecords([{ internalId: 'a', metadata: { oai_dc: '<x>' }, sets: ['a b'], written: [] }], now);
    expect(judged.refusals[0]?.map((r) => r.field)).to.deep.equal(['sets']);
    expect(judged.passed).to.have.length(0);
  });

  it('refuses a prefix that has no check when checks are given', () => {
    const judged = judgeRecords([{ internalId: 'a', metadata: { x: '<x/>' }, written: [] }], now, { get: () => undefined });
    expect(judged.refusals[0]?.[0]).to.include({ field: 'metadata.x', reason: 'unknown metadataPrefix (not in the format registry)' });
  });

  it('still requires one well-formed element when a format check accepts the XML', () => {
    const judged = judgeRecords([{ internalId: 'a', metadata: { x: '<x/><y/>' }, written: [] }], now, { get: () => ({ check: (xml) => xml.map(() => []) }) });
    expect(judged.refusals[0]?.[0]?.reason).to.match(/^the metadata is not one well-formed XML element/);
  });

  it('leaves a deleted record without identifiers from metadata', () => {
    const item = { internalId: 'a', deleted: true, metadata: {}, written: [] };
    expect(withMetadataIdentifiers(item)).to.equal(item);
  });

  it('names every problem of set declarations', () => {
    expect(
      setProblems([
        { spec: 'a b', name: ' ' },
        { spec: 'c', name: 'C', descriptions: ['<x>'] },
      ]),
    ).to.deep.equal([
      'set "a b": not a valid setSpec',
      'set "a b": the name is empty',
      'set "c": a description is not one well-formed XML element: <x> is not closed',
    ]);
  });
});

describe('chained format checks', function () {
  const refuseTagged = (tag: string) => ({ check: (xml: readonly string[]) => xml.map((x) => (x.includes(tag) ? [`has ${tag}`] : [])) });
  const first = { get: (p: string) => (p === 'a' ? refuseTagged('<x') : undefined) };
  const second = { get: (p: string) => (p === 'a' || p === 'b' ? { ...refuseTagged('<y'), identifiers: () => ['u:1'] } : undefined) };
  const chained = chainChecks(first, second);

  it('knows only the prefixes the first checks know', () => {
    expect(chained.get('a')).to.not.equal(undefined);
    expect(chained.get('b')).to.equal(undefined);
  });

  it('gives each record the reasons of the first check that refused it, and runs later checks only on what passed', () => {
    expect(chained.get('a')?.check(['<x/>', '<y/>', '<z/>', '<x><y/></x>'])).to.deep.equal([['has <x'], ['has <y'], [], ['has <x']]);
  });

  it('takes the identifiers from the first check that extracts them', () => {
    expect(chained.get('a')?.identifiers?.('<z/>')).to.deep.equal(['u:1']);
  });
});
