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
import { SHUTDOWN_GRACE_MS } from '../../server/serve';

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

  it('trusts the nginx of deploy/ on this host, so each harvester is a client of its own', () => {
    expect(serviceSettings().get('Environment')).to.include('OAI_TRUST_PROXY=loopback');
  });

  it('waits longer before killing than the server lets responses in flight finish, with time to close the store', () => {
    const stop = serviceSettings().get('TimeoutStopSec');
    expect(stop).to.have.length(1);
    expect(Number(stop?.[0])).to.be.at.least(SHUTDOWN_GRACE_MS / 1000 + 5);
  });

  it('is installed, in docs/operations.md, with its state folder made for its user before that user migrates', () => {
    const doc = fs.readFileSync(projectPath('docs', 'operations.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## As a service'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const steps = block.split('\n').map((l) => l.trim());
    const at = (re: RegExp): number => {
      const i = steps.findIndex((l) => re.test(l));
      expect(i, `a step matching ${String(re)} in:\n${block}`).to.be.at.least(0);
      return i;
    };
    const user = at(/^useradd --system .*oai-steward$/);
    const state = at(/^install -d -o oai-steward -g oai-steward( -m \d+)? \/var\/lib\/oai-steward\b/);
    const config = at(/oai-steward\.yaml \/etc\/oai-steward\//);
    const migrate = at(/^runuser -u oai-steward -- .*\bmigrate$/);
    const enable = at(/^systemctl enable --now oai-steward@3001 oai-steward@3002$/);
    expect(user).to.be.below(state);
    expect(state).to.be.below(migrate);
    expect(config).to.be.below(migrate);
    expect(migrate).to.be.below(enable);
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
