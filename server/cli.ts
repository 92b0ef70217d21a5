#!/usr/bin/env -S node --max-semi-space-size=8 --no-turbo-escape --v8-pool-size=0
/**
 * The `oai-steward` command. `serve` is what `npm start` runs; `migrate`
 * and `seed` are the operations it does implicitly; `id` checks and maps
 * identifiers (the contract other tools depend on); the shebang carries server/node-flags.ts; `load`, `delete` and `stats` are the
 * repository manager's tools.
 */
import { loadConfig, splitConfigFlag, ConfigError, type Config } from './config';
import { openProvider, seedIfEmpty, type Provider } from './provider';
import { serveUntilSignal } from './serve';
import { rebuildFormats, rebuildSets } from './rebuild';
import { RefusedError } from '../lib/store';
import { runIdCommand } from './ids/cli';
import { canonicalSeries } from '../lib/ids/pdi';
import { mintPdi } from '../lib/ids/pdi-mint';
import { runDeleteCommand, runLoadCommand, runStatsCommand } from './loader/cli';
import { runCheckCommand } from './check/cli';
import { runSetsCommand } from './sets/cli';
import { runDumpCommand } from './dump/cli';
import type { Retirement } from './store/sets';
import { runHarvestCommand, runSourcesCommand } from './harvest/cli';
import { openGuarded, runOpsCommand } from './ops/cli';
import { runLogCommand } from './ops/log-cli';
import { sayLockWaitsTo, StoreRefusedError } from './store/database';
import { InterruptedError, interruptedStatus, watchInterrupts, type Interruption } from './interrupt';

const USAGE = `usage: oai-steward <command>

  serve                 migrate the store, load the demo repository if it is empty, serve OAI-PMH
  migrate               create or update the store's tables
  seed [--force]        load the demo repository (only into an empty store unless --force)
  load [options] FILE…  load records (NDJSON, JSON, OAI-PMH XML, a folder of oai_dc files, - for stdin)
                        in one transaction; --dry-run, --partial, --delete-missing (oai-steward load --help)
  delete [--identifier] ID…
                        turn items into tombstones
  stats [--json]        items, deleted, per set, per format, earliest/latest datestamp
  rebuild-formats [--json]
                        run every crosswalk again over the stored record fields; items whose
                        output changed get a new datestamp, the others keep theirs
  rebuild-sets [--json] recompute the sets by rule of every item after a rule changed; items whose
                        sets changed get a new datestamp, the others keep theirs; sets the
                        configuration no longer declares are retired (their items leave them)
  sets [--json]         every set with its origin (configuration, rule, input) and counts;
                        sets rename SPEC NAME, sets retire SPEC… (oai-steward sets --help)
  check --profile P [--json]
                        how the records meet an aggregator's guideline (openaire4, openaire3,
                        driver, base, dini, europeana, core), rule by rule; exit status 1 when a
                        mandatory rule fails
  id …                  inspect, map, unmap identifiers and mint PDIs (oai-steward id --help)
  dump DIR [--since DATESTAMP] [--prefix P]…
                        write a bulk dump: per format a gzipped ListRecords document, the records
                        as gzipped JSON lines (load reads them back), a manifest with SHA-256s
  harvest BASE_URL | [NAME…] [options]
                        harvest an OAI-PMH repository, or the configured sources, into this one;
                        incremental and resumable (oai-steward harvest --help)
  sources [NAME] [--json]
                        each harvested source: last success, its from, records, errors, next run,
                        its last run; with NAME its latest runs, their warnings and refused records
  remove-demo [--tombstones]
                        take the demo repository out of the store: erased while nothing else
                        was published, else (with --tombstones) its items become deletions
  backup FILE           copy the SQLite store to FILE, consistent while serving or loading
  restore FILE          replace the SQLite store by a backup (with no server running)
  log verify URL [--key VKEY] [--state FILE]
                        verify the publication log of the repository at URL: the signed checkpoint,
                        tiles and entries, that it extends the checkpoint kept in FILE, and every
                        record harvested against its latest entry (docs/identifiers.md)
  doctor [--json] [--quick]
                        check configuration, store, schema, tables, stored records, identifiers,
                        disk, token secret, formats and their XSDs, the dump folder; exit status
                        1 on a problem, 2 on a store every command refuses

Configuration comes from the environment and, with --config FILE (or OAI_CONFIG=FILE),
from a YAML file; a variable wins over the file (see docs/configuration.md). A configuration that
cannot be used stops the command with exit status 2.
`;

