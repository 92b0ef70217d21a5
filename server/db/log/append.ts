/**
 * Appending to the publication log: one entry per item a publication
 * published (lib/tlog/entry.ts), in the same transaction as the change and
 * under the store's publication lock (../publication.ts calls
 * {@link prepareAppend} before taking the lock, which reads and hashes, and
 * its `append` after reading the time of publication and before it
 * restamps), so the log's order is the publications' order across every
 * writer, and an entry and the change it records commit or roll back together.
 *
 * The items a publication published are exactly those stamped with its
 * placeholder (new, changed, deleted, moved between sets): an unchanged item
 * is not stamped, so an unchanged reload, a restart or a migration appends
 * nothing. Within one publication the entries follow their identifiers'
 * UTF-8 bytes. An identifier's first entry is `new`; a tombstone that is an
 * identifier's first entry is preceded by a `new` entry of its header.
 */
import type { Knex } from 'knex';
import { formatDatestamp } from '../../../lib/oai/dates';
import { byBytes, encodeEntry, type EntryRecord, type EntryStatus } from '../../../lib/tlog/entry';
import { leafHash } from '../../../lib/tlog/merkle';
import { appendToTiles } from '../../../lib/tlog/tiles';
import { servedRecordHash } from '../../../lib/tlog/verify';
import { chunk, jsonRowsParam, jsonRowsSql, MAX_IN_LIST, SET_SEPARATOR, toBool, toInt } from '../dialect';
import { insertRows } from '../statements';
import { loggedItems, readEdge, readHead, rootOfEdge, writeHead, writeTiles } from './tables';

/** A live record the store keeps without XML (a format written on demand): the item, its identifier and the prefix. */
export interface Unwritten {
  readonly pk: number;
  readonly identifier: string;
  readonly prefix: string;
}

/** Writes records the store keeps without XML, reading through `db`, keyed `${pk} ${prefix}` (server/store/on-demand.ts `writeOnDemand`). */
export type WriteUnwritten = (db: Knex, wanted: readonly Unwritten[]) => Promise<ReadonlyMap<string, string>>;

interface ItemRow {
  pk: number;
  identifier: string;
  deleted: boolean;
  datestamp: number;
  sets: string[];
}

/** An item's state as a log entry tells it: its header, and for a live item its records. */
export interface ItemSnapshot extends ItemRow {
  readonly records: readonly EntryRecord[];
}

/** Items whose records are read and hashed at a time: a publication of a whole load holds one part's XML, never the load's. */
const SNAPSHOT_PART = 500;

/** Items whose entries a publication appends at a time, from the stored hashes: a few megabytes of entries, a few statements under the lock. */
const APPEND_PART = 5000;

/** How {@link snapshots} reads records. */
export interface SnapshotOptions {
  /** Records kept without XML are written by it; without it they are left out of the entry. */
  readonly writeUnwritten?: WriteUnwritten;
  /**
   * Take a record's hash from `records.log_hash` where the write pipeline
   * stored it, reading and hashing only the rows without one: what a
   * publication does. Without it every record is hashed from its XML as
   * served (a check of the log against what is served must not trust it).
   */
  readonly storedHashes?: boolean;
}

const withLogHash = new WeakSet<object>();

/**
 * Whether the write path keeps each record's log hash: the schema has the
 * log (migration 019) and `records.log_hash` (migration 021). A store not yet
 * migrated to them (written as the release before wrote, in the upgrade
 * tests) has neither, and pays nothing for them.
 */
export async function keepsLogHashes(db: Knex): Promise<boolean> {
  return (await hasLog(db)) && (await hasLogHashColumn(db));
}

/** Whether the schema has `records.log_hash`, asked once per connection configuration once there. */
async function hasLogHashColumn(db: Knex): Promise<boolean> {
  const config = (db.client as { config?: object }).config;
  if (config !== undefined && withLogHash.has(config)) return true;
  const has = await db.schema.hasColumn('records', 'log_hash');
  if (has && config !== undefined) withLogHash.add(config);
  return has;
}

/**
 * The snapshots of items `pks` as served once `stamp` becomes `at`
 * (datestamps equal to `stamp` read as `at`), a part at a time.
 */
