/**
 * The readiness profiles of Europeana and CORE: a record that meets the
 * guideline passes every rule, and each way of falling short fails exactly
 * the rule that says so, naming the field; the rules that do not apply to a
 * record are not counted.
 */
import { expect } from 'chai';
import { CheckTally, PROFILE_NAMES, PROFILES, type CheckItem, type ProfileName } from '../../lib/check/profiles';
import { edm } from '../../lib/formats/edm';
import { profileDublinCore } from '../../lib/formats/oai-dc-profile';
import type { RecordFields } from '../../lib/model/record';
import { eachRow } from '../helpers/table';

const PDF = 'https://repo.example.org/files/good.pdf';

const good: RecordFields = {
  dc: {
    title: ['Harbour at dawn'],
    creator: ['Lens, Lea'],
    date: ['2021-05-01'],
    subject: ['harbours'],
    identifier: ['https://repo.example.org/items/good', 'https://doi.org/10.5555/good', PDF],
    rights: ['https://creativecommons.org/licenses/by/4.0/'],
  },
  resourceType: { coar: 'http://purl.org/coar/resource_type/c_6501', general: 'JournalArticle', label: 'journal article' },
  language: 'en',
  license: 'https://creativecommons.org/licenses/by/4.0/',
  identifiers: [{ type: 'DOI', value: '10.5555/good' }],
  files: [{ url: PDF, mediaType: 'application/pdf' }],
};

/** An item as the check sees it: its model, the oai_dc the writer makes of it, and its formats (edm when the edm writer offers it). */
function item(fields: RecordFields, options: { formats?: string[]; deleted?: boolean } = {}): CheckItem {
  const deleted = options.deleted ?? false;
  const edmOffered = edm.lacks!(fields, { oaiIdentifier: 'oai:example.org:x', options: { dataProvider: 'Museum', provider: 'Aggregator' } }) === null;
  const formats = deleted ? [] : (options.formats ?? ['oai_dc', ...(edmOffered ? ['edm'] : [])]);
  return {
    internalId: 'x',
    identifier: 'oai:example.org:x',
    datestamp: 0,
    deleted,
    sets: [],
    fields,
    formats,
    ...(!deleted && formats.includes('oai_dc') && { oaiDc: profileDublinCore(fields, 'plain') }),
  };
}

/** The ids of the rules an item fails under a profile, with the field of the first failure. */
function failing(profile: ProfileName, it: CheckItem): string[] {
  const t = new CheckTally(PROFILES[profile]);
  t.add([it]);
  return t
    .report()
    .rules.filter((r) => r.satisfied < r.checked)
    .map((r) => `${r.id}:${r.failures[0]?.field}`);
}

/** The ids of the rules that apply to an item under a profile. */
function applying(profile: ProfileName, it: CheckItem): string[] {
  const t = new CheckTally(PROFILES[profile]);
  t.add([it]);
  return t
    .report()
    .rules.filter((r) => r.checked > 0)
    .map((r) => r.id);
}

const withDc = (dc: RecordFields['dc']): RecordFields => ({ ...good, dc: { ...good.dc, ...dc } });
const without = (...keys: (keyof RecordFields)[]): RecordFields => {
  const copy: Record<string, unknown> = { ...good };
  for (const k of keys) delete copy[k];
  return copy as unknown as RecordFields;
};

