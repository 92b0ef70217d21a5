/**
 * The README's tour, run as a new user runs it: the record of step 3 loaded
 * into the demo, then the readiness check of step 4, whose output must hold
 * the README's excerpt line for line; step 5 never starts a second server on
 * the port of step 1's; and a server on a busy port names the port and how
 * to choose another.
 */
import net from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { freePort } from '../../harness/free-port';
import { openThrowawayDatabase, type ThrowawayDatabase } from '../helpers/db';
import { readMarkdown } from '../helpers/markdown';
import { cli } from '../loader/helpers';

const README = readMarkdown('README.md').text;

/** The text of the tour's step `n`, up to the next step. */
function step(n: number): string {
  const from = README.indexOf(`**${n}. `);
  expect(from, `step ${n} of the tour`).to.be.at.least(0);
  const to = README.indexOf(`**${n + 1}. `, from);
  return README.slice(from, to < 0 ? undefined : to);
}

/** The first fenced block of `lang` in `text`. */
function fenced(text: string, lang: string): string {
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(text);
  if (!m) throw new Error(`no \`\`\`${lang} block in:\n${text}`);
  return m[1] as string;
}

describe('the README tour', function () {
  this.timeout(120_000);
  let db: ThrowawayDatabase;
  // As the tour runs it: no namespace configured, so the demo is served.
  const env = { OAI_NAMESPACE: '' };

  before(async () => {
    db = await openThrowawayDatabase('sqlite');
  });
  after(async () => {
    await db?.close();
  });

  it("gives, in step 4, the readiness check's own words for the record step 3 loads", async () => {
    const heredoc = /cat > my-records\.ndjson <<'EOF'\n([\s\S]*?)\nEOF\n/.exec(step(3));
    expect(heredoc, 'the record of step 3').to.not.equal(null);
    const file = path.join(db.dir, 'my-records.ndjson');
    fs.writeFileSync(file, `${heredoc?.[1] ?? ''}\n`);
    const seeded = await cli(db, ['seed'], { env });
    expect(seeded.code, seeded.stderr).to.equal(0);
    const loaded = await cli(db, ['load', file], { env });
    expect(loaded.code, loaded.stderr).to.equal(0);
    const command = /npx oai-steward (check --profile \S+)/.exec(fenced(step(4), 'sh'));
    expect(command, 'the command of step 4').to.not.equal(null);
    const check = await cli(db, (command?.[1] ?? '').split(' '), { env });
    // A mandatory rule fails on the demo: status 1, as the README says.
    expect(check.code, check.stderr).to.equal(1);
    const shown = fenced(step(4), 'text')
      .split('\n')
      .filter((l) => l.trim() !== '');
    expect(shown.length).to.be.above(0);
    const printed = check.stdout.split('\n').map((l) => l.trimEnd());
    for (const line of shown) expect(printed, `README line not in the output of check:\n${line}\n\noutput:\n${check.stdout}`).to.include(line.trimEnd());
  });

  it('stops the server of step 1 before step 5 starts another, or gives it another port', () => {
    const text = step(5);
    const serve = text.indexOf('serve     # an empty repository');
    expect(serve).to.be.at.least(0);
    const before = text.slice(0, serve);
    expect(before).to.match(/stop the server of step 1|PORT=\d+ npx oai-steward/);
  });

  it('names the busy port and how to choose another when the port is taken', async () => {
    const port = await freePort();
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const run = await cli(db, ['serve'], { env: { ...env, PORT: String(port), HOST: '127.0.0.1' } });
      expect(run.code).to.equal(1);
      expect(run.stderr.trim().split('\n')).to.deep.equal([
        `oai-steward: port ${port} on 127.0.0.1 is already in use (by another program, or an oai-steward still running): stop it, or choose another port, e.g. PORT=${port + 1} npm start (or \`port:\` in the configuration file)`,
      ]);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
