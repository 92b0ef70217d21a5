/**
 * The reading half of a load: every input, whatever its kind, as one stream
 * of events in input order (a record read, an input fault, sets declared).
 * Nothing here writes; ./load.ts takes the events to the store.
 */
import fs from 'node:fs';
import { BUILT_IN_FORMATS, type FormatRegistry } from '../../lib/formats/registry';
import type { IdPolicy } from '../../lib/ids/policy';
import { jsonToItem } from '../../lib/pipeline/json-record';
import { dumpLineToItem, dumpSetToInput, isDumpItemLine, isDumpSetLine } from '../../lib/dump/line';
import { isDataciteJson, readDataciteJson, type DataciteJsonRecord } from '../../lib/formats/datacite-json';
import { parseUtcDatetime } from '../../lib/oai/dates';
import { dublinCoreToOaiDc } from '../../lib/formats/oai-dc';
import type { ItemInput, SetInput } from '../../lib/store';
import type { Refusal } from '../../lib/model/refusal';
import { folderFiles, idOfFile, type ByteCounter, type Input } from './input';
import { readJsonArray, readNdjson } from './read-json';
import { readOaiXml } from './read-oai-xml';
import { type CollectionShape, type XmlEvent, type XmlRecord } from './xml-events';
import { parseFragment } from '../../lib/xml/tree';
import { internalIdFor, xmlToItem } from './xml-record';
import type { ReadLimits } from './limits';

/** What reading needs to know about the repository. */
export interface ReadContext {
  readonly policy: Pick<IdPolicy, 'namespace' | 'unmap'>;
  readonly formats: FormatRegistry;
  /** Bytes read so far, shared with the inputs (for progress). */
  readonly counter: ByteCounter;
  /** The bounds of reading (./limits.ts); the defaults when absent. */
  readonly limits?: ReadLimits;
}

/** One thing read from an input. */
export type LoadEvent =
  /**
   * A record (converted, or refused with its reasons) with the internal id it
   * names (null: none known). `versioned`: read from an OAI-PMH response,
   * whose header datestamp orders versions of one record (incremental
   * harvest files), so a later, newer version may replace it. `foreign`: its
   * header identifier is another repository's (not in this repository's
   * namespace), so its datestamp is that repository's and never this store's.
   */
  | {
      readonly kind: 'record';
      readonly result: { item: ItemInput } | { refusals: Refusal[] };
      readonly id: string | null;
      readonly versioned?: boolean;
      readonly foreign?: boolean;
      /** Where the internal id was found when the record itself names it (a record of a collection), for a repeated id's refusal. */
      readonly idFrom?: string;
    }
  /** Part of an input that is not a record at all (a broken file, a bad file name). */
  | { readonly kind: 'fault'; readonly refusal: Refusal }
  /** Sets declared by an input (a ListSets response), given once it has been read to the end. */
  | { readonly kind: 'sets'; readonly sets: readonly SetInput[]; readonly source: string };

/**
 * The inputs in load order: ListSets responses first, since records may
 * only name declared sets.
 *
 * @example setsFirst([records, listSets]) // [listSets, records]
 */
export function setsFirst(inputs: readonly Input[]): Input[] {
  return [...inputs].sort((a, b) => Number(b.isListSets) - Number(a.isListSets));
}

/**
 * Reads one input to the end as events.
 *
 * @example for await (const ev of readInput(input, ctx)) if (ev.kind === 'record') …
 */
export async function* readInput(input: Input, ctx: ReadContext): AsyncGenerator<LoadEvent> {
  if (input.kind === 'ndjson' || input.kind === 'json-array') {
    yield* readJson(input, ctx);
  } else if (input.kind === 'xml') {
    // A saved response, or one bare metadata document (a DataCite or OpenAIRE file), named by its file.
    yield* readXml(
      input.name,
      readOaiXml(input.chunks(), 'auto', ctx.limits, collectionsOf(ctx.formats)),
      input.name === '-' ? undefined : idOfFile(input.name),
      ctx,
    );
  } else {
    for await (const f of folderFiles(input.name, ctx.counter)) {
      if (f.internalId === null) {
        yield {
          kind: 'fault',
          refusal: { internalId: '', source: f.file, field: 'file name', reason: 'the file name is not valid percent-encoding, so it names no internal id' },
        };
        continue;
      }
      yield* readXml(f.file, readOaiXml(f.chunks, 'bare', ctx.limits, collectionsOf(ctx.formats)), f.internalId, ctx);
    }
  }
}