type Row = readonly [string, ProfileName, CheckItem, string[]];
const rows: Row[] = [
  ['a record that meets the guideline passes every europeana rule', 'europeana', item(good), []],
  ['a record that meets the guideline passes every core rule', 'core', item(good), []],
  ['europeana wants edm offered', 'europeana', item(good, { formats: ['oai_dc'] }), ['format-edm:metadata.edm']],
  [
    'europeana wants a rights statement it accepts, not any licence',
    'europeana',
    item({ ...withDc({ rights: [] }), license: 'https://opensource.org/licenses/MIT' }),
    ['format-edm:metadata.edm', 'rights:license'],
  ],
  [
    'europeana takes a rightsstatements.org statement',
    'europeana',
    item({ ...withDc({ rights: [] }), license: 'http://rightsstatements.org/vocab/InC/1.0/' }),
    [],
  ],
  [
    'europeana wants a kind of work EDM names: a dataset has no edm:type',
    'europeana',
    item({ ...good, resourceType: { coar: 'http://purl.org/coar/resource_type/c_ddb1', general: 'Dataset', label: 'dataset' } }),
    ['format-edm:metadata.edm', 'edm-type:resourceType'],
  ],
  ['europeana takes a DCMI type as the edm:type', 'europeana', item({ ...without('resourceType'), dc: { ...good.dc, type: ['StillImage'] } }), []],
  ['europeana wants a title or a description', 'europeana', item(withDc({ title: [] })), ['format-edm:metadata.edm', 'title-or-description:dc.title']],
  ['europeana takes a description for a title', 'europeana', item(withDc({ title: [], description: ['A harbour at dawn.'] })), []],
  [
    'europeana wants a link to the object: a landing page or a file',
    'europeana',
    item({ ...without('identifiers', 'files'), dc: { ...good.dc, identifier: [] } }),
    ['format-edm:metadata.edm', 'link:identifiers', 'is-shown-by:files'],
  ],
  [
    'europeana takes a landing page without a file, and recommends the file',
    'europeana',
    item({ ...without('files'), dc: { ...good.dc, identifier: ['https://repo.example.org/items/good'] } }),
    ['is-shown-by:files'],
  ],
  ['europeana wants the language of a text', 'europeana', item(without('language')), ['format-edm:metadata.edm', 'language:language']],
  [
    'europeana does not ask an image for a language',
    'europeana',
    item({ ...without('language'), resourceType: { coar: 'http://purl.org/coar/resource_type/c_ecc8', general: 'Image', label: 'image' } }),
    [],
  ],
  ['europeana recommends a creator', 'europeana', item(withDc({ creator: [] })), ['creator:creators']],
  [
    'core wants oai_dc offered: without it, CORE sees none of what the oai_dc rules judge',
    'core',
    item(good, { formats: [] }),
    [
      'format-oai_dc:metadata.oai_dc',
      'fulltext-link:dc.identifier',
      'title:dc.title',
      'creator:dc.creator',
      'date:dc.date',
      'doi:dc.identifier',
      'license:dc.rights',
    ],
  ],
  [
    'core wants the full text linked in dc:identifier',
    'core',
    item(withDc({ identifier: ['https://repo.example.org/items/good', 'https://doi.org/10.5555/good'] })),
    ['fulltext-link:dc.identifier'],
  ],
  [
    'core wants the full-text link absolute, not relative',
    'core',
    item(withDc({ identifier: ['https://doi.org/10.5555/good', '/bitstream/good.pdf'] })),
    ['fulltext-link:dc.identifier', 'rioxx-landing-page:dc.identifier'],
  ],
  ['core wants a title', 'core', item(withDc({ title: [] })), ['title:dc.title']],
  [
    'core recommends the DOI of a record in dc:identifier',
    'core',
    item(withDc({ identifier: [PDF] })),
    ['doi:dc.identifier', 'rioxx-landing-page:dc.identifier'],
  ],
  [
    'core does not ask for a DOI a record does not have (its file is no landing page)',
    'core',
    item({ ...good, dc: { ...good.dc, identifier: [PDF] }, identifiers: [] }),
    ['rioxx-landing-page:dc.identifier'],
  ],
  ['core names an item without a language, which RIOXX needs', 'core', item(without('language')), ['rioxx-language:language']],
  [
    'core names an item whose type RIOXX cannot name by COAR',
    'core',
    item({ ...without('resourceType'), dc: { ...good.dc, type: ['Lecture notes, bound'] } }),
    ['rioxx-type:resourceType'],
  ],
  ['core takes a COAR type a dc:type word names', 'core', item({ ...without('resourceType'), dc: { ...good.dc, type: ['Dataset'] } }), []],
  ['core asks no licence of an item without files', 'core', item({ ...without('license', 'files'), dc: { ...good.dc, rights: [] } }), ['license:dc.rights']],
  ['core recommends a W3CDTF dc:date', 'core', item(withDc({ date: ['spring 2021'] })), ['date:dc.date']],
  [
    'core recommends a licence in dc:rights',
    'core',
    item({ ...without('license'), dc: { ...good.dc, rights: ['All rights reserved'] } }),
    ['license:dc.rights', 'file-licence:license'],
  ],
  ['core judges no record that is deleted', 'core', item(good, { deleted: true }), []],
];

describe('readiness profiles of Europeana and CORE', () => {
  it('are offered by oai-steward check --profile', () => {
    expect(PROFILE_NAMES).to.include.members(['europeana', 'core']);
  });

  it('name the guideline each rule comes from', () => {
    for (const p of ['europeana', 'core'] as const) {
      for (const r of PROFILES[p].rules) expect(r.source, `${p} ${r.id}`).to.match(p === 'europeana' ? /Europeana/ : /CORE/);
    }
  });

  eachRow(
    rows,
    ([name]) => name,
    ([, profile, it, expected]) => {
      expect(failing(profile, it)).to.deep.equal(expected);
    },
  );

  it('does not ask for a full-text link when the record has no file', () => {
    expect(applying('core', item(good))).to.include('fulltext-link');
    expect(applying('core', item(without('files')))).to.not.include('fulltext-link');
    expect(failing('core', item(without('files')))).to.deep.equal([]);
  });

  it('does not ask for the DOI in dc:identifier when the record has none', () => {
    expect(applying('core', item(good))).to.include('doi');
    expect(applying('core', item({ ...without('identifiers'), dc: { ...good.dc, identifier: [PDF] } }))).to.not.include('doi');
  });
});
