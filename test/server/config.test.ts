/**
 * The configuration: environment variables, the YAML file, their precedence,
 * and the messages that stop start-up when a value cannot be used.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { BUILTIN_FORMATS, ConfigError, loadConfig, splitConfigFlag } from '../../server/config';

const ROOT = path.join(__dirname, '..', '..');

describe('the configuration', function () {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-config-'));
    fs.writeFileSync(path.join(dir, 'thing.xsd'), '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Writes a configuration file and returns its path. */
  function file(text: string, name = 'oai-steward.yaml'): string {
    const p = path.join(dir, name);
    fs.writeFileSync(p, text);
    return p;
  }

  it('uses the defaults when neither the environment nor a file says anything', () => {
    const c = loadConfig({}, dir);
    expect(c.configFile).to.equal(undefined);
    expect(c.port).to.equal(3000);
    expect(c.baseUrl).to.equal('http://localhost:3000/oai');
    expect(c.rightsInAbout).to.equal(false);
    expect(c.databaseUrl).to.equal(path.join(dir, 'data', 'oai-steward.sqlite'));
    // Every built-in format but the opt-in ones, which a configuration lists to offer.
    expect(c.formats.map((f) => f.prefix)).to.deep.equal(['oai_dc', 'oai_openaire', 'datacite', 'oai_datacite', 'marc21', 'mods', 'edm']);
    expect(Object.keys(BUILTIN_FORMATS)).to.include.members(['rioxx', 'qdc']);
    expect(c.formats.find((f) => f.prefix === 'oai_datacite')?.options).to.deep.equal({ datacentreSymbol: 'OAISTEWARD.DEMO' });
    expect(Object.isFrozen(c)).to.equal(true);
  });

  it('reads every setting from a file named by OAI_CONFIG', () => {
    const p = file(
      [
        'port: 8080',
        'repositoryName: Example Repository',
        'adminEmails: [a@example.org, b@example.org]',
        'namespace: example.org',
        'idPolicy: opaque',
        'poiInDublinCore: false',
        'rightsInAbout: true',
        'pageSize: 50',
        'compression: [gzip]',
        'database: store/oai.sqlite',
        'formats:',
        '  - prefix: oai_dc',
        '  - prefix: oai_datacite',
        '    options: { datacentreSymbol: EXAMPLE.REPO }',
      ].join('\n'),
    );
    const c = loadConfig({ OAI_CONFIG: p }, '/elsewhere');
    expect(c.configFile).to.equal(p);
    expect(c.port).to.equal(8080);
    expect(c.baseUrl).to.equal('http://localhost:8080/oai');
    expect(c.repositoryName).to.equal('Example Repository');
    expect(c.adminEmails).to.deep.equal(['a@example.org', 'b@example.org']);
    expect(c.namespace).to.equal('example.org');
    expect(c.idPolicy).to.equal('opaque');
    expect(c.poiInDublinCore).to.equal(false);
    expect(c.rightsInAbout).to.equal(true);
    expect(c.pageSize).to.equal(50);
    expect(c.compression).to.deep.equal(['gzip']);
    // A relative path in the file is relative to the file, not to the working directory.
    expect(c.databaseUrl).to.equal(`sqlite:${path.join(dir, 'store', 'oai.sqlite')}`);
    expect(c.formats).to.deep.equal([
      { prefix: 'oai_dc', kind: 'builtin', options: {} },
      { prefix: 'oai_datacite', kind: 'builtin', options: { datacentreSymbol: 'EXAMPLE.REPO' } },
    ]);
  });

  it('lets an environment variable win over the file, and the file over the default', () => {
    const p = file('pageSize: 50\nrepositoryName: From the file\n');
    const c = loadConfig({ OAI_CONFIG: p, OAI_PAGE_SIZE: '7' }, dir);
    expect(c.pageSize).to.equal(7);
    expect(c.repositoryName).to.equal('From the file');
    expect(c.tokenLifetime).to.equal(172800);
  });

  it('prefers --config to OAI_CONFIG', () => {
    const a = file('pageSize: 11\n', 'a.yaml');
    const b = file('pageSize: 22\n', 'b.yaml');
    expect(loadConfig({ OAI_CONFIG: a }, dir, { file: b }).pageSize).to.equal(22);
  });

  it('always offers oai_dc, which OAI-PMH requires of every item', () => {
    const c = loadConfig({ OAI_CONFIG: file('formats:\n  - prefix: marc21\n') }, dir);
    expect(c.formats.map((f) => f.prefix)).to.deep.equal(['oai_dc', 'marc21']);
  });

  it('reads a declared format with its namespace, schema and a local XSD relative to the file', () => {
    const c = loadConfig(
      {
        OAI_CONFIG: file(
          'formats:\n  - prefix: thing\n    namespace: http://example.org/thing/\n    schema: http://example.org/thing.xsd\n    xsd: thing.xsd\n',
        ),
      },
      dir,
    );
    expect(c.formats[1]).to.deep.equal({
      prefix: 'thing',
      kind: 'declared',
      namespace: 'http://example.org/thing/',
      schema: 'http://example.org/thing.xsd',
      xsd: path.join(dir, 'thing.xsd'),
      options: {},
    });
  });

  it('treats an empty OAI_COMPRESSION as "no compression", not as unset', () => {
    expect(loadConfig({ OAI_COMPRESSION: '' }, dir).compression).to.deep.equal([]);
  });

  it('stores oai_dc of the formats written on demand unless told otherwise, and an empty OAI_STORED_FORMATS stores none', () => {
    expect(loadConfig({}, dir).storedFormats).to.deep.equal(['oai_dc']);
    expect(loadConfig({ OAI_STORED_FORMATS: 'oai_dc, marc21' }, dir).storedFormats).to.deep.equal(['oai_dc', 'marc21']);
    expect(loadConfig({ OAI_STORED_FORMATS: '' }, dir).storedFormats).to.deep.equal([]);
    expect(loadConfig({ OAI_CONFIG: file('storedFormats: [mods]\n') }, dir).storedFormats).to.deep.equal(['mods']);
    // oai_dc is offered whether the file lists it or not (OAI-PMH 2.0 section 3.4), so it can always be stored.
    expect(loadConfig({ OAI_CONFIG: file('formats:\n  - prefix: mods\nstoredFormats: [oai_dc, mods]\n') }, dir).storedFormats).to.deep.equal([
      'oai_dc',
      'mods',
    ]);
  });

  it('lifts a model from the richest format given unless told another order, leaving out formats it does not offer', () => {
    expect(loadConfig({}, dir).liftOrder).to.deep.equal(['datacite', 'oai_datacite', 'oai_openaire', 'mods', 'marc21', 'oai_dc']);
    expect(loadConfig({ OAI_LIFT_ORDER: 'marc21, mods' }, dir).liftOrder).to.deep.equal(['marc21', 'mods']);
    expect(loadConfig({ OAI_CONFIG: file('formats:\n  - prefix: mods\n') }, dir).liftOrder).to.deep.equal(['mods', 'oai_dc']);
    expect(loadConfig({ OAI_CONFIG: file('liftOrder: [oai_dc, mods]\n') }, dir).liftOrder).to.deep.equal(['oai_dc', 'mods']);
  });

  const refusals: { name: string; text?: string; env?: NodeJS.ProcessEnv; message: RegExp }[] = [
    {
      name: 'a lift order naming a format that is not offered',
      env: { OAI_LIFT_ORDER: 'marcxml' },
      message: /^OAI_LIFT_ORDER: "marcxml" is not a configured format with a reader/,
    },
    {
      name: 'a lift order naming a declared format, which is never read',
      text: 'formats:\n  - prefix: thing\n    namespace: http://x/\n    schema: http://x/s.xsd\n    xsd: thing.xsd\nliftOrder: [thing]\n',
      message: /liftOrder: "thing" is not a configured format with a reader/,
    },
    { name: 'a variable that is not a number', env: { OAI_PAGE_SIZE: 'many' }, message: /^OAI_PAGE_SIZE must be an integer from 1 to 10000, not "many"$/ },
    {
      name: 'a harvest heap too small for a harvest to start in',
      env: { OAI_HARVEST_MEMORY: '16' },
      message: /^OAI_HARVEST_MEMORY must be an integer from 64 to 65536, not "16"$/,
    },
    { name: 'a namespace that is not a domain name', env: { OAI_NAMESPACE: 'not a domain' }, message: /^OAI_NAMESPACE is not a domain name/ },
    { name: 'a file that is not YAML', text: 'pageSize: 5\nformats: [\n', message: /oai-steward\.yaml:\d+: not valid YAML/ },
    { name: 'a file whose top level is a list', text: '- a\n- b\n', message: /oai-steward\.yaml:1: the file must be a mapping/ },
    { name: 'a misspelt key', text: 'namespace: example.org\npagesize: 5\n', message: /oai-steward\.yaml:2: unknown key "pagesize"/ },
    { name: 'a key given twice', text: 'pageSize: 5\npageSize: 6\n', message: /oai-steward\.yaml:2: key "pageSize" is given twice/ },
    {
      name: 'a value out of range',
      text: 'namespace: example.org\n\npageSize: 0\n',
      message: /oai-steward\.yaml:3: pageSize must be an integer from 1 to 10000, not 0$/,
    },
    { name: 'a string where a number belongs', text: 'port: eighty\n', message: /oai-steward\.yaml:1: port must be an integer/ },
    { name: 'a boolean that is not one', text: 'seedDemo: maybe\n', message: /oai-steward\.yaml:1: seedDemo must be true or false, not "maybe"/ },
    {
      name: 'an address that is not one',
      text: 'adminEmails: [a@example.org, nobody]\n',
      message: /oai-steward\.yaml:1: adminEmails: "nobody" is not an e-mail address/,
    },
    {
      name: 'a nested value where a plain one belongs',
      text: 'repositoryName:\n  en: Name\n',
      message: /oai-steward\.yaml:1: repositoryName must be a plain value/,
    },
    { name: 'formats that are not a list', text: 'formats: oai_dc\n', message: /oai-steward\.yaml:1: formats must be a list/ },
    { name: 'a format without a prefix', text: 'formats:\n  - namespace: http://x/\n', message: /oai-steward\.yaml:2: formats\[0\] has no "prefix"/ },
    {
      name: 'a prefix the protocol forbids',
      text: 'formats:\n  - prefix: "a b"\n',
      message: /oai-steward\.yaml:2: formats\[0\]\.prefix: "a b" is not a valid metadataPrefix/,
    },
    {
      name: 'a format listed twice',
      text: 'formats:\n  - prefix: mods\n  - prefix: mods\n',
      message: /oai-steward\.yaml:3: formats\[1\]\.prefix: format "mods" is listed twice/,
    },
    {
      name: 'an unknown key of a format',
      text: 'formats:\n  - prefix: mods\n    schemaUrl: x\n',
      message: /oai-steward\.yaml:3: formats\[0\]\.schemaUrl: unknown key/,
    },
    {
      name: 'a built-in format given another namespace',
      text: 'formats:\n  - prefix: mods\n    namespace: http://x/\n',
      message: /oai-steward\.yaml:3: formats\[0\]\.namespace: mods is a built-in format/,
    },
    {
      name: 'an option a built-in format does not take',
      text: 'formats:\n  - prefix: marc21\n    options:\n      leader: x\n',
      message: /oai-steward\.yaml:4: formats\[0\]\.options\.leader: marc21 takes no option "leader"/,
    },
    {
      name: 'a declared format without an XSD',
      text: 'formats:\n  - prefix: thing\n    namespace: http://x/\n    schema: http://x/s.xsd\n',
      message: /oai-steward\.yaml:2: formats\[0\] \(thing\) is not a built-in format .* so it needs "xsd"/,
    },
    {
      name: 'a declared format whose XSD is missing',
      text: 'formats:\n  - prefix: thing\n    namespace: http://x/\n    schema: http://x/s.xsd\n    xsd: missing.xsd\n',
      message: /oai-steward\.yaml:5: formats\[0\]\.xsd: file .*missing\.xsd does not exist/,
    },
    {
      name: 'a stored format that is not offered',
      env: { OAI_STORED_FORMATS: 'oai_dc,marcxml' },
      message: /^OAI_STORED_FORMATS: "marcxml" is not a configured format$/,
    },
    {
      name: 'a stored format the file does not configure',
      text: 'formats:\n  - prefix: oai_dc\nstoredFormats: [mods]\n',
      message: /oai-steward\.yaml:3: storedFormats: "mods" is not a configured format/,
    },
    {
      name: 'a declared namespace that is not a URI',
      text: 'formats:\n  - prefix: thing\n    namespace: thing space\n    schema: http://x/s.xsd\n    xsd: thing.xsd\n',
      message: /oai-steward\.yaml:3: formats\[0\]\.namespace: "thing space" is not an absolute URI/,
    },
  ];
  for (const r of refusals) {
    it(`refuses ${r.name}, naming where it is`, () => {
      const env = { ...(r.env ?? {}), ...(r.text !== undefined && { OAI_CONFIG: file(r.text) }) };
      expect(() => loadConfig(env, dir))
        .to.throw(ConfigError)
        .with.property('message')
        .that.matches(r.message);
    });
  }

  it('refuses a file that cannot be read, naming it', () => {
    expect(() => loadConfig({ OAI_CONFIG: path.join(dir, 'nope.yaml') }, dir)).to.throw(ConfigError, /nope\.yaml: cannot be read/);
  });

  it('takes --config out of the command line wherever it stands', () => {
    expect(splitConfigFlag(['serve', '--config', 'a.yaml'])).to.deep.equal({ file: 'a.yaml', rest: ['serve'] });
    expect(splitConfigFlag(['--config=b.yaml', 'load', 'x.ndjson'])).to.deep.equal({ file: 'b.yaml', rest: ['load', 'x.ndjson'] });
    expect(splitConfigFlag(['stats'])).to.deep.equal({ file: undefined, rest: ['stats'] });
    expect(() => splitConfigFlag(['serve', '--config'])).to.throw(ConfigError, /--config needs a file name/);
  });

  it('stops the command with exit status 2 and a message naming the file, line and key', function () {
    this.timeout(60_000);
    const p = file('namespace: example.org\ncompressionLevel: 12\n', 'bad.yaml');
    const store = path.join(dir, 'never', 'made.sqlite');
    const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', path.join(ROOT, 'server', 'cli.ts'), 'migrate', '--config', p], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent', OAI_CONFIG: '', DATABASE_URL: store },
      encoding: 'utf8',
    });
    expect(r.status).to.equal(2);
    expect(r.stderr).to.contain(`${p}:2: compressionLevel must be an integer from 1 to 9, not 12`);
    // Nothing was started half-configured: migrate did not create the store.
    expect(fs.existsSync(path.dirname(store))).to.equal(false);
  });
});
