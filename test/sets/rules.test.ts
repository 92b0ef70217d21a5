/**
 * Sets by rule: every rule kind over records that satisfy it and records
 * that do not, the ready-made definitions of the guidelines, and the
 * declarations the configuration refuses (with the path of the fault).
 */
import { expect } from 'chai';
import type { RecordFields } from '../../lib/model/record';
import { computedSets, evaluateRule, PRESETS, setDeclarations, SetRuleError, setsWithRules } from '../../lib/sets/rules';
import { parseRule, parseSetDefinitions } from '../../lib/sets/parse';
import { eachRow } from '../helpers/table';

const COAR = 'http://purl.org/coar/resource_type/';
const article: RecordFields = {
  dc: { title: ['A'], subject: ['ddc:530', 'Physics', 'ddc:004.6'], rights: ['https://creativecommons.org/licenses/by/4.0/'] },
  resourceType: { coar: `${COAR}c_6501`, general: 'JournalArticle', label: 'journal article' },
  accessRights: 'open',
  license: 'https://creativecommons.org/licenses/by/4.0/',
  identifiers: [{ type: 'DOI', value: '10.5555/abc' }],
  files: [{ url: 'https://repo.example.org/a.pdf', mediaType: 'application/pdf' }],
  language: 'de',
  dates: { issued: '2021-05' },
};
const dataset: RecordFields = {
  dc: { title: ['D'] },
  resourceType: { coar: `${COAR}c_ddb1`, general: 'Dataset', label: 'dataset' },
  accessRights: 'embargoed',
  dates: { embargoEnd: '2030-01-01' },
  fundingReferences: [{ funderName: 'European Commission', awardNumber: '101000001' }],
  publicationYear: '2019',
};
const plainDc: RecordFields = {
  dc: {
    title: ['P'],
    type: ['Text'],
    identifier: ['doi:10.5555/plain'],
    rights: ['info:eu-repo/semantics/openAccess'],
    language: ['EN'],
    date: ['1999-12-31'],
    relation: ['info:eu-repo/grantAgreement/EC/FP7/244909'],
  },
};
const thesisNoFile: RecordFields = {
  dc: { title: ['T'] },
  resourceType: { general: 'Dissertation', label: 'thesis' },
  accessRights: 'restricted',
};

type Row = readonly [string, unknown, RecordFields, boolean];
const cases: Row[] = [
  ['a COAR type matches its own URI', { resourceType: `${COAR}c_6501` }, article, true],
  ['a COAR type does not match another URI', { resourceType: `${COAR}c_ddb1` }, article, false],
  ['a DataCite type matches the general type', { resourceType: 'Dataset' }, dataset, true],
  ['an OpenAIRE type is derived from the COAR type', { resourceType: 'literature' }, article, true],
  ['an OpenAIRE type is derived from a general type alone', { resourceType: 'literature' }, thesisNoFile, true],
  ['a dataset is not literature', { resourceType: 'literature' }, dataset, false],
  ['a Dublin Core record matches its dc:type word without case', { resourceType: 'Text' }, plainDc, true],
  ['access rights match the typed field', { accessRights: ['open', 'embargoed'] }, dataset, true],
  ['access rights miss when the field differs', { accessRights: 'open' }, thesisNoFile, false],
  ['access rights are read from an info:eu-repo dc:rights value', { accessRights: 'open' }, plainDc, true],
  ['a licence matches exactly', { license: 'https://creativecommons.org/licenses/by/4.0/' }, article, true],
  ['a licence matches a prefix ending in *', { license: 'https://creativecommons.org/licenses/*' }, article, true],
  ['a licence prefix does not match another licence', { license: 'https://opensource.org/*' }, article, false],
  ['no licence matches nothing', { license: 'https://creativecommons.org/*' }, dataset, false],
  ['a typed DOI counts', { hasDoi: true }, article, true],
  ['a doi: dc:identifier counts', { hasDoi: true }, plainDc, true],
  ['hasDoi false holds for a record without one', { hasDoi: false }, dataset, true],
  ['a record with a file has one', { hasFile: true }, article, true],
  ['a record without files has none', { hasFile: true }, thesisNoFile, false],
  ['an award makes a record funded', { funded: true }, dataset, true],
  ['an info:eu-repo grantAgreement relation makes a record funded', { funded: true }, plainDc, true],
  ['a record without funding is not funded', { funded: true }, article, false],
  ['the language field matches', { language: ['de', 'en'] }, article, true],
  ['a dc:language is compared in lower case', { language: 'en' }, plainDc, true],
  ['another language does not match', { language: 'fr' }, article, false],
  ['a BCP 47 tag is in the language of its primary subtag', { language: 'en' }, { ...plainDc, dc: { ...plainDc.dc, language: ['en_US'] } }, true],
  ['a BCP 47 tag does not match another language', { language: 'de' }, { ...plainDc, dc: { ...plainDc.dc, language: ['en-US'] } }, false],
  ['a subject scheme matches any value of it', { subject: { scheme: 'ddc' } }, article, true],
  ['a subject value matches exactly', { subject: { scheme: 'ddc', value: '530' } }, article, true],
  ['a subject value prefix matches', { subject: { scheme: 'ddc', value: '5*' } }, article, true],
  ['a subject value that is not there does not match', { subject: { scheme: 'ddc', value: '610' } }, article, false],
  ['a record without subjects of the scheme does not match', { subject: { scheme: 'ddc' } }, dataset, false],
  ['an issued month inside the range matches', { issued: { from: 2021, until: '2021-12-31' } }, article, true],
  ['an issued month after the range does not match', { issued: { until: '2021-04' } }, article, false],
  ['the publication year stands in for the issued date', { issued: { from: '2019', until: '2019' } }, dataset, true],
  ['a dc:date stands in for the issued date', { issued: { until: 1999 } }, plainDc, true],
  ['a record without any date is outside every range', { issued: { from: 1900 } }, thesisNoFile, false],
  ['all holds when every rule holds', { all: [{ accessRights: 'open' }, { hasFile: true }] }, article, true],
  ['all fails when one rule fails', { all: [{ accessRights: 'open' }, { hasFile: true }] }, plainDc, false],
  ['any holds when one rule holds', { any: [{ hasFile: true }, { funded: true }] }, dataset, true],
  ['not inverts', { not: { accessRights: 'open' } }, thesisNoFile, true],
];

