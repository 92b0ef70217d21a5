/**
 * Prepare, the third stage of the write pipeline (ARCHITECTURE.md): from a
 * record's model (given or lifted, ./lift.ts), everything the store keeps of
 * it — its metadata in every configured format the model allows (the
 * writers, run once here, never per request), the sets by rule it is in, the
 * rights container of its licence, and the identifier values governance
 * judges. The XML a record gives for a format is kept as given (the loader
 * made its serialization canonical); every other format is written here.
 *
 * What this stage writes is trusted because the pipeline wrote it: the
 * writers escape values the model's checks passed, and their tests prove
 * their output against the published XSDs, so the judge (./judge.ts) skips
 * its XSD and character scans for the prefixes in `written`. Nothing a
 * caller passes can put a prefix there: `written` is computed here alone.
 *
 * Pure: no I/O, no clock.
 */
import crypto from 'node:crypto';
import { dublinCoreToOaiDc } from '../formats/oai-dc';
import { profileDublinCore, type OaiDcProfile } from '../formats/oai-dc-profile';
import { isNotOffered, type CrosswalkContext } from '../formats/format';
import { WRITERS_VERSION, type FormatRegistry } from '../formats/registry';
import { poiFromOaiIdentifier } from '../ids/poi';
import { dublinCore, licences } from '../model/facts';
import type { DublinCore } from '../model/dublin-core';
import type { RecordFields } from '../model/record';
import { setsWithRules, type SetDefinitions } from '../sets/rules';
import type { AboutInput, ItemInput } from '../store';
import { aboutNamespace, rightsAbout } from './about';
import { pairDatacite } from './datacite-pair';
import type { IdPolicyLike } from './governance';
import { liftFields } from './lift';
import { RIGHTS_NS } from '../xml/namespaces';

/** How records are prepared in a repository: its formats and the choices of its configuration. */
export interface Preparation {
  /** The formats offered, with their configured options. */
  readonly formats: FormatRegistry;
  /** Maps an internal id to its oai-identifier, which the writers write where their format has a place for it. */
  readonly policy: IdPolicyLike;
  /** oai_dc's profile: `openaire3` adds the info:eu-repo terms of OpenAIRE 3.0 (lib/formats/oai-dc-profile.ts). Default `plain`. */
  readonly oaiDcProfile?: OaiDcProfile;
  /** Whether oai_dc carries the item's POI as a dc:identifier, where harvesters look for links. */
  readonly poiInDublinCore?: boolean;
  /** The sets of the configuration: a live item joins the rule sets its model satisfies. */
  readonly setRules?: SetDefinitions;
  /** Whether a live item gets a rights `about` container per licence its model states (OAI-PMH rights guidelines). */
  readonly rightsInAbout?: boolean;
  /** Which given format a model is lifted from first (./lift.ts `DEFAULT_LIFT_ORDER` when absent). */
  readonly liftOrder?: readonly string[];
}

/**
 * An item as the pipeline prepared it: `metadata` holds every format it is
 * stored in, `written` the prefixes this stage wrote, `fields` its model
 * (given, or lifted from `liftedFrom`).
 */
export interface PreparedItem extends ItemInput {
  readonly metadata: Readonly<Record<string, string>>;
  readonly written: readonly string[];
  readonly liftedFrom?: string;
  /** The XML it gave that is kept but not served (./withhold.ts), each with why. */
  readonly withheld?: readonly WithheldFormat[];
}

/** XML a record gave in a format, kept with the item but not served as it: its schema refuses it (./withhold.ts). */
export interface WithheldFormat {
  readonly prefix: string;
  readonly xml: string;
  /** The schema's reasons, joined. */
  readonly reason: string;
}

/** The writers' identifiers of an item: its oai-identifier and POI, or undefined when the policy refuses the id (governance says why). */
function itemIdentifiers(policy: IdPolicyLike, internalId: string): { oaiIdentifier: string; poi: string } | undefined {
  try {
    const oaiIdentifier = policy.map(internalId).identifier;
    return { oaiIdentifier, poi: poiFromOaiIdentifier(oaiIdentifier) };
  } catch {
    return undefined;
  }
}

/**
 * The Dublin Core an item's oai_dc is written from: its model's under the
 * profile, with its POI as a dc:identifier when configured. One model
 * whatever the input: the Dublin Core the record says (`dc`) joined by its
 * typed fields (creators, dates, identifiers, type, language, licence, …),
 * as lib/model/facts.ts `dublinCore` joins them, whether the model was
 * lifted from XML (a reader puts a value in `dc` only when no typed field
 * takes it) or given by the record (the project's JSON record format,
 * docs/record-format.md#dublin-core-and-the-record-fields). The readiness
 * check judges the same (server/check/cli.ts).
 *
 * @example oaiDcOf({ dc: { title: ['T'] } }, { poiInDublinCore: true }, 'http://purl.org/poi/x.org/1') // { title: ['T'], identifier: ['http://purl.org/poi/x.org/1'] }
 */
