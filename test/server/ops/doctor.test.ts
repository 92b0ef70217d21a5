/**
 * `oai-steward doctor`, run as the operator runs it (a child process) on
 * each test database: a healthy store is reported finding by finding with
 * exit status 0; a missing or unreachable store, pending migrations, an XSD
 * that does not compile and the demo under another namespace are problems,
 * with exit status 1. The doctor changes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { migrationSource } from '../../../server/db/migrations';
import { loadConfig } from '../../../server/config';
import { formatsOf, readerConfigOf } from '../../../server/conversion';
import { loadDemo } from '../../../server/demo';
import { createStore } from '../../../server/provider';
import { recordError } from '../../../server/store/harvest-state';
import { migrateToBefore } from '../../helpers/db';
import { DEMO_NAMESPACE } from '../../helpers/demo-records';
import { cli, forEachCliDatabase, type CliDb } from '../../loader/helpers';

interface Finding {
  readonly check: string;
  readonly severity: 'ok' | 'warning' | 'problem';
  readonly message: string;
  readonly data?: Record<string, unknown>;
}

async function doctor(db: CliDb, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; ok: boolean; findings: Finding[]; text: string }> {
  const json = await cli(db, ['doctor', '--json'], { env });
  const report = JSON.parse(json.stdout) as { ok: boolean; findings: Finding[] };
  const text = await cli(db, ['doctor'], { env });
  expect(text.code, 'the text and JSON reports end alike').to.equal(json.code);
  return { code: json.code, ok: report.ok, findings: report.findings, text: text.stdout };
}

const problems = (findings: readonly Finding[]): string[] => findings.filter((f) => f.severity === 'problem').map((f) => `${f.check}: ${f.message}`);

/** `text` as a regular expression matching it literally. */
const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The first two stored oai_dc records, with the identifier of their item. */
async function twoStoredDc(knex: Knex): Promise<[StoredDc, StoredDc]> {
  const [first, second] = (await knex('records as r')
    .join('items as i', 'i.pk', 'r.item_pk')
    .whereNotNull('r.xml')
    .where('r.prefix', 'oai_dc')
    .select('r.item_pk', 'r.xml', 'i.identifier')
    .orderBy('r.item_pk')
    .limit(2)) as StoredDc[];
  if (!first || !second) throw new Error('the store has two stored oai_dc records');
  return [first, second];
}

interface StoredDc {
  readonly item_pk: number;
  readonly xml: string;
  readonly identifier: string;
}

/** The migration that gives records written before records had digests theirs. */
const RECORD_HASHES = '017_record_hashes';

/**
 * The demo repository in a store as the release before {@link RECORD_HASHES}
 * made it, written with `env`'s configuration: no record with a digest, as
 * an upgraded store written before records had them is (013 added the column
 * empty). The store is then upgraded as an operator does, with `migrate`.
 */
async function upgradedDemo(db: CliDb, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const knex = db.knex();
  await migrateToBefore(knex, RECORD_HASHES);
  const config = loadConfig({ DATABASE_URL: db.url, OAI_NAMESPACE: DEMO_NAMESPACE, LOG_LEVEL: 'silent', ...env });
  const formats = formatsOf(readerConfigOf(config));
  await loadDemo(createStore(config, knex, formats), formats);
  await knex('records').update({ hash: null });
  const migrated = await cli(db, ['migrate'], { env });
  expect(migrated.code, migrated.stderr).to.equal(0);
}

