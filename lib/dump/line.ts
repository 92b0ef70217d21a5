/**
 * The lines of a bulk dump's JSON lines file (docs/dumps.md): one JSON
 * object a line, the repository's sets first, then its items.
 *
 *   {"set":{"spec":"physics","name":"Physics","descriptions":[]}}
 *   {"id":"report 12","header":{"identifier":"oai:example.org:report%2012","datestamp":"2026-11-01T10:00:00Z","deleted":false,"sets":["physics"]},
 *    "model":{"dc":{…},…},"modelFrom":"record","given":[],"metadata":{"oai_dc":"<oai_dc:dc …>…</oai_dc:dc>",…},"about":[]}
 *   {"id":"report 13","header":{…,"deleted":true,…},"formats":["oai_dc","marc21"]}
 *
 * A line says everything a harvest of the item shows (its header, its
 * metadata in every format, its about containers) and what the repository
 * needs to publish it again: the internal id, the record model, which
 * formats the record gave as XML (`given`) and which the write pipeline
 * wrote from the model, and where the model came from (`modelFrom`:
 * `record` when the record gave it, else the prefix it was lifted from).
 *
 * Reading a line back ({@link dumpLineToItem}) gives the write pipeline the
 * record as it was first given: the model and the XML the record gave (the
 * pipeline writes the other formats again, identically under the same
 * configuration), or, for a model lifted from a format, that format's XML
 * (the pipeline lifts the same model again). Nothing a line says skips a
 * check: the model is read by the record format's reader, the XML is judged
 * by its format's check, identifiers by governance.
 *
 * Pure: no I/O, no clock.
 */
import type { FormatRegistry } from '../formats/registry';
import { parseRecordFields } from '../model/from-json';
import { isValidSetSpec } from '../model/header';
import { findNonXmlChar } from '../model/text';
import type { Refusal } from '../model/refusal';
import type { RecordFields } from '../model/record';
import { formatDatestamp, parseUtcDatetime } from '../oai/dates';
import type { AboutInput, ItemInput, ScannedItem, SetDeparture, SetInfo } from '../store';

/** `modelFrom` of a record that gave its own model. */
export const MODEL_FROM_RECORD = 'record';

/** A set line. */
export interface DumpSetLine {
  readonly set: { readonly spec: string; readonly name: string; readonly descriptions: readonly string[] };
}

/** An item line. */
export interface DumpItemLine {
  /** The repository's internal id (the oai-identifier is the header's). */
  readonly id: string;
  /** The harvested source the item came from (its id space, `NAME:…`); absent for a local item. */
  readonly origin?: string;
  readonly header: { readonly identifier: string; readonly datestamp: string; readonly deleted: boolean; readonly sets: readonly string[] };
  /** The datestamps of the item's records earlier than the header's, by metadataPrefix (absent when none is). */
  readonly datestamps?: Readonly<Record<string, string>>;
  /** Live items: the record model, when the store holds one. */
  readonly model?: RecordFields;
  /** Live items with a model: `record`, or the metadataPrefix (or `{namespace}`) it was lifted from. */
  readonly modelFrom?: string;
  /** Live items: the prefixes of `metadata` the record gave as XML (the others were written from the model). */
  readonly given?: readonly string[];
  /** Live items: metadataPrefix → the metadata element exactly as GetRecord serves it. */
  readonly metadata?: Readonly<Record<string, string>>;
  /** Live items: the about containers, in order (`compareAs`: what decides whether one changed, when less than its XML). */
  readonly about?: readonly AboutInput[];
  /** Deleted items: the formats the tombstone is listed under. */
  readonly formats?: readonly string[];
  /** Sets the item left, and when: a harvest of each reports it deleted (absent when none). */
  readonly departures?: readonly { readonly spec: string; readonly at: string }[];
}

/**
 * The line of a set, as ListSets shows it.
 *
 * @example setLine({ spec: 'a', name: 'A', descriptions: [] }) // { set: { spec: 'a', name: 'A', descriptions: [] } }
 */
export function setLine(s: SetInfo): DumpSetLine {
  return { set: { spec: s.spec, name: s.name, descriptions: [...s.descriptions] } };
}