describe('sets by rule', function () {
  describe('each kind of rule', function () {
    eachRow(
      cases,
      ([name]) => name,
      ([, raw, record, expected]) => {
        expect(evaluateRule(parseRule(raw), record, new Set())).to.equal(expected);
      },
    );
    it('inSet sees the sets the record is already in', () => {
      const rule = parseRule({ inSet: 'physics' });
      expect(evaluateRule(rule, article, new Set(['physics']))).to.equal(true);
      expect(evaluateRule(rule, article, new Set(['chemistry']))).to.equal(false);
    });
  });

  describe('the ready-made definitions', function () {
    const defs = parseSetDefinitions(Object.keys(PRESETS).map((preset) => ({ preset })));
    const rows: (readonly [string, RecordFields, string[]])[] = [
      [
        'an open access article with a file is in openaire, driver, open_access and its DDC classes',
        article,
        ['ddc:004', 'ddc:530', 'driver', 'open_access', 'openaire'],
      ],
      ['a funded embargoed dataset is in openaire_data only (OpenAIRE v3 takes publications only into openaire)', dataset, ['openaire_data']],
      ['an open Dublin Core record without files is in openaire and open_access but not driver (no full text)', plainDc, ['open_access', 'openaire']],
      ['a restricted thesis without funding is in no ready-made set', thesisNoFile, []],
    ];
    eachRow(
      rows,
      ([name]) => name,
      ([, record, expected]) => {
        expect(computedSets(defs, record, [])).to.deep.equal(expected);
      },
    );
  });

  describe('sets that refer to other sets', function () {
    it('decides a set after the sets it refers to, whatever the order of declaration', () => {
      const defs = parseSetDefinitions([
        { spec: 'oa_physics', name: 'Open physics', rule: { all: [{ inSet: 'open_access' }, { inSet: 'physics' }] } },
        { spec: 'physics', name: 'Physics' },
        { preset: 'open_access' },
      ]);
      expect(defs.computed.map((d) => d.spec)).to.deep.equal(['open_access', 'oa_physics']);
      expect(computedSets(defs, article, ['physics:hep'])).to.deep.equal(['oa_physics', 'open_access']);
      expect(computedSets(defs, article, [])).to.deep.equal(['open_access']);
    });
    it('lets a rule name a family or one of its sets', () => {
      const defs = parseSetDefinitions([
        { preset: 'ddc' },
        { spec: 'cs', name: 'Computing', rule: { inSet: 'ddc:004' } },
        { spec: 'any_ddc', name: 'Classified', rule: { inSet: 'ddc' } },
      ]);
      expect(computedSets(defs, article, [])).to.deep.equal(['any_ddc', 'cs', 'ddc:004', 'ddc:530']);
      expect(computedSets(defs, dataset, [])).to.deep.equal([]);
    });
  });

  describe("an item's sets with the rules applied", function () {
    const defs = parseSetDefinitions([{ preset: 'open_access' }, { preset: 'ddc' }, { spec: 'physics', name: 'Physics' }]);
    it('keeps the sets a record names and adds the rule sets it satisfies', () => {
      expect(setsWithRules(defs, article, ['physics'])).to.deep.equal(['ddc:004', 'ddc:530', 'open_access', 'physics']);
    });
    it('drops a rule set a record no longer satisfies, even when the record names it', () => {
      expect(setsWithRules(defs, thesisNoFile, ['physics', 'open_access', 'ddc:530'])).to.deep.equal(['physics']);
    });
    it('leaves sets alone when no rule set is declared', () => {
      expect(setsWithRules(parseSetDefinitions([]), article, ['b', 'a'])).to.deep.equal(['b', 'a']);
    });
    it('declares the configured sets and each family member found, named after its class', () => {
      expect(setDeclarations(defs, ['ddc:530', 'physics', 'elsewhere'])).to.deep.equal([
        { spec: 'open_access', name: 'Open Access' },
        { spec: 'ddc', name: 'Dewey Decimal Classification' },
        { spec: 'physics', name: 'Physics' },
        { spec: 'ddc:530', name: 'DDC 530' },
      ]);
    });
  });

  describe('declarations it refuses', function () {
    const refusals: (readonly [string, unknown, (string | number)[], RegExp])[] = [
      ['an unknown field', [{ spec: 'x', name: 'X', rule: { colour: 'red' } }], [0, 'rule', 'colour'], /unknown field "colour"/],
      ['a rule with two keys', [{ spec: 'x', name: 'X', rule: { hasDoi: true, hasFile: true } }], [0, 'rule'], /exactly one key/],
      ['an unknown access right', [{ spec: 'x', name: 'X', rule: { accessRights: ['open', 'free'] } }], [0, 'rule', 'accessRights', 1], /"free" is not one of/],
      ['an unknown resource type', [{ spec: 'x', name: 'X', rule: { resourceType: 'Article' } }], [0, 'rule', 'resourceType'], /not a COAR resource type/],
      ['an empty date range', [{ spec: 'x', name: 'X', rule: { issued: { from: 2020, until: 2010 } } }], [0, 'rule', 'issued'], /is empty/],
      ['a bad date', [{ spec: 'x', name: 'X', rule: { issued: { from: '2020-13' } } }], [0, 'rule', 'issued', 'from'], /YYYY/],
      [
        'a rule naming an undeclared set',
        [{ spec: 'x', name: 'X', rule: { not: { inSet: 'nowhere' } } }],
        [0, 'rule', 'not', 'inSet'],
        /"nowhere", which is not declared/,
      ],
      ['an unknown preset', [{ preset: 'base' }], [0, 'preset'], /not a ready-made set/],
      ['a set declared twice', [{ preset: 'driver' }, { spec: 'driver', name: 'D' }], [1], /declared twice/],
      ['a bad setSpec', [{ spec: 'a b', name: 'X' }], [0, 'spec'], /setSpec/],
      [
        'sets that refer to each other in a cycle',
        [
          { spec: 'a', name: 'A', rule: { inSet: 'b' } },
          { spec: 'b', name: 'B', rule: { any: [{ hasDoi: true }, { inSet: 'c' }] } },
          { spec: 'c', name: 'C', rule: { inSet: 'a' } },
        ],
        [0, 'rule'],
        /cycle: a → b → c → a/,
      ],
      ['a set that refers to itself', [{ spec: 'a', name: 'A', rule: { not: { inSet: 'a' } } }], [0, 'rule'], /cycle: a → a/],
    ];
    eachRow(
      refusals,
      ([name]) => `refuses ${name}, naming where`,
      ([, raw, path, message]) => {
        let caught: unknown;
        try {
          parseSetDefinitions(raw);
        } catch (err) {
          caught = err;
        }
        expect(caught).to.be.instanceOf(SetRuleError);
        expect((caught as SetRuleError).path).to.deep.equal(path);
        expect((caught as SetRuleError).message).to.match(message);
      },
    );
  });
});
