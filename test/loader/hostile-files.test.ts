/**
 * Files built to hurt the loader: entity expansion, deep nesting, huge
 * records and lines, deep JSON, bytes that are not UTF-8, XML in other
 * encodings. Each is refused in bounded time and memory with a message
 * naming file, line, record and the limit (never a stack trace), or, for an
 * encoding the document declares, read correctly; through a real load on
 * every test database, nothing is written.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { readJsonArray, readNdjson, type JsonEntry } from '../../server/loader/read-json';
import { readOaiXml } from '../../server/loader/read-oai-xml';
import { type XmlEvent } from '../../server/loader/xml-events';
import { firstInvalidUtf8, jsonNestingExceeds, MAX_JSON_DEPTH, MAX_XML_DEPTH, utf8Tail } from '../../server/loader/limits';
import { openInput } from '../../server/loader/input';
import { runLoad } from '../../server/loader/load';
import { loadConfig } from '../../server/config';
import { openProvider } from '../../server/provider';
import type { Refusal } from '../../lib/model/refusal';
import { DC_NS, OAI_DC_NS } from '../../lib/xml/namespaces';
import { forEachThrowawayDatabase } from '../helpers/db';
import { DEMO_NAMESPACE } from '../helpers/demo-records';
import type { KnexStore } from '../../server/store/knex-store';

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function* chunked(data: Buffer | string, size = 64 * 1024): AsyncGenerator<Buffer> {
  const b = typeof data === 'string' ? Buffer.from(data) : data;
  for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
}

const DC = `xmlns:oai_dc="${OAI_DC_NS}" xmlns:dc="${DC_NS}"`;
const dcRecord = (title: string): string => `<oai_dc:dc ${DC}><dc:title>${title}</dc:title><dc:identifier>https://r.org/1</dc:identifier></oai_dc:dc>`;
const faults = (events: XmlEvent[]): string[] => events.flatMap((e) => (e.kind === 'fault' ? [`${e.line}: ${e.reason}`] : []));
const errors = (entries: JsonEntry[]): string[] => entries.flatMap((e) => ('error' in e ? [`${e.line}: ${e.error}`] : []));

/** Nested internal entities ("billion laughs"): 10 levels of 10 references each. */
function laughs(levels: number): string {
  const decls = ['<!ENTITY l0 "lol">'];
  for (let i = 1; i <= levels; i++) decls.push(`<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">`);
  return `<?xml version="1.0"?>\n<!DOCTYPE oai_dc:dc [\n${decls.join('\n')}\n]>\n${dcRecord(`&l${levels};`)}\n`;
}

