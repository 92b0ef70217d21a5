/**
 * The storage interface the protocol core needs, with its domain types.
 *
 * Nothing here knows about knex or SQL: `server/store/` implements it. The
 * store answers `null` or empty lists and never decides protocol errors; the
 * verb handlers in `lib/oai/` do (STYLE.md).
 *
 * Datestamps are integers: seconds since the Unix epoch, UTC. That one form
 * sorts and compares identically on SQLite and PostgreSQL.
 */
import type { RecordFields } from './model/record';
import type { Refusal } from './model/refusal';

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

/** A set as the seeds and the loader declare it. */
export interface SetInput {
  readonly spec: string;
  readonly name: string;
  /** Serialized XML, one root element each (e.g. an `oai_dc:dc`), shown as `setDescription`. */
  readonly descriptions?: readonly string[];
}

/**
 * A record as a writer offers it to the store: its header, and what it says
 * as the record model (`fields`), as XML in some formats (`metadata`), or
 * both. Every write goes through the store's one pipeline (lift → prepare →
 * judge → plan → apply, ARCHITECTURE.md): the pipeline lifts XML into the
 * model, writes every other format the model allows and judges everything
 * the record gives; nothing a caller says can skip a check.
 */
export interface ItemInput {
  readonly internalId: string;
  /**
   * The record's datestamp where it was read, seconds since the epoch: a
   * harvested or saved OAI-PMH record's header datestamp (its source's time),
   * a JSON record's or a dump line's (its catalogue's). Not this store's
   * datestamp: the store stamps every change with its own clock
   * (lib/pipeline/decide.ts `datestampOf`). With `versioned` it orders the
   * record's versions, and it is kept in the provenance of a harvested
   * record; with `keepDatestamp` a new item keeps it.
   */
  readonly datestamp?: number;
  /**
   * Publish `datestamp` as this store's datestamp when the item is new to the
   * store and the datestamp is not in the future: a deliberate migration of
   * this repository's own records (`load --keep-datestamps`), so that its
   * harvesters harvest nothing again. Ignored for an item the store holds.
   */
  readonly keepDatestamp?: boolean;
  /**
   * With `keepDatestamp`, the datestamps of single formats that are earlier
   * than `datestamp` (a record whose formats changed at different times: a
   * dump line's `datestamps`, or one format of a saved export older than
   * another): kept too for a new item, each no later than `datestamp`.
   */
  readonly formatDatestamps?: Readonly<Record<string, number>>;
  readonly deleted?: boolean;
  /** The sets the record names. A set not yet declared is declared from the input, named by its spec. */
  readonly sets?: readonly string[];
  /**
   * metadataPrefix → serialized metadata XML (one root element) the record
   * gives: stored and served as given, after the format's check. Empty for a
   * deleted item (or naming the formats a tombstone is listed under).
   */
  readonly metadata: Readonly<Record<string, string>>;
  /** Identifier values the record names besides its model's and its metadata's, for identifier governance. */
  readonly identifiers?: readonly string[];
  /** The record's `about` containers (OAI-PMH 2.0 section 2.5), in order; ignored for a deleted item. */
  readonly about?: readonly AboutInput[];
  /** Where the record came from, for messages: e.g. `records.ndjson:12`. */
  readonly source?: string;
  /**
   * The record in the model (lib/model/record.ts), when the writer has it
   * (the project's JSON record format, DataCite JSON); stored with the item.
   * Without it the pipeline lifts the model from the XML the record gives.
   */
  readonly fields?: RecordFields;
  /**
   * XML in a format the repository reads but does not serve as given (e.g.
   * DataCite kernel-3, which the `datacite` format reads): lifted into the
   * model, never stored as it is.
   */
  readonly readFrom?: { readonly namespace: string; readonly xml: string };
  /**
   * The record is a version from another repository (a harvested record):
   * `datestamp` is its datestamp there, and a version older than the one
   * the store holds is superseded, never written, in any write (time never
   * goes back: an older harvest never revives a deleted record).
   */
  readonly versioned?: boolean;
  /**
   * The harvested source (its configured `name`) whose harvest writes this
   * record; absent for every other writer. A source's records live in its id
   * space (internal id `NAME:…`): only its harvests write or delete them, and
   * a harvest never takes over a local item (lib/pipeline/governance.ts).
   */
  readonly harvestedFrom?: string;
  /**
   * This store writing an item it holds again (`rebuild-formats`,
   * `rebuild-sets`), with the origin the item is stored with: the harvested
   * source's name, or null for a local item. The store's own work, not a
   * load into an id space: governance lets it write the item only when the
   * stored item has exactly this origin (lib/pipeline/governance.ts), so a
   * rewrite never creates an item, never moves one from a source's id space
   * to another's and never makes a local item harvested. A harvested item
   * written so keeps its origin, its source datestamp and its provenance.
   */
  readonly rewrite?: { readonly origin: string | null };
  /**
   * Sets the item left, and when: what a harvest of each set reports as
   * deleted (OAI-PMH 2.0 section 4.6), kept when a copy of a repository is
   * loaded (a bulk dump's lines, lib/dump/line.ts). Added to the departures
   * the store records itself; none may name a set the item is in.
   */
  readonly departures?: readonly SetDeparture[];
  /**
   * What the reader noticed of the record that did not stop it (a source
   * datestamp that is not an OAI-PMH datestamp): sentences naming the
   * record, said with the write's result (`WriteResult.notes`) and so in
   * the run's warnings.
   */
  readonly notes?: readonly RecordNote[];
}

