/**
 * docs/record-format.md documents every field a record may carry: the
 * structured fields are the keys lib/model/from-json.ts reads
 * (`RECORD_FIELD_KEYS`) besides `dc`, so a field added there fails here until
 * its row is written, and a row for a field the reader does not know fails too.
 */
import { expect } from 'chai';
import { RECORD_FIELD_KEYS } from '../../lib/model/from-json';
import { readMarkdown, tableRows, unquote } from '../helpers/markdown';

describe('docs/record-format.md', () => {
  it('has a row for every record field the reader knows, and for no other', () => {
    const rows = tableRows(readMarkdown('docs/record-format.md').text, 'record field');
    // A list field is written with [] (`creators[]`), as the refusals name its items.
    const documented = rows.map((r) => unquote(r.value[0] ?? '').replace(/\[\]$/, ''));
    expect([...documented].sort()).to.deep.equal(['dc', ...RECORD_FIELD_KEYS].sort());
  });
});
