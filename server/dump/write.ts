/**
 * `oai-steward dump`: the whole repository (or what changed since a
 * datestamp) as files a mirror downloads once instead of harvesting
 * (docs/dumps.md), read from one snapshot of the store
 * (lib/store/admin.ts `SnapshotStore`, ../db/snapshot.ts):
 *
 * - per format, `listrecords-{prefix}-{stamp}.xml.gz`: one complete
 *   ListRecords response of every record in that format, deleted ones
 *   included, written by the read path's renderer (lib/oai/render.ts);
 * - `records-{stamp}.jsonl.gz`: the sets and every item as JSON lines
 *   (lib/dump/line.ts), which `oai-steward load` reads back;
 * - `manifest.json`: what the dump holds, with each file's size and SHA-256.
 *
 * Memory stays flat: records are read a page at a time and streamed through
 * gzip to disk. Every file is written under a temporary name (a dot file,
 * which the dump folder's route never serves) and renamed into place, the
 * manifest last: a reader who starts from the manifest only ever finds
 * complete files. The files of the dump the new manifest replaces are
 * removed after it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { itemLine, setLine } from '../../lib/dump/line';
import { formatDatestamp } from '../../lib/oai/dates';
import { LIST_RECORDS_CLOSING, listRecordsOpening, recordsBytes, type RenderOptions } from '../../lib/oai/render';
import type { Keyset, SnapshotReads, SnapshotStore } from '../../lib/store';
import { MANIFEST_NAME, type DumpFile, type DumpManifest } from './manifest';

/** What to dump. */
export interface DumpOptions {
  /** The folder the dump is written into (created when missing). */
  readonly dir: string;
  /** The repository's base URL, which the ListRecords documents echo. */
  readonly baseURL: string;
  /** The formats to dump, in order. */
  readonly prefixes: readonly string[];
  /** Only records whose datestamp is at or after this (seconds): a delta. */
  readonly since?: number;
  /** The clock, seconds: the snapshot's time. */
  readonly now: () => number;
  /** Told about stored fragments the renderer leaves out (lib/oai/render.ts `onCorrupt`). */
  readonly render?: RenderOptions;
  /** Records read per query. Default 500. */
  readonly pageSize?: number;
  /**
   * Awaited after each page of records is written, inside the snapshot, with
   * the file and the records written to it so far (progress; a test's write
   * while a dump is under way).
   */
  readonly onPage?: (progress: { readonly file: string; readonly records: number }) => Promise<void> | void;
}

/** What one streamed file came to: its bytes on disk and their SHA-256. */
interface Written {
  readonly bytes: number;
  readonly sha256: string;
}

/** `YYYYMMDDThhmmssZ`: a datestamp as a file name can carry it. */
function stampOf(seconds: number): string {
  return formatDatestamp(seconds).replace(/[-:]/g, '');
}

/**
 * Streams `source` through gzip into `file`, counting and hashing the
 * compressed bytes as they go to disk.
 */
async function writeGzip(file: string, source: AsyncIterable<Buffer | string>): Promise<Written> {
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(Readable.from(source), zlib.createGzip(), tap, fs.createWriteStream(file, { flags: 'wx' }));
  return { bytes, sha256: hash.digest('hex') };
}

/**
 * Writes a dump of the store into `options.dir` and returns its manifest.
 *
 * @example const manifest = await writeDump(provider.store, { dir: 'dumps', baseURL, prefixes: ['oai_dc'], now: () => Math.floor(Date.now() / 1000) });
 */
