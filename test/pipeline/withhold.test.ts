/**
 * Tolerant where it costs nothing, decided without a database but with the
 * formats' XSD checks: CERN CDS's MARCXML (field 690 with indicator `C`,
 * which LoC's MARC21slim.xsd refuses) is lifted and served in every format
 * written from its model, its XML kept but not served, with a note naming
 * the record and the schema's reason; XML no reader reads is refused by its
 * schema as before, and so is a record refused for anything else.
 */
import path from 'node:path';
import { expect } from 'chai';
import { decideBatch, type StoredState } from '../../lib/pipeline/decide';
import { withholdable } from '../../lib/pipeline/withhold';
import { BUILT_IN_FORMATS, createFormatRegistry, registryFromDeclarations, type FormatRegistry } from '../../lib/formats/registry';
import { createIdPolicy } from '../../lib/ids/policy';
import type { ItemInput } from '../../lib/store';
import type { RecordFields } from '../../lib/model/record';
import { parseFragment, type XmlElement } from '../../lib/xml/tree';
import { openInput } from '../../server/loader/input';
import { readInput } from '../../server/loader/read-inputs';
import { createXsdChecks } from '../../server/xsd/format-checks';
import { TEST_NAMESPACE } from '../helpers/db';
import { assertValid } from '../helpers/xsd';