async function* readJson(input: Input, ctx: ReadContext): AsyncGenerator<LoadEvent> {
  const entries = input.kind === 'ndjson' ? readNdjson(input.chunks(), ctx.limits) : readJsonArray(input.chunks(), ctx.limits);
  for await (const e of entries) {
    const source = input.kind === 'ndjson' ? `${input.name}:${e.line}` : `${input.name}:${e.line} (record ${e.number})`;
    if ('error' in e) {
      yield { kind: 'record', result: { refusals: [{ internalId: '', source, field: 'record', reason: e.error }] }, id: null };
      continue;
    }
    // The JSON lines of a bulk dump (lib/dump/line.ts): sets, then items with their headers.
    if (isDumpSetLine(e.value)) {
      const s = dumpSetToInput(e.value, source);
      if ('refusal' in s) yield { kind: 'fault', refusal: s.refusal };
      else yield { kind: 'sets', sets: [s.set], source };
      continue;
    }
    if (isDumpItemLine(e.value)) {
      const id = (e.value as { id?: unknown }).id;
      yield {
        kind: 'record',
        result: dumpLineToItem(e.value, { formats: ctx.formats, unmap: (i) => ctx.policy.unmap(i) }, source),
        id: typeof id === 'string' ? id : null,
      };
      continue;
    }
    if (isDataciteJson(e.value)) {
      // DataCite JSON as DataCite's REST API and its JSON serialization give it: one record, or a list.
      for (const r of readDataciteJson(e.value, source)) {
        if ('refusals' in r)
          yield { kind: 'record', result: { refusals: [...r.refusals] }, id: r.refusals.find((x) => x.internalId !== '')?.internalId ?? null };
        else yield { kind: 'record', result: { item: dataciteItem(r.record, source) }, id: r.record.internalId };
      }
      continue;
    }
    const v = e.value as { id?: unknown } | null;
    const id = typeof v === 'object' && v !== null && typeof v.id === 'string' ? v.id : null;
    yield { kind: 'record', result: jsonToItem(e.value, ctx.formats, source), id };
  }
}

/** A DataCite JSON record as the store takes it: its model, and its `updated` time as its datestamp. */
function dataciteItem(r: DataciteJsonRecord, source: string): ItemInput {
  const datestamp = r.datestamp === undefined ? undefined : parseUtcDatetime(r.datestamp)?.start;
  return { internalId: r.internalId, ...(datestamp !== undefined && { datestamp }), fields: r.fields, metadata: {}, source };
}

async function* readXml(name: string, events: AsyncIterable<XmlEvent>, bareId: string | null | undefined, ctx: ReadContext): AsyncGenerator<LoadEvent> {
  let requestPrefix: string | undefined;
  let origin: { baseURL?: string; responseDate?: string } = {};
  const sets: SetInput[] = [];
  for await (const ev of events) {
    if (ev.kind === 'request') {
      requestPrefix = ev.metadataPrefix;
      origin = { ...(ev.baseURL !== undefined && { baseURL: ev.baseURL }), ...(ev.responseDate !== undefined && { responseDate: ev.responseDate }) };
    } else if (ev.kind === 'fault') yield { kind: 'fault', refusal: { internalId: '', source: `${name}:${ev.line}`, field: 'xml', reason: ev.reason } };
    else if (ev.kind === 'set') sets.push(ev.set);
    // A saved page's token cannot be followed from a file; the records it holds are what is loaded.
    else if (ev.kind === 'resumption') continue;
    else if (ev.member === true) yield memberEvent(name, ev, bareId, ctx);
    else if (ev.bare === true && (bareId === undefined || bareId === null)) {
      const why =
        bareId === undefined
          ? 'a bare metadata document read from standard input has no file name to take its internal id from; save it as a file'
          : 'the file name is not valid percent-encoding, so it names no internal id';
      yield { kind: 'fault', refusal: { internalId: '', source: name, field: 'file name', reason: why } };
    } else {
      const internalId = ev.bare === true ? (bareId as string) : undefined;
      const source = internalId !== undefined ? name : `${name}:${ev.line} (record ${ev.number})`;
      const context = {
        policy: ctx.policy,
        formats: ctx.formats,
        origin,
        ...(requestPrefix !== undefined && { requestPrefix }),
        ...(internalId !== undefined && { internalId }),
      };
      const r = xmlToItem(ev, context, source);
      const id = 'item' in r ? r.item.internalId : (r.refusals.find((x) => x.internalId !== '')?.internalId ?? null);
      const mapped = internalId === undefined ? internalIdFor(ctx.policy, ev.identifier?.trim() ?? '') : undefined;
      const foreign = mapped !== undefined && !('own' in mapped && mapped.own);
      yield { kind: 'record', result: r, id, ...(internalId === undefined && { versioned: true }), ...(foreign && { foreign: true }) };
    }
  }
  if (sets.length > 0) yield { kind: 'sets', sets, source: name };
}

