/**
 * Turns a record read from OAI-PMH XML into a store item (lib/store/
 * `ItemInput`), or into refusals naming the input, the record and the field.
 *
 * The internal id: an identifier in the configured namespace is mapped back
 * with the id policy (`policy.unmap`), so exporting this repository and
 * loading the export into a fresh store publishes the very same identifiers;
 * any other oai-identifier (another repository's) becomes the internal id as
 * it is, and is published under this repository's namespace. A bare oai_dc
 * file of a folder has no header: its internal id comes from its file name.
 */
import { parseOaiIdentifier } from '../../lib/ids/oai-identifier';
import type { IdPolicy } from '../../lib/ids/policy';
import type { FormatRegistry } from '../../lib/formats/registry';
import { rootNamespaceOf } from '../../lib/formats/format';
import { readerOf, type ReadingFormat } from '../../lib/formats/readers';
import type { AboutInput, ItemInput, RecordNote } from '../../lib/store';
import { undeclaredFormat, type Refusal } from '../../lib/model/refusal';
import { nestedOrigin, provenanceAbout, sourceDatestamp, type OriginDescription } from '../../lib/pipeline/about';
import type { XmlRecord } from './xml-events';
import { shapeAdvice } from './shape-advice';
import { parseFragment } from '../../lib/xml/tree';

/** What the conversion needs to know about the repository and the input. */
export interface XmlRecordContext {
  readonly policy: Pick<IdPolicy, 'namespace' | 'unmap'>;
  readonly formats: FormatRegistry;
  /** The metadataPrefix the response was requested with, when its `request` element says. */
  readonly requestPrefix?: string;
  /** For a bare metadata file: the internal id (from the file name). */
  readonly internalId?: string;
  /** The response's `request` baseURL and `responseDate`, for the provenance of another repository's records. */
  readonly origin?: { readonly baseURL?: string; readonly responseDate?: string };
}

/**
 * The internal id an oai-identifier is loaded under: `policy.unmap` for an
 * identifier of this repository's namespace, the identifier itself for any
 * other; an error message when an identifier of this namespace has no
 * internal id under the policy (it could never be published as it is).
 *
 * `own` tells the two apart: a record of another repository gets a
 * provenance about container when loaded.
 *
 * @example internalIdFor(policy, 'oai:demo.oai-steward.org:report%2012') // { id: 'report 12', own: true }
 * @example internalIdFor(policy, 'oai:arXiv.org:hep-th/9901001') // { id: 'oai:arXiv.org:hep-th/9901001', own: false }
 */
export function internalIdFor(policy: Pick<IdPolicy, 'namespace' | 'unmap'>, identifier: string): { id: string; own: boolean } | { error: string } {
  const parsed = parseOaiIdentifier(identifier);
  if (parsed.ok && parsed.namespace === policy.namespace) {
    const id = policy.unmap(identifier);
    if (id === null) return { error: `${JSON.stringify(identifier)} is in this repository's namespace, but no internal id maps to it under the id policy` };
    return { id, own: true };
  }
  return { id: identifier, own: false };
}

/**
 * Where a record's metadata goes, by what the repository offers and the
 * namespace of its root element (a metadataPrefix is the source's own name
 * for a format, its namespace the format's global one: OAI-PMH 2.0 section
 * 3.4): under the prefix the response was requested in, when this
 * repository offers it (Invenio's `marcxml`, declared here, keeps its
 * name); else under the offered format whose records' namespace it is
 * (`marcxml` not declared but `marc21` offered: stored as `marc21`); else,
 * when a built-in reader reads the namespace, read into the model only
 * (`reader`, no prefix: e.g. DataCite kernel-3, or MARCXML where `marc21` is
 * not offered); else the prefix requested, which the caller refuses as a
 * format this repository does not know.
 *
 * @example givenPrefix({ formats, requestPrefix: 'marcxml' }, MARC_NS) // { prefix: 'marc21' } when marc21 is offered and marcxml is not
 */
