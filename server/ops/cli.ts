/**
 * The operator's commands of `oai-steward`: `remove-demo`, `backup`,
 * `restore` and `doctor`. Each takes its arguments and the process's
 * streams and returns the exit status: 0 done, 1 refused or a problem
 * found, 2 a usage error. server/cli.ts dispatches here.
 */
import type { Config } from '../config';
import { forgetDemoKey, refuseForeignDemo, removeDemo } from '../demo-guard';
import { openProvider, type Provider } from '../provider';
import { backupStore, BackupError, restoreStore } from './backup';
import { formatDoctor, runDoctor } from './doctor';

/** The process's streams, injectable for tests. */
export interface OpsIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

export const OPS_USAGE: Readonly<Record<'remove-demo' | 'backup' | 'restore' | 'doctor', string>> = {
  'remove-demo': `usage: oai-steward remove-demo [--tombstones]

  Takes the demo repository out of the store. While no identifier other than
  the demo's was ever published, every item, set and identifier is erased, as
  if the store were new. Once other records were published, --tombstones turns
  the demo's items into deletions (their identifiers stay answered, as
  published identifiers must); without it nothing is done.
`,
  backup: `usage: oai-steward backup FILE

  Writes a consistent copy of the SQLite store to FILE (SQLite's online backup),
  while servers serve and loads run: a load in progress is not in the copy.
  For PostgreSQL, use pg_dump (docs/operations.md#backup-and-restore).
`,
  restore: `usage: oai-steward restore FILE

  Replaces the SQLite store by the backup FILE, after checking that it is an
  intact oai-steward store. Refused, changing nothing, while a server, a load
  or a harvest holds the store (docs/operations.md#who-holds-the-store).
  Resumption tokens issued before the backup continue after the restore.
`,
  doctor: `usage: oai-steward doctor [--json] [--quick]

  Checks the configuration, the store (reachable, schema version, its tables
  and indexes against the ones the migrations make, every stored record still
  well-formed and matching its digest, the identifiers published against the
  configured namespace and idPolicy, room and write access on its disk), the
  token secret, every format's XSD, the dump folder, and a demo repository
  where it does not belong. Each PROBLEM names the command that mends it.
  Changes nothing.

  --quick   read a sample of the stored records and identifiers, not all

  Exit status: 0 no problem, 1 a problem found, 2 no store where the
  configuration points or one a newer oai-steward migrated.
`,
};

/**
 * Opens the provider for a command that publishes (`load`): refused, like
 * `serve`, when the store holds the demo under another namespace; the load
 * holds the store until it closes (a restore is refused meanwhile).
 */
export async function openGuarded(config: Config): Promise<Provider> {
  const p = await openProvider(config, { hold: 'load' });
  try {
    await refuseForeignDemo(p.store, config.namespace);
  } catch (err) {
    await p.close();
    throw err;
  }
  return p;
}

/**
 * Runs one of the operator's commands.
 *
 * @example await runOpsCommand('doctor', ['--json'], config, process) // 0 or 1
 */
export async function runOpsCommand(command: keyof typeof OPS_USAGE, args: readonly string[], config: Config, io: OpsIo): Promise<number> {
  const usage = OPS_USAGE[command];
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(usage);
    return 0;
  }
  const usageError = (message: string): number => {
    io.stderr.write(`oai-steward ${command}: ${message}\n\n${usage}`);
    return 2;
  };
  switch (command) {
    case 'doctor': {
      const bad = args.find((a) => a !== '--json' && a !== '--quick');
      if (bad !== undefined) return usageError(`unknown argument ${bad}`);
      const report = await runDoctor(config, undefined, { quick: args.includes('--quick') });
      io.stdout.write(args.includes('--json') ? `${JSON.stringify(report, null, 2)}\n` : formatDoctor(report));
      // A store every command refuses is refused here too (exit status 2), after the findings are printed.
      return report.refused !== null ? 2 : report.ok ? 0 : 1;
    }
    case 'backup':
    case 'restore': {
      const files = args.filter((a) => !a.startsWith('--'));
      const bad = args.find((a) => a.startsWith('--'));
      if (bad !== undefined) return usageError(`unknown option ${bad}`);
      if (files.length !== 1) return usageError('name one FILE');
      try {
        const s =
          command === 'backup'
            ? await backupStore(config.databaseUrl, files[0] as string, config.logKeyFile)
            : await restoreStore(config.databaseUrl, files[0] as string, config.logKeyFile);
        io.stdout.write(
          command === 'backup'
            ? `backed up ${s.store} to ${s.file}: ${s.items} items, ${s.bytes} bytes\n`
            : `restored ${s.store} from ${s.file}: ${s.items} items\n`,
        );
        return 0;
      } catch (err) {
        if (!(err instanceof BackupError)) throw err;
        io.stderr.write(`oai-steward: ${err.message}\n`);
        return 1;
      }
    }
    case 'remove-demo': {
      const bad = args.find((a) => a !== '--tombstones');
      if (bad !== undefined) return usageError(`unknown argument ${bad}`);
      const p = await openProvider(config, { create: false });
      try {
        const r = await removeDemo(p, { tombstones: args.includes('--tombstones') });
        switch (r.outcome) {
          case 'none':
            io.stdout.write('the store holds no demo repository; nothing changed\n');
            return 0;
          case 'erased':
            io.stdout.write(`erased the demo repository (${r.items} items, their sets, identifiers and publication log): the store is empty\n`);
            // The demo's log key named the demo's log, erased with it: the next command that migrates (serve, load, …) makes one named for this repository.
            if (forgetDemoKey(config.logKeyFile, r.namespace)) io.stdout.write(`removed the demo's publication log key ${config.logKeyFile ?? ''}\n`);
            return 0;
          case 'tombstoned':
            io.stdout.write(`turned ${r.items} demo items into tombstones; their identifiers stay answered as deleted\n`);
            return 0;
          case 'refused':
            io.stderr.write(
              `oai-steward remove-demo: ${r.others} identifiers other than the demo's were published in this store, so the demo cannot be erased; ` +
                'nothing changed. Use --tombstones to turn its items into deletions, or start on a new database.\n',
            );
            return 1;
        }
      } finally {
        await p.close();
      }
    }
  }
}
