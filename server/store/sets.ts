/**
 * Sets and where they come from (migration 005): the configuration
 * (`configuration`: a static set of `sets`; `rule`: a set by rule, a
 * preset, a family's member), or a load's input (`input`: a ListSets
 * response, a `--sets` file, a setSpec harvested records name). Every
 * function runs inside the caller's transaction.
 *
 * - Configured names always win: the configuration's name is written over an
 *   input's, and an input never renames a set the configuration declares.
 * - A setSpec harvested records name that nobody declared is declared from
 *   the input, named by its setSpec, until a ListSets names it.
 * - A manager's rename (`oai-steward sets rename`) sticks: an input does not
 *   rename that set again.
 * - Retiring a set takes it out of the repository: its members (of it and
 *   its descendants) leave it, with a departure as when a rule stops
 *   matching (./changes.ts `writeMemberships`), and its row moves to
 *   `retired_sets`, so ListSets no longer shows it while a harvest of it
 *   still reports its former members deleted. A set the input names again is
 *   declared again.
 */
import type { Knex } from 'knex';
import type { Retirement, SetInput, SetListing, SetOrigin } from '../../lib/store';
import { setProblems } from '../../lib/pipeline/judge';
import { isValidSetSpec, withAncestors } from '../../lib/model/header';
import { isRuleOwned, setDeclarations, type SetDefinitions } from '../../lib/sets/rules';
import { chunk, inListParam, inListSql, MAX_IN_LIST, rowsPerInsert, toInt } from '../db/dialect';
import { statementRunner } from '../db/statements';
import { writeMemberships } from './changes';
import { directSets } from './read';
import { storeStats } from './stats';

export type { Retirement, SetListing, SetOrigin };

/** A set row as stored. */
interface SetRow {
  spec: string;
  name: string;
  origin: SetOrigin;
  renamed: unknown;
  /** The JSON array of its descriptions, as stored. */
  descriptions?: string;
}

/** The rows of `sets` for these specs (and, with `retired`, which of them are in `retired_sets`). */
async function setRows(db: Knex, specs: readonly string[]): Promise<Map<string, SetRow>> {
  const out = new Map<string, SetRow>();
  for (const part of chunk([...new Set(specs)], MAX_IN_LIST)) {
    if (part.length === 0) continue;
    const rows = await statementRunner(db)<SetRow>(`SELECT spec, name, origin, renamed, descriptions FROM sets WHERE ${inListSql(db, 'spec', 'text')}`, [
      inListParam(db, part),
    ]);
    for (const r of rows) out.set(r.spec, r);
  }
  return out;
}

/** Inserts new sets, a chunk at a time; a spec retired before is taken back out of `retired_sets`. */
async function insertSets(db: Knex, rows: readonly { spec: string; name: string; descriptions: readonly string[]; origin: SetOrigin }[]): Promise<void> {
  const values = rows.map((r) => ({ spec: r.spec, name: r.name, descriptions: JSON.stringify(r.descriptions), origin: r.origin }));
  for (const part of chunk(values, rowsPerInsert(db, 4))) await db('sets').insert(part);
  for (const part of chunk(
    rows.map((r) => r.spec),
    MAX_IN_LIST,
  ))
    await db('retired_sets').whereIn('spec', part).delete();
}

/**
 * Throws what {@link declareInputSets} would refuse of `sets` (a spec or a
 * name the protocol does not allow), before anything is written.
 */
export function checkInputSets(sets: readonly SetInput[]): void {
  const problems = setProblems(sets);
  if (problems.length > 0) throw new Error(problems.join('\n'));
}

/**
 * Declares the sets a load's input gives with their names (a ListSets
 * response, a `--sets` file): new ones with origin `input`; a set declared
 * by an input takes the new name and descriptions, unless a manager renamed
 * it; a set the configuration declares keeps the configuration's. Any
 * invalid set throws an `Error` naming every problem, and nothing is written.
 *
 * @example await declareInputSets(trx, [{ spec: '5:12', name: 'Physics' }]);
 */
