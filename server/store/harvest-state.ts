/**
 * The harvest state in the store (migration 006_harvest_state): per
 * source, metadataPrefix and set, the last list harvested to its end and
 * the checkpoint of a list under way (lib/store/bookkeeping.ts `HarvestState`,
 * `HarvestBookkeeping`). Checkpoints are written with `trx`, the
 * transaction of the page they follow, so a page and the promise to go on
 * after it commit together or not at all.
 */
import type { Knex } from 'knex';
import type { ListKey, ListState, PageCheckpoint } from '../../lib/store';

interface Row {
  source: string;
  prefix: string;
  set_spec: string;
  base_url: string | null;
  last_response_date: string | null;
  last_from: string | null;
  last_success: number | string | null;
  run_response_date: string | null;
  token: string | null;
  checkpoint_from: string | null;
  checkpoint_until: string | null;
  run_marks_seen: unknown;
  run_pages: number | string;
  run_records: number | string;
  run_refused: number | string;
  records: number | string;
  refused: number | string;
  last_error: string | null;
  last_error_at: number | string | null;
  last_attempt: number | string | null;
}

const n = (v: number | string): number => Number(v);
const nn = (v: number | string | null): number | null => (v === null ? null : Number(v));

function fromRow(r: Row): ListState {
  return {
    source: r.source,
    prefix: r.prefix,
    set: r.set_spec,
    baseUrl: r.base_url ?? null,
    lastResponseDate: r.last_response_date,
    lastFrom: r.last_from,
    lastSuccess: nn(r.last_success),
    runResponseDate: r.run_response_date,
    token: r.token,
    checkpointFrom: r.checkpoint_from,
    checkpointUntil: r.checkpoint_until,
    runMarksSeen: r.run_marks_seen === true || r.run_marks_seen === 1,
    runPages: n(r.run_pages),
    runRecords: n(r.run_records),
    runRefused: n(r.run_refused),
    records: n(r.records),
    refused: n(r.refused),
    lastError: r.last_error,
    lastErrorAt: nn(r.last_error_at),
    lastAttempt: nn(r.last_attempt),
  };
}

/**
 * The rows of one source (or of every source), in (source, prefix, set) order.
 *
 * @example (await readStates(knex, 'arxiv'))[0]?.lastSuccess
 */
export async function readStates(knex: Knex, source?: string): Promise<ListState[]> {
  const q = knex<Row>('harvest_state').select('*').orderBy(['source', 'prefix', 'set_spec']);
  if (source !== undefined) void q.where({ source });
  return ((await q) as Row[]).map(fromRow);
}

/**
 * One list's row, made when missing; `baseUrl`, when given, recorded as
 * the URL the list is harvested from (so the source can be harvested again
 * by its name).
 *
 * @example await listState(knex, { source: 'arxiv', prefix: 'oai_dc', set: '' }, 'https://export.arxiv.org/oai2')
 */
export async function listState(knex: Knex, key: ListKey, baseUrl?: string): Promise<ListState> {
  const { source, prefix, set } = key;
  const where = { source, prefix, set_spec: set };
  await knex('harvest_state').insert(where).onConflict(['source', 'prefix', 'set_spec']).ignore();
  const before = (await knex<Row>('harvest_state').where(where).first()) as Row;
  if (baseUrl === undefined || before.base_url === baseUrl) return fromRow(before);
  // Another base URL is another repository's list: its resumption token and its clock mean nothing
  // there (OAI-PMH 2.0 section 3.5: a token is the repository's own), so the list starts afresh.
  const moved = before.base_url !== null && before.base_url !== undefined;
  const fresh = moved ? { token: null, run_response_date: null, checkpoint_from: null, checkpoint_until: null, last_response_date: null, last_from: null } : {};
  await knex('harvest_state')
    .where(where)
    .update({ base_url: baseUrl, ...fresh });
  const row = (await knex<Row>('harvest_state').where(where).first()) as Row;
  return { ...fromRow(row), ...(moved && { movedFrom: before.base_url as string }) };
}

/**
 * Records a page in its list's row, inside the page's transaction.
 *
 * @example await checkpoint(trx, key, { token: 'next', from: null, until: null, runResponseDate, first: true, marksSeen: false, records: 100, refused: 0, now })
 */
