/**
 * The internal ids a load has seen (lib/store/bookkeeping.ts `SeenIds`), kept in a
 * temporary table on the load's own connection: a JavaScript Set of ids grows
 * with the input, a temporary table lives in SQLite's temporary file
 * (`temp_store` = FILE, the build default) or PostgreSQL's temp buffers, both
 * spilling to disk, and its primary key answers "seen before?" by index. The
 * table belongs to the transaction's connection only, so concurrent loads do
 * not see each other's ids. Its SQL differs per database, so it lives here.
 */
import type { Knex } from 'knex';
import type { ItemInput, SeenIds, StagedVersion, StagedWinner, StageOutcome } from '../../lib/store';
import { chunk, dialectOf, inListParam, inListSql, MAX_IN_LIST, rowsOf, toInt } from './dialect';
import { insertRows } from './statements';

/**
 * Creates the temporary table of seen ids on `knex`, which must be the load's
 * transaction so that every statement runs on the one connection that can
 * see it. A leftover table of an earlier load on the same connection is
 * dropped first. The table is schema-qualified (`temp.` on SQLite,
 * `pg_temp.` on PostgreSQL), so it can never shadow or drop a real table.
 *
 * @example const seen = await createSeenIds(trx); const dups = await seen.add(['a', 'b']);
 */
export async function createSeenIds(knex: Knex): Promise<SeenIds> {
  const dialect = dialectOf(knex);
  const name = 'oai_steward_load_seen';
  const table = `${dialect.tempSchema}.${name}`;
  await knex.raw(`DROP TABLE IF EXISTS ${table}`);
  const restoreCache = await dialect.smallTempCache(knex);
  // Compared with items.internal_id, which is bytewise on both (server/db/dialect/).
  // A staged version (of a record that may appear again, newer) also keeps its
  // datestamp, fingerprint, source, the item itself as JSON (so memory holds
  // one batch, not the versions), the order it was first seen in, and the
  // source of a version that conflicts with it.
  const { text, binaryText, bigint } = dialect.types;
  await knex.raw(
    `CREATE TABLE ${table} (internal_id ${binaryText} PRIMARY KEY, ` +
      `seq ${bigint}, datestamp ${bigint}, fingerprint ${text}, source ${text}, item ${text}, conflict ${text})`,
  );
  const unnest = dialect.valuesSql();
  let seq = 0;
  let indexed = false;
  return {
    async add(ids) {
      const dups = new Set<string>();
      for (const part of chunk(ids, MAX_IN_LIST)) {
        const param = inListParam(knex, part);
        const rows = (await knex.raw(`SELECT internal_id FROM ${table} WHERE ${inListSql(knex, 'internal_id', 'text')}`, [param as Knex.Value])) as unknown;
        for (const r of rowsOf<{ internal_id: string }>(rows)) dups.add(r.internal_id);
        const fresh = dups.size === 0 ? part : part.filter((id) => !dups.has(id));
        if (fresh.length > 0) await knex.raw(`INSERT INTO ${table} (internal_id) ${unnest}`, [inListParam(knex, fresh) as Knex.Value]);
      }
      return dups;
    },
    async stage(versions) {
      if (!indexed) {
        // The winners are read back in first-seen order, a page at a time.
        await knex.raw(dialect.tempIndexSql(name, 'seq'));
        indexed = true;
      }
      const ids = [...new Set(versions.map((v) => v.item.internalId))];
      const current = new Map<string, StagedRow>();
      for (const part of chunk(ids, MAX_IN_LIST)) {
        const rows = rowsOf<RawStagedRow>(
          await knex.raw(
            `SELECT internal_id, seq, datestamp, fingerprint, source, item, conflict FROM ${table} WHERE ${inListSql(knex, 'internal_id', 'text')}`,
            [inListParam(knex, part) as Knex.Value],
          ),
        );
        for (const r of rows) current.set(r.internal_id, fromRaw(r));
      }
      const touched = new Set<string>();
      const outcomes = versions.map((v): StageOutcome => {
        const id = v.item.internalId;
        const kept = current.get(id);
        const mine: StagedRow = { seq: kept?.seq ?? ++seq, datestamp: v.datestamp, fingerprint: v.fingerprint, source: v.source, item: v.item, conflict: null };
        const outcome = judge(kept, v);
        if (outcome.kind === 'joined' && kept) {
          current.set(id, { ...kept, ...joined(kept, v) });
          touched.add(id);
        } else if (outcome.kind === 'kept') {
          current.set(id, mine);
          touched.add(id);
        } else if (outcome.kind === 'conflict' && kept) {
          current.set(id, { ...kept, conflict: v.source });
          touched.add(id);
        }
        return outcome;
      });
      const changed = [...touched];
      for (const part of chunk(changed, MAX_IN_LIST)) {
        await knex.raw(`DELETE FROM ${table} WHERE ${inListSql(knex, 'internal_id', 'text')}`, [inListParam(knex, part) as Knex.Value]);
      }
      await insertRows(
        knex,
        table,
        ['internal_id', 'seq', 'datestamp', 'fingerprint', 'source', 'item', 'conflict'],
        changed.map((id) => {
          const r = current.get(id) as StagedRow;
          return [id, r.seq, r.datestamp, r.fingerprint, r.source, r.item === null ? null : JSON.stringify(r.item), r.conflict];
        }),
      );
      return outcomes;
    },
    async *staged(pageSize) {
      let after = 0;
      for (;;) {
        const rows = rowsOf<RawStagedRow>(
          await knex.raw(
            `SELECT internal_id, seq, datestamp, fingerprint, source, item, conflict FROM ${table} WHERE seq > ? AND item IS NOT NULL ORDER BY seq LIMIT ?`,
            [after, pageSize],
          ),
        );
        if (rows.length === 0) return;
        after = toInt(rows[rows.length - 1]?.seq);
        yield rows.map((raw): StagedWinner => {
          const r = fromRaw(raw);
          return r.conflict !== null ? { conflict: { internalId: raw.internal_id, source: r.source ?? '', other: r.conflict } } : { item: r.item as ItemInput };
        });
      }
    },
    async *missing(pageSize) {
      let after = 0;
      for (;;) {
        const rows = (await knex('items')
          .select('pk', 'internal_id')
          .where('deleted', false)
          // A load's --delete-missing reaches local items only: a source's deletions come from its harvests.
          .whereNull('origin')
          .andWhere('pk', '>', after)
          .whereNotExists(knex.select(knex.raw('1')).from(knex.raw(table)).where('internal_id', knex.ref('items.internal_id')))
          .orderBy('pk')
          .limit(pageSize)) as { pk: unknown; internal_id: string }[];
        if (rows.length === 0) return;
        after = toInt(rows[rows.length - 1]?.pk);
        yield rows.map((r) => r.internal_id);
      }
    },
    async drop() {
      await knex.raw(`DROP TABLE IF EXISTS ${table}`);
      await restoreCache();
    },
  };
}

