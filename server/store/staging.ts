/**
 * A long write staged: decided without the store's write lock, applied in one
 * short step at its end (ARCHITECTURE.md, "The write path").
 *
 * SQLite lets one connection write at a time, and an all-or-nothing load is
 * one transaction: written as it is read, it would hold the write lock for
 * the whole load, and every other writer (a server's scheduled harvest, a
 * `set` command, doctor's repairs) would wait for it. Most of a load is not
 * writing: it is reading the input and deciding (lifting, writing every
 * format, judging, hashing). So a staged write runs in two transactions on
 * one connection:
 *
 * 1. **decide**, in a read transaction (`BEGIN`, which takes no lock a writer
 *    waits for; the temporary table of ids seen is in the connection's
 *    temporary database, not the store's file): each batch's state is read,
 *    the batch decided (./write.ts `decidePassing`) and the plan kept in a
 *    file beside the store, one batch at a time, so memory stays flat;
 *    refusals are found here, so a refused load never takes the lock;
 * 2. **apply**, in a write transaction (`BEGIN IMMEDIATE`): each batch's
 *    state is read again; where it is what the batch was decided from, the
 *    plan is applied as it was decided, since the decision is a pure function
 *    of the batch, the state and the options; where another writer changed
 *    it meanwhile, the batch is decided again from what is there now, and its
 *    caller told what changed ({@link StagedHooks}). Then the write is
 *    published (../db/publication.ts) and commits.
 *
 * Both transactions use one publication, so the placeholder the decision put
 * in every datestamp is the one publishing replaces. The staging file is
 * unlinked as soon as it is opened: the system removes it when the process
 * ends, however it ends.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import type { Knex } from 'knex';
import { RefusedError, type ItemInput, type PartialWrite, type StagedHooks, type WriteResult } from '../../lib/store';
import type { PlannedItem, StoredState } from '../../lib/pipeline/decide';
import { decideDeletes } from '../../lib/pipeline/tombstones';
import { newPublication, publish, type Publication, type PublicationLock } from '../db/publication';
import { dialectOf, Utf8Text } from '../db/dialect';
import { writeDeletes } from './changes';
import type { AppliedItem } from './apply';
import { keepsLogHashes, type WriteUnwritten } from '../db/log/append';
import { servedRecordHash } from '../../lib/tlog/verify';
import { readDeleteState, readWriteState } from './state';
import { transact } from './transactions';
import { applyDecided, decidePassing, namedSets, writePassing, type WriteOptions } from './write';

/** A batch decided in the first transaction, its plan in the staging file at `at`. */
interface StagedBatch {
  readonly kind: 'write';
  readonly at: number;
  readonly length: number;
  /** How many of its bytes are the V8-serialized part (`encodePayload`). */
  readonly head: number;
  /** The digest of the state it was decided from, or null when it must be decided again (some records refused). */
  readonly digest: string | null;
  readonly sets: readonly string[];
  readonly partial: boolean;
}

/** What a staged batch keeps in the file: its items as given (to decide again), what applying reads of its plan, its results. */
interface BatchPayload {
  readonly written: readonly ItemInput[];
  readonly planned: readonly AppliedItem[];
  readonly results: readonly WriteResult[];
}

/**
 * A batch's payload as the file holds it: the records' XML taken out of the
 * plan (each record names its place in `xmlBytes`), to follow the rest as
 * UTF-8. V8's own serialization keeps a string as it holds it, two bytes a
 * character for any XML with one character beyond Latin-1: most records'.
 */
interface StagedPayload extends Omit<BatchPayload, 'planned'> {
  readonly planned: readonly (Omit<AppliedItem, 'records'> & { readonly records: ReadonlyMap<string, number | null> })[];
  /** The UTF-8 length of each XML, in order. */
  readonly xmlBytes: readonly number[];
}