export async function declareInputSets(trx: Knex, sets: readonly SetInput[]): Promise<void> {
  checkInputSets(sets);
  const existing = await setRows(
    trx,
    sets.map((s) => s.spec),
  );
  await insertSets(
    trx,
    sets.filter((s) => !existing.has(s.spec)).map((s) => ({ ...s, descriptions: s.descriptions ?? [], origin: 'input' as const })),
  );
  for (const s of sets) {
    const row = existing.get(s.spec);
    if (!row || row.origin !== 'input' || row.renamed !== null) continue;
    // A source's ListSets comes again every run, mostly as it was: only a change is written.
    const descriptions = JSON.stringify(s.descriptions ?? []);
    if (row.name === s.name && row.descriptions === descriptions) continue;
    await trx('sets').where('spec', s.spec).update({ name: s.name, descriptions });
  }
}

/**
 * Declares the setSpecs records name that no one has declared (and their
 * ancestors, OAI-PMH 2.0 section 2.7.2), named by the setSpec until a
 * ListSets names them, with origin `input`; returns the specs declared, in
 * order. Invalid specs are left for the write gate to refuse with its
 * reason. Call it after the set rules have been applied to the items, so a
 * rule's set is not declared as the input's.
 *
 * @example await declareSetsFromInput(trx, ['5:12']) // ['5', '5:12'] on a store that had neither
 */
export async function declareSetsFromInput(trx: Knex, specs: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(specs.filter(isValidSetSpec).flatMap(withAncestors))].sort();
  const existing = await setRows(trx, wanted);
  const missing = wanted.filter((s) => !existing.has(s));
  await insertSets(
    trx,
    missing.map((spec) => ({ spec, name: spec, descriptions: [], origin: 'input' as const })),
  );
  return missing;
}

/**
 * Declares the configuration's sets (a family by its parent, and each of
 * its members in `found`): missing ones inserted, existing ones given the
 * configuration's name and origin (configured names win over every input's
 * and over a manager's rename).
 *
 * @example await declareConfiguredSets(trx, config.sets, ['ddc:530']);
 */
export async function declareConfiguredSets(trx: Knex, defs: SetDefinitions, found: readonly string[] = []): Promise<void> {
  const declarations = setDeclarations(defs, found).map((d) => ({ ...d, origin: (isRuleOwned(defs, d.spec) ? 'rule' : 'configuration') as SetOrigin }));
  if (declarations.length === 0) return;
  const existing = await setRows(
    trx,
    declarations.map((d) => d.spec),
  );
  await insertSets(
    trx,
    declarations.filter((d) => !existing.has(d.spec)).map((d) => ({ ...d, descriptions: [] })),
  );
  for (const d of declarations) {
    const row = existing.get(d.spec);
    if (!row || (row.name === d.name && row.origin === d.origin && row.renamed === null)) continue;
    await trx('sets').where('spec', d.spec).update({ name: d.name, origin: d.origin, renamed: null });
  }
}

/** Why a manager's change of a set is refused (the CLI prints the message). */
export class SetChangeRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SetChangeRefused';
  }
}

/**
 * Renames a set declared by an input; the name sticks (an input does not
 * rename it again). A set the configuration declares is renamed in the
 * configuration, so it is refused here.
 *
 * @example await renameSet(trx, '5:12', 'Physics', now);
 */
export async function renameSet(trx: Knex, spec: string, name: string, now: number): Promise<void> {
  const row = (await setRows(trx, [spec])).get(spec);
  if (!row) throw new SetChangeRefused(`no set ${JSON.stringify(spec)} is declared`);
  if (row.origin !== 'input') throw new SetChangeRefused(`the set ${JSON.stringify(spec)} is declared by the configuration (${row.origin}); rename it there`);
  const problems = setProblems([{ spec, name }]);
  if (problems.length > 0) throw new SetChangeRefused(problems.join('\n'));
  await trx('sets').where('spec', spec).update({ name, renamed: now });
}

