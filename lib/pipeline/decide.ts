/**
 * The write decision (ARCHITECTURE.md, "The write path"): what a batch does
 * to the store, decided from the batch and the stored state it meets, with
 * no database, no I/O and no clock (`now` is passed in). The store reads the
 * state (server/store/state.ts, rows turned into the types below at its
 * edge), calls {@link decideBatch}, and applies the plan it returns; nothing
 * else decides a datestamp, a supersession or an outcome.
 *
 *   given formats merged → lift → prepare → judge → govern → plan
 *
 * The rules, each a function below with a table test (test/pipeline/decide.test.ts):
 * - A record keeps every format it was given: a write that gives another
 *   format adds to what the item was given before, one that gives the same
 *   format replaces that format only ({@link withStoredGiven}).
 * - A datestamp is this store's time: the moment the record changed here
 *   (OAI-PMH 2.0 sections 2.7.1 and 4.6: selective harvesting is by the date
 *   a record was created, changed or deleted in this repository), never a
 *   source's, never earlier than one already published ({@link datestampOf}).
 * - Time never goes back: a version from another repository older than the
 *   one stored is superseded, not written ({@link isSuperseded}).
 * - An item's outcome follows its content hash ({@link outcomeOf}).
 */
import type { AboutInput, ItemInput, UpdateKind, WriteOutcome } from '../store';
import type { Refusal } from '../model/refusal';
import type { RecordFields } from '../model/record';
import type { FormatRegistry } from '../formats/registry';
import { fieldsJson } from '../model/json-text';
import { contentHash, recordHash, uniqueSorted } from './content-hash';
import { checkBatch, mapAll, type ExistingItem, type Mapping, type RegistryEntry, type SchemeCheck } from './governance';
import { judgeRecords, type FormatChecks, type Judged } from './judge';
import { withholdInvalidGiven } from './withhold';
import { prepareItem, type Preparation, type PreparedItem } from './prepare';
import { membership, withGivenDepartures, type MembershipRow, type SetRow } from './set-rows';

/** An item as the store holds it, as the decision needs it. */
export interface StoredItem {
  /** The store's surrogate key, stable for the life of the item. */
  readonly pk: number;
  readonly internalId: string;
  readonly identifier: string;
  /** This store's datestamp of the item, seconds. */
  readonly datestamp: number;
  readonly deleted: boolean;
  readonly contentHash: string;
  /** For a record harvested from another repository: its datestamp there (seconds) of the version stored; null otherwise. */
  readonly sourceDatestamp: number | null;
  /** The harvested source the item came from (ItemInput `harvestedFrom`); null for a local item. */
  readonly origin: string | null;
  /** The sets the item was put in directly and is in now, sorted. */
  readonly sets: readonly string[];
  /** Its records, by prefix (a tombstone's too): each one's datestamp, and its digest when known. */
  readonly records: ReadonlyMap<string, StoredRecord>;
  /** Its item_sets rows, departed ones included: what its new rows keep the departures of. */
  readonly memberships: readonly MembershipRow[];
  /** A live item's XML as it was given, by prefix (not what the pipeline wrote from its model). */
  readonly given: Readonly<Record<string, string>>;
  /** A live item's model when the record gave it (not lifted from its XML), as stored JSON. */
  readonly givenModel?: string;
}

/** One record (an item in one format) as stored. */
export interface StoredRecord {
  /** This store's datestamp of the record, seconds. */
  readonly datestamp: number;
  /** `recordHash` of what it disseminates; null when not known (written before records had one). */
  readonly hash: string | null;
}

/** What the store holds that a batch meets: its items, and the identifier registry around them. */
export interface StoredState {
  /** The stored items of the batch's internal ids. */
  readonly items: ReadonlyMap<string, StoredItem>;
  /** Stored items by identifier (the holders of the identifiers the batch maps to). */
  readonly byIdentifier: ReadonlyMap<string, ExistingItem>;
  /** Registry rows touching the batch, by identifier ... */
  readonly registryByIdentifier: ReadonlyMap<string, RegistryEntry>;
  /** ... and by internal id (every identifier ever published for it). */
  readonly registryByInternalId: ReadonlyMap<string, readonly RegistryEntry[]>;
  /** The sources this store ever harvested: each owns the id space `NAME:`, as a configured source does. */
  readonly harvested: ReadonlySet<string>;
}

