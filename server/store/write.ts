/**
 * The write pipeline over one knex transaction, the one way anything reaches
 * the tables (ARCHITECTURE.md, "The write path"), in two trips to the
 * database:
 *
 *   read  (./state.ts: what the batch meets in the store, as domain types)
 *   → decide (lib/pipeline/decide.ts, pure: given formats merged, lift,
 *             prepare, judge, govern, plan)
 *   → apply (./apply.ts: sets the batch names declared, then the plan).
 *
 * Sets a batch names are declared with its write (sets by rule under the
 * configuration's names, any other set named by its spec, until a ListSets
 * or an operator names it), inside the same transaction, so a refused batch
 * declares nothing.
 */
import type { Knex } from 'knex';
import type { FormatChecks } from '../../lib/pipeline/judge';
import type { SchemeCheck } from '../../lib/pipeline/governance';
import type { Preparation } from '../../lib/pipeline/prepare';
import type { Plan, StoredState } from '../../lib/pipeline/decide';
import { decideBatch } from '../../lib/pipeline/decide';
import { setDeclarations } from '../../lib/sets/rules';
import type { ItemInput, PartialWrite, WriteResult } from '../../lib/store';
import { decideLeavingOut } from '../../lib/pipeline/partial';
import type { Refusal } from '../../lib/model/refusal';
import { applyWrite, type AppliedItem } from './apply';
import type { OnDemand } from './on-demand';
import { declareConfiguredSets, declareSetsFromInput } from './sets';
import { readWriteState } from './state';

/** What the pipeline needs besides the batch: the repository's preparation and judgement. */
export interface WriteOptions {
  readonly preparation: Preparation;
  readonly formatChecks?: FormatChecks;
  readonly tombstonePrefixes: readonly string[];
  readonly schemes?: readonly SchemeCheck[];
  /** The names of the configured harvest sources: each owns the id space `NAME:`. */
  readonly sources?: readonly string[];
  /** The store's clock now, seconds. */
  readonly now: number;
  /** The datestamp a change gets until the write is published (../db/publication.ts). Default `now`. */
  readonly stamp?: number;
  /** Leave the formats written from a model unstored, to be written when asked for (./on-demand.ts). */
  readonly onDemand?: OnDemand;
  /** With `onDemand`, the written formats stored all the same. Default oai_dc. */
  readonly storedFormats?: ReadonlySet<string>;
}

/** What a batch came to: every refusal (nothing written), or what was written. */
export type WriteOutcomes = { readonly refusals: readonly Refusal[] } | { readonly results: readonly WriteResult[] };

/**
 * Declares the sets a decided batch names that are not declared yet: the
 * sets by rule (under the configuration's names) and every other valid
 * setSpec a record names and its ancestors (named by their spec). Invalid
 * specs are left to the judge, which refuses the record.
 */
async function declareNamedSets(trx: Knex, named: readonly string[], p: Preparation): Promise<void> {
  // The configuration's sets under its names, claimed from any input that declared them first (./sets.ts).
  const byRule = p.setRules && p.setRules.all.length > 0 ? setDeclarations(p.setRules, named) : [];
  if (p.setRules && byRule.length > 0) await declareConfiguredSets(trx, p.setRules, named);
  const declared = new Set(byRule.map((s) => s.spec));
  // Every other setSpec (and its ancestors, OAI-PMH 2.0 section 2.7.2) from the input, named by its spec.
  await declareSetsFromInput(
    trx,
    named.filter((s) => !declared.has(s)),
  );
}

/**
 * Runs a batch through the pipeline inside `trx`; with `dryRun` nothing is
 * applied (the caller rolls back what declaring sets wrote).
 *
 * @example const out = await writePipeline(trx, items, options); if ('refusals' in out) …
 */
export async function writePipeline(trx: Knex, items: readonly ItemInput[], options: WriteOptions, dryRun = false): Promise<WriteOutcomes> {
  const out = await writePassing(trx, items, options, false, dryRun);
  return out.refusals.length > 0 ? { refusals: out.refusals } : { results: out.results };
}

/**
 * A batch decided from the state it met: the plan that passes (null when
 * nothing does) and what it came to item by item.
 */
