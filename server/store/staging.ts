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
import v8 from 'node:v8';
import type { Knex } from 'knex';
import { RefusedError, type ItemInput, type PartialWrite, type StagedHooks, type WriteResult } from '../../lib/store';
import type { PlannedItem, StoredState } from '../../lib/pipeline/decide';
import { decideDeletes } from '../../lib/pipeline/tombstones';
import { newPublication, publish, type Publication, type PublicationLock } from '../db/publication';
import { dialectOf, type Utf8Text } from '../db/dialect';
import { writeDeletes } from './changes';
import type { AppliedItem } from './apply';
import { keepsLogHashes, type WriteUnwritten } from '../db/log/append';
import { StagingFile, type StagedBatchBytes, type StagedPlace } from './staging-file';
import { readDeleteState, readWriteState } from './state';
import { transact } from './transactions';
import { applyDecided, decidePassing, namedSets, writePassing, type WriteOptions } from './write';

/** A batch decided in the first transaction, its plan in the staging file at `place` once written there. */
interface StagedBatch {
  readonly kind: 'write';
  readonly place: Promise<StagedPlace>;
  /** The digest of the state it was decided from, or null when it must be decided again (some records refused). */
  readonly digest: string | null;
  readonly sets: readonly string[];
  readonly partial: boolean;
}

/** What a staged batch keeps: its items as given (to decide again), what applying reads of its plan, its results. */
interface BatchPayload {
  readonly written: readonly ItemInput[];
  readonly planned: readonly AppliedItem[];
  readonly results: readonly WriteResult[];
}

/**
 * A batch's payload as the staging file's head holds it: the records' XML
 * taken out of the plan (each record names its place among the batch's XML),
 * to follow the head as UTF-8 (./staging-file.ts). V8's own serialization
 * keeps a string as it holds it, two bytes a character for any XML with one
 * character beyond Latin-1: most records'.
 */
interface StagedHead extends Omit<BatchPayload, 'planned'> {
  readonly planned: readonly (Omit<AppliedItem, 'records' | 'logHashes'> & { readonly records: ReadonlyMap<string, number | null> })[];
}

/** A payload as the staging file takes it: the head serialized by V8, and the XML in the order the head names it. */
function encodePayload(payload: BatchPayload): { head: Buffer; xml: string[] } {
  const xml: string[] = [];
  const planned = payload.planned.map((p) => ({
    ...p,
    records: new Map([...p.records].map(([prefix, x]) => [prefix, x === null ? null : xml.push(String(x)) - 1])),
  }));
  return { head: v8.serialize({ written: payload.written, planned, results: payload.results } satisfies StagedHead), xml };
}

/** The payload {@link encodePayload} staged, each XML as the UTF-8 bytes read back, with its log hash when taken. */
function decodePayload(staged: StagedBatchBytes): BatchPayload {
  const head = v8.deserialize(staged.head) as StagedHead;
  const xmlAt = (i: number): Utf8Text => {
    const x = staged.xml[i];
    if (x === undefined) throw new Error(`a staged batch names XML ${i} of ${staged.xml.length}`);
    return x;
  };
  const planned = head.planned.map((p): AppliedItem => {
    const logHashes = new Map<string, string>();
    if (staged.logHashes !== null) for (const [prefix, i] of p.records) if (i !== null) logHashes.set(prefix, staged.logHashes[i] as string);
    return {
      ...p,
      records: new Map([...p.records].map(([prefix, i]) => [prefix, i === null ? null : xmlAt(i)])),
      ...(staged.logHashes !== null && { logHashes }),
    };
  });
  return { written: head.written, planned, results: head.results };
}

/**
 * What applying reads of a planned item (./apply.ts `AppliedItem`): not the
 * prepared formats again, nor the state it met. The log hashes of its
 * records are taken as the staging file is written.
 */
function applied(p: PlannedItem): AppliedItem {
  const { internalId, harvestedFrom, written, withheld, liftedFrom } = p.input;
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
  private readonly file: StagingFile;
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
    this.file = new StagingFile(folder);
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
    const { head, xml } = encodePayload({ written: d.written, planned: d.plan.planned.map(applied), results: d.results });
    const { place } = await this.file.append(head, xml, this.logged);
    this.steps.push({
      kind: 'write',
      place,
      // The state was read for the whole batch; a batch with records left out is decided again under the lock.
      digest: d.written.length === items.length ? stateDigest(d.state) : null,
      sets: namedSets(d.plan),
      partial,
    });
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
    const payload = decodePayload(this.file.read(await step.place));
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

  /** Waits for every plan staged to be in the staging file; throws why one is not. */
  flushed(): Promise<void> {
    return this.file.flushed();
  }

  /** Ends the staging file and the thread writing it. */
  close(): Promise<void> {
    return this.file.close();
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
    // A plan the staging file did not take ends the write here, before it asks for the lock.
    await staged.flushed();
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
    await staged.close();
    await client.releaseConnection(connection);
  }
}