export function oaiDcOf(fields: RecordFields, p: Pick<Preparation, 'oaiDcProfile' | 'poiInDublinCore'>, poi: string | undefined): DublinCore {
  const dc: DublinCore = profileDublinCore({ ...fields, dc: dublinCore(fields) }, p.oaiDcProfile ?? 'plain');
  const own = dc.identifier ?? [];
  return p.poiInDublinCore && poi !== undefined && !own.includes(poi) ? { ...dc, identifier: [...own, poi] } : dc;
}

/**
 * An item's metadata in every configured format: the XML the record gives
 * (`given`, by prefix) as it is, oai_dc from the model's Dublin Core under
 * the profile (with the POI when configured; filled from its typed fields:
 * lib/model/facts.ts `dublinCore`), every other built-in format
 * written from the model with the item's oai-identifier and POI. `written`
 * names the prefixes written here; `identifiers` is the model's
 * dc:identifier values followed by those a writer added (the POI).
 * Deterministic: `rebuild-formats` runs it again over the stored model.
 *
 * @example writeFormats(preparation, 'report 12', { dc: { title: ['T'] } }, {}).written // ['oai_dc', 'marc21', 'mods'] with every built-in format configured
 */
export function writeFormats(
  p: Preparation,
  internalId: string,
  fields: RecordFields,
  given: Readonly<Record<string, string>>,
): { metadata: Record<string, string>; written: string[]; identifiers: string[] } {
  const metadata: Record<string, string> = {};
  const written: string[] = [];
  const ids = itemIdentifiers(p.policy, internalId);
  const identifiers = [...(fields.dc.identifier ?? [])];
  // In the registry's order, so the stored order never depends on the input's.
  for (const f of p.formats.all()) {
    const own = given[f.prefix];
    if (own !== undefined) {
      metadata[f.prefix] = own;
      continue;
    }
    const out = writeOne(p, f.prefix, fields, ids);
    if (out === undefined) continue;
    metadata[f.prefix] = out.xml;
    written.push(f.prefix);
    for (const v of out.identifiers) if (!identifiers.includes(v)) identifiers.push(v);
  }
  // XML given in a prefix the registry does not know is kept for the judge, which refuses it by name.
  for (const [prefix, xml] of Object.entries(given)) if (metadata[prefix] === undefined) metadata[prefix] = xml;
  // datacite and oai_datacite serve one DataCite record, the given one where one of them is given (./datacite-pair.ts).
  pairDatacite(metadata, written, given);
  return { metadata, written, identifiers };
}

/**
 * One format of an item as {@link writeFormats} writes it, from its stored
 * model and its published oai-identifier: how a store that keeps only the
 * model writes a format when it is asked for (server/store/on-demand.ts).
 * The same function writes at load and on demand, so the two agree byte for
 * byte under one {@link preparationFingerprint}. Undefined when the format
 * is not configured, cannot be written from the model, or is not offered
 * for this record. `given`: the item's given XML of the format's partner
 * (datacite for oai_datacite, and the reverse), when it has one.
 *
 * @example writeFormatOf(preparation, 'mods', fields, 'oai:example.org:report-12', false)
 */
export function writeFormatOf(
  p: Preparation,
  prefix: string,
  fields: RecordFields,
  oaiIdentifier: string,
  given: Readonly<Record<string, string>> = {},
): string | undefined {
  const xml = writeOne(p, prefix, fields, { oaiIdentifier, poi: poiFromOaiIdentifier(oaiIdentifier) })?.xml;
  if (xml === undefined) return undefined;
  // As writeFormats: datacite and oai_datacite serve the given one of the two (./datacite-pair.ts).
  const metadata: Record<string, string> = { ...given, [prefix]: xml };
  pairDatacite(metadata, [prefix], given);
  return metadata[prefix];
}

/** One format written from the model, with the dc:identifier values it added (oai_dc: the POI); undefined when not written. */
function writeOne(
  p: Preparation,
  prefix: string,
  fields: RecordFields,
  ids: { oaiIdentifier: string; poi: string } | undefined,
): { xml: string; identifiers: readonly string[] } | undefined {
  const f = p.formats.get(prefix);
  if (!f) return undefined;
  if (f.prefix === 'oai_dc') {
    const dc = oaiDcOf(fields, p, ids?.poi);
    return { xml: dublinCoreToOaiDc(dc), identifiers: dc.identifier ?? [] };
  }
  if (!f.fromRecord || !ids) return undefined;
  const ctx: CrosswalkContext = { oaiIdentifier: ids.oaiIdentifier, poi: ids.poi, options: {} };
  // A format's configured options (e.g. oai_datacite's datacentreSymbol) over the context's.
  const out = f.fromRecord(fields, f.options ? { ...ctx, options: { ...ctx.options, ...f.options } } : ctx);
  return isNotOffered(out) ? undefined : { xml: out, identifiers: [] };
}