export interface DecidedWrite extends PartialWrite {
  readonly plan: Plan | null;
}

/**
 * Reads a batch's state once inside `trx` and decides it (the pure part of
 * the pipeline): in `partial` mode the records the decision refuses are left
 * out and the rest decided again from that state (lib/pipeline/partial.ts);
 * otherwise a refusal leaves no plan. Writes nothing.
 *
 * @example const d = await decidePassing(trx, items, options, false); if (d.plan) await applyDecided(trx, namedSets(d.plan), d.plan.planned, options);
 */
export async function decidePassing(
  trx: Knex,
  items: readonly ItemInput[],
  options: WriteOptions,
  partial: boolean,
): Promise<DecidedWrite & { readonly state: StoredState }> {
  const state = await readWriteState(trx, items, options.preparation.policy);
  return { ...decideFrom(state, items, options, partial), state };
}

/**
 * Decides a batch from a state already read (see {@link decidePassing}).
 *
 * @example const d = decideFrom(state, items, options, true);
 */
export function decideFrom(state: StoredState, items: readonly ItemInput[], options: WriteOptions, partial: boolean): DecidedWrite {
  const decided = decideLeavingOut(
    items,
    (batch) =>
      decideBatch(batch, state, {
        preparation: options.preparation,
        tombstonePrefixes: options.tombstonePrefixes,
        now: options.now,
        ...(options.stamp !== undefined && { stamp: options.stamp }),
        ...(options.formatChecks && { formatChecks: options.formatChecks }),
        ...(options.schemes && { schemes: options.schemes }),
        ...(options.sources && { sources: options.sources }),
      }),
    partial,
  );
  const plan = decided.plan;
  if (plan === null) return { plan: null, results: [], written: [], refusals: decided.refusals, refusedItems: decided.refusedItems };
  const byId = new Map<string, WriteResult>();
  for (const p of plan.planned)
    byId.set(p.input.internalId, {
      internalId: p.input.internalId,
      identifier: p.identifier,
      outcome: p.outcome,
      ...(p.update !== undefined && { update: p.update }),
      ...(p.input.notes !== undefined && p.input.notes.length > 0 && { notes: p.input.notes }),
    });
  for (const s of plan.superseded) byId.set(s.input.internalId, { internalId: s.input.internalId, identifier: s.identifier, outcome: 'superseded' });
  // In the batch's order.
  const results = decided.written.flatMap((i) => byId.get(i.internalId) ?? []);
  return { plan, results, written: decided.written, refusals: decided.refusals, refusedItems: decided.refusedItems };
}

/**
 * The sets a decided batch names (what {@link applyDecided} declares).
 *
 * @example namedSets(d.plan)
 */
export function namedSets(plan: Plan): string[] {
  return [...new Set(plan.prepared.flatMap((i) => i.sets ?? []))];
}

/**
 * Applies a decided batch inside `trx`: declares the sets it names, then
 * writes its plan (./apply.ts); with `dryRun` only the sets are declared
 * (the caller rolls them back).
 *
 * @example await applyDecided(trx, namedSets(d.plan), d.plan.planned, options);
 */
export async function applyDecided(trx: Knex, sets: readonly string[], planned: readonly AppliedItem[], options: WriteOptions, dryRun = false): Promise<void> {
  // Declared even for a dry run, whose caller rolls them back: a check sees what a write would.
  await declareNamedSets(trx, sets, options.preparation);
  if (!dryRun) await applyWrite(trx, planned, options.now, options.onDemand, options.storedFormats);
}

/**
 * Runs a batch through the pipeline inside `trx`, reading its state once
 * ({@link decidePassing}), then applies the plan that passes; in `partial`
 * mode the refused records are left out, otherwise a refusal applies
 * nothing.
 *
 * @example const out = await writePassing(trx, items, options, true); report(out.refusals);
 */
export async function writePassing(trx: Knex, items: readonly ItemInput[], options: WriteOptions, partial: boolean, dryRun = false): Promise<PartialWrite> {
  const { plan, results, written, refusals, refusedItems } = await decidePassing(trx, items, options, partial);
  if (plan !== null) await applyDecided(trx, namedSets(plan), plan.planned, options, dryRun);
  return { results, written, refusals, refusedItems };
}
