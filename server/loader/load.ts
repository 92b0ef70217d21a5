/**
 * `oai-steward load`: reads inputs record by record, validates each one, and
 * writes them through the store's one write path (identifier governance
 * included) in batches, all inside ONE transaction (issue 4, "The loader"):
 *
 * - a load commits completely or not at all: one refused record rolls the
 *   whole load back (unless `partial`), and a load killed half-way leaves the
 *   store as it was (the transaction was never committed), so a rerun
 *   completes it;
 * - `partial` commits the valid records and reports the refused ones;
 * - `dryRun` does everything, counts what would happen, and rolls back;
 * - `deleteMissing` turns every live item absent from the inputs into a
 *   tombstone (for a full export).
 *
 * Loading is idempotent because the store compares content hashes: an
 * unchanged record keeps its datestamp, a changed one gets the input's
 * datestamp or the store's clock.
 *
 * Memory: one batch of records. The internal ids seen (to refuse an id given
 * twice and for `deleteMissing`) are kept in a temporary table of the load's
 * own transaction (queries.ts, `createSeenIds`), not in the JavaScript heap,
 * so memory stays flat however long the input is (issue 4, "Memory stays
 * flat for inputs of millions of records").
 */
import fs from 'node:fs';
import type { FormatRegistry } from '../../lib/formats/registry';
import type { IdPolicy } from '../../lib/ids/policy';
import { jsonToItem, type RecordConversion } from '../../lib/records/json-record';
import { RefusedError, type ItemInput, type Refusal, type SetInput, type WriteResult } from '../../lib/store';
import type { KnexStore } from '../store/knex-store';
import { folderFiles, type ByteCounter, type Input } from './input';
import type { Progress } from './progress';
import { readJsonArray, readNdjson } from './read-json';
import { readOaiXml, type XmlEvent } from './read-oai-xml';
import { createSeenIds } from './queries';
import { createMetadataValidator } from './validate-metadata';
import { xmlToItem } from './xml-record';

/** What the loader needs of an opened provider (server/provider.ts). */
export interface LoadDeps {
  readonly store: KnexStore;
  readonly policy: Pick<IdPolicy, 'namespace' | 'unmap'>;
  readonly formats: FormatRegistry;
  readonly conversion: RecordConversion;
}

/** How to load. */
export interface LoadOptions {
  readonly dryRun?: boolean;
  readonly partial?: boolean;
  readonly deleteMissing?: boolean;
  /** A JSON file of set declarations (`[{"spec", "name", "description"?}]`, as seeds/demo/sets.json). */
  readonly setsFile?: string;
  /** Records per writeItems call. Default 1000. */
  readonly batchSize?: number;
  /** Called for every refusal as it is found (they are not kept in memory). */
  readonly onRefusal?: (r: Refusal) => void;
  /** Called with a warning a person should read (e.g. a skipped --delete-missing). */
  readonly onWarning?: (message: string) => void;
  readonly progress?: Progress;
  /** Bytes read so far, shared with the inputs (for progress). */
  readonly counter?: ByteCounter;
  /**
   * Called once every input is read and written, before the commit, while
   * everything the load holds is still reachable: the moment to measure what
   * a load keeps in memory (cli.ts, `OAI_STEWARD_REPORT_MEMORY`).
   */
  readonly probe?: () => void;
}

/** What a load did (or, for a dry run or a failed load, would have done). */
export interface LoadSummary {
  /** Records read, refused ones included. */
  records: number;
  inserted: number;
  updated: number;
  unchanged: number;
  deleted: number;
  /** Records refused (each may have several refusals), plus inputs that could not be read to the end. */
  refused: number;
  /** Sets declared or updated. */
  sets: number;
  /** Whether the transaction was committed. */
  committed: boolean;
  dryRun: boolean;
}

class Rollback extends Error {}

/** A record read (converted, or refused with its reasons) or an input fault, with the internal id it names (null: none known). */
interface Pending {
  readonly result: { item: ItemInput } | { refusals: Refusal[] };
  readonly id: string | null;
}

/**
 * Loads the inputs in one transaction and returns the summary. Refusals go
 * to `options.onRefusal` as they are found. Errors that are not refusals
 * (the database went away) propagate, and nothing is committed.
 *
 * @example const summary = await runLoad(provider, [await openInput('records.ndjson', process.stdin, counter)], { partial: true });
 */
