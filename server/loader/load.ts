/**
 * `oai-steward load`: reads inputs record by record (./read-inputs.ts) and
 * writes them through the store's write gate (record rules, the metadata
 * check of each format, identifier governance) in batches, all inside ONE
 * staged transaction (server/store/staging.ts: on SQLite decided without the
 * write lock, written and committed at the end in one short step):
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
 * Memory: at most two batches of records (one read while the previous is
 * written; a staged load keeps what it decided in a file). The internal ids seen (to refuse an id given
 * twice and for `deleteMissing`) are kept in a temporary table of the load's
 * own transaction (the store's `seenIds`), not in the JavaScript heap,
 * so memory stays flat however long the input is.
 */
import { countResult } from '../../lib/outcome-counts';
import {
  RefusedError,
  type ItemInput,
  type LoadBookkeeping,
  type PartialWrite,
  type SeenIds,
  type SetInput,
  type WriteResult,
  type WriteTransaction,
} from '../../lib/store';
import { type Refusal } from '../../lib/model/refusal';
import { contentHash, uniqueSorted } from '../../lib/pipeline/content-hash';
import { writeLeavingOutRefused } from '../../lib/pipeline/partial';
import type { Input } from './input';
import { readInput, readSetsFile, setsFirst, type LoadEvent } from './read-inputs';
import { readableInWorker, readInWorker } from './read-worker';
import { DEFAULT_MAX_RECORD_BYTES, MAX_BATCH_INPUT_BYTES } from './limits';
import { StatisticsSchedule } from '../store/statistics';
import { InterruptedError } from '../interrupt';
import { declareInBatches } from '../../lib/sets/declare';
import { DEFAULT_BATCH_SIZE, LoadDeps, LoadOptions, LoadSummary } from './load-types';

export { readSetsFile };

/** Why two versions of one record with one datestamp are refused. */
function conflictReason(other: string): string {
  return `the same record with the same datestamp but different content appears elsewhere in this load (${other}); which one is right cannot be told`;
}

/** Why a version is refused that cannot be ordered against another of the same record in the load. */
function unorderedReason(other: string): string {
  return (
    `the same record appears elsewhere in this load (${other}), and the header datestamp of one of the two cannot be read, ` +
    'so which is newer cannot be told; load the older on its own first, then the newer'
  );
}

/** Thrown inside the transaction to roll it back (a dry run, or a load doomed by a refusal). */
class Rollback extends Error {}

/** A record read (or an input fault), waiting for its batch. */
type Pending = Extract<LoadEvent, { kind: 'record' }>;

/**
 * Loads the inputs in one transaction and returns the summary. Refusals go
 * to `options.onRefusal` as they are found. Errors that are not refusals
 * (the database went away) propagate, and nothing is committed.
 *
 * The pipeline: declare the sets file; read each input (ListSets first) and
 * write its records a batch at a time; turn missing items into tombstones;
 * then commit, or roll back a dry run or a refused load.
 *
 * @example const summary = await runLoad(provider, [await openInput('records.ndjson', process.stdin, counter)], { partial: true });
 */
export async function runLoad(deps: LoadDeps, inputs: readonly Input[], options: LoadOptions = {}): Promise<LoadSummary> {
  const load = new LoadRun(deps, options);
  try {
    // Decided as it is read, without the store's write lock where the store has one writer at a time, and
    // applied at the end in one short step (server/store/staging.ts), so other writers need not wait for the load.
    await deps.store.stagedTransaction(
      async (tx) => {
        await load.begin(tx);
        if (options.setsFile) await load.declareSets(readSetsFile(options.setsFile), options.setsFile);
        for (const input of setsFirst(inputs)) await load.consume(input);
        await load.writeStaged();
        await load.deleteMissing();
        await load.end();
      },
      { redecided: (before, now) => load.redecided(before, now) },
    );
    load.summary.committed = true;
  } catch (err) {
    if (err instanceof InterruptedError) load.summary.interrupted = true;
    // A batch decided again as it was applied, refused by what another writer wrote meanwhile: nothing was written.
    else if (err instanceof RefusedError) load.refusedAtTheEnd(err.refusals);
    else if (!(err instanceof Rollback)) throw err;
  } finally {
    options.progress?.finish();
  }
  return load.summary;
}

