/**
 * Readers chosen by namespace, whatever the prefix, and no item without
 * oai_dc, decided without a database: CERN CDS's OAI-PMH responses in
 * `metadataPrefix="marcxml"` (Invenio's name for MARCXML), read as the
 * loader reads them, planned by the write decision. The formats' XSD checks
 * are left out here (the loader's tests run them): the decision alone says
 * which reader lifts what, under which prefix it is kept, and what oai_dc it
 * gets.
 */
import path from 'node:path';
import { expect } from 'chai';
import { decideBatch, type StoredState } from '../../lib/pipeline/decide';
import { oaiDcRefusals } from '../../lib/pipeline/judge';
import { liftFields } from '../../lib/pipeline/lift';
import { readerOf } from '../../lib/formats/readers';
import { BUILT_IN_FORMATS, createFormatRegistry, registryFromDeclarations, type FormatRegistry } from '../../lib/formats/registry';
import { createIdPolicy } from '../../lib/ids/policy';
import type { ItemInput } from '../../lib/store';
import { parseFragment, type XmlElement } from '../../lib/xml/tree';
import { openInput } from '../../server/loader/input';
import { readInput } from '../../server/loader/read-inputs';
import { givenPrefix } from '../../server/loader/xml-record';
import { TEST_NAMESPACE } from '../helpers/db';

const MARC_NS = 'http://www.loc.gov/MARC21/slim';
const DATACITE_NS = 'http://datacite.org/schema/kernel-4';
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'readers');
const NOW = 1_800_000_000;
const policy = createIdPolicy({ namespace: TEST_NAMESPACE });
const EMPTY: StoredState = {
  items: new Map(),
  byIdentifier: new Map(),
  registryByIdentifier: new Map(),
  registryByInternalId: new Map(),
  harvested: new Set(),
};

/** oai_dc and `marcxml` declared with MARCXML's namespace, as a repository would after reading the loader's advice. */
const WITH_MARCXML = registryFromDeclarations([
  { prefix: 'oai_dc', kind: 'builtin', options: {} },
  {
    prefix: 'marcxml',
    kind: 'declared',
    namespace: MARC_NS,
    schema: 'http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd',
    xsd: '/MARC21slim.xsd',
    options: {},
  },
]);
/** oai_dc and the built-in marc21 only: `marcxml` is not declared. */
const WITH_MARC21 = createFormatRegistry(BUILT_IN_FORMATS.filter((f) => f.prefix === 'oai_dc' || f.prefix === 'marc21'));

/** The items of a saved response as the loader reads them (its refusals fail the test). */
async function itemsOf(file: string, formats: FormatRegistry): Promise<ItemInput[]> {
  const counter = { bytesRead: 0 };
  const input = await openInput(path.join(FIXTURES, file), process.stdin, counter);
  const items: ItemInput[] = [];
  for await (const ev of readInput(input, { policy, formats, counter })) {
    if (ev.kind !== 'record') throw new Error(`unexpected ${ev.kind}`);
    if ('refusals' in ev.result) throw new Error(JSON.stringify(ev.result.refusals));
    items.push(ev.result.item);
  }
  return items;
}

/** The values of one Dublin Core element in an oai_dc record, in order. */
function dc(xml: string | null | undefined, element: string): string[] {
  const root = parseFragment(xml ?? '') as XmlElement;
  return root.children
    .filter((c): c is XmlElement => c.kind === 'element' && c.local === element)
    .map((c) => c.children.map((t) => (t.kind === 'text' ? t.text : '')).join(''));
}

