/**
 * `oai-steward doctor`: one look at everything a running repository depends
 * on, without changing anything (it never migrates, seeds or creates a
 * store). Each check reports findings: `ok`, `warning` (worth knowing, not
 * wrong) or `problem` (the repository cannot run or publishes something it
 * should not); any problem makes the exit status 1.
 *
 * Checks are a list ({@link DOCTOR_CHECKS}): a feature that adds
 * configuration worth checking (harvest sources, a dump folder, …) adds
 * one function here, reading its keys from the configuration it is given.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config } from '../config';
import type { RepositoryStore } from '../../lib/store';
import { databaseKind, sqliteFilename } from '../db/connection';
import { LATEST_MIGRATION } from '../db/migrations';
import { openExistingDatabase, type ExistingDatabase } from '../store/database';
import { formatsOf, readerConfigOf } from '../conversion';
import { addCatalogs } from '../xsd/libxml';
import { schemaFor } from '../xsd/schemas';
import { rootNamespaceOf } from '../../lib/formats/format';
import { demoHolding } from '../demo-guard';
import { createStore } from '../provider';
import { MANIFEST_NAME, type DumpManifest } from '../dump/manifest';
import { lastLoad } from '../runs';
import { publicationLog } from './doctor-log';
import { ok, problem, redactUrl, warning, type DoctorCheck, type DoctorContext, type DoctorReport, type Finding, type Severity } from './doctor-findings';
import { identifiers, oaiDc, records, tables } from './doctor-data';

/** The configuration as read: where from, and what a harvester sees. */
const configuration: DoctorCheck = async ({ config }) => {
  const out: Finding[] = [
    ok(
      'configuration',
      `read ${config.configFile === undefined ? 'from the environment and defaults (no configuration file)' : `from ${config.configFile} and the environment`}`,
      {
        file: config.configFile ?? null,
        baseUrl: config.baseUrl,
        namespace: config.namespace,
        repositoryName: config.repositoryName,
        database: redactUrl(config.databaseUrl),
        seedDemo: config.seedDemo,
      },
    ),
  ];
  const base = new URL(config.baseUrl);
  if (base.hostname === 'localhost' || base.hostname === '127.0.0.1') {
    out.push(
      warning(
        'configuration',
        `baseUrl ${config.baseUrl} is a local address: harvesters elsewhere cannot reach it (set baseUrl to the public URL, docs/operations.md#behind-a-reverse-proxy)`,
      ),
    );
  } else if (base.protocol !== 'https:') {
    out.push(warning('configuration', `baseUrl ${config.baseUrl} is not https`));
  }
  if (config.seedDemo) {
    out.push(
      warning('configuration', `seedDemo is true: an empty store gets the demo repository under the namespace ${config.namespace} (docs/demo-repository.md)`),
    );
  }
  return out;
};

/** The store answers, and what it holds. */
const answers: DoctorCheck = async ({ config, migrations }) => {
  if (migrations === null) {
    return [
      problem(
        'store',
        `no store at ${redactUrl(config.databaseUrl)}: the database was taken from ${config.databaseFrom}; ` +
          (config.configFile !== undefined
            ? `create the store with oai-steward --config ${config.configFile} migrate, or load or harvest into it`
            : "name the repository's configuration (--config FILE or OAI_CONFIG=FILE), or create the store with oai-steward migrate"),
      ),
    ];
  }
  return [ok('store', `${databaseKind(config.databaseUrl)} store at ${redactUrl(config.databaseUrl)} answers`)];
};

/** Migrations applied and pending. */
const schema: DoctorCheck = async ({ migrations, pendingMigrations }) => {
  if (migrations === null) return [];
  if (!migrations.tracked) {
    return [
      problem('schema', 'the database holds no oai-steward store yet: run oai-steward migrate (serve does it on start)', {
        applied: [],
        pending: pendingMigrations,
      }),
    ];
  }
  const names = [...migrations.applied];
  const unknown = migrations.unknown;
  const data = { applied: names, pending: pendingMigrations };
  if (unknown.length > 0)
    return [
      problem(
        'schema',
        `the store has schema ${names[names.length - 1] ?? '-'}, newer than this oai-steward's ${LATEST_MIGRATION} (it does not know ${unknown.join(', ')}): ` +
          'upgrade to the version that migrated it, or restore a backup taken before (oai-steward restore FILE); every command refuses this store',
        data,
      ),
    ];
  if (pendingMigrations.length > 0) {
    return [
      problem(
        'schema',
        `${pendingMigrations.length} migration(s) pending (${pendingMigrations.join(', ')}): run oai-steward migrate (serve does it on start)`,
        data,
      ),
    ];
  }
  return [ok('schema', `schema current: ${names.length} migrations applied, latest ${names[names.length - 1] ?? '-'}`, data)];
};