/**
 * Retires sets and their descendants: every item in them leaves them (its
 * direct sets lose them, it is stamped `stamp`, the write's datestamp
 * (../db/publication.ts), and a departure is recorded, ./changes.ts
 * `writeMemberships`), then their rows move to `retired_sets`, retired `now`.
 * Specs not declared are ignored.
 *
 * @example await retireSets(trx, ['old'], now) // { sets: ['old', 'old:a'], members: 10 }
 */
export async function retireSets(trx: Knex, specs: readonly string[], now: number, stamp: number = now): Promise<Retirement> {
  const all = (await trx('sets').select('spec', 'name', 'origin')) as { spec: string; name: string; origin: string }[];
  const inTree = (s: string): boolean => specs.some((r) => s === r || s.startsWith(`${r}:`));
  const retiring = all.filter((r) => inTree(r.spec)).sort((a, b) => (a.spec < b.spec ? -1 : a.spec > b.spec ? 1 : 0));
  if (retiring.length === 0) return { sets: [], members: 0 };
  return retireRows(trx, retiring, now, stamp, false);
}

/**
 * Retires these sets (rows of `sets`, descendants included by the caller):
 * their members leave them with a departure, and their rows move to
 * `retired_sets`; with `forgetEmpty`, a set no item was ever in is deleted
 * without a row there, since no harvest of it has anything to report.
 */
async function retireRows(
  trx: Knex,
  retiring: readonly { spec: string; name: string; origin: string }[],
  now: number,
  stamp: number,
  forgetEmpty: boolean,
): Promise<Retirement> {
  if (retiring.length === 0) return { sets: [], members: 0 };
  const retired = new Set(retiring.map((r) => r.spec));
  const pks = new Set<number>();
  for (const part of chunk([...retired], MAX_IN_LIST)) {
    const rows = await statementRunner(trx)<{ item_pk: unknown }>(
      `SELECT DISTINCT item_pk FROM item_sets WHERE ${inListSql(trx, 'spec', 'text')} AND direct AND departed IS NULL`,
      [inListParam(trx, part)],
    );
    for (const r of rows) pks.add(toInt(r.item_pk));
  }
  const direct = await directSets(trx, [...pks]);
  const ids = new Map<number, string>();
  for (const part of chunk([...pks], MAX_IN_LIST)) {
    for (const r of (await trx('items').whereIn('pk', part).select('pk', 'internal_id')) as { pk: unknown; internal_id: string }[])
      ids.set(toInt(r.pk), r.internal_id);
  }
  const changes = [...pks].map((pk) => ({ internalId: ids.get(pk) as string, sets: (direct.get(pk) ?? []).filter((s) => !retired.has(s)) }));
  const results = changes.length === 0 ? [] : await writeMemberships(trx, changes, stamp);
  const remembered = forgetEmpty ? await everHeld(trx, [...retired]) : retired;
  for (const part of chunk(
    retiring.filter((r) => remembered.has(r.spec)),
    rowsPerInsert(trx, 4),
  )) {
    await trx('retired_sets')
      .insert(part.map((r) => ({ spec: r.spec, name: r.name, origin: r.origin, retired: now })))
      .onConflict('spec')
      .merge(['name', 'origin', 'retired']);
  }
  for (const part of chunk([...retired], MAX_IN_LIST)) await trx('sets').whereIn('spec', part).delete();
  return { sets: [...retired], members: results.filter((r) => r.outcome === 'updated').length };
}

/** Which of these sets any item was ever in (a row of item_sets, live or departed). */
async function everHeld(trx: Knex, specs: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const part of chunk(specs, MAX_IN_LIST)) {
    const rows = await statementRunner(trx)<{ spec: string }>(`SELECT DISTINCT spec FROM item_sets WHERE ${inListSql(trx, 'spec', 'text')}`, [
      inListParam(trx, part),
    ]);
    for (const r of rows) out.add(r.spec);
  }
  return out;
}