/** The state of one load inside its transaction, and its steps. */
class LoadRun {
  readonly summary: LoadSummary;
  private readonly batchSize: number;
  /** Records read but not yet written: at most one batch, so refusals keep the order of the input. */
  private batch: Pending[] = [];
  /** A record whose id is unknown was refused (unparseable JSON, a broken XML file): --delete-missing cannot tell what it held. */
  private unidentified = false;
  /** Without --partial, the first refusal dooms the load: later batches are only checked, not written. */
  private writing = true;
  private tx: (WriteTransaction & LoadBookkeeping) | undefined;
  private seen: SeenIds | undefined;
  /** When the planner next hears how many items this load has written (refreshStatistics). */
  private readonly statistics = new StatisticsSchedule();
  /**
   * The batch being written while the next one is read: reading and the
   * crosswalks run in this process while the database writes (PostgreSQL's
   * server works while this process would otherwise wait). At most one
   * batch is in flight, and each waits for the one before, so refusals keep
   * the input's order and a doomed load stops writing at once.
   */
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: LoadDeps,
    private readonly options: LoadOptions,
  ) {
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    this.summary = {
      records: 0,
      inserted: 0,
      updated: 0,
      revived: 0,
      formatAdded: 0,
      unchanged: 0,
      deleted: 0,
      superseded: 0,
      refused: 0,
      sets: 0,
      committed: false,
      dryRun: options.dryRun === true,
    };
  }

  /** Binds the load to its transaction and starts recording the ids it sees. */
  async begin(tx: WriteTransaction & LoadBookkeeping): Promise<void> {
    this.tx = tx;
    this.seen = await tx.seenIds();
  }

  /** Reads one input to the end, writing its records a batch at a time. */
  async consume(input: Input): Promise<void> {
    const config = this.deps.readerConfig;
    const limits = { maxRecordBytes: this.options.maxRecordBytes ?? config?.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES };
    const ctx = { policy: this.deps.policy, formats: this.deps.formats, counter: this.options.counter ?? { bytesRead: 0 }, limits };
    const events = config && readableInWorker(input) ? readInWorker(input, config, ctx.counter, this.batchSize) : readInput(input, ctx);
    let batchStart = ctx.counter.bytesRead;
    try {
      for await (const ev of events) {
        if (ev.kind === 'sets') {
          await this.settle();
          await this.declareSets(ev.sets, ev.source);
          continue;
        }
        if (ev.kind === 'record') {
          this.summary.records++;
          this.options.progress?.update(this.summary.records, this.options.counter?.bytesRead ?? 0);
          const keep = this.options.keepDatestamps === true && ev.foreign !== true && 'item' in ev.result;
          this.batch.push(keep ? { ...ev, result: { item: { ...ev.result.item, keepDatestamp: true } } } : ev);
        } else {
          this.batch.push({ kind: 'record', result: { refusals: [ev.refusal] }, id: null });
        }
        // A batch ends at its count, or once it holds enough of the input (large records make small batches).
        if (this.batch.length >= this.batchSize || ctx.counter.bytesRead - batchStart >= MAX_BATCH_INPUT_BYTES) {
          await this.flush();
          batchStart = ctx.counter.bytesRead;
          // A safe point: the batch before this one is written; an interruption rolls the load back here.
          await this.options.interrupt?.checkpoint();
        }
      }
    } catch (err) {
      // An input that fails half-way: the batch in flight ends before the transaction rolls back.
      await this.inFlight.catch(() => undefined);
      throw err;
    }
    await this.flush();
    await this.settle();
  }

  /** Waits until the batch in flight is written (or throws what writing it threw). */
  private async settle(): Promise<void> {
    const pending = this.inFlight;
    this.inFlight = Promise.resolve();
    await pending;
  }

  /** Declares sets a batch at a time (lib/sets/declare.ts), so one bad set is refused alone. */
  async declareSets(sets: readonly SetInput[], source: string): Promise<void> {
    const tx = this.transaction();
    this.summary.sets += await declareInBatches((part) => tx.putSets(part), sets, {
      dropped: (d) => this.options.onWarning?.(`${source}: ${d}`, `${source}: set descriptions dropped`),
      refused: (s, err) => {
        this.summary.refused++;
        this.refuse([{ internalId: '', source, field: `set ${s.spec}`, reason: (err as Error).message }]);
      },
    });
  }

  /**
   * Writes the version of each OAI-PMH record that won (the newest
   * datestamp), now that every input is read; refuses the records whose
   * versions conflict (one datestamp, different content), naming both places.
   */
  async writeStaged(): Promise<void> {
    for await (const page of this.seenIds().staged(this.batchSize)) {
      const items: ItemInput[] = [];
      for (const w of page) {
        if ('item' in w) items.push(w.item);
        else {
          this.summary.refused++;
          this.refuse([{ internalId: w.conflict.internalId, source: w.conflict.source, field: 'header.datestamp', reason: conflictReason(w.conflict.other) }]);
        }
      }
      if (items.length === 0) continue;
      if (this.writing) await this.write(items);
      else await this.check(items);
      await this.options.interrupt?.checkpoint();
    }
  }

  /** With --delete-missing, turns every live item the inputs did not name into a tombstone. */
  async deleteMissing(): Promise<void> {
    if (!this.options.deleteMissing || !this.writing) return;
    if (this.unidentified) {
      this.options.onWarning?.('--delete-missing skipped: some input could not be read as records, so which items it held is unknown');
      return;
    }
    for await (const missing of this.seenIds().missing(this.batchSize)) {
      this.count(await this.transaction().deleteItems(missing));
      await this.options.interrupt?.checkpoint();
    }
  }

  /** Forgets the ids seen, and rolls back a dry run or a refused load. */
  async end(): Promise<void> {
    this.options.probe?.();
    await this.seenIds().drop();
    this.options.progress?.update(this.summary.records, this.options.counter?.bytesRead ?? 0);
    if (this.options.dryRun || !this.writing) throw new Rollback();
  }

  /**
   * Sends the waiting batch to the store once the one before is written, and
   * returns without waiting for it (see `inFlight`).
   */
  private async flush(): Promise<void> {
    const entries = this.batch;
    this.batch = [];
    if (entries.length === 0) return;
    await this.settle();
    const writing = this.store(entries);
    // Handled here so a failure waits for settle() instead of surfacing as an unhandled rejection.
    writing.catch(() => undefined);
    this.inFlight = writing;
  }

  /** Takes a batch to the store: ids repeated in the load are refused, the rest pass the store's gate. */
  private async store(entries: readonly Pending[]): Promise<void> {
    const items = await this.firstSightings(entries);
    if (items.length === 0) return;
    if (this.writing) await this.write(items);
    else await this.check(items);
  }

  /**
   * The items of a batch to write now: those whose id the load has not seen
   * before; refuses the others and the records read with refusals. Records of
   * OAI-PMH responses are staged instead (the store's record of ids seen keeps
   * the newest version of each), and written by {@link writeStaged}.
   */
  private async firstSightings(all: readonly Pending[]): Promise<ItemInput[]> {
    const staged = all.filter((e) => e.versioned === true && 'item' in e.result);
    const entries = all.filter((e) => !(e.versioned === true && 'item' in e.result));
    if (staged.length > 0) await this.stage(staged);
    // An id seen in an earlier batch (the store's record of ids seen) or earlier in this one is refused.
    const ids = new Set<string>();
    for (const e of entries) if (e.id !== null && e.id !== '') ids.add(e.id);
    const earlier = await this.seenIds().add([...ids]);
    const inBatch = new Set<string>();
    const items: ItemInput[] = [];
    for (const { result, id, versioned, idFrom } of entries) {
      if (id !== null && id !== '') {
        // A refused version of a harvested record is refused for its own reasons, even when another version came first.
        if ((earlier.has(id) || inBatch.has(id)) && !(versioned === true && 'refusals' in result)) {
          const source = 'item' in result ? result.item.source : result.refusals[0]?.source;
          // A record that names itself (a record of a collection) says where its id came from: two records that name themselves alike cannot be told apart.
          const reason =
            idFrom === undefined
              ? 'the same internal id appears earlier in this load'
              : `the same internal id appears earlier in this load (this record's id is ${idFrom}), so the records cannot be told apart`;
          this.summary.refused++;
          this.refuse([{ internalId: id, ...(source !== undefined && { source }), field: 'id', reason }]);
          continue;
        }
        inBatch.add(id);
      } else {
        this.unidentified = true;
      }
      if ('refusals' in result) {
        this.summary.refused++;
        this.refuse(result.refusals);
      } else {
        items.push(result.item);
      }
    }
    return items;
  }

  /** Offers versions of OAI-PMH records to the store's record of ids seen; counts what they superseded, refuses conflicts and repeats. */
  private async stage(entries: readonly Pending[]): Promise<void> {
    const versions = entries.map((e) => {
      const item = (e.result as { item: ItemInput }).item;
      const deleted = item.deleted === true;
      // XML read into the model only (readFrom) is what such a version disseminates, too.
      const given = new Map(Object.entries(item.metadata));
      if (item.readFrom !== undefined) given.set(`{${item.readFrom.namespace}}`, item.readFrom.xml);
      const fingerprint = contentHash(deleted, uniqueSorted(item.sets ?? []), given, item.about ?? []);
      return { item, datestamp: item.datestamp ?? null, fingerprint, source: item.source ?? '' };
    });
    const outcomes = await this.seenIds().stage(versions);
    outcomes.forEach((o, i) => {
      const { item } = versions[i] as (typeof versions)[number];
      const where = item.source !== undefined ? { source: item.source } : {};
      if (o.kind === 'kept') {
        if (o.replaced !== undefined) this.summary.superseded++;
      } else if (o.kind === 'joined') {
        // Another format of a record kept: written with it, as one item.
      } else if (o.kind === 'older' || o.kind === 'same') {
        this.summary.superseded++;
      } else {
        this.summary.refused++;
        const reason =
          o.kind === 'conflict'
            ? conflictReason(o.other)
            : o.kind === 'unordered'
              ? unorderedReason(o.other)
              : 'the same internal id appears earlier in this load';
        this.refuse([{ internalId: item.internalId, ...where, field: o.kind === 'repeat' ? 'id' : 'header.datestamp', reason }]);
      }
    });
  }

  /** Writes items; with --partial, refused ones are left out and the rest written again (lib/pipeline/partial.ts). */
  private async write(items: readonly ItemInput[]): Promise<void> {
    const out = await writeLeavingOutRefused(this.transaction(), items, this.options.partial === true);
    this.summary.refused += out.refusedItems;
    this.refuse(out.refusals);
    if (out.written.length === 0) return;
    this.count(out.results);
    await this.refreshStatistics(out.written.length);
  }

  /**
   * Tells the database how large the load has made its tables, each time the
   * items written double: on PostgreSQL, a statement's plan made while the
   * tables were nearly empty scans them whole as they grow within the load's
   * one transaction, which autovacuum cannot see into (ARCHITECTURE.md, the
   * write path). A load of n items refreshes them about log2(n / 1,000) times.
   */
  private async refreshStatistics(added: number): Promise<void> {
    if (this.statistics.due(added)) await this.transaction().refreshStatistics();
  }

  /** Runs the store's gate without writing, once the load is doomed. */
  private async check(items: readonly ItemInput[]): Promise<void> {
    const refusals = await this.transaction().checkItems(items);
    this.summary.refused += new Set(refusals.map((r) => r.internalId)).size;
    this.refuse(refusals);
  }

  /**
   * A batch counted as it was decided, decided again when it was applied
   * because another writer changed what it met (server/store/staging.ts):
   * counted as it came out now.
   */
  redecided(before: readonly WriteResult[], now: PartialWrite): void {
    for (const r of before) countResult(this.summary, r, -1);
    this.count(now.results);
    this.summary.refused += now.refusedItems;
    this.refuse(now.refusals);
  }

  /** The refusals of a batch decided again as it was applied, which rolled the load back. */
  refusedAtTheEnd(refusals: readonly Refusal[]): void {
    this.summary.refused += new Set(refusals.map((r) => r.internalId)).size;
    this.refuse(refusals);
  }

  private refuse(refusals: readonly Refusal[]): void {
    if (refusals.length === 0) return;
    if (!this.options.partial) this.writing = false;
    for (const r of refusals) this.options.onRefusal?.(r);
  }

  private count(results: readonly WriteResult[]): void {
    for (const r of results) {
      countResult(this.summary, r);
      // What was kept of a record without being served, or noticed of it, is said in the run's warnings.
      for (const n of r.notes ?? []) this.options.onWarning?.(n.text, n.kind);
    }
  }

  private transaction(): WriteTransaction & LoadBookkeeping {
    if (!this.tx) throw new Error('the load has not begun');
    return this.tx;
  }

  private seenIds(): SeenIds {
    if (!this.seen) throw new Error('the load has not begun');
    return this.seen;
  }
}