export function givenPrefix(ctx: Pick<XmlRecordContext, 'formats' | 'requestPrefix'>, ns: string): { prefix?: string; reader?: ReadingFormat } {
  const requested = ctx.requestPrefix === undefined ? undefined : ctx.formats.get(ctx.requestPrefix);
  const byNs = ctx.formats.all().find((f) => rootNamespaceOf(f) === ns);
  // A requested prefix offered for another namespace is kept too: the judge refuses the XML by that format's schema.
  if (byNs !== undefined) return { prefix: (requested ?? byNs).prefix };
  const reader = readerOf(ns);
  if (reader !== undefined) return { reader };
  return ctx.requestPrefix === undefined ? {} : { prefix: ctx.requestPrefix };
}

/**
 * Converts one XML record. Day-granularity datestamps (`YYYY-MM-DD`, from
 * repositories with that granularity) are read as midnight UTC.
 *
 * @example xmlToItem(record, { policy, formats, requestPrefix: 'oai_dc' }, 'page1.xml:12 (record 3)')
 */
export function xmlToItem(rec: XmlRecord, ctx: XmlRecordContext, source: string): { item: ItemInput } | { refusals: Refusal[] } {
  const refusals: Refusal[] = [];
  let internalId = ctx.internalId ?? '';
  let own = true;
  const refuse = (field: string, reason: string): void => {
    refusals.push({ internalId, source, field, reason });
  };
  if (ctx.internalId === undefined) {
    if (rec.identifier === undefined || rec.identifier.trim() === '') refuse('header.identifier', 'required: the record has no identifier');
    else {
      const r = internalIdFor(ctx.policy, rec.identifier);
      if ('error' in r) refuse('header.identifier', r.error);
      else {
        internalId = r.id;
        own = r.own;
      }
    }
  }
  for (const p of rec.problems) refuse(p.field, p.reason);

  // A source's datestamp is a fact about the source, kept in provenance; this store stamps every record
  // with its own time (lib/pipeline/decide.ts `datestampOf`), so one it cannot read refuses nothing.
  let datestamp: number | undefined;
  let read: { value: string; seconds: number } | null = null;
  const notes: RecordNote[] = [];
  if (rec.datestamp !== undefined) {
    read = sourceDatestamp(rec.datestamp);
    if (read !== null) datestamp = read.seconds;
    if (read === null || read.value !== rec.datestamp.trim()) notes.push(datestampNote(internalId, source, rec.datestamp, read?.value, !own));
  } else if (ctx.internalId === undefined) {
    refuse('header.datestamp', 'required: the record has no datestamp');
  }

  const metadata: Record<string, string> = {};
  let harvestedPrefix: string | undefined;
  let readFrom: { namespace: string; xml: string } | undefined;
  if (!rec.deleted) {
    if (rec.metadata === undefined) refuse('metadata', 'required: a record that is not deleted needs metadata');
    else {
      const ns = rec.metadataNamespace ?? '';
      const { prefix, reader } = givenPrefix(ctx, ns);
      if (prefix === undefined && reader !== undefined) {
        // XML the repository reads into the model but does not serve as it is (e.g. DataCite kernel-3).
        readFrom = { namespace: ns, xml: rec.metadata };
        harvestedPrefix = reader.prefix;
      } else if (prefix === undefined || !ctx.formats.get(prefix)) {
        // A bare file of a shape the loader does not read is told what shape it is, not to declare a format.
        const root = ctx.internalId !== undefined ? parseFragment(rec.metadata) : null;
        const advice = root === null ? undefined : shapeAdvice(root.local, root.ns);
        if (advice !== undefined) refuse('xml', advice);
        else {
          const { reason, cause } = undeclaredFormat(prefix, ns);
          refusals.push({ internalId, source, field: 'metadata', reason: root === null ? reason : `the root element <${root.name}>: ${reason}`, cause });
        }
      } else {
        metadata[prefix] = rec.metadata;
        harvestedPrefix = prefix;
      }
    }
  }
  let about: AboutInput[] = rec.about.map((xml) => ({ xml }));
  if (!rec.deleted && !own && harvestedPrefix !== undefined) {
    const origin = ctx.origin ?? {};
    if (origin.baseURL === undefined)
      refuse('request', 'the response names no baseURL in its request element, so the provenance of its records cannot be recorded');
    else if (!isAbsoluteHttpUrl(origin.baseURL))
      refuse(
        'request',
        `the baseURL ${JSON.stringify(origin.baseURL)} of its request element is not an absolute http or https URL, so it cannot be recorded as the provenance of its records`,
      );
    if (origin.responseDate === undefined) refuse('responseDate', 'the response has no responseDate, so the provenance of its records cannot be recorded');
    if (origin.baseURL !== undefined && isAbsoluteHttpUrl(origin.baseURL) && origin.responseDate !== undefined) {
      about = withProvenance(about, {
        harvestDate: origin.responseDate,
        // The metadata is kept as harvested (only its serialization is canonical): altered only when
        // something between reading and storing changed it, or when it is read into the model and
        // served in other formats only (readFrom).
        altered: readFrom !== undefined || metadata[harvestedPrefix] !== rec.metadata,
        baseURL: origin.baseURL,
        identifier: rec.identifier?.trim() ?? '',
        // provenance.xsd allows only a UTC date or datetime here: one read from another notation, or the harvestDate
        // standing for one that cannot be read (lib/pipeline/about.ts `provenanceAbout`), compared as written.
        datestamp: read?.value ?? origin.responseDate?.trim() ?? '',
        ...(read === null && rec.datestamp !== undefined && { givenDatestamp: rec.datestamp.trim() }),
        // The namespace of the format harvested (the one the record is stored under), not whatever its
        // root element claims; XML read into the model only keeps its own namespace.
        metadataNamespace: (readFrom === undefined ? ctx.formats.get(harvestedPrefix)?.namespace : undefined) ?? rec.metadataNamespace ?? '',
      });
    }
  }
  if (refusals.length > 0) return { refusals };
  return {
    item: {
      internalId,
      ...(datestamp !== undefined && { datestamp }),
      deleted: rec.deleted,
      sets: [...rec.sets],
      metadata,
      identifiers: rec.deleted ? [] : [...rec.dcIdentifiers],
      ...(readFrom !== undefined && { readFrom }),
      ...(!rec.deleted && about.length > 0 && { about }),
      // A record of an OAI-PMH response is a version, ordered by its header datestamp.
      ...(ctx.internalId === undefined && { versioned: true }),
      source,
      ...(notes.length > 0 && { notes }),
    },
  };
}