/** What the decision needs besides the batch and the state. */
export interface DecideOptions {
  readonly preparation: Preparation;
  /** The metadata check of each format; without it, metadata is only checked to be one well-formed element. */
  readonly formatChecks?: FormatChecks;
  /** The formats every tombstone is listed under (besides those it had): the formats offered. */
  readonly tombstonePrefixes: readonly string[];
  /** Override the identifier schemes governance checks (tests). */
  readonly schemes?: readonly SchemeCheck[];
  /** The store's clock now, seconds: what an input's datestamps are judged against. */
  readonly now: number;
  /**
   * The datestamp a change gets: the time the write is published, which the
   * store knows only when it publishes, so it passes a placeholder above any
   * real time and replaces it then (server/db/publication.ts). Default `now`.
   */
  readonly stamp?: number;
  /** The names of the configured harvest sources: each owns the id space `NAME:`. */
  readonly sources?: readonly string[];
}

/** What a planned write does to one item. */
export interface PlannedItem {
  readonly input: PreparedItem;
  readonly identifier: string;
  readonly scheme: string;
  readonly existing: StoredItem | undefined;
  readonly outcome: WriteOutcome;
  /** What kind of update an `updated` item is, when a person tells it apart ({@link updateKindOf}). */
  readonly update?: UpdateKind;
  readonly deleted: boolean;
  readonly datestamp: number;
  readonly hash: string;
  readonly sets: readonly string[];
  /** prefix → xml (null for a tombstone). */
  readonly records: ReadonlyMap<string, string | null>;
  /** prefix → the record's datestamp: the item's where the record changed, else the one it had. */
  readonly recordDatestamps: ReadonlyMap<string, number>;
  /** prefix → the record's digest (`recordHash`). */
  readonly recordHashes: ReadonlyMap<string, string>;
  /** The about containers to store, in order (none for a tombstone). */
  readonly about: readonly AboutInput[];
  /**
   * For a new or changed item: its item_sets rows in place of the old ones
   * (./set-rows.ts `membership`), under the stored item's pk, or 0 for a new
   * item, whose pk the store gives when it applies them. None when unchanged.
   */
  readonly setRows: readonly SetRow[];
  /** The record fields as stored (JSON), for a live item that has them. */
  readonly fields: string | undefined;
  /** For a harvested version: its datestamp at the source, stored to order later versions (null: not harvested). */
  readonly sourceDatestamp: number | null;
}

/** A version older than the stored one: not written (its outcome is `superseded`). */
export interface SupersededItem {
  readonly input: ItemInput;
  readonly identifier: string;
}

/** A batch decided: every refusal in input order, or (when there is none) the plan. */
export interface Plan {
  readonly refusals: readonly Refusal[];
  /** The batch as prepared (superseded versions left out), for the sets it names. */
  readonly prepared: readonly PreparedItem[];
  readonly planned: readonly PlannedItem[];
  /** Harvested versions older than the stored ones, in input order. */
  readonly superseded: readonly SupersededItem[];
}

/**
 * Whether a harvested version is older than the version the store holds
 * (time never goes back): only a version from another repository
 * (`versioned`) with a datestamp there, against a stored item that recorded
 * its source datestamp.
 *
 * @example isSuperseded({ internalId: 'a', metadata: {}, versioned: true, datestamp: 100 }, { sourceDatestamp: 200 }) // true
 */
export function isSuperseded(input: Pick<ItemInput, 'versioned' | 'datestamp'>, stored: Pick<StoredItem, 'sourceDatestamp'> | undefined): boolean {
  if (input.versioned !== true || input.datestamp === undefined || !stored || stored.sourceDatestamp === null) return false;
  return input.datestamp < stored.sourceDatestamp;
}

