/**
 * `oai-steward check --profile …` run as a child process on a throwaway
 * store, as a repository manager runs it: the table, --json, the exit
 * status, and paging through the store in small batches.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { CheckReport } from '../../lib/check/profiles';
import { cli, forEachCliDatabase, ROOT } from '../loader/helpers';

const ENV = { OAI_POI_IN_DC: 'false' };

function ndjson(records: unknown[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

const linked = (id: string, extra: Record<string, string[]> = {}) => ({
  id,
  dc: {
    title: [`Title ${id}`],
    identifier: [`https://repo.example.org/${id}`],
    type: ['Text'],
    rights: ['info:eu-repo/semantics/openAccess'],
    language: ['en'],
    date: ['2024'],
    ...extra,
  },
});

forEachCliDatabase((db) => {
  async function load(records: unknown[], sets?: unknown[]): Promise<void> {
    const file = path.join(db().dir, 'records.ndjson');
    fs.writeFileSync(file, ndjson(records));
    const args = ['load', file];
    if (sets) {
      const setsFile = path.join(db().dir, 'sets.json');
      fs.writeFileSync(setsFile, JSON.stringify(sets));
      args.splice(1, 0, '--sets', setsFile);
    }
    const run = await cli(db(), args, { env: ENV });
    expect(run.code, run.stderr).to.equal(0);
  }

  it('passes with exit status 0 when every mandatory rule is met, and says so rule by rule', async () => {
    await load([linked('a'), linked('b'), { id: 'gone', deleted: true }]);
    const run = await cli(db(), ['check', '--profile', 'base'], { env: ENV });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.contain('BASE, Golden Rules for Repository Managers: 3 records checked');
    expect(run.stdout).to.match(/ok\s+2\/2\s+mandatory\s+identifier-link\s+BASE/);
    expect(run.stdout).to.contain('passed: every mandatory rule is met');
  });

  it('fails with exit status 1 and names records, fields and reasons, at most five per rule', async () => {
    const unlinked = Array.from({ length: 7 }, (_, k) => ({ id: `u${k}`, dc: { title: [`U${k}`], identifier: [`local-${k}`] } }));
    await load([linked('a'), ...unlinked]);
    const run = await cli(db(), ['check', '--profile', 'base', '--batch-size', '3'], { env: ENV });
    expect(run.code, run.stderr).to.equal(1);
    expect(run.stdout).to.match(/FAIL\s+1\/8\s+mandatory\s+identifier-link/);
    const examples = run.stdout.split('\n').filter((l) => l.includes(': dc.identifier: missing: a dc:identifier link'));
    expect(examples).to.have.length(5);
    expect(examples[0]).to.contain('oai:demo.oai-steward.org:u0');
    expect(run.stdout).to.contain('failed: 1 mandatory rule not met');
  });

  it('reports as JSON with --json, the same counts as the table', async () => {
    await load(
      [linked('a'), { id: 'b', dc: { title: ['B'], identifier: ['https://repo.example.org/b'], rights: ['info:eu-repo/semantics/openAccess'] } }],
      [{ spec: 'open_access', name: 'Open Access' }],
    );
    const run = await cli(db(), ['check', '--profile', 'dini', '--json'], { env: ENV });
    expect(run.code, run.stderr).to.equal(1);
    const report = JSON.parse(run.stdout) as CheckReport;
    expect(report).to.include({ profile: 'dini', items: 2, passed: false });
    const oa = report.rules.find((r) => r.id === 'set-open_access-complete');
    expect(oa).to.include({ checked: 2, satisfied: 0, level: 'mandatory' });
    expect(oa?.failures.map((f) => f.field)).to.deep.equal(['sets', 'sets']);
    expect(report.rules.find((r) => r.id === 'language')).to.include({ checked: 2, satisfied: 1, level: 'recommended' });
  });

  it("passes OpenAIRE's own valid v4 sample, loaded as oai_openaire XML, on every openaire4 rule its content satisfies", async () => {
    // The sample (test/fixtures/formats/openaire/sample_journalarticle1.xml, valid against openaire-4) names no Issued date: its
    // Accepted and Available dates are an embargo period's, so the publication date is what it lacks.
    const folder = path.join(db().dir, 'openaire');
    fs.mkdirSync(folder);
    fs.copyFileSync(path.join(ROOT, 'test', 'fixtures', 'formats', 'openaire', 'sample_journalarticle1.xml'), path.join(folder, 'sample_journalarticle1.xml'));
    const config = path.join(db().dir, 'oai-steward.yaml');
    fs.writeFileSync(config, 'formats:\n  - prefix: oai_dc\n  - prefix: oai_openaire\n');
    const loaded = await cli(db(), ['load', '--config', config, folder], { env: ENV });
    expect(loaded.code, loaded.stderr).to.equal(0);
    const run = await cli(db(), ['check', '--config', config, '--profile', 'openaire4', '--json'], { env: ENV });
    const report = JSON.parse(run.stdout) as CheckReport;
    const rule = (id: string) => report.rules.find((r) => r.id === id);
    const satisfied = [
      'format-oai_openaire',
      'title',
      'creator',
      'resource-type',
      'access-rights',
      'resource-identifier',
      'file-location',
      'language',
      'publisher',
      'license',
    ];
    for (const id of satisfied) expect(rule(id), id).to.deep.include({ checked: 1, satisfied: 1 });
    expect(rule('embargo-end'), 'not embargoed').to.deep.include({ checked: 0 });
    expect(rule('publication-date')?.failures.map((f) => f.reason)).to.deep.equal(['missing: a publication date (datacite:date dateType="Issued")']);
    expect(run.code).to.equal(1);
  });

  it('refuses an unknown profile with exit status 2', async () => {
    const run = await cli(db(), ['check', '--profile', 'rioxx'], { env: ENV });
    expect(run.code).to.equal(2);
    expect(run.stderr).to.contain('--profile must be one of openaire4, openaire3, driver, base, dini, europeana, core');
  });

  it('judges the records by CORE and by Europeana: the full-text link in oai_dc, and edm offered only with the institutions configured', async () => {
    const pdf = 'https://repo.example.org/files/a.pdf';
    await load([
      {
        ...linked('a', { identifier: ['https://repo.example.org/a', pdf], rights: ['https://creativecommons.org/licenses/by/4.0/'], creator: ['Lens, Lea'] }),
        files: [{ url: pdf, mediaType: 'application/pdf' }],
      },
      { ...linked('b'), files: [{ url: 'https://repo.example.org/files/b.pdf' }] },
    ]);
    const core = await cli(db(), ['check', '--profile', 'core', '--json'], { env: ENV });
    expect(core.code, core.stderr).to.equal(1);
    const report = JSON.parse(core.stdout) as CheckReport;
    const fulltext = report.rules.find((r) => r.id === 'fulltext-link');
    expect(fulltext).to.deep.include({ checked: 2, satisfied: 1 });
    expect(fulltext?.failures.map((f) => f.identifier)).to.deep.equal(['oai:demo.oai-steward.org:b']);
    // The default configuration names no data provider: no record has edm, and the check says so first.
    const europeana = await cli(db(), ['check', '--profile', 'europeana'], { env: ENV });
    expect(europeana.code, europeana.stderr).to.equal(1);
    expect(europeana.stdout).to.match(/FAIL\s+0\/2\s+mandatory\s+format-edm/);
    expect(europeana.stdout).to.match(/FAIL\s+1\/2\s+mandatory\s+rights/);
    expect(europeana.stdout).to.match(/ok\s+2\/2\s+mandatory\s+language/);
  });
});
