/**
 * Readiness rules: for each profile, a record that meets the guideline
 * passes every rule, and each way of falling short fails exactly the rule
 * that says so, naming the field.
 */
import { expect } from 'chai';
import { CheckTally, PROFILES, type CheckItem, type ProfileName } from '../../lib/check/profiles';
import { profileDublinCore, type OaiDcProfile } from '../../lib/formats/oai-dc-profile';
import type { RecordFields } from '../../lib/model/record';
import { eachRow } from '../helpers/table';

const good: RecordFields = {
  dc: {
    title: ['Good'],
    creator: ['Curie, Marie'],
    date: ['2021-05-01'],
    language: ['en'],
    format: ['application/pdf'],
    identifier: ['https://repo.example.org/good'],
    subject: ['ddc:530'],
    publisher: ['Example University'],
    relation: ['info:eu-repo/grantAgreement/EC/H2020/101000001'],
    type: ['VoR'],
  },
  resourceType: { coar: 'http://purl.org/coar/resource_type/c_6501', general: 'JournalArticle', label: 'journal article' },
  accessRights: 'open',
  license: 'https://creativecommons.org/licenses/by/4.0/',
  identifiers: [{ type: 'DOI', value: '10.5555/good' }],
  files: [{ url: 'https://repo.example.org/good.pdf', mediaType: 'application/pdf' }],
  dates: { issued: '2021-05-01' },
};
const GOOD_SETS = ['openaire', 'driver', 'open_access', 'ddc:530'];

/** An item as the check sees it: its model, the oai_dc the writer makes of it under a profile, and its formats. */
function item(
  fields: RecordFields,
  options: { sets?: string[]; profile?: OaiDcProfile; formats?: string[]; deleted?: boolean; noOaiDc?: boolean } = {},
): CheckItem {
  const deleted = options.deleted ?? false;
  const formats = deleted ? [] : [...(options.noOaiDc ? [] : ['oai_dc']), ...(options.formats ?? ['oai_openaire'])];
  return {
    internalId: 'x',
    identifier: 'oai:example.org:x',
    datestamp: 0,
    deleted,
    sets: options.sets ?? GOOD_SETS,
    fields,
    formats,
    ...(!deleted && !options.noOaiDc && { oaiDc: profileDublinCore(fields, options.profile ?? 'openaire3') }),
  };
}

/** The ids of the rules an item fails under a profile. */
function failing(profile: ProfileName, it: CheckItem): string[] {
  const t = new CheckTally(PROFILES[profile]);
  t.add([it]);
  return t
    .report()
    .rules.filter((r) => r.satisfied < r.checked)
    .map((r) => `${r.id}:${r.failures[0]?.field}`);
}

const withDc = (dc: RecordFields['dc']): RecordFields => ({ ...good, dc: { ...good.dc, ...dc } });
const without = <K extends keyof RecordFields>(key: K): RecordFields => {
  const copy: Record<string, unknown> = { ...good };
  delete copy[key];
  return copy as unknown as RecordFields;
};