interface RawStagedRow {
  internal_id: string;
  seq: unknown;
  datestamp: unknown;
  fingerprint: string | null;
  source: string | null;
  item: string | null;
  conflict: string | null;
}

/** A row of the table, read: `item` null for an id recorded by `add` (an input whose records cannot be ordered). */
interface StagedRow {
  readonly seq: number | null;
  readonly datestamp: number | null;
  readonly fingerprint: string | null;
  readonly source: string | null;
  readonly item: ItemInput | null;
  readonly conflict: string | null;
}

function fromRaw(r: RawStagedRow): StagedRow {
  const num = (v: unknown): number | null => (v === null || v === undefined ? null : toInt(v));
  return {
    seq: num(r.seq),
    datestamp: num(r.datestamp),
    fingerprint: r.fingerprint,
    source: r.source,
    item: r.item === null ? null : (JSON.parse(r.item) as ItemInput),
    conflict: r.conflict,
  };
}

/**
 * What a new version does to the one kept. A live record given in a format
 * the kept one does not give is that record in another format (a harvest of
 * each metadataPrefix, OAI-PMH 2.0 section 3.4): joined to it, whatever the
 * datestamps. Otherwise the newest datestamp wins; the same datestamp and
 * fingerprint, or the same datestamp and formats the kept one gives with the
 * same XML, is the same version again; the same datestamp with other content
 * is a conflict (which one is right cannot be told); two versions from
 * OAI-PMH responses, one without a datestamp that could be read, are
 * unordered (which is newer cannot be told); otherwise, without datestamps,
 * or against an id given by an input that has none, a second sighting is a
 * repeat.
 *
 * @example judge({ datestamp: 10, fingerprint: 'a', … }, { datestamp: 20, … }) // { kind: 'kept', replaced: … }
 */
