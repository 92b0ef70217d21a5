/**
 * The lines of a dump's JSON lines file (lib/dump/line.ts), read back: what
 * the write pipeline is given for each kind of item, and the refusals of a
 * line that is wrong, each naming the field; and the judge's rule for the
 * departures a line gives.
 */
import { expect } from 'chai';
import { BUILT_IN_FORMATS, createFormatRegistry } from '../../lib/formats/registry';
import { createIdPolicy } from '../../lib/ids/policy';
import { dumpLineToItem, itemLine, isDumpItemLine, isDumpSetLine } from '../../lib/dump/line';
import { judgeRecords } from '../../lib/pipeline/judge';
import { prepareItem } from '../../lib/pipeline/prepare';
import type { ItemInput } from '../../lib/store';

const formats = createFormatRegistry(BUILT_IN_FORMATS);
const policy = createIdPolicy({ namespace: 'repo.example.org' });
const ctx = { formats, unmap: (i: string) => policy.unmap(i) };
const DC =
  '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title></oai_dc:dc>';
const MARC = '<record xmlns="http://www.loc.gov/MARC21/slim"><leader>00000nam a2200000 a 4500</leader></record>';

/** A live line giving its model, and the changes a case makes to it. */
function line(changes: Record<string, unknown> = {}, header: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'r 1',
    header: { identifier: 'oai:repo.example.org:r%201', datestamp: '2025-01-01T00:00:00Z', deleted: false, sets: ['a:b'], ...header },
    model: { dc: { title: ['T'] } },
    modelFrom: 'record',
    given: ['marc21'],
    metadata: { oai_dc: DC, marc21: MARC },
    about: [],
    ...changes,
  };
}

function item(v: unknown): ItemInput {
  const r = dumpLineToItem(v, ctx, 'd.jsonl.gz:2');
  if ('refusals' in r) throw new Error(JSON.stringify(r.refusals));
  return r.item;
}