/** Something said of one record that did not stop it: what kind of thing (for counting alike ones), and a sentence naming the record. */
export interface RecordNote {
  readonly kind: string;
  readonly text: string;
}

/** A set an item left: its spec, and when (seconds since the epoch). */
export interface SetDeparture {
  readonly spec: string;
  readonly at: number;
}

/** One `about` container of an item. */
export interface AboutInput {
  /** The container's content: serialized XML, one root element (e.g. a `provenance` or `rights` element). */
  readonly xml: string;
  /**
   * What decides whether the container changed, when that is less than the
   * whole XML: a provenance container made at load compares without its
   * harvestDate, so the same record harvested again later is not a change.
   * Default: `xml`.
   */
  readonly compareAs?: string;
}

/** Who deletes: a harvest of one source (`harvestedFrom`, its name), or anyone else (absent). */
export interface DeleteOptions {
  readonly harvestedFrom?: string;
}

/** A new set membership for one existing item (its direct sets; ancestors are implied). */
export interface MembershipChange {
  readonly internalId: string;
  readonly sets: readonly string[];
}

/** What one write did to one item. */
/**
 * What one write did to one item; `superseded`: a version from another
 * repository older than the stored one, not written.
 */
export type WriteOutcome = 'inserted' | 'updated' | 'unchanged' | 'deleted' | 'superseded';

/** How many items each outcome had: what the loader's and the harvester's summaries count. */
export type OutcomeCounts = { -readonly [K in WriteOutcome]: number };

export interface WriteResult {
  readonly internalId: string;
  readonly identifier: string;
  readonly outcome: WriteOutcome;
  /**
   * What an `updated` item's change was, when it is one a person tells apart
   * (lib/pipeline/decide.ts `updateKindOf`): a deleted item written live again
   * (`revived`), or a live item given a format it did not have, nothing it
   * had changing (`formatAdded`).
   */
  readonly update?: UpdateKind;
  /**
   * What the write kept of the record without serving it, and what its
   * reader noticed (`ItemInput.notes`): sentences naming the record, for the
   * run's warnings. Absent when there is nothing to say.
   */
  readonly notes?: readonly RecordNote[];
}

/** The kinds of update a summary counts apart from `updated`. */
export type UpdateKind = 'revived' | 'formatAdded';