export async function checkpoint(trx: Knex, key: ListKey, c: PageCheckpoint): Promise<void> {
  const where = { source: key.source, prefix: key.prefix, set_spec: key.set };
  const run = c.first
    ? { run_pages: 1, run_records: c.records, run_refused: c.refused, run_marks_seen: c.marksSeen }
    : { run_pages: trx.raw('run_pages + 1'), run_records: trx.raw('run_records + ?', [c.records]), run_refused: trx.raw('run_refused + ?', [c.refused]) };
  const totals = { records: trx.raw('records + ?', [c.records]), refused: trx.raw('refused + ?', [c.refused]), last_attempt: c.now };
  const end =
    c.token === null
      ? {
          token: null,
          run_response_date: null,
          checkpoint_from: null,
          checkpoint_until: null,
          last_response_date: c.runResponseDate,
          last_from: c.from,
          last_success: c.now,
          last_error: null,
          last_error_at: null,
        }
      : { token: c.token, run_response_date: c.runResponseDate, checkpoint_from: c.from, checkpoint_until: c.until };
  await trx('harvest_state')
    .where(where)
    .update({ ...run, ...totals, ...end });
}

/**
 * Records why a list stopped (outside any page's transaction); the checkpoint stays.
 *
 * @example await recordError(knex, key, 'arxiv: Identify failed', now)
 */
export async function recordError(knex: Knex, key: ListKey, message: string, now: number): Promise<void> {
  await knex('harvest_state').insert({ source: key.source, prefix: key.prefix, set_spec: key.set }).onConflict(['source', 'prefix', 'set_spec']).ignore();
  await knex('harvest_state')
    .where({ source: key.source, prefix: key.prefix, set_spec: key.set })
    .update({ last_error: message, last_error_at: now, last_attempt: now });
}

/**
 * Forgets a list's checkpoint (the list starts again from its `from`).
 *
 * @example await dropCheckpoint(knex, { source: 'arxiv', prefix: 'oai_dc', set: '' })
 */
export async function dropCheckpoint(knex: Knex, key: ListKey): Promise<void> {
  await knex('harvest_state')
    .where({ source: key.source, prefix: key.prefix, set_spec: key.set })
    .update({ token: null, run_response_date: null, checkpoint_from: null, checkpoint_until: null, run_marks_seen: false });
}

/**
 * Records the internal ids a `--delete-missing` run has harvested, inside the page's transaction.
 *
 * @example await markSeen(trx, 'arxiv', ['arxiv:oai:arXiv.org:1'])
 */
export async function markSeen(trx: Knex, source: string, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 400) {
    const rows = ids.slice(i, i + 400).map((internal_id) => ({ source, internal_id }));
    if (rows.length > 0) await trx('harvest_seen').insert(rows).onConflict(['source', 'internal_id']).ignore();
  }
}

/**
 * Forgets the ids seen by a source's earlier `--delete-missing` run.
 *
 * @example await clearSeen(knex, 'arxiv')
 */
export async function clearSeen(knex: Knex, source: string): Promise<void> {
  await knex('harvest_seen').where({ source }).delete();
}

/**
 * Local items (no origin) whose internal id starts `SPACE:`, up to `limit`.
 *
 * @example await localItemsInSpace(knex, 'demo', 3) // ['demo:1', 'demo:10', 'demo:11']
 */
export async function localItemsInSpace(knex: Knex, space: string, limit: number): Promise<string[]> {
  const prefix = `${space}:`;
  const rows = (await knex('items')
    .select('internal_id')
    .whereRaw('substr(internal_id, 1, ?) = ?', [prefix.length, prefix])
    .whereNull('origin')
    .orderBy('internal_id')
    .limit(limit)) as { internal_id: string }[];
  return rows.map((r) => r.internal_id);
}

/**
 * Live items of the source (internal id `NAME:…`) its `--delete-missing`
 * run never harvested, a page at a time, after `after` (internal id order).
 *
 * @example await unseenItems(knex, 'arxiv', '', 500) // ['arxiv:oai:arXiv.org:7', …]
 */
export async function unseenItems(knex: Knex, source: string, after: string, limit: number): Promise<string[]> {
  const prefix = `${source}:`;
  const rows = (await knex('items as i')
    .select('i.internal_id')
    .whereRaw('substr(i.internal_id, 1, ?) = ?', [prefix.length, prefix])
    .andWhere('i.internal_id', '>', after)
    .andWhere('i.deleted', false)
    .whereNotExists(knex('harvest_seen as s').select(knex.raw('1')).where('s.source', source).whereRaw('s.internal_id = i.internal_id'))
    .orderBy('i.internal_id')
    .limit(limit)) as { internal_id: string }[];
  return rows.map((r) => r.internal_id);
}