/**
 * An item's outcome: `unchanged` when its content hash is the stored one;
 * else a deletion of a live item is `deleted`, a new item `inserted`, any
 * other change (a tombstone written again with other sets, too) `updated`.
 *
 * @example outcomeOf({ contentHash: 'h1', deleted: false }, false, 'h2') // 'updated'
 */
export function outcomeOf(stored: Pick<StoredItem, 'contentHash' | 'deleted'> | undefined, deleted: boolean, hash: string): WriteOutcome {
  if (stored && stored.contentHash === hash) return 'unchanged';
  if (deleted) return stored && stored.deleted ? 'updated' : 'deleted';
  return stored ? 'updated' : 'inserted';
}

/**
 * What kind of update a write is, when a person tells it apart from any
 * other change: a deleted item written live again is `revived` (a reload of
 * a withdrawn record brings it back, which its harvesters see as a new
 * record, OAI-PMH 2.0 section 2.5.1); a live item that gains a format and
 * changes in nothing it had (every stored record's digest unchanged) has a
 * `formatAdded`. Undefined for any other outcome or change.
 *
 * @example updateKindOf('updated', { deleted: true, records: new Map() }, false, new Map()) // 'revived'
 */
export function updateKindOf(
  outcome: WriteOutcome,
  stored: Pick<StoredItem, 'deleted' | 'records'> | undefined,
  deleted: boolean,
  hashes: ReadonlyMap<string, string>,
): UpdateKind | undefined {
  if (outcome !== 'updated' || stored === undefined || deleted) return undefined;
  if (stored.deleted) return 'revived';
  const kept = [...stored.records].every(([prefix, r]) => r.hash !== null && hashes.get(prefix) === r.hash);
  const added = [...hashes.keys()].some((prefix) => !stored.records.has(prefix));
  return kept && added ? 'formatAdded' : undefined;
}

/**
 * The datestamp of a planned write: this store's time. Unchanged: the stored
 * one, so nothing is harvested again. Any change: `stamp`, the time the
 * write is published (by default `now`), never earlier than the datestamp
 * already published (a clock set back must not
 * hide a change from a harvester whose last harvest covered the old one:
 * OAI-PMH 2.0 section 2.7.1, and the repository guidelines' "should be
 * changed to reflect any change in the item"). A datestamp the record gives
 * is the source's or the catalogue's time and is not published, with one
 * exception: a new item the writer marks `keepDatestamp` (a deliberate
 * migration of this repository's own records, `load --keep-datestamps`)
 * keeps its datestamp when it is not in the future, so its harvesters
 * harvest nothing again.
 *
 * @example datestampOf('updated', { datestamp: 100 }, { datestamp: 300 }, 500) // 500
 * @example datestampOf('inserted', undefined, { datestamp: 300, keepDatestamp: true }, 500) // 300
 */
export function datestampOf(
  outcome: WriteOutcome,
  stored: Pick<StoredItem, 'datestamp'> | undefined,
  input: Pick<ItemInput, 'datestamp' | 'keepDatestamp'>,
  now: number,
  stamp: number = now,
): number {
  if (stored) return outcome === 'unchanged' ? stored.datestamp : Math.max(stamp, stored.datestamp);
  if (input.keepDatestamp === true && input.datestamp !== undefined && input.datestamp <= now) return input.datestamp;
  return stamp;
}

/**
 * The datestamp of each record of a planned write (OAI-PMH 2.0 section
 * 2.7.1: a datestamp is a record's, an item in one format): a record whose
 * digest is the one stored keeps its datestamp, so adding a format to an
 * item, or a writer change that alters one format, leaves the others' as
 * they were; every other record (new, changed, or stored without a digest)
 * takes the item's datestamp. An unchanged item keeps every one.
 *
 * @example recordDatestamps('updated', 500, new Map([['oai_dc', 'h1'], ['marc21', 'h2']]), stored) // oai_dc: its stored datestamp when its digest was h1; marc21: 500
 */