describe('readers chosen by namespace, whatever the prefix', () => {
  it('finds the reader of a namespace among the built-in formats, and none for a namespace no reader knows', () => {
    expect(readerOf(MARC_NS)?.prefix).to.equal('marc21');
    expect(readerOf(DATACITE_NS)?.prefix).to.equal('datacite');
    expect(readerOf('http://datacite.org/schema/kernel-3')?.prefix).to.equal('datacite');
    expect(readerOf('urn:example:thesis-record')).to.equal(undefined);
  });

  describe('where a record of a response is stored', () => {
    const cases: { name: string; formats: FormatRegistry; request?: string; ns: string; want: { prefix?: string; reader?: string } }[] = [
      {
        name: 'under the prefix requested, when it is declared for that namespace',
        formats: WITH_MARCXML,
        request: 'marcxml',
        ns: MARC_NS,
        want: { prefix: 'marcxml' },
      },
      {
        name: 'under the offered format of its namespace, when the prefix requested is not offered',
        formats: WITH_MARC21,
        request: 'marcxml',
        ns: MARC_NS,
        want: { prefix: 'marc21' },
      },
      {
        name: 'read into the model only, when no offered format has its namespace but a reader reads it',
        formats: createFormatRegistry(),
        request: 'marcxml',
        ns: MARC_NS,
        want: { reader: 'marc21' },
      },
      {
        name: 'DataCite under an undeclared prefix, read into the model',
        formats: createFormatRegistry(),
        request: 'datacite4',
        ns: DATACITE_NS,
        want: { reader: 'datacite' },
      },
      {
        name: 'under the prefix requested, for a namespace no one reads (refused later as undeclared)',
        formats: WITH_MARC21,
        request: 'nsdl_dc',
        ns: 'http://ns.nsdl.org/nsdl_dc_v1.02/',
        want: { prefix: 'nsdl_dc' },
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const got = givenPrefix({ formats: c.formats, ...(c.request !== undefined && { requestPrefix: c.request }) }, c.ns);
        expect({ ...(got.prefix !== undefined && { prefix: got.prefix }), ...(got.reader !== undefined && { reader: got.reader.prefix }) }).to.deep.equal(
          c.want,
        );
      });
    }
  });

  describe("CERN CDS's GetRecord in marcxml, with marcxml declared", () => {
    it('is lifted by the MARC reader, kept as given under marcxml, and gets its oai_dc, field by field', async () => {
      const items = await itemsOf('marcxml/cds-single.xml', WITH_MARCXML);
      expect(items.map((i) => [i.internalId, Object.keys(i.metadata)])).to.deep.equal([['oai:cds.cern.ch:2653609', ['marcxml']]]);
      const plan = decideBatch(items, EMPTY, { preparation: { formats: WITH_MARCXML, policy }, tombstonePrefixes: ['oai_dc'], now: NOW });
      expect(plan.refusals).to.deep.equal([]);
      const p = plan.planned[0];
      expect(p?.input.liftedFrom).to.equal('marcxml');
      expect([...(p?.records.keys() ?? [])]).to.deep.equal(['marcxml', 'oai_dc']);
      expect(p?.records.get('marcxml')).to.equal(items[0]?.metadata.marcxml);
      expect(p?.input.written).to.deep.equal(['oai_dc']);
      const oaiDc = p?.records.get('oai_dc');
      expect(dc(oaiDc, 'title')).to.deep.equal(['Photon and jet probes of small collision systems with ATLAS']);
      expect(dc(oaiDc, 'creator')).to.deep.equal(['The ATLAS collaboration', 'Spousta, Martin']);
      expect(dc(oaiDc, 'subject')).to.deep.equal(['Particle Physics - Experiment', 'Physics', 'HEAVYIONS']);
      expect(dc(oaiDc, 'date')).to.deep.equal(['2019']);
      expect(dc(oaiDc, 'language')).to.deep.equal(['eng']);
      expect(dc(oaiDc, 'identifier')).to.deep.equal(['oai:cds.cern.ch:2653609', 'http://cds.cern.ch/record/2652830']);
      expect(dc(oaiDc, 'description')[0]).to.match(/^Recent results from p\+Pb collisions at the LHC/);
    });
  });

  describe("CERN CDS's ListRecords page in marcxml, with only marc21 offered", () => {
    it('stores each record as marc21, the format of its namespace, and writes its oai_dc from it', async () => {
      const items = await itemsOf('marcxml/cds-cerncds-hep-th.xml', WITH_MARC21);
      expect(items.map((i) => [i.internalId, Object.keys(i.metadata)])).to.deep.equal([
        ['oai:cds.cern.ch:329074', ['marc21']],
        ['oai:cds.cern.ch:428218', ['marc21']],
      ]);
      const plan = decideBatch(items, EMPTY, { preparation: { formats: WITH_MARC21, policy }, tombstonePrefixes: ['oai_dc'], now: NOW });
      expect(plan.refusals).to.deep.equal([]);
      const [first, second] = plan.planned.map((p) => p.records.get('oai_dc'));
      expect(dc(first, 'title')).to.deep.equal(['Lectures on Heterotic-Type I Duality', 'Lectures on heterotic-type I duality.']);
      expect(dc(first, 'creator')).to.deep.equal(['Antoniadis, Ignatios', 'Partouche, H.', 'Taylor, T.R.']);
      expect(dc(first, 'date')).to.deep.equal(['1998']);
      expect(dc(first, 'identifier')).to.include('https://doi.org/10.1016/S0920-5632(98)00114-5');
      expect(dc(first, 'language')).to.deep.equal(['eng']);
      expect(dc(second, 'title')).to.deep.equal(['On type II NS - five-branes in the presence of an R R field']);
      expect(dc(second, 'creator')).to.deep.equal(['Alishahiha, Mohsen']);
      expect(dc(second, 'date')).to.deep.equal(['2000']);
      expect(dc(second, 'identifier')).to.include('https://doi.org/10.1016/S0370-2693(00)00732-2');
    });
  });

  it('lifts the same model from MARCXML whether it is given as marc21 or under a declared prefix', async () => {
    const [asMarc21] = await itemsOf('marcxml/cds-single.xml', WITH_MARC21);
    const [asMarcxml] = await itemsOf('marcxml/cds-single.xml', WITH_MARCXML);
    const a = liftFields(asMarc21 as ItemInput, WITH_MARC21);
    const b = liftFields(asMarcxml as ItemInput, WITH_MARCXML);
    expect(a?.from).to.equal('marc21');
    expect(b?.from).to.equal('marcxml');
    expect(b?.fields).to.deep.equal(a?.fields);
  });
});