export function judge(kept: StagedRow | undefined, v: StagedVersion): StageOutcome {
  if (!kept) return { kind: 'kept' };
  if (kept.item === null) return { kind: 'repeat' };
  if (kept.datestamp === null || v.datestamp === null) {
    // A version from an OAI-PMH response whose header datestamp could not be read (server/loader/xml-record.ts)
    // is still a version: another format of it joins it, and the same format cannot be ordered against it.
    if (kept.item.versioned !== true || v.item.versioned !== true) return { kind: 'repeat' };
    return otherFormats(kept.item, v.item) ? { kind: 'joined' } : { kind: 'unordered', other: kept.source ?? '' };
  }
  if (otherFormats(kept.item, v.item)) return { kind: 'joined' };
  if (v.datestamp > kept.datestamp) return { kind: 'kept', ...(kept.source !== null && { replaced: kept.source }) };
  if (v.datestamp < kept.datestamp) return { kind: 'older' };
  if (v.fingerprint === kept.fingerprint || givenAlready(kept.item, v.item)) return { kind: 'same' };
  return { kind: 'conflict', other: kept.source ?? '' };
}

/** The XML a live version gives, by format (XML read into the model only under its namespace). */
function givenOf(item: ItemInput): Map<string, string> {
  const out = new Map(Object.entries(item.metadata));
  if (item.readFrom !== undefined) out.set(`{${item.readFrom.namespace}}`, item.readFrom.xml);
  return out;
}

/** Whether two live versions give formats that do not overlap. */
function otherFormats(kept: ItemInput, v: ItemInput): boolean {
  if (kept.deleted === true || v.deleted === true) return false;
  const mine = givenOf(kept);
  const theirs = [...givenOf(v).keys()];
  return theirs.length > 0 && mine.size > 0 && theirs.every((p) => !mine.has(p));
}

/** Whether a version gives only formats the kept one gives, with the same XML, and the same sets. */
function givenAlready(kept: ItemInput, v: ItemInput): boolean {
  if (kept.deleted === true || v.deleted === true) return false;
  const mine = givenOf(kept);
  const same = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
    JSON.stringify([...(a ?? [])].sort()) === JSON.stringify([...(b ?? [])].sort());
  return [...givenOf(v)].every(([p, xml]) => mine.get(p) === xml) && same(kept.sets, v.sets);
}

/**
 * A kept version joined by the same record in other formats: every format
 * of both, the sets and header of the newer (the later version on a tie),
 * the about containers of both (each record's provenance, OAI-PMH 2.0
 * section 2.5), the newer datestamp.
 */
function joined(kept: StagedRow, v: StagedVersion): Pick<StagedRow, 'item' | 'datestamp' | 'fingerprint'> {
  const older = kept.item as ItemInput;
  const newer = v.datestamp !== null && kept.datestamp !== null && v.datestamp < kept.datestamp ? older : v.item;
  const other = newer === older ? v.item : older;
  const about = [...(newer.about ?? [])];
  for (const a of other.about ?? []) if (!about.some((b) => b.xml === a.xml)) about.push(a);
  const readFrom = newer.readFrom ?? other.readFrom;
  // The formats of the older version keep their own datestamp, for a migration that keeps datestamps.
  const otherAt = other === older ? kept.datestamp : v.datestamp;
  const newerAt = Math.max(kept.datestamp ?? 0, v.datestamp ?? 0);
  const formatDatestamps: Record<string, number> = { ...(other.formatDatestamps ?? {}), ...(newer.formatDatestamps ?? {}) };
  if (otherAt !== null && otherAt < newerAt) for (const p of Object.keys(other.metadata)) formatDatestamps[p] ??= otherAt;
  let item: ItemInput = {
    ...newer,
    ...(Object.keys(formatDatestamps).length > 0 && { formatDatestamps }),
    metadata: { ...other.metadata, ...newer.metadata },
    identifiers: [...new Set([...(newer.identifiers ?? []), ...(other.identifiers ?? [])])],
    ...(about.length > 0 && { about }),
    ...(readFrom !== undefined && { readFrom }),
  };
  const notes = [...(newer.notes ?? []), ...(other.notes ?? []).filter((n) => !(newer.notes ?? []).some((m) => m.text === n.text))];
  if (notes.length > 0) item = { ...item, notes };
  return { item, datestamp: Math.max(kept.datestamp ?? 0, v.datestamp ?? 0), fingerprint: `${kept.fingerprint ?? ''}+${v.fingerprint}` };
}