export function recordDatestamps(
  outcome: WriteOutcome,
  datestamp: number,
  hashes: ReadonlyMap<string, string>,
  stored: Pick<StoredItem, 'records'> | undefined,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const [prefix, hash] of hashes) {
    const old = stored?.records.get(prefix);
    const same = old !== undefined && (outcome === 'unchanged' || (old.hash !== null && old.hash === hash));
    out.set(prefix, same ? old.datestamp : datestamp);
  }
  return out;
}

/**
 * The record datestamps of a migration (`keepDatestamp`) of an item new to
 * the store whose own datestamp was kept: a format that changed earlier than
 * the item keeps its earlier datestamp too (never a later one than the
 * item's); otherwise `planned`, as decided.
 *
 * @example keptFormatDatestamps({ internalId: 'a', metadata: {}, keepDatestamp: true, datestamp: 300, formatDatestamps: { oai_dc: 100 } }, undefined, 300, planned).get('oai_dc') // 100
 */
export function keptFormatDatestamps(input: ItemInput, stored: StoredItem | undefined, datestamp: number, planned: Map<string, number>): Map<string, number> {
  const given = input.formatDatestamps;
  if (stored || input.keepDatestamp !== true || given === undefined || input.datestamp !== datestamp) return planned;
  for (const prefix of planned.keys()) {
    const at = given[prefix];
    if (at !== undefined && Number.isSafeInteger(at) && at >= 0 && at <= datestamp) planned.set(prefix, at);
  }
  return planned;
}

/**
 * A record with what its item was given before: every format the stored
 * live item was given that this write does not give again (a write that
 * gives a format replaces that format only, and a format written from the
 * model never takes a given one's place), and, when this write gives no
 * model, the model an earlier write gave. A format the repository no longer
 * offers (`offered`, when given) is not kept: it could not be served, and a
 * record giving it now would be refused. A tombstone, a deletion and a new
 * item are taken as they are.
 *
 * @example withStoredGiven({ internalId: 'a', metadata: { mods: m } }, stored).metadata // { oai_dc: storedDc, mods: m }
 */
export function withStoredGiven(input: ItemInput, stored: StoredItem | undefined, offered?: FormatRegistry): ItemInput {
  if (!stored || stored.deleted || input.deleted === true) return input;
  const kept = Object.entries(stored.given).filter(
    ([prefix]) => input.metadata[prefix] === undefined && (offered === undefined || offered.get(prefix) !== undefined),
  );
  const model = input.fields === undefined && stored.givenModel !== undefined ? (JSON.parse(stored.givenModel) as RecordFields) : undefined;
  if (kept.length === 0 && model === undefined) return input;
  return {
    ...input,
    metadata: { ...Object.fromEntries(kept), ...input.metadata },
    ...(model !== undefined && { fields: model }),
  };
}

/**
 * Decides a batch against the stored state: merges what each item was given
 * before, sets aside versions older than the stored ones (superseded, so
 * neither judged nor written), prepares the rest (lift, every format, sets
 * by rule), judges them (record rules, each format's check), governs their
 * identifiers, and, when nothing is refused, plans each item's write: its
 * outcome, datestamp, content hash, sets, formats and about containers.
 * Refusals come in input order.
 *
 * @example const plan = decideBatch(items, await readWriteState(trx, items, policy), options); if (plan.refusals.length === 0) await applyWrite(trx, plan.planned, now);
 */