/** How many items each outcome had, with the updates of each kind counted apart (`updated` counts the others). */
export type SummaryCounts = OutcomeCounts & { -readonly [K in UpdateKind]: number };

/**
 * Write side, used by the seeds, the loader, the benchmark and the CLI.
 * Every call is one transaction: all or nothing. Every item passes the one
 * write pipeline (server/store/write.ts over lib/pipeline/): record rules, the
 * metadata check of each format, identifier governance.
 */
/** What a batch written in partial mode came to (WriteStore `writeItemsLeavingOut`). */
export interface PartialWrite {
  /** What the write did to each item it wrote (none when nothing was written). */
  readonly results: readonly WriteResult[];
  /** The items written: the batch less every record refused. */
  readonly written: readonly ItemInput[];
  /** Every refusal of every pass of the decision, in the order it gave them. */
  readonly refusals: readonly Refusal[];
  /** How many items of the batch were refused (an item refused for several reasons counts once). */
  readonly refusedItems: number;
}

export interface WriteStore {
  /**
   * Declares or renames sets; an invalid set throws an `Error` naming every
   * problem, and nothing is written. A description not valid against its
   * schema is dropped (the set is declared without it): the sentences
   * returned name each (lib/pipeline/judge.ts `keptDescriptions`).
   */
  putSets(sets: readonly SetInput[]): Promise<string[]>;
  /**
   * Inserts or updates items. The whole gate runs first; any refusal throws
   * a `RefusedError` carrying every refusal, and nothing is written.
   */
  writeItems(items: readonly ItemInput[]): Promise<readonly WriteResult[]>;
  /**
   * Partial mode (`load --partial`, a harvested page): writes the items the
   * gate passes and leaves out those it refuses, decided from the state read
   * once (lib/pipeline/partial.ts `decideLeavingOut`), in one transaction.
   */
  writeItemsLeavingOut(items: readonly ItemInput[]): Promise<PartialWrite>;
  /** The refusals `writeItems` would raise (the whole gate), without writing (for `--dry-run` and `--partial`). */
  checkItems(items: readonly ItemInput[]): Promise<readonly Refusal[]>;
  /**
   * Turns items into tombstones (deleted, new datestamp, identifier kept
   * forever). Unknown ids are refused, and so are items harvested from a
   * source unless `harvestedFrom` names it (only a source's harvests delete
   * its records): the whole call, nothing written.
   */
  deleteItems(internalIds: readonly string[], options?: DeleteOptions): Promise<readonly WriteResult[]>;
  /**
   * Sets the direct sets of existing items (e.g. after a set rule changed),
   * nothing else. An item whose membership changes gets the store's clock as
   * its datestamp (outcome `updated`); the sets it leaves record a departure,
   * so a harvest of such a set reports it deleted from then on; the others are
   * `unchanged`. An unknown id, an undeclared or invalid set refuses the whole
   * call (`RefusedError`), and nothing is written.
   */
  setMemberships(changes: readonly MembershipChange[]): Promise<readonly WriteResult[]>;
}

/** The write side bound to one transaction. */
export interface WriteTransaction extends WriteStore, RecordFieldsStore, ItemScan {
  /**
   * Makes this store's formats configuration the one a store that writes
   * formats on demand stands for (server/store/on-demand.ts): `rebuild-formats`
   * calls it before writing every item again.
   */
  adoptWrittenFormats(): Promise<void>;
}

/**
 * A write side that can group several writes into one transaction; `Tx` is
 * what a transaction offers (a store may offer more than the write side,
 * e.g. the loader's bookkeeping).
 */
