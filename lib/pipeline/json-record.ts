/**
 * The project's record format (docs/record-format.md): one JSON object per
 * record, as in seeds/demo/records.ndjson and as `oai-steward load` reads it.
 *
 *   {"id": "report 12", "datestamp": "2024-03-01T10:00:00Z", "sets": ["physics:hep"],
 *    "deleted": false, "dc": {"title": ["…"], "creator": ["…"]},
 *    "metadata": {"other_prefix": "<x:root …>…</x:root>"}}
 *
 * `id` is required; `datestamp` (UTC, seconds) is optional; `dc` and the
 * structured fields of the model (lib/model/from-json.ts `RECORD_FIELD_KEYS`)
 * are read by `parseRecordFields`; `metadata` holds already serialized XML
 * per metadataPrefix, for a format declared in the configuration or to
 * replace a built-in writer's output (XML given here wins over the writer).
 * A record that gives no model (neither `dc` nor a structured field) but XML
 * in a format with a reader brings no `fields`: the pipeline lifts its model
 * from that XML (./lift.ts), as it lifts a harvested record's.
 *
 * This is the first stage of the write pipeline for a JSON record: reading
 * it into the model and a header. The store's pipeline writes the formats
 * (lib/pipeline/prepare.ts), so nothing here depends on the configuration
 * but the formats a record may give XML in.
 */
import type { FormatRegistry } from '../formats/registry';
import { parseUtcDatetime } from '../oai/dates';
import { parseRecordFields, RECORD_FIELD_KEYS } from '../model/from-json';
import { SET_SPEC } from '../model/header';
import { findNonXmlChar } from '../model/text';
import type { AboutInput, ItemInput } from '../store';
import { undeclaredFormat, type Refusal } from '../model/refusal';

const KEYS = new Set<string>(['id', 'datestamp', 'sets', 'deleted', 'dc', 'metadata', 'about', ...RECORD_FIELD_KEYS]);

/**
 * Checks one parsed JSON value and turns it into an ItemInput, or into the
 * refusals that name the record, the field and the reason.
 * `formats` are the formats a record may give XML in.
 *
 * @example jsonToItem({ id: 'a', dc: { title: 'T' } }, registry, 'x.ndjson:1') // { item: { internalId: 'a', fields: { dc: { title: ['T'] } }, … } }
 * @example jsonToItem({ id: 'b', metadata: { mods: '<mods …>…</mods>' } }, registry, 'x.ndjson:2') // { item: { internalId: 'b', metadata: { mods: '<mods …>…</mods>' }, … } } (no fields: lifted)
 */
export function jsonToItem(value: unknown, formats: FormatRegistry, source: string): { item: ItemInput } | { refusals: Refusal[] } {
  const refusals: Refusal[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { refusals: [{ internalId: '', source, field: 'record', reason: 'a record must be a JSON object' }] };
  }
  const rec = value as Record<string, unknown>;
  const id = typeof rec.id === 'string' ? rec.id : '';
  const refuse = (field: string, reason: string): void => {
    refusals.push({ internalId: id, source, field, reason });
  };
  if (typeof rec.id !== 'string' || rec.id === '') refuse('id', 'required: a non-empty string');
  else {
    const bad = findNonXmlChar(rec.id);
    if (bad) refuse('id', `holds a character XML 1.0 cannot carry (${bad})`);
  }
  for (const k of Object.keys(rec)) if (!KEYS.has(k)) refuse(k, `unknown field (expected ${[...KEYS].join(', ')})`);

  let datestamp: number | undefined;
  if (rec.datestamp !== undefined) {
    const p = typeof rec.datestamp === 'string' ? parseUtcDatetime(rec.datestamp) : null;
    if (!p || p.granularity !== 'second') refuse('datestamp', 'must be YYYY-MM-DDThh:mm:ssZ (UTC, seconds)');
    else datestamp = p.start;
  }
  const deleted = rec.deleted === undefined ? false : rec.deleted;
  if (typeof deleted !== 'boolean') refuse('deleted', 'must be true or false');

  const sets: string[] = [];
  if (rec.sets !== undefined) {
    if (!Array.isArray(rec.sets)) refuse('sets', 'must be an array of setSpecs');
    else {
      for (const s of rec.sets) {
        if (typeof s !== 'string' || !SET_SPEC.test(s)) refuse('sets', `${JSON.stringify(s)} is not a valid setSpec`);
        else sets.push(s);
      }
    }
  }

  const parsed = parseRecordFields(rec, { internalId: id, source });
  if ('refusals' in parsed) refusals.push(...parsed.refusals);
  const given: Record<string, string> = {};
  if (rec.metadata !== undefined) {
    if (typeof rec.metadata !== 'object' || rec.metadata === null || Array.isArray(rec.metadata)) refuse('metadata', 'must map metadataPrefix to XML text');
    else {
      for (const [prefix, xml] of Object.entries(rec.metadata as Record<string, unknown>)) {
        if (!formats.get(prefix)) {
          const { reason, cause } = undeclaredFormat(prefix, undefined);
          refusals.push({ internalId: id, source, field: `metadata.${prefix}`, reason, cause });
        } else if (typeof xml !== 'string' || xml.trim() === '') refuse(`metadata.${prefix}`, 'must be a non-empty XML string');
        else {
          const bad = findNonXmlChar(xml);
          if (bad) refuse(`metadata.${prefix}`, `holds a character XML 1.0 cannot carry (${bad})`);
          else given[prefix] = xml.trim();
        }
      }
    }
  }
  const about = readAbout(rec.about, refuse);
  if (refusals.length > 0 || !('fields' in parsed)) return { refusals };
  // The model the record gives; without one, the model is lifted from the XML it gives (../formats/readers.ts),
  // and XML of a format no reader lifts gives none, so the write decision refuses a record that gives only that:
  // an oai_dc written from an empty model would say nothing of it.
  const givesModel = rec.dc !== undefined || RECORD_FIELD_KEYS.some((k) => rec[k] !== undefined);
  const fields = givesModel || Object.keys(given).length === 0 ? parsed.fields : undefined;
  if (deleted === true) {
    return { item: { internalId: id, ...(datestamp !== undefined && { datestamp }), deleted: true, sets, metadata: {}, source } };
  }
  const item: ItemInput = {
    internalId: id,
    ...(datestamp !== undefined && { datestamp }),
    deleted: false,
    sets,
    metadata: given,
    ...(fields !== undefined && { fields }),
    ...(about.length > 0 && { about }),
    source,
  };
  return { item };
}

/** `about`: the record's about containers, each serialized XML with one root element (checked by the write gate against its namespace's schema). */
function readAbout(raw: unknown, refuse: (field: string, reason: string) => void): AboutInput[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    refuse('about', 'must be an array of XML strings (one about container each)');
    return [];
  }
  const out: AboutInput[] = [];
  raw.forEach((xml: unknown, i) => {
    if (typeof xml !== 'string' || xml.trim() === '') refuse(`about[${i}]`, 'must be a non-empty XML string');
    else {
      const bad = findNonXmlChar(xml);
      if (bad) refuse(`about[${i}]`, `holds a character XML 1.0 cannot carry (${bad})`);
      else out.push({ xml: xml.trim() });
    }
  });
  return out;
}