/** The configuration the command runs under, once read (for the line a refused store prints). */
let configRead: Config | undefined;

async function main(argvWithConfig: string[]): Promise<number> {
  const { file, rest: argv } = splitConfigFlag(argvWithConfig);
  // Read once, up front: a bad file stops every command before it touches the store.
  const config: Config = loadConfig(process.env, process.cwd(), file === undefined ? {} : { file });
  configRead = config;
  const [command, ...rest] = argv;
  // A command behind another process's long write says so where its operator looks; a server logs it.
  if (command !== 'serve') sayLockWaitsTo((line) => process.stderr.write(`oai-steward: ${line}\n`));
  switch (command) {
    case 'serve':
      await serveUntilSignal(config);
      return -1;
    case 'migrate': {
      const p = await openProvider(config);
      await p.close();
      process.stdout.write('store migrated\n');
      return 0;
    }
    case 'seed': {
      const p = await openProvider(config);
      try {
        const n = await seedIfEmpty(p, { force: rest.includes('--force') });
        process.stdout.write(n > 0 ? `loaded ${n} demo records\n` : 'the store is not empty; nothing loaded (use --force)\n');
      } finally {
        await p.close();
      }
      return 0;
    }
    case 'load':
      return runLoadCommand(rest, () => openGuarded(config), process);
    case 'delete':
      return runDeleteCommand(rest, () => openExisting(config), process);
    case 'dump':
      return runDumpCommand(rest, () => openExisting(config), process);
    case 'stats':
      return runStatsCommand(rest, () => openExisting(config), process);
    case 'rebuild-formats':
      return rebuildCommand(config, 'formats', rest, (p, interrupt) => rebuildFormats(p.store, p.formats, { interrupt }));
    case 'rebuild-sets':
      // The sets the configuration no longer declares are retired first, in a short write of their own (their items
      // leave them, a step complete in itself); then every item's rule sets are recomputed from what that left, in a
      // staged write (./store/staging.ts), which would not see a retirement staged in it.
      return rebuildCommand(config, 'sets', rest, async (p, interrupt) => {
        const retired = await p.store.retireUnconfiguredSets();
        return { ...(await rebuildSets(p.store, p.formats, { interrupt })), retired };
      });
    case 'sets':
      return runSetsCommand(
        rest,
        async () => {
          const p = await openExisting(config);
          return { store: p.store, configured: config.sets, close: () => p.close() };
        },
        process,
      );
    case 'check':
      return runCheckCommand(
        rest,
        async () => {
          const p = await openExisting(config);
          return {
            store: p.store,
            formats: p.formats,
            oaiDc: { oaiDcProfile: config.oaiDcProfile, poiInDublinCore: config.poiInDublinCore },
            close: () => p.close(),
          };
        },
        process,
      );
    case 'harvest':
      // A harvest writes records as a load does, so it creates (and migrates) the store as a load does: a hub's first command.
      return runHarvestCommand(rest, config, () => openProvider(config, { hold: 'harvest' }), process);
    case 'sources': {
      const code = await runSourcesCommand(rest, config, () => openExisting(config), process);
      // A store that did not answer may still hold a connection open: the command ends all the same.
      if (code === 1) setTimeout(() => process.exit(1), 1000).unref();
      return code;
    }
    case 'id': {
      const needsStore = rest[0] === 'mint-pdi';
      const p = needsStore ? await openExisting(config) : undefined;
      try {
        return await runIdCommand(
          rest,
          { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
          {
            now: () => new Date(),
            ...(p && {
              // The counter is kept per canonical series and GMT day; serials start at 1 (PDI 2.4).
              mintPdi: async (series: string, format: string, date: string) =>
                mintPdi({ series, format, date, nextSerial: await p.store.mintPdiSerial(canonicalSeries(series), date) }),
            }),
          },
        );
      } finally {
        await p?.close();
      }
    }
    case 'log':
      return runLogCommand(rest, process);
    case 'remove-demo':
    case 'backup':
    case 'restore':
    case 'doctor':
      return runOpsCommand(command, rest, config, process);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`oai-steward: unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
      return 2;
  }
}

/**
 * Opens the store for a command that never creates one (every command but
 * serve, migrate, seed, load and harvest): a missing store, or one whose schema is
 * older than this code, is refused with exit status 2 (./store/database.ts).
 */
function openExisting(config: Config): Promise<Provider> {
  return openProvider(config, { create: false });
}

/**
 * The one line a refused store prints (exit status 2): for a store that is
 * not there, also where the configuration was looked for, since the usual
 * cause is a command run without it (a cron line from another folder).
 */
function refusalLine(err: StoreRefusedError, config: Config | undefined): string {
  if (err.refusal !== 'missing' || config === undefined) return err.message;
  const head = `${err.message}; this command does not create a store (serve, migrate, seed, load and harvest do). The database was taken from ${config.databaseFrom}`;
  // With a configuration named, the store it names is simply not made yet: say what to run, not to name it again.
  if (config.configFile !== undefined)
    return `${head} (configuration ${config.configFile}): create the store with oai-steward --config ${config.configFile} migrate, or load or harvest into it`;
  return `${head}: name the repository's configuration with --config FILE or OAI_CONFIG=FILE, or create the store with oai-steward migrate`;
}

/**
 * `rebuild-formats` and `rebuild-sets`: one transaction over every item; a
 * refusal writes nothing and names the items, otherwise the summary (or
 * `--json`) lists the items that got a new datestamp.
 */
async function rebuildCommand(
  config: Config,
  what: 'formats' | 'sets',
  rest: readonly string[],
  rebuild: (p: Provider, interrupt: Interruption) => Promise<{ items: number; restamped: number; restampedIds: readonly string[]; retired?: Retirement }>,
): Promise<number> {
  const p = await openExisting(config);
  // SIGINT/SIGTERM stop the rebuild after the page being written; its one transaction rolls back (./interrupt.ts).
  const interrupt = watchInterrupts();
  try {
    let summary;
    try {
      summary = await rebuild(p, interrupt);
    } catch (err) {
      if (err instanceof InterruptedError) {
        await p.checkpoint();
        process.stderr.write(
          `oai-steward: rebuild-${what} interrupted by ${err.signal}: nothing was changed (a rebuild is one transaction, rolled back); run the same command again to rebuild\n`,
        );
        return interruptedStatus(err.signal);
      }
      // Nothing was written (one transaction): say which items and why.
      if (!(err instanceof RefusedError)) throw err;
      process.stderr.write(`oai-steward: rebuild-${what} refused, nothing changed:\n${err.message}\n`);
      return 1;
    }
    process.stdout.write(
      rest.includes('--json')
        ? `${JSON.stringify(summary)}\n`
        : `rebuilt the ${what} of ${summary.items} items; ${summary.restamped} changed and got a new datestamp\n` +
            summary.restampedIds.map((id) => `  ${id}\n`).join('') +
            (summary.restamped > summary.restampedIds.length ? `  … and ${summary.restamped - summary.restampedIds.length} more\n` : '') +
            (summary.retired && summary.retired.sets.length > 0
              ? `retired the sets the configuration no longer declares: ${summary.retired.sets.join(', ')}; ${summary.retired.members} items left them and got a new datestamp\n`
              : ''),
    );
    return 0;
  } finally {
    interrupt.dispose();
    await p.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof StoreRefusedError) {
      // A store this command must not touch: one line, exit status 2 (a unit manager does not restart on it, docs/operations.md#version-skew).
      process.stderr.write(`oai-steward: ${refusalLine(err, configRead)}\n`);
      process.exitCode = 2;
      return;
    }
    // A person reads this: the message, never a stack trace (kept for a developer who asks with OAI_DEBUG).
    const detail = err instanceof Error ? (process.env.OAI_DEBUG ? (err.stack ?? err.message) : err.message) : String(err);
    process.stderr.write(`oai-steward: ${err instanceof ConfigError ? `configuration: ${err.message}` : detail}\n`);
    process.exitCode = err instanceof ConfigError ? 2 : 1;
  },
);