describe('oai-steward doctor', function () {
  this.timeout(120_000);
  forEachCliDatabase((db) => {
    it('reports a healthy store check by check, with exit status 0', async () => {
      expect((await cli(db(), ['seed'])).code).to.equal(0);
      const r = await doctor(db());
      expect(problems(r.findings)).to.deep.equal([]);
      expect(r.code).to.equal(0);
      expect(r.ok).to.equal(true);
      const by = (check: string): Finding[] => r.findings.filter((f) => f.check === check);
      expect(by('store')[0]?.severity).to.equal('ok');
      const names = (await migrationSource.getMigrations([])).map((m) => migrationSource.getMigrationName(m));
      expect(by('schema')[0]?.data).to.deep.include({ pending: [] });
      expect(new Set(by('schema')[0]?.data?.applied as string[])).to.deep.equal(new Set(names));
      expect(by('counts')[0]?.data).to.include({ items: 285, live: 275, deleted: 10, sets: 12 });
      expect(by('token secret')[0]?.message).to.match(/not made yet|kept in the store/);
      expect(by('formats').map((f) => f.data?.prefix)).to.deep.equal(['oai_dc', 'oai_openaire', 'datacite', 'oai_datacite', 'marc21', 'mods', 'edm']);
      expect(by('formats').every((f) => f.severity === 'ok')).to.equal(true);
      expect(r.text).to.match(/^ok {7}store {9}/m);
      expect(r.text).to.contain('no problem found');
    });

    it('finds the token secret once a server made it, and a configured one', async () => {
      expect((await cli(db(), ['migrate'])).code).to.equal(0);
      await db()
        .knex()('settings')
        .insert({ key: 'resumption_token_secret', value: 'a'.repeat(64) });
      expect((await doctor(db())).findings.find((f) => f.check === 'token secret')?.message).to.match(/kept in the store/);
      const short = await doctor(db(), { OAI_TOKEN_SECRET: 'short' });
      expect(short.findings.find((f) => f.check === 'token secret')).to.include({ severity: 'warning' });
    });

    it('finds pending migrations a problem, and changes nothing', async () => {
      expect((await cli(db(), ['migrate'])).code).to.equal(0);
      await db().knex().migrate.down({ migrationSource });
      const r = await doctor(db());
      expect(r.code).to.equal(1);
      expect(problems(r.findings).join('\n')).to.match(/schema: 1 migration\(s\) pending \(\w+\): run oai-steward migrate/);
      const [, pending] = (await db().knex().migrate.list({ migrationSource })) as [unknown[], unknown[]];
      expect(pending, 'the doctor migrated nothing').to.have.length(1);
    });

    it('stops at start-up, naming the key, on a declared format whose XSD does not compile', async () => {
      expect((await cli(db(), ['migrate'])).code).to.equal(0);
      const xsd = path.join(db().dir, 'thing.xsd');
      fs.writeFileSync(xsd, '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="x" type="no-such-type"/></xs:schema>');
      const config = path.join(db().dir, 'oai-steward.yaml');
      fs.writeFileSync(
        config,
        `formats:\n  - prefix: oai_dc\n  - prefix: thing\n    namespace: http://example.org/thing/\n    schema: http://example.org/thing.xsd\n    xsd: thing.xsd\n`,
      );
      // The configuration compiles every declared XSD when it is read, so no command (doctor included) runs on it.
      const r = await cli(db(), ['doctor', '--json'], { env: { OAI_CONFIG: config } });
      expect(r.code).to.equal(2);
      expect(r.stderr).to.match(/^oai-steward: configuration: .*oai-steward\.yaml:6: formats\[1\]\.xsd: .*thing\.xsd cannot be compiled/);
    });

    it('checks the dump folder against its manifest', async () => {
      expect((await cli(db(), ['seed'])).code).to.equal(0);
      const dir = path.join(db().dir, 'dumps');
      const missing = await doctor(db(), { OAI_DUMP_DIR: dir });
      expect(problems(missing.findings).join('\n')).to.contain(`dumps: dumpDir ${dir} is not a folder`);
      fs.mkdirSync(dir);
      expect((await doctor(db(), { OAI_DUMP_DIR: dir })).findings.find((f) => f.check === 'dumps')).to.include({ severity: 'warning' });
      const dumped = await cli(db(), ['dump', dir]);
      expect(dumped.code, dumped.stderr).to.equal(0);
      const good = await doctor(db(), { OAI_DUMP_DIR: dir });
      expect(good.code, problems(good.findings).join('\n')).to.equal(0);
      expect(good.findings.find((f) => f.check === 'dumps')).to.include({ severity: 'ok' });
      const victim = fs.readdirSync(dir).find((f) => f.endsWith('.gz')) as string;
      fs.appendFileSync(path.join(dir, victim), 'x');
      const bad = await doctor(db(), { OAI_DUMP_DIR: dir });
      expect(bad.code).to.equal(1);
      expect(problems(bad.findings).join('\n')).to.match(new RegExp(`does not match its manifest: ${victim.replace(/\./g, '\\.')} has \\d+ bytes`));
    });

    it('reports each configured source, and one failing since its last success as a problem', async () => {
      expect((await cli(db(), ['migrate'])).code).to.equal(0);
      const config = path.join(db().dir, 'oai-steward.yaml');
      fs.writeFileSync(config, 'sources:\n  - name: far\n    baseUrl: http://127.0.0.1:9/oai\n');
      const fresh = await doctor(db(), { OAI_CONFIG: config });
      expect(fresh.findings.find((f) => f.check === 'sources')).to.include({ severity: 'ok' });
      expect(fresh.findings.find((f) => f.check === 'sources')?.message).to.contain('far: http://127.0.0.1:9/oai, not harvested yet');
      await recordError(db().knex(), { source: 'far', prefix: 'oai_dc', set: '' }, 'connection refused (127.0.0.1:9)', 1_700_000_000);
      const down = await doctor(db(), { OAI_CONFIG: config });
      expect(down.code).to.equal(1);
      expect(problems(down.findings).join('\n')).to.contain(
        'sources: far: 1 of 1 lists failed since their last success; oai_dc: connection refused (127.0.0.1:9)',
      );
    });

    it('finds formats written on demand under another configuration a problem, naming rebuild-formats', async () => {
      const env = { OAI_WRITTEN_FORMATS: 'on-demand' };
      expect((await cli(db(), ['seed'], { env })).code).to.equal(0);
      const same = await doctor(db(), env);
      expect(problems(same.findings)).to.deep.equal([]);
      expect(same.findings.find((f) => f.check === 'written formats')?.severity).to.equal('ok');
      const other = await doctor(db(), { ...env, OAI_POI_IN_DC: 'false' });
      expect(other.code).to.equal(1);
      expect(problems(other.findings).join('\n')).to.match(
        /^written formats: .*stored w\d+:\S+, configured w\d+:\S+\): serve refuses to start; run oai-steward rebuild-formats$/m,
      );
      const served = await cli(db(), ['serve'], { env: { ...env, OAI_POI_IN_DC: 'false', PORT: '0' } });
      expect(served.code).to.equal(1);
      expect(served.stderr).to.match(/^oai-steward: this store writes its formats on demand under another formats configuration .*rebuild-formats/m);
      expect(served.stderr).not.to.match(/\n\s+at /);
    });

    it('finds a table dropped outside oai-steward a problem, naming the restore', async () => {
      expect((await cli(db(), ['seed'])).code).to.equal(0);
      await db().knex().schema.dropTable('record_fields');
      const r = await doctor(db());
      expect(r.code).to.equal(1);
      expect(problems(r.findings)).to.include(
        `tables: table record_fields is missing: the store was changed outside oai-steward: restore the last backup (${db().name === 'sqlite' ? 'oai-steward restore FILE' : 'pg_restore, docs/operations.md#backup-and-restore'})`,
      );
      expect(r.text).to.match(/^PROBLEM {2}tables {8}table record_fields is missing/m);
    });

    it('finds a truncated stored record and one altered behind its digest, in a full scan', async () => {
      expect((await cli(db(), ['seed'])).code).to.equal(0);
      const knex = db().knex();
      const [first, second] = await twoStoredDc(knex);
      await knex('records')
        .where({ item_pk: first.item_pk, prefix: 'oai_dc' })
        .update({ xml: first.xml.slice(0, Math.floor(first.xml.length / 2)) });
      await knex('records')
        .where({ item_pk: second.item_pk, prefix: 'oai_dc' })
        .update({ xml: second.xml.replace('</dc:title>', ' (edited)</dc:title>') });
      const r = await doctor(db());
      expect(r.code).to.equal(1);
      const found = problems(r.findings).join('\n');
      expect(found).to.match(
        new RegExp(
          `^records: 1 of all \\d+ stored records are no longer well-formed XML, served without their metadata \\(${literal(first.identifier)} oai_dc: .*\\): load these records again`,
          'm',
        ),
      );
      expect(found).to.match(
        new RegExp(
          `^records: 1 of all \\d+ stored records no longer match the digest they were stored with, changed outside oai-steward \\(${literal(second.identifier)} oai_dc\\)`,
          'm',
        ),
      );
      const quick = await cli(db(), ['doctor', '--quick', '--json']);
      expect((JSON.parse(quick.stdout) as { findings: Finding[] }).findings.find((f) => f.check === 'records')?.message).to.match(/sampled stored records/);
    });

    it('finds a record edited on a store upgraded from records without digests, naming its identifier and format', async () => {
      await upgradedDemo(db());
      const knex = db().knex();
      const [edited, undigested] = await twoStoredDc(knex);
      await knex('records')
        .where({ item_pk: edited.item_pk, prefix: 'oai_dc' })
        .update({ xml: edited.xml.replace('</dc:title>', ' (edited)</dc:title>') });
      await knex('records').where({ item_pk: undigested.item_pk, prefix: 'oai_dc' }).update({ hash: null });
      const r = await doctor(db());
      expect(r.code).to.equal(1);
      const found = problems(r.findings);
      expect(found).to.have.length(3);
      expect(found[0]).to.match(
        new RegExp(
          `^records: 1 of all \\d+ stored records no longer match the digest they were stored with, changed outside oai-steward \\(${literal(edited.identifier)} oai_dc\\): load these records again`,
        ),
      );
      expect(found[1]).to.match(
        new RegExp(
          `^records: 1 of all \\d+ stored records have no digest, so a change to them cannot be seen \\(${literal(undigested.identifier)} oai_dc\\): `,
        ),
      );
      // The publication log names the edited record too: its bytes are not those its latest entry hashed.
      expect(found[2]).to.match(
        new RegExp(`^log: the publication log disagrees with the store: ${literal(edited.identifier)} disagrees with its latest entry`),
      );
    });

    it('checks every record of a store upgraded from records without digests, tombstones too, and finds nothing wrong', async () => {
      await upgradedDemo(db());
      const r = await doctor(db());
      expect(problems(r.findings)).to.deep.equal([]);
      const records = r.findings.filter((f) => f.check === 'records');
      expect(records.map((f) => f.severity)).to.deep.equal(['ok']);
      const stored = (await db().knex()('records').count({ n: '*' })) as { n: unknown }[];
      expect(records[0]?.data?.read, 'every row, tombstones too').to.equal(Number(stored[0]?.n));
    });

    it('says formats written on demand on an upgraded store have no digest, a warning: they keep no bytes to check', async () => {
      const env = { OAI_WRITTEN_FORMATS: 'on-demand' };
      await upgradedDemo(db(), env);
      const knex = db().knex();
      const left = (await knex('records as r').join('items as i', 'i.pk', 'r.item_pk').whereNull('r.hash').select('r.xml', 'i.deleted')) as {
        xml: string | null;
        deleted: unknown;
      }[];
      expect(left.length, 'the migration leaves the formats written on demand without one').to.be.above(0);
      expect(left.every((row) => row.xml === null && !row.deleted)).to.equal(true);
      const r = await doctor(db(), env);
      expect(problems(r.findings)).to.deep.equal([]);
      const warned = r.findings.find((f) => f.check === 'records' && f.severity === 'warning');
      expect(warned?.message).to.match(new RegExp(`^${left.length} formats written on demand have no digest \\(oai:${literal(DEMO_NAMESPACE)}:\\S+ \\w+; `));
    });

    it('finds the configured namespace differing from the one items were published under a problem', async () => {
      const file = path.join(db().dir, 'r.ndjson');
      fs.writeFileSync(file, ['r1', 'r2'].map((id) => JSON.stringify({ id, dc: { title: [`Title ${id}`] } })).join('\n'));
      const env = { OAI_NAMESPACE: 'old.example.edu', OAI_SEED_DEMO: 'false' };
      expect((await cli(db(), ['load', file], { env })).code).to.equal(0);
      expect((await doctor(db(), env)).code, 'the namespace they were published under is fine').to.equal(0);
      const r = await doctor(db(), { ...env, OAI_NAMESPACE: 'changed.example.edu' });
      expect(r.code).to.equal(1);
      expect(problems(r.findings).join('\n')).to.contain(
        'identifiers: 2 of 2 items were published under the namespace old.example.edu (e.g. oai:old.example.edu:r1), not the configured changed.example.edu: ' +
          'Identify would announce changed.example.edu beside them, and a published identifier never changes; set namespace back to old.example.edu',
      );
    });

    it('finds the demo under another namespace a problem', async () => {
      expect((await cli(db(), ['seed'])).code).to.equal(0);
      const r = await doctor(db(), { OAI_NAMESPACE: 'repository.example.edu' });
      expect(r.code).to.equal(1);
      expect(problems(r.findings).join('\n')).to.contain(
        'demo: the store holds the demo repository under demo.oai-steward.org, but the namespace is repository.example.edu',
      );
    });
  });

  it('finds a missing SQLite store a problem without creating it, with exit status 2 as every command', async () => {
    const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'oai-steward-doctor-'));
    try {
      const file = path.join(dir, 'nothing-here.sqlite');
      const fake = { url: `sqlite:${file}`, dir } as CliDb;
      const r = await doctor(fake);
      expect(r.code).to.equal(2);
      expect(problems(r.findings).join('\n')).to.contain(`store: no store at sqlite:${file}: the database was taken from DATABASE_URL`);
      expect(fs.existsSync(file)).to.equal(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds an unreachable PostgreSQL a problem, and hides its password', async () => {
    const fake = { url: 'postgres://steward:s3cret@127.0.0.1:1/nowhere', dir: '/tmp' } as CliDb;
    const r = await doctor(fake);
    expect(r.code).to.equal(1);
    expect(problems(r.findings).join('\n')).to.match(/store: postgres:\/\/steward:\*\*\*@127\.0\.0\.1:1\/nowhere does not answer/);
    expect(JSON.stringify(r.findings)).not.to.contain('s3cret');
  });
});
