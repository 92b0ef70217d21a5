/**
 * `oai-steward sets`: the repository's sets with where each comes from and
 * how many items it holds; renaming a set an input declared; retiring sets
 * (server/store/sets.ts). Exit status: 0 done, 1 refused, 2 usage error.
 */
import { formatDatestamp } from '../../lib/oai/dates';
import { isRuleOwned, type SetDefinitions } from '../../lib/sets/rules';
import type { CliIo } from '../loader/cli';
import type { SetAdministration, SetListing } from '../../lib/store';
import { SetChangeRefused } from '../store/sets';

export const SETS_USAGE = `usage: oai-steward sets [--json]
       oai-steward sets rename SPEC NAME
       oai-steward sets retire SPEC… [--json]

  Lists every set with where it comes from (configuration: a set the
  configuration declares; rule: a set by rule or a preset; input: a ListSets
  response, a --sets file, or a setSpec harvested records name), how many
  items are in it and how many a harvest of it reports deleted (deleted
  items, and items that left it); retired sets come last.

  rename SPEC NAME   renames a set an input declared; later inputs keep that
                     name. A set the configuration declares is renamed there.
  retire SPEC…       takes sets and their descendants out of the repository:
                     each item in them leaves them (it gets a new datestamp,
                     and a harvest of the set reports it deleted), and ListSets
                     no longer shows them. A set the configuration declares is
                     retired by removing it there and running rebuild-sets. A
                     set that records loaded later name is declared again.

Exit status: 0 done, 1 refused, 2 usage error.
`;

/** What the command needs of an opened provider. */
export interface SetsDeps {
  /** The store's sets and their changes, stamped with its clock. */
  readonly store: Pick<SetAdministration, 'setListing' | 'renameSet' | 'retireSets'>;
  /** The configuration's sets: those are renamed and retired in the configuration, not here. */
  readonly configured: SetDefinitions;
  close(): Promise<void>;
}

/**
 * The listing as a table a person reads: spec, origin, live items, deleted
 * ones, name (marked when a manager renamed it, or when it was retired).
 *
 * @example formatSetListing([{ spec: 'driver', name: 'Open Access DRIVERset', origin: 'rule', live: 10, deleted: 0 }])
 * // 'spec    origin  live  deleted  name\ndriver  rule      10        0  Open Access DRIVERset\n'
 */
export function formatSetListing(sets: readonly SetListing[]): string {
  if (sets.length === 0) return 'no sets are declared\n';
  const origin = (s: SetListing): string => (s.retired !== undefined ? `retired ${s.origin}` : s.origin);
  const ws = Math.max(4, ...sets.map((s) => s.spec.length));
  const wo = Math.max(6, ...sets.map((s) => origin(s).length));
  const wl = Math.max(4, ...sets.map((s) => String(s.live).length));
  const wd = Math.max(7, ...sets.map((s) => String(s.deleted).length));
  const lines = [`${'spec'.padEnd(ws)}  ${'origin'.padEnd(wo)}  ${'live'.padStart(wl)}  ${'deleted'.padStart(wd)}  name`];
  for (const s of sets) {
    const notes = [
      ...(s.renamed !== undefined ? [`renamed ${formatDatestamp(s.renamed)}`] : []),
      ...(s.retired !== undefined ? [`retired ${formatDatestamp(s.retired)}`] : []),
    ];
    lines.push(
      `${s.spec.padEnd(ws)}  ${origin(s).padEnd(wo)}  ${String(s.live).padStart(wl)}  ${String(s.deleted).padStart(wd)}  ${s.name}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Runs the command; returns the exit status. */
export async function runSetsCommand(args: readonly string[], open: () => Promise<SetsDeps>, io: Pick<CliIo, 'stdout' | 'stderr'>): Promise<number> {
  const usage = (problem: string): number => {
    io.stderr.write(`oai-steward sets: ${problem}\n\n${SETS_USAGE}`);
    return 2;
  };
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(SETS_USAGE);
    return 0;
  }
  const json = args.includes('--json');
  const [action, ...rest] = args.filter((a) => a !== '--json');
  if (action !== undefined && action !== 'rename' && action !== 'retire') return usage(`unknown argument ${JSON.stringify(action)}`);
  if (action === 'rename' && rest.length !== 2) return usage('rename takes a setSpec and a name');
  if (action === 'retire' && rest.length === 0) return usage('retire takes one or more setSpecs');
  const deps = await open();
  try {
    if (action === undefined) {
      const sets = await deps.store.setListing();
      io.stdout.write(json ? `${JSON.stringify(sets)}\n` : formatSetListing(sets));
      return 0;
    }
    if (action === 'rename') {
      const [spec, name] = rest as [string, string];
      await deps.store.renameSet(spec, name);
      io.stdout.write(`renamed ${spec} to ${JSON.stringify(name)}\n`);
      return 0;
    }
    const known = new Set((await deps.store.setListing()).filter((s) => s.retired === undefined).map((s) => s.spec));
    const problems = rest.flatMap((spec) => {
      if (!known.has(spec)) return [`no set ${JSON.stringify(spec)} is declared`];
      // Retiring a set retires its descendants, so none of them may be the configuration's.
      const tree = [...known].filter((k) => k === spec || k.startsWith(`${spec}:`));
      return tree
        .filter((k) => deps.configured.all.some((d) => d.spec === k) || isRuleOwned(deps.configured, k))
        .map((k) => `the set ${JSON.stringify(k)} is declared by the configuration; remove it there and run rebuild-sets`);
    });
    if (problems.length > 0) throw new SetChangeRefused(problems.join('\n'));
    const r = await deps.store.retireSets(rest);
    io.stdout.write(
      json
        ? `${JSON.stringify(r)}\n`
        : `retired ${r.sets.join(', ')}; ${r.members} item${r.members === 1 ? '' : 's'} left ${r.sets.length === 1 ? 'it' : 'them'} and got a new datestamp\n`,
    );
    return 0;
  } catch (err) {
    if (!(err instanceof SetChangeRefused)) throw err;
    io.stderr.write(`oai-steward sets: ${err.message}\n`);
    return 1;
  } finally {
    await deps.close();
  }
}