/** Items, sets, formats, and the loader's last run. */
const counts: DoctorCheck = async (ctx) => {
  const store = ctx.pendingMigrations.length > 0 ? null : ctx.store();
  if (store === null) return [];
  const s = await store.stats();
  const last = await lastLoad(store);
  const out = [
    ok(
      'counts',
      `${s.items} items (${s.live} live, ${s.deleted} deleted), ${Object.keys(s.sets).length} sets, datestamps ${s.earliestDatestamp ?? '-'} … ${s.latestDatestamp ?? '-'}`,
      {
        items: s.items,
        live: s.live,
        deleted: s.deleted,
        sets: Object.keys(s.sets).length,
        formats: Object.fromEntries(Object.entries(s.formats).map(([k, v]) => [k, v.items])),
        lastLoad: last,
      },
    ),
  ];
  if (last !== null && last.outcome !== 'completed') {
    const refused = last.refusals > 0 ? ` (${last.refusals} records refused)` : '';
    out.push(warning('counts', `the last load (${new Date(last.finished).toISOString()}) ${last.outcome}: ${last.error ?? 'nothing was written'}${refused}`));
  }
  return out;
};

/** The resumption-token secret. */
const tokenSecret: DoctorCheck = async ({ config, store, migrations, pendingMigrations }) => {
  if (config.tokenSecret !== undefined) {
    return config.tokenSecret.length < 32
      ? [warning('token secret', `tokenSecret is configured but only ${config.tokenSecret.length} characters long; use at least 32 random characters`)]
      : [ok('token secret', 'configured (tokenSecret)')];
  }
  if (migrations === null || pendingMigrations.includes('001_initial')) return [];
  return (await store()?.hasTokenSecret())
    ? [ok('token secret', 'kept in the store, shared by every process serving it')]
    : [ok('token secret', 'not made yet: the first serve makes one and keeps it in the store')];
};

/** Every format offered, and whether its XSD compiles offline. */
const formats: DoctorCheck = async ({ config }) => {
  const registry = formatsOf(readerConfigOf(config));
  addCatalogs(registry.all().flatMap((f) => (f.localSchema?.catalog !== undefined ? [f.localSchema.catalog] : [])));
  return registry.all().map((f) => {
    const at = f.localSchema ? pathToFileURL(f.localSchema.xsd).href : f.schema;
    const compiled = schemaFor(rootNamespaceOf(f), at);
    return compiled instanceof Error
      ? problem('formats', `${f.prefix}: its XSD ${at} does not compile offline: ${compiled.message}`, { prefix: f.prefix, schema: at })
      : ok('formats', `${f.prefix}: XSD ${f.localSchema ? f.localSchema.xsd : f.schema} compiled`, { prefix: f.prefix, schema: at });
  });
};

/**
 * Formats written on demand (`writtenFormats: on-demand`,
 * server/store/on-demand.ts): the store stands for the writers and formats
 * configuration this configuration gives, or serve refuses to start.
 */
const writtenFormats: DoctorCheck = async ({ store, migrations, pendingMigrations }) => {
  if (migrations === null || pendingMigrations.includes('001_initial')) return [];
  const status = await store()?.writtenFormatsStatus();
  if (status === undefined || status.stored === null) return [];
  const { stored, configured } = status;
  return stored === configured
    ? [ok('written formats', `formats written on demand stand for this configuration (${stored})`, { stored })]
    : [
        problem(
          'written formats',
          `formats are written on demand under another formats configuration or writers' version (stored ${stored}, configured ${configured}): serve refuses to start; run oai-steward rebuild-formats`,
          { stored, configured },
        ),
      ];
};

/** The demo repository, where it does not belong. */
const demo: DoctorCheck = async ({ config, store, migrations, pendingMigrations }) => {
  const opened = migrations === null || pendingMigrations.includes('001_initial') ? null : store();
  if (opened === null) return [];
  const held = await demoHolding(opened);
  if (held === null) return [];
  if (held.namespace !== config.namespace) {
    return [
      problem(
        'demo',
        `the store holds the demo repository under ${held.namespace}, but the namespace is ${config.namespace}: serve refuses to start (oai-steward remove-demo, docs/demo-repository.md)`,
      ),
    ];
  }
  return [warning('demo', `the store holds the demo repository (${held.live} live items under ${held.namespace})`)];
};

/**
 * The folder of bulk dumps (`dumpDir`, docs/dumps.md), when one is configured:
 * it exists, its manifest reads, every file the manifest names is there with
 * its size; a dump older than the store's latest change is worth knowing.
 */