describe('no item without oai_dc', () => {
  const THESIS = registryFromDeclarations([
    { prefix: 'oai_dc', kind: 'builtin', options: {} },
    { prefix: 'thesis_rec', kind: 'declared', namespace: 'urn:example:thesis-record', schema: 'https://schemas.example.org/t.xsd', xsd: '/t.xsd', options: {} },
  ]);

  it('refuses a record that gives only a format no reader lifts, naming the record, its source, the format and its namespace', () => {
    const item: ItemInput = { internalId: 't1', source: 'theses.ndjson:1', metadata: { thesis_rec: '<thesisRecord xmlns="urn:example:thesis-record"/>' } };
    const plan = decideBatch([item], EMPTY, { preparation: { formats: THESIS, policy }, tombstonePrefixes: ['oai_dc'], now: NOW });
    expect(plan.planned).to.deep.equal([]);
    expect(plan.refusals).to.have.length(1);
    expect(plan.refusals[0]).to.include({ internalId: 't1', source: 'theses.ndjson:1', field: 'metadata', cause: 'no oai_dc from thesis_rec' });
    expect(plan.refusals[0]?.reason).to.include('thesis_rec (namespace urn:example:thesis-record)').and.include('OAI-PMH 2.0 section 3.4');
  });

  it('passes the same record when it gives its oai_dc beside it, or when an earlier write gave it', () => {
    const thesis = '<thesisRecord xmlns="urn:example:thesis-record"/>';
    const withDc: ItemInput = { internalId: 't1', metadata: { thesis_rec: thesis }, fields: { dc: { title: ['On lattices'] } } };
    expect(decideBatch([withDc], EMPTY, { preparation: { formats: THESIS, policy }, tombstonePrefixes: ['oai_dc'], now: NOW }).refusals).to.deep.equal([]);
    expect(oaiDcRefusals({ internalId: 't1', metadata: { thesis_rec: thesis, oai_dc: '<x/>' }, written: [] })).to.deep.equal([]);
    expect(oaiDcRefusals({ internalId: 't1', deleted: true, metadata: { thesis_rec: '' }, written: [] })).to.deep.equal([]);
  });
});