/**
 * The line of a stored item (lib/store/write.ts `ScannedItem`).
 *
 * @example itemLine(scanned).header.datestamp // '2026-11-01T10:00:00Z'
 */
export function itemLine(item: ScannedItem, departures: readonly SetDeparture[] = []): DumpItemLine {
  const header = { identifier: item.identifier, datestamp: formatDatestamp(item.datestamp), deleted: item.deleted, sets: [...item.sets] };
  const prefixes = Object.keys(item.metadata).sort();
  const left = departures.length > 0 ? { departures: departures.map((d) => ({ spec: d.spec, at: formatDatestamp(d.at) })) } : {};
  const origin = {
    ...(item.origin !== undefined && { origin: item.origin }),
    ...(item.formatDatestamps !== undefined && {
      datestamps: Object.fromEntries(
        Object.entries(item.formatDatestamps)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([p, d]) => [p, formatDatestamp(d)]),
      ),
    }),
  };
  if (item.deleted) return { id: item.internalId, ...origin, header, formats: prefixes, ...left };
  const metadata: Record<string, string> = {};
  for (const p of prefixes) {
    const xml = item.metadata[p];
    if (typeof xml === 'string') metadata[p] = xml;
  }
  const written = new Set(item.fields !== undefined ? (item.written ?? []) : []);
  return {
    id: item.internalId,
    ...origin,
    header,
    ...(item.fields !== undefined && { model: item.fields, modelFrom: item.liftedFrom ?? MODEL_FROM_RECORD }),
    given: Object.keys(metadata).filter((p) => !written.has(p)),
    metadata,
    about: (item.about ?? []).map((a) => (a.compareAs === undefined ? { xml: a.xml } : { xml: a.xml, compareAs: a.compareAs })),
    ...left,
  };
}

/** Whether a parsed JSON value is a dump's set line. */
export function isDumpSetLine(v: unknown): v is { set: unknown } {
  return isObject(v) && 'set' in v && !('id' in v);
}

