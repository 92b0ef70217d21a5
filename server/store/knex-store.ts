/**
 * The knex-backed store: lib/store/'s `Store` on SQLite and PostgreSQL with
 * identical behaviour (dialect differences live in server/db/). One file per
 * concern, put together here:
 *
 * - ./read.ts     the read side, keyset scans (ReadStore);
 * - ./state.ts    what a batch meets in the store, read once for the decision (lib/pipeline/decide.ts);
 * - ./apply.ts    writing a plan, tombstones, set memberships;
 * - ./sets.ts     declaring, renaming and retiring sets, with their origin;
 * - ./stats.ts    statistics;
 * - ./record-fields.ts  the record fields kept with each item;
 * - ./scan.ts     every item a page at a time, with all its formats (check, rebuild-sets);
 * - ./settings.ts and ./counters.ts: the token secret and PDI serials, used by
 *   the server's wiring rather than by the protocol;
 * - ./harvest-state.ts, ./harvest-locks.ts, ./given.ts: the harvester's
 *   checkpoints and seen ids, its locks, and the XML items gave;
 * - ./runs.ts, ./demo.ts, ./snapshot.ts: the report of every run (loads and
 *   harvests), the demo's marker, a dump's snapshot reads;
 *
 * - ./write.ts   the write pipeline (lift, prepare, judge, plan, apply).
 *
 * Every write runs the whole pipeline over the whole batch and writes
 * nothing when anything is refused. Whoever must learn of writes (the
 * next-page prefetch) registers a commit hook (`onCommit`).
 */
import type { Knex } from 'knex';
import {
  RefusedError,
  type ItemInput,
  type PartialWrite,
  type MembershipChange,
  type ScannedItem,
  type ScanOptions,
  type SetInput,
  type StoreStats,
  type WriteResult,
  type WriteTransaction,
  type DeleteOptions,
  type HarvestBookkeeping,
  type ItemPresence,
  type RunKind,
  type RunReport,
  type RunTotal,
  type StoredRun,
  type PoolUse,
  type RepositoryStore,
  type Retirement as RetirementResult,
  type SetListing,
  type SnapshotReads,
  type WrittenFormatsStatus,
  type AboutInput,
  type HarvestLock,
  type HarvestLocks,
  type HarvestState,
  type ListKey,
  type ListState,
  type LoadBookkeeping,
  type PageCheckpoint,
  type SeenIds,
  type StagedHooks,
} from '../../lib/store';
import type { Refusal } from '../../lib/model/refusal';
import { keptDescriptions } from '../../lib/pipeline/judge';
import type { RecordFields } from '../../lib/model/record';
import type { Preparation } from '../../lib/pipeline/prepare';
import { createFormatRegistry } from '../../lib/formats/registry';
import { dialectOf } from '../db/dialect';
import { createSeenIds } from '../db/seen-ids';
import { recordFieldsOf } from './record-fields';
import { aboutByInternalId } from './given';
import { demoNamespace, eraseAll, itemsPresent, registeredIdentifiers, setDemoNamespace } from './demo';
import { lastFailure, latestRuns, recordRun, runTotals } from './runs';
import { getOrCreateCreated, getOrCreateSecret, hasSecret } from './settings';
import { mintPdiSerial } from './counters';
import { snapshotOf } from './snapshot';
import { poolUse } from '../db/pool';
import { acquireHarvestLock } from './harvest-locks';
import { checkpoint, clearSeen, dropCheckpoint, listState, localItemsInSpace, markSeen, readStates, recordError, unseenItems } from './harvest-state';
import { writeDeletes, writeMemberships } from './changes';
import {
  declareConfiguredSets,
  checkInputSets,
  declareInputSets,
  declareSetsFromInput,
  renameSet,
  retireGoneSourceSets,
  retireSets,
  retireUnconfiguredSets,
  setListing,
} from './sets';
import { KnexReadStore } from './read';
import { checkFingerprint, claimFingerprint, onDemandOf, storedFingerprint, writeOnDemand, type OnDemand } from './on-demand';
import { scanItems } from './scan';
import { storeStats } from './stats';
import { writePassing, writePipeline, type WriteOptions } from './write';
import { stagedWrite, type StagedWrites } from './staging';
import { newPublication, type Publication } from '../db/publication';
import { backfillLog } from '../db/log/backfill';
import { publishing, transact } from './transactions';
import { KnexStoreOptions } from './knex-store-options';

