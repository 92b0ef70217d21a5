/**
 * What the store keeps for its administration: server settings, sets by
 * origin and their retirement, the demo's markers, snapshots, migrations,
 * and the whole store as a command sees it.
 *
 * Nothing here knows about knex or SQL: `server/store/` implements it
 * (./index.ts). Datestamps are integers: seconds since the Unix epoch, UTC.
 */
import type { HarvestBookkeeping, HarvestLocks, HarvestState, LoadBookkeeping, RunReports } from './bookkeeping';
import type { ReadStore } from './read';
import type { ItemScan, SetDeparture, StagedHooks, Store, TransactionalStore, WriteTransaction } from './write';

/** Values the server keeps in the store across restarts and shares between processes. */
export interface ServerSettings {
  /** The resumption-token secret, made (32 random bytes, hex) on first use; every process gets the same. */
  tokenSecret(): Promise<string>;
  /** Whether the store keeps a resumption-token secret yet (nothing is made). */
  hasTokenSecret(): Promise<boolean>;
  /**
   * When the store was created (seconds since the epoch), kept from the first ask on; for a store made
   * before it was kept, the time its first migration ran. Identify's earliestDatestamp while it holds no record.
   */
  createdAt(): Promise<number>;
  /** The next serial of a urn:pdi document series for one GMT date (`YYYY-MM-DD`), starting at 1 (urn:pdi 2.4). */
  mintPdiSerial(series: string, date: string): Promise<number>;
}

/** Who declared a set. */
export type SetOrigin = 'configuration' | 'rule' | 'input';

/** One set as `oai-steward sets` lists it. */
export interface SetListing {
  readonly spec: string;
  readonly name: string;
  readonly origin: SetOrigin;
  /** Items in it (or a descendant) now, not deleted. */
  readonly live: number;
  /** Deleted items in it, and items that left it (each a deleted record in a harvest of the set). */
  readonly deleted: number;
  /** Seconds: when a manager renamed it. */
  readonly renamed?: number;
  /** Seconds: when it was retired (then it is not in the repository any more). */
  readonly retired?: number;
}

/** What retiring sets did. */
export interface Retirement {
  /** The sets retired (the ones named and their descendants), in spec order. */
  readonly sets: readonly string[];
  /** Items that left them (and got a new datestamp). */
  readonly members: number;
}

/** The sets as a repository manager changes them (`oai-steward sets`, `rebuild-sets`), stamped with the store's clock. */
export interface SetAdministration {
  /** Every declared set with its origin and counts, in spec order, then the retired ones. */
  setListing(): Promise<SetListing[]>;
  /** Renames a set an input declared; the name sticks. */
  renameSet(spec: string, name: string): Promise<void>;
  /** Retires sets and their descendants: their members leave them, with departures. */
  retireSets(specs: readonly string[]): Promise<Retirement>;
  /** Retires the sets the configuration declared and no longer does. */
  retireUnconfiguredSets(): Promise<Retirement>;
  /**
   * Retires the sets harvested source `source` declared (`source:NAME:…`)
   * that `kept` neither holds nor holds a descendant of, as {@link retireSets}
   * does; a set no item was ever in is forgotten outright.
   */
  retireGoneSourceSets(source: string, kept: ReadonlySet<string>): Promise<Retirement>;
  /** Declares the setSpecs records name that no one declared, named by the setSpec; returns those declared. */
  declareSetsFromInput(specs: readonly string[]): Promise<string[]>;
}

/** An item's state, as the demo guard asks for it. */
export interface ItemPresence {
  readonly internalId: string;
  readonly identifier: string;
  readonly deleted: boolean;
}

/** What the demo guard (server/demo-guard.ts) reads and writes. */
export interface DemoMarkers {
  /** The namespace the demo was published under, when the store remembers one. */
  demoNamespace(): Promise<string | null>;
  /** Remembers (or, with null, forgets) the namespace the demo was published under. */
  setDemoNamespace(namespace: string | null): Promise<void>;
  /** Those of these internal ids the store holds, with their identifier and whether deleted. */
  itemsPresent(internalIds: readonly string[]): Promise<ItemPresence[]>;
  /** How many identifiers were ever published (the registry), or how many of these internal ids' were. */
  registeredIdentifiers(internalIds?: readonly string[]): Promise<number>;
  /**
   * Erases every item, set, identifier and the demo's namespace in one
   * transaction, as if the store were new; returns how many items there were.
   */
  eraseAll(): Promise<number>;
}

/** How the database connection pool is used right now. */
export interface PoolUse {
  readonly used: number;
  readonly free: number;
  /** Requests waiting for a connection. */
  readonly pending: number;
  readonly max: number;
}

/** The reads of one consistent snapshot of the store (a bulk dump): every read sees the store as it was when it began. */
export interface SnapshotReads extends Pick<ReadStore, 'listRecords' | 'listSets'>, ItemScan {
  /** The earliest and latest datestamps of the items stamped at or after `since` (seconds); null when there are none. */
  datestampRange(since: number): Promise<{ readonly earliest: number | null; readonly latest: number | null }>;
  /** The sets each of these items left, and when. */
  departures(pks: readonly number[]): Promise<ReadonlyMap<number, readonly SetDeparture[]>>;
}

/** A store that reads in snapshots. */
export interface SnapshotStore {
  /** Runs `fn` inside one read-only snapshot, fixed before `fn` starts. */
  inSnapshot<T>(fn: (reads: SnapshotReads) => Promise<T>): Promise<T>;
}

/** The migrations of a store's schema, as `doctor` reports them. */
export interface MigrationStatus {
  /** Whether the database holds an oai-steward schema at all (its table of applied migrations). */
  readonly tracked: boolean;
  readonly applied: readonly string[];
  readonly pending: readonly string[];
  /** Applied migrations this version does not know (a newer oai-steward made the store). */
  readonly unknown: readonly string[];
}

/** Formats written on demand: which formats configuration the store stands for, and this store's. */
export interface WrittenFormatsStatus {
  /** The fingerprint the store keeps, or null when it keeps none. */
  readonly stored: string | null;
  /** This store's fingerprint (undefined when it writes nothing on demand). */
  readonly configured: string | undefined;
}

/**
 * What a transaction of the repository's store offers: the write side, the
 * loader's and the harvester's bookkeeping, retiring the sets the
 * configuration dropped (`rebuild-sets`), and transactions nested in it.
 */
export type StoreTransaction = WriteTransaction & LoadBookkeeping & HarvestBookkeeping & Pick<SetAdministration, 'retireUnconfiguredSets'> & TransactionalStore;

/**
 * The repository's store as the server's commands use it (server/provider.ts
 * `Provider.store`): the protocol's store with everything the loader, the
 * harvester, the operator's commands and the metrics read and write, and
 * nothing of what is behind it.
 */
export interface RepositoryStore extends Store, HarvestState, HarvestLocks, RunReports, ServerSettings, SetAdministration, DemoMarkers, SnapshotStore {
  transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  stagedTransaction<T>(fn: (tx: StoreTransaction) => Promise<T>, hooks?: StagedHooks): Promise<T>;
  /** Calls `hook` after every write of this store (or a transaction of it) has committed. */
  onCommit(hook: () => void): void;
  /** Throws when the store writes formats on demand under another formats configuration than this store's. */
  checkWrittenFormats(): Promise<void>;
  /** The fingerprints behind {@link checkWrittenFormats}, for `doctor`. */
  writtenFormatsStatus(): Promise<WrittenFormatsStatus>;
  /** How the connection pool is used right now; undefined when there is none to ask. */
  poolUse(): PoolUse | undefined;
}