describe('a dump line read back', () => {
  it('gives the model and the XML the record gave; the pipeline writes the rest', () => {
    const i = item(line());
    expect(i.fields).to.deep.equal({ dc: { title: ['T'] } });
    expect(i.metadata).to.deep.equal({ marc21: MARC });
    expect(i.datestamp).to.equal(Date.UTC(2025, 0, 1) / 1000);
    expect(i.sets).to.deep.equal(['a:b']);
  });

  it("keeps a harvested item its source's: the line's origin is the source whose harvest writes it", () => {
    const harvested = {
      id: 'src:oai:x.org:1',
      header: { identifier: 'oai:repo.example.org:src:oai:x.org:1', datestamp: '2025-01-01T00:00:00Z', deleted: false, sets: [] },
    };
    expect(item(line({ ...harvested, origin: 'src' })).harvestedFrom).to.equal('src');
    expect(item(line()).harvestedFrom).to.equal(undefined);
    const wrong = dumpLineToItem(line({ ...harvested, origin: 'other' }), ctx, 'd.jsonl.gz:2');
    expect('refusals' in wrong && wrong.refusals.map((r) => r.field)).to.deep.equal(['origin']);
  });

  it("keeps the datestamps of records earlier than their item's, and refuses one later than it", () => {
    const i = item(line({ datestamps: { oai_dc: '2024-06-01T00:00:00Z' } }));
    expect(i.formatDatestamps).to.deep.equal({ oai_dc: Date.UTC(2024, 5, 1) / 1000 });
    const later = dumpLineToItem(line({ datestamps: { oai_dc: '2026-01-01T00:00:00Z' } }), ctx, 'd.jsonl.gz:2');
    expect('refusals' in later && later.refusals.map((r) => r.field)).to.deep.equal(['datestamps.oai_dc']);
    const scanned = {
      pk: 1,
      internalId: 'r 1',
      identifier: 'oai:repo.example.org:r%201',
      datestamp: Date.UTC(2025, 0, 1) / 1000,
      deleted: false,
      sets: [],
      metadata: { oai_dc: DC },
      formatDatestamps: { oai_dc: Date.UTC(2024, 5, 1) / 1000 },
    };
    expect(itemLine(scanned).datestamps).to.deep.equal({ oai_dc: '2024-06-01T00:00:00Z' });
  });

  it('writes the origin of a harvested item, and none for a local one', () => {
    const scanned = {
      pk: 1,
      internalId: 'src:oai:x.org:1',
      identifier: 'oai:repo.example.org:src:oai:x.org:1',
      datestamp: 0,
      deleted: false,
      sets: [],
      metadata: { oai_dc: DC },
    };
    expect(itemLine({ ...scanned, origin: 'src' }).origin).to.equal('src');
    expect(itemLine({ ...scanned, deleted: true, origin: 'src' }).origin).to.equal('src');
    expect(itemLine(scanned)).to.not.have.property('origin');
  });

  it('gives a model lifted from XML the record gave as that XML alone, to be lifted again', () => {
    const i = item(line({ modelFrom: 'oai_dc', given: ['oai_dc'] }));
    expect(i.fields).to.equal(undefined);
    expect(i.metadata).to.deep.equal({ oai_dc: DC });
  });

  it('gives a model lifted from XML the store does not keep with every format as served', () => {
    const i = item(line({ modelFrom: '{http://datacite.org/schema/kernel-3}', given: [] }));
    expect(i.fields).to.deep.equal({ dc: { title: ['T'] } });
    expect(i.metadata).to.deep.equal({ oai_dc: DC, marc21: MARC });
  });

  it('gives a tombstone with the formats it is listed under, its sets and its departures', () => {
    const i = item({
      id: 'r 1',
      header: { identifier: 'oai:repo.example.org:r%201', datestamp: '2025-01-01T00:00:00Z', deleted: true, sets: ['a'] },
      formats: ['marc21', 'oai_dc'],
      departures: [{ spec: 'b', at: '2024-12-01T00:00:00Z' }],
    });
    expect(i.deleted).to.equal(true);
    expect(i.metadata).to.deep.equal({ marc21: '', oai_dc: '' });
    expect(i.departures).to.deep.equal([{ spec: 'b', at: Date.UTC(2024, 11, 1) / 1000 }]);
  });

  it('is told from a record of the record format and from a set line', () => {
    expect(isDumpItemLine(line())).to.equal(true);
    expect(isDumpItemLine({ id: 'r 1', dc: { title: 'T' } })).to.equal(false);
    expect(isDumpSetLine({ set: { spec: 'a', name: 'A' } })).to.equal(true);
    expect(isDumpSetLine(line())).to.equal(false);
  });

  const refused: readonly { name: string; value: Record<string, unknown>; field: string }[] = [
    { name: 'an identifier the policy would not publish the id as', value: line({}, { identifier: 'oai:other.org:r%201' }), field: 'header.identifier' },
    { name: 'a datestamp of day granularity', value: line({}, { datestamp: '2025-01-01' }), field: 'header.datestamp' },
    { name: 'a deleted flag that is not a boolean', value: line({}, { deleted: 'no' }), field: 'header.deleted' },
    { name: 'an invalid setSpec', value: line({}, { sets: ['a b'] }), field: 'header.sets' },
    { name: 'a given format the metadata lacks', value: line({ given: ['mods'] }), field: 'given' },
    { name: 'metadata that is not text', value: line({ metadata: { oai_dc: 1 } }), field: 'metadata.oai_dc' },
    { name: 'a model the record format refuses', value: line({ model: { dc: { title: ['T'] }, publicationYear: 'soon' } }), field: 'model.publicationYear' },
    { name: 'a model without modelFrom', value: line({ modelFrom: undefined }), field: 'modelFrom' },
    { name: 'a tombstone listed under an unknown format', value: { ...line({}, { deleted: true }), formats: ['nope'] }, field: 'formats' },
    { name: 'a departure without a second-granularity time', value: line({ departures: [{ spec: 'c', at: '2024' }] }), field: 'departures[0].at' },
    { name: 'an about container that is not an object', value: line({ about: ['<x/>'] }), field: 'about[0]' },
  ];
  for (const c of refused) {
    it(`refuses ${c.name}, naming the field`, () => {
      const r = dumpLineToItem(c.value, ctx, 'd.jsonl.gz:2');
      expect('refusals' in r, JSON.stringify(r)).to.equal(true);
      if ('refusals' in r) {
        expect(r.refusals.map((x) => x.field)).to.include(c.field);
        expect(r.refusals.every((x) => x.source === 'd.jsonl.gz:2' && x.internalId === 'r 1')).to.equal(true);
      }
    });
  }

  it('writes a line that reads back as the item it was', () => {
    const l = itemLine(
      {
        pk: 1,
        internalId: 'r 1',
        identifier: 'oai:repo.example.org:r%201',
        datestamp: 1735689600,
        deleted: false,
        sets: ['a:b'],
        metadata: { oai_dc: DC, marc21: MARC },
        fields: { dc: { title: ['T'] } },
        written: ['oai_dc'],
        about: [{ xml: '<x xmlns="urn:x"/>', compareAs: 'x' }],
      },
      [{ spec: 'c', at: 1735000000 }],
    );
    expect(l.given).to.deep.equal(['marc21']);
    const i = item(JSON.parse(JSON.stringify(l)));
    expect(i.metadata).to.deep.equal({ marc21: MARC });
    expect(i.about).to.deep.equal([{ xml: '<x xmlns="urn:x"/>', compareAs: 'x' }]);
    expect(i.departures).to.deep.equal([{ spec: 'c', at: 1735000000 }]);
  });
});

describe('departures the pipeline is given', () => {
  const preparation = { formats, policy };
  const judged = (departures: ItemInput['departures'], sets = ['a:b']) =>
    judgeRecords(
      [
        prepareItem(
          { internalId: 'r 1', datestamp: 1000, sets, metadata: {}, fields: { dc: { title: ['T'] } }, ...(departures && { departures }) },
          preparation,
        ),
      ],
      2000,
    ).refusals[0] ?? [];

  it('passes a departure from a set the item is not in, no later than its datestamp', () => expect(judged([{ spec: 'c', at: 1000 }])).to.deep.equal([]));
  it('refuses a departure from a set the item is in, through a descendant too', () =>
    expect(judged([{ spec: 'a', at: 900 }]).map((r) => r.field)).to.deep.equal(['departures[0]']));
  it("refuses a departure after the item's datestamp", () =>
    expect(judged([{ spec: 'c', at: 1001 }]).map((r) => r.reason)).to.deep.equal(["the departure lies after the record's datestamp"]));
  it('refuses a departure from an invalid setSpec', () => expect(judged([{ spec: 'a b', at: 10 }]).map((r) => r.field)).to.deep.equal(['departures[0]']));
});