/** Thrown inside a transaction to roll it back after a check. */
class CheckOnly extends Error {
  constructor(readonly refusals: readonly Refusal[]) {
    super('check only');
  }
}

const systemClock = (): number => Math.floor(Date.now() / 1000);

/**
 * lib/store/'s Store over knex.
 *
 * @example
 * const knex = createKnex('sqlite:./data/oai.db');
 * await migrate(knex);
 * const store = new KnexStore({ knex, policy: createIdPolicy({ namespace: 'example.org' }) });
 * await store.putSets([{ spec: 'a', name: 'A' }]);
 * await store.writeItems([{ internalId: 'x 1', sets: ['a'], metadata: {}, fields: { dc: { title: ['T'] } } }]);
 */
export class KnexStore extends KnexReadStore implements RepositoryStore, WriteTransaction, LoadBookkeeping, HarvestState, HarvestBookkeeping, HarvestLocks {
  private readonly options: KnexStoreOptions;
  private readonly clock: () => number;
  private readonly preparation: Preparation;
  /** With `writtenFormats: on-demand`, the written formats stored all the same (`storedFormats`). */
  private readonly storedFormats: ReadonlySet<string> | undefined;
  /** Called after a write commits; shared with the stores bound to this one's transactions, which never call them. */
  private readonly commitHooks: Set<() => void>;
  /** Whether this store is bound to a transaction someone else commits. */
  private readonly bound: boolean;
  /** A bound store's: the publication of the transaction it is bound to, which its owner publishes. */
  private readonly publication: Publication | undefined;
  /** A store bound to the deciding transaction of a staged write: where its writes are staged (./staging.ts). */
  private readonly staged: StagedWrites | undefined;

  constructor(options: KnexStoreOptions, shared?: { hooks: Set<() => void>; publication?: Publication; staged?: StagedWrites }) {
    const preparation: Preparation = {
      formats: options.formats ?? createFormatRegistry(),
      policy: options.policy,
      ...(options.oaiDcProfile !== undefined && { oaiDcProfile: options.oaiDcProfile }),
      ...(options.poiInDublinCore !== undefined && { poiInDublinCore: options.poiInDublinCore }),
      ...(options.setRules !== undefined && { setRules: options.setRules }),
      ...(options.rightsInAbout !== undefined && { rightsInAbout: options.rightsInAbout }),
      ...(options.liftOrder !== undefined && { liftOrder: options.liftOrder }),
    };
    super(options.knex, onDemandOf(preparation), options.replication);
    this.preparation = preparation;
    this.storedFormats = options.storedFormats && new Set(options.storedFormats);
    this.options = options;
    this.clock = options.clock ?? systemClock;
    this.commitHooks = shared?.hooks ?? new Set();
    this.bound = shared !== undefined;
    this.publication = shared?.publication;
    this.staged = shared?.staged;
  }

  /**
   * Throws when the store writes formats on demand under another formats
   * configuration or writers' version than this store's (./on-demand.ts):
   * what `serve` checks before it starts (a write that leaves formats to be
   * written on demand, and every read that writes one, check it too).
   */
  async checkWrittenFormats(): Promise<void> {
    await checkFingerprint(this.knex, this.onDemand as OnDemand);
  }

  /**
   * Gives every item without a leaf in the publication log its first
   * entries, records written on demand included (../db/log/backfill.ts):
   * an upgraded store's log, made right after migrating. Returns how many
   * entries it appended; none for a store that has its log.
   */
  async backfillLog(): Promise<number> {
    const od = this.onDemand;
    return backfillLog(this.knex, od && ((trx, wanted) => writeOnDemand(trx, od, wanted)));
  }

  /**
   * Makes this store's formats configuration the one what is written on
   * demand stands for; `rebuild-formats` calls it in its transaction before
   * writing every item again, which re-stamps each whose output differs.
   */
  async adoptWrittenFormats(): Promise<void> {
    if ((await storedFingerprint(this.knex)) === null && this.options.writtenFormats !== 'on-demand') return;
    const claim = async (trx: Knex): Promise<void> => claimFingerprint(trx, this.onDemand as OnDemand, true);
    if (this.staged) this.staged.run(claim);
    else await claim(this.knex);
  }