describe('the loader against hostile XML', function () {
  this.timeout(20_000);

  it('refuses a file of nested internal entities before expanding any, naming the line', async () => {
    const events = await all(readOaiXml(chunked(laughs(10)), 'bare'));
    expect(events.filter((e) => e.kind === 'record')).to.deep.equal([]);
    expect(faults(events)).to.deep.equal([
      '2: a DOCTYPE declaration: document type definitions are not read (their entities could expand without bound, or name files and URLs elsewhere); remove it',
    ]);
  });

  it('refuses an external entity rather than dropping it silently', async () => {
    const xml = `<!DOCTYPE r [<!ENTITY ext SYSTEM "file:///etc/passwd">]>\n${dcRecord('&ext;')}`;
    expect(faults(await all(readOaiXml(chunked(xml), 'bare'))).join()).to.match(/^1: a DOCTYPE declaration/);
  });

  it('refuses a reference to an entity no DTD declares', async () => {
    expect(faults(await all(readOaiXml(chunked(dcRecord('&undeclared;')), 'bare'))).join()).to.match(/not well-formed XML/);
  });

  for (const depth of [40_000, 100_000]) {
    it(`refuses ${depth} nested elements as they open, in linear time`, async () => {
      const xml = `${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`;
      const events = await all(readOaiXml(chunked(xml), 'bare'));
      expect(faults(events)).to.deep.equal([`1: elements nested deeper than ${MAX_XML_DEPTH} levels in record 1 (from line 1)`]);
    });
  }

  it('reads a record nested just within the limit', async () => {
    const depth = MAX_XML_DEPTH - 3;
    const inner = `${'<x:a xmlns:x="urn:x">'.repeat(depth)}${'</x:a>'.repeat(depth)}`;
    const events = await all(readOaiXml(chunked(`<oai_dc:dc ${DC}><dc:title>t</dc:title>${inner}</oai_dc:dc>`), 'bare'));
    expect(faults(events)).to.deep.equal([]);
  });

  it('refuses a record larger than maxRecordBytes, naming the record, its line and the limit', async () => {
    const big = `<?xml version="1.0"?>\n${dcRecord('x'.repeat(20_000))}`;
    const events = await all(readOaiXml(chunked(big, 1000), 'bare', { maxRecordBytes: 10_000 }));
    expect(faults(events)).to.deep.equal(['2: record 1 (from line 2): its metadata is larger than 10000 bytes (maxRecordBytes)']);
    expect(faults(await all(readOaiXml(chunked(big, 1000), 'bare', { maxRecordBytes: 30_000 })))).to.deep.equal([]);
  });

  it('reads a document in ISO-8859-1 as it declares, and says UTF-8 to the parser', async () => {
    const latin = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?>\n'), Buffer.from(dcRecord('caf\u00e9 \u00bd'), 'latin1')]);
    const events = await all(readOaiXml(chunked(latin, 7), 'bare'));
    expect(faults(events)).to.deep.equal([]);
    const rec = events.find((e) => e.kind === 'record');
    expect(rec?.kind === 'record' && rec.metadata).to.contain('<dc:title>caf\u00e9 \u00bd</dc:title>');
  });

  it('takes text already decoded (a harvested page) as it is, whatever its declaration says', async () => {
    async function* once(): AsyncGenerator<string> {
      yield `<?xml version="1.0" encoding="ISO-8859-1"?>\n${dcRecord('caf\u00e9')}`;
    }
    const events = await all(readOaiXml(once(), 'bare'));
    expect(faults(events)).to.deep.equal([]);
    const rec = events.find((e) => e.kind === 'record');
    expect(rec?.kind === 'record' && rec.metadata).to.contain('<dc:title>caf\u00e9</dc:title>');
  });

  for (const [name, bom, encoding] of [
    ['UTF-16 LE with a byte order mark', Buffer.from([0xff, 0xfe]), 'utf16le'],
    ['UTF-16 BE with a byte order mark', Buffer.from([0xfe, 0xff]), 'utf16be'],
    ['UTF-16 LE without one', Buffer.alloc(0), 'utf16le'],
  ] as const) {
    it(`reads a document in ${name}`, async () => {
      const text = `<?xml version="1.0" encoding="UTF-16"?>\n${dcRecord('\u65e5\u672c caf\u00e9')}`;
      const le = Buffer.from(text, 'utf16le');
      const body = encoding === 'utf16le' ? le : Buffer.from(le).swap16();
      const events = await all(readOaiXml(chunked(Buffer.concat([bom, body]), 5), 'bare'));
      expect(faults(events)).to.deep.equal([]);
      const rec = events.find((e) => e.kind === 'record');
      expect(rec?.kind === 'record' && rec.metadata).to.contain('<dc:title>\u65e5\u672c caf\u00e9</dc:title>');
    });
  }

  it('refuses bytes that are not UTF-8 in a document that declares none, naming the byte', async () => {
    const bad = Buffer.concat([Buffer.from(`<oai_dc:dc ${DC}>\n<dc:title>caf`), Buffer.from([0xe9]), Buffer.from('</dc:title></oai_dc:dc>')]);
    expect(faults(await all(readOaiXml(chunked(bad), 'bare')))).to.deep.equal([
      `2: byte ${bad.indexOf(0xe9) + 1} of the input is not UTF-8, the encoding the document is in`,
    ]);
  });

  it('refuses an encoding it cannot read, naming it', async () => {
    const xml = `<?xml version="1.0" encoding="x-klingon"?>\n${dcRecord('t')}`;
    expect(faults(await all(readOaiXml(chunked(xml), 'bare'))).join()).to.contain('declares the encoding "x-klingon", which cannot be read');
  });

  it('recognises a UTF-16 XML file as XML, not NDJSON', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-utf16-'));
    try {
      const file = path.join(dir, 'record.data');
      fs.writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(dcRecord('t'), 'utf16le')]));
      expect((await openInput(file, process.stdin, { bytesRead: 0 })).kind).to.equal('xml');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the loader against hostile JSON', function () {
  this.timeout(20_000);

  it('refuses an NDJSON line longer than maxRecordBytes without holding it, and reads the lines after it', async () => {
    const lines = `{"id":"a"}\n{"id":"${'x'.repeat(50_000)}"}\n{"id":"c"}\n`;
    const entries = await all(readNdjson(chunked(lines, 1000), { maxRecordBytes: 10_000 }));
    expect(errors(entries)).to.deep.equal(['2: record 2: the line is longer than 10000 bytes (maxRecordBytes)']);
    expect(entries.filter((e) => 'value' in e).map((e) => (e as { value: { id: string } }).value.id)).to.deep.equal(['a', 'c']);
  });

  it('refuses a JSON array element longer than maxRecordBytes, naming the record and its line', async () => {
    const text = `[\n{"id":"a"},\n{"id":"${'x'.repeat(50_000)}"}\n]`;
    expect(errors(await all(readJsonArray(chunked(text, 1000), { maxRecordBytes: 10_000 })))).to.deep.equal([
      '3: record 2, starting on line 3, is longer than 10000 bytes (maxRecordBytes)',
    ]);
  });

  it('refuses a record nested deeper than the limit, in NDJSON and in an array', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(errors(await all(readNdjson(chunked(`${deep}\n`))))).to.deep.equal([`1: record 1: arrays and objects nested deeper than ${MAX_JSON_DEPTH} levels`]);
    expect(errors(await all(readJsonArray(chunked(`[${deep}]`))))).to.deep.equal([
      `1: record 1: arrays and objects nested deeper than ${MAX_JSON_DEPTH} levels`,
    ]);
  });

  it('refuses an NDJSON line that is not UTF-8, naming the line and the byte, and reads the others', async () => {
    const latin = Buffer.concat([Buffer.from('{"id":"a"}\n{"id":"b","dc":{"title":["caf'), Buffer.from([0xe9]), Buffer.from('"]}}\n{"id":"c"}\n')]);
    const entries = await all(readNdjson(chunked(latin, 4)));
    expect(errors(entries)).to.deep.equal([
      `2: record 2: byte 30 of the line (byte ${latin.indexOf(0xe9) + 1} of the input) is not UTF-8; the input must be UTF-8 (RFC 8259 8.1)`,
    ]);
    expect(entries.filter((e) => 'value' in e)).to.have.length(2);
  });

  it('refuses a JSON array that is not UTF-8, naming the byte', async () => {
    const latin = Buffer.concat([Buffer.from('[{"id":"a"},\n{"id":"caf'), Buffer.from([0xe9]), Buffer.from('"}]')]);
    expect(errors(await all(readJsonArray(chunked(latin, 3))))).to.deep.equal([
      `2: line 2: byte ${latin.indexOf(0xe9) + 1} of the input is not UTF-8; the input must be UTF-8 (RFC 8259 8.1)`,
    ]);
  });

  it('reads UTF-8 cut anywhere between chunks', async () => {
    const text = '{"id":"\u65e5\u672c\u{1f600}"}\n';
    for (const size of [1, 2, 3, 5]) {
      const entries = await all(readNdjson(chunked(text, size)));
      expect(entries.map((e) => ('value' in e ? (e.value as { id: string }).id : e.error))).to.deep.equal(['\u65e5\u672c\u{1f600}']);
      const arr = await all(readJsonArray(chunked(`[${text}]`, size)));
      expect(arr.map((e) => ('value' in e ? (e.value as { id: string }).id : e.error))).to.deep.equal(['\u65e5\u672c\u{1f600}']);
    }
  });
});