/**
 * What decides the bytes {@link writeFormatOf} writes besides the record:
 * the writers' version, the formats that are written with their options, in
 * order, oai_dc's profile and whether it carries the POI. A store that
 * writes formats on demand keeps the fingerprint it wrote them under; under
 * another one, what it would serve is not what its content hashes (and so
 * its datestamps) stand for, until `rebuild-formats` re-stamps what changed.
 *
 * @example preparationFingerprint(preparation) // 'w2:9f2c…'
 */
export function preparationFingerprint(p: Preparation): string {
  const formats = p.formats.all().flatMap((f) => (f.prefix === 'oai_dc' || f.fromRecord ? [[f.prefix, sortedEntries(f.options ?? {})]] : []));
  const text = JSON.stringify({ formats, oaiDcProfile: p.oaiDcProfile ?? 'plain', poiInDublinCore: p.poiInDublinCore === true });
  return `w${WRITERS_VERSION}:${crypto.hash('sha256', text, 'hex').slice(0, 32)}`;
}

function sortedEntries(o: object): [string, unknown][] {
  return Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The item's about containers with a rights container per licence its model states, unless it carries one already (a harvested record keeps the rights its source stated). */
function withRights(about: readonly AboutInput[], fields: RecordFields | undefined): readonly AboutInput[] {
  if (!fields || about.some((a) => aboutNamespace(a.xml) === RIGHTS_NS)) return about;
  const found = licences(fields);
  return found.length === 0 ? about : [...about, ...found.map(rightsAbout)];
}

/**
 * Prepares one item: lifts its model when it brings none, writes every
 * format the model allows, puts it into the rule sets its model satisfies
 * (and out of those it no longer does), adds its rights container when
 * configured. A tombstone is prepared as it is: no formats, its sets as
 * given (absent: kept from the stored item).
 *
 * @example prepareItem({ internalId: 'a', fields: { dc: { title: ['T'] } }, metadata: {} }, preparation).written // ['oai_dc', …]
 */
export function prepareItem(item: ItemInput, p: Preparation): PreparedItem {
  // Built field by field, never by spreading the input: only this stage says what it wrote.
  const base = {
    internalId: item.internalId,
    ...(item.datestamp !== undefined && { datestamp: item.datestamp }),
    ...(item.keepDatestamp === true && { keepDatestamp: true }),
    ...(item.keepDatestamp === true && item.formatDatestamps !== undefined && { formatDatestamps: item.formatDatestamps }),
    ...(item.source !== undefined && { source: item.source }),
    ...(item.versioned === true && { versioned: true }),
    ...(item.harvestedFrom !== undefined && { harvestedFrom: item.harvestedFrom }),
    ...(item.rewrite !== undefined && { rewrite: item.rewrite }),
    ...(item.departures !== undefined && item.departures.length > 0 && { departures: item.departures }),
    ...(item.notes !== undefined && item.notes.length > 0 && { notes: item.notes }),
  };
  if (item.deleted === true) {
    return {
      ...base,
      deleted: true,
      ...(item.sets !== undefined && { sets: item.sets }),
      metadata: Object.fromEntries(Object.keys(item.metadata).map((prefix) => [prefix, ''])),
      ...(item.identifiers !== undefined && { identifiers: item.identifiers }),
      written: [],
    };
  }
  const lifted = liftFields(item, p.formats, p.liftOrder);
  const fields = item.fields ?? lifted?.fields;
  const sets = p.setRules && p.setRules.all.length > 0 ? setsWithRules(p.setRules, fields ?? { dc: {} }, item.sets ?? []) : item.sets;
  const about = p.rightsInAbout ? withRights(item.about ?? [], fields) : (item.about ?? []);
  if (!fields) {
    return {
      ...base,
      deleted: false,
      ...(sets !== undefined && { sets }),
      metadata: { ...item.metadata },
      ...(item.identifiers !== undefined && { identifiers: item.identifiers }),
      ...(about.length > 0 && { about }),
      written: [],
    };
  }
  const { metadata, written, identifiers } = writeFormats(p, item.internalId, fields, item.metadata);
  const all = [...(item.identifiers ?? [])];
  for (const v of identifiers) if (!all.includes(v)) all.push(v);
  return {
    ...base,
    deleted: false,
    ...(sets !== undefined && { sets }),
    metadata,
    fields,
    identifiers: all,
    ...(about.length > 0 && { about }),
    written,
    ...(lifted !== undefined && { liftedFrom: lifted.from }),
  };
}
