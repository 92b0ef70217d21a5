/**
 * Formats written when they are asked for. A store configured with
 * `writtenFormats: on-demand` keeps an item's model (`record_fields`), the
 * XML the record gave and the formats `storedFormats` names (by default
 * oai_dc, which every harvester asks for), and a
 * `records` row without XML for each other format the pipeline wrote
 * (lib/pipeline/prepare.ts `written`): the row still says the
 * item is offered in that format (ListMetadataFormats, lists by prefix). The
 * content hash is computed at load over every format as written, exactly as
 * when they are stored, so datestamps move exactly when what an item
 * disseminates moves; reading writes the format again from the stored model
 * with the same function (`writeFormatOf`), which gives the same bytes as long
 * as the writers' version and the formats' configuration are the same: their
 * fingerprint is kept in `settings` and compared before anything is written
 * on demand, and a store written under another one is refused until
 * `oai-steward rebuild-formats` has re-stamped what changed.
 *
 * A live item's row without XML is such a format; a tombstone's rows have no
 * XML either and are never written (OAI-PMH 2.0 section 2.5.1).
 */
import type { Knex } from 'knex';
import { preparationFingerprint, writeFormatOf, type Preparation } from '../../lib/pipeline/prepare';
import type { RecordFields } from '../../lib/model/record';
import { chunk, inListParam, inListSql, MAX_IN_LIST, toInt } from '../db/dialect';
import { statementRunner } from '../db/statements';

/** The `settings` key of the fingerprint the formats written on demand stand for. */
export const WRITTEN_FORMATS_KEY = 'written_formats_fingerprint';

/** How a store writes formats on demand: the preparation they are written under, and its fingerprint. */
export interface OnDemand {
  readonly preparation: Preparation;
  readonly fingerprint: string;
}

/** @example onDemandOf(preparation).fingerprint // 'w2:…' */
export function onDemandOf(preparation: Preparation): OnDemand {
  return { preparation, fingerprint: preparationFingerprint(preparation) };
}

/** A format of a live item whose XML the store does not keep. */
export interface Wanted {
  readonly pk: number;
  /** The item's published oai-identifier, which the writers write (governance keeps it). */
  readonly identifier: string;
  readonly prefix: string;
}

/** The formats were written on demand under another configuration or version of the writers than this process has. */
export class WrittenFormatsChanged extends Error {
  constructor(
    readonly stored: string,
    readonly configured: string,
  ) {
    super(
      `this store writes its formats on demand under another formats configuration or version of the writers ` +
        `(stored ${stored}, configured ${configured}); run \`oai-steward rebuild-formats\` with this configuration first: ` +
        `it re-stamps exactly the items whose output changes`,
    );
    this.name = 'WrittenFormatsChanged';
  }
}

/** The fingerprint the store's formats written on demand stand for; null when it has none. */
export async function storedFingerprint(db: Knex): Promise<string | null> {
  const [row] = await statementRunner(db)<{ value: string }>('SELECT value FROM settings WHERE key = ?', [WRITTEN_FORMATS_KEY]);
  return row ? row.value : null;
}

/**
 * Throws {@link WrittenFormatsChanged} when the store writes formats on
 * demand under another fingerprint than `od`'s: what start-up, the loader
 * and every on-demand read check.
 *
 * @example await checkFingerprint(knex, onDemandOf(preparation))
 */
export async function checkFingerprint(db: Knex, od: OnDemand): Promise<void> {
  const stored = await storedFingerprint(db);
  if (stored !== null && stored !== od.fingerprint) throw new WrittenFormatsChanged(stored, od.fingerprint);
}

/**
 * Makes `od`'s fingerprint the one the store's formats stand for: before a
 * write leaves formats to be written on demand (a different stored one
 * refuses it), and, with `adopt`, by `rebuild-formats`, whose writes then
 * re-stamp every item whose output differs under it.
 */
export async function claimFingerprint(db: Knex, od: OnDemand, adopt = false): Promise<void> {
  const stored = await storedFingerprint(db);
  if (stored === od.fingerprint) return;
  if (stored !== null && !adopt) throw new WrittenFormatsChanged(stored, od.fingerprint);
  if (stored === null) await db('settings').insert({ key: WRITTEN_FORMATS_KEY, value: od.fingerprint });
  else await db('settings').where('key', WRITTEN_FORMATS_KEY).update({ value: od.fingerprint });
}

/** The formats written from the model and the given other one of the pair (lib/pipeline/datacite-pair.ts). */
const PAIRED: ReadonlySet<string> = new Set(['datacite', 'oai_datacite']);

/** The key of a wanted format in {@link writeOnDemand}'s answer. */
export const wantedKey = (pk: number, prefix: string): string => `${pk} ${prefix}`;

/**
 * Writes the wanted formats from the items' stored models, in one query a
 * chunk of items, keyed by {@link wantedKey}. Throws when this process
 * cannot write them as they were hashed ({@link WrittenFormatsChanged}, or
 * no configuration) or an item has no model to write from.
 *
 * @example (await writeOnDemand(knex, od, [{ pk: 7, identifier: 'oai:x.org:7', prefix: 'mods' }])).get('7 mods')
 */
export async function writeOnDemand(db: Knex, od: OnDemand | undefined, wanted: readonly Wanted[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (wanted.length === 0) return out;
  if (!od) throw new Error('this store keeps some formats as models only, and this reader was given no formats configuration to write them');
  await checkFingerprint(db, od);
  const models = new Map<number, RecordFields>();
  const pairs = new Map<number, Record<string, string>>();
  const run = statementRunner(db);
  for (const part of chunk([...new Set(wanted.map((w) => w.pk))], MAX_IN_LIST)) {
    const rows = await run<{ item_pk: unknown; fields: string }>(`SELECT item_pk, fields FROM record_fields WHERE ${inListSql(db, 'item_pk')}`, [
      inListParam(db, part),
    ]);
    for (const r of rows) models.set(toInt(r.item_pk), JSON.parse(r.fields) as RecordFields);
    // datacite and oai_datacite serve one record: a stored one of the pair is what the other is made from (lib/pipeline/datacite-pair.ts).
    if (wanted.some((w) => PAIRED.has(w.prefix) && part.includes(w.pk))) {
      const kept = await run<{ item_pk: unknown; prefix: string; xml: string }>(
        `SELECT item_pk, prefix, xml FROM records WHERE prefix IN ('datacite', 'oai_datacite') AND xml IS NOT NULL AND ${inListSql(db, 'item_pk')}`,
        [inListParam(db, part)],
      );
      for (const r of kept) (pairs.get(toInt(r.item_pk)) ?? pairs.set(toInt(r.item_pk), {}).get(toInt(r.item_pk))!)[r.prefix] = r.xml;
    }
  }
  for (const w of wanted) {
    const model = models.get(w.pk);
    const xml = model && writeFormatOf(od.preparation, w.prefix, model, w.identifier, pairs.get(w.pk));
    if (xml === undefined) throw new Error(`item ${w.identifier} has no stored ${w.prefix} and no model it can be written from`);
    out.set(wantedKey(w.pk, w.prefix), xml);
  }
  return out;
}