export async function writeDump(store: SnapshotStore, options: DumpOptions): Promise<DumpManifest> {
  const dir = path.resolve(options.dir);
  await fs.promises.mkdir(dir, { recursive: true });
  await removeAbandoned(dir);
  const temps: string[] = [];
  const temp = (name: string): string => {
    const t = path.join(dir, `.${name}.${process.pid}.partial`);
    temps.push(t);
    return t;
  };
  try {
    const manifest = await store.inSnapshot((reads) => dumpSnapshot(reads, options, temp));
    // Every file complete: into place, the manifest last.
    for (const f of manifest.files) await fs.promises.rename(temp(f.name), path.join(dir, f.name));
    const before = await previousFiles(dir);
    const manifestTemp = temp(MANIFEST_NAME);
    await fs.promises.writeFile(manifestTemp, `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' });
    await fs.promises.rename(manifestTemp, path.join(dir, MANIFEST_NAME));
    const kept = new Set(manifest.files.map((f) => f.name));
    for (const name of before) if (!kept.has(name)) await fs.promises.rm(path.join(dir, name), { force: true });
    return manifest;
  } finally {
    for (const t of temps) await fs.promises.rm(t, { force: true });
  }
}

/** Temporary files of dumps whose process is gone (killed before it could remove them). */
async function removeAbandoned(dir: string): Promise<void> {
  for (const name of await fs.promises.readdir(dir)) {
    const m = /^\..+\.(\d+)\.partial$/.exec(name);
    if (!m) continue;
    try {
      process.kill(Number(m[1]), 0);
    } catch (err) {
      // ESRCH: no such process. (EPERM: it exists, under another user.)
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') await fs.promises.rm(path.join(dir, name), { force: true });
    }
  }
}

/** The files the folder's current manifest names (plain names inside the folder only). */
async function previousFiles(dir: string): Promise<string[]> {
  try {
    const old = JSON.parse(await fs.promises.readFile(path.join(dir, MANIFEST_NAME), 'utf8')) as { files?: { name?: unknown }[] };
    return (old.files ?? []).flatMap((f) => (typeof f.name === 'string' && f.name === path.basename(f.name) && !f.name.startsWith('.') ? [f.name] : []));
  } catch {
    return [];
  }
}

/** Everything read inside the snapshot: the files written under their temporary names, and the manifest. */
async function dumpSnapshot(store: SnapshotReads, options: DumpOptions, temp: (name: string) => string): Promise<DumpManifest> {
  const snapshot = options.now();
  const stamp = stampOf(snapshot);
  const since = options.since;
  const pageSize = options.pageSize ?? 500;
  const { earliest, latest } = await store.datestampRange(since ?? 0);
  const files: DumpFile[] = [];

  for (const prefix of options.prefixes) {
    const name = `listrecords-${prefix}-${stamp}.xml.gz`;
    const counts = { records: 0, deleted: 0 };
    async function* document(): AsyncGenerator<Buffer | string> {
      const requestArgs = { verb: 'ListRecords' as const, metadataPrefix: prefix, ...(since !== undefined && { from: formatDatestamp(since) }) };
      yield listRecordsOpening({ responseDate: snapshot, baseURL: options.baseURL, requestArgs });
      if (latest !== null) {
        let after: Keyset | undefined;
        for (;;) {
          const page = await store.listRecords({
            metadataPrefix: prefix,
            ...(since !== undefined && { from: since }),
            until: latest,
            limit: pageSize,
            ...(after && { after }),
          });
          if (page.length === 0) break;
          counts.records += page.length;
          counts.deleted += page.filter((r) => r.deleted).length;
          yield recordsBytes(page, options.render);
          await options.onPage?.({ file: name, records: counts.records });
          const last = page[page.length - 1];
          if (!last || page.length < pageSize) break;
          after = { datestamp: last.keyDatestamp ?? last.datestamp, pk: last.pk };
        }
      }
      yield LIST_RECORDS_CLOSING;
    }
    const written = await writeGzip(temp(name), document());
    files.push({ name, kind: 'ListRecords', metadataPrefix: prefix, mediaType: 'application/gzip', ...counts, ...written });
  }

  const jsonl = `records-${stamp}.jsonl.gz`;
  const counts = { sets: 0, records: 0, deleted: 0 };
  async function* lines(): AsyncGenerator<string> {
    // The sets first, so a load declares them before the records that name them.
    for (let after: string | null = null; ;) {
      const sets = await store.listSets(after, pageSize);
      if (sets.length === 0) break;
      counts.sets += sets.length;
      yield sets.map((s) => `${JSON.stringify(setLine(s))}\n`).join('');
      after = sets[sets.length - 1]?.spec ?? null;
    }
    // In pk order: a store loaded from the lines numbers its items in the same order.
    for (let after = 0; ;) {
      const page = await store.scanItems(after, pageSize);
      if (page.length === 0) break;
      after = page[page.length - 1]?.pk ?? after;
      const chosen = since === undefined ? page : page.filter((i) => i.datestamp >= since);
      counts.records += chosen.length;
      counts.deleted += chosen.filter((i) => i.deleted).length;
      const departures = await store.departures(chosen.map((i) => i.pk));
      if (chosen.length > 0) yield chosen.map((i) => `${JSON.stringify(itemLine(i, departures.get(i.pk)))}\n`).join('');
      await options.onPage?.({ file: jsonl, records: counts.records });
    }
  }
  const written = await writeGzip(temp(jsonl), lines());
  files.push({ name: jsonl, kind: 'records', mediaType: 'application/gzip', ...counts, ...written });

  return {
    dump: 'oai-steward bulk dump',
    version: 1,
    baseURL: options.baseURL,
    snapshot: formatDatestamp(snapshot),
    since: since === undefined ? null : formatDatestamp(since),
    datestamps: { earliest: earliest === null ? null : formatDatestamp(earliest), latest: latest === null ? null : formatDatestamp(latest) },
    items: counts.records,
    deleted: counts.deleted,
    sets: counts.sets,
    files,
  };
}
