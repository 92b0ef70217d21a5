/**
 * `oai-steward id` through the real command (the contract other tools depend on): exit
 * statuses, one JSON object per line, and PDI minting from the store.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.join(__dirname, '..', '..');

function cli(args: string[], env: NodeJS.ProcessEnv = {}, input?: string): { status: number | null; out: string[]; err: string } {
  const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', path.join(ROOT, 'server', 'cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    ...(input !== undefined && { input }),
  });
  return { status: r.status, out: r.stdout.split('\n').filter(Boolean), err: r.stderr };
}

describe('oai-steward id', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-cli-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('inspects identifiers given as arguments and exits 0 when all are valid', () => {
    const r = cli(['id', 'inspect', 'oai:arXiv.org:hep-th/9901001', 'info:sid/OCLC.org:inspec']);
    expect(r.status).to.equal(0);
    expect(r.out.map((l) => JSON.parse(l).normalized)).to.deep.equal(['oai:arXiv.org:hep-th/9901001', 'info:sid/oclc.org:inspec']);
  });

  it('reads standard input, exits 1 when one is invalid, and summarizes on standard error', () => {
    const r = cli(['id', 'inspect'], {}, 'oai:foo.org:some-local-id-53\noai:wibble.org:ab%3ccd\n');
    expect(r.status).to.equal(1);
    expect(r.out.map((l) => JSON.parse(l).valid)).to.deep.equal([true, false]);
    expect(r.err).to.match(/1 valid, 1 invalid/);
  });

  it('mints daily serial numbers from the store, starting at 1 for each day', () => {
    const env = { DATABASE_URL: path.join(dir, 'pdi.sqlite') };
    // Minting reads and writes the store's serial numbers: the store is made first, as only migrate, seed, load and serve make one.
    expect(cli(['migrate'], env).status).to.equal(0);
    const mint = (date: string): string => {
      const r = cli(['id', 'mint-pdi', '--series', 'pubs.example.us', '--format', 'html', '--date', date], env);
      expect(r.status, r.err).to.equal(0);
      return JSON.parse(r.out[0] as string).pdi as string;
    };
    const first = mint('2024-03-01');
    const second = mint('2024-03-01');
    const nextDay = mint('2024-03-02');
    expect(first).to.match(/\/2024\/03\/01\/1\.html\.1$/);
    expect(second).to.match(/\/2024\/03\/01\/2\.html\.1$/);
    expect(nextDay).to.match(/\/2024\/03\/02\/1\.html\.1$/);
    const check = cli(['id', 'inspect', first, second, nextDay]);
    expect(check.status).to.equal(0);
  });
});