/**
 * The containers of records the built-in formats declare
 * (lib/formats/format.ts `collection`): a bare document with one of them at
 * its root is split into its records, whatever prefix the repository serves
 * that namespace under (a MARCXML `collection` is split where MARCXML is
 * declared as `marcxml` as where it is `marc21`; lib/formats/readers.ts).
 *
 * @example collectionsOf(formats) // [{ namespace: 'http://www.loc.gov/MARC21/slim', container: 'collection', record: 'record' }, …]
 */
export function collectionsOf(formats: FormatRegistry): CollectionShape[] {
  const all = [...formats.all(), ...BUILT_IN_FORMATS];
  const shapes = all.flatMap((f) => (f.collection ? [{ namespace: f.namespace, container: f.collection.container, record: f.collection.record }] : []));
  return shapes.filter((c, i) => shapes.findIndex((d) => d.namespace === c.namespace && d.container === c.container) === i);
}

/**
 * The internal id of a record of a collection: the record's own identifier
 * (the `collection.ownId` of the reader of its namespace: MARC 001, MODS
 * recordInfo/recordIdentifier else identifier), else the id its file names
 * (./input.ts `idOfFile`) with `#` and its position in the collection
 * (`catalogue.xml`'s third record: `catalogue#3`); null, with the reason,
 * when it has neither.
 *
 * @example memberId(record, 'catalogue', formats) // { id: '991000000269703811', from: 'its 001 control field' }
 */
export function memberId(rec: XmlRecord, fileId: string | null | undefined, formats: FormatRegistry): { id: string; from: string } | { error: string } {
  const format = [...formats.all(), ...BUILT_IN_FORMATS].find((f) => f.namespace === rec.metadataNamespace && f.collection !== undefined);
  const root = rec.metadata === undefined ? null : parseFragment(rec.metadata);
  const own = format?.collection && root ? format.collection.ownId(root) : undefined;
  if (own !== undefined) return own;
  if (typeof fileId === 'string') return { id: `${fileId}#${rec.number}`, from: 'its file name and position, for want of an own identifier' };
  return {
    error:
      fileId === undefined
        ? 'the record names no identifier of its own, and a collection read from standard input has no file name to name it by; save it as a file'
        : 'the record names no identifier of its own, and the file name is not valid percent-encoding, so it names no internal id',
  };
}

/** A record of a collection as the loader takes it: named by {@link memberId}, read as a bare document of its format is. */
function memberEvent(name: string, rec: XmlRecord, fileId: string | null | undefined, ctx: ReadContext): LoadEvent {
  const source = `${name}:${rec.line} (record ${rec.number})`;
  const named = memberId(rec, fileId, ctx.formats);
  if ('error' in named) return { kind: 'record', result: { refusals: [{ internalId: '', source, field: 'id', reason: named.error }] }, id: null };
  const r = xmlToItem(rec, { policy: ctx.policy, formats: ctx.formats, internalId: named.id }, source);
  return { kind: 'record', result: r, id: named.id, idFrom: named.from };
}

/**
 * Reads a JSON file of set declarations; `description` (text) becomes an oai_dc setDescription (OAI-PMH 4.6).
 *
 * @example readSetsFile('seeds/demo/sets.json')[0]?.spec
 */
export function readSetsFile(file: string): SetInput[] {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a JSON array of {"spec", "name", "description"?}`);
  return raw.map((s: unknown, i) => {
    const o = s as { spec?: unknown; name?: unknown; description?: unknown; descriptions?: unknown };
    if (typeof o?.spec !== 'string' || typeof o.name !== 'string') throw new Error(`${file}: set ${i + 1} needs a string "spec" and "name"`);
    const descriptions: string[] = [];
    if (typeof o.description === 'string') descriptions.push(dublinCoreToOaiDc({ description: [o.description] }));
    if (Array.isArray(o.descriptions)) descriptions.push(...o.descriptions.filter((d): d is string => typeof d === 'string'));
    return { spec: o.spec, name: o.name, ...(descriptions.length > 0 && { descriptions }) };
  });
}