type Row = readonly [string, ProfileName, CheckItem, string[]];
const rows: Row[] = [
  ...(['openaire4', 'openaire3', 'driver', 'base', 'dini'] as const).map((p): Row => [
    `a record that meets the guideline passes every ${p} rule`,
    p,
    item(good),
    [],
  ]),
  ['openaire4 wants oai_openaire offered', 'openaire4', item(good, { formats: [] }), ['format-oai_openaire:metadata.oai_openaire']],
  [
    'openaire4 wants a COAR resource type: a record whose type names no COAR concept',
    'openaire4',
    item({ ...without('resourceType'), dc: { ...good.dc, type: ['VoR'] } }),
    ['resource-type:resourceType.coar'],
  ],
  [
    'openaire4 takes the COAR concept a DataCite type names, as oai_openaire is written with it',
    'openaire4',
    item({ ...good, resourceType: { general: 'JournalArticle', label: 'article' } }),
    [],
  ],
  ['openaire4 wants the embargo end of an embargoed item', 'openaire4', item({ ...good, accessRights: 'embargoed' }), ['embargo-end:dates.embargoEnd']],
  ['openaire4 wants the file of an open access item', 'openaire4', item(without('files')), ['file-location:files']],
  ['openaire4 wants an access right', 'openaire4', item(without('accessRights')), ['access-rights:accessRights']],
  [
    'openaire3 wants the info:eu-repo terms the openaire3 oai_dc profile writes',
    'openaire3',
    item(good, { profile: 'plain' }),
    ['publication-type:dc.type', 'access-level:dc.rights', 'publication-version:dc.type', 'license:dc.rights'],
  ],
  ['openaire3 wants an open publication in the openaire set', 'openaire3', item(good, { sets: ['driver'] }), ['set-openaire-complete:sets']],
  [
    'openaire3 wants nothing in the openaire set that does not qualify',
    'openaire3',
    item({ ...good, accessRights: 'restricted', dc: { ...good.dc, relation: [] } }, { sets: ['openaire'] }),
    ['set-openaire-content:sets'],
  ],
  [
    'openaire3 wants a project identifier for a funded item',
    'openaire3',
    item({ ...withDc({ relation: [] }), fundingReferences: [{ funderName: 'EC', awardNumber: '1' }] }),
    ['project-identifier:dc.relation'],
  ],
  ['driver wants a W3CDTF date', 'driver', item(withDc({ date: ['spring 2021'] }), { sets: ['openaire', 'driver'] }), ['date:dc.date']],
  ["driver takes DSpace's date and time as a W3CDTF date", 'driver', item(withDc({ date: ['2003-04-15T10:18:51Z'] })), []],
  ["openaire3 takes DSpace's date and time as a W3CDTF date", 'openaire3', item(withDc({ date: ['2003-04-15T10:18:51Z'] })), []],
  [
    'openaire3 wants the embargo end term to hold a real day',
    'openaire3',
    item({ ...withDc({ date: ['2021', 'info:eu-repo/date/embargoEnd/2030-02-30'] }), accessRights: 'embargoed' }),
    ['embargo-end:dc.date'],
  ],
  ['openaire4 wants the language of a text (MA)', 'openaire4', item({ ...withDc({ language: [] }) }), ['language:language']],
  [
    'openaire4 does not ask a dataset for a language',
    'openaire4',
    item({ ...withDc({ language: [] }), resourceType: { coar: 'http://purl.org/coar/resource_type/c_ddb1', general: 'Dataset', label: 'dataset' } }),
    [],
  ],
  ['openaire4 wants the publisher of a journal article (MA)', 'openaire4', item(withDc({ publisher: [] })), ['publisher:publisher']],
  [
    'openaire4 does not ask a preprint for a publisher',
    'openaire4',
    item({ ...withDc({ publisher: [] }), resourceType: { coar: 'http://purl.org/coar/resource_type/c_816b', general: 'Preprint', label: 'preprint' } }),
    [],
  ],
  ['openaire4 judges the model of an item served as oai_openaire only', 'openaire4', item(good, { noOaiDc: true }), []],
  [
    'openaire4 reads a COAR type and a Handle from Dublin Core',
    'openaire4',
    item({
      ...without('resourceType'),
      dc: { ...good.dc, type: ['http://purl.org/coar/resource_type/c_6501'], identifier: ['hdl:1765/315'] },
      identifiers: [],
    }),
    [],
  ],
  [
    'openaire4 wants a COAR type and an identifier of the resource, typed or in Dublin Core',
    'openaire4',
    item({ ...without('resourceType'), dc: { ...good.dc, type: ['Article'], identifier: ['ISBN 978-3-16-148410-0'] }, identifiers: [] }),
    ['resource-type:resourceType.coar', 'resource-identifier:identifiers'],
  ],
  ['base takes a hdl: dc:identifier as a link', 'base', item({ ...withDc({ identifier: ['hdl:1765/315'] }), identifiers: [] }), []],
  ['driver wants no metadata-only item in the driver set', 'driver', item(without('files'), { sets: ['driver'] }), ['set-driver-content:sets']],
  ['base wants a dc:identifier that links', 'base', item({ ...withDc({ identifier: ['local-17'] }), identifiers: [] }), ['identifier-link:dc.identifier']],
  ['base does not judge a deleted item by its metadata', 'base', item(good, { deleted: true }), []],
  ['dini wants an open access item in open_access', 'dini', item(good, { sets: ['ddc:530'] }), ['set-open_access-complete:sets']],
  ['dini wants an item in the set of its DDC class', 'dini', item(withDc({ subject: ['ddc:530', 'ddc:004'] })), ['set-ddc:sets']],
];

