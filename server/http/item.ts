/**
 * An item with every format it has, read through the store interface
 * (getHeader names the formats, getRecord gives each one), its record model
 * (the stored one, `RecordFieldsStore`), the facts read from that model, and
 * its FAIR Signposting links. Shared by the record page and the POI
 * resolver, so both say the same about an item.
 */
import type { ProviderContext } from '../../lib/oai';
import type { ItemHeader, RecordFieldsStore } from '../../lib/store';
import type { RecordFields } from '../../lib/model/record';
import { liftStored } from '../../lib/pipeline/lift';
import type { ItemFormatView, ItemView } from '../../lib/html';
import { itemFacts, signpostingLinks } from '../../lib/signposting';
import type { SignpostLink } from '../../lib/signposting';
import { parseFragment } from '../../lib/xml/tree';
import { isValidOaiIdentifier } from '../../lib/ids/oai-identifier';
import { poiFromOaiIdentifier } from '../../lib/ids/poi';
import { getRecordUrl } from '../../lib/oai-url';

/** An item as the record page and the resolver see it. */
export interface LoadedItem extends ItemView {
  readonly header: ItemHeader;
}

/** How {@link loadItem} reads an item. */
export interface LoadItemOptions {
  /** A record the caller already has, so it is not read again. */
  readonly known?: { readonly prefix: string; readonly record: ItemFormatView['record'] };
  /** Where the item's record model is stored; without it (or for an item stored without one), the model is lifted from its XML. */
  readonly fields?: RecordFieldsStore;
}

/**
 * Reads an item, each of its formats the repository offers (registry order,
 * so oai_dc first) and its record model; null when no item has the
 * identifier. The facts (cite-as, identifiers, licences, types, files) are
 * read from the model; the formats are shown as they are stored.
 * Example: `(await loadItem(ctx, 'oai:demo.oai-steward.org:rep-2024-0001', { fields: store }))?.facts.citation`.
 */
export async function loadItem(ctx: ProviderContext, identifier: string, options: LoadItemOptions = {}): Promise<LoadedItem | null> {
  const { known } = options;
  const header = await ctx.store.getHeader(identifier);
  if (!header) return null;
  const offered = ctx.formats.all().filter((f) => header.formats.includes(f.prefix));
  const formats: ItemFormatView[] = [];
  for (const format of offered) {
    const record = known?.prefix === format.prefix ? known.record : await ctx.store.getRecord(identifier, format.prefix);
    if (!record) continue;
    formats.push({ format, record, tree: record.metadata === null ? null : parseFragment(record.metadata) });
  }
  // Items published under another scheme's identifier have no POI (POI 4 maps oai-identifiers only).
  const poi = isValidOaiIdentifier(header.identifier) ? poiFromOaiIdentifier(header.identifier) : null;
  // A tombstone has no metadata (OAI-PMH 2.5.1): it is cited by its POI alone.
  const model: RecordFields = header.deleted ? { dc: {} } : await itemModel(ctx, header, formats, options.fields);
  return { header, formats, model, facts: itemFacts(model, poi ?? undefined), poi };
}

/**
 * The record model of a live item: as stored, else lifted from the XML of
 * its formats (an item written before the pipeline stored every model).
 */
async function itemModel(
  ctx: ProviderContext,
  header: ItemHeader,
  formats: readonly ItemFormatView[],
  fields: RecordFieldsStore | undefined,
): Promise<RecordFields> {
  const stored = fields ? (await fields.recordFields([header.internalId])).get(header.internalId) : undefined;
  return stored ?? liftStored(Object.fromEntries(formats.map((f) => [f.format.prefix, f.record.metadata])), ctx.formats);
}

/**
 * Where this server answers a POI, as a path: `/poi/{namespace}/{local}` (the local part as it is, `?` included).
 * Example: `resolverPath('http://purl.org/poi/x.org/q?a=1')` → `'/poi/x.org/q?a=1'`.
 */
export function resolverPath(poi: string): string {
  return poi.replace(/^http:\/\/purl\.org\//, '/');
}

/** The same on the base URL's origin, absolute. Example: `resolverUrl(ctx, poi)` → `'http://localhost:3000/poi/x.org/1'`. */
export function resolverUrl(ctx: ProviderContext, poi: string): string {
  return `${new URL(ctx.repository.baseURL).origin}${resolverPath(poi)}`;
}

/**
 * The Signposting links of an item: describedby points at GetRecord of
 * each format (XML, profile = the format's namespace), and the linkset at
 * the resolver. Example: `linkHeader(itemLinks(ctx, item))`.
 */
export function itemLinks(ctx: ProviderContext, item: LoadedItem): SignpostLink[] {
  const base = ctx.repository.baseURL;
  return signpostingLinks({
    // An item with neither a persistent identifier nor a POI is cited by its record's address.
    citeAs: item.facts.citation?.uri ?? getRecordUrl(base, item.header.identifier, 'oai_dc'),
    deleted: item.header.deleted,
    describedBy: item.formats.map((f) => ({
      href: getRecordUrl(base, item.header.identifier, f.format.prefix),
      type: 'application/xml',
      profile: f.format.namespace,
    })),
    types: item.facts.types,
    licenses: item.facts.licenses,
    files: item.facts.files,
    ...(item.poi !== null && { linkset: resolverUrl(ctx, item.poi) }),
  });
}

/** The landing page of an item: its record page (GetRecord in oai_dc, which a browser gets as HTML). Example: `landingPage(ctx, 'oai:x.org:1')`. */
export function landingPage(ctx: ProviderContext, identifier: string): string {
  return getRecordUrl(ctx.repository.baseURL, identifier, 'oai_dc');
}
