import { expect } from 'chai';
import * as libxml from 'libxmljs2';
import { dublinCoreToOaiDc } from '../../lib/formats/oai-dc';
import { DC_ELEMENTS } from '../../lib/model/dublin-core';
import { createFormatRegistry } from '../../lib/formats/registry';
import { DC_NS, OAI_DC_NS, OAI_DC_SCHEMA, OAI_NS } from '../../lib/xml/namespaces';
import { xsdErrors } from '../helpers/xsd';

/** Wraps metadata in a minimal GetRecord so the OAI-PMH schema validates it with oai_dc.xsd. */
function inRecord(metadata: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="${OAI_NS}"><responseDate>2024-01-01T00:00:00Z</responseDate><request>http://x.org/oai</request><GetRecord><record><header><identifier>oai:x.org:1</identifier><datestamp>2024-01-01T00:00:00Z</datestamp></header><metadata>${metadata}</metadata></record></GetRecord></OAI-PMH>`;
}

function textOf(xml: string, name: string): string[] {
  const doc = libxml.parseXml(xml);
  return doc.find(`//dc:${name}`, { dc: DC_NS }).map((n) => (n as libxml.Element).text());
}

describe('the oai_dc crosswalk', () => {
  it('writes all fifteen elements in DCMES order, valid against oai_dc.xsd', () => {
    const dc = Object.fromEntries([...DC_ELEMENTS].reverse().map((n) => [n, [`${n} value`]]));
    const xml = dublinCoreToOaiDc(dc);
    expect(xsdErrors(inRecord(xml))).to.deep.equal([]);
    expect([...xml.matchAll(/<dc:(\w+)>/g)].map((m) => m[1])).to.deep.equal([...DC_ELEMENTS]);
  });

  const texts = [
    { name: 'markup-like text', value: '<b>not markup</b> ]]> & "quotes"' },
    { name: 'text that is already an entity reference', value: 'R&amp;D &lt;x&gt;' },
    { name: 'carriage returns and tabs', value: 'a\r\nb\tc\rd' },
    { name: 'non-ASCII and astral characters', value: 'Ελληνικά 日本語 𝔸 📚' },
    { name: 'an empty string', value: '' },
  ];
  for (const c of texts) {
    it(`keeps ${c.name} exactly, as a parser reads it back`, () => {
      expect(textOf(dublinCoreToOaiDc({ title: [c.value] }), 'title')).to.deep.equal([c.value]);
    });
  }

  it('keeps repeated values in order', () => {
    expect(textOf(dublinCoreToOaiDc({ creator: ['B', 'A', 'C'] }), 'creator')).to.deep.equal(['B', 'A', 'C']);
  });

  for (const ch of ['\u0000', '\u0007', '\u001F', '\uFFFE', '\uD800']) {
    it(`refuses a value holding U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`, () => {
      expect(() => dublinCoreToOaiDc({ title: [`a${ch}b`] })).to.throw(RangeError, /dc:title/);
    });
  }

  it('is the registry entry for oai_dc, with its schema and namespace', () => {
    const f = createFormatRegistry().get('oai_dc');
    expect([f?.schema, f?.namespace]).to.deep.equal([OAI_DC_SCHEMA, OAI_DC_NS]);
  });
});
