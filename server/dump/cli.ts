/**
 * `oai-steward dump DIR [--since DATESTAMP] [--prefix P]… [--json]`: writes
 * a bulk dump (./write.ts) and prints what it wrote. Exit status: 0 written,
 * 1 failed (nothing replaced), 2 a usage error.
 */
import { parseUtcDatetime } from '../../lib/oai/dates';
import type { Logger } from 'pino';
import type { FormatRegistry } from '../../lib/formats/registry';
import type { SnapshotStore } from '../../lib/store';
import type { Config } from '../config';
import { writeDump } from './write';
import { InterruptedError, interruptedStatus, watchInterrupts } from '../interrupt';

export const DUMP_USAGE = `usage: oai-steward dump DIR [--since DATESTAMP] [--prefix P]… [--json]

  Writes the repository, from one snapshot of the store, into the folder DIR:
  per format a gzipped ListRecords response of every record (deleted ones
  included), the sets and records as gzipped JSON lines (which
  oai-steward load FILE.jsonl.gz reads back), and manifest.json with counts,
  the datestamp range, the snapshot time, and each file's size and SHA-256.
  Files appear complete or not at all; the previous dump in DIR is replaced.

  --since DATESTAMP   a delta: only records with a datestamp at or after
                      DATESTAMP (YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ), deletions included
  --prefix P          only this format (repeat for several); default every format offered
  --json              print the manifest as JSON on stdout
`;

interface DumpArgs {
  dir: string;
  since?: number;
  prefixes: string[];
  json: boolean;
}

/** The process's output streams. */
interface Io {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

function parseArgs(args: readonly string[]): DumpArgs | string {
  let dir: string | undefined;
  let since: number | undefined;
  const prefixes: string[] = [];
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--since' || a === '--prefix') {
      const v = args[++i];
      if (v === undefined) return `${a} needs a value`;
      if (a === '--prefix') prefixes.push(v);
      else {
        const parsed = parseUtcDatetime(v);
        if (!parsed) return `--since ${JSON.stringify(v)} is not YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ`;
        since = parsed.start;
      }
    } else if (a === '--json') json = true;
    else if (a.startsWith('-')) return `unknown option ${a}`;
    else if (dir === undefined) dir = a;
    else return `one DIR only (got ${JSON.stringify(dir)} and ${JSON.stringify(a)})`;
  }
  if (dir === undefined) return 'DIR is required';
  return { dir, prefixes, json, ...(since !== undefined && { since }) };
}

/**
 * What the command needs of an opened provider (server/provider.ts
 * `openProvider`), named here rather than imported: the provider serves the
 * dumps this command writes, so the dump folder stands below it.
 */
export interface DumpProvider {
  readonly config: Pick<Config, 'baseUrl'>;
  readonly store: SnapshotStore;
  readonly formats: Pick<FormatRegistry, 'all'>;
  readonly logger: Pick<Logger, 'error'>;
  close(): Promise<void>;
}

/**
 * Runs the command; returns the exit status.
 *
 * @example await runDumpCommand(['dumps', '--since', '2026-11-01'], () => openProvider(config), process)
 */
export async function runDumpCommand(args: readonly string[], open: () => Promise<DumpProvider>, io: Io): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(DUMP_USAGE);
    return 0;
  }
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    io.stderr.write(`oai-steward dump: ${parsed}\n\n${DUMP_USAGE}`);
    return 2;
  }
  const p = await open();
  // SIGINT/SIGTERM stop the dump after the page being written; nothing in DIR is replaced (../interrupt.ts).
  const interrupt = watchInterrupts();
  try {
    const offered = p.formats.all().map((f) => f.prefix);
    const unknown = parsed.prefixes.filter((x) => !offered.includes(x));
    if (unknown.length > 0) {
      io.stderr.write(`oai-steward dump: --prefix ${unknown.join(', ')}: not offered by this repository (offered: ${offered.join(', ')})\n`);
      return 2;
    }
    // OAI_STEWARD_REPORT_MEMORY=1 (with node's --expose-gc): the most heap reachable after a full
    // collection, sampled every 20 pages, for the test that the dump's memory stays flat.
    const gc = process.env.OAI_STEWARD_REPORT_MEMORY === '1' ? (globalThis as { gc?: () => void }).gc : undefined;
    let pages = 0;
    let heap = 0;
    const manifest = await writeDump(p.store, {
      onPage: () => {
        // A safe point: an interruption stops the dump here, its partial files removed (./write.ts).
        interrupt.check();
        if (!gc || ++pages % 20 !== 1) return;
        gc();
        heap = Math.max(heap, process.memoryUsage().heapUsed);
      },
      dir: parsed.dir,
      baseURL: p.config.baseUrl,
      prefixes: parsed.prefixes.length > 0 ? offered.filter((x) => parsed.prefixes.includes(x)) : offered,
      ...(parsed.since !== undefined && { since: parsed.since }),
      now: () => Math.floor(Date.now() / 1000),
      render: { onCorrupt: (where, reason) => p.logger.error({ where, reason }, 'stored metadata left out of the dump: it is not a well-formed XML element') },
    });
    if (gc) io.stderr.write(`memory: heapUsed ${heap} bytes (most reachable during the dump)\n`);
    if (parsed.json) io.stdout.write(`${JSON.stringify(manifest)}\n`);
    else {
      io.stdout.write(
        `dump of ${manifest.items} items (${manifest.deleted} deleted), snapshot ${manifest.snapshot}${manifest.since ? `, since ${manifest.since}` : ''}, into ${parsed.dir}:\n`,
      );
      for (const f of manifest.files) io.stdout.write(`  ${f.name}  ${f.records} records, ${f.bytes} bytes, sha256 ${f.sha256}\n`);
    }
    return 0;
  } catch (err) {
    if (err instanceof InterruptedError) {
      io.stderr.write(
        `oai-steward dump: interrupted by ${err.signal}: nothing in ${parsed.dir} was replaced (its previous dump, if any, stays whole; the partial files were removed); run the same command again to dump\n`,
      );
      return interruptedStatus(err.signal);
    }
    io.stderr.write(`oai-steward dump: ${(err as Error).message}\n`);
    return 1;
  } finally {
    interrupt.dispose();
    await p.close();
  }
}