export async function snapshots(db: Knex, pks: readonly number[], stamp: number, at: number, options: SnapshotOptions = {}): Promise<ItemSnapshot[]> {
  const out: ItemSnapshot[] = [];
  const stored = options.storedHashes === true && (await keepsLogHashes(db));
  for (const part of chunk(pks, SNAPSHOT_PART)) out.push(...(await snapshotsOf(db, part, stamp, at, stored, options.writeUnwritten)));
  return out;
}

async function snapshotsOf(
  db: Knex,
  pks: readonly number[],
  stamp: number,
  at: number,
  stored: boolean,
  writeUnwritten?: WriteUnwritten,
): Promise<ItemSnapshot[]> {
  const when = (d: unknown): string => formatDatestamp(toInt(d) === stamp ? at : toInt(d));
  const items: ItemRow[] = [];
  const rows = (await db('items').whereIn('pk', pks).select('pk', 'identifier', 'deleted', 'datestamp', 'direct_sets')) as {
    pk: unknown;
    identifier: string;
    deleted: unknown;
    datestamp: unknown;
    direct_sets: string | null;
  }[];
  for (const r of rows) {
    items.push({
      pk: toInt(r.pk),
      identifier: r.identifier,
      deleted: toBool(r.deleted),
      datestamp: toInt(r.datestamp),
      sets: r.direct_sets === null || r.direct_sets === '' ? [] : r.direct_sets.split(SET_SEPARATOR),
    });
  }
  // A stored hash spares reading the XML; a row without one is read (and, kept without XML, written) to be hashed.
  const columns = stored
    ? ['item_pk', 'prefix', db.raw('CASE WHEN log_hash IS NULL THEN xml END AS xml'), 'log_hash', 'datestamp']
    : ['item_pk', 'prefix', 'xml', db.raw('NULL AS log_hash'), 'datestamp'];
  const recs = (await db('records').whereIn('item_pk', pks).select(columns)) as {
    item_pk: unknown;
    prefix: string;
    xml: string | null;
    log_hash: string | null;
    datestamp: unknown;
  }[];
  const records = new Map<number, { prefix: string; xml: string | null; hash: string | null; datestamp: unknown }[]>();
  for (const r of recs) {
    const pk = toInt(r.item_pk);
    records.set(pk, [...(records.get(pk) ?? []), { prefix: r.prefix, xml: r.xml, hash: r.log_hash, datestamp: r.datestamp }]);
  }
  const unwritten: Unwritten[] = [];
  for (const item of items) {
    if (item.deleted) continue;
    for (const r of records.get(item.pk) ?? [])
      if (r.xml === null && r.hash === null) unwritten.push({ pk: item.pk, identifier: item.identifier, prefix: r.prefix });
  }
  const written = unwritten.length > 0 && writeUnwritten ? await writeUnwritten(db, unwritten) : new Map<string, string>();
  return items.map((item) => {
    const lines: EntryRecord[] = [];
    if (!item.deleted) {
      for (const r of records.get(item.pk) ?? []) {
        const xml = r.xml ?? written.get(`${item.pk} ${r.prefix}`);
        const hash = r.hash ?? (xml === undefined ? undefined : servedRecordHash(xml));
        if (hash !== undefined) lines.push({ prefix: r.prefix, datestamp: when(r.datestamp), hash });
      }
    }
    return { ...item, datestamp: item.datestamp === stamp ? at : item.datestamp, records: lines };
  });
}

/** The items among `pks` that have a leaf already. */
async function logged(db: Knex, pks: readonly number[]): Promise<Set<number>> {
  const out = new Set<number>();
  for (const part of chunk(pks, MAX_IN_LIST)) {
    const rows = (await db('log_leaves').whereIn('item_pk', part).distinct('item_pk')) as { item_pk: unknown }[];
    for (const r of rows) out.add(toInt(r.item_pk));
  }
  return out;
}

/** An entry to append, the item it is about, and whether it is the item's first. */
export interface Appended {
  readonly pk: number;
  readonly entry: Buffer;
  readonly first: boolean;
}

