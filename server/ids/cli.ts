/**
 * The `oai-steward id …` subcommand, as a function
 * over streams so it can be tested in memory and wired into the real CLI.
 *
 *   id inspect [--scheme oai|poi|fedora-pid|info-fedora|info-sid|pdi] [ID…]
 *   id map --namespace NS [--as opaque|fedora-pid] [ID…]
 *   id unmap [--namespace NS] [--as opaque|fedora-pid] [ID…]
 *   id mint-pdi --series SERIES --format FORMAT [--date YYYY-MM-DD]
 *
 * Identifiers come from the arguments, or one per line from standard input
 * when none are given (blank lines skipped, a trailing CR removed); one JSON
 * object is written per identifier. Reading standard input, a summary line
 * with the counts goes to standard error at the end. Exit status: 0 when all
 * are valid (mapped), 1 otherwise, 2 for a usage error.
 *
 * Nothing here reads the clock or the store: `deps.mintPdi` (the store's
 * counter) and `deps.now` (for a default `--date`) are passed in.
 */
import { createInterface } from 'node:readline';
import { ID_SCHEMES, inspectIdentifier, mapResult, unmapResult, type IdScheme } from '../../lib/ids/inspect';
import { createIdPolicy, type IdMappingMode, type IdPolicy } from '../../lib/ids/policy';
import { parseOaiIdentifier } from '../../lib/ids/oai-identifier';
import { parsePoi, POI_PREFIX } from '../../lib/ids/poi';
import { canonicalSeries, gmtDate, parsePdi } from '../../lib/ids/pdi';
import { own } from '../../lib/model/own';

/** The streams the command reads and writes. */
export interface IdCommandIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** What the command needs from outside `lib/`. */
export interface IdCommandDeps {
  /** Mints the next PDI of a series and GMT day from the store (required by `mint-pdi`). */
  mintPdi?: (series: string, format: string, date: string) => Promise<string>;
  /** The current instant, for `mint-pdi` without `--date` (the GMT date of now). */
  now?: () => Date;
}

const USAGE = `usage: oai-steward id inspect [--scheme ${ID_SCHEMES.join('|')}] [ID...]
       oai-steward id map --namespace NS [--as opaque|fedora-pid] [ID...]
       oai-steward id unmap [--namespace NS] [--as opaque|fedora-pid] [ID...]
       oai-steward id mint-pdi --series SERIES --format FORMAT [--date YYYY-MM-DD]
Without ID arguments, identifiers are read one per line from standard input.
`;

class UsageError extends Error {}

interface ParsedArgs {
  command: string;
  options: Map<string, string>;
  ids: string[];
}

function parseArgs(argv: readonly string[], allowed: Record<string, readonly string[]>): ParsedArgs {
  const args = argv[0] === 'id' ? argv.slice(1) : argv.slice();
  const command = args.shift();
  if (command === undefined || command === 'help' || command === '--help') throw new UsageError('');
  // Own commands only: `constructor` or `toString` are no id command.
  const names = own(allowed, command);
  if (!names) throw new UsageError(`unknown id command "${command}"`);
  const options = new Map<string, string>();
  const ids: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') {
      ids.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      if (!names.includes(name)) throw new UsageError(`unknown option --${name} for id ${command}`);
      let value: string | undefined;
      if (eq >= 0) value = a.slice(eq + 1);
      else {
        value = args[i + 1];
        i++;
      }
      if (value === undefined) throw new UsageError(`option --${name} needs a value`);
      options.set(name, value);
    } else {
      ids.push(a);
    }
  }
  return { command, options, ids };
}