const dumps: DoctorCheck = async ({ config, store, migrations, pendingMigrations }) => {
  const dir = config.dumpDir;
  if (dir === undefined) return [];
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) return [problem('dumps', `dumpDir ${dir} is not a folder: /dumps/ has nothing to serve`)];
  const file = path.join(dir, MANIFEST_NAME);
  if (!fs.existsSync(file)) return [warning('dumps', `dumpDir ${dir} holds no dump yet (oai-steward dump ${dir})`)];
  let manifest: DumpManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as DumpManifest;
  } catch (err) {
    return [problem('dumps', `${file} cannot be read: ${(err as Error).message}`)];
  }
  const wrong = (manifest.files ?? []).flatMap((f) => {
    const at = path.join(dir, f.name);
    if (!fs.existsSync(at)) return [`${f.name} is missing`];
    const size = fs.statSync(at).size;
    return size === f.bytes ? [] : [`${f.name} has ${size} bytes, the manifest says ${f.bytes}`];
  });
  if (wrong.length > 0) return [problem('dumps', `the dump in ${dir} does not match its manifest: ${wrong.join('; ')}`)];
  const data = { dir, snapshot: manifest.snapshot, items: manifest.items, files: manifest.files.length };
  const out = [ok('dumps', `dump of ${manifest.snapshot} in ${dir}: ${manifest.items} items, ${manifest.files.length} files as the manifest lists them`, data)];
  const opened = migrations === null || pendingMigrations.length > 0 ? null : store();
  if (opened !== null) {
    const latest = (await opened.stats()).latestDatestamp;
    if (latest !== null && latest > manifest.snapshot)
      out.push(warning('dumps', `records changed since the dump's snapshot (latest datestamp ${latest}): a new dump would hold them`));
  }
  return out;
};

/**
 * The configured harvest sources (`sources`, docs/harvesting.md): each one's
 * lists as the store records them. A list whose last error is newer than its
 * last success is a problem worth an operator's look (the source is down, or
 * answers what cannot be read); a source never harvested is said so. The
 * server's health does not depend on sources: this is where it shows.
 */
const sources: DoctorCheck = async ({ config, store, migrations, pendingMigrations }) => {
  if (config.sources.length === 0) return [];
  const opened = migrations === null || pendingMigrations.includes('006_harvest_state') ? null : store();
  if (opened === null) {
    return config.sources.map((c) => ok('sources', `${c.name}: ${c.baseUrl}, not harvested yet`, { source: c.name }));
  }
  const states = await opened.harvestStates();
  return config.sources.map((c) => {
    const lists = states.filter((l) => l.source === c.name);
    if (lists.length === 0) return ok('sources', `${c.name}: ${c.baseUrl}, not harvested yet (oai-steward harvest ${c.name})`, { source: c.name });
    const failing = lists.filter((l) => l.lastErrorAt !== null && (l.lastSuccess === null || l.lastErrorAt > l.lastSuccess));
    const records = lists.reduce((n, l) => n + l.records, 0);
    const data = { source: c.name, lists: lists.length, records, failing: failing.length };
    if (failing.length > 0) {
      const l = failing[0]!;
      const list = `${l.prefix}${l.set !== '' ? ` set ${l.set}` : ''}`;
      return problem(
        'sources',
        `${c.name}: ${failing.length} of ${lists.length} lists failed since their last success; ${list}: ${l.lastError ?? 'failed'}`,
        data,
      );
    }
    const last = Math.min(...lists.map((l) => l.lastSuccess ?? 0));
    return ok(
      'sources',
      `${c.name}: ${records} records in ${lists.length} lists, every list harvested (oldest success ${new Date(last * 1000).toISOString()})`,
      data,
    );
  });
};

/** Less free space than this where the store or the dumps are written is a problem: the next write may fail. */
const LOW_SPACE = 64 * 1024 * 1024;

/**
 * The places the repository writes (the SQLite store's folder, the dump
 * folder): writable, and with room on their disk. A full disk makes a
 * load fail with "database or disk is full"; PostgreSQL's disk is the
 * database server's, out of sight here.
 */
