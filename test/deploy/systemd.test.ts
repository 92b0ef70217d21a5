/**
 * deploy/systemd/oai-steward@.service: systemd itself reads it
 * (`systemd-analyze verify`, which must have nothing to say, and
 * `systemd-analyze security --offline`, which scores its sandbox), and the
 * hardening this project relies on is there, key by key.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { projectPath } from '../../server/paths';

const UNIT = projectPath('deploy', 'systemd', 'oai-steward@.service');
const ANALYZE = '/usr/bin/systemd-analyze';

/** The unit's [Service] settings: key → every value given (a key may repeat). */
function serviceSettings(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let section = '';
  for (const raw of fs.readFileSync(UNIT, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1] as string;
      continue;
    }
    const eq = line.indexOf('=');
    if (section !== 'Service' || eq < 0) continue;
    const key = line.slice(0, eq);
    out.set(key, [...(out.get(key) ?? []), line.slice(eq + 1)]);
  }
  return out;
}

/** The unit as one instance (port 3001), in a folder of its own, for systemd-analyze. */
function instance(): { dir: string; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-unit-'));
  const file = path.join(dir, 'oai-steward@3001.service');
  fs.copyFileSync(UNIT, file);
  return { dir, file };
}

describe('deploy/systemd/oai-steward@.service', () => {
  const hardening: [key: string, value: string][] = [
    ['NoNewPrivileges', 'yes'],
    ['ProtectSystem', 'strict'],
    ['ProtectHome', 'yes'],
    ['PrivateTmp', 'yes'],
    ['PrivateDevices', 'yes'],
    ['ProtectKernelTunables', 'yes'],
    ['ProtectKernelModules', 'yes'],
    ['ProtectControlGroups', 'yes'],
    ['RestrictAddressFamilies', 'AF_INET AF_INET6 AF_UNIX'],
    ['RestrictNamespaces', 'yes'],
    ['RestrictSUIDSGID', 'yes'],
    ['LockPersonality', 'yes'],
    ['SystemCallFilter', '@system-service'],
    ['SystemCallArchitectures', 'native'],
    ['CapabilityBoundingSet', ''],
    ['ReadWritePaths', '/var/lib/oai-steward'],
    ['User', 'oai-steward'],
  ];
  for (const [key, value] of hardening) {
    it(`sets ${key}=${value}`, () => {
      expect(serviceSettings().get(key)).to.include(value);
    });
  }

  it('runs the built server on the port its instance names, behind the proxy on the loopback address', () => {
    const s = serviceSettings();
    expect(s.get('ExecStart')?.[0]).to.match(/ \/opt\/oai-steward\/dist\/server\/cli\.js serve$/);
    expect(s.get('Environment')).to.include.members(['PORT=%i', 'HOST=127.0.0.1']);
    // A configuration or store the operator must fix (exit status 2) is not restarted in a loop.
    expect(s.get('RestartPreventExitStatus')).to.deep.equal(['2']);
  });

  it('is read by systemd-analyze verify without a word of complaint', function () {
    if (!fs.existsSync(ANALYZE)) throw new Error(`${ANALYZE} is missing: apt-get install systemd`);
    const { dir, file } = instance();
    try {
      const run = spawnSync(ANALYZE, ['verify', file], { encoding: 'utf8', cwd: dir });
      expect(run.status, run.stderr).to.equal(0);
      expect(`${run.stdout}${run.stderr}`.trim()).to.equal('');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is judged well sandboxed by systemd-analyze security (exposure below 2 of 10)', function () {
    if (!fs.existsSync(ANALYZE)) throw new Error(`${ANALYZE} is missing: apt-get install systemd`);
    const { dir, file } = instance();
    try {
      const run = spawnSync(ANALYZE, ['security', '--offline=true', '--no-pager', file], { encoding: 'utf8', cwd: dir });
      expect(run.status, run.stderr).to.equal(0);
      const m = /Overall exposure level for oai-steward@3001\.service: (\d+(?:\.\d+)?)/.exec(run.stdout);
      expect(m, run.stdout).to.not.equal(null);
      expect(Number(m?.[1])).to.be.below(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