async function* inputLines(ids: string[], stdin: NodeJS.ReadableStream): AsyncGenerator<string> {
  if (ids.length > 0) {
    yield* ids;
    return;
  }
  const rl = createInterface({ input: stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    const l = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (l.trim().length > 0) yield l;
  }
}

function writeJson(out: NodeJS.WritableStream, value: unknown): void {
  out.write(JSON.stringify(value) + '\n');
}

function modeOption(options: Map<string, string>): IdMappingMode {
  const as = options.get('as');
  if (as === undefined) return 'auto';
  if (as === 'opaque' || as === 'fedora-pid') return as;
  throw new UsageError(`--as must be opaque or fedora-pid, not "${as}"`);
}

/**
 * Runs `oai-steward id …` with `argv` being the arguments after `id` (a
 * leading `id` is tolerated), reading and writing the given streams. Resolves
 * to the exit status: 0 when every identifier is valid (or mapped, unmapped,
 * minted), 1 when any is not, 2 for a usage error (message and usage on
 * standard error).
 *
 * @example await runIdCommand(['inspect', 'oai:arXiv.org:hep-th/9901001'], { stdin, stdout, stderr }, {}) // 0
 */
export async function runIdCommand(argv: string[], io: IdCommandIo, deps: IdCommandDeps): Promise<number> {
  let args: ParsedArgs;
  try {
    args = parseArgs(argv, { inspect: ['scheme'], map: ['namespace', 'as'], unmap: ['namespace', 'as'], 'mint-pdi': ['series', 'format', 'date'] });
    const fromStdin = args.ids.length === 0;
    switch (args.command) {
      case 'inspect': {
        const scheme = args.options.get('scheme');
        if (scheme !== undefined && !(ID_SCHEMES as readonly string[]).includes(scheme)) {
          throw new UsageError(`--scheme must be one of ${ID_SCHEMES.join(', ')}`);
        }
        let valid = 0;
        let invalid = 0;
        for await (const id of inputLines(args.ids, io.stdin)) {
          const r = inspectIdentifier(id, scheme as IdScheme | undefined);
          if (r.valid) valid++;
          else invalid++;
          writeJson(io.stdout, r);
        }
        if (fromStdin) io.stderr.write(`${valid + invalid} identifiers: ${valid} valid, ${invalid} invalid\n`);
        return invalid === 0 ? 0 : 1;
      }
      case 'map':
      case 'unmap': {
        const mode = modeOption(args.options);
        const ns = args.options.get('namespace');
        if (args.command === 'map' && ns === undefined) throw new UsageError('id map needs --namespace NS');
        let fixed: IdPolicy | null = null;
        if (ns !== undefined) {
          try {
            fixed = createIdPolicy({ namespace: ns, mode });
          } catch (e) {
            throw new UsageError(`--namespace: ${(e as Error).message}`);
          }
        }
        let ok = 0;
        let failed = 0;
        for await (const id of inputLines(args.ids, io.stdin)) {
          let policy = fixed;
          if (policy === null) {
            // unmap without --namespace: the identifier's own namespace.
            const p = id.startsWith(POI_PREFIX) ? parsePoi(id) : parseOaiIdentifier(id);
            if (!p.ok) {
              failed++;
              writeJson(io.stdout, { input: id, errors: p.errors });
              continue;
            }
            policy = createIdPolicy({ namespace: p.namespace, mode });
          }
          const r = args.command === 'map' ? mapResult(policy, id) : unmapResult(policy, id);
          if ('errors' in r) failed++;
          else ok++;
          writeJson(io.stdout, r);
        }
        if (fromStdin) io.stderr.write(`${ok + failed} identifiers: ${ok} ${args.command === 'map' ? 'mapped' : 'unmapped'}, ${failed} failed\n`);
        return failed === 0 ? 0 : 1;
      }
      case 'mint-pdi': {
        const series = args.options.get('series');
        const format = args.options.get('format');
        if (series === undefined || format === undefined) throw new UsageError('id mint-pdi needs --series SERIES and --format FORMAT');
        if (args.ids.length > 0) throw new UsageError('id mint-pdi takes no identifiers');
        let date = args.options.get('date');
        if (date === undefined) {
          if (!deps.now) throw new UsageError('id mint-pdi needs --date YYYY-MM-DD (no clock was provided)');
          date = gmtDate(deps.now());
        }
        // 3.6.1: a minted PDI carries no wildcard.
        if (format.includes('*')) throw new UsageError('--format: a minted PDI must not contain wildcards (3.6.1)');
        try {
          canonicalSeries(series);
        } catch (e) {
          throw new UsageError(`--series: ${(e as Error).message}`);
        }
        const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(date);
        const probe = m ? parsePdi(`pdi://${series}/${m[1]}/${m[2]}/${m[3]}/1.${format}.1`) : null;
        if (!probe?.ok) {
          throw new UsageError(
            m ? `invalid --format or --date: ${probe && !probe.ok ? probe.errors.join('; ') : ''}` : `--date must be YYYY-MM-DD, not "${date}"`,
          );
        }
        if (!deps.mintPdi) {
          io.stderr.write('id mint-pdi: no store is configured to keep PDI serial numbers\n');
          return 1;
        }
        try {
          const pdi = await deps.mintPdi(series, format, date);
          writeJson(io.stdout, { pdi, series, format, date });
          return 0;
        } catch (e) {
          writeJson(io.stdout, { input: series, errors: [e instanceof Error ? e.message : String(e)] });
          return 1;
        }
      }
      default:
        throw new UsageError(`unknown id command "${args.command}"`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write((e.message ? `oai-steward id: ${e.message}\n` : '') + USAGE);
      return 2;
    }
    throw e;
  }
}