/** A payload as bytes: the rest serialized by V8 (`head` bytes), then each XML as UTF-8, into `into` (grown as needed). */
function encodePayload(payload: BatchPayload, into: Buffer): { bytes: Buffer; head: number; length: number } {
  const xml: string[] = [];
  const planned = payload.planned.map((p) => ({
    ...p,
    records: new Map([...p.records].map(([prefix, x]) => [prefix, x === null ? null : xml.push(String(x)) - 1])),
  }));
  const xmlBytes = xml.map((x) => Buffer.byteLength(x));
  const head = v8.serialize({ written: payload.written, planned, results: payload.results, xmlBytes } satisfies StagedPayload);
  const length = head.length + xmlBytes.reduce((a, b) => a + b, 0);
  const bytes = into.length >= length ? into : Buffer.allocUnsafeSlow(Math.max(length, 2 * into.length));
  head.copy(bytes, 0);
  let at = head.length;
  for (const x of xml) at += bytes.write(x, at, 'utf8');
  return { bytes, head: head.length, length };
}

/** The payload {@link encodePayload} wrote into the first `length` bytes of `bytes`. */
function decodePayload(bytes: Buffer, head: number, length: number): BatchPayload {
  const staged = v8.deserialize(bytes.subarray(0, head)) as StagedPayload;
  // The XML stays the UTF-8 bytes it was written as, bound so to the store (../db/dialect/values.ts `Utf8Text`),
  // views of `bytes`: it is read into again only for the next batch, once this one is applied (SQLite copies what
  // it binds).
  const all = bytes.subarray(head, length);
  const xml: Utf8Text[] = [];
  let at = 0;
  for (const n of staged.xmlBytes) {
    xml.push(new Utf8Text(all.subarray(at, at + n)));
    at += n;
  }
  if (head + at !== length) throw new Error(`a staged batch read back is ${length} bytes, not the ${head + at} written`);
  const planned = staged.planned.map((p) => ({
    ...p,
    records: new Map([...p.records].map(([prefix, i]) => [prefix, i === null ? null : (xml[i] as Utf8Text)])),
  }));
  return { written: staged.written, planned, results: staged.results };
}

/**
 * What applying reads of a planned item (./apply.ts `AppliedItem`), with the
 * log hashes of its records taken now, outside the lock (`logged`: the store
 * keeps them): not the prepared formats again, nor the state it met.
 */
function applied(p: PlannedItem, logged: boolean): AppliedItem {
  const { internalId, harvestedFrom, written, withheld, liftedFrom } = p.input;
  const logHashes = new Map<string, string>();
  if (logged) for (const [prefix, xml] of p.records) if (xml !== null) logHashes.set(prefix, servedRecordHash(xml));
  return {
    ...p,
    input: {
      internalId,
      written,
      ...(harvestedFrom !== undefined && { harvestedFrom }),
      ...(withheld !== undefined && { withheld }),
      ...(liftedFrom !== undefined && { liftedFrom }),
    },
    existing: p.existing && { pk: p.existing.pk, sourceDatestamp: p.existing.sourceDatestamp },
    logHashes,
  };
}

type StagedStep =
  | StagedBatch
  | { readonly kind: 'deletes'; readonly ids: readonly string[]; readonly harvestedFrom: string | undefined; readonly results: readonly WriteResult[] }
  | { readonly kind: 'run'; readonly run: (trx: Knex) => Promise<void> };

/**
 * The digest of a batch's state: equal states give equal digests, because
 * the state is built in the order of its queries, which read the same rows
 * in the same order from the same content. A state read in another order
 * only makes a batch be decided again.
 */
function stateDigest(state: StoredState): string {
  return crypto.createHash('sha256').update(v8.serialize(state)).digest('hex');
}

