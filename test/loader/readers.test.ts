/**
 * The loader's streaming readers, in process: a JSON array cut into records
 * across chunk boundaries, OAI-PMH XML read line by line, and the canonical
 * re-serialization of metadata that makes a second load `unchanged`.
 */
import { expect } from 'chai';
import { readJsonArray, readNdjson } from '../../server/loader/read-json';
import { readOaiXml } from '../../server/loader/read-oai-xml';
import { type XmlEvent, type XmlRecord } from '../../server/loader/xml-events';
import { createFormatRegistry } from '../../lib/formats/registry';
import { DC_NS, OAI_DC_NS, OAI_NS } from '../../lib/xml/namespaces';
import { demoSeed } from '../helpers/demo-records';

async function* chunked(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('the JSON readers', () => {
  const array = '[\n  {"id": "a", "t": "x,y]}"},\n  {"id": "b\\"", "n": [1, {"z": []}]},\n  "caf\u00e9 \ud83d\udcda"\n]\n';
  for (const size of [1, 2, 3, 7, 1000]) {
    it(`cuts a JSON array into its elements with their lines when read ${size} bytes at a time`, async () => {
      const entries = await all(readJsonArray(chunked(array, size)));
      expect(entries).to.deep.equal([
        { line: 2, number: 1, value: { id: 'a', t: 'x,y]}' } },
        { line: 3, number: 2, value: { id: 'b"', n: [1, { z: [] }] } },
        { line: 4, number: 3, value: 'caf\u00e9 \ud83d\udcda' },
      ]);
    });
  }

  const broken: { name: string; text: string; error: RegExp }[] = [
    { name: 'an object at the top level', text: '{"id": "a"}', error: /not a JSON array/ },
    { name: 'a truncated array', text: '[{"id": "a"}, {"id": ', error: /not valid JSON|not closed/ },
    { name: 'text after the array', text: '[1] 2', error: /after the end of the array/ },
  ];
  for (const c of broken) {
    it(`reports ${c.name} as an error entry`, async () => {
      const entries = await all(readJsonArray(chunked(c.text, 4)));
      const last = entries[entries.length - 1] as { error?: string };
      expect(last.error).to.match(c.error);
    });
  }

  it('numbers NDJSON records by their line and skips blank lines', async () => {
    const entries = await all(readNdjson(chunked('{"id":"a"}\n\n{"id":\n{"id":"c"}\n', 3)));
    expect(entries.map((e) => [e.line, 'error' in e ? 'error' : (e.value as { id: string }).id])).to.deep.equal([
      [1, 'a'],
      [3, 'error'],
      [4, 'c'],
    ]);
  });

  it('reads a file whose first line is a lone { as one pretty-printed JSON object', async () => {
    const pretty = `${JSON.stringify({ data: { id: '10.5555/x', type: 'dois', attributes: { doi: '10.5555/x', titles: [{ title: 'T' }] } } }, null, 2)}\n`;
    const entries = await all(readNdjson(chunked(pretty, 5)));
    expect(entries).to.have.length(1);
    expect(entries[0]).to.deep.include({ line: 1, number: 1 });
    expect((entries[0] as { value: { data: { id: string } } }).value.data.id).to.equal('10.5555/x');
  });

  it('reports a pretty-printed object that is not valid JSON once, at its first line, not line by line', async () => {
    const entries = await all(readNdjson(chunked('\n{\n  "id": "a",\n  "dc": \n}\n', 4)));
    expect(entries.map((e) => [e.line, 'error' in e])).to.deep.equal([[2, true]]);
  });
});

describe('the OAI-PMH XML reader', () => {
  const response = `<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="${OAI_NS}" xmlns:dc="${DC_NS}">
<responseDate>2002-05-01T19:20:30Z</responseDate>
<request verb="ListRecords" metadataPrefix="oai_dc">http://example.org/oai</request>
<ListRecords>
<record><header><identifier>oai:example.org:1</identifier><datestamp>2002-01-01</datestamp><setSpec>a</setSpec></header>
<metadata>
<oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}"><dc:title>A &amp; B <![CDATA[<c>]]></dc:title><!-- kept --><dc:identifier>urn:x:1</dc:identifier></oai_dc:dc>
</metadata>
<about><rights xmlns="http://www.openarchives.org/OAI/2.0/rights/"><rightsReference ref="https://creativecommons.org/licenses/by/4.0/"/></rights></about>
</record>
<record><header status="deleted"><identifier>oai:example.org:2</identifier><datestamp>2002-01-02T00:00:00Z</datestamp></header></record>
<resumptionToken cursor="0">t</resumptionToken>
</ListRecords>
</OAI-PMH>
`;

  for (const size of [5, 64, 100000]) {
    it(`reads records with their line, header and canonical metadata when read ${size} bytes at a time`, async () => {
      const events = await all(readOaiXml(chunked(response, size), 'response'));
      const records = events.filter((e): e is XmlRecord => e.kind === 'record');
      expect(events[0]).to.deep.equal({
        kind: 'request',
        verb: 'ListRecords',
        metadataPrefix: 'oai_dc',
        baseURL: 'http://example.org/oai',
        responseDate: '2002-05-01T19:20:30Z',
      });
      expect(records.map((r) => [r.number, r.line, r.identifier, r.datestamp, r.deleted, r.sets])).to.deep.equal([
        [1, 6, 'oai:example.org:1', '2002-01-01', false, ['a']],
        [2, 12, 'oai:example.org:2', '2002-01-02T00:00:00Z', true, []],
      ]);
      // dc was declared on OAI-PMH: the metadata root declares it now, after its own declarations.
      expect(records[0]?.metadata).to.equal(
        `<oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}" xmlns:dc="${DC_NS}">` +
          '<dc:title>A &amp; B &lt;c&gt;</dc:title><!-- kept --><dc:identifier>urn:x:1</dc:identifier></oai_dc:dc>',
      );
      expect(records[0]?.dcIdentifiers).to.deep.equal(['urn:x:1']);
      // about containers are kept, in the same canonical form.
      expect(records[0]?.about).to.deep.equal([
        '<rights xmlns="http://www.openarchives.org/OAI/2.0/rights/"><rightsReference ref="https://creativecommons.org/licenses/by/4.0/"></rightsReference></rights>',
      ]);
      expect(records[1]?.metadata).to.equal(undefined);
      // The token a harvester follows, with the attributes it reads (OAI-PMH 2.0 section 3.5).
      expect(events.filter((e) => e.kind === 'resumption')).to.deep.equal([{ kind: 'resumption', token: 't', cursor: 0 }]);
    });
  }

  it('reports the line where a response stops being well-formed', async () => {
    const bad = response.replace('</dc:title>', '</dc:titel>');
    const events: XmlEvent[] = await all(readOaiXml(chunked(bad, 50), 'response'));
    const fault = events.find((e) => e.kind === 'fault');
    expect(fault).to.include({ line: 8 });
    expect((fault as { reason: string }).reason).to.match(/not well-formed/);
    expect(fault).to.include({ malformed: true });
  });

  it('re-serializes every demo record exactly as the oai_dc crosswalk wrote it', async () => {
    const dc = createFormatRegistry().get('oai_dc')?.fromDublinCore;
    if (!dc) throw new Error('no crosswalk');
    for (const r of demoSeed()) {
      const xml = dc(r.dc);
      const events = await all(readOaiXml(chunked(xml, 97), 'bare'));
      const rec = events.find((e): e is XmlRecord => e.kind === 'record');
      expect(rec?.metadata, r.id).to.equal(xml);
    }
  });
});

describe('the reader of a collection of bare records', () => {
  const MARC = 'http://www.loc.gov/MARC21/slim';
  const shapes = [{ namespace: MARC, container: 'collection', record: 'record' }];
  const doc = `<?xml version="1.0"?>
<marc:collection xmlns:marc="${MARC}" xmlns:x="urn:unused">
  <!-- between records -->
  <marc:record><marc:controlfield tag="001">a</marc:controlfield></marc:record>
  <marc:record>
    <marc:controlfield tag="001">b</marc:controlfield>
  </marc:record>
</marc:collection>
`;

  for (const size of [7, 100000]) {
    it(`yields each record as a document of its own with its position and line when read ${size} bytes at a time`, async () => {
      const events = await all(readOaiXml(chunked(doc, size), 'auto', undefined, shapes));
      expect(events.map((e) => (e.kind === 'record' ? [e.number, e.line, e.member, e.bare, e.metadataNamespace, e.metadata] : e.kind))).to.deep.equal([
        [1, 4, true, true, MARC, `<marc:record xmlns:marc="${MARC}"><marc:controlfield tag="001">a</marc:controlfield></marc:record>`],
        [2, 5, true, true, MARC, `<marc:record xmlns:marc="${MARC}">\n    <marc:controlfield tag="001">b</marc:controlfield>\n  </marc:record>`],
      ]);
    });
  }

  it('reads a container no format declares as one bare record, as before', async () => {
    const events = await all(readOaiXml(chunked(doc, 100000), 'auto'));
    expect(events.map((e) => (e.kind === 'record' ? [e.number, e.member ?? false, e.metadata?.slice(0, 16)] : e.kind))).to.deep.equal([
      [1, false, '<marc:collection'],
    ]);
  });

  it('refuses text between the records of a collection rather than lose it', async () => {
    const events = await all(readOaiXml(chunked(doc.replace('<!-- between records -->', 'stray words'), 100000), 'auto', undefined, shapes));
    expect(events.map((e) => (e.kind === 'fault' ? e.reason : e.kind))).to.deep.equal([
      `the {${MARC}}collection holds text between its records ("stray words")`,
    ]);
    // The parser reports text once it meets the next element: the line of the text or the one after.
    expect((events[0] as { line: number }).line).to.be.within(3, 4);
  });
});