/**
 * The note of a header datestamp that is not an OAI-PMH datestamp: read from
 * another notation (`as`), or not read at all.
 */
function datestampNote(internalId: string, source: string, given: string, as: string | undefined, provenance: boolean): RecordNote {
  const who = `record ${JSON.stringify(internalId)} (${source})`;
  const what = `its header datestamp ${JSON.stringify(given)} is not YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ (OAI-PMH 2.0 section 3.3.1)`;
  return {
    kind: as === undefined ? 'source datestamp unreadable' : 'source datestamp in another notation',
    text:
      as === undefined
        ? `${who}: ${what}; the record is written with this store's datestamp${provenance ? ', and its provenance gives the harvestDate as its datestamp there' : ''}`
        : `${who}: ${what}; read as ${as}${provenance ? ', which its provenance gives' : ''}`,
  };
}

/**
 * The about containers of a harvested record with this harvest's provenance
 * first: the provenance container the record already had (from an earlier
 * aggregator) is replaced by the new one, its originDescription nested
 * inside (the provenance guidelines' chain); the other containers follow,
 * in their order.
 *
 * @example withProvenance([{ xml: rightsXml }], origin) // [provenanceAbout(origin), { xml: rightsXml }]
 */
export function withProvenance(about: readonly AboutInput[], origin: OriginDescription): AboutInput[] {
  let nested = '';
  const rest: AboutInput[] = [];
  for (const a of about) {
    const earlier = nested === '' ? nestedOrigin(a.xml) : null;
    if (earlier !== null) nested = earlier;
    else rest.push(a);
  }
  return [provenanceAbout(origin, nested), ...rest];
}

/** A base URL a provenance can name: absolute, http or https (a `javascript:` or relative one would be served as a link). */
function isAbsoluteHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