export function decideBatch(items: readonly ItemInput[], state: StoredState, options: DecideOptions): Plan {
  const superseded: SupersededItem[] = [];
  const current: ItemInput[] = [];
  for (const item of items) {
    const stored = state.items.get(item.internalId);
    if (stored && isSuperseded(item, stored)) superseded.push({ input: item, identifier: stored.identifier });
    else current.push(withStoredGiven(item, stored, options.preparation.formats));
  }
  const judge = (batch: readonly PreparedItem[]): Judged => judgeRecords(batch, options.now, options.formatChecks);
  // Stages 1 and 2: the record on its own, then its metadata per format; a record refused only by the
  // schema of XML it gave whose model is sound is kept with that XML withheld (./withhold.ts).
  const first = current.map((i) => prepareItem(i, options.preparation));
  const { prepared, judged } = withholdInvalidGiven(current, first, judge(first), options.preparation, options.formatChecks, judge);
  const byIndex: Refusal[][] = judged.refusals.map((r) => [...r]);
  // Stage 3: identifier governance over what passed.
  const passed = judged.passed.map((p) => p.item);
  const mappings = mapAll(options.preparation.policy, passed);
  const existing = new Map<string, ExistingItem>();
  for (const i of passed) {
    const s = state.items.get(i.internalId);
    if (s) existing.set(i.internalId, { internalId: s.internalId, identifier: s.identifier, origin: s.origin });
  }
  const governed = checkBatch({
    items: passed,
    mappings,
    namespace: options.preparation.policy.namespace,
    existingByInternalId: existing,
    existingByIdentifier: state.byIdentifier,
    registryByIdentifier: state.registryByIdentifier,
    registryByInternalId: state.registryByInternalId,
    sources: new Set([...state.harvested, ...(options.sources ?? [])]),
    ...(options.schemes && { schemes: options.schemes }),
  });
  judged.passed.forEach((p, k) => byIndex[p.index]?.push(...(governed[k] ?? [])));
  const refusals = byIndex.flat();
  if (refusals.length > 0) return { refusals, prepared, planned: [], superseded };
  const planned = passed.map((input, index) => planItem(input, mappings[index], state.items.get(input.internalId), options));
  return { refusals: [], prepared, planned, superseded };
}

/** One item's write, once the batch passed. */
function planItem(input: PreparedItem, mapping: Mapping | undefined, existing: StoredItem | undefined, options: DecideOptions): PlannedItem {
  if (!mapping || !mapping.ok) throw new Error('unreachable: unmapped item passed governance');
  const deleted = input.deleted === true;
  // A tombstone written through writeItems keeps its old sets unless the input names them.
  const sets = uniqueSorted(input.sets ?? (deleted && existing ? existing.sets : []));
  const records = new Map<string, string | null>();
  if (deleted) {
    // Listed in every format it had and every format offered (OAI-PMH 2.0 section 2.5.1).
    const prefixes = uniqueSorted([...Object.keys(input.metadata), ...(existing ? existing.records.keys() : []), ...options.tombstonePrefixes]);
    for (const p of prefixes) records.set(p, null);
  } else {
    for (const p of uniqueSorted(Object.keys(input.metadata))) records.set(p, input.metadata[p] ?? '');
  }
  const about = deleted ? [] : (input.about ?? []);
  const fields = !deleted && input.fields !== undefined ? fieldsJson(input.fields) : undefined;
  const withheld = !deleted && input.withheld !== undefined && input.withheld.length > 0 ? input.withheld : undefined;
  const hash = contentHash(deleted, sets, records, about, fields, withheld);
  const outcome = outcomeOf(existing, deleted, hash);
  const datestamp = datestampOf(outcome, existing, input, options.now, options.stamp);
  const recordHashes = new Map([...records].map(([prefix, xml]) => [prefix, recordHash(deleted, sets, prefix, xml, about)]));
  const update = updateKindOf(outcome, existing, deleted, recordHashes);
  const sourceDatestamp = input.versioned === true && input.datestamp !== undefined ? input.datestamp : (existing?.sourceDatestamp ?? null);
  return {
    input,
    identifier: mapping.identifier,
    scheme: mapping.scheme,
    existing,
    outcome,
    ...(update !== undefined && { update }),
    deleted,
    datestamp,
    hash,
    sets,
    records,
    recordDatestamps: keptFormatDatestamps(input, existing, datestamp, recordDatestamps(outcome, datestamp, recordHashes, existing)),
    recordHashes,
    about,
    setRows: outcome === 'unchanged' ? [] : membership(existing?.pk ?? 0, sets, withGivenDepartures(existing?.memberships ?? [], input.departures), datestamp),
    fields,
    sourceDatestamp,
  };
}
