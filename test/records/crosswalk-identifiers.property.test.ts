import { expect } from 'chai';
import fc from 'fast-check';
import { BUILT_IN_FORMATS, createFormatRegistry } from '../../lib/formats/registry';
import { createIdPolicy } from '../../lib/ids/policy';
import { poiFromOaiIdentifier } from '../../lib/ids/poi';
import { judgeRecords } from '../../lib/records/gate';
import { jsonToItem, type RecordConversion } from '../../lib/records/json-record';
import { dcIdentifiers } from '../../lib/xml/dc-identifiers';
import { findNonXmlChar } from '../../lib/model/text';

// The write gate does not read a crosswalk's output back for identifiers (ItemInput.derived):
// these hold the crosswalk to naming every one it writes, so governance still judges them all.

const policy = createIdPolicy({ namespace: 'example.org' });
const conversion: RecordConversion = {
  formats: createFormatRegistry(BUILT_IN_FORMATS),
  extraIdentifiers: (id) => [poiFromOaiIdentifier(policy.map(id).identifier)],
  itemIdentifiers: (id) => {
    const oaiIdentifier = policy.map(id).identifier;
    return { oaiIdentifier, poi: poiFromOaiIdentifier(oaiIdentifier) };
  },
};

// Identifier text of any shape XML can carry: escaping, line ends, blanks, repeats and the POI itself.
const value = fc
  .oneof(
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.constantFrom('info:fedora/demo:1', 'urn:pdi:x', '&amp;', '<b>x</b>', 'a\r\nb', ' ', 'http://purl.org/poi/example.org/r%201'),
  )
  .filter((s) => findNonXmlChar(s) === null);
const record = fc.record({
  id: fc.constantFrom('r 1', 'demo:1', 'a/b'),
  dc: fc.record({ title: fc.constant(['T']), identifier: fc.array(value, { maxLength: 4 }) }),
});

describe('identifiers of crosswalk output', () => {
  it('names every dc:identifier the oai_dc crosswalk writes among the item\'s own identifiers', () => {
    fc.assert(
      fc.property(record, (rec) => {
        const r = jsonToItem(rec, conversion, 'property');
        if (!('item' in r)) return;
        const written = dcIdentifiers(r.item.metadata.oai_dc ?? '');
        expect(written).to.include(poiFromOaiIdentifier(policy.map(rec.id).identifier));
        for (const v of written) expect(r.item.identifiers).to.include(v);
      }),
      { numRuns: 300 },
    );
  });

  it('lets the gate pass a crosswalk\'s identifiers to governance without reading its XML', () => {
    const r = jsonToItem({ id: 'r 1', dc: { title: ['T'], identifier: ['info:fedora/demo:1'] } }, conversion, 'test');
    if (!('item' in r)) throw new Error('refused');
    const passed = judgeRecords([r.item], 2e9).passed[0]?.item;
    expect(passed?.identifiers).to.deep.equal(['info:fedora/demo:1', 'http://purl.org/poi/example.org/r%201']);
  });

  it('still reads the identifiers out of XML a record gives', () => {
    const oaiDc = '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier>urn:pdi:given</dc:identifier></oai_dc:dc>';
    const given = judgeRecords([{ internalId: 'g', metadata: { oai_dc: oaiDc } }], 2e9).passed[0]?.item;
    expect(given?.identifiers).to.deep.equal(['urn:pdi:given']);
    const claimed = judgeRecords([{ internalId: 'g', metadata: { oai_dc: oaiDc }, derived: ['oai_dc'], identifiers: [] }], 2e9).passed[0]?.item;
    expect(claimed?.identifiers).to.deep.equal([]);
  });
});