const MARC_NS = 'http://www.loc.gov/MARC21/slim';
const ROOT = path.join(__dirname, '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'readers');
const NOW = 1_800_000_000;
const policy = createIdPolicy({ namespace: TEST_NAMESPACE });
const EMPTY: StoredState = {
  items: new Map(),
  byIdentifier: new Map(),
  registryByIdentifier: new Map(),
  registryByInternalId: new Map(),
  harvested: new Set(),
};

/** oai_dc and `marcxml` declared with MARCXML's namespace and LoC's XSD, as Invenio serves it. */
const WITH_MARCXML = registryFromDeclarations([
  { prefix: 'oai_dc', kind: 'builtin', options: {} },
  {
    prefix: 'marcxml',
    kind: 'declared',
    namespace: MARC_NS,
    schema: 'http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd',
    xsd: path.join(ROOT, 'schemas', 'marcxml', 'MARC21slim.xsd'),
    options: {},
  },
]);
/** Every built-in format: CDS's records come as marc21, the format of their namespace. */
const BUILT_IN = createFormatRegistry(BUILT_IN_FORMATS);

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

function decide(items: readonly ItemInput[], formats: FormatRegistry): ReturnType<typeof decideBatch> {
  return decideBatch(items, EMPTY, {
    preparation: { formats, policy },
    formatChecks: createXsdChecks(formats),
    tombstonePrefixes: ['oai_dc'],
    now: NOW,
  });
}

/** The text of each element `local` of the Dublin Core namespace in an oai_dc record. */
function dc(xml: string | null | undefined, local: string): string[] {
  const root = parseFragment(xml ?? '');
  const texts = (e: XmlElement): string => e.children.map((c) => (c.kind === 'text' ? c.text : texts(c))).join('');
  return (root?.children ?? []).filter((c): c is XmlElement => c.kind === 'element' && c.local === local).map(texts);
}

describe('a record whose given XML only its schema refuses', () => {
  it("keeps CERN CDS's GetRecord under marcxml: lifted, served in oai_dc, its MARCXML kept but not served, with a note naming record and reason", async () => {
    const items = await itemsOf('marcxml/cds-single.xml', WITH_MARCXML);
    const plan = decide(items, WITH_MARCXML);
    expect(plan.refusals).to.deep.equal([]);
    const p = plan.planned[0];
    expect(p?.identifier).to.equal(policy.map('oai:cds.cern.ch:2653609').identifier);
    expect([...(p?.records.keys() ?? [])]).to.deep.equal(['oai_dc']);
    expect(dc(p?.records.get('oai_dc'), 'title')).to.deep.equal(['Photon and jet probes of small collision systems with ATLAS']);
    expect(dc(p?.records.get('oai_dc'), 'creator')).to.deep.equal(['The ATLAS collaboration', 'Spousta, Martin']);
    assertValid(p?.records.get('oai_dc') ?? '');
    expect(p?.input.liftedFrom).to.equal('marcxml');
    expect(p?.input.withheld?.map((w) => w.prefix)).to.deep.equal(['marcxml']);
    expect(p?.input.withheld?.[0]?.xml).to.equal(items[0]?.metadata.marcxml);
    expect(p?.input.withheld?.[0]?.reason).to.match(/ind1/).and.match(/'C'/);
    expect(p?.input.notes).to.have.length(1);
    expect(p?.input.notes?.[0]?.text)
      .to.include('record "oai:cds.cern.ch:2653609"')
      .and.include("its marcxml is not valid against that format's schema")
      .and.include('ind1')
      .and.include('served in oai_dc, written from the model read from it');
  });

  it("writes CDS's ListRecords page in every built-in format, marc21 from the model, each valid, the given MARCXML withheld", async () => {
    const items = await itemsOf('marcxml/cds-cerncds-hep-th.xml', BUILT_IN);
    const plan = decide(items, BUILT_IN);
    expect(plan.refusals).to.deep.equal([]);
    expect(plan.planned.map((p) => p.input.internalId)).to.deep.equal(['oai:cds.cern.ch:329074', 'oai:cds.cern.ch:428218']);
    const checks = createXsdChecks(BUILT_IN);
    for (const p of plan.planned) {
      expect(p.input.withheld?.map((w) => w.prefix)).to.deep.equal(['marc21']);
      for (const [prefix, xml] of p.records) expect(checks.get(prefix)?.check([xml ?? '']), `${p.input.internalId} ${prefix}`).to.deep.equal([[]]);
      expect(p.input.written).to.include('marc21').and.include('oai_dc');
      expect(p.records.get('marc21')).to.not.equal(p.input.withheld?.[0]?.xml);
      expect(p.records.get('marc21')).to.not.match(/ind1="C"/);
    }
    expect(dc(plan.planned[0]?.records.get('oai_dc'), 'title')).to.deep.equal([
      'Lectures on Heterotic-Type I Duality',
      'Lectures on heterotic-type I duality.',
    ]);
    expect(dc(plan.planned[1]?.records.get('oai_dc'), 'creator')).to.deep.equal(['Alishahiha, Mohsen']);
  });

  it('refuses XML no reader reads by its schema as before: nothing of it reaches a model', () => {
    const formats = registryFromDeclarations([
      { prefix: 'oai_dc', kind: 'builtin', options: {} },
      {
        prefix: 'marcxml',
        kind: 'declared',
        namespace: 'urn:example:not-marc',
        schema: 'http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd',
        xsd: path.join(ROOT, 'schemas', 'marcxml', 'MARC21slim.xsd'),
        options: {},
      },
    ]);
    const item: ItemInput = { internalId: 'x1', source: 'x.ndjson:1', metadata: { marcxml: '<record xmlns="urn:example:not-marc"><title>T</title></record>' } };
    const plan = decide([item], formats);
    expect(plan.planned).to.deep.equal([]);
    expect(plan.refusals.map((r) => [r.internalId, r.source, r.field])).to.deep.equal([['x1', 'x.ndjson:1', 'metadata.marcxml']]);
  });

  it('refuses a record refused for anything besides its schema, with every reason', async () => {
    const [item] = await itemsOf('marcxml/cds-single.xml', WITH_MARCXML);
    const plan = decide([{ ...(item as ItemInput), sets: ['not a setSpec'] }], WITH_MARCXML);
    expect(plan.planned).to.deep.equal([]);
    expect(plan.refusals.map((r) => r.field)).to.deep.equal(['sets']);
  });

  it("refuses Alma's MARCXML whose leader lost its runs of spaces: Leader/06 is the record's type, which the model reads", async () => {
    const file = path.join(FIXTURES, 'marc21', 'alma-marc21-ListRecords.xml');
    const counter = { bytesRead: 0 };
    const items: ItemInput[] = [];
    for await (const ev of readInput(await openInput(file, process.stdin, counter), { policy, formats: BUILT_IN, counter })) {
      if (ev.kind === 'record' && 'item' in ev.result) items.push(ev.result.item);
    }
    expect(items.length).to.be.greaterThan(0);
    const plan = decide(items, BUILT_IN);
    expect(plan.planned).to.deep.equal([]);
    expect(plan.refusals.length).to.be.greaterThan(0);
    for (const r of plan.refusals) expect([r.field, r.reason]).to.satisfy(([f, why]: string[]) => f === 'metadata.marc21' && /leader/.test(why ?? ''));
  });

  /** A MARCXML record with the title `T` and field 690's first indicator `ind1`. */
  const marc = (ind1: string, title = 'T'): string =>
    `<marc:record xmlns:marc="${MARC_NS}"><marc:leader>00000nam a2200000 a 4500</marc:leader>` +
    `<marc:datafield tag="245" ind1="0" ind2="0"><marc:subfield code="a">${title}</marc:subfield></marc:datafield>` +
    `<marc:datafield tag="690" ind1="${ind1}" ind2=" "><marc:subfield code="a">Physics</marc:subfield></marc:datafield></marc:record>`;
  const checks = createXsdChecks(WITH_MARCXML);
  const cases: { name: string; xml: string; refusals: { field: string; reason: string }[]; schema: string[]; fields?: RecordFields; want: string[] | null }[] =
    [
      {
        name: 'an indicator outside the pattern, refused by the schema alone, is withheld',
        xml: marc('C'),
        refusals: [{ field: 'metadata.marcxml', reason: 'r' }],
        schema: ['marcxml'],
        want: ['marcxml'],
      },
      { name: 'a refusal the schema did not give is not', xml: marc('C'), refusals: [{ field: 'metadata.marcxml', reason: 'r' }], schema: [], want: null },
      { name: 'a refusal of another field is not', xml: marc('C'), refusals: [{ field: 'sets', reason: 'r' }], schema: ['marcxml'], want: null },
      {
        name: 'a schema error blanking the unread does not mend is not (an unknown element)',
        xml: marc('C').replace('</marc:record>', '<marc:colour>red</marc:colour></marc:record>'),
        refusals: [{ field: 'metadata.marcxml', reason: 'r' }],
        schema: ['marcxml'],
        want: null,
      },
      {
        name: 'a model that says nothing is not',
        xml: marc('C'),
        refusals: [{ field: 'metadata.marcxml', reason: 'r' }],
        schema: ['marcxml'],
        fields: { dc: {} },
        want: null,
      },
    ];
  for (const c of cases) {
    it(c.name, () => {
      const item = { internalId: 'a', metadata: { marcxml: c.xml }, written: ['oai_dc'], fields: c.fields ?? { dc: { title: ['T'] } } };
      const got = withholdable(
        item,
        c.refusals.map((r) => ({ internalId: 'a', ...r })),
        c.schema,
        checks,
      );
      expect(got === null ? null : [...got.keys()]).to.deep.equal(c.want);
    });
  }
});
