/**
 * The knex-backed store: lib/store.ts's `Store` on SQLite and PostgreSQL with
 * identical behaviour (dialect differences live in server/db/). One file per
 * concern, put together here:
 *
 * - ./read.ts     the read side, keyset scans (ReadStore);
 * - ./plan.ts     the write gate and the plan of a write (nothing written);
 * - ./apply.ts    writing a plan, tombstones, set declarations;
 * - ./stats.ts    statistics;
 * - ./record-fields.ts  the record fields kept with each item;
 * - ./scan.ts     every item a page at a time, with all its formats (check, rebuild-sets);
 * - ./settings.ts and ./counters.ts: the token secret and PDI serials, used by
 *   the server's wiring rather than by the protocol.
 *
 * Every write runs the whole gate (record rules, the metadata check of each
 * format, identifier governance) over the whole batch first and writes
 * nothing when anything is refused.
 */
import type { Knex } from 'knex';
import { RefusedError, type ItemInput, type MembershipChange, type ScannedItem, type SeenIds, type SetInput, type Store, type StoreStats, type WriteResult, type WriteTransaction } from '../../lib/store';
import { type Refusal } from '../../lib/model/refusal';
import type { FormatChecks } from '../../lib/records/gate';
import { withRightsAbout } from '../../lib/records/about';
import type { RecordFields } from '../../lib/model/record';
import { recordFieldsOf } from './record-fields';
import type { IdPolicyLike, SchemeCheck } from '../../lib/records/governance';
import { createSeenIds } from '../db/seen-ids';
import { dublinCoreOf } from '../../lib/formats/oai-dc';
import { setDeclarations, setsWithRules, type SetDefinitions } from '../../lib/sets/rules';
import { applyDelete, applyMemberships, applySets, applyWrite, declareMissingSets } from './apply';
import { planWrite, type Plan } from './plan';
import { KnexReadStore } from './read';
import { scanItems } from './scan';
import { storeStats } from './stats';

/** How a KnexStore is made. */
export interface KnexStoreOptions {
  /** A knex instance or transaction on a migrated database (server/db/migrations). */
  readonly knex: Knex;
  /** The id policy (lib/ids/policy.ts `createIdPolicy`); its namespace is the repository's. */
  readonly policy: IdPolicyLike;
  /**
   * The metadata check of each format (server/xsd/format-checks.ts
   * `createXsdChecks`): a prefix without a check is refused as unknown.
   * Default: none, so metadata is only checked to be one well-formed element.
   */
  readonly formatChecks?: FormatChecks;
  /** Seconds since the epoch, UTC; defaults to the system clock. */
  readonly clock?: () => number;
  /**
   * The formats every tombstone is listed under, besides those it had: the
   * formats the repository offers (server/provider.ts passes them all), so a
   * harvester of any format learns of the deletion (OAI-PMH 2.0 section
   * 2.5.1). Default `['oai_dc']`: section 3.4 requires every item to be
   * disseminable in oai_dc.
   */
  readonly tombstonePrefixes?: readonly string[];
  /** Override the identifier schemes governance checks (tests). */
  readonly schemes?: readonly SchemeCheck[];
  /** Add a rights about container to records whose metadata states a licence (lib/records/about.ts `withRightsAbout`). Default false. */
  readonly rightsInAbout?: boolean;
  /**
   * The sets of the configuration (server/config.ts `sets`): every live item
   * written is put into the rule sets it satisfies (and taken out of those it
   * no longer does) before the gate, so rule sets are written, stamped and
   * left like the sets records name; the sets are declared as items join
   * them. Default: none.
   */
  readonly setRules?: SetDefinitions;
}

/** Thrown inside a transaction to roll it back after a check. */
class CheckOnly extends Error {
  constructor(readonly refusals: readonly Refusal[]) {
    super('check only');
  }
}

const systemClock = (): number => Math.floor(Date.now() / 1000);

/** What set rules judge of an item: its record fields, or for an item loaded as XML the Dublin Core of its oai_dc. */
function fieldsOf(item: ItemInput): RecordFields {
  return item.fields ?? { dc: dublinCoreOf(item.metadata.oai_dc ?? null) };
}

/**
 * lib/store.ts's Store over knex.
 *
 * @example
 * const knex = createKnex('sqlite:./data/oai.db');
 * await migrate(knex);
 * const store = new KnexStore({ knex, policy: createIdPolicy({ namespace: 'example.org' }) });
 * await store.putSets([{ spec: 'a', name: 'A' }]);
 * await store.writeItems([{ internalId: 'x 1', sets: ['a'], metadata: { oai_dc: '<oai_dc:dc …/>' } }]);
 */
