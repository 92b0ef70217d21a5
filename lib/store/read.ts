/**
 * What a read asks of the store: list pages, records, sets, the ResourceSync
 * scopes, and how a replica says it is behind.
 *
 * Nothing here knows about knex or SQL: `server/store/` implements it
 * (./index.ts). Datestamps are integers: seconds since the Unix epoch, UTC.
 */

/** A position in a list harvest: the last row returned, in `(datestamp, pk)` order. */
export interface Keyset {
  readonly datestamp: number;
  /** The store's surrogate row key, stable for the life of an item. */
  readonly pk: number;
}

/** What a header says about an item. */
export interface ItemHeader {
  readonly pk: number;
  /** The repository's own id, before mapping (e.g. `demo:A-B.C_D%3AE`, `report 12`). */
  readonly internalId: string;
  /** The published oai-identifier. */
  readonly identifier: string;
  /** Seconds since the epoch, UTC: in a record, the record's own (an item in one format, OAI-PMH 2.0 section 2.7.1). */
  readonly datestamp: number;
  /**
   * Where the row stands in its list's `(datestamp, pk)` order, when that is
   * not `datestamp`: a set's list is in the order of the items' latest change
   * (of any of their records), never earlier than the record's datestamp.
   * The position a resumption token continues after.
   */
  readonly keyDatestamp?: number;
  readonly deleted: boolean;
  /** Sets the item was put in directly (not their ancestors), sorted. */
  readonly sets: readonly string[];
}

/** A header with the stored, serialized metadata of one format (null for a deleted item). */
export interface ItemRecord extends ItemHeader {
  readonly metadata: string | null;
  /**
   * The metadata was written just now by a built-in format's writer from the
   * stored model (server/store/on-demand.ts), not read as stored bytes: it is
   * well-formed by construction (lib/formats/xml-out.ts escapes every value),
   * so the renderer's check for stored bytes corrupted behind the write
   * path's back has nothing to find in it.
   */
  readonly written?: true;
  /** The content of each `about` container (one root element each), in order; none for a deleted item. */
  readonly about?: readonly string[];
  /** Beyond the query's `budget` ({@link ListPageQuery}): a header only, its metadata and about not read. */
  readonly overBudget?: true;
}

/** A set as ListSets shows it. */
export interface SetInfo {
  readonly spec: string;
  readonly name: string;
  /** Serialized XML of zero or more `setDescription` containers' content (one root element each). */
  readonly descriptions: readonly string[];
}

/** The filter of a selective list harvest. `until` is always given: the bound fixed when the harvest began. */
export interface ListFilter {
  readonly metadataPrefix: string;
  /** Inclusive lower bound, seconds. */
  readonly from?: number;
  /** Inclusive upper bound, seconds. */
  readonly until: number;
  /** Items in this set or any of its descendants. */
  readonly set?: string;
}

export interface ListPageQuery extends ListFilter {
  /** Return rows strictly after this position. */
  readonly after?: Keyset;
  readonly limit: number;
  /**
   * Records only: the bytes of stored metadata and about containers (UTF-8)
   * the page may hold. The leading rows that fit together (at least one) come
   * as usual; the rows after them come as headers marked `overBudget`, their
   * metadata and about never read, so a page's memory is bounded by the
   * budget however large its records, and the rows still say where the next
   * page starts.
   */
  readonly budget?: number;
}

/**
 * What a ResourceSync or sitemap document describes: the records of one
 * format, or of one format within one set and its descendants (OAI-PMH 2.0
 * section 2.7.2), as a selective harvest would see them.
 */
export interface SyncScope {
  readonly metadataPrefix: string;
  readonly set?: string;
}

/** A live record of a scope, as a Resource List, a Resource Dump or a sitemap lists it. */
export interface SyncResource {
  readonly pk: number;
  readonly identifier: string;
  readonly datestamp: number;
  /** When the store first wrote the item, by its own clock (seconds). */
  readonly created: number;
  /** The item's content hash: it changes whenever anything the item disseminates changes. */
  readonly contentHash: string;
  /** The stored metadata of the scope's format, when asked for. */
  readonly xml?: string;
}

/** The latest change of a record of a scope, as a Change List reports it. */
export interface SyncChange {
  readonly pk: number;
  readonly identifier: string;
  /** The record's datestamp. */
  readonly datestamp: number;
  /** Where the change stands in the scope's order, when that is not `datestamp` (as `ItemHeader.keyDatestamp`). */
  readonly keyDatestamp?: number;
  /** When the store first wrote the item, by its own clock (seconds). */
  readonly created: number;
  /** Deleted, or (in a set's scope) gone from the set. */
  readonly deleted: boolean;
}

/** One run of `partSize` consecutive pks that holds live records of a scope. */
export interface SyncPart {
  /** The run's number: it holds the pks `part * partSize + 1` to `(part + 1) * partSize`. */
  readonly part: number;
  /** How many live records of the scope it holds. */
  readonly count: number;
  /** The latest datestamp or creation time among them (seconds). */
  readonly latest: number;
}