  /**
   * Registers a hook called after every write of this store commits (a
   * whole transaction once, at its commit): how a cache of this process
   * learns that what it prepared may be stale.
   *
   * @example store.onCommit(() => prefetch.invalidate());
   */
  onCommit(hook: () => void): void {
    this.commitHooks.add(hook);
  }

  /**
   * Runs `fn` with a store bound to one transaction, so several writes
   * (e.g. putSets then several writeItems batches) commit or roll back
   * together. Each write inside still runs in its own savepoint.
   *
   * @example await store.transaction(async (tx) => { await tx.putSets(sets); await tx.writeItems(items); });
   */
  async transaction<T>(fn: (tx: KnexStore) => Promise<T>): Promise<T> {
    return this.writing((trx, stamp, publication) => fn(new KnexStore({ ...this.options, knex: trx }, { hooks: this.commitHooks, publication })));
  }

  /**
   * Runs `fn` as {@link transaction} does, its writes decided without the
   * write lock and applied at its end in one short step on a store with one
   * writer at a time (./staging.ts); inside a transaction, or on a store
   * whose writers do not wait for each other, it is {@link transaction}.
   *
   * @example await store.stagedTransaction(async (tx) => { await tx.writeItems(items); }, { redecided: recount });
   */
  async stagedTransaction<T>(fn: (tx: KnexStore) => Promise<T>, hooks: StagedHooks = {}): Promise<T> {
    if (this.bound || dialectOf(this.knex).stagingFolder(this.knex) === null) return this.transaction(fn);
    const od = this.onDemand;
    return this.committing(
      stagedWrite(
        this.knex,
        this.clock,
        (stamp) => this.writeOptions(stamp),
        (trx, staged) => fn(new KnexStore({ ...this.options, knex: trx }, { hooks: this.commitHooks, publication: staged.publication, staged })),
        hooks,
        od && ((trx, wanted) => writeOnDemand(trx, od, wanted)),
      ),
    );
  }

  /** Records the ids a load has seen in a temporary table of this store's connection; call it inside {@link transaction}. */
  seenIds(): Promise<SeenIds> {
    return createSeenIds(this.knex);
  }

  async refreshStatistics(): Promise<void> {
    // The tables a batch's state is read from (./state.ts): by internal id and by identifier.
    await dialectOf(this.knex).refreshStatistics(this.knex, ['items', 'identifiers']);
  }

  harvestStates(source?: string): Promise<ListState[]> {
    return readStates(this.knex, source);
  }

  harvestList(key: ListKey, baseUrl?: string): Promise<ListState> {
    return listState(this.knex, key, baseUrl);
  }

  recordHarvestError(key: ListKey, message: string, now: number): Promise<void> {
    return recordError(this.knex, key, message, now);
  }

  dropCheckpoint(key: ListKey): Promise<void> {
    return dropCheckpoint(this.knex, key);
  }

  clearSeen(source: string): Promise<void> {
    return clearSeen(this.knex, source);
  }

  unseenItems(source: string, after: string, limit: number): Promise<string[]> {
    return unseenItems(this.knex, source, after, limit);
  }

  localItemsInSpace(space: string, limit: number): Promise<string[]> {
    return localItemsInSpace(this.knex, space, limit);
  }

  /** Records a page in its list's state; call it inside {@link transaction}, with the page's writes. */
  checkpoint(key: ListKey, c: PageCheckpoint): Promise<void> {
    return checkpoint(this.knex, key, c);
  }

  /** Records ids a `--delete-missing` run harvested; call it inside {@link transaction}, with the page's writes. */
  markSeen(source: string, ids: readonly string[]): Promise<void> {
    return markSeen(this.knex, source, ids);
  }

  storedAbout(internalIds: readonly string[]): Promise<ReadonlyMap<string, readonly AboutInput[]>> {
    return aboutByInternalId(this.knex, internalIds);
  }

  acquireHarvestLock(source: string, now?: () => number): Promise<HarvestLock | null> {
    return acquireHarvestLock(this.knex, source, now);
  }

  recordRun(run: RunReport): Promise<number> {
    return recordRun(this.knex, run);
  }

  latestRuns(kind: RunKind, source: string | null, limit?: number): Promise<StoredRun[]> {
    return latestRuns(this.knex, kind, source, limit);
  }

