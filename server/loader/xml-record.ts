/**
 * Turns a record read from OAI-PMH XML into a store item (lib/store.ts
 * `ItemInput`), or into refusals naming the input, the record and the field.
 *
 * The internal id: an identifier in the configured namespace is mapped back
 * with the id policy (`policy.unmap`), so exporting this repository and
 * loading the export into a fresh store publishes the very same identifiers;
 * any other oai-identifier (another repository's) becomes the internal id as
 * it is, and is published under this repository's namespace. A bare oai_dc
 * file of a folder has no header: its internal id comes from its file name.
 */
import { parseUtcDatetime } from '../../lib/oai/dates';
import { parseOaiIdentifier } from '../../lib/ids/oai-identifier';
import type { IdPolicy } from '../../lib/ids/policy';
import type { FormatRegistry } from '../../lib/formats/registry';
import type { ItemInput, Refusal } from '../../lib/store';
import type { XmlRecord } from './read-oai-xml';

/** What the conversion needs to know about the repository and the input. */
export interface XmlRecordContext {
  readonly policy: Pick<IdPolicy, 'namespace' | 'unmap'>;
  readonly formats: FormatRegistry;
  /** The metadataPrefix the response was requested with, when its `request` element says. */
  readonly requestPrefix?: string;
  /** For a bare metadata file: the internal id (from the file name). */
  readonly internalId?: string;
}

/**
 * The internal id an oai-identifier is loaded under: `policy.unmap` for an
 * identifier of this repository's namespace, the identifier itself for any
 * other; an error message when an identifier of this namespace has no
 * internal id under the policy (it could never be published as it is).
 *
 * @example internalIdFor(policy, 'oai:demo.oai-steward.org:report%2012') // { id: 'report 12' }
 * @example internalIdFor(policy, 'oai:arXiv.org:hep-th/9901001') // { id: 'oai:arXiv.org:hep-th/9901001' }
 */
export function internalIdFor(policy: Pick<IdPolicy, 'namespace' | 'unmap'>, identifier: string): { id: string } | { error: string } {
  const parsed = parseOaiIdentifier(identifier);
  if (parsed.ok && parsed.namespace === policy.namespace) {
    const id = policy.unmap(identifier);
    if (id === null) return { error: `${JSON.stringify(identifier)} is in this repository's namespace, but no internal id maps to it under the id policy` };
    return { id };
  }
  return { id: identifier };
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
  const refuse = (field: string, reason: string): void => {
    refusals.push({ internalId, source, field, reason });
  };
  if (ctx.internalId === undefined) {
    if (rec.identifier === undefined || rec.identifier.trim() === '') refuse('header.identifier', 'required: the record has no identifier');
    else {
      const r = internalIdFor(ctx.policy, rec.identifier);
      if ('error' in r) refuse('header.identifier', r.error);
      else internalId = r.id;
    }
  }
  for (const p of rec.problems) refuse(p.field, p.reason);

  let datestamp: number | undefined;
  if (rec.datestamp !== undefined) {
    const p = parseUtcDatetime(rec.datestamp.trim());
    if (!p) refuse('header.datestamp', `${JSON.stringify(rec.datestamp)} is not YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ`);
    else datestamp = p.start;
  } else if (ctx.internalId === undefined) {
    refuse('header.datestamp', 'required: the record has no datestamp');
  }

  const metadata: Record<string, string> = {};
  if (!rec.deleted) {
    if (rec.metadata === undefined) refuse('metadata', 'required: a record that is not deleted needs metadata');
    else {
      // The prefix the response was requested in; else the format whose namespace the root element is in.
      const byNs = ctx.formats.all().find((f) => f.namespace === rec.metadataNamespace);
      const prefix = ctx.requestPrefix ?? byNs?.prefix;
      if (prefix === undefined) refuse('metadata', `no metadata format of this repository has the namespace ${JSON.stringify(rec.metadataNamespace ?? '')}`);
      else if (!ctx.formats.get(prefix)) refuse('metadata', `unknown metadataPrefix ${JSON.stringify(prefix)} (not in the format registry)`);
      else metadata[prefix] = rec.metadata;
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
      source,
    },
  };
}