describe('readiness profiles', function () {
  eachRow(
    rows,
    ([name]) => name,
    ([, profile, it, expected]) => {
      expect(failing(profile, it)).to.deep.equal(expected);
    },
  );

  it('counts, per rule, the items it applies to and those that satisfy it, with at most five examples', () => {
    const t = new CheckTally(PROFILES.openaire4);
    const bad = Array.from({ length: 7 }, (_, k) => ({ ...item(without('accessRights')), identifier: `oai:example.org:${k}` }));
    t.add([item(good), ...bad]);
    t.add([item({ ...good, accessRights: 'embargoed', dates: { embargoEnd: '2030-01-01' } })]);
    const r = t.report();
    expect(r.items).to.equal(9);
    expect(r.passed).to.equal(false);
    const access = r.rules.find((x) => x.id === 'access-rights');
    expect(access).to.include({ checked: 9, satisfied: 2 });
    expect(access?.failures.map((f) => f.identifier)).to.deep.equal([
      'oai:example.org:0',
      'oai:example.org:1',
      'oai:example.org:2',
      'oai:example.org:3',
      'oai:example.org:4',
    ]);
    expect(r.rules.find((x) => x.id === 'embargo-end')).to.include({ checked: 1, satisfied: 1 });
  });

  it('passes when only recommended rules fail', () => {
    const t = new CheckTally(PROFILES.base);
    t.add([item(withDc({ language: [] }))]);
    const r = t.report();
    expect(r.rules.find((x) => x.id === 'language')).to.include({ checked: 1, satisfied: 0 });
    expect(r.passed).to.equal(true);
  });

  it('names a guideline section for every rule', () => {
    for (const p of Object.values(PROFILES))
      for (const r of p.rules) expect(r.source, `${p.name} ${r.id}`).to.match(/Guidelines|Golden Rules|DINI|Europeana|CORE/);
  });

  it('reports a date that is there but not W3CDTF as malformed, not missing', () => {
    const t = new CheckTally(PROFILES.driver);
    t.add([
      { ...item(withDc({ date: ['15.04.2003'] })), identifier: 'oai:example.org:eu' },
      { ...item(withDc({ date: [] })), identifier: 'oai:example.org:none' },
    ]);
    const date = t.report().rules.find((r) => r.id === 'date');
    expect(date?.failures.map((f) => [f.identifier, f.reason.split(':')[0]])).to.deep.equal([
      ['oai:example.org:eu', 'malformed'],
      ['oai:example.org:none', 'missing'],
    ]);
    expect(date?.failures[0]?.reason).to.contain('"15.04.2003" is not a W3CDTF date');
  });

  it('fails the check when a mandatory-if-applicable rule fails where it applies', () => {
    const t = new CheckTally(PROFILES.openaire4);
    t.add([item(good), item(withDc({ language: [] }))]);
    const r = t.report();
    expect(r.rules.find((x) => x.id === 'language')).to.include({ level: 'mandatory', checked: 2, satisfied: 1 });
    expect(r.passed).to.equal(false);
  });

  it('labels every rule its guideline marks (MA) as mandatory', () => {
    for (const p of Object.values(PROFILES)) for (const r of p.rules) if (r.source.includes('(MA)')) expect(r.level, `${p.name} ${r.id}`).to.equal('mandatory');
  });
});