export async function runLoad(deps: LoadDeps, inputs: readonly Input[], options: LoadOptions = {}): Promise<LoadSummary> {
  const batchSize = options.batchSize ?? 1000;
  const validator = createMetadataValidator(deps.formats);
  const summary: LoadSummary = { records: 0, inserted: 0, updated: 0, unchanged: 0, deleted: 0, refused: 0, sets: 0, committed: false, dryRun: options.dryRun === true };
  // A refused record whose id is unknown (unparseable JSON, a broken XML file): --delete-missing cannot tell what it was.
  let unidentified = false;
  // Without --partial, the first refusal dooms the load: later batches are only checked, not written.
  let writing = true;
  const refuse = (refusals: readonly Refusal[]): void => {
    if (refusals.length === 0) return;
    if (!options.partial) writing = false;
    for (const r of refusals) options.onRefusal?.(r);
  };
  const tick = (): void => options.progress?.update(summary.records, options.counter?.bytesRead ?? 0);
  const count = (results: readonly WriteResult[]): void => {
    for (const r of results) summary[r.outcome]++;
  };

  // Sets first: records may only name declared sets.
  const ordered = [...inputs].sort((a, b) => Number(b.isListSets) - Number(a.isListSets));

  try {
    await deps.store.transaction(async (tx) => {
      const seen = await createSeenIds(tx.knex);
      // Records read but not yet checked against the ids seen: at most one batch.
      let batch: Pending[] = [];

      const flush = async (): Promise<void> => {
        const entries = batch;
        batch = [];
        if (entries.length === 0) return;
        // An id seen in an earlier batch (the temporary table) or earlier in this one is refused.
        const ids = new Set<string>();
        for (const e of entries) if (e.id !== null && e.id !== '') ids.add(e.id);
        const earlier = await seen.add([...ids]);
        const inBatch = new Set<string>();
        let items: ItemInput[] = [];
        for (const { result, id } of entries) {
          if (id !== null && id !== '') {
            if (earlier.has(id) || inBatch.has(id)) {
              const source = 'item' in result ? result.item.source : result.refusals[0]?.source;
              summary.refused++;
              refuse([{ internalId: id, ...(source !== undefined && { source }), field: 'id', reason: 'the same internal id appears earlier in this load' }]);
              continue;
            }
            inBatch.add(id);
          } else {
            unidentified = true;
          }
          if ('refusals' in result) {
            summary.refused++;
            refuse(result.refusals);
            continue;
          }
          items.push(result.item);
        }
        if (items.length === 0) return;
        const { refusals: invalid, dcIdentifiers } = validator.check(items);
        // A record's own identifier fields include the dc:identifier values of metadata given as XML.
        items = items.map((item, i) => {
          const found = dcIdentifiers.get(i);
          const known = item.identifiers ?? [];
          const extra = found?.filter((v) => !known.includes(v)) ?? [];
          return extra.length > 0 ? { ...item, identifiers: [...known, ...extra] } : item;
        });
        if (invalid.size > 0) {
          summary.refused += invalid.size;
          refuse([...invalid.entries()].sort(([a], [b]) => a - b).flatMap(([, r]) => r));
          items = items.filter((_, i) => !invalid.has(i));
          if (items.length === 0) return;
        }
        if (!writing) {
          const refusals = await tx.checkItems(items);
          summary.refused += new Set(refusals.map((r) => r.internalId)).size;
          refuse(refusals);
          return;
        }
        let pending = items;
        for (;;) {
          try {
            count(await tx.writeItems(pending));
            return;
          } catch (err) {
            if (!(err instanceof RefusedError)) throw err;
            const ids = new Set(err.refusals.map((r) => r.internalId));
            summary.refused += pending.filter((i) => ids.has(i.internalId)).length;
            refuse(err.refusals);
            if (!options.partial) return;
            // Write the rest; a record refused only in company (a duplicate) may pass now.
            pending = pending.filter((i) => !ids.has(i.internalId));
            if (pending.length === 0) return;
          }
        }
      };

      const putSets = async (sets: readonly SetInput[], source: string): Promise<void> => {
        for (const s of sets) {
          try {
            await tx.putSets([s]);
            summary.sets++;
          } catch (err) {
            summary.refused++;
            refuse([{ internalId: '', source, field: `set ${s.spec}`, reason: (err as Error).message }]);
          }
        }
      };

      // Records and faults wait in `batch`, so refusals keep the order of the input.
      const accept = async (result: Pending['result'], id: string | null): Promise<void> => {
        summary.records++;
        tick();
        batch.push({ result, id });
        if (batch.length >= batchSize) await flush();
      };

      const fault = async (source: string, reason: string, field: string): Promise<void> => {
        batch.push({ result: { refusals: [{ internalId: '', source, field, reason }] }, id: null });
        if (batch.length >= batchSize) await flush();
      };

      if (options.setsFile) await putSets(readSetsFile(options.setsFile, deps.conversion), options.setsFile);

      for (const input of ordered) {
        if (input.kind === 'ndjson' || input.kind === 'json-array') {
          const entries = input.kind === 'ndjson' ? readNdjson(input.chunks()) : readJsonArray(input.chunks());
          for await (const e of entries) {
            const source = input.kind === 'ndjson' ? `${input.name}:${e.line}` : `${input.name}:${e.line} (record ${e.number})`;
            if ('error' in e) {
              await accept({ refusals: [{ internalId: '', source, field: 'record', reason: e.error }] }, null);
              continue;
            }
            const r = jsonToItem(e.value, deps.conversion, source);
            const v = e.value as { id?: unknown } | null;
            await accept(r, typeof v === 'object' && v !== null && typeof v.id === 'string' ? v.id : null);
          }
        } else if (input.kind === 'xml') {
          await readXml(input.name, readOaiXml(input.chunks(), 'response'), undefined);
        } else {
          for await (const f of folderFiles(input.name, options.counter ?? { bytesRead: 0 })) {
            if (f.internalId === null) {
              await fault(f.file, 'the file name is not valid percent-encoding, so it names no internal id', 'file name');
              continue;
            }
            await readXml(f.file, readOaiXml(f.chunks, 'bare'), f.internalId);
          }
        }
        await flush();
      }

      async function readXml(name: string, events: AsyncIterable<XmlEvent>, bareId: string | undefined): Promise<void> {
        let requestPrefix: string | undefined;
        const sets: SetInput[] = [];
        for await (const ev of events) {
          if (ev.kind === 'request') requestPrefix = ev.metadataPrefix;
          else if (ev.kind === 'fault') await fault(`${name}:${ev.line}`, ev.reason, 'xml');
          else if (ev.kind === 'set') sets.push(ev.set);
          else {
            const source = bareId !== undefined ? name : `${name}:${ev.line} (record ${ev.number})`;
            const r = xmlToItem(ev, { policy: deps.policy, formats: deps.formats, ...(requestPrefix !== undefined && { requestPrefix }), ...(bareId !== undefined && { internalId: bareId }) }, source);
            await accept(r, 'item' in r ? r.item.internalId : (r.refusals.find((x) => x.internalId !== '')?.internalId ?? null));
          }
        }
        if (sets.length > 0) await putSets(sets, name);
      }

      if (options.deleteMissing && writing) {
        if (unidentified) {
          options.onWarning?.('--delete-missing skipped: some input could not be read as records, so which items it held is unknown');
        } else {
          for await (const missing of seen.missing(batchSize)) count(await tx.deleteItems(missing));
        }
      }
      options.probe?.();
      await seen.drop();
      options.progress?.update(summary.records, options.counter?.bytesRead ?? 0);
      if (options.dryRun || !writing) throw new Rollback();
    });
    summary.committed = true;
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
  } finally {
    options.progress?.finish();
  }
  return summary;
}

/** Reads a JSON file of set declarations; `description` (text) becomes an oai_dc setDescription (OAI-PMH 4.6). */
export function readSetsFile(file: string, conv: RecordConversion): SetInput[] {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a JSON array of {"spec", "name", "description"?}`);
  const dc = conv.formats.get('oai_dc');
  return raw.map((s: unknown, i) => {
    const o = s as { spec?: unknown; name?: unknown; description?: unknown; descriptions?: unknown };
    if (typeof o?.spec !== 'string' || typeof o.name !== 'string') throw new Error(`${file}: set ${i + 1} needs a string "spec" and "name"`);
    const descriptions: string[] = [];
    if (typeof o.description === 'string' && dc?.fromDublinCore) descriptions.push(dc.fromDublinCore({ description: [o.description] }));
    if (Array.isArray(o.descriptions)) descriptions.push(...o.descriptions.filter((d): d is string => typeof d === 'string'));
    return { spec: o.spec, name: o.name, ...(descriptions.length > 0 && { descriptions }) };
  });
}