describe('the byte-level checks', () => {
  const utf8 = [
    ['ASCII', [0x61, 0x62], -1],
    ['a two-byte character', [0xc3, 0xa9], -1],
    ['a four-byte character', [0xf0, 0x9f, 0x98, 0x80], -1],
    ['a Latin-1 byte', [0x61, 0xe9, 0x62], 1],
    ['an overlong form', [0xc0, 0xaf], 0],
    ['a surrogate', [0xed, 0xa0, 0x80], 0],
    ['a cut-off sequence', [0x61, 0xe2, 0x82], 1],
  ] as const;
  for (const [name, bytes, at] of utf8) {
    it(`finds ${at < 0 ? 'nothing wrong in' : `the bad byte of`} ${name}`, () => expect(firstInvalidUtf8(Buffer.from(bytes))).to.equal(at));
  }
  it('keeps a sequence cut off by the end of a chunk for the next', () => {
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xe2, 0x82]), true)).to.equal(-1);
    expect(utf8Tail(Buffer.from([0x61, 0xe2, 0x82]))).to.equal(2);
    expect(utf8Tail(Buffer.from([0x61, 0xe2, 0x82, 0xac]))).to.equal(0);
  });
  it('measures JSON nesting outside strings only', () => {
    expect(jsonNestingExceeds('[[[]]]', 2)).to.equal(true);
    expect(jsonNestingExceeds('["[[[[", {"a": "{{{{"}]', 2)).to.equal(false);
  });
});