const disk: DoctorCheck = async ({ config }) => {
  const places: { what: string; dir: string; file?: string }[] = [];
  if (databaseKind(config.databaseUrl) === 'sqlite') {
    const file = sqliteFilename(config.databaseUrl);
    if (file !== ':memory:' && fs.existsSync(file)) places.push({ what: 'the store', dir: path.dirname(path.resolve(file)), file: path.resolve(file) });
  }
  if (config.dumpDir !== undefined && fs.existsSync(config.dumpDir)) places.push({ what: 'the dump folder', dir: config.dumpDir });
  const out: Finding[] = [];
  for (const p of places) {
    for (const target of [p.dir, ...(p.file === undefined ? [] : [p.file, `${p.file}-wal`].filter((f) => fs.existsSync(f)))]) {
      try {
        fs.accessSync(target, fs.constants.W_OK);
      } catch {
        out.push(problem('disk', `${target} (${p.what}) is not writable by this user: give the service's user write access to it (chown, docs/operations.md)`));
      }
    }
    const stats = fs.statfsSync(p.dir);
    const free = stats.bavail * stats.bsize;
    const mb = (n: number): string => `${Math.floor(n / (1024 * 1024))} MB`;
    if (free < LOW_SPACE) {
      out.push(
        problem(
          'disk',
          `the disk holding ${p.dir} (${p.what}) has ${mb(free)} free: writes fail with "database or disk is full"; free space there, or move it`,
          {
            dir: p.dir,
            free,
          },
        ),
      );
    } else {
      const size = p.file === undefined ? 0 : fs.statSync(p.file).size;
      if (free < size)
        out.push(
          warning('disk', `the disk holding ${p.dir} has ${mb(free)} free, less than the store's ${mb(size)}: a large load may fill it`, { dir: p.dir, free }),
        );
      else out.push(ok('disk', `${p.dir} (${p.what}) is writable, ${mb(free)} free`, { dir: p.dir, free }));
    }
  }
  return out;
};

/**
 * Every check, in the order they are reported. A feature with
 * configuration of its own (sources to harvest, say) adds its check here.
 */
export const DOCTOR_CHECKS: readonly DoctorCheck[] = [
  configuration,
  answers,
  schema,
  tables,
  records,
  identifiers,
  oaiDc,
  disk,
  counts,
  tokenSecret,
  formats,
  writtenFormats,
  sources,
  dumps,
  demo,
  publicationLog,
];

/**
 * Opens the store without creating or migrating it: null when a SQLite file
 * does not exist yet; a problem finding when the database does not answer.
 */
async function openExisting(config: Config): Promise<{ db: ExistingDatabase | null; finding?: Finding }> {
  if (databaseKind(config.databaseUrl) === 'sqlite') {
    const file = sqliteFilename(config.databaseUrl);
    if (file !== ':memory:' && !fs.existsSync(file)) return { db: null };
  }
  try {
    return { db: await openExistingDatabase(config.databaseUrl) };
  } catch (err) {
    return { db: null, finding: problem('store', `${redactUrl(config.databaseUrl)} does not answer: ${(err as Error).message.split('\n')[0]}`) };
  }
}

/**
 * Runs every check on a configuration; a check that fails unexpectedly is
 * reported as a problem of its own, and the other checks still run.
 *
 * @example const report = await runDoctor(loadConfig()); process.exitCode = report.ok ? 0 : 1;
 */
export async function runDoctor(config: Config, checks: readonly DoctorCheck[] = DOCTOR_CHECKS, options: { quick?: boolean } = {}): Promise<DoctorReport> {
  const opened = await openExisting(config);
  const findings: Finding[] = [];
  let missing = false;
  let newer = false;
  try {
    const db = opened.db;
    const migrations = db ? await db.migrations() : null;
    missing = opened.finding === undefined && (migrations === null || !migrations.tracked);
    newer = (migrations?.unknown.length ?? 0) > 0;
    let made: RepositoryStore | undefined;
    const ctx: DoctorContext = {
      config,
      migrations,
      pendingMigrations: migrations?.pending ?? [],
      inspection: db !== null && migrations !== null && migrations.tracked && migrations.pending.length === 0 && !newer ? db.inspection : null,
      quick: options.quick === true,
      // Made when a check first asks (a configuration whose formats cannot be built fails that check alone);
      // never on a newer schema, which this code would misread.
      store: () => (db === null || newer ? null : (made ??= createStore(config, db.connection, formatsOf(readerConfigOf(config))))),
    };
    for (const check of checks) {
      if (check === answers && opened.finding) {
        findings.push(opened.finding);
        continue;
      }
      try {
        findings.push(...(await check(ctx)));
      } catch (err) {
        findings.push(problem('doctor', `a check failed: ${(err as Error).message.split('\n')[0]}`));
      }
    }
  } finally {
    await opened.db?.close();
  }
  const refused = missing ? 'missing' : newer ? 'newer' : null;
  return { ok: findings.every((f) => f.severity !== 'problem'), refused, findings };
}

/** The report as text for a terminal: one line per finding. */
export function formatDoctor(report: DoctorReport): string {
  const mark: Record<Severity, string> = { ok: 'ok     ', warning: 'warning', problem: 'PROBLEM' };
  const lines = report.findings.map((f) => `${mark[f.severity]}  ${f.check.padEnd(13)} ${f.message}`);
  lines.push('', report.ok ? 'no problem found' : `${report.findings.filter((f) => f.severity === 'problem').length} problem(s) found`);
  return `${lines.join('\n')}\n`;
}