/**
 * Retires the sets a harvested source declared (`source:NAME:…`, origin
 * `input`) that it no longer has: neither in `kept` (what its complete
 * ListSets named and its records of the run named) nor an ancestor of one
 * there. Their members leave them with a departure, as when a set is retired
 * by hand; a set no item was ever in is forgotten outright, so a source
 * naming new sets every run leaves no trail of them.
 *
 * @example await retireGoneSourceSets(trx, 'arxiv', new Set(['source:arxiv:physics']), now) // { sets: ['source:arxiv:math'], members: 3 }
 */
export async function retireGoneSourceSets(trx: Knex, source: string, kept: ReadonlySet<string>, now: number, stamp: number = now): Promise<Retirement> {
  const prefix = `source:${source}:`;
  const rows = (await trx('sets')
    .select('spec', 'name', 'origin')
    .whereRaw('substr(spec, 1, ?) = ?', [prefix.length, prefix])
    .andWhere('origin', 'input')
    .orderBy('spec')) as { spec: string; name: string; origin: string }[];
  const still = new Set([...kept].flatMap(withAncestors));
  return retireRows(
    trx,
    rows.filter((r) => !still.has(r.spec)),
    now,
    stamp,
    true,
  );
}

/**
 * Retires the sets the configuration declared (origin `configuration` or
 * `rule`) that it no longer declares: after a set or a rule was removed from
 * it (`rebuild-sets` runs this first).
 *
 * @example await retireUnconfiguredSets(trx, config.sets, now) // { sets: ['oa_theses'], members: 10 }
 */
export async function retireUnconfiguredSets(trx: Knex, defs: SetDefinitions, now: number, stamp: number = now): Promise<Retirement> {
  const configured = (await trx('sets').whereIn('origin', ['configuration', 'rule']).select('spec')) as { spec: string }[];
  const declared = new Set(defs.all.map((d) => d.spec));
  const gone = configured.map((r) => r.spec).filter((s) => !declared.has(s) && !isRuleOwned(defs, s));
  return retireSets(trx, gone, now, stamp);
}

/**
 * Every declared set with its origin and counts, in spec order, then the
 * retired ones.
 *
 * @example (await setListing(knex)).find((s) => s.spec === 'driver')?.origin // 'rule'
 */
export async function setListing(knex: Knex): Promise<SetListing[]> {
  const stats = await storeStats(knex);
  const rows = (await knex('sets').select('spec', 'origin', 'renamed').orderBy('spec')) as SetRow[];
  const origin = new Map(rows.map((r) => [r.spec, r]));
  const listed: SetListing[] = Object.entries(stats.sets).map(([spec, s]) => {
    const row = origin.get(spec);
    return {
      spec,
      name: s.name,
      origin: row?.origin ?? 'input',
      live: s.items - s.deleted,
      deleted: s.deleted,
      ...(row?.renamed !== null && row?.renamed !== undefined && { renamed: toInt(row.renamed) }),
    };
  });
  const retired = (await knex('retired_sets').select('spec', 'name', 'origin', 'retired').orderBy('spec')) as {
    spec: string;
    name: string;
    origin: SetOrigin;
    retired: unknown;
  }[];
  const left = await departedCounts(
    knex,
    retired.map((r) => r.spec),
  );
  return [
    ...listed,
    ...retired.map((r) => ({ spec: r.spec, name: r.name, origin: r.origin, live: 0, deleted: left.get(r.spec) ?? 0, retired: toInt(r.retired) })),
  ];
}

/** For retired sets: how many items a harvest of each still reports deleted. */
async function departedCounts(knex: Knex, specs: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const part of chunk(specs, MAX_IN_LIST)) {
    if (part.length === 0) continue;
    const rows = await statementRunner(knex)<{ spec: string; n: unknown }>(
      `SELECT spec, count(*) AS n FROM item_sets WHERE ${inListSql(knex, 'spec', 'text')} GROUP BY spec`,
      [inListParam(knex, part)],
    );
    for (const r of rows) out.set(r.spec, toInt(r.n));
  }
  return out;
}
