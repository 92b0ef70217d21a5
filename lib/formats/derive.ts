/**
 * Runs every crosswalk of a list of formats over one record, once, at load
 * time: the metadata the item has in each format, and for each format it
 * does not have, why. OAI-PMH 2.0 section 3.4 lets an item have some
 * formats and not others; `notOffered` is what ListMetadataFormats with
 * `identifier` and `cannotDisseminateFormat` are built on.
 *
 * Pure: no I/O, no clock.
 */
import type { RecordFields } from '../model/record';
import { isNotOffered, type CrosswalkContext } from './format';
import type { MetadataFormat } from './format';

/** An item's crosswalked metadata by metadataPrefix, and the reason for each format it lacks. */
export interface DerivedFormats {
  readonly metadata: Readonly<Record<string, string>>;
  readonly notOffered: Readonly<Record<string, string>>;
}

/**
 * Crosswalks a record to every format of the list that has a record
 * crosswalk (`fromRecord`); formats without one (oai_dc, made from Dublin
 * Core, and formats loaded as XML) are left to their own path.
 *
 * @example
 * deriveFormats(BUILT_IN_FORMATS, { dc: { title: ['T'] } }, { oaiIdentifier: 'oai:x.org:1', options: {} })
 * // → { metadata: { marc21: '<record …', mods: '<mods …' }, notOffered: { oai_openaire: 'OpenAIRE v4 needs …', datacite: …, oai_datacite: … } }
 */
export function deriveFormats(formats: readonly MetadataFormat[], record: RecordFields, ctx: CrosswalkContext): DerivedFormats {
  const metadata: Record<string, string> = {};
  const notOffered: Record<string, string> = {};
  for (const f of formats) {
    if (!f.fromRecord) continue;
    // A format's configured options (e.g. oai_datacite's datacentreSymbol) over the context's.
    const out = f.fromRecord(record, f.options ? { ...ctx, options: { ...ctx.options, ...f.options } } : ctx);
    if (isNotOffered(out)) notOffered[f.prefix] = out.notOffered;
    else metadata[f.prefix] = out;
  }
  return { metadata, notOffered };
}
