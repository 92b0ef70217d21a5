/**
 * Identifier governance, the last stage of the write gate (./judge.ts): the
 * registry rules over a batch and what the store already holds. Pure
 * functions; the store gathers the state, calls {@link checkBatch} and writes
 * only when no stage refused anything.
 *
 * Every rule reports every offending record (a loader run lists all problems
 * at once, not the first), and each refusal names the record, the field and
 * the reason (lib/model/refusal.ts `Refusal`).
 */
import type { ItemInput } from '../store';
import type { Refusal } from '../model/refusal';
import { parseOaiIdentifier } from '../ids/oai-identifier';
import { parsePoi, POI_PREFIX } from '../ids/poi';
import { parseInfoFedora } from '../ids/fedora-pid';
import { parseInfoSid } from '../ids/info-sid';
import { parsePdi } from '../ids/pdi';

/** The part of the id policy (lib/ids/policy.ts) the store needs. */
export interface IdPolicyLike {
  /** The configured namespace-identifier (for the capitalization rule). */
  readonly namespace: string;
  /** Maps an internal id to its oai-identifier; throws when the id cannot be mapped. */
  map(internalId: string): { readonly identifier: string; readonly scheme: string };
}

/** One identifier scheme recognised in a record's own identifier fields. */
export interface SchemeCheck {
  /** The prefix that marks a value as this scheme (compared case-insensitively). */
  readonly prefix: string;
  /** The scheme's name, for messages. */
  readonly name: string;
  /** Every fault of the value (empty when valid). */
  errors(value: string): readonly string[];
  /** The namespace-identifier the value names, when the scheme has one (oai, POI). */
  namespaceOf?(value: string): string | null;
}

const errorsOf = (r: { ok: true } | { ok: false; errors: readonly string[] }): readonly string[] => (r.ok ? [] : r.errors);

/** A scheme whose values name a namespace-identifier (oai-identifier, POI), checked by one parser. */
function namespaced(
  prefix: string,
  name: string,
  parse: (v: string) => { ok: true; namespace: string } | { ok: false; errors: readonly string[] },
): SchemeCheck {
  return {
    prefix,
    name,
    errors: (v) => errorsOf(parse(v)),
    namespaceOf: (v) => {
      const p = parse(v);
      return p.ok ? p.namespace : null;
    },
  };
}

/**
 * The schemes checked in `identifiers` fields. A value is checked by the
 * first scheme whose prefix it starts with; values with no known prefix
 * (plain URLs, ISBNs, free text) are not identifiers we govern.
 * Prefixes compare case-insensitively (URI schemes and URN namespace ids are
 * case-insensitive), so `OAI:…` is caught and then judged by the scheme's
 * own parser.
 */
export const SCHEME_CHECKS: readonly SchemeCheck[] = [
  namespaced('oai:', 'oai-identifier', parseOaiIdentifier),
  namespaced(POI_PREFIX, 'POI', parsePoi),
  { prefix: 'info:fedora/', name: 'info:fedora URI', errors: (v) => errorsOf(parseInfoFedora(v)) },
  { prefix: 'info:sid/', name: 'info:sid identifier', errors: (v) => errorsOf(parseInfoSid(v)) },
  { prefix: 'urn:pdi:', name: 'urn:pdi identifier', errors: (v) => errorsOf(parsePdi(v)) },
  { prefix: 'pdi://', name: 'pdi identifier', errors: (v) => errorsOf(parsePdi(v)) },
];

/** What the store holds about an item, as far as governance needs it. */
export interface ExistingItem {
  readonly internalId: string;
  readonly identifier: string;
  /** The harvested source the item came from; null or absent for a local item. */
  readonly origin?: string | null;
}

/**
 * The harvested source whose id space an internal id is in: `NAME` when the
 * id starts with `NAME:` for a source of `sources` (configured or ever
 * harvested), else null.
 *
 * @example sourceSpaceOf('plain:oai:h:p2', new Set(['plain'])) // 'plain'
 */
export function sourceSpaceOf(internalId: string, sources: ReadonlySet<string>): string | null {
  const colon = internalId.indexOf(':');
  if (colon <= 0) return null;
  const name = internalId.slice(0, colon);
  return sources.has(name) ? name : null;
}

/**
 * The dot-segments of an oai-identifier's POI path (`.` or `..`, RFC 3986
 * section 3.3): browsers, proxies and URL libraries remove them (RFC 3986
 * section 5.2.4), so `…/a/../b` reaches the POI of `…/b`, another item.
 *
 * @example poiDotSegments('oai:x.org:a/../b') // ['..']
 */
export function poiDotSegments(oaiIdentifier: string): string[] {
  const p = parseOaiIdentifier(oaiIdentifier);
  if (!p.ok) return [];
  return p.local.split('/').filter((seg) => seg === '.' || seg === '..' || /^(?:\.|%2e){1,2}$/i.test(seg));
}