/** Whether a parsed JSON value is a dump's item line (a record of the record format has no `header`). */
export function isDumpItemLine(v: unknown): boolean {
  return isObject(v) && 'header' in v && 'id' in v;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/**
 * A set line as the store declares it, or why it cannot be.
 *
 * @example dumpSetToInput({ set: { spec: 'a', name: 'A', descriptions: [] } }, 'dump.jsonl.gz:1') // { set: { spec: 'a', name: 'A' } }
 */
export function dumpSetToInput(v: { set: unknown }, source: string): { set: { spec: string; name: string; descriptions?: string[] } } | { refusal: Refusal } {
  const s = v.set;
  const refuse = (field: string, reason: string) => ({ refusal: { internalId: '', source, field, reason } });
  if (!isObject(s) || typeof s.spec !== 'string' || typeof s.name !== 'string') return refuse('set', 'must be an object with a string "spec" and "name"');
  if (!isValidSetSpec(s.spec)) return refuse('set.spec', `${JSON.stringify(s.spec)} is not a valid setSpec`);
  const descriptions = s.descriptions ?? [];
  if (!isStringList(descriptions)) return refuse(`set ${s.spec}`, '"descriptions" must be an array of XML strings');
  return { set: { spec: s.spec, name: s.name, ...(descriptions.length > 0 && { descriptions }) } };
}

/** What reading an item line needs of the repository. */
export interface DumpReadContext {
  /** The formats a record may give XML in. */
  readonly formats: FormatRegistry;
  /** The repository's id policy: the line's identifier must be what it publishes the id as. */
  readonly unmap: (identifier: string) => string | null;
}

/**
 * An item line as the write pipeline takes it (see the file's comment), or
 * the refusals naming the line, the field and the reason.
 *
 * @example dumpLineToItem(JSON.parse(line), { formats, unmap: policy.unmap }, 'dump.jsonl.gz:2')
 */
export function dumpLineToItem(value: unknown, ctx: DumpReadContext, source: string): { item: ItemInput } | { refusals: Refusal[] } {
  const rec = value as Obj;
  const id = typeof rec.id === 'string' ? rec.id : '';
  const refusals: Refusal[] = [];
  const refuse = (field: string, reason: string): void => {
    refusals.push({ internalId: id, source, field, reason });
  };
  if (id === '') refuse('id', 'required: a non-empty string');
  else if (findNonXmlChar(id)) refuse('id', `holds a character XML 1.0 cannot carry (${findNonXmlChar(id) ?? ''})`);
  const header = isObject(rec.header) ? rec.header : {};
  if (!isObject(rec.header)) refuse('header', 'must be an object');
  if (typeof header.identifier !== 'string') refuse('header.identifier', 'required: a string');
  else if (id !== '' && ctx.unmap(header.identifier) !== id) {
    refuse(
      'header.identifier',
      `${JSON.stringify(header.identifier)} is not what this repository's id policy publishes the id as; load a dump into a repository with the namespace and id policy of the one that wrote it`,
    );
  }
  const parsed = typeof header.datestamp === 'string' ? parseUtcDatetime(header.datestamp) : null;
  if (!parsed || parsed.granularity !== 'second') refuse('header.datestamp', 'must be YYYY-MM-DDThh:mm:ssZ (UTC, seconds)');
  if (typeof header.deleted !== 'boolean') refuse('header.deleted', 'must be true or false');
  const sets = isStringList(header.sets) ? header.sets : [];
  if (!isStringList(header.sets)) refuse('header.sets', 'must be an array of setSpecs');
  for (const s of sets) if (!isValidSetSpec(s)) refuse('header.sets', `${JSON.stringify(s)} is not a valid setSpec`);
  const departures = readDepartures(rec.departures, refuse);
  if (rec.origin !== undefined && (typeof rec.origin !== 'string' || rec.origin === '' || !id.startsWith(`${rec.origin}:`))) {
    refuse('origin', 'must name the harvested source whose id space (NAME:…) the id is in');
  }
  // A copy of this repository keeps where each harvested item came from: its source's id space.
  const origin = typeof rec.origin === 'string' && rec.origin !== '' ? { harvestedFrom: rec.origin } : {};
  const formatDatestamps = readFormatDatestamps(rec.datestamps, parsed?.start, refuse);
  const base = {
    internalId: id,
    ...(parsed && { datestamp: parsed.start }),
    sets,
    ...(departures.length > 0 && { departures }),
    ...origin,
    ...(formatDatestamps && { formatDatestamps }),
    source,
  };

  if (header.deleted === true) {
    const formats = rec.formats ?? [];
    if (!isStringList(formats)) refuse('formats', 'must be an array of metadataPrefixes');
    else for (const p of formats) if (!ctx.formats.get(p)) refuse('formats', `${JSON.stringify(p)} is not a metadataPrefix of this repository`);
    if (refusals.length > 0) return { refusals };
    // A tombstone names the formats it is listed under (lib/store/ ItemInput.metadata).
    return { item: { ...base, deleted: true, metadata: Object.fromEntries((formats as string[]).map((p) => [p, ''])) } };
  }

  const metadata: Record<string, string> = {};
  if (!isObject(rec.metadata)) refuse('metadata', 'must map metadataPrefix to XML text');
  else {
    for (const [p, xml] of Object.entries(rec.metadata)) {
      if (typeof xml !== 'string' || xml.trim() === '') refuse(`metadata.${p}`, 'must be a non-empty XML string');
      else if (findNonXmlChar(xml)) refuse(`metadata.${p}`, `holds a character XML 1.0 cannot carry (${findNonXmlChar(xml) ?? ''})`);
      else metadata[p] = xml;
    }
  }
  const given = rec.given ?? Object.keys(metadata);
  if (!isStringList(given)) refuse('given', 'must be an array of metadataPrefixes');
  else for (const p of given) if (metadata[p] === undefined) refuse('given', `names ${JSON.stringify(p)}, which "metadata" does not hold`);
  const about = readAbout(rec.about, refuse);

  let fields: RecordFields | undefined;
  const modelFrom = rec.modelFrom;
  if (rec.model !== undefined) {
    if (!isObject(rec.model)) refuse('model', 'must be an object (the record model)');
    else {
      // The model is read as the record format's fields are: every value checked again.
      const read = parseRecordFields(rec.model, { internalId: id, source });
      if ('refusals' in read) refusals.push(...read.refusals.map((r) => ({ ...r, field: `model.${r.field}` })));
      else fields = read.fields;
    }
    if (typeof modelFrom !== 'string') refuse('modelFrom', `required with "model": "${MODEL_FROM_RECORD}" or the metadataPrefix it was lifted from`);
  }
  if (refusals.length > 0) return { refusals };

  const givenList = given as string[];
  const pick = (prefixes: readonly string[]): Record<string, string> => Object.fromEntries(prefixes.map((p) => [p, metadata[p] as string]));
  const common = { ...base, deleted: false, ...(about.length > 0 && { about }) };
  if (fields !== undefined && modelFrom === MODEL_FROM_RECORD) {
    // The record gave its model: the pipeline writes every format it did not give.
    return { item: { ...common, fields, metadata: pick(givenList) } };
  }
  if (fields !== undefined && typeof modelFrom === 'string' && givenList.includes(modelFrom)) {
    // The model was lifted from XML the record gave: the pipeline lifts it again.
    return { item: { ...common, metadata: pick(givenList) } };
  }
  // A model lifted from XML the store does not keep, or none: every format is given as served.
  return { item: { ...common, ...(fields !== undefined && { fields }), metadata: { ...metadata } } };
}

/** `departures`: the sets the item left, each `{ spec, at }` (the pipeline's judge checks them against the item). */
function readDepartures(raw: unknown, refuse: (field: string, reason: string) => void): SetDeparture[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    refuse('departures', 'must be an array of {"spec", "at"}');
    return [];
  }
  const out: SetDeparture[] = [];
  raw.forEach((d: unknown, i) => {
    const at = isObject(d) && typeof d.at === 'string' ? parseUtcDatetime(d.at) : null;
    if (!isObject(d) || typeof d.spec !== 'string') refuse(`departures[${i}]`, 'must be {"spec": a setSpec, "at": YYYY-MM-DDThh:mm:ssZ}');
    else if (!at || at.granularity !== 'second') refuse(`departures[${i}].at`, 'must be YYYY-MM-DDThh:mm:ssZ (UTC, seconds)');
    else out.push({ spec: d.spec, at: at.start });
  });
  return out;
}