export interface TransactionalStore<Tx extends WriteTransaction = WriteTransaction> extends WriteStore {
  /**
   * Runs `fn` with the write side bound to one transaction: everything it
   * writes commits when it resolves and rolls back when it throws.
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

/** What the store holds, for a repository manager (`oai-steward stats`). */
export interface StoreStats {
  readonly items: number;
  readonly deleted: number;
  /** Items that are not deleted. */
  readonly live: number;
  /** spec → { items (live and deleted, descendants included), deleted, name }; every declared set, in spec order. */
  readonly sets: Readonly<Record<string, { readonly name: string; readonly items: number; readonly deleted: number }>>;
  /** metadataPrefix → { items with a record in that format, deleted (tombstones listed under it) }. */
  readonly formats: Readonly<Record<string, { readonly items: number; readonly deleted: number }>>;
  /** `YYYY-MM-DDThh:mm:ssZ`, or null for an empty store. */
  readonly earliestDatestamp: string | null;
  readonly latestDatestamp: string | null;
}

/** An item with everything it disseminates, for scans of the whole store. */
export interface ScannedItem extends ItemHeader {
  /** The harvested source the item came from (its id space); absent for a local item. */
  readonly origin?: string;
  /** The datestamps of its records that are earlier than the item's (`datestamp`), by prefix; absent when none is. */
  readonly formatDatestamps?: Readonly<Record<string, number>>;
  /** metadataPrefix → stored metadata (null for a tombstone). */
  readonly metadata: Readonly<Record<string, string | null>>;
  /** The stored model of a live item: given by the record, or lifted from its XML (`liftedFrom`). */
  readonly fields?: RecordFields;
  /** The prefix (or namespace) the model was lifted from; absent when the record gave its model. */
  readonly liftedFrom?: string;
  /** The prefixes of `metadata` the write pipeline wrote from `fields` (the others were given). */
  readonly written?: readonly string[];
  /** The stored about containers, in order (none for a tombstone). */
  readonly about?: readonly AboutInput[];
}

/** What a scan leaves out. */
export interface ScanOptions {
  /**
   * Only the XML each record gave: `metadata` leaves out the formats the
   * pipeline wrote from the model (`written`), which a store keeping them as
   * models only would otherwise write for the scan. What a rebuild wants,
   * since it writes them again anyway.
   */
  readonly givenOnly?: boolean;
}

/** A walk over every item, a page at a time (memory holds one page), for readiness checks and set rebuilds. */
export interface ItemScan {
  /** Up to `limit` items whose `pk` is greater than `afterPk`, in `pk` order, each with every format it has (or, with `givenOnly`, was given). */
  scanItems(afterPk: number, limit: number, options?: ScanOptions): Promise<readonly ScannedItem[]>;
}

/** The record fields kept with each item written from the project's record format. */
export interface RecordFieldsStore {
  /**
   * The stored record fields of these internal ids (live items written from
   * the record format; items loaded as XML only and tombstones have none).
   *
   * @example (await store.recordFields(['report 12'])).get('report 12')?.dc.title
   */
  recordFields(internalIds: readonly string[]): Promise<ReadonlyMap<string, RecordFields>>;
}

/** The whole store: the read side, the write side with transactions, and statistics. */
export interface Store extends ReadStore, TransactionalStore, RecordFieldsStore, ItemScan {
  /** Counts per set and per format (a set's counts include its descendants', OAI-PMH 2.0 section 2.7.2). */
  stats(): Promise<StoreStats>;
}

// The loader's bookkeeping inside its one transaction: the internal ids a load has seen (to refuse an id
// given twice and for `--delete-missing`) and the versions of harvested records staged until every input
// is read (the newest of each wins). The knex store keeps them in a temporary table of the load's
// transaction (server/db/seen-ids.ts).
/**
 * The internal ids one load has seen, kept by the store for the length of
 * one transaction (not in the JavaScript heap, so memory stays flat however
 * long the input is).
 */
export interface SeenIds {
  /**
   * Records the ids of one batch (distinct, in input order) and returns
   * those already recorded by an earlier batch; those are not recorded again.
   */
  add(ids: readonly string[]): Promise<Set<string>>;
  /**
   * Keeps versions of records that may appear more than once in a load
   * (incremental harvest files): per internal id, the version with the newest
   * datestamp wins. Returns, index for index, what became of each version.
   * An id recorded by `add` is a `repeat`.
   */
  stage(versions: readonly StagedVersion[]): Promise<readonly StageOutcome[]>;
  /** The winning staged versions in the order they were first seen, in pages of `pageSize`; conflicted ids are given as such. */
  staged(pageSize: number): AsyncGenerator<StagedWinner[]>;
  /**
   * Live items whose internal id was never recorded, in pages of `pageSize`
   * (memory holds one page). Safe to delete the items of a page before
   * asking for the next.
   */
  missing(pageSize: number): AsyncGenerator<string[]>;
  /** Forgets them all (before commit: nothing of it outlives the load). */
  drop(): Promise<void>;
}

/** One version of a record offered to {@link SeenIds.stage}. */
export interface StagedVersion {
  readonly item: ItemInput;
  /** The record's datestamp in the input, seconds; null when it has none (then a second version cannot be ordered). */
  readonly datestamp: number | null;
  /** A digest of what the version disseminates, to tell "the same version again" from "a different one". */
  readonly fingerprint: string;
  /** Where it was read, for messages. */
  readonly source: string;
}

/**
 * What became of a staged version: `kept` (first seen, or newer than the one
 * kept: `replaced` then names the source it supersedes), `older` (an equal or
 * newer one is kept: superseded at once), `same` (the same datestamp and
 * content as the one kept), `conflict` (the same datestamp, other content:
 * `other` names the kept one's source), `repeat` (the id was given by an
 * input whose records cannot be ordered).
 */
export type StageOutcome =
  | { readonly kind: 'kept'; readonly replaced?: string }
  /** Another format of the record kept: joined to it, so the record is written once with both. */
  | { readonly kind: 'joined' }
  | { readonly kind: 'older' | 'same' }
  | { readonly kind: 'conflict'; readonly other: string }
  /** Two versions from OAI-PMH responses, one with a header datestamp that cannot be read: which is newer cannot be told. */
  | { readonly kind: 'unordered'; readonly other: string }
  | { readonly kind: 'repeat' };

/** A staged version that won, or an id whose versions conflict. */
export type StagedWinner =
  { readonly item: ItemInput } | { readonly conflict: { readonly internalId: string; readonly source: string; readonly other: string } };

/** What a store's transaction offers a load besides the write side. */
export interface LoadBookkeeping {
  /** Starts recording ids seen in this transaction (a leftover record of an earlier load is dropped). */
  seenIds(): Promise<SeenIds>;
  /**
   * Brings the planner's statistics of the tables a load looks items up in up
   * to date with what this transaction wrote (PostgreSQL: ANALYZE, which
   * counts the transaction's own rows; SQLite's plans do not depend on them).
   */
  refreshStatistics(): Promise<void>;
}

/** One list a harvest keeps state for: a source, a metadataPrefix, a set ('' for the whole repository). */
export interface ListKey {
  readonly source: string;
  readonly prefix: string;
  /** '' for the whole repository. */
  readonly set: string;
}

/**
 * What the store keeps of one harvested list (migration 006_harvest_state):
 * the last run harvested to its end and the checkpoint of a run under way.
 */
export interface ListState extends ListKey {
  /** The base URL the list was last harvested from (migration 014_harvest_base_url); null before it. */
  readonly baseUrl: string | null;
  readonly lastResponseDate: string | null;
  readonly lastFrom: string | null;
  /** Seconds. */
  readonly lastSuccess: number | null;
  readonly runResponseDate: string | null;
  /** The resumptionToken of the next page of a list under way. */
  readonly token: string | null;
  readonly checkpointFrom: string | null;
  readonly checkpointUntil: string | null;
  /** The list under way records its ids for `--delete-missing`. */
  readonly runMarksSeen: boolean;
  readonly runPages: number;
  readonly runRecords: number;
  readonly runRefused: number;
  readonly records: number;
  readonly refused: number;
  readonly lastError: string | null;
  readonly lastErrorAt: number | null;
  readonly lastAttempt: number | null;
  /** The base URL the list was harvested from until this call named another (its token and clock were dropped). */
  readonly movedFrom?: string;
}

/** What a committed page changes in its list's state. */
export interface PageCheckpoint {
  /** The next page's token, or null when this page ended the list. */
  readonly token: string | null;
  readonly from: string | null;
  readonly until: string | null;
  /** The responseDate of the run's first page. */
  readonly runResponseDate: string | null;
  /** This is the run's first page: the run's counts start again. */
  readonly first: boolean;
  /** The run records its ids for `--delete-missing` (kept with the checkpoint). */
  readonly marksSeen: boolean;
  readonly records: number;
  readonly refused: number;
  /** The store's clock, seconds. */
  readonly now: number;
}

/** The harvest state of every source, read and written outside a page's transaction (server/harvest/). */
export interface HarvestState {
  /** The lists of one source (or of every source), in (source, prefix, set) order. */
  harvestStates(source?: string): Promise<ListState[]>;
  /** One list's state, made when missing; `baseUrl`, when given, is recorded as the URL it is harvested from. */
  harvestList(key: ListKey, baseUrl?: string): Promise<ListState>;
  /** Records why a list stopped; the checkpoint stays. */
  recordHarvestError(key: ListKey, message: string, now: number): Promise<void>;
  /** Forgets a list's checkpoint (the list starts again from its `from`). */
  dropCheckpoint(key: ListKey): Promise<void>;
  /** Forgets the ids seen by a source's earlier `--delete-missing` run. */
  clearSeen(source: string): Promise<void>;
  /**
   * Live items of the source (internal id `NAME:…`) its `--delete-missing`
   * run never harvested, up to `limit`, after `after` (internal id order).
   */
  unseenItems(source: string, after: string, limit: number): Promise<string[]>;
  /**
   * Local items (loaded, not harvested; live or deleted) whose internal id is
   * in the id space `space:`, up to `limit`, in internal id order: what a
   * source of that name would take from the loader (lib/pipeline/governance.ts
   * rule 6).
   */
  localItemsInSpace(space: string, limit: number): Promise<string[]>;
}

/**
 * What a store's transaction offers a harvest besides the write side: a
 * page's checkpoint and seen ids are written in the page's own transaction,
 * so the page and the promise to go on after it commit together.
 */
export interface HarvestBookkeeping {
  /** Records a page in its list's state. */
  checkpoint(key: ListKey, c: PageCheckpoint): Promise<void>;
  /** Records the internal ids a `--delete-missing` run has harvested. */
  markSeen(source: string, ids: readonly string[]): Promise<void>;
  /**
   * The about containers the store holds for these items, in order, by
   * internal id (items with none are absent): a later prefix's list of a
   * source keeps them (server/harvest/merge.ts).
   */
  storedAbout(internalIds: readonly string[]): Promise<ReadonlyMap<string, readonly AboutInput[]>>;
  /** As {@link LoadBookkeeping.refreshStatistics}: a harvest grows the tables page by page. */
  refreshStatistics(): Promise<void>;
}

/** A harvest lock held; `release` is safe to call twice. */
export interface HarvestLock {
  release(): Promise<void>;
}

/** One harvest per source at a time across every process sharing the store. */
export interface HarvestLocks {
  /** Takes the source's lock, or answers null when another harvest holds it; `now` is the clock (seconds) a lock's expiry is counted in. */
  acquireHarvestLock(source: string, now?: () => number): Promise<HarvestLock | null>;
}

/** What a run is a run of: a harvest of one source, or a load. */
export type RunKind = 'harvest' | 'load';

/**
 * How a run ended: `completed` to its end; `stopped` by the source's fault
 * or by refused records (a harvest resumes after its last committed page);
 * `interrupted` by a stop asked for (a signal, a stopping server); `failed`
 * on the database (connection lost, disk full) or a bug.
 */
export type RunOutcome = 'completed' | 'stopped' | 'interrupted' | 'failed';

/** What a run counted. */
export interface RunCounts {
  readonly pages: number;
  /** Records read, refused ones included. */
  readonly records: number;
  readonly inserted: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly deleted: number;
  readonly superseded: number;
  /** Records refused. */
  readonly refused: number;
  /** Requests asked again. */
  readonly retries: number;
}

/** One refused record of a run. */
export interface RunRefusal {
  /** The list page it was on (a harvest); null for a load. */
  readonly page: number | null;
  /** The source's identifier of the record (a harvest) or its internal id (a load); '' when it had none. */
  readonly identifier: string;
  readonly field: string;
  readonly reason: string;
}

/** A run's report, as recorded at its end. */
export interface RunReport {
  readonly kind: RunKind;
  /** The harvested source; null for a load. */
  readonly source: string | null;
  /** Seconds since the Unix epoch. */
  readonly started: number;
  readonly ended: number;
  readonly outcome: RunOutcome;
  readonly counts: RunCounts;
  /** The run's first warnings; `warningsOmitted` more were said and not kept. */
  readonly warnings: readonly string[];
  readonly warningsOmitted: number;
  /** Why it did not complete; null when it did. */
  readonly error: string | null;
  /** The first refused records; `refusalsOmitted` more were refused and not kept. */
  readonly refusals: readonly RunRefusal[];
  readonly refusalsOmitted: number;
  /**
   * Records the run committed (inserted, updated or turned into tombstones):
   * 0 when it committed nothing (refused, interrupted, failed, a dry run, whose
   * counts say what it would have written). A load says it; a harvest does not.
   */
  readonly written?: number;
  /** How long the run took, in seconds to the millisecond (`started` and `ended` are whole seconds). A load says it; a harvest does not. */
  readonly seconds?: number;
}

/** A run as the store keeps it. */
export interface StoredRun extends RunReport {
  readonly id: number;
}

/** Runs and refused records ever recorded for one kind, source and outcome (pruning never lowers them). */
export interface RunTotal {
  readonly kind: RunKind;
  readonly source: string | null;
  readonly outcome: RunOutcome;
  readonly runs: number;
  readonly refused: number;
}

/**
 * The report of every run, kept in the store (bounded: the latest runs of
 * each kind and source, the first refusals and warnings of each run).
 */
export interface RunReports {
  /** Records a run as it ends; older runs of its kind and source are pruned. Returns its id. */
  recordRun(run: RunReport): Promise<number>;
  /** The latest runs, newest first, of a kind and source (null: the loads), with their refusals. */
  latestRuns(kind: RunKind, source: string | null, limit?: number): Promise<StoredRun[]>;
  /** The latest run that did not complete, of a kind and source, with its first refusals; null when none is kept. */
  lastFailure(kind: RunKind, source: string | null): Promise<StoredRun | null>;
  /** Runs and refused records ever recorded, per kind, source and outcome. */
  runTotals(): Promise<RunTotal[]>;
}

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
  /** Calls `hook` after every write of this store (or a transaction of it) has committed. */
  onCommit(hook: () => void): void;
  /** Throws when the store writes formats on demand under another formats configuration than this store's. */
  checkWrittenFormats(): Promise<void>;
  /** The fingerprints behind {@link checkWrittenFormats}, for `doctor`. */
  writtenFormatsStatus(): Promise<WrittenFormatsStatus>;
  /** How the connection pool is used right now; undefined when there is none to ask. */
  poolUse(): PoolUse | undefined;
}

/** Thrown by the write path when governance refuses records; nothing was written. */
export class RefusedError extends Error {
  constructor(readonly refusals: readonly Refusal[]) {
    super(refusals.map((r) => `${r.source ? `${r.source}: ` : ''}record ${JSON.stringify(r.internalId)}, field ${r.field}: ${r.reason}`).join('\n'));
    this.name = 'RefusedError';
  }
}