describe('a load of hostile files', function () {
  forEachThrowawayDatabase(
    (db) => {
      const load = async (name: string, content: Buffer | string): Promise<{ refusals: Refusal[]; committed: boolean; items: number }> => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-hostile-'));
        const p = await openProvider(
          loadConfig({ DATABASE_URL: db().url, LOG_LEVEL: 'silent', OAI_NAMESPACE: DEMO_NAMESPACE, OAI_SEED_DEMO: 'false', OAI_MAX_RECORD_BYTES: '100000' }),
        );
        try {
          const file = path.join(dir, name);
          fs.writeFileSync(file, content);
          const refusals: Refusal[] = [];
          const summary = await runLoad(p, [await openInput(file, process.stdin, { bytesRead: 0 })], { onRefusal: (r) => refusals.push(r) });
          const items = Number(((await (p.store as KnexStore).knex('items').count({ n: '*' })) as { n: unknown }[])[0]?.n ?? 0);
          return { refusals, committed: summary.committed, items };
        } finally {
          await p.close();
          fs.rmSync(dir, { recursive: true, force: true });
        }
      };

      it('refuses entity expansion, writing nothing and naming the file and line', async () => {
        const r = await load('laughs.xml', laughs(10));
        expect(r.committed).to.equal(false);
        expect(r.items).to.equal(0);
        expect(r.refusals.map((x) => `${path.basename(x.source ?? '')} ${x.reason}`).join()).to.match(
          /^laughs\.xml:2 a DOCTYPE declaration: document type definitions are not read/,
        );
      });

      it('refuses a Latin-1 NDJSON record naming file, line and byte, writing nothing', async () => {
        const latin = Buffer.concat([
          Buffer.from('{"id":"ok","dc":{"title":["fine"]}}\n{"id":"cafe","dc":{"title":["caf'),
          Buffer.from([0xe9]),
          Buffer.from('"]}}\n'),
        ]);
        const r = await load('latin.ndjson', latin);
        expect(r.committed).to.equal(false);
        expect(r.items).to.equal(0);
        expect(r.refusals.map((x) => `${path.basename(x.source ?? '')} ${x.reason}`)).to.deep.equal([
          `latin.ndjson:2 record 2: byte ${latin.indexOf(0xe9) - latin.indexOf(0x0a)} of the line (byte ${latin.indexOf(0xe9) + 1} of the input) is not UTF-8; the input must be UTF-8 (RFC 8259 8.1)`,
        ]);
      });

      it('refuses an NDJSON line over the configured maxRecordBytes, on the reading thread too', async () => {
        const r = await load('huge.ndjson', `{"id":"a","dc":{"title":["${'x'.repeat(200_000)}"]}}\n`);
        expect(r.items).to.equal(0);
        expect(r.refusals.map((x) => `${path.basename(x.source ?? '')} ${x.reason}`)).to.deep.equal([
          'huge.ndjson:1 record 1: the line is longer than 100000 bytes (maxRecordBytes)',
        ]);
      });

      it('stores an ISO-8859-1 XML record as the text it declares', async () => {
        const latin = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?>\n'), Buffer.from(dcRecord('caf\u00e9'), 'latin1')]);
        const r = await load('cafe.xml', latin);
        expect(r.refusals).to.deep.equal([]);
        expect(r.committed).to.equal(true);
        const dc = await openProvider(loadConfig({ DATABASE_URL: db().url, LOG_LEVEL: 'silent', OAI_NAMESPACE: DEMO_NAMESPACE }));
        try {
          const rows = (await (dc.store as KnexStore).knex('records').select('xml')) as { xml: string }[];
          expect(rows.map((x) => x.xml).join()).to.contain('<dc:title>caf\u00e9</dc:title>');
        } finally {
          await dc.close();
        }
      });
    },
    { timeout: 60_000 },
  );
});
