import { expect } from 'chai';
import crypto from 'node:crypto';
import { decodeEntry, encodeEntry, MAX_ENTRY_BYTES, type LogEntry } from '../../lib/tlog/entry';

const H1 = 'a'.repeat(64);
const H2 = 'b'.repeat(64);

describe('publication log entries', () => {
  it('writes a live item with its sets and records sorted by bytes', () => {
    const e: LogEntry = {
      identifier: 'oai:example.org:1',
      status: 'changed',
      datestamp: '2026-12-06T10:00:00Z',
      sets: ['b', 'Z', 'a:b'],
      records: [
        { prefix: 'oai_dc', datestamp: '2026-12-06T10:00:00Z', hash: H1 },
        { prefix: 'mods', datestamp: '2026-11-01T00:00:00Z', hash: H2 },
      ],
    };
    expect(encodeEntry(e).toString('utf8')).to.equal(
      'oai-pmh-event/v1\nidentifier oai:example.org:1\nstatus changed\ndatestamp 2026-12-06T10:00:00Z\n' +
        'set Z\nset a:b\nset b\n' +
        `record mods 2026-11-01T00:00:00Z ${H2}\nrecord oai_dc 2026-12-06T10:00:00Z ${H1}\n`,
    );
    expect(decodeEntry(encodeEntry(e))).to.deep.equal({ ...e, sets: ['Z', 'a:b', 'b'], records: [...e.records].reverse() });
  });

  it('writes a tombstone without records', () => {
    const e: LogEntry = {
      identifier: 'oai:example.org:1',
      status: 'deleted',
      datestamp: '2026-12-06T10:00:00Z',
      sets: ['a'],
      records: [{ prefix: 'oai_dc', datestamp: 'x', hash: H1 }],
    };
    expect(encodeEntry(e).toString('utf8')).to.equal('oai-pmh-event/v1\nidentifier oai:example.org:1\nstatus deleted\ndatestamp 2026-12-06T10:00:00Z\nset a\n');
  });

  it('gives the hash of the set lines instead of them when the entry would not fit a bundle', () => {
    const sets = Array.from({ length: 5000 }, (_, i) => `set:${String(i).padStart(5, '0')}`);
    const e: LogEntry = {
      identifier: 'oai:example.org:1',
      status: 'new',
      datestamp: '2026-12-06T10:00:00Z',
      sets,
      records: [{ prefix: 'oai_dc', datestamp: '2026-12-06T10:00:00Z', hash: H1 }],
    };
    const bytes = encodeEntry(e);
    expect(bytes.length).to.be.at.most(MAX_ENTRY_BYTES);
    const lines = sets.map((s) => `set ${s}\n`).join('');
    const read = decodeEntry(bytes);
    expect(read.setsHash).to.equal(crypto.createHash('sha256').update(lines).digest('hex'));
    expect(read.sets).to.deep.equal([]);
    expect(read.records).to.have.length(1);
  });

  it('refuses an identifier holding white space, which would break the line format', () => {
    expect(() => encodeEntry({ identifier: 'oai:x:a b', status: 'new', datestamp: 'd', sets: [], records: [] })).to.throw(/white space/);
  });

  it('refuses to read an entry that is not one', () => {
    expect(() => decodeEntry(Buffer.from('oai-pmh-event/v2\n'))).to.throw(/begins with/);
    expect(() => decodeEntry(Buffer.from('oai-pmh-event/v1\nidentifier x\nstatus gone\ndatestamp d\n'))).to.throw(/status is gone/);
  });
});
