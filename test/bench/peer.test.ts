/**
 * When the benchmark can measure the pyoai peer, and what it says when it
 * cannot (bench/peer.ts). pyoai itself is never needed here: the cases that
 * would import it use a stand-in package that fails to import.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { peerUnavailable } from '../../bench/peer';

describe('peerUnavailable (the pyoai peer of the benchmark)', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-peer-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('asks for --pyoai when no folder is named', () => {
    expect(peerUnavailable(undefined, 'sqlite')).to.match(/^not measured: pass --pyoai DIR/);
  });

  it('says the peer reads SQLite only on a PostgreSQL run', () => {
    expect(peerUnavailable(dir, 'postgresql')).to.equal('not measured: the pyoai peer reads the SQLite store only');
  });

  it('says when the folder holds no oaipmh package', () => {
    expect(peerUnavailable(dir, 'sqlite')).to.equal(`not measured: ${dir} holds no oaipmh/server.py`);
  });

  it('says why when the package does not import, with the Debian packages it needs', () => {
    fs.mkdirSync(path.join(dir, 'oaipmh'));
    fs.writeFileSync(path.join(dir, 'oaipmh', '__init__.py'), '');
    fs.writeFileSync(path.join(dir, 'oaipmh', 'server.py'), 'import a_module_that_is_not_there\n');
    expect(peerUnavailable(dir, 'sqlite')).to.match(
      /^not measured: pyoai does not import \(.*a_module_that_is_not_there.*\); Debian: apt-get install python3-lxml python3-six$/,
    );
  });
});