/** One row of the identifier registry. */
export interface RegistryEntry {
  readonly identifier: string;
  readonly internalId: string;
}

/** An internal id mapped by the policy, or the reason it could not be. */
export type Mapping = { readonly ok: true; readonly identifier: string; readonly scheme: string } | { readonly ok: false; readonly reason: string };

/**
 * Maps every item's internal id with the policy, catching refusals: a `map`
 * that throws (empty id, lone surrogate, a PID the mode refuses) is a refusal
 * of the field `id`, not a crash.
 */
export function mapAll(policy: IdPolicyLike, items: readonly ItemInput[]): Mapping[] {
  return items.map((item) => {
    try {
      const m = policy.map(item.internalId);
      return { ok: true, identifier: m.identifier, scheme: m.scheme };
    } catch (err) {
      return { ok: false, reason: err instanceof Error ? err.message : String(err) };
    }
  });
}

/** Everything {@link checkBatch} looks at. */
export interface BatchState {
  readonly items: readonly ItemInput[];
  /** `mapAll(policy, items)`, index for index. */
  readonly mappings: readonly Mapping[];
  /** The configured namespace-identifier. */
  readonly namespace: string;
  /** Items already stored, by internal id (the batch's ids and the holders of its identifiers). */
  readonly existingByInternalId: ReadonlyMap<string, ExistingItem>;
  /** Stored items by identifier. */
  readonly existingByIdentifier: ReadonlyMap<string, ExistingItem>;
  /** Registry rows touching the batch: by identifier ... */
  readonly registryByIdentifier: ReadonlyMap<string, RegistryEntry>;
  /** ... and by internal id (every identifier ever published for it). */
  readonly registryByInternalId: ReadonlyMap<string, readonly RegistryEntry[]>;
  readonly schemes?: readonly SchemeCheck[];
  /** The harvested sources, configured or ever harvested: each owns the id space `NAME:`. */
  readonly sources?: ReadonlySet<string>;
}

/**
 * Every refusal the batch earns, in input order; empty when it may be
 * written. The rules:
 * 1. an internal id that maps to an identifier held (now or ever) by another internal id;
 * 2. two items of the batch with the same internal id or the same identifier;
 * 3. an existing item whose identifier would change (the policy changed);
 * 4. an invalid value of a known scheme in the record's own `identifiers`, or
 *    an oai-identifier/POI in the configured namespace with other capitalization;
 * 5. an internal id the policy cannot map;
 * 6. an id in a harvested source's space (`NAME:`) written by anything but
 *    that source's harvest, and a harvest that would take over a local item
 *    or another source's: id spaces never overwrite each other. This store
 *    writing an item it holds again (`rewrite`, a rebuild) is neither: it
 *    passes when the stored item has the origin it carries, and is refused
 *    when there is no such item, its origin is another, or it says it is a
 *    harvest or a version too, so a rewrite never moves an item;
 * 7. a new item whose POI path holds a dot-segment, which a browser or proxy
 *    would resolve to another item's POI.
 * (A set a record names is declared by the pipeline before it judges; its
 * syntax is a record rule.)
 * The result has one list per item, index for index (empty: the item passes).
 *
 * @example checkBatch({ items, mappings: mapAll(policy, items), namespace, …state }).every((r) => r.length === 0)
 */
