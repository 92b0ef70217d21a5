/**
 * The project's record format (README "Record format"): one JSON object per
 * record, as in seeds/demo/records.ndjson and as `oai-steward load` reads it.
 *
 *   {"id": "report 12", "datestamp": "2024-03-01T10:00:00Z", "sets": ["physics:hep"],
 *    "deleted": false, "dc": {"title": ["…"], "creator": ["…"]},
 *    "metadata": {"other_prefix": "<x:root …>…</x:root>"}}
 *
 * `id` is required; `datestamp` (UTC, seconds) is optional; `dc` holds the
 * fifteen Dublin Core elements as arrays of strings (a single string is
 * accepted too) and becomes oai_dc through the format registry; `metadata`
 * holds already serialized XML per metadataPrefix (oai_dc there wins over `dc`).
 */
import { DC_ELEMENTS } from '../formats/oai-dc';
import type { DublinCore, DcElement } from '../formats/oai-dc';
import type { FormatRegistry } from '../formats/registry';
import { parseUtcDatetime } from '../oai/dates';
import { SET_SPEC } from './rules';
import { findNonXmlChar } from '../xml/chars';
import type { AboutInput, ItemInput, Refusal } from '../store';

/** How records become store items. */
export interface RecordConversion {
  readonly formats: FormatRegistry;
  /**
   * Extra dc:identifier values for an item (e.g. its POI), computed from the
   * internal id; may throw for an id the policy refuses (the write path
   * reports that refusal).
   */
  readonly extraIdentifiers?: (internalId: string) => readonly string[];
}

const KEYS = new Set(['id', 'datestamp', 'sets', 'deleted', 'dc', 'metadata', 'about']);

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

  const dc = readDublinCore(rec.dc, refuse);
  const metadata: Record<string, string> = {};
  if (rec.metadata !== undefined) {
    if (typeof rec.metadata !== 'object' || rec.metadata === null || Array.isArray(rec.metadata)) refuse('metadata', 'must map metadataPrefix to XML text');
    else {
      for (const [prefix, xml] of Object.entries(rec.metadata as Record<string, unknown>)) {
        if (!conv.formats.get(prefix)) refuse(`metadata.${prefix}`, 'unknown metadataPrefix (not in the format registry)');
        else if (typeof xml !== 'string' || xml.trim() === '') refuse(`metadata.${prefix}`, 'must be a non-empty XML string');
        else {
          const bad = findNonXmlChar(xml);
          if (bad) refuse(`metadata.${prefix}`, `holds a character XML 1.0 cannot carry (${bad})`);
          else metadata[prefix] = xml.trim();
        }
      }
    }
  }

  const about = readAbout(rec.about, refuse);
  const identifiers = [...(dc.identifier ?? [])];
  if (refusals.length > 0) return { refusals };
  if (deleted !== true) {
    let extra: readonly string[] = [];
    try {
      extra = conv.extraIdentifiers ? conv.extraIdentifiers(id) : [];
    } catch {
      // The write path refuses the id itself, with the policy's reason.
    }
    const withExtra: DublinCore = { ...dc, identifier: [...(dc.identifier ?? []), ...extra.filter((x) => !(dc.identifier ?? []).includes(x))] };
    for (const f of conv.formats.all()) {
      if (metadata[f.prefix] === undefined && f.fromDublinCore) metadata[f.prefix] = f.fromDublinCore(withExtra);
    }
  }
  const item: ItemInput = {
    internalId: id,
    ...(datestamp !== undefined && { datestamp }),
    deleted: deleted === true,
    sets,
    metadata: deleted === true ? {} : metadata,
    identifiers,
    ...(deleted !== true && about.length > 0 && { about }),
    source,
  };
  return { item };
}

function readDublinCore(raw: unknown, refuse: (field: string, reason: string) => void): DublinCore {
  const dc: Partial<Record<DcElement, string[]>> = {};
  if (raw === undefined) return dc;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    refuse('dc', 'must be an object of Dublin Core elements');
    return dc;
  }
  for (const [name, values] of Object.entries(raw as Record<string, unknown>)) {
    if (!(DC_ELEMENTS as readonly string[]).includes(name)) {
      refuse(`dc.${name}`, 'not one of the fifteen Dublin Core elements');
      continue;
    }
    const list = typeof values === 'string' ? [values] : values;
    if (!Array.isArray(list) || list.some((v) => typeof v !== 'string')) {
      refuse(`dc.${name}`, 'must be a string or an array of strings');
      continue;
    }
    for (const v of list as string[]) {
      const bad = findNonXmlChar(v);
      if (bad) refuse(`dc.${name}`, `holds a character XML 1.0 cannot carry (${bad})`);
    }
    dc[name as DcElement] = list as string[];
  }
  return dc;
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
