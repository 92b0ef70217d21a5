/**
 * What a write gives the store and what it answers: items and sets as given,
 * deletions and set changes, outcomes, the transaction every write goes
 * through (ARCHITECTURE.md, the write pipeline).
 *
 * Nothing here knows about knex or SQL: `server/store/` implements it
 * (./index.ts). Datestamps are integers: seconds since the Unix epoch, UTC.
 */
import type { RecordFields } from '../model/record';
import type { Refusal } from '../model/refusal';
import type { ItemHeader, ReadStore } from './read';

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
  /**
   * Like {@link transaction}, for a long write that must not keep other
   * writers waiting: on a store with one writer at a time, what `fn` writes
   * is decided as it comes without the write lock and applied at its end in
   * one short step (server/store/staging.ts); elsewhere it is
   * {@link transaction}. A write decided again at the end because another
   * writer changed what it met is told to `hooks`.
   */
  stagedTransaction<T>(fn: (tx: Tx) => Promise<T>, hooks?: StagedHooks): Promise<T>;
}

/** What a staged transaction tells its caller as it applies what was staged. */
export interface StagedHooks {
  /**
   * A write whose results were `before` when it was decided came to `now`
   * when it was applied, decided again because another writer had changed
   * what it met meanwhile (its new refusals are in `now`).
   */
  readonly redecided?: (before: readonly WriteResult[], now: PartialWrite) => void;
  /** Once every batch is applied: how many were applied as decided, and how many decided again. */
  readonly applied?: (batches: { readonly asDecided: number; readonly decidedAgain: number }) => void;
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

/** Thrown by the write path when governance refuses records; nothing was written. */
export class RefusedError extends Error {
  constructor(readonly refusals: readonly Refusal[]) {
    super(refusals.map((r) => `${r.source ? `${r.source}: ` : ''}record ${JSON.stringify(r.internalId)}, field ${r.field}: ${r.reason}`).join('\n'));
    this.name = 'RefusedError';
  }
}
