/**
 * The `sets` and `oaiDcProfile` keys of the configuration file: what they
 * read, and the messages (file, line, key) that stop start-up.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../server/config';
import { eachRow } from '../helpers/table';

describe('the configuration of sets by rule and of the oai_dc profile', function () {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-config-sets-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  function load(text: string, env: NodeJS.ProcessEnv = {}) {
    const p = path.join(dir, 'oai-steward.yaml');
    fs.writeFileSync(p, text);
    return { p, config: () => loadConfig({ ...env, OAI_CONFIG: p }, dir) };
  }

  it('reads static sets, sets by rule and ready-made sets, rule sets in dependency order', () => {
    const { config } = load(
      [
        'sets:',
        '  - spec: oa_theses',
        '    name: Open theses',
        '    rule:',
        '      all:',
        '        - inSet: open_access',
        '        - resourceType: [Dissertation]',
        '  - preset: open_access',
        '  - preset: ddc',
        '  - spec: physics',
        '    name: Physics',
        '',
      ].join('\n'),
    );
    const c = config();
    expect(c.sets.all.map((s) => s.spec)).to.deep.equal(['oa_theses', 'open_access', 'ddc', 'physics']);
    expect(c.sets.computed.map((s) => s.spec)).to.deep.equal(['open_access', 'oa_theses', 'ddc']);
    expect(c.sets.all.find((s) => s.spec === 'open_access')?.name).to.equal('Open Access');
  });

  it('has no configured sets and the plain oai_dc profile by default', () => {
    const c = loadConfig({}, dir);
    expect(c.sets.all).to.deep.equal([]);
    expect(c.oaiDcProfile).to.equal('plain');
  });

  it('reads oaiDcProfile from the file, and OAI_DC_PROFILE over it', () => {
    const { config } = load('oaiDcProfile: openaire3\n');
    expect(config().oaiDcProfile).to.equal('openaire3');
    expect(loadConfig({ OAI_CONFIG: path.join(dir, 'oai-steward.yaml'), OAI_DC_PROFILE: 'plain' }, dir).oaiDcProfile).to.equal('plain');
  });

  const refusals: (readonly [string, string, string])[] = [
    ['an unknown rule field', 'sets:\n  - spec: x\n    name: X\n    rule:\n      colour: red\n', ':5: sets[0].rule.colour: unknown field "colour"'],
    [
      'a rule naming an undeclared set',
      'sets:\n  - spec: x\n    name: X\n    rule:\n      any:\n        - hasDoi: true\n        - inSet: nowhere\n',
      ':7: sets[0].rule.any[1].inSet: names set "nowhere", which is not declared in sets',
    ],
    [
      'a cycle of sets',
      'sets:\n  - spec: a\n    name: A\n    rule: { inSet: b }\n  - spec: b\n    name: B\n    rule: { inSet: a }\n',
      ':4: sets[0].rule: sets refer to each other in a cycle: a → b → a',
    ],
    ['an unknown preset', 'sets:\n  - preset: opeaire\n', ':2: sets[0].preset: "opeaire" is not a ready-made set'],
    ['an unknown oaiDcProfile', 'oaiDcProfile: openaire4\n', ':1: oaiDcProfile must be plain or openaire3'],
  ];
  eachRow(
    refusals,
    ([name]) => `refuses ${name}, naming the file, the line and the key`,
    ([, text, message]) => {
      const { p, config } = load(text);
      expect(config).to.throw(ConfigError, `${p}${message}`);
    },
  );
});