export function checkBatch(state: BatchState): Refusal[][] {
  const refusals: Refusal[][] = state.items.map(() => []);
  const schemes = state.schemes ?? SCHEME_CHECKS;
  const firstByInternalId = new Map<string, number>();
  const firstByIdentifier = new Map<string, number>();

  state.items.forEach((item, index) => {
    const refuse = (field: string, reason: string): void => {
      (refusals[index] as Refusal[]).push(
        item.source === undefined ? { internalId: item.internalId, field, reason } : { internalId: item.internalId, source: item.source, field, reason },
      );
    };
    const mapping = state.mappings[index];

    // Rule 2: one internal id, one item per batch.
    const seenAt = firstByInternalId.get(item.internalId);
    if (seenAt !== undefined) {
      refuse('id', `the same internal id appears twice in one batch (first ${describe(state.items[seenAt])})`);
    } else {
      firstByInternalId.set(item.internalId, index);
    }

    if (!mapping || !mapping.ok) {
      // Rule 5.
      refuse('id', `the internal id cannot be mapped to an oai-identifier: ${mapping ? mapping.reason : 'no mapping'}`);
    } else {
      const identifier = mapping.identifier;
      // Rule 2: two internal ids, one identifier.
      const other = firstByIdentifier.get(identifier);
      if (other !== undefined && state.items[other]?.internalId !== item.internalId) {
        refuse('id', `maps to ${identifier}, as does ${describe(state.items[other])} in the same batch`);
      } else if (other === undefined) {
        firstByIdentifier.set(identifier, index);
      }
      // Rule 1: the identifier belongs to someone else, now or once.
      const holder = state.registryByIdentifier.get(identifier) ?? state.existingByIdentifier.get(identifier);
      if (holder && holder.internalId !== item.internalId) {
        refuse('id', `maps to ${identifier}, which is already held by internal id ${JSON.stringify(holder.internalId)}; identifiers are never reused`);
      }
      // Rule 3: an item's identifier never changes.
      const held = new Set<string>();
      const existing = state.existingByInternalId.get(item.internalId);
      if (existing) held.add(existing.identifier);
      for (const r of state.registryByInternalId.get(item.internalId) ?? []) held.add(r.identifier);
      held.delete(identifier);
      if (held.size > 0) {
        refuse(
          'id',
          `would change the identifier of an existing item from ${[...held].join(', ')} to ${identifier}; published identifiers are permanent (has the id policy changed?)`,
        );
      }
      // Rule 7: only a new identifier can be refused; a published one is never changed.
      const dots = existing ? [] : poiDotSegments(identifier);
      if (dots.length > 0) {
        refuse(
          'id',
          `maps to ${identifier}, whose POI path holds the dot-segment ${JSON.stringify(dots[0])}, which browsers and proxies resolve away (RFC 3986 section 5.2.4) to another item's POI; choose an id without "." or ".." between slashes`,
        );
      }
    }
    // Rule 6: id spaces.
    const sources = state.sources ?? new Set<string>();
    const space = sourceSpaceOf(item.internalId, sources);
    const stored = state.existingByInternalId.get(item.internalId);
    const from = item.harvestedFrom;
    if (item.rewrite !== undefined) {
      refuseRewrite(item, item.rewrite.origin, stored, refuse);
    } else if (from === undefined && space !== null) {
      refuse(
        'id',
        `is in the id space of the harvested source ${JSON.stringify(space)} (${space}:…), whose records only its harvests write and delete; give the record another id`,
      );
    } else if (from === undefined && stored?.origin) {
      refuse('id', `is an item harvested from ${JSON.stringify(stored.origin)}, whose records only its harvests write and delete`);
    } else if (from !== undefined && stored && (stored.origin ?? null) !== from) {
      const holder = stored.origin ? `an item harvested from ${JSON.stringify(stored.origin)}` : 'a local item (loaded, not harvested)';
      refuse('id', `is already ${holder}; a harvest of ${JSON.stringify(from)} never takes it over (rename the source, or the local item)`);
    }

    // Rule 4: the record's own identifier fields.
    (item.identifiers ?? []).forEach((value, i) => {
      const field = `identifiers[${i}]`;
      const scheme = schemes.find((s) => value.toLowerCase().startsWith(s.prefix.toLowerCase()));
      if (!scheme) return;
      const errors = scheme.errors(value);
      if (errors.length > 0) {
        refuse(field, `${JSON.stringify(value)} is not a valid ${scheme.name}: ${errors.join('; ')}`);
        return;
      }
      const ns = scheme.namespaceOf?.(value);
      if (ns && ns !== state.namespace && ns.toLowerCase() === state.namespace.toLowerCase()) {
        refuse(
          field,
          `${JSON.stringify(value)} writes the namespace ${JSON.stringify(ns)}, another capitalization of namespace ${JSON.stringify(state.namespace)}; namespace-identifiers are case-sensitive`,
        );
      }
    });
  });
  return refusals;
}

/**
 * Rule 6 for this store writing an item it holds again: the id space is the
 * stored item's own, so the rewrite passes exactly when the item is stored
 * with the origin the rewrite carries. Anything else would create an item or
 * move one between id spaces, and a rewrite that also says it is a harvest
 * or a version from another repository (which sets the source datestamp)
 * would not keep where the item came from.
 */
function refuseRewrite(item: ItemInput, origin: string | null, stored: ExistingItem | undefined, refuse: (field: string, reason: string) => void): void {
  if (item.harvestedFrom !== undefined || item.versioned === true) {
    const what = item.harvestedFrom !== undefined ? `a harvest of ${JSON.stringify(item.harvestedFrom)}` : 'a version from another repository';
    refuse('id', `is written again by this store and as ${what} at once; a rewrite keeps the origin and source datestamp the item has`);
  } else if (!stored) {
    refuse('id', 'is written again as a stored item, but the store holds no item of this id; a rewrite never creates one');
  } else if ((stored.origin ?? null) !== origin) {
    refuse('id', `is ${originOf(stored.origin ?? null)}, not ${originOf(origin)}; a rewrite never moves an item from one origin to another`);
  }
}

function originOf(origin: string | null): string {
  return origin === null ? 'a local item (loaded, not harvested)' : `an item harvested from ${JSON.stringify(origin)}`;
}

function describe(item: ItemInput | undefined): string {
  if (!item) return 'another record';
  return `${JSON.stringify(item.internalId)}${item.source ? ` at ${item.source}` : ''}`;
}