/** Read side, used by the protocol core. */
export interface ReadStore {
  /** The smallest datestamp of any item, or null for an empty repository. */
  earliestDatestamp(): Promise<number | null>;
  /** The identifier of one real item, for Identify's sampleIdentifier; null when empty. */
  sampleIdentifier(): Promise<string | null>;
  /** The item published under this oai-identifier (exact string match), with the prefixes it can be disseminated in. */
  getHeader(identifier: string): Promise<(ItemHeader & { readonly formats: readonly string[] }) | null>;
  /** The record of one item in one format; null when the item or the format is missing. */
  getRecord(identifier: string, metadataPrefix: string): Promise<ItemRecord | null>;
  /** A page of headers in `(datestamp, pk)` order; `limit + 1` rows tell the caller another page exists. */
  listHeaders(q: ListPageQuery): Promise<readonly ItemHeader[]>;
  /**
   * A page of records, likewise; with a `budget`, the rows past it come as
   * headers marked `overBudget` (OAI-PMH 2.0 section 3.5 lets a page hold any
   * number, so the pager ends the page by bytes before them). A format written
   * on demand counts 0 for its metadata, which the store writes small from the model.
   */
  listRecords(q: ListPageQuery): Promise<readonly ItemRecord[]>;
  /** How many items the filter matches in all. */
  count(f: ListFilter): Promise<number>;
  /** Whether the repository has any set. */
  hasSets(): Promise<boolean>;
  /** Sets in spec order (binary), after the given spec. */
  listSets(after: string | null, limit: number): Promise<readonly SetInfo[]>;
  countSets(): Promise<number>;
  /** Whether the store answers at all (for /healthz). */
  ping(): Promise<void>;
  /**
   * Waits until every write that began publishing before the call is visible
   * to reads started after it (server/db/publication.ts). A list reads the
   * clock for its responseDate first, then settles, then reads: every change
   * it does not see is then stamped at or after that responseDate, so a
   * harvest `from` it finds the change (OAI-PMH 2.0 section 3.3). Absent
   * where no other writer can publish while a read runs.
   */
  settle?(): Promise<void>;
  /**
   * Where this store's reads stand in the primary's history (PostgreSQL: a
   * WAL position), for a resumption token to carry; absent where reads never
   * lag writes.
   */
  readPosition?(): Promise<string>;
  /**
   * Waits, bounded, until this store's reads reflect `position` (default:
   * everything the primary has committed now); false when they do not in
   * time. A read replica's list pages wait on it, so a harvest moving between
   * processes never reads a page older than the one before.
   */
  catchUp?(position?: string): Promise<boolean>;
  /**
   * How far this store's reads stand behind its primary, for /healthz and
   * /metrics; absent where reads never lag writes (a store reading its own
   * primary). Throws when the store itself cannot be read, like `ping`.
   */
  replicaLag?(): Promise<ReplicaLag>;

  // The reads of ResourceSync and the sitemap (server/http/resourcesync.ts): keyset scans too.

  /** Up to `limit` live records of the scope whose pk is after `afterPk` and at most `throughPk`, in pk order (with their metadata when `withXml`). */
  syncResources(
    scope: SyncScope,
    q: { readonly afterPk: number; readonly throughPk: number; readonly limit: number; readonly withXml: boolean },
  ): Promise<readonly SyncResource[]>;
  /** How many live records the scope holds, counted no further than `atMost`. */
  syncCount(scope: SyncScope, atMost: number): Promise<number>;
  /** The runs of `partSize` pks that hold live records of the scope, in order (one scan of the scope). */
  syncParts(scope: SyncScope, partSize: number): Promise<readonly SyncPart[]>;
  /** Up to `limit` changes of the scope after the position, in `(datestamp, pk)` order, live and deleted. */
  syncChanges(scope: SyncScope, after: Keyset, limit: number): Promise<readonly SyncChange[]>;
  /** The position of the `n`-th change of the scope after `after`; null when there are fewer. */
  syncNthChange(scope: SyncScope, after: Keyset, n: number): Promise<Keyset | null>;
  /** Whether the scope holds any record at all (deleted ones too), and any live one. */
  syncPresence(scope: SyncScope): Promise<{ readonly any: boolean; readonly live: boolean }>;
  /** Those of `prefixes` the set holds any record of (deleted ones and departures too), in the order given. */
  syncSetFormats(set: string, prefixes: readonly string[]): Promise<readonly string[]>;
  /** The latest datestamp in the scope and the creation time of its newest item, whichever is later; 0 when empty. */
  syncLatest(scope: SyncScope): Promise<number>;
}

/**
 * How far a read replica stands behind its primary: the WAL bytes the
 * primary has written that the replica has not replayed, and an estimate in
 * seconds (null where the replica cannot tell, e.g. before it has replayed a
 * transaction); or that the primary could not be asked at all.
 */
export type ReplicaLag =
  | { readonly primary: 'reachable'; readonly bytes: number | null; readonly seconds: number | null }
  | { readonly primary: 'unreachable'; readonly reason: string };

/**
 * A read that cannot yet see what an earlier page of the same harvest saw,
 * or what the primary has committed when it would answer that something is
 * absent (a read replica behind its primary): answered 503 with
 * Retry-After, never with a page that could skip or repeat a record nor
 * with an error the primary would contradict.
 */
export class StoreBehindError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreBehindError';
  }
}
