/**
 * The server's V8 flags are written in four places a process is started from
 * (server/node-flags.ts says why each flag is there): the flags the scripts
 * and the scheduler pass, the `oai-steward` bin's shebang, `npm start`, and
 * the systemd unit. A flag changed in one must change in all.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../server/node-flags';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The words between `node` and the script it runs, in a command line. */
function flagsOf(command: string, script: string): string[] {
  const words = command.trim().split(/\s+/);
  const node = words.findIndex((w) => w === 'node' || w.endsWith('/node'));
  const at = words.findIndex((w) => w.endsWith(script));
  expect(node, command).to.be.greaterThan(-1);
  expect(at, command).to.be.greaterThan(node);
  return words.slice(node + 1, at);
}

describe("the server's V8 flags", () => {
  it("are the flags of the bin's shebang", () => {
    const shebang = read('server/cli.ts').split('\n')[0] as string;
    expect(shebang.startsWith('#!/usr/bin/env -S node ')).to.equal(true);
    expect(shebang.slice('#!/usr/bin/env -S node '.length).split(/\s+/)).to.deep.equal(SERVER_NODE_FLAGS);
  });

  it('are the flags npm start runs the server with', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start as string;
    expect(flagsOf(start.split('&&').pop() as string, 'dist/server/cli.js')).to.deep.equal(SERVER_NODE_FLAGS);
  });

  it('are the flags the systemd unit starts the server with', () => {
    const exec = read('deploy/systemd/oai-steward@.service')
      .split('\n')
      .find((l) => l.startsWith('ExecStart='));
    expect(exec).to.not.equal(undefined);
    expect(flagsOf((exec as string).slice('ExecStart='.length), 'dist/server/cli.js')).to.deep.equal(SERVER_NODE_FLAGS);
  });
});