/** `about`: the item's about containers, each `{ xml, compareAs? }`. */
function readAbout(raw: unknown, refuse: (field: string, reason: string) => void): AboutInput[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    refuse('about', 'must be an array of {"xml", "compareAs"?}');
    return [];
  }
  const out: AboutInput[] = [];
  raw.forEach((a: unknown, i) => {
    if (!isObject(a) || typeof a.xml !== 'string' || a.xml.trim() === '')
      refuse(`about[${i}]`, 'must be {"xml": a non-empty XML string, "compareAs"?: a string}');
    else if (a.compareAs !== undefined && typeof a.compareAs !== 'string') refuse(`about[${i}].compareAs`, 'must be a string');
    else if (findNonXmlChar(a.xml)) refuse(`about[${i}]`, `holds a character XML 1.0 cannot carry (${findNonXmlChar(a.xml) ?? ''})`);
    else out.push(typeof a.compareAs === 'string' ? { xml: a.xml, compareAs: a.compareAs } : { xml: a.xml });
  });
  return out;
}

/** A line's `datestamps` (metadataPrefix → a datestamp no later than the header's), refused field by field. */
function readFormatDatestamps(value: unknown, header: number | undefined, refuse: (field: string, reason: string) => void): Record<string, number> | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) {
    refuse('datestamps', 'must map metadataPrefix to a datestamp');
    return undefined;
  }
  const out: Record<string, number> = {};
  for (const [prefix, text] of Object.entries(value)) {
    const p = typeof text === 'string' ? parseUtcDatetime(text) : null;
    if (!p || p.granularity !== 'second') refuse(`datestamps.${prefix}`, 'must be YYYY-MM-DDThh:mm:ssZ (UTC, seconds)');
    else if (header !== undefined && p.start > header)
      refuse(`datestamps.${prefix}`, "lies after the header's datestamp: a record's datestamp is never later than its item's");
    else out[prefix] = p.start;
  }
  return out;
}