/** Two writes' results, compared as their caller counts them. */
function sameResults(a: readonly WriteResult[], b: readonly WriteResult[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The steps of a staged write, in order: batches decided (their plans in a
 * file), deletions decided, and the small writes (sets) run as they were
 * asked for, all applied by {@link StagedWrites.apply}.
 */
export class StagedWrites {
  readonly publication: Publication = newPublication();
  private readonly steps: StagedStep[] = [];
  private readonly fd: number;
  private size = 0;
  /**
   * One buffer, grown as needed, for every batch written and read back: a new one each would be memory outside
   * the heap, which the collector counts late.
   */
  private buffer: Buffer = Buffer.alloc(0);
  /** Whether the store keeps each record's log hash (read once). */
  private logged: boolean | undefined;

  /**
   * @param folder where the staging file is made (the store's folder: what its operator gave room to)
   * @param options the write's options for a stamp (the store's `writeOptions`)
   */
  constructor(
    folder: string,
    private readonly options: (stamp: number) => WriteOptions,
  ) {
    const dir = fs.mkdtempSync(path.join(folder, '.oai-steward-staged-'));
    const file = path.join(dir, 'plans');
    this.fd = fs.openSync(file, 'w+', 0o600);
    fs.unlinkSync(file);
    fs.rmdirSync(dir);
  }

  /**
   * Decides a batch from the state `trx` reads now and stages the plan that
   * passes; returns what it came to, as a write would. Without `partial` a
   * refusal stages nothing and is thrown, as a write throws it.
   */
  async writeItems(trx: Knex, items: readonly ItemInput[], partial: boolean): Promise<PartialWrite> {
    const options = this.options(this.publication.placeholder);
    const d = await decidePassing(trx, items, options, partial);
    if (!partial && d.refusals.length > 0) throw new RefusedError(d.refusals);
    const out = { results: d.results, written: d.written, refusals: d.refusals, refusedItems: d.refusedItems };
    if (d.plan === null) return out;
    this.logged ??= await keepsLogHashes(trx);
    const logged = this.logged;
    const payload: BatchPayload = { written: d.written, planned: d.plan.planned.map((p) => applied(p, logged)), results: d.results };
    const { bytes, head, length } = encodePayload(payload, this.buffer);
    this.buffer = bytes;
    // A regular file takes a whole write or fails (ENOSPC); anything less would be read back wrong.
    const wrote = fs.writeSync(this.fd, bytes, 0, length, this.size);
    if (wrote !== length) throw new Error(`the staging file beside the store took ${wrote} of ${length} bytes`);
    this.steps.push({
      kind: 'write',
      at: this.size,
      length,
      head,
      // The state was read for the whole batch; a batch with records left out is decided again under the lock.
      digest: d.written.length === items.length ? stateDigest(d.state) : null,
      sets: namedSets(d.plan),
      partial,
    });
    this.size += length;
    return out;
  }

  /** The refusals a write of `items` would meet now, staging nothing. */
  async checkItems(trx: Knex, items: readonly ItemInput[]): Promise<PartialWrite['refusals']> {
    return (await decidePassing(trx, items, this.options(this.publication.placeholder), false)).refusals;
  }

  /** Decides the deletion of `internalIds` now (a refusal is thrown) and stages it. */
  async deleteItems(trx: Knex, internalIds: readonly string[], harvestedFrom?: string): Promise<WriteResult[]> {
    const options = this.options(this.publication.placeholder);
    const plan = decideDeletes(internalIds, await readDeleteState(trx, internalIds), {
      stamp: this.publication.placeholder,
      tombstonePrefixes: options.tombstonePrefixes,
      ...(harvestedFrom !== undefined && { harvestedFrom }),
    });
    if (plan.refusals.length > 0) throw new RefusedError(plan.refusals);
    const results = plan.planned.map((p) => ({ internalId: p.item.internalId, identifier: p.item.identifier, outcome: p.outcome }));
    this.steps.push({ kind: 'deletes', ids: [...internalIds], harvestedFrom, results });
    return results;
  }

  /** Stages a small write (declaring sets), run as it is in the second transaction. */
  run(write: (trx: Knex) => Promise<void>): void {
    this.steps.push({ kind: 'run', run: write });
  }

  /**
   * Applies every step inside the write transaction `trx`, in order: a batch
   * whose state is what it was decided from as decided, any other decided
   * again now (a refusal without `partial` is thrown, and nothing commits).
   */
  async apply(trx: Knex, hooks: StagedHooks): Promise<void> {
    const batches = { asDecided: 0, decidedAgain: 0 };
    for (const step of this.steps) {
      if (step.kind === 'run') await step.run(trx);
      else if (step.kind === 'deletes') {
        const options = this.options(this.publication.placeholder);
        const now = await writeDeletes(trx, step.ids, this.publication.placeholder, options.tombstonePrefixes, step.harvestedFrom);
        if (!sameResults(now, step.results)) hooks.redecided?.(step.results, { results: now, written: [], refusals: [], refusedItems: 0 });
      } else if (await this.applyBatch(trx, step, hooks)) batches.asDecided++;
      else batches.decidedAgain++;
    }
    hooks.applied?.(batches);
  }

  /** Applies one batch; true when as it was decided. */
  private async applyBatch(trx: Knex, step: StagedBatch, hooks: StagedHooks): Promise<boolean> {
    if (this.buffer.length < step.length) this.buffer = Buffer.allocUnsafeSlow(step.length);
    const read = fs.readSync(this.fd, this.buffer, 0, step.length, step.at);
    if (read !== step.length) throw new Error(`the staging file beside the store gave back ${read} of ${step.length} bytes`);
    const payload = decodePayload(this.buffer, step.head, step.length);
    const options = this.options(this.publication.placeholder);
    if (step.digest !== null && stateDigest(await readWriteState(trx, payload.written, options.preparation.policy)) === step.digest) {
      // Applied at the clock of now, as written as it goes: an item's `created` and an identifier's first publication.
      await applyDecided(trx, step.sets, payload.planned, options);
      return true;
    }
    const now = await writePassing(trx, payload.written, options, step.partial);
    if (!step.partial && now.refusals.length > 0) throw new RefusedError(now.refusals);
    if (now.refusals.length > 0 || !sameResults(now.results, payload.results)) hooks.redecided?.(payload.results, now);
    return false;
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/**
 * Runs `decide` in a read transaction with a {@link StagedWrites} to stage
 * into, then applies and publishes what it staged in one write transaction
 * on the same connection (so the temporary tables `decide` made are still
 * there). A store without a staging folder is written as it goes, in one
 * transaction. Returns what `decide` returned; throws what it threw, having
 * written nothing.
 *
 * @example await stagedWrite(knex, clock, options, (trx, staged) => load(trx, staged), hooks)
 */
export async function stagedWrite<T>(
  knex: Knex,
  clock: () => number,
  options: (stamp: number) => WriteOptions,
  decide: (trx: Knex.Transaction, staged: StagedWrites) => Promise<T>,
  hooks: StagedHooks,
  writeUnwritten?: WriteUnwritten,
): Promise<T> {
  const folder = dialectOf(knex).stagingFolder(knex);
  if (folder === null) throw new Error('this store writes as it goes: it has no staging folder');
  const client = knex.client as { acquireConnection(): Promise<unknown>; releaseConnection(c: unknown): Promise<unknown> };
  const connection = await client.acquireConnection();
  const staged = new StagedWrites(folder, options);
  let lock: PublicationLock | undefined;
  try {
    const out = await transact(knex, (trx) => decide(trx, staged), { connection, readOnly: true });
    await transact(
      knex,
      async (trx) => {
        await staged.apply(trx, hooks);
        lock = await publish(trx, staged.publication, clock, writeUnwritten);
      },
      { connection },
    );
    return out;
  } finally {
    lock?.release();
    staged.close();
    await client.releaseConnection(connection);
  }
}