/** The entries of `items` in their order; `seen` are the items that have a leaf already. */
export function entriesOf(items: readonly ItemSnapshot[], seen: ReadonlySet<number>): Appended[] {
  const out: Appended[] = [];
  for (const item of items) {
    const base = { identifier: item.identifier, datestamp: formatDatestamp(item.datestamp), sets: item.sets };
    const first = !seen.has(item.pk);
    const status: EntryStatus = item.deleted ? 'deleted' : first ? 'new' : 'changed';
    if (item.deleted && first) out.push({ pk: item.pk, entry: encodeEntry({ ...base, status: 'new', records: [] }), first: true });
    out.push({ pk: item.pk, entry: encodeEntry({ ...base, status, records: item.records }), first: first && !item.deleted });
  }
  return out;
}

/** Appends entries to the log: leaves, tiles and head, in the caller's transaction. Returns the new size. */
export async function appendEntries(db: Knex, entries: readonly Appended[]): Promise<number> {
  const head = await readHead(db);
  if (entries.length === 0) return head.size;
  const edge = await readEdge(db, head.size);
  await insertRows(
    db,
    'log_leaves',
    ['idx', 'item_pk', 'entry'],
    entries.map((e, i) => [head.size + i, e.pk, e.entry]),
  );
  const changed = appendToTiles(
    head.size,
    new Map([...edge].map(([level, t]) => [level, t.hashes])),
    entries.map((e) => leafHash(e.entry)),
  );
  await writeTiles(db, changed);
  const size = head.size + entries.length;
  // The rightmost tile of each level after the append: the highest index written at that level, else the one before.
  const after = new Map(edge);
  for (const t of [...changed].sort((a, b) => a.n - b.n)) after.set(t.level, { n: t.n, hashes: t.hashes });
  await writeHead(db, { size, root: rootOfEdge(size, after) }, entries.filter((e) => e.first).length);
  return size;
}

/** Connection configurations whose schema was seen to have the log (once there, its tables stay). */
const withLog = new WeakSet<object>();

/**
 * Whether the schema has the log: a store not yet migrated to it (written
 * as the release before wrote, in the upgrade tests) appends nothing; its
 * migration makes the log of what it holds then.
 */
async function hasLog(db: Knex): Promise<boolean> {
  const config = (db.client as { config?: object }).config;
  if (config !== undefined && withLog.has(config)) return true;
  const has = await db.schema.hasTable('log_head');
  if (has && config !== undefined) withLog.add(config);
  return has;
}

/**
 * Items without a leaf: a new item written with the datestamp it was given
 * (`keepDatestamp`: the demo repository, `load --keep-datestamps`) is not
 * stamped, yet it is published. Found by a count, so a publication pays
 * one count of the items when there are none.
 */
export async function unlogged(db: Knex): Promise<number[]> {
  const total = toInt(((await db('items').count('* as n')) as { n: unknown }[])[0]?.n ?? 0);
  if (total === (await loggedItems(db))) return [];
  const rows = (await db('items as i')
    .whereNotExists(db('log_leaves as l').whereRaw('l.item_pk = i.pk').select(db.raw('1')))
    .select('i.pk')) as { pk: unknown }[];
  return rows.map((r) => toInt(r.pk));
}

/** A publication's entries, read and hashed before the publication lock is taken; appended under it. */
export interface PreparedAppend {
  /** Whether the publication has no event to log. */
  readonly empty: boolean;
  /** Appends the entries, the publication's time being `at`; under the publication lock. */
  append(at: number): Promise<void>;
}

const NOTHING_TO_APPEND: PreparedAppend = { empty: true, append: async () => undefined };

/**
 * The records of items `pks` without a log hash, with their XML and their
 * items' identifiers and deleted status: found by the partial index of such
 * records (migration 022), never by reading every record of the items.
 */
export function unloggedRecords(db: Knex, pks: readonly number[]): Knex.QueryBuilder {
  return db('records as r')
    .join('items as i', 'i.pk', 'r.item_pk')
    .whereIn('r.item_pk', pks)
    .whereNull('r.log_hash')
    .select('r.item_pk', 'r.prefix', 'r.xml', 'i.identifier', 'i.deleted');
}