export class KnexStore extends KnexReadStore implements Store, WriteTransaction {
  private readonly options: KnexStoreOptions;
  private readonly clock: () => number;

  constructor(options: KnexStoreOptions) {
    super(options.knex);
    this.options = options;
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Runs `fn` with a store bound to one transaction, so several writes
   * (e.g. putSets then several writeItems batches) commit or roll back
   * together. Each write inside still runs in its own savepoint.
   *
   * @example await store.transaction(async (tx) => { await tx.putSets(sets); await tx.writeItems(items); });
   */
  async transaction<T>(fn: (tx: KnexStore) => Promise<T>): Promise<T> {
    return this.knex.transaction(async (trx) => fn(new KnexStore({ ...this.options, knex: trx })));
  }

  /** Records the ids a load has seen in a temporary table of this store's connection; call it inside {@link transaction}. */
  seenIds(): Promise<SeenIds> {
    return createSeenIds(this.knex);
  }

  stats(): Promise<StoreStats> {
    return storeStats(this.knex);
  }

  scanItems(afterPk: number, limit: number): Promise<readonly ScannedItem[]> {
    return scanItems(this.knex, afterPk, limit);
  }

  recordFields(internalIds: readonly string[]): Promise<ReadonlyMap<string, RecordFields>> {
    return recordFieldsOf(this.knex, internalIds);
  }


  async putSets(sets: readonly SetInput[]): Promise<void> {
    await this.knex.transaction((trx) => applySets(trx, sets));
  }

  async checkItems(items: readonly ItemInput[]): Promise<readonly Refusal[]> {
    if (!this.options.setRules || this.options.setRules.all.length === 0) return (await this.plan(this.knex, items)).refusals;
    // The sets a rule would declare are declared for the check, then rolled back with it.
    try {
      await this.knex.transaction(async (trx) => {
        throw new CheckOnly((await this.plan(trx, await this.withSetRules(trx, items))).refusals);
      });
    } catch (err) {
      if (err instanceof CheckOnly) return err.refusals;
      throw err;
    }
    return [];
  }

  async writeItems(items: readonly ItemInput[]): Promise<readonly WriteResult[]> {
    if (items.length === 0) return [];
    return this.knex.transaction(async (trx) => {
      const { refusals, planned } = await this.plan(trx, await this.withSetRules(trx, items));
      if (refusals.length > 0) throw new RefusedError(refusals);
      await applyWrite(trx, planned, this.clock());
      return planned.map((p) => ({ internalId: p.input.internalId, identifier: p.identifier, outcome: p.outcome }));
    });
  }

  async deleteItems(internalIds: readonly string[]): Promise<readonly WriteResult[]> {
    if (internalIds.length === 0) return [];
    return this.knex.transaction((trx) => applyDelete(trx, internalIds, this.clock(), this.options.tombstonePrefixes ?? ['oai_dc']));
  }

  async setMemberships(changes: readonly MembershipChange[]): Promise<readonly WriteResult[]> {
    if (changes.length === 0) return [];
    return this.knex.transaction((trx) => applyMemberships(trx, changes, this.clock()));
  }

  /**
   * The items with the configured set rules applied to each live one (its
   * sets: those it names, plus the rule sets its fields satisfy), after
   * declaring the sets they join. A tombstone keeps its sets.
   */
  private async withSetRules(trx: Knex, items: readonly ItemInput[]): Promise<readonly ItemInput[]> {
    const defs = this.options.setRules;
    if (!defs || defs.all.length === 0) return items;
    const out = items.map((item) => (item.deleted ? item : { ...item, sets: setsWithRules(defs, fieldsOf(item), item.sets ?? []) }));
    await declareMissingSets(trx, setDeclarations(defs, out.flatMap((i) => i.sets ?? [])));
    return out;
  }

  private plan(db: Knex, items: readonly ItemInput[]): Promise<Plan> {
    const o = this.options;
    return planWrite(db, o.rightsInAbout ? items.map(withRightsAbout) : items, {
      policy: o.policy,
      tombstonePrefixes: o.tombstonePrefixes ?? ['oai_dc'],
      now: this.clock(),
      ...(o.formatChecks && { formatChecks: o.formatChecks }),
      ...(o.schemes && { schemes: o.schemes }),
    });
  }
}
