/**
 * The project's record format (README "Record format"): one JSON object per
 * record, as in seeds/demo/records.ndjson and as `oai-steward load` reads it.
 *
 *   {"id": "report 12", "datestamp": "2024-03-01T10:00:00Z", "sets": ["physics:hep"],
 *    "deleted": false, "dc": {"title": ["…"], "creator": ["…"]},
 *    "metadata": {"other_prefix": "<x:root …>…</x:root>"}}
 *
 * `id` is required; `datestamp` (UTC, seconds) is optional; `dc` and the
 * structured fields of lib/records/fields.ts (`RECORD_FIELD_KEYS`) are read by
 * `parseRecordFields`; `metadata` holds already serialized XML per
 * metadataPrefix, for a format declared in the configuration or to replace a
 * built-in crosswalk's output (XML given here wins over the crosswalk).
 *
 * Every crosswalk of the configured formats runs here, once, when the record
 * is read (never per request): oai_dc from `dc`, the others from the typed
 * record (lib/formats/derive.ts). Their output is valid by construction (the
 * crosswalk tests prove it against the published XSDs), so the item names
 * those prefixes in `derived` and the write gate checks them only for being
 * one well-formed element; XML the record gives is XSD-validated.
 */
import { deriveFormats } from '../formats/derive';
import type { DublinCore } from '../model/dublin-core';
import { profileDublinCore, type OaiDcProfile } from '../formats/oai-dc-profile';
import type { FormatRegistry } from '../formats/registry';
import { parseUtcDatetime } from '../oai/dates';
import { parseRecordFields, RECORD_FIELD_KEYS } from '../model/from-json';
import { type RecordFields } from '../model/record';
import { SET_SPEC } from '../model/header';
import { findNonXmlChar } from '../model/text';
import type { AboutInput, ItemInput } from '../store';
import type { Refusal } from '../model/refusal';

/** The identifiers of one item that the crosswalks write (README "Metadata formats"). */
export interface ItemIdentifiers {
  readonly oaiIdentifier: string;
  /** The item's POI (http://purl.org/poi/…). */
  readonly poi?: string;
}

/** How records become store items. */
export interface RecordConversion {
  /** The formats offered, with their configured options. */
  readonly formats: FormatRegistry;
  /**
   * Extra dc:identifier values for an item's oai_dc (e.g. its POI), computed
   * from the internal id; may throw for an id the policy refuses (the write
   * path reports that refusal).
   */
  readonly extraIdentifiers?: (internalId: string) => readonly string[];
  /**
   * The item's oai-identifier and POI, through the id policy, for the
   * crosswalks that have a place for them; may throw like `extraIdentifiers`.
   * Without it only oai_dc is made.
   */
  readonly itemIdentifiers?: (internalId: string) => ItemIdentifiers;
  /**
   * The oai_dc profile (`oaiDcProfile`): `openaire3` adds the info:eu-repo
   * terms of OpenAIRE 3.0 derived from the record fields
   * (lib/formats/oai-dc-profile.ts). Default `plain`.
   */
  readonly oaiDcProfile?: OaiDcProfile;
}

const KEYS = new Set<string>(['id', 'datestamp', 'sets', 'deleted', 'dc', 'metadata', 'about', ...RECORD_FIELD_KEYS]);

/**
 * Checks one parsed JSON value and turns it into an ItemInput, or into the
 * refusals that name the record, the field and the reason.
 * Example: `jsonToItem({ id: 'a', dc: { title: 'T' } }, conv, 'x.ndjson:1')`.
 */
export function jsonToItem(value: unknown, conv: RecordConversion, source: string): { item: ItemInput } | { refusals: Refusal[] } {
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
        if (!conv.formats.get(prefix)) refuse(`metadata.${prefix}`, 'unknown metadataPrefix (not in the format registry)');
        else if (typeof xml !== 'string' || xml.trim() === '') refuse(`metadata.${prefix}`, 'must be a non-empty XML string');
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
  const fields = parsed.fields;
  if (deleted === true) {
    const identifiers = [...(fields.dc.identifier ?? [])];
    return { item: { internalId: id, ...(datestamp !== undefined && { datestamp }), deleted: true, sets, metadata: {}, identifiers, source } };
  }
  const { metadata, derived, identifiers } = crosswalkItem(conv, id, fields, given);
  const item: ItemInput = {
    internalId: id,
    ...(datestamp !== undefined && { datestamp }),
    deleted: false,
    sets,
    metadata,
    derived,
    fields,
    identifiers,
    ...(deleted !== true && about.length > 0 && { about }),
    source,
  };
  return { item };
}

/**
 * An item's metadata in every configured format: the XML the record gives
 * (`given`, by prefix) as it is, oai_dc from Dublin Core (with the extra
 * identifiers, e.g. the POI), and every other built-in format crosswalked
 * from the typed record with the item's oai-identifier and POI. `derived`
 * names the prefixes a crosswalk made; `identifiers` is the record's
 * dc:identifier values followed by the others a crosswalk wrote as
 * dc:identifier (the extra identifiers, e.g. the POI), the item's own
 * identifier fields: the write gate does not read a crosswalk's output back
 * for them (lib/store.ts `ItemInput.derived`). Pure and deterministic: the
 * loader runs it once per record, `rebuild-formats` again over the stored
 * fields.
 *
 * @example crosswalkItem(conv, 'report 12', { dc: { title: ['T'] } }, {}).derived // ['oai_dc', 'marc21', 'mods'] with every built-in format configured
 */
export function crosswalkItem(
  conv: RecordConversion,
  internalId: string,
  fields: RecordFields,
  given: Readonly<Record<string, string>>,
): { metadata: Record<string, string>; derived: string[]; identifiers: string[] } {
  const metadata: Record<string, string> = {};
  const derived: string[] = [];
  let extra: readonly string[] = [];
  let ids: ItemIdentifiers | undefined;
  try {
    extra = conv.extraIdentifiers ? conv.extraIdentifiers(internalId) : [];
    ids = conv.itemIdentifiers?.(internalId);
  } catch {
    // The write path refuses the id itself, with the policy's reason.
  }
  const dc: DublinCore = profileDublinCore(fields, conv.oaiDcProfile ?? 'plain');
  const withExtra: DublinCore = extra.length === 0 ? dc : { ...dc, identifier: [...(dc.identifier ?? []), ...extra.filter((x) => !(dc.identifier ?? []).includes(x))] };
  const identifiers = [...(fields.dc.identifier ?? [])];
  const open = conv.formats.all().filter((f) => given[f.prefix] === undefined);
  const fromRecord = ids ? deriveFormats(open, fields, { oaiIdentifier: ids.oaiIdentifier, ...(ids.poi !== undefined && { poi: ids.poi }), options: {} }).metadata : {};
  // In the registry's order, so the stored order never depends on the input's.
  for (const f of conv.formats.all()) {
    const own = given[f.prefix];
    if (own !== undefined) metadata[f.prefix] = own;
    else if (f.fromDublinCore) {
      metadata[f.prefix] = f.fromDublinCore(withExtra);
      derived.push(f.prefix);
      for (const v of withExtra.identifier ?? []) if (!identifiers.includes(v)) identifiers.push(v);
    } else if (fromRecord[f.prefix] !== undefined) {
      metadata[f.prefix] = fromRecord[f.prefix] as string;
      derived.push(f.prefix);
    }
  }
  return { metadata, derived, identifiers };
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
