/**
 * Configuration that must stop start-up, naming the key: names that only
 * `Object.prototype` knows, base URLs and description links that are not
 * http(s) or whose path is not plain, unknown log levels, a declared XSD that
 * does not compile; and what must not: YAML aliases, resolved. The endpoint
 * path is matched literally, never as an Express route pattern.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pino from 'pino';
import { ConfigError, loadConfig } from '../../server/config';
import { accessRightOf } from '../../lib/model/facts';
import { euRepoType } from '../../lib/formats/oai-dc-profile';
import { forEachProvider, request } from '../helpers/server';
import { serveApp } from '../helpers/hostile';

const ROOT = path.join(__dirname, '..', '..');

describe('configuration refused at start-up', function () {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-refusals-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = (text: string): string => {
    const p = path.join(dir, `c${Math.random().toString(36).slice(2)}.yaml`);
    fs.writeFileSync(p, text);
    return p;
  };
  const refusal = (f: () => unknown): string => {
    try {
      f();
    } catch (err) {
      expect(err).to.be.instanceOf(ConfigError);
      return (err as Error).message;
    }
    throw new Error('accepted');
  };

  for (const prefix of ['constructor', 'toString', 'valueOf', '__proto__', 'hasOwnProperty']) {
    it(`refuses a format prefix "${prefix}" as no built-in format`, () => {
      const p = file(`formats:\n  - prefix: ${prefix}\n`);
      expect(refusal(() => loadConfig({ OAI_CONFIG: p }, dir))).to.match(/formats\[0\].*not a built-in format/);
    });
  }

  it('refuses an option "__proto__" of a built-in format as an unknown option', () => {
    const p = file('formats:\n  - prefix: oai_datacite\n    options: { __proto__: x }\n');
    expect(refusal(() => loadConfig({ OAI_CONFIG: p }, dir))).to.match(/formats\[0\]\.options\.__proto__.*takes no option "__proto__"/);
  });

  it('refuses a read replica that is no PostgreSQL URL, or of a SQLite store, and token positions on SQLite', () => {
    const pg = 'postgres://oai@127.0.0.1:5432/oai';
    expect(refusal(() => loadConfig({ DATABASE_URL: pg, OAI_READ_REPLICA: 'sqlite:/tmp/x.sqlite' }, dir))).to.match(
      /^OAI_READ_REPLICA must be a postgres:\/\/ URL/,
    );
    expect(refusal(() => loadConfig({ DATABASE_URL: 'sqlite:/tmp/x.sqlite', OAI_READ_REPLICA: pg }, dir))).to.match(
      /^OAI_READ_REPLICA needs a PostgreSQL database \(a replica of it\)/,
    );
    expect(refusal(() => loadConfig({ DATABASE_URL: 'sqlite:/tmp/x.sqlite', OAI_TOKEN_POSITIONS: 'true' }, dir))).to.match(
      /^OAI_TOKEN_POSITIONS needs a PostgreSQL database/,
    );
    const c = loadConfig({ DATABASE_URL: pg, OAI_READ_REPLICA: 'postgres://oai@127.0.0.1:5433/oai' }, dir);
    expect([c.readReplica, c.tokenPositions]).to.deep.equal(['postgres://oai@127.0.0.1:5433/oai', true]);
    expect(loadConfig({ DATABASE_URL: pg }, dir).tokenPositions).to.equal(false);
  });

  const badBaseUrls = [
    ['ftp://example.org/oai', /http/],
    ['javascript:alert(1)', /http/],
    ['http://example.org/oai?verb=Identify', /no query/],
    ['http://example.org/oai#x', /no query or fragment/],
    ['http://user:pw@example.org/oai', /user name/],
    ['http://example.org/a/../oai', /plain path/],
    ['http://example.org//oai', /plain path/],
    ['http://example.org/o ai', /plain path|not a URL/],
    ['not a url', /not a URL/],
  ] as const;
  for (const [value, problem] of badBaseUrls) {
    it(`refuses baseUrl ${JSON.stringify(value)}, naming the variable`, () => {
      const message = refusal(() => loadConfig({ OAI_BASE_URL: value }, dir));
      expect(message).to.contain('OAI_BASE_URL');
      expect(message).to.match(problem);
    });
  }

  it('accepts a base URL whose path holds characters Express would read as a pattern', () => {
    expect(loadConfig({ OAI_BASE_URL: 'https://example.org/oai/:verb' }, dir).baseUrl).to.equal('https://example.org/oai/:verb');
    expect(loadConfig({ OAI_BASE_URL: 'https://example.org/oai(x)*' }, dir).baseUrl).to.equal('https://example.org/oai(x)*');
  });

  const badLinks = [
    ['friends: [ftp://example.org/oai]', 'identify.friends'],
    ['rightsManifest: ["javascript:alert(1)"]', 'identify.rightsManifest'],
    ['branding: { collectionIcon: { url: "javascript:alert(1)" } }', 'identify.branding.collectionIcon.url'],
    ['eprints: { metadataPolicy: { url: "file:///etc/passwd" }, dataPolicy: { text: x } }', 'identify.eprints.metadataPolicy.url'],
  ] as const;
  for (const [yaml, key] of badLinks) {
    it(`refuses a description link that is not http(s): ${key}`, () => {
      const p = file(`identify:\n  ${yaml}\n`);
      const message = refusal(() => loadConfig({ OAI_CONFIG: p }, dir));
      expect(message).to.contain(key);
      expect(message).to.match(/http/);
    });
  }

  it('refuses a log level pino does not have, naming LOG_LEVEL', () => {
    expect(refusal(() => loadConfig({ LOG_LEVEL: 'silly' }, dir))).to.match(/LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/);
  });

  it('refuses a declared format whose XSD does not compile, naming the key', () => {
    const notSchema = path.join(dir, 'passwd');
    fs.writeFileSync(notSchema, 'root:x:0:0:root:/root:/bin/bash\n');
    const p = file(`formats:\n  - prefix: mine\n    namespace: http://example.org/mine/\n    schema: http://example.org/mine.xsd\n    xsd: ${notSchema}\n`);
    const message = refusal(() => loadConfig({ OAI_CONFIG: p }, dir));
    expect(message).to.match(/:5: formats\[\d\]\.xsd: .*cannot be compiled/);
  });

  it('resolves YAML aliases rather than refusing them', () => {
    const p = file(
      [
        'sets:',
        '  - spec: open',
        '    name: Open',
        '    rule: &oa { accessRights: open }',
        '  - spec: open2',
        '    name: Open too',
        '    rule: *oa',
        'adminEmails: &who [a@example.org]',
      ].join('\n'),
    );
    const c = loadConfig({ OAI_CONFIG: p }, dir);
    expect(c.sets.computed.map((s) => s.spec)).to.deep.equal(['open', 'open2']);
  });

  it('refuses a file of aliases that would expand without bound', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(', ')}]`);
    const p = file(lines.join('\n'));
    expect(refusal(() => loadConfig({ OAI_CONFIG: p }, dir))).to.match(/would expand the file by more than 10000 values/);
  });

  it('exits with status 2 naming the key when the CLI starts with such a configuration', () => {
    const p = file('formats:\n  - prefix: constructor\n');
    const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', path.join(ROOT, 'server', 'cli.ts'), 'stats', '--config', p], {
      encoding: 'utf8',
      timeout: 30_000,
      cwd: ROOT,
    });
    expect(r.status).to.equal(2);
    expect(r.stderr).to.match(/^oai-steward: configuration: .*formats\[0\]/);
    expect(r.stderr).not.to.match(/\n\s+at /);
  });
});

describe('names from records looked up in tables', () => {
  for (const name of ['constructor', 'toString', '__proto__']) {
    it(`finds no access right in a dc:rights of "${name}"`, () => {
      expect(accessRightOf({ dc: { rights: [name] } })).to.equal(undefined);
    });
    it(`finds no info:eu-repo type for a COAR type ending in "${name}"`, () => {
      expect(euRepoType({ dc: {}, resourceType: { coar: `http://purl.org/coar/resource_type/${name}`, general: 'Text', label: name } } as never)).to.equal(
        'other',
      );
    });
  }
});

describe('the endpoint path, matched literally', function () {
  this.timeout(30_000);
  forEachProvider({ seed: false }, (get) => {
    for (const endpoint of ['/oai/:verb', '/oai(x)*']) {
      it(`serves ${endpoint} at that path only`, async () => {
        const ctx = { ...get().ctx, repository: { ...get().ctx.repository, baseURL: `http://localhost${endpoint}` } };
        const server = await serveApp({ ctx, logger: pino({ level: 'silent' }), compressionLevel: 1, maxInFlight: 8, retryAfter: 7 });
        try {
          expect((await request(server.port, { path: endpoint, query: 'verb=Identify' })).status).to.equal(200);
          expect((await request(server.port, { path: '/oai/anything', query: 'verb=Identify' })).status).to.equal(404);
          expect((await request(server.port, { path: '/oaixxx', query: 'verb=Identify' })).status).to.equal(404);
        } finally {
          await server.close();
        }
      });
    }
  });
});
