import { expect } from 'chai';
import fc from 'fast-check';
import { BUILT_IN_FORMATS, createFormatRegistry } from '../../lib/formats/registry';
import { createIdPolicy } from '../../lib/ids/policy';
import { poiFromOaiIdentifier } from '../../lib/ids/poi';
import { judgeRecords } from '../../lib/pipeline/judge';
import { jsonToItem } from '../../lib/pipeline/json-record';
import { prepareItem, type Preparation } from '../../lib/pipeline/prepare';
import { dcIdentifiers } from '../../lib/xml/dc-identifiers';
import { findNonXmlChar } from '../../lib/model/text';

// The judge does not read the pipeline's own output back for identifiers (PreparedItem.written):
// these hold the writers to naming every one they write, so governance still judges them all.

const policy = createIdPolicy({ namespace: 'example.org' });
const formats = createFormatRegistry(BUILT_IN_FORMATS);
const preparation: Preparation = { formats, policy, poiInDublinCore: true };

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

/** A JSON record read and prepared as the store's pipeline does. */
function prepared(rec: unknown) {
  const r = jsonToItem(rec, formats, 'property');
  return 'item' in r ? prepareItem(r.item, preparation) : undefined;
}

describe('identifiers of what the pipeline writes', () => {
  it("names every dc:identifier the oai_dc writer writes among the item's own identifiers", () => {
    fc.assert(
      fc.property(record, (rec) => {
        const item = prepared(rec);
        if (!item) return;
        const written = dcIdentifiers(item.metadata.oai_dc ?? '');
        expect(written).to.include(poiFromOaiIdentifier(policy.map(rec.id).identifier));
        for (const v of written) expect(item.identifiers).to.include(v);
      }),
      { numRuns: 300 },
    );
  });

  it("lets the judge pass the writers' identifiers to governance without reading their XML", () => {
    const item = prepared({ id: 'r 1', dc: { title: ['T'], identifier: ['info:fedora/demo:1'] } });
    if (!item) throw new Error('refused');
    expect(item.written).to.include('oai_dc');
    const passed = judgeRecords([item], 2e9).passed[0]?.item;
    expect(passed?.identifiers).to.deep.equal(['info:fedora/demo:1', 'http://purl.org/poi/example.org/r%201']);
  });

  it('reads the identifiers out of XML a record gives, whatever the caller claims', () => {
    const oaiDc =
      '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier>urn:pdi:given</dc:identifier></oai_dc:dc>';
    // A caller cannot say the pipeline wrote it: prepareItem builds `written` itself.
    const claimed = { internalId: 'g', metadata: { oai_dc: oaiDc }, written: ['oai_dc'], identifiers: [] };
    const item = prepareItem(claimed, { formats: createFormatRegistry(), policy });
    expect(item.written).to.deep.equal([]);
    const passed = judgeRecords([item], 2e9).passed[0]?.item;
    expect(passed?.identifiers).to.deep.equal(['urn:pdi:given']);
  });
});
