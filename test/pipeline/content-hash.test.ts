/**
 * The content hash that decides "unchanged" (lib/pipeline/content-hash.ts). It is
 * stored with every item, so the way it is computed may change only if it
 * keeps giving the hash earlier versions stored: the SHA-256 of one JSON
 * text of the item's deletion, sets, metadata by prefix in code point order,
 * and record fields.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import { contentHash } from '../../lib/pipeline/content-hash';
import type { AboutInput } from '../../lib/store';
import { eachRow } from '../helpers/table';

/** The hash as it was first defined: one JSON.stringify of the whole item, hashed at once. */
function asStored(deleted: boolean, sets: string[], metadata: [string, string | null][], about: AboutInput[], fields?: string): string {
  const byCodePoint = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  const canonical = deleted
    ? JSON.stringify({ deleted: true, sets })
    : JSON.stringify({
        deleted: false,
        sets,
        metadata: [...metadata].sort(([a], [b]) => byCodePoint(a, b)),
        ...(about.length > 0 && { about: about.map((a) => a.compareAs ?? a.xml) }),
        ...(fields !== undefined && { fields }),
      });
  return crypto.createHash('sha256').update(canonical).digest('hex');
}

const about: AboutInput[] = [{ xml: '<provenance>a</provenance>' }, { xml: '<p>b</p>', compareAs: '<p>B</p>' }];
const rows: readonly [string, boolean, string[], [string, string | null][], AboutInput[], string | undefined][] = [
  ['a tombstone in two sets', true, ['a', 'a:b'], [], [], undefined],
  ['a live item with one format and no fields', false, [], [['oai_dc', '<oai_dc:dc>"quoted" \\ back\nslash</oai_dc:dc>']], [], undefined],
  [
    'a live item with formats given out of order, and fields',
    false,
    ['x'],
    [
      ['oai_dc', '<a/>'],
      ['marc21', '<r>é 山</r>'],
      ['datacite', '<d/>'],
    ],
    [],
    '{"dc":{"title":["T"]}}',
  ],
  [
    'a live item whose prefixes differ beyond the BMP',
    false,
    [],
    [
      ['p\u{1F600}', '<a/>'],
      ['p\uFFFD', '<b/>'],
      ['p', '<c/>'],
    ],
    [],
    '{}',
  ],
  ['a live item with a format without metadata', false, ['s'], [['oai_dc', null]], [], undefined],
  ['a live item with about containers and fields', false, ['s'], [['oai_dc', '<a/>']], about, '{}'],
];

describe('the content hash of an item', function () {
  eachRow(
    rows,
    ([name]) => `gives the hash earlier versions stored for ${name}`,
    ([, deleted, sets, metadata, about, fields]) => {
      expect(contentHash(deleted, sets, new Map(metadata), about, fields)).to.equal(asStored(deleted, sets, metadata, about, fields));
    },
  );

  it('changes when one character of one format changes', function () {
    const a = contentHash(
      false,
      [],
      new Map([
        ['oai_dc', '<a>x</a>'],
        ['mods', '<m/>'],
      ]),
    );
    const b = contentHash(
      false,
      [],
      new Map([
        ['oai_dc', '<a>y</a>'],
        ['mods', '<m/>'],
      ]),
    );
    expect(a).to.not.equal(b);
  });
});
