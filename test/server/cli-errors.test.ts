/**
 * What a person sees when a command fails for a reason no command
 * anticipated (here: a database that does not answer): one line with the
 * error's message and exit status 1, never a stack trace; a developer gets
 * the stack by asking for it with OAI_DEBUG.
 */
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { expect } from 'chai';

const ROOT = path.resolve(__dirname, '..', '..');

function run(env: NodeJS.ProcessEnv): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ['-r', 'tsx/cjs', path.join(ROOT, 'server', 'cli.ts'), 'stats'], {
    cwd: ROOT,
    env: { ...process.env, OAI_DEBUG: '', ...env, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stderr: r.stderr };
}

describe('a command that fails unexpectedly', function () {
  this.timeout(90_000);

  it('says what failed in one line, with exit status 1 and no stack trace', () => {
    const r = run({});
    expect(r.status).to.equal(1);
    expect(r.stderr).to.match(/^oai-steward: connect ECONNREFUSED 127\.0\.0\.1:1$/m);
    expect(r.stderr).not.to.match(/^\s+at /m);
  });

  it('shows the stack trace to a developer who asks with OAI_DEBUG', () => {
    const r = run({ OAI_DEBUG: '1' });
    expect(r.status).to.equal(1);
    expect(r.stderr).to.match(/^\s+at /m);
  });
});