/**
 * Gives every live record of items `pks` that has no log hash one (its XML
 * read, or written on demand by `writeUnwritten`, and hashed), a part at a
 * time: a record written before `records.log_hash` was, or an item without
 * a leaf yet. What the write path stored is left as it is.
 */
async function fillLogHashes(db: Knex, pks: readonly number[], writeUnwritten?: WriteUnwritten): Promise<void> {
  const update = `UPDATE records SET log_hash = v.log_hash FROM ${jsonRowsSql(db, [
    ['item_pk', 'int'],
    ['prefix', 'text'],
    ['log_hash', 'text'],
  ])} AS v WHERE records.item_pk = v.item_pk AND records.prefix = v.prefix`;
  for (const part of chunk(pks, SNAPSHOT_PART)) {
    const rows = (await unloggedRecords(db, part)) as {
      item_pk: unknown;
      prefix: string;
      xml: string | null;
      identifier: string;
      deleted: unknown;
    }[];
    const live = rows.filter((r) => !toBool(r.deleted));
    if (live.length === 0) continue;
    const unwritten = live.filter((r) => r.xml === null).map((r) => ({ pk: toInt(r.item_pk), identifier: r.identifier, prefix: r.prefix }));
    const written = unwritten.length > 0 && writeUnwritten ? await writeUnwritten(db, unwritten) : new Map<string, string>();
    const hashes: [number, string, string][] = [];
    for (const r of live) {
      const xml = r.xml ?? written.get(`${toInt(r.item_pk)} ${r.prefix}`);
      if (xml !== undefined) hashes.push([toInt(r.item_pk), r.prefix, servedRecordHash(xml)]);
    }
    if (hashes.length > 0) await db.raw(update, [jsonRowsParam(hashes)]);
  }
}

/** Items `pks` in the order of their identifiers' UTF-8 bytes: a publication's entries' order. */
async function inIdentifierOrder(db: Knex, pks: readonly number[]): Promise<number[]> {
  const rows: { pk: number; identifier: string }[] = [];
  for (const part of chunk(pks, MAX_IN_LIST)) {
    for (const r of (await db('items').whereIn('pk', part).select('pk', 'identifier')) as { pk: unknown; identifier: string }[])
      rows.push({ pk: toInt(r.pk), identifier: r.identifier });
  }
  return rows.sort((a, b) => byBytes(a.identifier, b.identifier)).map((r) => r.pk);
}

/**
 * What the publication whose placeholder is `stamp` logs: one entry per
 * item stamped `stamp`, and one per item without a leaf (see
 * {@link unlogged}). Before publish() takes the publication lock (here),
 * every record of them gets its log hash where the write path stored none
 * (`fillLogHashes`: the only C14N and hashing a publication does) and the
 * items are put in order; under the lock, `append` makes the entries from
 * the stored hashes and appends them a part at a time, so a publication
 * holds one part's entries, however many items it published.
 */
export async function prepareAppend(db: Knex, stamp: number, writeUnwritten?: WriteUnwritten): Promise<PreparedAppend> {
  if (!(await hasLog(db))) return NOTHING_TO_APPEND;
  const pks = ((await db('items').where('datestamp', stamp).select('pk')) as { pk: unknown }[]).map((r) => toInt(r.pk));
  const stamped = new Set(pks);
  for (const pk of await unlogged(db)) if (!stamped.has(pk)) pks.push(pk);
  if (pks.length === 0) return NOTHING_TO_APPEND;
  // A schema without the column (written as the release before wrote) has every record hashed from its XML as it is appended.
  if (await keepsLogHashes(db)) await fillLogHashes(db, pks, writeUnwritten);
  const order = await inIdentifierOrder(db, pks);
  return {
    empty: false,
    async append(at: number): Promise<void> {
      for (const part of chunk(order, APPEND_PART)) {
        const read = await snapshots(db, part, stamp, at, { ...(writeUnwritten && { writeUnwritten }), storedHashes: true });
        const byPk = new Map(read.map((s) => [s.pk, s]));
        await appendEntries(
          db,
          entriesOf(
            part.flatMap((pk) => byPk.get(pk) ?? []),
            await logged(db, part),
          ),
        );
      }
    },
  };
}
