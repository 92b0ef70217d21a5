import { expect } from 'chai';
import fc from 'fast-check';
import { isNotOffered, type CrosswalkContext } from '../../lib/formats/format';
import { BUILT_IN_FORMATS } from '../../lib/formats/registry';
import { parseRecordFields } from '../../lib/model/from-json';
import { findNonXmlChar } from '../../lib/model/text';
import { parseFragment, type XmlElement, type XmlNode } from '../../lib/xml/tree';
import { SHAPES } from '../fixtures/formats/records';
import { fixtureRoot, metadataRoots } from '../helpers/xml-fixtures';

// Readers are total: any well-formed XML gives a record, never an exception, and the record is one the
// NDJSON record format accepts. Real records and the writers' own output are mutated at random (text and
// attribute values replaced by odd ones, elements dropped, repeated or renamed), so that every path of a
// reader meets values of every shape in the structure it expects.

const VALUES = [
  'DOI',
  'URN',
  'HANDLE',
  'PURL',
  'ISBN',
  'ORCID',
  'ROR',
  'Personal',
  'Organizational',
  'Issued',
  'Accepted',
  'Available',
  'Funder',
  'Editor',
  'IsPartOf',
  'References',
  'Text',
  'Dataset',
  'Film',
  'alternative',
  'personal',
  'corporate',
  'code',
  'text',
  'creator',
  'fnd',
  'aut',
  'host',
  'original',
  'raw object',
  'restriction on access',
  'use and reproduction',
  'marcgt',
  'yes',
  '0',
  '1',
  '7',
  '8',
  'a',
  'u',
  'q',
  's',
  'x',
  'z',
  'o',
  '020',
  '024',
  '041',
  '100',
  '245',
  '264',
  '506',
  '540',
  '655',
  '720',
  '773',
  '787',
  '856',
  '10.1234/x',
  'doi:nope',
  'https://orcid.org/0000-0002-1825-0097',
  '0000-0002-1825-0098',
  'https://ror.org/04wxnsj81',
  '2030-01-31',
  '2003-04-15T10:18:51Z',
  '2021-02-30',
  'en_US',
  'English',
  'http://purl.org/coar/access_right/c_f1cf',
  'http://purl.org/coar/access_right/c_abf2',
  'http://purl.org/coar/resource_type/c_6501',
  'http://purl.org/coar/resource_type/c_zz99',
  'https://creativecommons.org/licenses/by/4.0/',
  'info:eu-repo/semantics/openAccess',
  'application/pdf',
  'PDF',
  '2048',
  '-1',
  'ISSN 0317-8471',
  'http://hdl.handle.net/1765/315',
  'x until 2030-01-31',
  '01234nam a2200289 a 4500',
  '',
  ' ',
  '\n  ',
  'Etzioni, Amitai.',
  'Title /',
  'a\r\nb',
  '&amp;<>',
];

const CTX: CrosswalkContext = {
  oaiIdentifier: 'oai:example.org:p',
  poi: 'http://purl.org/poi/example.org/p',
  options: { datacentreSymbol: 'X.Y', dataProvider: 'Example Museum', provider: 'Example Aggregator' },
};

/** Real records and the writers' output for every shape of record, as trees, by format. */
function bases(prefix: string): XmlElement[] {
  const format = BUILT_IN_FORMATS.find((f) => f.prefix === prefix)!;
  const written = SHAPES.flatMap((s) => {
    const parsed = parseRecordFields(s.record, { internalId: 'p' });
    if ('refusals' in parsed) return [];
    const out = format.fromRecord ? format.fromRecord(parsed.fields, CTX) : format.fromDublinCore!(parsed.fields.dc);
    return isNotOffered(out) ? [] : [parseFragment(out)!];
  });
  const given: Record<string, () => XmlElement[]> = {
    oai_dc: () => [...metadataRoots('readers', 'oai_dc', 'pyoai-fake1_00004.xml'), ...metadataRoots('readers', 'oai_dc', 'sickle-ListRecords.xml')],
    datacite: () =>
      ['datacite.xml', 'datacite_dataset.xml', 'datacite-funderIdentifier.xml', 'datacite-example-affiliation.xml', 'datacite_journal_article.xml'].map((f) =>
        fixtureRoot('readers', 'datacite', f),
      ),
    oai_openaire: () => ['sample_journalarticle1.xml', 'sample_minimal.xml', 'invalid-mocksample.xml'].map((f) => fixtureRoot('formats', 'openaire', f)),
    marc21: () => metadataRoots('readers', 'marc21', 'alma-marc21-ListRecords.xml'),
    edm: () => ['Item_35834473.xml', 'europeana_record_edm_external_sorted.xml'].map((f) => fixtureRoot('formats', 'edm', f)),
  };
  return [...written, ...(given[prefix]?.() ?? [])];
}

/** A small deterministic generator of decisions, from a seed fast-check chooses. */
function decisions(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

/** The tree with about one node in `rate` changed. */
function mutate(e: XmlElement, pick: (n: number) => number, rate: number): XmlElement {
  const odd = (): string => VALUES[pick(VALUES.length)]!;
  const attrs = new Map(e.attrs);
  for (const k of attrs.keys()) if (pick(rate) === 0) attrs.set(k, odd());
  const siblings = e.children.filter((c): c is XmlElement => c.kind === 'element').map((c) => c.local);
  const children: XmlNode[] = [];
  for (const c of e.children) {
    if (c.kind === 'text') {
      children.push(pick(rate) === 0 ? { kind: 'text', text: odd() } : c);
      continue;
    }
    const roll = pick(rate * 2);
    if (roll === 0) continue; // dropped
    const m = mutate(c, pick, rate);
    children.push(roll === 1 ? { ...m, local: siblings[pick(siblings.length)] ?? m.local } : m);
    if (roll === 2) children.push(mutate(c, pick, rate)); // repeated
  }
  return { ...e, attrs, children };
}

describe('readers are total', () => {
  for (const format of BUILT_IN_FORMATS) {
    it(`${format.prefix}: real and written records, mutated at random, give records the record format accepts, never an exception`, () => {
      const trees = bases(format.prefix);
      expect(trees.length, 'base records').to.be.greaterThan(0);
      fc.assert(
        fc.property(fc.nat(trees.length - 1), fc.integer(), fc.integer({ min: 2, max: 8 }), (i, seed, rate) => {
          const tree = mutate(trees[i]!, decisions(seed), rate);
          const r = format.read!(tree);
          for (const v of JSON.stringify(r).match(/"(?:[^"\\]|\\.)*"/g) ?? []) expect(findNonXmlChar(JSON.parse(v) as string)).to.equal(null);
          const again = parseRecordFields({ id: 'p', ...JSON.parse(JSON.stringify(r)) } as Record<string, unknown>, { internalId: 'p' });
          expect(again, JSON.stringify(r)).to.deep.equal({ fields: r });
        }),
        { numRuns: 400 },
      );
    });
  }
});