  lastFailure(kind: RunKind, source: string | null): Promise<StoredRun | null> {
    return lastFailure(this.knex, kind, source);
  }

  runTotals(): Promise<RunTotal[]> {
    return runTotals(this.knex);
  }

  tokenSecret(): Promise<string> {
    return getOrCreateSecret(this.knex);
  }

  /** When the store was created (./settings.ts `getOrCreateCreated`): Identify's earliestDatestamp while it holds no record. */
  createdAt(): Promise<number> {
    return getOrCreateCreated(this.knex, this.clock);
  }

  hasTokenSecret(): Promise<boolean> {
    return hasSecret(this.knex);
  }

  mintPdiSerial(series: string, date: string): Promise<number> {
    return mintPdiSerial(this.knex, series, date);
  }

  setListing(): Promise<SetListing[]> {
    return setListing(this.knex);
  }

  demoNamespace(): Promise<string | null> {
    return demoNamespace(this.knex);
  }

  setDemoNamespace(namespace: string | null): Promise<void> {
    return setDemoNamespace(this.knex, namespace);
  }

  itemsPresent(internalIds: readonly string[]): Promise<ItemPresence[]> {
    return itemsPresent(this.knex, internalIds);
  }

  registeredIdentifiers(internalIds?: readonly string[]): Promise<number> {
    return registeredIdentifiers(this.knex, internalIds);
  }

  eraseAll(): Promise<number> {
    return eraseAll(this.knex);
  }

  /** Runs `fn` with the reads of one read-only snapshot of the store (../db/snapshot.ts). */
  inSnapshot<T>(fn: (reads: SnapshotReads) => Promise<T>): Promise<T> {
    return snapshotOf(this.knex, this.onDemand, fn);
  }

  async writtenFormatsStatus(): Promise<WrittenFormatsStatus> {
    return { stored: await storedFingerprint(this.knex), configured: this.onDemand?.fingerprint };
  }

  poolUse(): PoolUse | undefined {
    return poolUse(this.knex);
  }

  stats(): Promise<StoreStats> {
    return storeStats(this.knex);
  }

  scanItems(afterPk: number, limit: number, options: ScanOptions = {}): Promise<readonly ScannedItem[]> {
    return scanItems(this.knex, afterPk, limit, this.onDemand, options);
  }

  recordFields(internalIds: readonly string[]): Promise<ReadonlyMap<string, RecordFields>> {
    return recordFieldsOf(this.knex, internalIds);
  }

  async putSets(sets: readonly SetInput[]): Promise<string[]> {
    const judged = keptDescriptions(sets, this.options.formatChecks?.descriptions);
    const declare = async (trx: Knex): Promise<void> => {
      // The configuration's sets first, so an input's declaration finds them and keeps their names.
      if (this.options.setRules && this.options.setRules.all.length > 0) await declareConfiguredSets(trx, this.options.setRules);
      await declareInputSets(trx, judged.sets);
    };
    if (this.staged) {
      // Refused now as the write would refuse it, written with the rest.
      checkInputSets(judged.sets);
      this.staged.run(declare);
    } else await this.writing(declare);
    return judged.dropped;
  }

  /**
   * Declares the setSpecs records name that no one declared, named by the
   * setSpec (./sets.ts `declareSetsFromInput`); returns those declared.
   *
   * @example await store.declareSetsFromInput(['5:12']) // ['5', '5:12']
   */
  async declareSetsFromInput(specs: readonly string[]): Promise<string[]> {
    return this.writing((trx) => declareSetsFromInput(trx, specs));
  }

  /** Renames a set an input declared; the name sticks (./sets.ts `renameSet`). */
  async renameSet(spec: string, name: string): Promise<void> {
    await this.writing((trx) => renameSet(trx, spec, name, this.clock()));
  }

  /** Retires sets and their descendants: their members leave them, with departures (./sets.ts `retireSets`). */
  async retireSets(specs: readonly string[]): Promise<RetirementResult> {
    return this.writing((trx, stamp) => retireSets(trx, specs, this.clock(), stamp));
  }

  /** Retires the sets a harvested source no longer has (./sets.ts `retireGoneSourceSets`). */
  async retireGoneSourceSets(source: string, kept: ReadonlySet<string>): Promise<RetirementResult> {
    return this.writing((trx, stamp) => retireGoneSourceSets(trx, source, kept, this.clock(), stamp));
  }

  /** Retires the sets the configuration declared and no longer does (./sets.ts `retireUnconfiguredSets`). */
  async retireUnconfiguredSets(): Promise<RetirementResult> {
    const defs = this.options.setRules ?? { all: [], computed: [] };
    return this.writing((trx, stamp) => retireUnconfiguredSets(trx, defs, this.clock(), stamp));
  }

  async checkItems(items: readonly ItemInput[]): Promise<readonly Refusal[]> {
    if (this.staged) return this.staged.checkItems(this.knex, items);
    // Sets a batch would declare are declared for the check, then rolled back with it.
    try {
      await transact(this.knex, async (trx) => {
        const out = await writePipeline(trx, items, this.writeOptions((this.publication ?? newPublication()).placeholder), true);
        throw new CheckOnly('refusals' in out ? out.refusals : []);
      });
    } catch (err) {
      if (err instanceof CheckOnly) return err.refusals;
      throw err;
    }
    return [];
  }

  async writeItems(items: readonly ItemInput[]): Promise<readonly WriteResult[]> {
    if (items.length === 0) return [];
    if (this.staged) return (await this.staged.writeItems(this.knex, items, false)).results;
    return this.writing(async (trx, stamp) => {
      const out = await writePipeline(trx, items, this.writeOptions(stamp));
      if ('refusals' in out) throw new RefusedError(out.refusals);
      return out.results;
    });
  }

  async writeItemsLeavingOut(items: readonly ItemInput[]): Promise<PartialWrite> {
    if (items.length === 0) return { results: [], written: [], refusals: [], refusedItems: 0 };
    if (this.staged) return this.staged.writeItems(this.knex, items, true);
    return this.writing((trx, stamp) => writePassing(trx, items, this.writeOptions(stamp), true));
  }

  async deleteItems(internalIds: readonly string[], options: DeleteOptions = {}): Promise<readonly WriteResult[]> {
    if (internalIds.length === 0) return [];
    if (this.staged) return this.staged.deleteItems(this.knex, internalIds, options.harvestedFrom);
    return this.writing((trx, stamp) => writeDeletes(trx, internalIds, stamp, this.options.tombstonePrefixes ?? ['oai_dc'], options.harvestedFrom));
  }

  async setMemberships(changes: readonly MembershipChange[]): Promise<readonly WriteResult[]> {
    if (changes.length === 0) return [];
    return this.writing((trx, stamp) => writeMemberships(trx, changes, stamp, this.onDemand));
  }

  /**
   * Runs a write: inside the transaction this store is bound to (a
   * savepoint; its owner publishes), or in a transaction of its own that is
   * published at its end (../db/publication.ts) and calls the commit hooks.
   * `fn` gets the datestamp a change takes until then.
   */
  private writing<T>(fn: (trx: Knex.Transaction, stamp: number, publication: Publication) => Promise<T>): Promise<T> {
    // A staged write stages what its caller writes (the methods above); anything else would hold the lock it avoids.
    if (this.staged) throw new Error('this write cannot be staged: write it in a transaction of its own');
    const bound = this.publication;
    if (bound) return transact(this.knex, (trx) => fn(trx, bound.placeholder, bound));
    const od = this.onDemand;
    return this.committing(
      publishing(this.knex, this.clock, (trx, pub) => fn(trx, pub.placeholder, pub), od && ((trx, wanted) => writeOnDemand(trx, od, wanted))),
    );
  }

  /** Calls the commit hooks once a write of this (unbound) store has committed. */
  private async committing<T>(write: Promise<T>): Promise<T> {
    const out = await write;
    if (!this.bound) for (const hook of this.commitHooks) hook();
    return out;
  }

  private writeOptions(stamp: number): WriteOptions {
    const o = this.options;
    return {
      preparation: this.preparation,
      tombstonePrefixes: o.tombstonePrefixes ?? ['oai_dc'],
      now: this.clock(),
      stamp,
      ...(o.sources && { sources: o.sources }),
      ...(o.writtenFormats === 'on-demand' && this.onDemand && { onDemand: this.onDemand }),
      ...(this.storedFormats && { storedFormats: this.storedFormats }),
      ...(o.formatChecks && { formatChecks: o.formatChecks }),
      ...(o.schemes && { schemes: o.schemes }),
    };
  }
}
